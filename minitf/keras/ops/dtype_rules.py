"""Keras 3's dtype promotion: what `keras.ops.add(int32, float32)` returns.

`tf.add` never promotes: `tf.constant(1) + tf.constant(1.0)` raises
`InvalidArgumentError`, and a Python scalar simply takes the tensor's dtype.
`keras.ops` promotes, like NumPy and JAX: every binary op first asks
`result_type` for the dtype both inputs should have, casts them, then calls
the `tf.*` op. The rule is a lattice (JAX's): a dtype promotes to any dtype
above it, and two dtypes meet at their least upper bound:

    bool -> int* -> u8/i8 -> i16 -> i32 -> i64 -> float* -> bf16/f16 -> f32 -> f64 -> c128
                    (u8 -> u16 -> u32 -> u64 -> float*, and u8 -> i16, u16 -> i32, u32 -> i64)

`int*` and `float*` are the *weak* types of Python scalars: `x + 1` keeps
`x`'s dtype (int8 stays int8, float16 stays float16), while two tensors meet
higher up (int8 with uint8 gives int16, int32 with float16 gives float16).
A result that is still weak becomes the `floatx()` width (float32, int32).

>>> import minitf as tf
>>> from minitf.keras.ops.dtype_rules import result_type
>>> result_type("int32", "float32"), result_type("int8", "uint8"), result_type("float16", int)
('float32', 'int16', 'float16')
>>> tf.keras.ops.add(tf.constant([1, 2]), tf.constant([0.5, 0.5])).dtype  # tf.add would raise
tf.float32

In Keras this is `keras/src/backend/common/dtypes.py`; the lattice, the
weak types and the 64-bit rule below follow it line for line (TensorFlow
backend: int64 and float64 stay 64-bit, uint64 becomes uint32).
"""
import functools

import numpy as np

import minitf as tf

from ...framework.tf_export import tf_export

BOOL_TYPES = ("bool",)
INT_TYPES = ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")
FLOAT_TYPES = ("bfloat16", "float16", "float32", "float64")
WEAK_TYPES = ("int", "float")
COMPLEX_TYPES = ("complex64", "complex128")
ALLOWED_DTYPES = ("float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64",
                  "int8", "int16", "int32", "int64", "bfloat16", "bool", "string",
                  "float8_e4m3fn", "float8_e5m2", "complex64", "complex128")
# Python types as dtypes (TensorFlow backend: a Python int means int64).
PYTHON_DTYPES = {bool: "bool", int: "int64", float: "float32", str: "string",
                 "int": "int64", complex: "complex128"}
BIT64_TO_BIT32 = {"uint64": "uint32"}  # JAX makes every 64-bit type 32-bit; TF keeps int64/float64

# Each dtype -> the dtypes just above it.
LATTICE = {
    "bool": ["int"],
    "uint8": ["int16", "uint16"], "uint16": ["int32", "uint32"],
    "uint32": ["int64", "uint64"], "uint64": ["float"],
    "int": ["uint8", "int8", "complex64"],
    "int8": ["int16"], "int16": ["int32"], "int32": ["int64"], "int64": ["float"],
    "float": ["bfloat16", "float16"],
    "bfloat16": ["float32"], "float16": ["float32"], "float32": ["float64", "complex64"],
    "float64": ["complex128"], "complex64": ["complex128"], "complex128": [],
}


def _upper_bounds():
    """dtype -> every dtype at or above it (the transitive closure of LATTICE)."""
    bounds = {}
    for node in LATTICE:
        seen, todo = {node}, [node]
        while todo:
            for up in LATTICE[todo.pop()]:
                if up not in seen:
                    seen.add(up)
                    todo.append(up)
        bounds[node] = seen
    return bounds


UPPER_BOUNDS = _upper_bounds()


@functools.lru_cache(512)
def _least_upper_bound(*nodes):
    for node in nodes:
        if node not in UPPER_BOUNDS:
            raise ValueError(f"dtype={node!r} is not a valid dtype for Keras type promotion.")
    common = set.intersection(*(UPPER_BOUNDS[n] for n in nodes))
    least = (common & set(nodes)) or {c for c in common if common <= UPPER_BOUNDS[c]}
    if len(least) != 1:
        raise ValueError(
            f"Input dtypes {tuple(nodes)} have no available implicit dtype promotion path. "
            "Try explicitly casting inputs to the desired output type.")
    return least.pop()


