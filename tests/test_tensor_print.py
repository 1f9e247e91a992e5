"""How tensors print, dtype by dtype - every expected string verified against TF 2.21.

TF's repr of a scalar is the repr of the Python number, so a float32 scalar
shows its exact float32 value (1.399999976158142), while `print` (str) and
arrays use NumPy's shortest form (1.4).
"""
import numpy as np
import pytest

import minitf as tf

REPRS = [
    (tf.float32, 1.4, "<tf.Tensor: shape=(), dtype=float32, numpy=1.399999976158142>"),
    (tf.float16, 1.4, "<tf.Tensor: shape=(), dtype=float16, numpy=1.400390625>"),
    (tf.float64, 1.4, "<tf.Tensor: shape=(), dtype=float64, numpy=1.4>"),
    (tf.float32, 2.0, "<tf.Tensor: shape=(), dtype=float32, numpy=2.0>"),
    (tf.float32, 1 / 3, "<tf.Tensor: shape=(), dtype=float32, numpy=0.3333333432674408>"),
    (tf.float32, 1e20, "<tf.Tensor: shape=(), dtype=float32, numpy=1.0000000200408773e+20>"),
    (tf.float32, [1.4, 2.1 / 3],
     "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.4, 0.7], dtype=float32)>"),
    (tf.float32, [[1e-8, 1.4]],
     ("<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1.0e-08, 1.4e+00]], "
      "dtype=float32)>")),
]


@pytest.mark.parametrize("dtype, value, expected", REPRS)
def test_repr_matches_tf(dtype, value, expected):
    assert repr(tf.constant(value, dtype)) == expected


def test_str_uses_the_short_form():
    assert str(tf.constant(1.4)) == "tf.Tensor(1.4, shape=(), dtype=float32)"
    assert str(tf.constant([0.1, 0.2])) == "tf.Tensor([0.1 0.2], shape=(2,), dtype=float32)"


def test_scalar_repr_is_the_exact_stored_value():
    # The repr round-trips: the printed number is the float32 value itself.
    t = tf.constant(1.4)
    shown = float(repr(t).split("numpy=")[1].rstrip(">"))
    assert np.float32(shown) == t.numpy() and shown != 1.4
