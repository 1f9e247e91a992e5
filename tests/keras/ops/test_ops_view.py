"""keras.ops.view: NumPy's `x.view(dtype)` (the same bytes as another dtype), with Keras 3's errors.

The values against real Keras are in op_cases.py (test_ops_vs_tf.py); here NumPy is the oracle.
"""
import numpy as np
import pytest

import minitf as tf
from minitf.keras import ops

CASES = [(np.arange(6, dtype="float32").reshape(2, 3), "int32"),
         (np.arange(6, dtype="int32").reshape(3, 2), "int16"),
         (np.arange(8, dtype="int16").reshape(2, 4), "int32"),
         (np.arange(8, dtype="uint8").reshape(2, 4), "float32"),
         (np.linspace(-1, 1, 4), "uint8"),
         (np.array([0.5, -2.0], "float16"), "int16"),
         (np.arange(4, dtype="int64"), "float64"),
         (np.float32(1.5), "int32"),
         (np.zeros((2, 0), "int32"), "int16")]


@pytest.mark.parametrize("x, dtype", CASES)
def test_view_is_numpy_view(x, dtype):
    got = ops.view(tf.constant(x), dtype)
    want = np.asarray(x).view(dtype)
    assert got.dtype.name == dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


def test_view_without_dtype_and_from_lists():
    x = tf.constant([1.5, 2.0])
    assert ops.view(x).dtype == tf.float32 and ops.view(x).numpy().tolist() == [1.5, 2.0]
    assert ops.view([1, 2], "float32").numpy().view("int32").tolist() == [1, 2]
    assert ops.numpy.view is ops.view and tf.keras.ops.view is ops.view


def test_view_round_trips_inside_tf_function():
    @tf.function
    def there_and_back(x):
        return ops.view(ops.view(x, "uint8"), "float32")

    x = tf.constant([[3.25, -1.0], [0.0, 7.5]])
    np.testing.assert_array_equal(there_and_back(x).numpy(), x.numpy())


@pytest.mark.parametrize("x, dtype, text", [
    (np.zeros((1, 3), "int16"), "int32", "Cannot view array of shape (1, 3) and dtype "
                                         "<dtype: 'int16'> as dtype <dtype: 'int32'>"),
    (np.int16(1), "int32", "total number of bytes is not divisible by the new itemsize"),
    (np.zeros(3, "float32"), "complex64", "whole number of complex64 items (8 bytes each)"),
    (np.zeros(2, "float32"), "string", "strings have no fixed item size")])
def test_view_errors_teach(x, dtype, text):
    with pytest.raises(ValueError, match=text.replace("(", r"\(").replace(")", r"\)")):
        ops.view(tf.constant(x), dtype)


def test_view_of_bools_is_tf_bitcasts_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="bool"):
        ops.view(tf.constant([True, False]), "int8")
