"""tf.math.erfinv: inverse of erf, values against real TF, gradient against finite differences."""
import math

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json

POINTS = [0.0, 1e-8, -0.3, 0.4999, 0.5, 0.5001, 0.9, -0.99, 0.999999]


def test_erfinv_inverts_erf():
    y = np.linspace(-3.5, 3.5, 29)
    back = tf.math.erfinv(tf.math.erf(tf.constant(y))).numpy()
    np.testing.assert_allclose(back, y, rtol=1e-9, atol=1e-12)
    assert [math.erf(v) for v in tf.math.erfinv(tf.constant(POINTS, tf.float64)).numpy()] == pytest.approx(
        POINTS, rel=1e-12, abs=1e-15)


def test_erfinv_edges_and_dtypes():
    out = tf.math.erfinv(tf.constant([1.0, -1.0, 1.5, np.nan]))
    assert out.dtype == tf.float32
    assert out.numpy()[:2].tolist() == [np.inf, -np.inf]
    assert np.isnan(out.numpy()[2:]).all()
    assert tf.math.erfinv(tf.constant([0.5], tf.float16)).dtype == tf.float16
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.math.erfinv(tf.constant([1, 0]))


def test_erfinv_gradient():
    check_grads(tf.math.erfinv, np.array([[-0.9, -0.2], [0.1, 0.7]]), order=2)


def test_erfinv_same_as_real_tf():
    want = run_tf_json(f"""
        import json, tensorflow as tf
        print(json.dumps(tf.math.erfinv(tf.constant({POINTS}, tf.float64)).numpy().tolist()))
    """)
    got = tf.math.erfinv(tf.constant(POINTS, tf.float64)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-8)  # TF's polynomial is good to ~1e-9 here
