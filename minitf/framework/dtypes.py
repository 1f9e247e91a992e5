"""Data types: `tf.float32`, `tf.int32`, ... as `DType` objects, like TensorFlow's.

A `DType` wraps a NumPy dtype and answers the questions TensorFlow's does:

>>> import minitf as tf
>>> tf.float32.is_floating, tf.int32.is_integer, tf.float32.as_numpy_dtype
(True, True, <class 'numpy.float32'>)
>>> tf.as_dtype("int64")
tf.int64

Each dtype exists exactly once, so `x.dtype is tf.float32` and
`x.dtype == tf.float32` are both fine.
"""
import numpy as np


class DType:
    """One TensorFlow data type (`tf.float32`, `tf.int32`, `tf.bool`, ...)."""

    __slots__ = ("name", "_np")

    def __init__(self, name, np_type):
        self.name = name
        self._np = np.dtype(np_type)

    # --- what the type is --------------------------------------------------
    @property
    def as_numpy_dtype(self):
        """The NumPy scalar type, e.g. `numpy.float32`."""
        return self._np.type

    @property
    def is_floating(self):
        return self._np.kind == "f"

    @property
    def is_integer(self):
        return self._np.kind in "iu"

    @property
    def is_unsigned(self):
        return self._np.kind == "u"

    @property
    def is_complex(self):
        return self._np.kind == "c"

    @property
    def is_bool(self):
        return self._np.kind == "b"

    @property
    def is_numeric(self):
        return self._np.kind in "iufc"

    @property
    def is_quantized(self):
        return False

    @property
    def base_dtype(self):
        return self

    @property
    def real_dtype(self):
        """float32 for complex64, float64 for complex128, else the dtype itself."""
        if self is complex64:
            return float32
        if self is complex128:
            return float64
        return self

    @property
    def size(self):
        """Bytes per element."""
        return 1 if self is string else self._np.itemsize

    @property
    def min(self):
        if self._np.kind == "f":
            return float(np.finfo(self._np).min)
        if self._np.kind in "iu":
            return int(np.iinfo(self._np).min)
        if self._np.kind == "b":
            return False
        raise TypeError(f"Cannot find minimum value of {self.name}.")

    @property
    def max(self):
        if self._np.kind == "f":
            return float(np.finfo(self._np).max)
        if self._np.kind in "iu":
            return int(np.iinfo(self._np).max)
        if self._np.kind == "b":
            return True
        raise TypeError(f"Cannot find maximum value of {self.name}.")

    def is_compatible_with(self, other):
        return self is as_dtype(other)

    # --- printing and comparing ---------------------------------------------
    def __repr__(self):
        return f"tf.{self.name}"

    def __str__(self):
        return f"<dtype: '{self.name}'>"

    def __eq__(self, other):
        if other is None:
            return False
        try:
            return self is as_dtype(other)
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    # Each DType exists once, so identity hashing is both correct and fast (the
    # eager fast path checks `dtype in allowed_set` on every op).
    __hash__ = object.__hash__

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16)
half = float16
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
double = float64
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
bool = DType("bool", np.bool_)  # noqa: A001 - TensorFlow's public name is tf.bool
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
string = DType("string", np.object_)  # TF strings hold bytes; NumPy keeps them as objects

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
       uint64, bool, complex64, complex128, string)
FLOATING = frozenset(d for d in ALL if d.is_floating)
COMPLEX = frozenset((complex64, complex128))
INTEGER = frozenset(d for d in ALL if d.is_integer)
SIGNED_INTEGER = INTEGER - {uint8, uint16, uint32, uint64}
NUMERIC = FLOATING | COMPLEX | INTEGER
REAL = FLOATING | INTEGER
INEXACT = FLOATING | COMPLEX
SIGNED = FLOATING | COMPLEX | SIGNED_INTEGER

_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(half=float16, double=float64)
_BY_NUMPY = {d._np: d for d in ALL}
_BY_NUMPY[np.dtype(np.str_)] = string
_BY_NUMPY[np.dtype(np.bytes_)] = string


def as_dtype(type_value):
    """Converts a `DType`, a name ("float32") or a NumPy type to a `DType`.

    >>> tf.as_dtype(np.float64)
    tf.float64
    """
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        found = _BY_NAME.get(type_value)
        if found is not None:
            return found
    else:
        try:
            np_dtype = np.dtype(type_value)
        except TypeError:
            np_dtype = None
        if np_dtype is not None:
            found = _BY_NUMPY.get(np_dtype)
            if found is None and np_dtype.kind in "US":
                found = string
            if found is not None:
                return found
    raise TypeError(
        f"Cannot convert {type_value!r} to a dtype. "
        "Use a TensorFlow dtype such as tf.float32, or its name as a string ('float32')."
    )


# NumPy type numbers -> DType, for the fast path (int64 has two type numbers,
# 'l' and 'q', that are the same type on Linux; both are listed).
_BY_NUM = {np.dtype(code).num: as_dtype(np.dtype(code))
           for code in "?bhilqBHILQefdFD" if np.dtype(code).kind != "O"}
_BY_NUM[np.dtype(object).num] = string


def from_numpy(np_dtype):
    """The `DType` of a NumPy dtype (the engine's fast path: one dictionary look-up)."""
    found = _BY_NUM.get(np_dtype.num)
    if found is None or found._np.itemsize != np_dtype.itemsize and found is not string:
        return as_dtype(np_dtype)
    return found
