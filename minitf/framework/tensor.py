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
import math

import numpy as np

from . import dtypes
from .tensor_shape import TensorShape

# Where an op runs unless a tf.device scope says otherwise (framework/device.py).
DEFAULT_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


class Tensor:
    """The public `tf.Tensor` class: the base of eager and symbolic tensors."""

    # `_keras_mask`: the padding mask a Keras layer attached (keras/engine/masking.py)
    __slots__ = ("_dtype", "__weakref__", "_keras_mask")
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

    # `_device`: set only on results made under a non-default device (framework/device.py)
    __slots__ = ("_value", "_device")

    def __init__(self, value, dtype=None):
        # `value` is a NumPy array the engine owns; it is never mutated afterwards.
        self._value = value
        self._dtype = dtype if dtype is not None else dtypes.from_numpy(value.dtype)

    @property
    def device(self):
        """The full name of the device that made this tensor, as TF reports it."""
        try:
            return self._device
        except AttributeError:
            return DEFAULT_DEVICE

    @property
    def shape(self):
        return TensorShape.from_numpy_shape(self._value.shape)

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
        if dtype is not None:
            return self._value.astype(dtype)
        if copy:
            return self._value.copy()
        view = self._value.view()  # read-only, as in TF: a tensor never changes
        view.flags.writeable = False
        return view

    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        value = self._value
        return (EagerTensor(np.asarray(row, dtype=value.dtype), self._dtype) for row in value)

    def __bool__(self):
        # Like TF: an empty tensor is False; more than one element is ambiguous (ValueError).
        return bool(self._value.size > 0 and self._value)

    def __float__(self):
        return float(self._value)

    def __int__(self):
        return int(self._value)

    def __index__(self):
        # Only integer scalars can index a list; NumPy raises TF's errors for the rest.
        return self.numpy().__index__()

    def __format__(self, spec):
        return format(self.numpy(), spec)

    def __repr__(self):
        return (f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, "
                f"numpy={_numpy_text(self._value, is_repr=True)}>")

    def __str__(self):
        return (f"tf.Tensor({_numpy_text(self._value)}, shape={self.shape}, "
                f"dtype={self._dtype.name})")

    def __reduce__(self):
        return EagerTensor, (self._value, self._dtype)


def _numpy_text(value, is_repr=False):
    """How TF shows a value: repr of the Python number for scalars (float32 0.1 shows as
    0.10000000149011612), NumPy's repr/str for arrays, on a new line if it spans several."""
    item = value[()] if value.ndim == 0 else value
    if not is_repr:
        text = str(item)
    elif value.ndim == 0 and not isinstance(item, bytes):
        text = repr(item.item())
    else:
        text = repr(item)
    return "\n" + text if "\n" in text else text


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
#
# TensorFlow's rules (constant_op.py and the C++ py_seq_tensor.cc), followed here:
#   * NumPy arrays and scalars keep their dtype (float64 stays float64); a
#     requested dtype casts them.
#   * In a Python value, the first number decides the kind: bool, int, float,
#     complex or string. A later float widens ints to floats ([1, 2.5] is
#     float32); anything else that does not fit is "mixed types" ([True, 1]).
#   * ints become int32, or int64 when one does not fit; floats become float32.
#   * A requested dtype never silently loses a Python value's meaning: 1.5 and
#     even 2.0 cannot become int32 (TypeError), 1 cannot become bool.

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1
_FLOAT32_MAX = float(np.finfo(np.float32).max)

# Objects that know how to become a tensor (Variable registers itself here),
# like TensorFlow's `tensor_conversion_registry`.
_conversion_functions = []


def register_tensor_conversion_function(base_type, conversion_func):
    """Teach `convert_to_tensor` a new type: `conversion_func(value, dtype)`."""
    _conversion_functions.append((base_type, conversion_func))


_SEQUENCES = (list, tuple, range)
_KIND_OF_TYPE = {bool: "b", int: "i", float: "f", complex: "c", str: "S", bytes: "S"}
_KIND_OF_NUMPY = {"b": "b", "i": "i", "u": "i", "f": "f", "c": "c", "S": "S", "U": "S", "O": "S"}
# The kinds of leaves a tensor of each kind accepts (bools fit every number kind).
_ACCEPTS = {"b": "b", "i": "bi", "f": "bif", "c": "bifc", "S": "S"}


