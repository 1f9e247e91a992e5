"""tf.linalg.lu (+ lu_reconstruct, lu_solve, lu_matrix_inverse), eig / eigvals,
pinv, matrix_rank, tensor_diag / tensor_diag_part: values, batches, dtypes,
errors, gradients against finite differences, graphs, and real TF's numbers."""
import json

import numpy as np
import pytest
from gradcheck import check_grads
from real_tf import run_tf_json

import minitf as tf

RNG = np.random.default_rng(0)
A = RNG.normal(size=(2, 3, 4, 4))
TALL = RNG.normal(size=(2, 5, 3))


# --- lu family ---------------------------------------------------------------------------------
def test_lu_packs_factors_of_the_permuted_matrix():
    lower_upper, perm = tf.linalg.lu(A)
    lu_np, p = lower_upper.numpy(), perm.numpy()
    assert perm.dtype == tf.int32 and perm.shape == (2, 3, 4)
    lower = np.tril(lu_np, -1) + np.eye(4)
    upper = np.triu(lu_np)
    permuted = np.take_along_axis(A, p[..., None], axis=-2)
    np.testing.assert_allclose(lower @ upper, permuted, atol=1e-12)
    assert (np.abs(np.tril(lu_np, -1)) <= 1 + 1e-12).all()  # partial pivoting: |L| <= 1


def test_lu_readers():
    lower_upper, perm = tf.linalg.lu(A)
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(lower_upper, perm).numpy(), A,
                               atol=1e-12)
    np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(lower_upper, perm).numpy(),
                               np.linalg.inv(A), rtol=1e-9, atol=1e-9)
    rhs = RNG.normal(size=(2, 3, 4, 2))
    np.testing.assert_allclose(tf.linalg.lu_solve(lower_upper, perm, rhs).numpy(),
                               np.linalg.solve(A, rhs), rtol=1e-9, atol=1e-9)


def test_lu_int64_index_type_and_named_fields():
    out = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]), output_idx_type=tf.int64)
    assert out.p.dtype == tf.int64 and out.lu is out[0]
    assert repr(out).startswith("Lu(lu=<tf.Tensor")
    np.testing.assert_allclose(out.lu.numpy(), [[3, 4], [1 / 3, 2 / 3]], rtol=1e-6)


def test_lu_complex():
    a = A[0, 0] + 1j * A[1, 1]
    lower_upper, perm = tf.linalg.lu(a)
    assert lower_upper.dtype == tf.complex128
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(lower_upper, perm).numpy(), a,
                               atol=1e-12)


