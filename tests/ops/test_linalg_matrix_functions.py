"""tf.linalg.expm, sqrtm (tf.matrix_square_root) and logm: algebra that needs no TF, batches,
dtypes, TF's errors, gradients against finite differences, and one batched real-TF comparison."""
import sys

import numpy as np
import pytest
from gradcheck import check_grads
from real_tf import run_tf_json

import minitf as tf

RNG = np.random.default_rng(5)
A = np.array([[1.0, 0.5], [0.2, 0.8]])
BATCH = RNG.normal(size=(2, 3, 3)) * 0.7
SPD = np.einsum("bij,bkj->bik", BATCH, BATCH) + 0.5 * np.eye(3)  # positive definite


def test_expm_series_identities_and_batches():
    rot = tf.linalg.expm(tf.constant([[0.0, 1.0], [-1.0, 0.0]], tf.float64)).numpy()
    np.testing.assert_allclose(rot, [[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]], atol=1e-15)
    nil = tf.linalg.expm(tf.constant([[0.0, 3.0], [0.0, 0.0]], tf.float64)).numpy()
    np.testing.assert_allclose(nil, [[1.0, 3.0], [0.0, 1.0]], atol=1e-15)  # I + N, N^2 = 0
    for scale in [1e-3, 0.1, 0.9, 2.0, 8.0, 40.0]:  # every Pade degree and the squarings
        m = BATCH * scale
        w, v = np.linalg.eig(m)  # exp(A) = V exp(D) V^-1
        want = np.real(np.einsum("bij,bj,bjk->bik", v, np.exp(w), np.linalg.inv(v)))
        np.testing.assert_allclose(tf.linalg.expm(m).numpy(), want, rtol=1e-7, atol=1e-9)
    got32 = tf.linalg.expm(tf.constant(BATCH, tf.float32)).numpy()
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32, tf.linalg.expm(BATCH).numpy(), rtol=2e-6, atol=2e-6)
    assert tf.linalg.expm(tf.zeros([2, 0, 0])).shape == [2, 0, 0]
    assert np.isnan(tf.linalg.expm(tf.constant([[np.inf, 0.0], [0.0, 1.0]])).numpy()).all()


