"""tf.math.sobol_sample: points of Sobol's low-discrepancy sequence in the unit cube [0, 1)^dim.

>>> import minitf as tf
>>> tf.math.sobol_sample(2, 4)  # they fill the square evenly: halves, then quarters, ...
<tf.Tensor: shape=(4, 2), dtype=float32, numpy=
array([[0.5  , 0.5  ],
       [0.75 , 0.25 ],
       [0.25 , 0.75 ],
       [0.375, 0.375]], dtype=float32)>

Point i (counted from 1: TF skips the all-zero point 0, then `skip` more) is, per axis, the XOR
of the direction numbers v_j for the bits j of i's Gray code i ^ (i >> 1). The direction
numbers are Joe and Kuo's (new-joe-kuo-6.21201, up to 21200 axes), as in TF's kernel: minitf
reads the table SciPy ships for scipy.stats.qmc.Sobol, runs Joe and Kuo's recurrence and XORs
in NumPy; the points equal TF's bit for bit (tests/ops/test_special_math.py compares them).
In TensorFlow this is the SobolSample kernel; it computes 1 / 2^(number of bits) in int32,
which overflows to a negative scale once num_results + skip + 1 reaches 2^30: from there on
TF's points come out negated. minitf reproduces that, so that its numbers equal TF's.
"""
import functools
import importlib.util
import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .scipy_support import scipy_module

MAX_DIM = 21200
_LIMIT = 2**31 - 1


def _invalid(message, hint):
    return errors.op_error(errors.InvalidArgumentError, "SobolSample", message, hint)


def _check(dim, num_results, skip):
    if dim < 1:
        raise _invalid("dim must be at least one", "Ask for points with 1 or more coordinates.")
    if dim > MAX_DIM:
        raise _invalid(f"dim must be at most {MAX_DIM}",
                       f"Joe and Kuo's table has direction numbers for {MAX_DIM} axes.")
    if num_results < 1:
        raise _invalid("num_results must be at least one", "Ask for 1 or more points.")
    if skip < 0:
        raise _invalid("skip must be non-negative", "skip counts points to leave out: 0 or more.")
    if num_results + skip >= _LIMIT:
        raise _invalid(f"num_results+skip must be less than {_LIMIT}",
                       "The kernel counts points in int32.")


@functools.lru_cache(maxsize=1)
def _joe_kuo_table():
    """(poly, vinit) of new-joe-kuo-6.21201, from the copy SciPy ships for scipy.stats.qmc.

    Read as a data file: importing scipy.stats itself takes seconds."""
    spec = importlib.util.find_spec("scipy")
    path = spec and os.path.join(os.path.dirname(spec.origin), "stats",
                                 "_sobol_direction_numbers.npz")
    if not path or not os.path.exists(path):
        scipy_module("stats.qmc", "tf.math.sobol_sample")  # no SciPy: its install hint
        raise ImportError("tf.math.sobol_sample: this SciPy has no stats/_sobol_direction_numbers"
                          ".npz (Joe and Kuo's table); install scipy>=1.11")
    with np.load(path) as data:
        return data["poly"].astype(np.int64), data["vinit"].astype(np.int64)


def _direction_numbers(dim, bits=32):
    """V[axis, j] = m_j << (bits - 1 - j), by Joe and Kuo's recurrence for axis d >= 1 with
    primitive polynomial x^s + a_1 x^(s-1) + ... + 1 (poly's bits) and first m's from vinit:
    m_j = m_(j-s) ^ (m_(j-s) << s) ^ XOR over k < s with a_k set of (m_(j-k) << k).
    Axis 0 has every m_j = 1 (the van der Corput sequence)."""
    poly, vinit = _joe_kuo_table()
    poly, vinit = poly[:dim], vinit[:dim]
    degree = np.zeros(dim, np.int64)
    degree[1:] = np.floor(np.log2(poly[1:])).astype(np.int64)
    m = np.zeros((dim, bits), np.int64)
    m[0] = 1
    first = np.arange(vinit.shape[1])[None, :] < degree[1:, None]
    m[1:, :vinit.shape[1]] = np.where(first, vinit[1:], 0)
    rows = np.arange(dim)
    for j in range(1, bits):
        new = m[rows, np.maximum(j - degree, 0)]
        new = new ^ (new << degree)
        for k in range(1, vinit.shape[1]):
            use = (k < degree) & (((poly >> np.maximum(degree - k, 0)) & 1) == 1) & (j >= k)
            new = np.where(use, new ^ (m[:, max(j - k, 0)] << k), new)
        m[:, j] = np.where((rows > 0) & (degree <= j), new, m[:, j])
    return (m << (bits - 1 - np.arange(bits))).astype(np.uint32)


def _sobol_forward(dim, num_results, skip, dtype):
    dim, num_results, skip = int(dim), int(num_results), int(skip)
    _check(dim, num_results, skip)
    directions = _direction_numbers(dim)
    index = np.arange(skip + 1, skip + num_results + 1, dtype=np.int64)  # TF skips point 0
    gray = index ^ (index >> 1)
    bits = np.zeros((num_results, dim), np.uint32)
    for j in range(31):  # XOR in v_j wherever bit j of the Gray code is set
        bits ^= np.where(((gray >> j) & 1)[:, None] == 1, directions[None, :, j], np.uint32(0))
    points = bits / 2.0**32
    if num_results + skip + 1 >= 2**30:
        points = -points  # TF's int32 scale 1 << 31 wraps to -2^31 (see the module docstring)
    return points.astype(dtype.as_numpy_dtype)


def _sobol_shape(*input_shapes, dtype):
    return TensorShape([None, None])  # the sizes are values, known when the op runs


SobolSample = Op("SobolSample", _sobol_forward, typed=(), shape=_sobol_shape,
                 dtype=lambda *input_dtypes, dtype: dtype)


def _int32_input(value, index):
    if isinstance(value, Tensor) and value.dtype != dtypes.int32:
        raise errors.op_error(
            errors.InvalidArgumentError, "SobolSample",
            f"cannot compute SobolSample as input #{index}(zero-based) was expected to be a "
            f"int32 tensor but is a {dtypes.tf_type_name(value.dtype)} tensor",
            "dim, num_results and skip are int32: tf.cast them first.")
    return convert_to_tensor(value, dtypes.int32)


@tf_export("math.sobol_sample")
def sobol_sample(dim, num_results, skip=0, dtype=dtypes.float32, name=None):
    """`num_results` points of the Sobol sequence in [0, 1)^dim, after the first `skip`.

    dim, num_results and skip are int32 scalars; dtype is tf.float32 or tf.float64.

    >>> tf.math.sobol_sample(3, 2, skip=4, dtype=tf.float64).numpy()
    array([[0.875, 0.875, 0.125],
           [0.625, 0.125, 0.875]])
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.float32, dtypes.float64):
        raise errors.op_error(
            errors.InvalidArgumentError, "SobolSample",
            f"Value for attr 'dtype' of {dtypes.tf_type_name(dtype)} is not in the list of "
            "allowed values: float, double",
            "Sobol points are floats: pass dtype=tf.float32 or tf.float64.")
    inputs = [_int32_input(v, i) for i, v in enumerate((dim, num_results, skip))]
    return apply(SobolSample, inputs, {"dtype": dtype})
