"""tf.linalg.tridiagonal_matmul / tridiagonal_solve: the three layouts, batches,
vectors, transposed rhs, singular matrices, errors, gradients and real TF."""
import json

import numpy as np
import pytest
from gradcheck import check_grads
from real_tf import run_tf_json

import minitf as tf

RNG = np.random.default_rng(3)
DIAGS = RNG.normal(size=(2, 3, 4)) + np.array([0.0, 4.0, 0.0])[:, None]  # dominant main diagonal
RHS = RNG.normal(size=(2, 4, 2))


def dense(compact):
    m = compact.shape[-1]
    out = np.zeros(compact.shape[:-2] + (m, m))
    i = np.arange(m)
    out[..., i, i] = compact[..., 1, :]
    out[..., i[:-1], i[1:]] = compact[..., 0, :-1]
    out[..., i[1:], i[:-1]] = compact[..., 2, 1:]
    return out


def test_matmul_and_solve_agree_with_dense_algebra():
    a = dense(DIAGS)
    np.testing.assert_allclose(tf.linalg.tridiagonal_matmul(DIAGS, RHS).numpy(), a @ RHS,
                               atol=1e-12)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(DIAGS, RHS).numpy(),
                               np.linalg.solve(a, RHS), atol=1e-12)


def test_the_three_layouts_agree():
    a = dense(DIAGS)
    seq = (DIAGS[..., 0, :-1], DIAGS[..., 1, :], DIAGS[..., 2, 1:])  # length M - 1 is padded
    for diagonals, fmt in [(seq, "sequence"), (a, "matrix"), (DIAGS, "compact")]:
        np.testing.assert_allclose(
            tf.linalg.tridiagonal_solve(diagonals, RHS, diagonals_format=fmt).numpy(),
            np.linalg.solve(a, RHS), atol=1e-12)
        np.testing.assert_allclose(
            tf.linalg.tridiagonal_matmul(diagonals, RHS, diagonals_format=fmt).numpy()
            if fmt != "sequence" else a @ RHS, a @ RHS, atol=1e-12)


def test_vector_and_transposed_rhs():
    a = dense(DIAGS)
    vec = RHS[..., 0]
    out = tf.linalg.tridiagonal_solve(DIAGS, vec, transpose_rhs=True)  # ignored for vectors
    np.testing.assert_allclose(out.numpy(), np.linalg.solve(a, vec[..., None])[..., 0],
                               atol=1e-12)
    out = tf.linalg.tridiagonal_solve(DIAGS, np.swapaxes(RHS, -1, -2), transpose_rhs=True)
    np.testing.assert_allclose(out.numpy(), np.linalg.solve(a, RHS), atol=1e-12)


def test_singular_matrix_gives_nan():
    singular = tf.constant([[1.0, 0.0, 0.0], [0.0, 5.0, 6.0], [0.0, 0.0, 8.0]])
    out = tf.linalg.tridiagonal_solve(singular, tf.constant([[1.0], [2.0], [3.0]]))
    assert np.isnan(out.numpy()).all()


def test_gradients_and_graph():
    check_grads(tf.linalg.tridiagonal_solve, DIAGS[0], RHS[0])
    check_grads(tf.linalg.tridiagonal_matmul, DIAGS, RHS)
    out = tf.function(tf.linalg.tridiagonal_solve)(tf.constant(DIAGS), tf.constant(RHS))
    np.testing.assert_allclose(out.numpy(), np.linalg.solve(dense(DIAGS), RHS), atol=1e-12)


@pytest.mark.parametrize("call, message", [
    (lambda: tf.linalg.tridiagonal_solve(tf.ones([2, 2]), tf.ones([2, 1])),
     "Expected 3 diagonals got 2"),
    (lambda: tf.linalg.tridiagonal_solve(tf.ones([3, 3]), tf.ones([3, 1]), diagonals_format="x"),
     "Unrecognized diagonals_format: x"),
    (lambda: tf.linalg.tridiagonal_solve(tf.ones([3, 3]), tf.ones([2, 1])),
     "Expected number of left-hand sided and right-hand sides to be equal, got 3 and 2"),
    (lambda: tf.linalg.tridiagonal_solve((tf.ones([3]), tf.ones([3])), tf.ones([3, 1]),
                                         diagonals_format="sequence"),
     "Expected diagonals to be a sequence of length 3."),
    (lambda: tf.linalg.tridiagonal_solve(tf.ones([3, 3]), tf.ones([3, 1]),
                                         partial_pivoting=False, perturb_singular=True),
     "partial_pivoting must be True if perturb_singular is."),
    (lambda: tf.linalg.tridiagonal_matmul(tf.ones([3, 2]), tf.ones([3, 1]),
                                          diagonals_format="matrix"),
     "Expected last two dimensions of diagonals to be same, got 2 and 3"),
])
def test_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


REAL_TF = """
import json, numpy as np, tensorflow as tf
d = tf.constant(json.loads('{d}'), tf.float64)
rhs = tf.constant(json.loads('{rhs}'), tf.float64)
w = tf.reshape(tf.range(1, 33, dtype=tf.float64), rhs.shape)
with tf.GradientTape(persistent=True) as t:
    t.watch([d, rhs])
    x = tf.linalg.tridiagonal_solve(d, rhs)
    y = tf.linalg.tridiagonal_matmul(d, rhs)
    loss_x, loss_y = tf.reduce_sum(x * w), tf.reduce_sum(y * w)
print(json.dumps(dict(x=x.numpy().tolist(), y=y.numpy().tolist(),
    gx=[g.numpy().tolist() for g in t.gradient(loss_x, [d, rhs])],
    gy=[g.numpy().tolist() for g in t.gradient(loss_y, [d, rhs])])))
"""


@pytest.fixture(scope="module")
def real():
    rhs = np.concatenate([RHS, RHS], -1)
    return run_tf_json(REAL_TF.format(d=json.dumps(DIAGS.tolist()), rhs=json.dumps(rhs.tolist())))


def test_against_real_tf(real):
    d, rhs = tf.constant(DIAGS), tf.constant(np.concatenate([RHS, RHS], -1))
    w = tf.reshape(tf.range(1, 33, dtype=tf.float64), rhs.shape)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([d, rhs])
        x = tf.linalg.tridiagonal_solve(d, rhs)
        y = tf.linalg.tridiagonal_matmul(d, rhs)
        loss_x, loss_y = tf.reduce_sum(x * w), tf.reduce_sum(y * w)
    np.testing.assert_allclose(x.numpy(), real["x"], atol=1e-12)
    np.testing.assert_allclose(y.numpy(), real["y"], atol=1e-12)
    for got, want in zip(tape.gradient(loss_x, [d, rhs]), real["gx"]):
        np.testing.assert_allclose(got.numpy(), want, atol=1e-10)
    for got, want in zip(tape.gradient(loss_y, [d, rhs]), real["gy"]):
        np.testing.assert_allclose(got.numpy(), want, atol=1e-10)
