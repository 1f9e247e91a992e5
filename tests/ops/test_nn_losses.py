"""tf.nn losses: softmax / sparse / sigmoid / weighted cross-entropy and l2_loss."""
import warnings

import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import arrays, float_arrays, small_shapes

import minitf as tf

SCE = tf.nn.softmax_cross_entropy_with_logits
SPARSE = tf.nn.sparse_softmax_cross_entropy_with_logits
SIGMOID = tf.nn.sigmoid_cross_entropy_with_logits
WEIGHTED = tf.nn.weighted_cross_entropy_with_logits


def _log_softmax(v, axis=-1):
    shifted = v - v.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _distribution(shape, axis, seed):
    """Random labels that sum to 1 along `axis` (what softmax cross-entropy expects)."""
    p = np.exp(arrays(shape, -1.0, 1.0, seed=seed))
    return np.ascontiguousarray(p / p.sum(axis=axis, keepdims=True))


def _grads(fn, *tensors):
    with tf.GradientTape(persistent=True) as tape:
        for t in tensors:
            tape.watch(t)
        y = fn(*tensors)
    return y, [tape.gradient(y, t) for t in tensors]


# --- values against NumPy ----------------------------------------------------------------------
@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax_cross_entropy_values(axis):
    logits = arrays((3, 4, 2), seed=1) * 3
    labels = _distribution((3, 4, 2), axis, seed=2)
    out = SCE(labels=tf.constant(labels), logits=tf.constant(logits), axis=axis)
    expected = -np.sum(labels * _log_softmax(logits, axis), axis=axis)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_softmax_cross_entropy_dtypes_and_label_casting():
    logits = tf.constant([[2.0, 1.0, 0.1]])
    assert SCE(labels=[[0.0, 1.0, 0.0]], logits=logits).dtype == tf.float32
    int_labels = SCE(labels=tf.constant([[0, 1, 0]]), logits=logits)  # cast to float, as in TF
    np.testing.assert_allclose(int_labels.numpy(), -_log_softmax(np.array([2.0, 1.0, 0.1]))[1:2],
                               rtol=1e-6)
    half = SCE(labels=[[0.0, 1.0, 0.0]], logits=tf.constant([[2.0, 1.0, 0.1]], tf.float16))
    assert half.dtype == tf.float16


def test_softmax_cross_entropy_broadcasts_labels_rows_and_takes_vectors():
    out = SCE(labels=tf.constant([[0.0, 1.0, 0.0]]), logits=tf.zeros([2, 3]))
    np.testing.assert_allclose(out.numpy(), [np.log(3)] * 2, rtol=1e-6)
    vector = SCE(labels=[0.0, 1.0], logits=[2.0, 3.0])
    assert vector.shape == tf.TensorShape([])
    assert float(vector) == pytest.approx(np.log1p(np.exp(-1.0)), rel=1e-6)


@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
       seed=st.integers(0, 2**16))
def test_sparse_cross_entropy_values(shape, seed):
    logits = arrays(shape, -3.0, 3.0, seed=seed)
    labels = np.random.default_rng(seed).integers(0, shape[-1], size=shape[:-1])
    out = SPARSE(labels=tf.constant(labels.astype(np.int32)), logits=tf.constant(logits))
    expected = -np.take_along_axis(_log_softmax(logits), labels[..., None], -1)[..., 0]
    assert out.shape == tf.TensorShape(list(shape[:-1]))
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_sparse_cross_entropy_accepts_int64_labels_and_empty_batches():
    out = SPARSE(labels=tf.constant([2, 0], tf.int64), logits=tf.zeros([2, 3]))
    np.testing.assert_allclose(out.numpy(), [np.log(3)] * 2, rtol=1e-6)
    assert SPARSE(labels=tf.zeros([0], tf.int32), logits=tf.zeros([0, 3])).shape == [0]


def test_sigmoid_and_weighted_cross_entropy_values():
    x = arrays((2, 3), -4.0, 4.0, seed=3)
    z = arrays((2, 3), 0.0, 1.0, seed=4)
    p = 1 / (1 + np.exp(-x))
    sig = SIGMOID(labels=tf.constant(z), logits=tf.constant(x)).numpy()
    np.testing.assert_allclose(sig, -z * np.log(p) - (1 - z) * np.log(1 - p), rtol=1e-12)
    weighted = WEIGHTED(labels=tf.constant(z), logits=tf.constant(x), pos_weight=2.5).numpy()
    np.testing.assert_allclose(weighted, -2.5 * z * np.log(p) - (1 - z) * np.log(1 - p),
                               rtol=1e-12)


