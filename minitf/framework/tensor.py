"""`tf.Tensor`: an immutable n-dimensional array with a dtype and a shape.

In eager mode a tensor is an `EagerTensor` that simply holds a NumPy array
(`_value`), never changed after creation. Arithmetic operators (`+`, `@`,
`[...]`, ...) are attached by `minitf/ops/operators.py`, exactly as TensorFlow
attaches them in `math_ops.py`: the tensor class itself knows no math.

>>> import minitf as tf
>>> x = tf.constant([1.0, 2.0])
>>> x
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
>>> x.shape, x.dtype, x.numpy()
(TensorShape([2]), tf.float32, array([1., 2.], dtype=float32))
"""
import numbers

import numpy as np

from . import dtypes
from .tensor_shape import TensorShape


class Tensor:
    """The public `tf.Tensor` class: the base of eager and symbolic tensors."""

    __slots__ = ("_dtype", "__weakref__")
    # Make `numpy_array + tensor` call Tensor.__radd__ instead of NumPy's own loop.
    __array_priority__ = 100

    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return self.shape.rank

    def get_shape(self):
        return self.shape

    def ref(self):
        """A hashable reference to this tensor (tensors themselves are unhashable)."""
        return _TensorRef(self)

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class EagerTensor(Tensor):
    """A tensor with a concrete value, computed immediately (TF2's default)."""

    __slots__ = ("_value",)

    def __init__(self, value, dtype=None):
        # `value` is a NumPy array the engine owns; it is never mutated afterwards.
        self._value = value
        self._dtype = dtype if dtype is not None else dtypes.from_numpy(value.dtype)

    @property
    def shape(self):
        return TensorShape(self._value.shape)

    @property
    def ndim(self):
        return self._value.ndim

    def numpy(self):
        """A NumPy copy of the value (0-d tensors give a NumPy scalar, like TF)."""
        if self._value.ndim == 0:
            return self._value[()]
        return self._value.copy()

    # --- Python protocols ---------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        if dtype is None:
            return self._value.copy() if copy else self._value
        return self._value.astype(dtype)

    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        for row in self._value:
            yield EagerTensor(np.asarray(row), self._dtype)

    def __bool__(self):
        return bool(self._value)

    def __float__(self):
        return float(self._value)

    def __int__(self):
        return int(self._value)

    def __index__(self):
        return self._value[()].__index__() if self._value.ndim == 0 else self._value.__index__()

    def __format__(self, spec):
        if self._value.ndim == 0:
            return format(self._value[()], spec)
        return format(str(self), spec)

    def __repr__(self):
        return (f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, "
                f"numpy={_numpy_text(self._value, is_repr=True)}>")

    def __str__(self):
        return f"tf.Tensor({_numpy_text(self._value)}, shape={self.shape}, dtype={self._dtype.name})"

    def __reduce__(self):
        return EagerTensor, (self._value, self._dtype)


def _numpy_text(value, is_repr=False):
    if value.ndim == 0:
        item = value[()]
        return repr(item) if isinstance(item, bytes) else str(item)
    return repr(value) if is_repr else str(value)


class _TensorRef:
    """What `tensor.ref()` returns: hashable by identity, `.deref()` gives it back."""

    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __eq__(self, other):
        return isinstance(other, _TensorRef) and other._tensor is self._tensor


# --- turning Python and NumPy values into tensors ---------------------------

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1

# Objects that know how to become a tensor (Variable registers itself here),
# like TensorFlow's `tensor_conversion_registry`.
_conversion_functions = []


def register_tensor_conversion_function(base_type, conversion_func):
    """Teach `convert_to_tensor` a new type: `conversion_func(value, dtype)`."""
    _conversion_functions.append((base_type, conversion_func))