def _leaves(value):
    """The scalars of a nested list/tuple in order; arrays and tensors count as one leaf."""
    if isinstance(value, _SEQUENCES):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _kind(leaf):
    """One leaf's kind ("b", "i", "f", "c", "S"), or None for an unsupported object."""
    kind = _KIND_OF_TYPE.get(type(leaf))
    if kind is not None:
        return kind
    if isinstance(leaf, (str, bytes)):
        return "S"
    if isinstance(leaf, (np.ndarray, np.generic, Tensor)) or hasattr(leaf, "_is_variable"):
        return _KIND_OF_NUMPY.get(np.dtype(leaf.dtype.as_numpy_dtype if isinstance(
            leaf.dtype, dtypes.DType) else leaf.dtype).kind)
    return None


def _unsupported(leaf):
    return ValueError(f"Attempt to convert a value ({leaf!r}) with an unsupported type "
                      f"({type(leaf)!r}) to a Tensor.")


class _Scan:
    """One pass over a nested Python value, collecting what TF's inference needs."""

    __slots__ = ("kind", "first", "widened", "big_int", "big_float")

    def __init__(self, value):
        self.kind = self.first = None
        self.widened = self.big_int = self.big_float = False
        for leaf in _leaves(value):
            self._add(leaf)

    def _add(self, leaf):
        kind = _kind(leaf)
        if self.kind is None:  # the first leaf decides the kind
            if kind is None:
                raise _unsupported(leaf)
            self.kind, self.first = kind, leaf
        elif self.kind == "i" and kind == "f":  # a later float widens ints to floats
            self.kind, self.widened = "f", True
        elif kind is None or kind not in _ACCEPTS[self.kind]:
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        if type(leaf) is int or isinstance(leaf, np.integer):
            self.big_int = self.big_int or not _INT32_MIN <= leaf <= _INT32_MAX
        elif type(leaf) is float:
            self.big_float = self.big_float or _FLOAT32_MAX < abs(leaf) < math.inf

    def own_dtype(self):
        """The first leaf's own dtype, if it has one that counts: NumPy floats and complex,
        arrays and tensors do; NumPy integer scalars are read like Python ints (as in TF)."""
        first = self.first
        if type(first) in (bool, int, float, complex) or isinstance(first, (np.integer,
                                                                              np.bool_)):
            return None
        return np.dtype(getattr(first.dtype, "as_numpy_dtype", first.dtype))


def _python_array(value):
    """The array TF infers for a Python value: ints -> int32 (int64 if too big), floats ->
    float32, following the rules at the top of this section."""
    if type(value) is float and not abs(value) > _FLOAT32_MAX:  # fast path: one number
        return np.array(value, dtype=np.float32)
    if type(value) is int and _INT32_MIN <= value <= _INT32_MAX:
        return np.array(value, dtype=np.int32)
    scan = _Scan(value)
    kind = scan.kind
    if kind is None:  # no leaves at all: [] or [[], []]
        return _built(value, np.float32)
    if kind == "S":
        return _string_array(value)
    own = scan.own_dtype()
    if kind == "b":
        return _built(value, np.bool_)
    if kind == "i":
        if own is not None:
            return _built(value, own)
        return _built(value, np.int64 if scan.big_int else np.int32)
    if kind == "c":
        return _built(value, np.complex128 if own is None or scan.widened else own)
    if own is not None and not scan.widened:
        return _built(value, own)
    if scan.big_float:
        raise ValueError("Can't convert Python sequence with a value out of range for a "
                         "double-precision float.")
    return _built(value, np.float32)


def _built(value, np_dtype):
    """`np.array(value, dtype)` with TF's errors for ragged lists and huge ints."""
    try:
        return np.array(value, dtype=np_dtype)
    except OverflowError:
        raise ValueError("Can't convert Python sequence with out-of-range integer to "
                         "Tensor.") from None
    except (ValueError, TypeError):
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None