def test_l2_loss_values_and_dtype():
    t = arrays((3, 2), seed=5)
    assert float(tf.nn.l2_loss(tf.constant(t))) == pytest.approx(np.sum(t ** 2) / 2, rel=1e-12)
    out = tf.nn.l2_loss(tf.constant([[1.0, 2.0], [3.0, 4.5]]))
    assert out.dtype == tf.float32 and out.shape == tf.TensorShape([])
    assert float(out) == 17.125


# --- numbers printed by TensorFlow 2.21 (float64), at logits of +-1000 -----------------------
HUGE_LOGITS = [[1000.0, -1000.0, 0.0], [2.0, 1.0, 0.1]]


def test_softmax_cross_entropy_matches_tensorflow():
    logits = tf.constant(HUGE_LOGITS, tf.float64)
    labels = tf.constant([[0.0, 1.0, 0.0], [0.2, 0.3, 0.5]], tf.float64)
    y, (d_logits, d_labels) = _grads(lambda a, b: SCE(labels=b, logits=a), logits, labels)
    np.testing.assert_allclose(y.numpy(), [2000.0, 1.6670300162778333], rtol=1e-14)
    np.testing.assert_allclose(
        d_logits.numpy(), [[1.0, -1.0, 0.0],
                           [0.4590011388859679, -0.057567029295286065, -0.4014341095906818]],
        rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(
        d_labels.numpy(), [[0.0, 2000.0, 1000.0],
                           [0.41703001627783354, 1.4170300162778335, 2.3170300162778332]],
        rtol=1e-14)


def test_sparse_cross_entropy_matches_tensorflow():
    logits = tf.constant(HUGE_LOGITS, tf.float64)
    y, (d_logits,) = _grads(lambda a: SPARSE(labels=[1, 2], logits=a), logits)
    np.testing.assert_allclose(y.numpy(), [2000.0, 2.3170300162778332], rtol=1e-14)
    np.testing.assert_allclose(
        d_logits.numpy(), [[1.0, -1.0, 0.0],
                           [0.6590011388859679, 0.24243297070471392, -0.9014341095906818]],
        rtol=1e-13)


def test_sigmoid_and_weighted_cross_entropy_match_tensorflow():
    z = tf.constant([0.0, 1.0, 0.5, 1.0], tf.float64)
    x = tf.constant([1000.0, -1000.0, 0.3, -2.0], tf.float64)
    y, (dx, dz) = _grads(lambda a, b: SIGMOID(labels=b, logits=a), x, z)
    np.testing.assert_allclose(y.numpy(), [1000.0, 1000.0, 0.7043552444685272,
                                           2.1269280110429727], rtol=1e-14)
    np.testing.assert_allclose(dx.numpy(), [1.0, -1.0, 0.07444251681165892,
                                            -0.8807970779778824], rtol=1e-13)
    np.testing.assert_allclose(dz.numpy(), [-1000.0, 1000.0, -0.3, 2.0], rtol=1e-14)
    y, (dx, dz) = _grads(lambda a, b: WEIGHTED(labels=b, logits=a, pos_weight=2.5), x, z)
    np.testing.assert_allclose(y.numpy(), [1000.0, 2500.0, 1.1201216778199223,
                                           5.3173200276074315], rtol=1e-14)
    np.testing.assert_allclose(dx.numpy(), [1.0, -2.5, -0.24472559557959694,
                                            -2.201992694944706], rtol=1e-13)
    np.testing.assert_allclose(dz.numpy(), [-1000.0, 2500.0, 0.5315328667027908,
                                            5.190392016564459], rtol=1e-13)


def test_softmax_cross_entropy_second_derivative_matches_tensorflow():
    logits = tf.constant([[0.3, -1.2, 2.0]], tf.float64)
    labels = tf.constant([[0.1, 0.6, 0.3]], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(logits)
        with tf.GradientTape() as inner:
            inner.watch(logits)
            y = SCE(labels=labels, logits=logits)
        g = inner.gradient(y, logits)
        s = tf.reduce_sum(g * tf.constant([[1.0, 2.0, 3.0]], tf.float64))
    np.testing.assert_allclose(outer.gradient(s, logits).numpy(),
                               [[-0.24907054175203522, -0.022257608237226386,
                                 0.2713281499892613]], rtol=1e-12)


# --- stability ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_huge_logits_give_finite_losses_and_gradients_without_warnings(dtype):
    logits = tf.constant([[1000.0, -1000.0, 0.0], [-1000.0, -1000.0, 1000.0]], dtype)
    labels = tf.constant([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]], dtype)
    losses = [lambda a, b: SCE(labels=b, logits=a),
              lambda a, b: SPARSE(labels=[1, 0], logits=a),
              lambda a, b: SIGMOID(labels=b, logits=a),
              lambda a, b: WEIGHTED(labels=b, logits=a, pos_weight=3.0)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for loss in losses:
            y, grads = _grads(loss, logits, labels)
            assert np.all(np.isfinite(y.numpy()))
            for g in grads:
                assert g is None or np.all(np.isfinite(g.numpy()))


# --- gradients ---------------------------------------------------------------------------------
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3),
       seed=st.integers(0, 2**16), data=st.data())
