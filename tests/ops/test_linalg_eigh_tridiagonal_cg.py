"""tf.linalg.eigh_tridiagonal (select a/v/i, eigenvectors, complex, errors, gradients) and
tf.linalg.experimental.conjugate_gradient (CGState, batches, x0, preconditioner, errors), with
one batched real-TF comparison."""
import numpy as np
import pytest
from gradcheck import check_grads
from real_tf import run_tf_json

import minitf as tf

ALPHA, BETA = [1.0, 2.0, 3.0, 4.0], [0.5, 0.25, 1.0]
SPD = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]])
RHS = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])


def dense(alpha, beta):
    return np.diag(alpha) + np.diag(beta, 1) + np.diag(np.conj(beta), -1)


class FullMatrix:
    """The part of tf.linalg.LinearOperatorFullMatrix that conjugate_gradient reads."""
    is_self_adjoint = is_positive_definite = True

    def __init__(self, matrix):
        self.matrix = tf.constant(matrix)

    def matvec(self, x):
        return tf.linalg.matvec(self.matrix, x)

    def batch_shape_tensor(self):
        return tf.shape(self.matrix)[:-2]


def test_eigenvalues_vectors_and_select():
    a, b = tf.constant(ALPHA, tf.float64), tf.constant(BETA, tf.float64)
    want = np.linalg.eigvalsh(dense(ALPHA, BETA))
    np.testing.assert_allclose(tf.linalg.eigh_tridiagonal(a, b).numpy(), want, atol=1e-14)
    w, v = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False)
    np.testing.assert_allclose(dense(ALPHA, BETA) @ v.numpy(), v.numpy() * w.numpy(), atol=1e-13)
    picked = tf.linalg.eigh_tridiagonal(a, b, select="v", select_range=[want[1], 3.5]).numpy()
    np.testing.assert_allclose(picked, want[2:3], atol=1e-14)  # (lo, hi]: lo itself left out
    w, v = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False, select="i", select_range=[1, 2])
    np.testing.assert_allclose(w.numpy(), want[1:3], atol=1e-14)
    assert v.shape == [4, 2]
    assert tf.linalg.eigh_tridiagonal(tf.constant([1.0]), tf.constant([], tf.float32)).numpy() == 1
    ca, cb = tf.constant([1.0, 2.0], tf.complex128), tf.constant([1.0 + 1j], tf.complex128)
    w, v = tf.linalg.eigh_tridiagonal(ca, cb, eigvals_only=False)
    assert w.dtype == tf.float64 and v.dtype == tf.complex128
    np.testing.assert_allclose(w.numpy(), [0.0, 3.0], atol=1e-14)
    m = dense([1.0, 2.0], [1.0 + 1j])
    np.testing.assert_allclose(m @ v.numpy(), v.numpy() * w.numpy(), atol=1e-14)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(alpha=ALPHA, beta=tf.constant(BETA, tf.float64)), ValueError, "must have the same type"),
    (dict(alpha=ALPHA, beta=BETA, select="x"), ValueError, "select must have a value in"),
    (dict(alpha=ALPHA, beta=BETA, select="i"), TypeError, "needs select_range"),
    (dict(alpha=[1, 2], beta=[1]), ValueError, "not inexact"),
    (dict(alpha=ALPHA, beta=BETA[:2]), tf.errors.InvalidArgumentError, "Incompatible shapes"),
])
def test_eigh_tridiagonal_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        tf.linalg.eigh_tridiagonal(**kwargs)