def test_sqrtm_and_logm_invert_squares_and_expm():
    root = tf.linalg.sqrtm(SPD).numpy()
    np.testing.assert_allclose(root @ root, SPD, atol=1e-12)
    w, v = np.linalg.eigh(SPD)  # the principal root of an SPD matrix is SPD
    np.testing.assert_allclose(root, np.einsum("bij,bj,bkj->bik", v, np.sqrt(w), v), atol=1e-12)
    assert tf.matrix_square_root is tf.linalg.sqrtm
    assert np.isnan(tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 4.0]])).numpy()).all()
    croot = tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 4.0]], tf.complex128)).numpy()
    np.testing.assert_allclose(croot, [[1j, 0], [0, 2]], atol=1e-15)
    c = tf.cast(tf.constant(BATCH * 0.5), tf.complex128)
    back = tf.linalg.logm(tf.linalg.expm(c))
    np.testing.assert_allclose(back.numpy(), c.numpy(), atol=1e-12)
    assert back.dtype == tf.complex128
    assert tf.linalg.logm(tf.constant(A, tf.complex64)).dtype == tf.complex64
    assert tf.linalg.sqrtm(tf.zeros([0, 0])).shape == [0, 0]


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.linalg.expm(tf.constant([[1, 2], [3, 4]])), ValueError,
     "does not support matrices of type <dtype: 'int32'>"),
    (lambda: tf.linalg.expm(tf.ones([2, 2], tf.float16)), tf.errors.NotFoundError,
     "MatrixSolve\\[T=DT_HALF"),
    (lambda: tf.linalg.expm(tf.ones([2, 3])), tf.errors.InvalidArgumentError,
     "Matrix size-incompatible: In\\[0\\]: \\[1,2,3\\], In\\[1\\]: \\[1,2,3\\]"),
    (lambda: tf.linalg.sqrtm(tf.ones([2, 3])), tf.errors.InvalidArgumentError,
     "Input matrix must be square."),
    (lambda: tf.linalg.sqrtm(tf.ones([3])), tf.errors.InvalidArgumentError,
     "Input tensor 0 must have rank >= 2, got 1"),
    (lambda: tf.linalg.sqrtm(tf.ones([2, 2], tf.float16)), tf.errors.NotFoundError,
     "MatrixSquareRoot\\[T=DT_HALF\\]"),
    (lambda: tf.linalg.sqrtm(tf.ones([2, 2], tf.int32)), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32"),
    (lambda: tf.linalg.logm(tf.ones([2, 2])), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of float is not in the list of allowed values: complex64, complex128"),
    (lambda: tf.linalg.logm(tf.ones([2, 3], tf.complex64)), tf.errors.InvalidArgumentError,
     "Input matrix must be square."),
])
def test_errors_as_tf(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_gradients():
    check_grads(tf.linalg.expm, BATCH[0] * 0.5)  # a low Pade degree
    check_grads(tf.linalg.expm, BATCH[:1] * 3.0, rtol=1e-5, atol=1e-5)  # degree 13, squarings
    check_grads(tf.linalg.sqrtm, SPD, rtol=1e-5, atol=1e-6)
    check_grads(tf.linalg.sqrtm, SPD[0, :2, :2], order=2, rtol=1e-4, atol=1e-6)
    c = tf.constant(A, tf.complex128)
    with tf.GradientTape() as tape:
        tape.watch(c)
        y = tf.linalg.logm(c)
    with pytest.raises(LookupError, match="MatrixLogarithm"):
        tape.gradient(y, c)


def test_in_tf_function():
    expm, sqrtm = tf.function(tf.linalg.expm), tf.function(tf.linalg.sqrtm)
    np.testing.assert_allclose(expm(tf.constant(BATCH)).numpy(), tf.linalg.expm(BATCH).numpy(),
                               rtol=1e-12)
    np.testing.assert_allclose(sqrtm(tf.constant(SPD)).numpy(), tf.linalg.sqrtm(SPD).numpy(),
                               rtol=1e-12)


def test_without_scipy_a_clear_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.linalg", None)
    with pytest.raises(ImportError, match="tf.linalg.sqrtm needs SciPy.*pip install"):
        tf.linalg.sqrtm(SPD)
    assert tf.linalg.expm(A).shape == [2, 2]  # expm is NumPy-only, made of ops


REAL_TF = """
import json, numpy as np, tensorflow as tf
a, batch, spd = np.array({a}), np.array({batch}), np.array({spd})
out = {{}}
for name, x in [("expm", a), ("expm_batch", batch * 3.0), ("expm_small", batch * 1e-3),
                ("expm_diag", np.diag([10.0, 0.1, -3.0]))]:
    x = tf.constant(x)
    with tf.GradientTape() as t:
        t.watch(x); y = tf.linalg.expm(x)
    out[name] = [y.numpy().tolist(), t.gradient(y, x).numpy().tolist(),
                 tf.linalg.expm(tf.cast(x, tf.float32)).numpy().tolist()]
x = tf.constant(spd)
with tf.GradientTape() as t:
    t.watch(x); y = tf.linalg.sqrtm(x)
out["sqrtm"] = [y.numpy().tolist(), t.gradient(y, x).numpy().tolist()]
c = tf.cast(tf.constant(batch * 0.5), tf.complex128)
out["edges"] = [tf.linalg.sqrtm(tf.constant(m, tf.float64)).numpy().tolist() for m in {edges}]
out["logm_singular"] = np.isnan(tf.linalg.logm(tf.constant([[0.0, 0.0], [0.0, 1.0]],
                                                           tf.complex128)).numpy()).tolist()
out["logm"] = [tf.math.real(tf.linalg.logm(c)).numpy().tolist(),
               tf.math.imag(tf.linalg.logm(c)).numpy().tolist()]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def real():
    return run_tf_json(REAL_TF.format(a=A.tolist(), batch=BATCH.tolist(), spd=SPD.tolist(),
                                      edges=EDGES))


EDGES = [[[0.0, -1.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]],
         [[0.0, 0.0], [0.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]]  # rotation, singular, indefinite


def test_same_as_real_tf(real):
    inputs = {"expm": A, "expm_batch": BATCH * 3.0, "expm_small": BATCH * 1e-3,
              "expm_diag": np.diag([10.0, 0.1, -3.0])}
    for name, x in inputs.items():
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.linalg.expm(x)
        value, grad, value32 = real[name]
        np.testing.assert_allclose(y.numpy(), value, rtol=1e-12, err_msg=name)
        np.testing.assert_allclose(tape.gradient(y, x).numpy(), grad, rtol=1e-10, err_msg=name)
        np.testing.assert_allclose(tf.linalg.expm(tf.cast(x, tf.float32)).numpy(), value32,
                                   rtol=3e-6, atol=1e-6, err_msg=name)
    x = tf.constant(SPD)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.linalg.sqrtm(x)
    np.testing.assert_allclose(y.numpy(), real["sqrtm"][0], rtol=1e-11)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), real["sqrtm"][1], rtol=1e-9)
    for matrix, want in zip(EDGES, real["edges"]):
        got = tf.linalg.sqrtm(tf.constant(matrix, tf.float64)).numpy()
        np.testing.assert_allclose(got, np.array(want, np.float64), atol=1e-14, err_msg=matrix)
    singular = tf.linalg.logm(tf.constant([[0.0, 0.0], [0.0, 1.0]], tf.complex128)).numpy()
    assert np.isnan(singular).tolist() == real["logm_singular"]
    log = tf.linalg.logm(tf.cast(tf.constant(BATCH * 0.5), tf.complex128)).numpy()
    np.testing.assert_allclose(log.real, real["logm"][0], atol=1e-12)
    np.testing.assert_allclose(log.imag, real["logm"][1], atol=1e-12)