def test_softmax_cross_entropy_gradients(shape, seed, data):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    logits = arrays(shape, -3.0, 3.0, seed=seed)
    labels = _distribution(shape, axis, seed + 1)
    check_grads(lambda a, b: SCE(labels=b, logits=a, axis=axis), logits, labels)


@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_cross_entropy_second_order_in_logits_and_labels(axis):
    logits = arrays((3, 4), -2.0, 2.0, seed=6)
    labels = _distribution((3, 4), axis, seed=7)
    check_grads(lambda a, b: SCE(labels=b, logits=a, axis=axis), logits, labels, order=2)


def test_softmax_cross_entropy_gradient_is_softmax_minus_labels():
    logits = arrays((2, 5), seed=8)
    labels = _distribution((2, 5), -1, seed=9)
    _, (d_logits, d_labels) = _grads(lambda a, b: SCE(labels=b, logits=a),
                                     tf.constant(logits), tf.constant(labels))
    np.testing.assert_allclose(d_logits.numpy(), np.exp(_log_softmax(logits)) - labels,
                               rtol=1e-12)
    np.testing.assert_allclose(d_labels.numpy(), -_log_softmax(logits), rtol=1e-12)


def test_broadcast_labels_get_a_gradient_of_their_own_shape():
    logits = tf.constant(arrays((3, 4), seed=10))
    labels = tf.constant(_distribution((1, 4), -1, seed=11))
    _, (d_logits, d_labels) = _grads(lambda a, b: SCE(labels=b, logits=a), logits, labels)
    assert d_logits.shape == [3, 4] and d_labels.shape == [1, 4]
    check_grads(lambda a, b: SCE(labels=b, logits=a), logits.numpy(), labels.numpy(), order=2)


@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3),
       seed=st.integers(0, 2**16))
def test_sparse_cross_entropy_gradients(shape, seed):
    labels = tf.constant(np.random.default_rng(seed).integers(0, shape[-1], size=shape[:-1]),
                         tf.int32)
    check_grads(lambda a: SPARSE(labels=labels, logits=a), arrays(shape, -3.0, 3.0, seed=seed))


def test_sparse_cross_entropy_second_order_and_no_label_gradient():
    labels = tf.constant([0, 3, 1])
    check_grads(lambda a: SPARSE(labels=labels, logits=a), arrays((3, 4), seed=12), order=2)
    logits = tf.constant(arrays((3, 4), seed=12))
    _, (d_logits, d_labels) = _grads(lambda a, b: SPARSE(labels=b, logits=a), logits, labels)
    assert d_labels is None and d_logits.shape == [3, 4]


@given(x=float_arrays(low=-5.0, high=5.0), seed=st.integers(0, 2**16))
def test_sigmoid_and_weighted_cross_entropy_gradients(x, seed):
    z = arrays(x.shape, 0.0, 1.0, seed=seed)
    x = np.where(np.abs(x) < 0.05, 0.3, x)  # |x| has a kink at 0
    check_grads(lambda a, b: SIGMOID(labels=b, logits=a), x, z)
    check_grads(lambda a, b, w: WEIGHTED(labels=b, logits=a, pos_weight=w), x, z, np.array(1.7))


def test_sigmoid_and_weighted_cross_entropy_second_order():
    x, z = arrays((2, 3), seed=13), arrays((2, 3), 0.0, 1.0, seed=14)
    check_grads(lambda a, b: SIGMOID(labels=b, logits=a), x, z, order=2)
    check_grads(lambda a, b: WEIGHTED(labels=b, logits=a, pos_weight=0.4), x, z, order=2)


