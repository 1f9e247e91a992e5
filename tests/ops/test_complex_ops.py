"""tf.complex, tf.math.real/imag/angle: values, dtypes, gradients, and real TF's numbers."""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json


def test_parts_and_dtypes():
    z = tf.complex(tf.constant([3.0, -1.0], tf.float64), tf.constant([4.0, 0.0], tf.float64))
    assert z.dtype == tf.complex128
    assert tf.math.real(z).dtype == tf.float64
    assert tf.math.imag(z).numpy().tolist() == [4.0, 0.0]
    np.testing.assert_allclose(tf.math.angle(z).numpy(), [np.arctan2(4, 3), np.pi])
    assert tf.math.imag(tf.constant([1.0, 2.0])).numpy().tolist() == [0.0, 0.0]
    with pytest.raises(TypeError, match="different types"):
        tf.complex(tf.constant(1.0), tf.constant(1.0, tf.float64))


def test_gradients_through_complex_numbers():
    def f(a, b):
        z = tf.complex(a, b)
        w = z * z * tf.complex(b, a)              # complex arithmetic in between
        return tf.math.real(w) + 2 * tf.math.imag(w) + tf.math.angle(z)

    check_grads(f, np.array([0.5, -1.2, 2.0]), np.array([1.5, 0.3, -0.7]))


def test_same_as_real_tf():
    want = run_tf_json("""
        import json, tensorflow as tf
        z = tf.complex(tf.constant([1.0, -2.0, 0.0]), tf.constant([1.0, 0.5, -3.0]))
        print(json.dumps([tf.math.real(z * z).numpy().tolist(), tf.math.imag(z * z).numpy().tolist(),
                          tf.math.angle(z).numpy().tolist()]))
    """)
    z = tf.complex(tf.constant([1.0, -2.0, 0.0]), tf.constant([1.0, 0.5, -3.0]))
    got = [tf.math.real(z * z).numpy(), tf.math.imag(z * z).numpy(), tf.math.angle(z).numpy()]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)
