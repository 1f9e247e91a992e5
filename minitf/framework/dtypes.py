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
import builtins

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
        """The NumPy scalar type, e.g. `numpy.float32` (`object` for tf.string, as in TF)."""
        return object if self._np.kind == "O" else self._np.type

    @property
    def as_datatype_enum(self):
        """TF's number for this type in its protocol buffers (DT_FLOAT = 1, ...)."""
        return _DATATYPE_ENUM[self.name]

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
        """Bytes per element (0 for tf.string, whose elements vary in length)."""
        return 0 if self is string else self._np.itemsize

    @property
    def min(self):
        """The smallest value: a NumPy scalar for floats, an int for integers."""
        if self._np.kind == "f":
            return np.finfo(self._np).min
        if self._np.kind in "iu":
            return int(np.iinfo(self._np).min)
        raise TypeError(f"Cannot find minimum value of {self} with type {self}.")

    @property
    def max(self):
        """The largest value: a NumPy scalar for floats, an int for integers."""
        if self._np.kind == "f":
            return np.finfo(self._np).max
        if self._np.kind in "iu":
            return int(np.iinfo(self._np).max)
        raise TypeError(f"Cannot find maximum value of {self} with type {self}.")

    @property
    def limits(self):
        """The intensity range of image data in this dtype, from 0: (0, 255) for uint8,
        (0, 1) for float32/float64 (TF's `dtype_range`; float16 has none)."""
        if self.name not in _INTENSITY_MAX:
            raise ValueError(f"{self} does not have defined limits.")
        return 0, _INTENSITY_MAX[self.name]

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
_BY_NAME.update(half=float16, double=float64, float=float32)  # TF's C++ names work too
_BY_NUMPY = {d._np: d for d in ALL}
_BY_NUMPY[np.dtype(np.str_)] = string
_BY_NUMPY[np.dtype(np.bytes_)] = string
_BY_NUM = {d._np.num: d for d in ALL}  # NumPy's type number: the fastest look-up
# Python's own types: only these three mean something to TF (`int` and `str` do not).
_BY_PYTHON_TYPE = {builtins.float: float32, builtins.bool: bool, builtins.object: string}
_DATATYPE_ENUM = dict(float32=1, float64=2, int32=3, uint8=4, int16=5, int8=6, string=7,
                      complex64=8, int64=9, bool=10, uint16=17, complex128=18, float16=19,
                      uint32=22, uint64=23)
_BY_ENUM = {number: _BY_NAME[name] for name, number in _DATATYPE_ENUM.items()}
_INTENSITY_MAX = dict(bool=True, uint8=255, uint16=65535, uint32=2**32 - 1, uint64=2**64 - 1,
                      int8=127, int16=32767, int32=2**31 - 1, int64=2**63 - 1, float32=1,
                      float64=1)


def as_dtype(type_value):
    """Converts a `DType`, a name ("float32"), a NumPy type or TF's enum number to a `DType`.

    >>> tf.as_dtype(np.float64)
    tf.float64
    """
    if isinstance(type_value, DType):
        return type_value
    found = None
    if isinstance(type_value, str):
        found = _BY_NAME.get(type_value)
    elif isinstance(type_value, type) and type_value in _BY_PYTHON_TYPE:
        found = _BY_PYTHON_TYPE[type_value]
    elif isinstance(type_value, int):
        found = _BY_ENUM.get(type_value)
    elif type_value is not None and not isinstance(type_value, type) or \
            isinstance(type_value, type) and issubclass(type_value, np.generic):
        try:
            np_dtype = np.dtype(type_value)
        except TypeError:
            np_dtype = None
        if np_dtype is not None:
            found = _BY_NUMPY.get(np_dtype, string if np_dtype.kind in "US" else None)
    if found is None:
        raise TypeError(
            f"Cannot convert the argument `type_value`: {type_value!r} to a TensorFlow DType. "
            "Use a TensorFlow dtype such as tf.float32, or its name as a string ('float32')."
        )
    return found


# TensorFlow's C++ names, used in its error messages ("... is a float tensor").
_TF_TYPE_NAMES = {"float16": "half", "float32": "float", "float64": "double"}


def tf_type_name(dtype):
    """The name TF's C++ error messages use: float for float32, double for float64."""
    return _TF_TYPE_NAMES.get(dtype.name, dtype.name)


def from_numpy(np_dtype):
    """The `DType` of a NumPy dtype (the engine's fast path: one dictionary look-up)."""
    found = _BY_NUM.get(np_dtype.num)
    if found is None or found._np.itemsize != np_dtype.itemsize and found is not string:
        return as_dtype(np_dtype)
    return found