def _python_array(value):
    """TF's inference for Python values: ints -> int32 (int64 if too big), floats -> float32."""
    try:
        array = np.array(value)
    except ValueError:
        array = None
    if array is None or array.dtype == object and not _all_strings(value):
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    kind = array.dtype.kind
    if kind == "f":
        return array.astype(np.float32)
    if kind in "iu":
        if array.size == 0 or _INT32_MIN <= array.min() and array.max() <= _INT32_MAX:
            return array.astype(np.int32)
        return array.astype(np.int64)
    if kind in "US":
        return np.vectorize(_to_bytes, otypes=[object])(array) if array.ndim else np.array(
            _to_bytes(array[()]), dtype=object)
    if kind == "O":
        return np.vectorize(_to_bytes, otypes=[object])(array)
    return array


def _all_strings(value):
    if isinstance(value, (str, bytes)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_all_strings(v) for v in value)
    return False


def _to_bytes(s):
    return s.encode("utf-8") if isinstance(s, str) else bytes(s)


def _cast_python(value, array, dtype):
    """Convert a Python value to `dtype`, refusing to lose information (like TF)."""
    target = dtype._np
    if dtype is dtypes.string:
        if array.dtype != object:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")
        return array
    if array.dtype == object:
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    if array.dtype.kind in "fc" and target.kind in "iub":
        if array.dtype.kind == "c" or not np.all(np.equal(np.mod(array, 1), 0)):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    if array.dtype.kind == "c" and target.kind == "f":
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    with np.errstate(over="ignore", invalid="ignore"):
        return array.astype(target)


def to_array(value, dtype=None):
    """The NumPy array `tf.constant(value, dtype)` would hold."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        array = np.asarray(value)
        if array.dtype.kind in "US":
            array = np.vectorize(_to_bytes, otypes=[object])(array)
        if dtype is not None and dtypes.from_numpy(array.dtype) is not dtype:
            array = array.astype(dtype._np)
        return array
    array = _python_array(value)
    if dtype is not None and dtypes.from_numpy(array.dtype) is not dtype:
        array = _cast_python(value, array, dtype)
    return array


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """`tf.convert_to_tensor`: a Tensor from a Tensor, Variable, NumPy array or Python value.

    `dtype` is required (a Tensor of another dtype raises `ValueError`);
    `dtype_hint` is only preferred, used when the value converts to it cleanly.

    >>> tf.convert_to_tensor([1, 2])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    >>> tf.convert_to_tensor(2, dtype_hint=tf.float32)
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """
    if isinstance(value, Tensor):
        if dtype is not None and value._dtype is not dtypes.as_dtype(dtype):
            raise ValueError(
                f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for Tensor "
                f"with dtype {value._dtype.name}: {value!r}. Use tf.cast(x, "
                f"tf.{dtypes.as_dtype(dtype).name}) when you mean to change the dtype."
            )
        return value
    for base_type, conversion_func in _conversion_functions:
        if isinstance(value, base_type):
            return conversion_func(value, None if dtype is None else dtypes.as_dtype(dtype))
    if dtype is not None:
        return EagerTensor(to_array(value, dtypes.as_dtype(dtype)))
    if dtype_hint is not None:
        hint = dtypes.as_dtype(dtype_hint)
        try:
            return EagerTensor(_hinted_array(value, hint), hint)
        except (TypeError, ValueError):
            pass
    return EagerTensor(to_array(value))


def _hinted_array(value, hint):
    """Convert to `hint` if that loses nothing: ints may become floats, floats not ints."""
    if isinstance(value, (np.ndarray, np.generic)):
        array = np.asarray(value)
        if array.dtype.kind == hint._np.kind or array.dtype.kind in "iu" and hint._np.kind in "fc":
            return array.astype(hint._np)
        raise TypeError("hint does not fit")
    if isinstance(value, numbers.Number) and not isinstance(value, bool) or isinstance(
            value, (list, tuple)):
        array = _python_array(value)
        return _cast_python(value, array, hint)
    raise TypeError("hint does not fit")
