"""tf.DType: properties, tf.as_dtype, equality and hashing, printed as TF does.

Every expectation here was first printed by TensorFlow 2.21.
"""
import re

import numpy as np
import pytest

import minitf as tf

# name: (is_floating, is_integer, is_unsigned, is_complex, is_bool, size, numpy type)
PROPERTIES = {
    "float16": (True, False, False, False, False, 2, np.float16),
    "float32": (True, False, False, False, False, 4, np.float32),
    "float64": (True, False, False, False, False, 8, np.float64),
    "int8": (False, True, False, False, False, 1, np.int8),
    "int16": (False, True, False, False, False, 2, np.int16),
    "int32": (False, True, False, False, False, 4, np.int32),
    "int64": (False, True, False, False, False, 8, np.int64),
    "uint8": (False, True, True, False, False, 1, np.uint8),
    "uint16": (False, True, True, False, False, 2, np.uint16),
    "uint32": (False, True, True, False, False, 4, np.uint32),
    "uint64": (False, True, True, False, False, 8, np.uint64),
    "bool": (False, False, False, False, True, 1, np.bool_),
    "complex64": (False, False, False, True, False, 8, np.complex64),
    "complex128": (False, False, False, True, False, 16, np.complex128),
    "string": (False, False, False, False, False, 0, object),
}


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_dtype_properties(name):
    d = getattr(tf, name)
    floating, integer, unsigned, complex_, boolean, size, np_type = PROPERTIES[name]
    assert (d.is_floating, d.is_integer, d.is_unsigned, d.is_complex, d.is_bool) == (
        floating, integer, unsigned, complex_, boolean)
    assert d.size == size and d.as_numpy_dtype is np_type
    assert d.name == name and repr(d) == f"tf.{name}" and str(d) == f"<dtype: '{name}'>"
    assert d.base_dtype is d and tf.as_dtype(name) is d and tf.dtypes.as_dtype(d) is d
    assert getattr(tf.dtypes, name) is d


def test_real_dtype_and_aliases():
    assert tf.complex64.real_dtype is tf.float32 and tf.complex128.real_dtype is tf.float64
    assert tf.float32.real_dtype is tf.float32
    assert tf.double is tf.float64 and tf.half is tf.float16
    assert not tf.float32.is_quantized
    assert tf.float32.as_datatype_enum == 1 and tf.int32.as_datatype_enum == 3
    assert tf.float64.as_datatype_enum == 2 and tf.int64.as_datatype_enum == 9


@pytest.mark.parametrize("value, expected", [
    ("float32", tf.float32), ("float", tf.float32), ("double", tf.float64),
    ("half", tf.float16), ("int64", tf.int64), ("string", tf.string), ("bool", tf.bool),
    (np.float64, tf.float64), (np.dtype("int16"), tf.int16), (np.uint64, tf.uint64),
    (np.bool_, tf.bool), (np.dtype("bool"), tf.bool), (np.str_, tf.string),
    (np.object_, tf.string), (np.dtype("U5"), tf.string), (np.dtype("S3"), tf.string),
    (float, tf.float32), (bool, tf.bool), (object, tf.string),   # Python types TF knows
    (1, tf.float32), (3, tf.int32), (9, tf.int64),                # TF's DataType numbers
])
def test_as_dtype(value, expected):
    assert tf.as_dtype(value) is expected


@pytest.mark.parametrize("value", ["foo", "int", "str", int, str, bytes, complex, None])
def test_as_dtype_errors(value):
    with pytest.raises(TypeError, match=re.escape(f"Cannot convert the argument `type_value`: "
                                                  f"{value!r} to a TensorFlow DType.")):
        tf.as_dtype(value)


def test_equality_and_hashing():
    assert tf.float32 == "float32" and tf.float32 == np.float32 and tf.float32 == tf.float32
    assert tf.float32 != tf.float64 and tf.float32 != "float64"
    assert not (tf.float32 == "foo") and not (tf.float32 == 5) and not (tf.float32 == None)  # noqa
    assert hash(tf.float32) == hash(tf.as_dtype("float32"))
    assert {tf.float32: 1}[tf.as_dtype(np.float32)] == 1
    assert tf.float32 in (tf.float32, tf.int32)
    assert tf.float32.is_compatible_with(tf.float32) and tf.float32.is_compatible_with("float32")
    assert not tf.float32.is_compatible_with(tf.float64)
    assert isinstance(tf.float32, tf.dtypes.DType) and isinstance(tf.float32, tf.DType)


def test_min_and_max():
    assert (tf.int8.min, tf.int8.max) == (-128, 127) and type(tf.int8.min) is int
    assert (tf.uint8.min, tf.uint8.max) == (0, 255)
    assert (tf.int64.min, tf.int64.max) == (-2**63, 2**63 - 1)
    assert tf.uint64.max == 2**64 - 1
    assert tf.float32.max == np.finfo(np.float32).max and type(tf.float32.max) is np.float32
    assert tf.float16.min == -65504 and type(tf.float16.min) is np.float16
    assert tf.float64.min == -np.finfo(np.float64).max


@pytest.mark.parametrize("d", [tf.bool, tf.complex64, tf.string])
def test_min_and_max_undefined(d):
    with pytest.raises(TypeError, match=f"Cannot find minimum value of <dtype: '{d.name}'> with "
                                        f"type <dtype: '{d.name}'>."):
        d.min
    with pytest.raises(TypeError, match="Cannot find maximum value of"):
        d.max


def test_limits():
    assert tf.uint8.limits == (0, 255) and tf.int8.limits == (0, 127)
    assert tf.float32.limits == (0, 1) and tf.float64.limits == (0, 1)
    assert tf.bool.limits == (0, True)
    for d in (tf.float16, tf.complex64, tf.string):
        with pytest.raises(ValueError, match=f"<dtype: '{d.name}'> does not have defined limits."):
            d.limits


def test_tensors_report_their_dtype():
    assert tf.constant(1).dtype is tf.int32
    assert tf.constant(1).dtype == "int32"
    assert tf.zeros([2], dtype="float64").dtype is tf.float64
    assert tf.constant([1, 2], dtype=np.int8).dtype is tf.int8
