"""Fractional max and average pooling (Graham, 2014): `tf.nn.fractional_max_pool`,
`tf.nn.fractional_avg_pool`.

Pooling by a ratio like 1.5 instead of 2: the rows (and columns) are cut into
floor(size / ratio) windows of k or k + 1 entries (k = floor(ratio)), in a random
order. The cut points are the *pooling sequence* [0, ..., size]; window i covers
entries seq[i] .. seq[i+1] - 1 (.. seq[i+1] with overlapping=True).

>>> import minitf as tf
>>> x = tf.reshape(tf.range(1.0, 10.0), [1, 3, 3, 1])
>>> out, rows, cols = tf.nn.fractional_max_pool(x, [1.0, 1.5, 1.5, 1.0], seed=7)
>>> out.shape, rows.numpy().tolist()[0], rows.numpy().tolist()[-1]
(TensorShape([1, 2, 2, 1]), 0, 3)

As in TF, random_pooling shuffles the window sizes, pseudo_random uses the paper's
ceil(alpha * (i + u)) cuts; seed=0 draws new sequences every call, another seed
fixes them (minitf's random numbers are not TF's: the sequences differ from TF's,
the pooling of a given sequence does not). The gradient of the max goes to the
first maximum of each window; that of the average is spread over the window.
"""
import collections
import math

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .random_ops import get_seed

FractionalMaxPoolResult = collections.namedtuple(
    "FractionalMaxPool", ["output", "row_pooling_sequence", "col_pooling_sequence"])
FractionalAvgPoolResult = collections.namedtuple(
    "FractionalAvgPool", ["output", "row_pooling_sequence", "col_pooling_sequence"])
_DTYPES = {dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64}


# --- pooling sequences ----------------------------------------------------------------------
def pooling_sequence(input_length, output_length, rng, pseudo_random):
    """TF's GeneratePoolingSequence: output_length + 1 cut points from 0 to input_length."""
    k = input_length // output_length
    if pseudo_random:
        alpha = input_length / output_length
        max_u = min((k + 2) / alpha - 1,
                    (input_length + 1 - k) / alpha - (output_length - 1))
        u = rng.uniform(0.0, max_u)
        cuts = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, output_length)] + \
            [input_length + 1]
        diff = np.diff(cuts)
    else:
        diff = np.full(output_length, k)
        diff[:input_length % output_length] += 1
        if input_length % output_length:
            rng.shuffle(diff)
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def _windows(sequence, size, overlapping):
    """(start, end) of each window, end exclusive and clamped to the input."""
    ends = sequence[1:] + (1 if overlapping else 0)
    return [(int(a), int(min(b, size))) for a, b in zip(sequence[:-1], ends)]