@tf_export("keras.backend.standardize_dtype")
def standardize_dtype(dtype):
    """The dtype's name as a string ('float32'); None means `floatx()`.

    >>> standardize_dtype(tf.int32), standardize_dtype(float), standardize_dtype(None)
    ('int32', 'float32', 'float32')
    """
    if dtype is None:
        return tf.keras.backend.floatx()
    if isinstance(dtype, (type, str)) and dtype in PYTHON_DTYPES:
        dtype = PYTHON_DTYPES[dtype]
    if hasattr(dtype, "name"):
        dtype = dtype.name
    elif isinstance(dtype, np.dtype) or (isinstance(dtype, type) and issubclass(dtype, np.generic)):
        dtype = np.dtype(dtype).name
    elif hasattr(dtype, "__name__"):
        dtype = dtype.__name__
    if dtype not in ALLOWED_DTYPES:
        raise ValueError(f"Invalid dtype: {dtype}")
    return dtype


def _weak(dtype):
    """The weak counterpart of a Python scalar's dtype."""
    if dtype == "bool":
        return dtype
    for kind in ("float", "int", "complex"):
        if kind in dtype:
            return kind
    raise ValueError(f"Invalid value for argument `dtype`. Received: dtype={dtype}")


def _resolve_weak(dtype, precision):
    kind = "f" if dtype == "bfloat16" else dtype[:1]
    return {"b": "bool", "i": f"int{precision}", "u": f"uint{precision}"}.get(
        kind, f"float{precision}")


@tf_export("keras.backend.result_type")
def result_type(*dtypes):
    """The dtype Keras 3 gives an op on inputs of these dtypes.

    A dtype may be a string, a `tf.DType`, or the Python type `int`/`float`
    standing for a (weak) Python scalar; None means `floatx()`.

    >>> result_type("int32", float), result_type(int, float), result_type()
    ('float32', 'float32', 'float32')
    """
    if not dtypes:
        return tf.keras.backend.floatx()
    dtypes = [tf.keras.backend.floatx() if d is None else d for d in dtypes]
    for d in dtypes:
        if d in ("float8_e4m3fn", "float8_e5m2"):
            raise ValueError("There is no implicit conversions from float8 dtypes to others. "
                             f"You must cast it internally. Received: {dtypes}")
    names = [standardize_dtype(d) for d in dtypes]
    weak = [d is int or d is float for d in dtypes]
    if len(names) == 1:
        out, out_weak = names[0], weak[0]
    elif len(set(names)) == 1 and not all(weak):
        out, out_weak = names[0], False
    elif all(weak):
        out, out_weak = _least_upper_bound(*sorted(set(names))), True
    else:
        nodes = {_weak(d) if w else d for d, w in zip(names, weak)}
        out = _least_upper_bound(*sorted(nodes))
        out_weak = out in WEAK_TYPES
    if out != "bool" and out_weak:
        out = _resolve_weak(out, tf.keras.backend.floatx()[-2:])
    return BIT64_TO_BIT32.get(out, out)


# -- helpers every keras.ops family uses --------------------------------------------------

def is_python_scalar(x):
    return isinstance(x, (int, float)) and not isinstance(x, (bool, np.generic))


def dtype_of(x):
    """A tensor's dtype name, or the Python type of a Python scalar (a weak type)."""
    if is_python_scalar(x):
        return type(x)
    return standardize_dtype(x.dtype)


def convert(x, dtype=None):
    """Keras's `convert_to_tensor` on the TensorFlow backend.

    Unlike `tf.convert_to_tensor`, a dtype given for a Python or NumPy value
    of another kind is reached by a cast (1.7 with dtype int32 is 1)."""
    if dtype is not None:
        dtype = standardize_dtype(dtype)
    if isinstance(x, tf.Variable):
        x = tf.convert_to_tensor(x)
    if not isinstance(x, tf.Tensor):
        if dtype == "bool" or (dtype is not None and "int" in dtype):
            return tf.cast(tf.convert_to_tensor(x), dtype)
        return tf.convert_to_tensor(x, dtype=dtype)
    if dtype is not None and x.dtype.name != dtype:
        return tf.cast(x, dtype)
    return x


def promote(*xs, extra=()):
    """Convert `xs` to tensors of their Keras `result_type` (with `extra` dtypes joined in)."""
    xs = [x if is_python_scalar(x) else convert(x) for x in xs]
    dtype = result_type(*(dtype_of(x) for x in xs), *extra)
    return [convert(x, dtype) for x in xs]


def concrete(x, op_name, hint):
    """x's NumPy value, for ops whose output shape depends on the values (eager mode only)."""
    if hasattr(x, "numpy") and not isinstance(x, np.ndarray):
        try:
            return x.numpy()
        except AttributeError:
            pass
        raise ValueError(f"`keras.ops.{op_name}` in minitf works on concrete values, and inside "
                         f"tf.function they are symbolic. {hint}")
    return np.asarray(x)


def float_dtype(dtype):
    """Keras's rule for ops that need a float input: ints and bool compute in `floatx()`."""
    return dtype if "float" in dtype or "complex" in dtype else tf.keras.backend.floatx()