def test_eigh_tridiagonal_gradient():
    check_grads(lambda a, b: tf.linalg.eigh_tridiagonal(a, b), ALPHA, BETA)
    a, b = tf.constant(ALPHA, tf.float64), tf.constant(BETA, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        total = tf.reduce_sum(tf.linalg.eigh_tridiagonal(a, b))
    da, db = tape.gradient(total, [a, b])  # the trace: d/d alpha = 1, d/d beta = 0
    np.testing.assert_allclose(da.numpy(), 1.0, atol=1e-12)
    np.testing.assert_allclose(db.numpy(), 0.0, atol=1e-12)


def test_conjugate_gradient_solves_and_reports_its_state():
    state = tf.linalg.experimental.conjugate_gradient(FullMatrix(SPD), tf.constant(RHS))
    assert type(state).__name__ == "CGState" and state._fields == ("i", "x", "r", "p", "gamma")
    np.testing.assert_allclose(state.x.numpy(), np.linalg.solve(SPD, RHS.T).T, atol=1e-12)
    assert state.i.dtype == tf.int32 and int(state.i) == 3  # n steps for n unknowns
    np.testing.assert_allclose(state.gamma.numpy(), np.sum(state.r.numpy() ** 2, -1), rtol=1e-9)
    one = tf.linalg.experimental.conjugate_gradient(FullMatrix(SPD), RHS[0], max_iter=1)
    assert int(one.i) == 1 and not np.allclose(one.x.numpy(), np.linalg.solve(SPD, RHS[0]))
    started = tf.linalg.experimental.conjugate_gradient(
        FullMatrix(SPD), tf.constant(RHS[0]), x=tf.constant(np.linalg.solve(SPD, RHS[0])))
    assert int(started.i) == 0  # the guess is already the answer
    jacobi = FullMatrix(np.diag(1 / np.diag(SPD)))
    pre = tf.linalg.experimental.conjugate_gradient(FullMatrix(SPD), RHS[0], preconditioner=jacobi)
    np.testing.assert_allclose(pre.x.numpy(), np.linalg.solve(SPD, RHS[0]), atol=1e-10)


def test_conjugate_gradient_errors():
    class NotPD(FullMatrix):
        is_positive_definite = False

    with pytest.raises(ValueError, match="Expected a self-adjoint, positive definite operator."):
        tf.linalg.experimental.conjugate_gradient(NotPD(SPD), RHS[0])
    with pytest.raises(TypeError, match="LinearOperator-like.*matvec"):
        tf.linalg.experimental.conjugate_gradient(tf.constant(SPD), RHS[0])


REAL_TF = """
import json, numpy as np, tensorflow as tf
a, b = tf.constant({alpha}, tf.float64), tf.constant({beta}, tf.float64)
w, v = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False)
eig = tf.linalg.eigh_tridiagonal
out = dict(w=w.numpy().tolist(), v=v.numpy().tolist(),
           w32=eig(tf.cast(a, tf.float32), tf.cast(b, tf.float32)).numpy().tolist(),
           v_range=eig(a, b, select="v", select_range=[1.5, 3.5]).numpy().tolist(),
           i_range=eig(a, b, select="i", select_range=[1, 2]).numpy().tolist())
op = tf.linalg.LinearOperatorFullMatrix(tf.constant({spd}, tf.float64), is_self_adjoint=True,
                                        is_positive_definite=True)
for key, kwargs in [("cg", {{}}), ("cg1", dict(max_iter=1)),
                    ("cgpre", dict(preconditioner=tf.linalg.LinearOperatorDiag(
                        tf.constant(1 / np.diag({spd})), is_self_adjoint=True,
                        is_positive_definite=True)))]:
    s = tf.linalg.experimental.conjugate_gradient(op, tf.constant({rhs}, tf.float64), **kwargs)
    out[key] = [int(s.i)] + [t.numpy().tolist() for t in (s.x, s.r, s.p, s.gamma)]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def real():
    return run_tf_json(REAL_TF.format(alpha=ALPHA, beta=BETA, spd=SPD.tolist(), rhs=RHS.tolist()))


def test_same_as_real_tf(real):
    a, b = tf.constant(ALPHA, tf.float64), tf.constant(BETA, tf.float64)
    w, v = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False)
    np.testing.assert_allclose(w.numpy(), real["w"], atol=1e-13)
    signs = np.sign(np.sum(v.numpy() * np.array(real["v"]), axis=0))  # columns up to sign
    np.testing.assert_allclose(v.numpy() * signs, real["v"], atol=1e-10)
    w32 = tf.linalg.eigh_tridiagonal(tf.cast(a, tf.float32), tf.cast(b, tf.float32)).numpy()
    np.testing.assert_allclose(w32, real["w32"], atol=2e-6)
    np.testing.assert_allclose(tf.linalg.eigh_tridiagonal(a, b, select="v", select_range=[
        1.5, 3.5]).numpy(), real["v_range"], atol=1e-13)
    np.testing.assert_allclose(tf.linalg.eigh_tridiagonal(a, b, select="i", select_range=[
        1, 2]).numpy(), real["i_range"], atol=1e-13)
    jacobi = FullMatrix(np.diag(1 / np.diag(SPD)))
    for key, kwargs in [("cg", {}), ("cg1", dict(max_iter=1)), ("cgpre", dict(
            preconditioner=jacobi))]:
        s = tf.linalg.experimental.conjugate_gradient(FullMatrix(SPD), tf.constant(RHS), **kwargs)
        assert int(s.i) == real[key][0], key
        for got, want in zip((s.x, s.r, s.p, s.gamma), real[key][1:]):
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12, err_msg=key)


def test_in_tf_function():
    @tf.function
    def solve_and_eig(rhs, alpha, beta):
        state = tf.linalg.experimental.conjugate_gradient(FullMatrix(SPD), rhs)
        return state.x, state.i, tf.linalg.eigh_tridiagonal(alpha, beta, select="v",
                                                            select_range=[1.5, 3.5])

    x, i, w = solve_and_eig(tf.constant(RHS), tf.constant(ALPHA, tf.float64),
                            tf.constant(BETA, tf.float64))
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(SPD, RHS.T).T, atol=1e-12)
    assert int(i) == 3
    want = np.linalg.eigvalsh(dense(ALPHA, BETA))
    np.testing.assert_allclose(w.numpy(), want[(want > 1.5) & (want <= 3.5)], atol=1e-13)