def _string_array(value):
    """Strings are stored as bytes (UTF-8), in a NumPy object array."""
    array = np.empty((), dtype=object) if isinstance(value, (str, bytes)) else None
    if array is not None:
        array[()] = value
    else:
        array = np.array(value, dtype=object)
    if not all(isinstance(s, (str, bytes)) for s in array.flat):  # a ragged list of strings
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    return _bytes_array(array)


def _bytes_array(array):
    out = np.empty(array.shape, dtype=object)
    out.flat[:] = [s.encode("utf-8") if isinstance(s, str) else bytes(s) for s in array.flat]
    return out


def _cannot_convert(value, dtype):
    return TypeError(f"Cannot convert {value!r} to EagerTensor of dtype "
                     f"{dtypes.tf_type_name(dtype)}")


def _python_array_as(value, dtype):
    """Convert a Python value to `dtype`, refusing to lose information (like TF)."""
    target = _KIND_OF_NUMPY[dtype._np.kind]
    # Fast paths for `x * 2` and `i + 1`: one small number that fits every dtype of its kind.
    if target == "f" and type(value) in (int, float) and abs(value) < 65504:
        return np.array(value, dtype=dtype._np)
    if target == "i" and type(value) is int and 0 <= value < 128:
        return np.array(value, dtype=dtype._np)
    for leaf in _leaves(value):
        kind = _kind(leaf)
        if kind is None:
            raise _unsupported(leaf)
        if kind not in _ACCEPTS[target]:
            raise _cannot_convert(value, dtype)
    if target == "S":
        return _string_array(value)
    if target == "i":  # out-of-range ints wrap around, as in TF (2**40 as int32 is 0)
        try:
            wide = _built(value, np.int64)
        except ValueError:
            if dtype is not dtypes.uint64:
                raise
            wide = _built(value, np.uint64)
        return wide.astype(dtype._np)
    wide = _built(value, {"b": np.bool_, "f": np.float64, "c": np.complex128}[target])
    with np.errstate(over="ignore"):
        return wide.astype(dtype._np)  # floats too big for the dtype become inf


def _numpy_array(value, dtype):
    """A private copy of a NumPy array/scalar, strings as bytes, cast to `dtype` if given."""
    array = np.array(value)
    if array.dtype.kind in "USO":
        if not all(isinstance(s, (str, bytes)) for s in array.flat):
            raise ValueError("Failed to convert a NumPy array to a Tensor (Unsupported object "
                             "type in an object array).")
        array = _bytes_array(array)
    if dtype is None or dtypes.from_numpy(array.dtype) is dtype:
        return array
    if dtype is dtypes.string:
        raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported object "
                         f"type {array.dtype.name}).")
    with np.errstate(over="ignore", invalid="ignore"):
        return array.astype(dtype._np)


_PLAIN_PYTHON = (*_SEQUENCES, *_KIND_OF_TYPE)


def _offers_array(value):
    """True for foreign array-likes (a pandas Series, say) that offer NumPy's `__array__`:
    TF converts them through it, keeping their dtype. minitf's own tensors and variables
    are not among them (they have conversion paths of their own)."""
    return (hasattr(type(value), "__array__") and not isinstance(value, (Tensor, str, bytes))
            and not hasattr(value, "_is_variable"))


def to_array(value, dtype=None):
    """The NumPy array `tf.constant(value, dtype)` would hold (`dtype` a DType or None)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return _numpy_array(value, dtype)
    if not isinstance(value, _PLAIN_PYTHON) and _offers_array(value):
        return _numpy_array(np.asarray(value), dtype)
    if dtype is None:
        return _python_array(value)
    return _python_array_as(value, dtype)


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
    """Convert to `hint` where TF would: NumPy numbers always, Python values only losslessly."""
    if isinstance(value, (np.ndarray, np.generic)):
        if (np.asarray(value).dtype.kind in "USO") != (hint is dtypes.string):
            raise TypeError("strings and numbers do not convert into each other")
        return _numpy_array(value, hint)
    return _python_array_as(value, hint)