def test_lu_has_no_gradient_like_tf_but_its_readers_do():
    x = tf.constant(A[0, 0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.linalg.lu(x)[0]
    with pytest.raises(LookupError, match="gradient registry has no entry for: Lu"):
        tape.gradient(y, x)
    lower_upper, perm = tf.linalg.lu(A[0, 1])
    check_grads(lambda lu: tf.linalg.lu_matrix_inverse(lu, perm), lower_upper.numpy())
    check_grads(lambda lu: tf.linalg.lu_reconstruct(lu, perm), lower_upper.numpy())
    check_grads(lambda lu, b: tf.linalg.lu_solve(lu, perm, b), lower_upper.numpy(),
                A[0, 2, :, :2])


def test_lu_in_a_graph():
    solve = tf.function(lambda x, b: tf.linalg.lu_solve(*tf.linalg.lu(x), b))
    out = solve(tf.constant(A), tf.constant(A[..., :1]))
    np.testing.assert_allclose(out.numpy(), np.linalg.solve(A, A[..., :1]), atol=1e-9)


def test_lu_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible"):
        tf.linalg.lu(tf.constant([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]]))
    tiny = tf.linalg.lu(tf.constant([[1e-30, 0.0], [0.0, 1.0]]))  # tiny is not zero
    assert tiny.p.numpy().tolist() == [0, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square"):
        tf.linalg.lu(tf.zeros([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank >= 2"):
        tf.linalg.lu(tf.zeros([3]))


# --- eig / eigvals -----------------------------------------------------------------------------
def test_eig_solves_the_eigenproblem():
    e, v = tf.linalg.eig(A)
    assert e.dtype == tf.complex128 and v.dtype == tf.complex128
    e, v = e.numpy(), v.numpy()
    np.testing.assert_allclose(A @ v, v * e[..., None, :], atol=1e-10)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1.0, rtol=1e-12)
    np.testing.assert_allclose(tf.linalg.eigvals(A).numpy(), e, rtol=1e-12)


def test_eig_dtypes_and_top_level_names():
    e = tf.eigvals(tf.constant([[0.0, -1.0], [1.0, 0.0]]))
    assert e.dtype == tf.complex64
    np.testing.assert_allclose(e.numpy(), [1j, -1j], atol=1e-6)
    e, v = tf.eig(tf.constant([[2.0 + 1j, 0.0], [0.0, 1.0]], tf.complex64))
    assert e.dtype == v.dtype == tf.complex64
    np.testing.assert_allclose(np.sort_complex(e.numpy()), [1, 2 + 1j], atol=1e-6)


def test_eig_gradients():
    x = A[0]
    check_grads(lambda m: tf.math.real(tf.linalg.eigvals(m)), x)
    check_grads(lambda m: tf.math.imag(tf.linalg.eigvals(m)) ** 2, x)

    def phase_free_vectors(m):  # rotate each eigenvector so its first entry is real
        _, v = tf.linalg.eig(m)
        first = v[..., :1, :]
        return tf.math.real(v * tf.math.conj(first) / tf.cast(tf.abs(first), v.dtype))

    check_grads(phase_free_vectors, x)


def test_eig_in_a_graph_and_errors():
    e = tf.function(tf.linalg.eigvals)(tf.constant(A))
    np.testing.assert_allclose(e.numpy(), tf.linalg.eigvals(A).numpy())
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square"):
        tf.linalg.eig(tf.zeros([2, 3]))


# --- pinv / matrix_rank ------------------------------------------------------------------------
def test_pinv_matches_the_penrose_conditions():
    p = tf.linalg.pinv(TALL).numpy()
    np.testing.assert_allclose(p, np.linalg.pinv(TALL), atol=1e-12)
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    np.testing.assert_allclose(tf.linalg.pinv(singular).numpy(), singular / 25, atol=1e-12)
    out = tf.linalg.pinv(tf.constant([[1.0, 2.0]]), rcond=0.5)
    np.testing.assert_allclose(out.numpy(), [[0.2], [0.4]], rtol=1e-6)


def test_pinv_gradient_and_graph():
    check_grads(tf.linalg.pinv, TALL[0])
    out = tf.function(tf.linalg.pinv)(tf.constant(TALL))
    np.testing.assert_allclose(out.numpy(), np.linalg.pinv(TALL), atol=1e-12)


def test_matrix_rank():
    assert tf.linalg.matrix_rank(TALL).numpy().tolist() == [3, 3]
    r = tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]], tf.float64))
    assert r.dtype == tf.int32 and int(r) == 1
    assert int(tf.linalg.matrix_rank(tf.constant([[1.0, 0.0], [0.0, 1e-3]]), tol=1e-2)) == 1
    # As in TF, a NumPy float64 array is read as float32 here (dtype_hint), so 1e-9 is noise:
    nearly = np.array([[1.0, 2.0], [2.0, 4.0], [0.0, 1e-9]])
    assert int(tf.linalg.matrix_rank(nearly)) == 1
    assert int(tf.linalg.matrix_rank(tf.constant(nearly))) == 2


@pytest.mark.parametrize("fn", [tf.linalg.pinv, tf.linalg.matrix_rank])
def test_pinv_and_rank_need_real_floats(fn):
    with pytest.raises(TypeError, match=r"must have `float`-like `dtype` \(saw int32\)"):
        fn(tf.constant([[1, 2]]))
    with pytest.raises(TypeError, match=r"\(saw complex128\)"):
        fn(tf.constant([[1 + 1j, 2]]))