def pool(value, rows, cols, overlapping, mode):
    """Pool `value` [batch, height, width, channels] over the windows the two sequences
    cut; also returns, for max pooling, the flat position of each window's first maximum."""
    batch, height, width, channels = value.shape
    row_windows, col_windows = _windows(rows, height, overlapping), _windows(cols, width,
                                                                             overlapping)
    out = np.zeros((batch, len(row_windows), len(col_windows), channels), value.dtype)
    where = np.zeros(out.shape, np.int64)
    for i, (r0, r1) in enumerate(row_windows):
        for j, (c0, c1) in enumerate(col_windows):
            window = value[:, r0:r1, c0:c1].reshape(batch, -1, channels)
            if mode == "max":
                best = np.argmax(window, axis=1)            # first maximum, row-major
                out[:, i, j] = np.take_along_axis(window, best[:, None], 1)[:, 0]
                w = c1 - c0
                where[:, i, j] = (r0 + best // w) * width + c0 + best % w
            else:
                total = window.sum(axis=1, dtype=np.float64)
                out[:, i, j] = total / window.shape[1] if value.dtype.kind == "f" \
                    else total // window.shape[1]
    return out, where


# --- the ops ------------------------------------------------------------------------------------
def _output_sizes(shape, ratios):
    sizes = []
    for axis in (1, 2):
        size = int(math.floor(shape[axis] / ratios[axis]))
        if size <= 0:
            raise errors.op_error(
                errors.InvalidArgumentError, "FractionalMaxPool",
                f"Pooling ratio is higher than input dimension size for dimension {axis}. "
                f"Input dim size: {shape[axis]} pooling ratio: {ratios[axis]:g}",
                "Use a ratio no larger than the image.")
        sizes.append(size)
    return sizes


def _forward(mode):
    def forward(value, pooling_ratio, pseudo_random, overlapping, seed, seed2):
        if value.ndim != 4:
            raise errors.op_error(errors.InvalidArgumentError, "FractionalMaxPool",
                                  "tensor_in must be 4-dimensional",
                                  "Pool [batch, height, width, channels] images.")
        out_rows, out_cols = _output_sizes(value.shape, pooling_ratio)
        rng = np.random.default_rng(None if (seed, seed2) == (0, 0) else [seed, seed2])
        rows = pooling_sequence(value.shape[1], out_rows, rng, pseudo_random)
        cols = pooling_sequence(value.shape[2], out_cols, rng, pseudo_random)
        out, where = pool(value, rows, cols, overlapping, mode)
        return (out, rows, cols), where
    return forward


def _shape(value, pooling_ratio, **attrs):
    dims = value.dims if value.rank == 4 else [None] * 4
    sizes = [None if d is None else int(math.floor(d / r)) for d, r in
             zip(dims[1:3], pooling_ratio[1:3])]
    return (TensorShape([dims[0], *sizes, dims[3]]), TensorShape([None if sizes[0] is None
                                                                  else sizes[0] + 1]),
            TensorShape([None if sizes[1] is None else sizes[1] + 1]))


def _dtype(value, **attrs):
    return value, dtypes.int64, dtypes.int64


FractionalMaxPool = Op("FractionalMaxPool", _forward("max"), dtypes=_DTYPES, num_outputs=3,
                       saves=True, stateful=True, shape=_shape, dtype=_dtype)
FractionalAvgPool = Op("FractionalAvgPool", _forward("avg"), dtypes=_DTYPES, num_outputs=3,
                       saves=True, stateful=True, shape=_shape, dtype=_dtype)


def _max_grad_forward(dy, where, height, width):
    batch, _, _, channels = dy.shape
    grad = np.zeros((batch, height * width, channels), dy.dtype)
    positions = where.reshape(batch, -1, channels)
    np.add.at(grad, (np.arange(batch)[:, None, None], positions,
                     np.arange(channels)[None, None, :]), dy.reshape(batch, -1, channels))
    return grad.reshape(batch, height, width, channels)


def _avg_grad_forward(dy, rows, cols, height, width, overlapping):
    grad = np.zeros((dy.shape[0], height, width, dy.shape[3]), dy.dtype)
    for i, (r0, r1) in enumerate(_windows(rows, height, overlapping)):
        for j, (c0, c1) in enumerate(_windows(cols, width, overlapping)):
            grad[:, r0:r1, c0:c1] += dy[:, i:i + 1, j:j + 1] / ((r1 - r0) * (c1 - c0))
    return grad


FractionalMaxPoolGrad = Op("FractionalMaxPoolGrad", _max_grad_forward, typed=(0,),
                           shape=lambda dy, where, height, width: TensorShape(
                               [dy.dims[0] if dy.rank else None, height, width,
                                dy.dims[3] if dy.rank else None]))
FractionalAvgPoolGrad = Op("FractionalAvgPoolGrad", _avg_grad_forward, typed=(0,),
                           shape=lambda dy, rows, cols, height, width, overlapping: TensorShape(
                               [dy.dims[0] if dy.rank else None, height, width,
                                dy.dims[3] if dy.rank else None]))


@FractionalMaxPool.def_grad
def _fractional_max_pool_grad(op, dy, d_rows, d_cols):
    _, height, width, _ = op.inputs[0].shape.as_list()
    where = convert_to_tensor(op.saved)
    return apply(FractionalMaxPoolGrad, [dy, where], {"height": height, "width": width})


@FractionalAvgPool.def_grad
def _fractional_avg_pool_grad(op, dy, d_rows, d_cols):
    _, height, width, _ = op.inputs[0].shape.as_list()
    return apply(FractionalAvgPoolGrad, [dy, op.outputs[1], op.outputs[2]],
                 {"height": height, "width": width, "overlapping": op.attrs["overlapping"]})


# --- tf.nn.fractional_max_pool, tf.nn.fractional_avg_pool --------------------------------------
def _ratios(pooling_ratio):
    if isinstance(pooling_ratio, (list, tuple)):
        if pooling_ratio[0] != 1.0 or pooling_ratio[-1] != 1.0:
            raise ValueError("`pooling_ratio` should have first and last elements with value "
                             f"1.0. Received: pooling_ratio={pooling_ratio}")
        if any(r < 1.0 for r in pooling_ratio):
            raise ValueError("`pooling_ratio` elements should be >= 1.0. Received: "
                             f"pooling_ratio={pooling_ratio}")
        if len(pooling_ratio) != 4:
            raise ValueError("pooling_ratio should be of length 1, 2 or 4 but was "
                             f"{len(pooling_ratio)}")
        return tuple(float(r) for r in pooling_ratio)
    if isinstance(pooling_ratio, (int, float)) and not isinstance(pooling_ratio, bool):
        if pooling_ratio < 1.0:
            raise ValueError("`pooling_ratio` should be >= 1.0. Received: "
                             f"pooling_ratio={pooling_ratio}")
        return (1.0, float(pooling_ratio), float(pooling_ratio), 1.0)
    raise ValueError("`pooling_ratio` should be an int or a list of ints. Received: "
                     f"pooling_ratio={pooling_ratio}")


def _kernel_ratios(pooling_ratio):
    """fractional_avg_pool has no Python checks in TF: its kernel's."""
    if not isinstance(pooling_ratio, (list, tuple)):
        raise TypeError("Expected list for 'pooling_ratio' argument to 'fractional_avg_pool' "
                        f"Op, not {pooling_ratio}.")
    if len(pooling_ratio) < 4:
        raise errors.op_error(errors.InvalidArgumentError, "FractionalAvgPool",
                              f"Length for attr 'pooling_ratio' of {len(pooling_ratio)} must "
                              "be at least minimum 4", "Give [1.0, rows, cols, 1.0].")
    for r in pooling_ratio:
        if r < 1:
            raise errors.op_error(errors.InvalidArgumentError, "FractionalAvgPool",
                                  f"pooling_ratio cannot be smaller than 1, got: {r:g}",
                                  "A ratio of r keeps 1/r of the rows or columns.")
    if pooling_ratio[0] != 1 or pooling_ratio[3] != 1:
        raise errors.op_error(errors.UnimplementedError, "FractionalAvgPool",
                              "Fractional average pooling is not yet supported on the batch "
                              "nor channel dimension.", "Give [1.0, rows, cols, 1.0].")
    return tuple(float(r) for r in pooling_ratio[:4])


def _fractional_pool(op, result, value, ratios, pseudo_random, overlapping, seed):
    seed, seed2 = (0, 0) if seed == 0 else get_seed(seed)
    attrs = {"pooling_ratio": ratios, "pseudo_random": bool(pseudo_random),
             "overlapping": bool(overlapping), "seed": int(seed), "seed2": int(seed2)}
    return result(*apply(op, [convert_to_tensor(value)], attrs))


@tf_export("nn.fractional_max_pool")
def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """Max pooling over windows of fractional average size pooling_ratio (>= 1, e.g.
    [1.0, 1.44, 1.73, 1.0]; a number means [1, r, r, 1]). Returns (output,
    row_pooling_sequence, col_pooling_sequence); see the module docstring.

    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.nn.fractional_max_pool(x, 2.0).output[0, :, :, 0].numpy()  # ratio 2: plain 2x2
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
    """
    return _fractional_pool(FractionalMaxPool, FractionalMaxPoolResult, value,
                            _ratios(pooling_ratio), pseudo_random, overlapping, seed)


@tf_export("nn.fractional_avg_pool")
def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """Average pooling over fractional windows, as fractional_max_pool (integers average
    with floor division, as TF's kernel). pooling_ratio must be a list here, as in TF.

    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.nn.fractional_avg_pool(x, [1.0, 2.0, 2.0, 1.0]).output[0, :, :, 0].numpy()
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)
    """
    return _fractional_pool(FractionalAvgPool, FractionalAvgPoolResult, value,
                            _kernel_ratios(pooling_ratio), pseudo_random, overlapping, seed)