@given(t=float_arrays(shape=small_shapes))
def test_l2_loss_gradient(t):
    check_grads(tf.nn.l2_loss, t)


def test_l2_loss_second_order():
    check_grads(tf.nn.l2_loss, arrays((2, 3), seed=15), order=2)


# --- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize("call, cls, message", [
    (lambda: SCE(labels=tf.zeros([2, 4]), logits=tf.zeros([2, 3])), tf.errors.InvalidArgumentError,
     r"logits and labels must be broadcastable: logits_size=\[2,3\] labels_size=\[2,4\]"),
    (lambda: SCE(labels=tf.zeros([2, 2, 4]), logits=tf.zeros([2, 2, 3])),
     tf.errors.InvalidArgumentError,
     r"logits and labels must be broadcastable: logits_size=\[4,3\] labels_size=\[4,4\]"),
    (lambda: SCE(labels=[1, 2], logits=[1, 2]), tf.errors.InvalidArgumentError,
     r"attr 'T' of int32 is not in the list of allowed values: half, float, double"),
    (lambda: SCE(labels=1.0, logits=2.0), tf.errors.InvalidArgumentError,
     r"logits must have >= 1 dimension, got \[\]"),
    (lambda: SCE(labels=tf.zeros([2, 3]), logits=tf.zeros([2, 3]), axis=2),
     tf.errors.InvalidArgumentError, r"range \[-2, 2\), but got 2"),
    (lambda: SPARSE(labels=[5, 0], logits=tf.zeros([2, 3])), tf.errors.InvalidArgumentError,
     r"Received a label value of 5 which is outside the valid range of \[0, 3\)\.  "
     r"Label values: 5 0"),
    (lambda: SPARSE(labels=[0, 7, 5], logits=tf.zeros([3, 3])), tf.errors.InvalidArgumentError,
     r"Received a label value of 7 which is outside the valid range of \[0, 3\)"),
    (lambda: SPARSE(labels=[-1, 4], logits=tf.zeros([2, 3])), tf.errors.InvalidArgumentError,
     r"Received a label value of -1 which is outside the valid range of \[0, 3\)"),
    (lambda: SPARSE(labels=[0.0, 1.0], logits=tf.zeros([2, 3])), tf.errors.InvalidArgumentError,
     r"Value for attr 'Tlabels' of float is not in the list of allowed values: int32, int64"),
    (lambda: SPARSE(labels=[0, 1], logits=tf.zeros([2, 3], tf.int32)),
     tf.errors.InvalidArgumentError, r"attr 'T' of int32 is not in the list"),
    (lambda: SPARSE(labels=[[0, 0]], logits=tf.zeros([2, 3])), ValueError,
     r"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape=\(1, 2\) "
     r"of rank 2 and logits.shape=\(2, 3\) of rank 2"),
    (lambda: SPARSE(labels=[0, 0, 1], logits=tf.zeros([2, 3])), ValueError,
     r"`labels.shape` must equal `logits.shape` except for the last dimension. "
     r"Received: labels.shape=\(3,\) and logits.shape=\(2, 3\)"),
    (lambda: SPARSE(labels=0, logits=0.0), ValueError, r"`logits` cannot be a scalar"),
    (lambda: SIGMOID(labels=tf.zeros([2, 4]), logits=tf.zeros([2, 3])), ValueError,
     r"`logits` and `labels` must have the same shape, received \(\(2, 3\) vs \(2, 4\)\)\."),
    (lambda: WEIGHTED(labels=tf.zeros([1, 3]), logits=tf.zeros([2, 3]), pos_weight=2.0),
     ValueError, r"must have the same shape, received \(\(2, 3\) vs \(1, 3\)\)"),
    (lambda: SIGMOID(labels=[1.0]), ValueError, r"Both `labels` and `logits` must be provided"),
    (lambda: SIGMOID(labels=[1], logits=[2.0]), tf.errors.InvalidArgumentError,
     r"cannot compute Mul as input #1\(zero-based\) was expected to be a float tensor but is "
     r"a int32 tensor"),
    (lambda: tf.nn.l2_loss([1, 2]), tf.errors.InvalidArgumentError,
     r"attr 'T' of int32 .*\[Op:L2Loss\]"),
])
def test_error_table(call, cls, message):
    with pytest.raises(cls, match=message):
        call()