# --- tensor_diag / tensor_diag_part ------------------------------------------------------------
def test_tensor_diag_round_trip_and_gradients():
    d = np.arange(6.0).reshape(2, 3) + 1
    out = tf.linalg.tensor_diag(d)
    assert out.shape == (2, 3, 2, 3)
    assert out.numpy()[1, 2, 1, 2] == 6.0 and out.numpy().sum() == d.sum()
    np.testing.assert_array_equal(tf.linalg.tensor_diag_part(out).numpy(), d)
    check_grads(tf.linalg.tensor_diag, d)
    check_grads(tf.linalg.tensor_diag_part, RNG.normal(size=(2, 3, 2, 3)))
    assert float(tf.linalg.tensor_diag_part(tf.constant(3.0))) == 3.0


def test_tensor_diag_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="dimensions 0 and 1 do not match"):
        tf.linalg.tensor_diag_part(tf.zeros([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="even and positive"):
        tf.linalg.tensor_diag_part(tf.zeros([2, 3, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least rank 1, got 0"):
        tf.linalg.tensor_diag(tf.constant(3.0))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.tensor_diag(tf.constant([True]))


# --- real TF: one subprocess for the whole file -------------------------------------------------
REAL_TF = """
import json, numpy as np, tensorflow as tf
a = np.array(json.loads('{a}'))
tall = np.array(json.loads('{tall}'))
lu, p = tf.linalg.lu(a)
e = tf.linalg.eigvals(a)
x = tf.constant(tall)
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.reduce_sum(tf.linalg.pinv(x) * tf.range(1, 11, dtype=tf.float64)[:5])
m = tf.constant(lu[0])
with tf.GradientTape() as t2:
    t2.watch(m)
    z = tf.reduce_sum(tf.linalg.lu_matrix_inverse(m, p[0]) * tf.range(4, dtype=tf.float64))
print(json.dumps(dict(
    lu=lu.numpy().tolist(), p=p.numpy().tolist(),
    e_re=np.real(e.numpy()).tolist(), e_im=np.imag(e.numpy()).tolist(),
    inv=tf.linalg.lu_matrix_inverse(lu, p).numpy().tolist(),
    pinv=tf.linalg.pinv(x).numpy().tolist(), pinv_grad=t.gradient(y, x).numpy().tolist(),
    lu_grad=t2.gradient(z, m).numpy().tolist(),
    rank=tf.linalg.matrix_rank(np.array([[1., 2.], [2., 4.], [0., 1e-9]])).numpy().tolist(),
    eig32=str(tf.linalg.eigvals(tf.constant([[1., 2.], [3., 4.]])).dtype.name))))
"""


@pytest.fixture(scope="module")
def real():
    a = A[0]
    code = REAL_TF.format(a=json.dumps(a.tolist()), tall=json.dumps(TALL[0].tolist()))
    return run_tf_json(code), a


def test_against_real_tf(real):
    ref, a = real
    lower_upper, perm = tf.linalg.lu(a)
    np.testing.assert_allclose(lower_upper.numpy(), ref["lu"], atol=1e-12)
    assert perm.numpy().tolist() == ref["p"]
    np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(lower_upper, perm).numpy(),
                               ref["inv"], rtol=1e-10, atol=1e-10)
    e = tf.linalg.eigvals(a).numpy()
    expected = np.array(ref["e_re"]) + 1j * np.array(ref["e_im"])  # the same, maybe reordered
    np.testing.assert_allclose(np.sort_complex(e.round(9)), np.sort_complex(expected.round(9)),
                               atol=1e-9)
    assert tf.linalg.eigvals(tf.constant([[1.0, 2.0], [3.0, 4.0]])).dtype.name == ref["eig32"]
    x = tf.constant(TALL[0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.linalg.pinv(x) * tf.range(1, 11, dtype=tf.float64)[:5])
    np.testing.assert_allclose(tf.linalg.pinv(x).numpy(), ref["pinv"], atol=1e-12)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), ref["pinv_grad"], atol=1e-10)
    m = tf.constant(lower_upper[0])
    with tf.GradientTape() as tape:
        tape.watch(m)
        z = tf.reduce_sum(tf.linalg.lu_matrix_inverse(m, perm[0]) * tf.range(4, dtype=tf.float64))
    np.testing.assert_allclose(tape.gradient(z, m).numpy(), ref["lu_grad"], rtol=1e-9)
    rank = tf.linalg.matrix_rank(np.array([[1.0, 2.0], [2.0, 4.0], [0.0, 1e-9]]))
    assert rank.numpy().tolist() == ref["rank"]
