"""tf.dtypes' aliases (double, half) and tf.dtypes.complex, compared with real TF 2.21
in one subprocess (values, dtypes, the gradient, the mixed-dtype error)."""
import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads
from tests.real_tf import run_tf_json

TF_CODE = """
import json, numpy as np, tensorflow as tf
out = {"aliases": [tf.dtypes.double.name, tf.dtypes.half.name,
                   tf.dtypes.double is tf.float64, tf.dtypes.half is tf.float16]}
z = tf.dtypes.complex(tf.constant([1.0, -2.0]), tf.constant([0.5, 3.0]))
out["complex64"] = [z.dtype.name, np.real(z.numpy()).tolist(), np.imag(z.numpy()).tolist()]
z = tf.dtypes.complex(tf.constant(1.5, tf.float64), tf.constant([[1.0], [2.0]], tf.float64))
out["complex128"] = [z.dtype.name, z.shape.as_list(), np.imag(z.numpy()).ravel().tolist()]
a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, -1.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([a, b])
    z = tf.dtypes.complex(a, b)
    loss = tf.math.real(z * tf.math.conj(z)) * 0.5 + tf.math.imag(z) * a
grads = tape.gradient(loss, [a, b])
out["grads"] = [g.numpy().tolist() for g in grads]
try:
    tf.dtypes.complex(tf.constant(1.0), tf.constant(1.0, tf.float64))
except Exception as e:
    out["mixed"] = type(e).__name__
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def real_tf():
    return run_tf_json(TF_CODE)


def test_aliases(real_tf):
    got = [tf.dtypes.double.name, tf.dtypes.half.name, tf.dtypes.double is tf.float64,
           tf.dtypes.half is tf.float16]
    assert got == real_tf["aliases"] == ["float64", "float16", True, True]


def test_complex_values_and_dtypes(real_tf):
    z = tf.dtypes.complex(tf.constant([1.0, -2.0]), tf.constant([0.5, 3.0]))
    assert [z.dtype.name, np.real(z.numpy()).tolist(), np.imag(z.numpy()).tolist()] == \
        real_tf["complex64"]
    z = tf.dtypes.complex(tf.constant(1.5, tf.float64), tf.constant([[1.0], [2.0]], tf.float64))
    assert [z.dtype.name, z.shape.as_list(), np.imag(z.numpy()).ravel().tolist()] == \
        real_tf["complex128"]
    assert tf.dtypes.complex is tf.complex


def test_complex_gradient_matches_real_tf(real_tf):
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, -1.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        z = tf.dtypes.complex(a, b)
        loss = tf.math.real(z * tf.math.conj(z)) * 0.5 + tf.math.imag(z) * a
    grads = tape.gradient(loss, [a, b])
    np.testing.assert_allclose([g.numpy() for g in grads], real_tf["grads"], rtol=1e-6)


def test_complex_gradient_against_finite_differences():
    def f(re, im):
        z = tf.dtypes.complex(re, im)
        return tf.math.real(z * z) + tf.math.imag(z * z) * 0.5 + tf.abs(z)

    check_grads(f, np.array([[0.3, -1.2], [2.0, 0.7]]), np.array([[1.1], [-0.4]]))


def test_mixed_dtypes_refused(real_tf):
    with pytest.raises(TypeError, match="different types"):
        tf.dtypes.complex(tf.constant(1.0), tf.constant(1.0, tf.float64))
    assert real_tf["mixed"] == "TypeError"
