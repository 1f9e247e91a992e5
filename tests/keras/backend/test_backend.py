"""`tf.keras.backend` without real TF: hand-derived values, variables, global settings restored."""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads

backend = tf.keras.backend


def test_elementwise_and_reductions_by_hand():
    x = tf.constant([[1.0, -2.0], [3.0, 4.0]])
    assert backend.sqrt(tf.constant([-4.0, 9.0])).numpy().tolist() == [0.0, 3.0]
    assert backend.clip(x, 2.0, 0.0).numpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert backend.clip(x, None, 0.0).numpy().tolist() == [[0.0, -2.0], [0.0, 0.0]]
    assert backend.argmax(x).numpy().tolist() == [0, 1] and backend.argmax(x).dtype == tf.int64
    assert backend.sum(x, 1).numpy().tolist() == [-1.0, 7.0]
    assert backend.prod(x, 0, True).numpy().tolist() == [[3.0, -8.0]]
    assert backend.all(tf.constant([[1, 0], [2, 3]]), axis=1).numpy().tolist() == [False, True]
    assert backend.cumprod(x, axis=1).numpy().tolist() == [[1.0, -2.0], [3.0, 12.0]]


def test_bool_statistics_are_in_floatx():
    b = tf.constant([True, False, True, True])
    assert backend.mean(b).dtype == tf.float32 and backend.mean(b).numpy() == 0.75
    np.testing.assert_allclose(backend.var(b).numpy(), 0.1875)
    np.testing.assert_allclose(backend.std(b).numpy(), 0.1875 ** 0.5, rtol=1e-6)
    old = backend.floatx()
    try:
        backend.set_floatx("float64")
        assert backend.mean(b).dtype == tf.float64
    finally:
        backend.set_floatx(old)
    assert backend.floatx() == old


def test_sqrt_gradient_is_zero_below_zero():
    x = tf.Variable([-1.0, 4.0])
    with tf.GradientTape() as tape:
        y = backend.sum(backend.sqrt(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, 0.25])


def test_variables_get_set_update():
    v = backend.variable([1, 2])
    assert isinstance(v, tf.Variable) and v.dtype == tf.float32
    value = backend.get_value(v)
    assert isinstance(value, np.ndarray) and value.tolist() == [1.0, 2.0]
    assert backend.get_value(3) == 3                       # a non-tensor comes back as is
    backend.set_value(v, [5, 6])
    assert v.numpy().tolist() == [5.0, 6.0]
    w = backend.variable([[0]], dtype="int32")
    backend.batch_set_value([(v, np.array([7, 8])), (w, [[9.7]])])
    assert v.numpy().tolist() == [7.0, 8.0] and w.numpy().tolist() == [[9]]
    assert [a.tolist() for a in backend.batch_get_value([v, w])] == [[7.0, 8.0], [[9]]]
    assert backend.update_add(v, [1.0, 1.0]) is v and v.numpy().tolist() == [8.0, 9.0]
    backend.update_sub(v, [8.0, 8.0]); backend.update(w, [[2]])
    assert v.numpy().tolist() == [0.0, 1.0] and w.numpy().tolist() == [[2]]


def test_moving_average_update_by_hand():
    v = backend.variable([10.0, 0.0])
    backend.moving_average_update(v, [0.0, 10.0], momentum=0.9)   # 0.9 * v + 0.1 * value
    np.testing.assert_allclose(v.numpy(), [9.0, 1.0], rtol=1e-6)


def test_constructors_shapes_and_dtypes():
    zeros = backend.zeros((2, 3))
    assert isinstance(zeros, tf.Variable) and zeros.dtype == tf.float32
    assert not isinstance(backend.zeros((2, 0)), tf.Variable)      # a 0-sized shape: a plain tensor
    assert backend.ones((2,), "int32").numpy().tolist() == [1, 1]
    assert backend.eye(2).numpy().tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert backend.constant(1).dtype == tf.float32       # floatx; tf.constant(1) is int32
    x = backend.zeros((2, 3, 4))
    assert (backend.int_shape(x), backend.ndim(x)) == ((2, 3, 4), 3)
    assert (backend.count_params(x), backend.dtype(x)) == (24, "float32")
    assert backend.shape(x).numpy().tolist() == [2, 3, 4]
    assert backend.int_shape(tf.keras.Input((5,))) == (None, 5)
    floats = backend.cast_to_floatx([1, 2])
    assert isinstance(floats, np.ndarray) and floats.dtype == np.float32
    assert backend.cast_to_floatx(tf.constant([1])).dtype == tf.float32


def test_random_seeds_shapes_dtypes_statistics():
    a = backend.random_normal((2000,), mean=1.0, stddev=2.0, seed=3)
    assert a.shape == (2000,) and a.dtype == tf.float32
    assert abs(float(np.mean(a)) - 1.0) < 0.2 and abs(float(np.std(a)) - 2.0) < 0.2
    u = backend.random_uniform((2000,), -1.0, 3.0, dtype="float64", seed=4).numpy()
    assert u.dtype == np.float64 and u.min() >= -1.0 and u.max() < 3.0
    assert abs(u.mean() - 1.0) < 0.15
    t = backend.truncated_normal((2000,), stddev=1.0, seed=5).numpy()
    assert np.abs(t).max() <= 2.0
    b = backend.random_bernoulli((2000,), p=0.25, seed=6).numpy()
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.25) < 0.05
    v = backend.random_uniform_variable((3, 2), 0.0, 1.0, seed=7)
    n = backend.random_normal_variable((3,), 0.0, 1.0, dtype="float64", seed=8)
    assert isinstance(v, tf.Variable) and v.shape == (3, 2) and n.dtype == tf.float64
    tf.random.set_seed(0)                  # with the global seed reset, a seeded draw repeats
    first = backend.random_uniform((3,), seed=5).numpy()
    tf.random.set_seed(0)
    assert backend.random_uniform((3,), seed=5).numpy().tolist() == first.tolist()
    tf.random.set_seed(None)                                     # global state restored


def test_dtype_helpers_and_settings_restore():
    assert backend.backend() == "tensorflow"
    assert backend.is_float_dtype("bfloat16") and backend.is_float_dtype(tf.float64)
    assert not backend.is_float_dtype("int32") and backend.is_int_dtype("uint8")
    assert not backend.is_int_dtype("bool")
    assert backend.standardize_dtype(tf.float32) == "float32"
    assert backend.standardize_dtype(int) == "int64"
    assert backend.is_keras_tensor(tf.keras.Input((2,))) and not backend.is_keras_tensor(tf.ones(2))
    assert backend.get_uid("kb_test_prefix") + 1 == backend.get_uid("kb_test_prefix")
    old = (backend.floatx(), backend.epsilon(), backend.image_data_format())
    try:
        backend.set_floatx("float16")
        backend.set_epsilon(1e-3)
        backend.set_image_data_format("channels_first")
        assert (backend.floatx(), backend.epsilon(), backend.image_data_format()) == (
            "float16", 1e-3, "channels_first")
        assert backend.variable([1]).dtype == tf.float16
        with pytest.raises(ValueError, match="channels_first"):
            backend.set_image_data_format("nchw")
    finally:
        backend.set_floatx(old[0])
        backend.set_epsilon(old[1])
        backend.set_image_data_format(old[2])
    assert (backend.floatx(), backend.epsilon(), backend.image_data_format()) == old


def test_name_scope_and_sparse():
    with backend.name_scope("block"):
        assert tf.constant(1.0) is not None
    s = tf.SparseTensor([[0, 1]], [3.0], [2, 2])
    assert backend.is_sparse(s) and not backend.is_sparse(tf.ones(2))
    assert backend.to_dense(s).numpy().tolist() == [[0.0, 3.0], [0.0, 0.0]]
    assert backend.eval(s).tolist() == [[0.0, 3.0], [0.0, 0.0]]


def test_batch_dot_by_hand_errors_and_gradient():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert backend.batch_dot(x, x).numpy().tolist() == [[5.0], [25.0]]   # per-row dot: (2, 1)
    with pytest.raises(ValueError, match="rank < 2"):
        backend.batch_dot(tf.ones(2), x)
    with pytest.raises(ValueError, match="different batch sizes"):
        backend.batch_dot(tf.ones((3, 2)), x)
    with pytest.raises(ValueError, match="axis 0"):
        backend.batch_dot(x, x, axes=0)
    with pytest.raises(ValueError, match=r"x.shape\[1\] != y.shape\[1\] \(2 != 3\)"):
        backend.batch_dot(x, tf.ones((2, 3)))
    rng = np.random.default_rng(0)
    check_grads(lambda a, b: backend.batch_dot(a, b, axes=(1, 2)), rng.normal(size=(2, 3, 2)),
                rng.normal(size=(2, 4, 3)))
    check_grads(lambda a, b: backend.dot(a, b), rng.normal(size=(2, 2, 3)),
                rng.normal(size=(2, 3, 2)))


def test_array_helpers_by_hand():
    x = tf.constant([[1, 2], [3, 4]])
    assert backend.repeat(x, 2).numpy().tolist() == [[[1, 2], [1, 2]], [[3, 4], [3, 4]]]
    with pytest.raises(ValueError, match="rank 2"):
        backend.repeat(tf.ones(3), 2)
    repeated = backend.repeat_elements(x, 2, axis=0)
    assert repeated.numpy().tolist() == [[1, 2], [1, 2], [3, 4], [3, 4]]
    assert backend.batch_flatten(tf.ones((2, 3, 4))).shape == (2, 12)
    assert backend.arange(-3).numpy().tolist() == []
    assert backend.arange(3, dtype="float32").dtype == tf.float32
    assert backend.temporal_padding(tf.ones((1, 1, 1))).numpy().ravel().tolist() == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="tuple of 2 tuples"):
        backend.spatial_2d_padding(tf.ones((1, 2, 2, 1)), ((1, 1),))
    with pytest.raises(ValueError, match="Unknown data_format"):
        backend.spatial_2d_padding(tf.ones((1, 2, 2, 1)), data_format="NHWC")
    with pytest.raises(ValueError, match="interpolation"):
        backend.resize_images(tf.ones((1, 2, 2, 1)), 2, 2, "channels_last", "cubic")
    volume = backend.resize_volumes(tf.ones((1, 1, 1, 1, 1)), 2, 3, 1, "channels_last")
    assert volume.shape == (1, 2, 3, 1, 1)
    s = tf.SparseTensor([[0, 0]], [1.0], [1, 2])
    assert backend.is_sparse(backend.concatenate([s, s]))
    assert backend.to_dense(backend.concatenate([s, s])).numpy().tolist() == [[1.0, 0.0, 1.0, 0.0]]
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = backend.sum(backend.stop_gradient(x) * x)
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 2.0]


def test_losses_by_hand():
    t = tf.constant([[1.0, 0.0]])
    p = tf.constant([[0.5, 0.5]])
    np.testing.assert_allclose(backend.categorical_crossentropy(t, p).numpy(), [np.log(2.0)],
                               rtol=1e-6)
    np.testing.assert_allclose(backend.categorical_crossentropy(t, p * 4).numpy(), [np.log(2.0)],
                               rtol=1e-6)                                   # rescaled to sum 1
    np.testing.assert_allclose(backend.sparse_categorical_crossentropy(tf.constant([0]), p).numpy(),
                               [np.log(2.0)], rtol=1e-6)
    bce = backend.binary_crossentropy(tf.constant([1.0]), tf.constant([0.0])).numpy()
    assert np.isfinite(bce).all() and bce[0] > 15                          # clipped at epsilon
    res = backend.sparse_categorical_crossentropy(tf.constant([0, 1]),
                                                  tf.constant([[0.5, 0.5]] * 2),
                                            ignore_class=1)
    np.testing.assert_allclose(res.numpy(), [np.log(2.0), 0.0], rtol=1e-6)
    focal = backend.binary_focal_crossentropy(tf.constant([1.0]), tf.constant([0.5]), gamma=2.0)
    np.testing.assert_allclose(focal.numpy(), [0.25 * np.log(2.0)], rtol=1e-5)


def test_activations_by_hand_and_gradient():
    x = tf.constant([[-2.0, 0.5, 8.0]])
    assert backend.relu(x, max_value=6.0).numpy().tolist() == [[0.0, 0.5, 6.0]]
    assert backend.relu(x, threshold=1.0).numpy().tolist() == [[0.0, 0.0, 8.0]]
    np.testing.assert_allclose(backend.hard_sigmoid(x).numpy(), [[0.1, 0.6, 1.0]], rtol=1e-6)
    with pytest.raises(ValueError, match="1D"):
        backend.softmax(tf.constant([1.0, 2.0]))
    check_grads(lambda a: backend.relu(a, alpha=0.1, max_value=1.5), [[-1.3, 0.7, 2.2]])
    check_grads(lambda t, a: backend.categorical_crossentropy(t, a), [[0.2, 0.8]], [[0.3, 0.6]],
                wrt=[1])
    with pytest.raises(ValueError, match="bias dimensions"):
        backend.bias_add(tf.ones((2, 3, 4)), tf.ones((1, 1, 1)))
    top = backend.in_top_k(tf.constant([[0.1, 0.9]]), tf.constant([1]), 1)
    assert top.numpy().tolist() == [True]


def test_dropout_scales_kept_entries():
    y = backend.dropout(tf.ones((1000,)), 0.5, seed=1).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0} and 400 < (y == 0).sum() < 600


def test_conv_and_pool_channels_first_match_channels_last():
    rng = np.random.default_rng(1)
    x = tf.constant(rng.normal(size=(1, 4, 4, 2)), tf.float32)
    k = tf.constant(rng.normal(size=(2, 2, 2, 3)), tf.float32)
    to_first = lambda t: tf.transpose(t, [0, 3, 1, 2])  # noqa: E731
    for fn in (lambda t, f: backend.conv2d(t, k, padding="same", data_format=f),
               lambda t, f: backend.pool2d(t, (2, 2), (2, 2), data_format=f, pool_mode="avg"),
               lambda t, f: backend.bias_add(t, tf.constant([1.0, 2.0]), data_format=f)):
        np.testing.assert_allclose(fn(to_first(x), "channels_first").numpy(),
                                   to_first(fn(x, "channels_last")).numpy(), rtol=1e-5, atol=1e-6)
    causal = backend.conv1d(tf.ones((1, 4, 1)), tf.ones((3, 1, 1)), padding="causal")
    assert causal.numpy().ravel().tolist() == [1.0, 2.0, 3.0, 3.0]  # t sees <= t only
    with pytest.raises(ValueError, match="Invalid padding"):
        backend.conv2d(x, k, padding="full")
    with pytest.raises(ValueError, match="pooling mode"):
        backend.pool2d(x, (2, 2), pool_mode="min")
    with pytest.raises(ValueError, match="pool_size"):
        backend.pool2d(x, (2, 2, 2))
    check_grads(lambda a, b: backend.conv2d(a, b, (2, 2), "same"), rng.normal(size=(1, 3, 3, 1)),
                rng.normal(size=(2, 2, 1, 2)))


def running_sum(x_t, states):
    total = x_t + states[0]
    return total, [total]


def test_rnn_by_hand_with_mask_and_backwards():
    x = tf.constant([[[1.0], [2.0], [3.0]]])
    last, outputs, states = backend.rnn(running_sum, x, [tf.zeros((1, 1))])
    assert outputs.numpy().ravel().tolist() == [1.0, 3.0, 6.0] and last.numpy().tolist() == [[6.0]]
    _, outputs, _ = backend.rnn(running_sum, x, [tf.zeros((1, 1))], go_backwards=True)
    assert outputs.numpy().ravel().tolist() == [3.0, 5.0, 6.0]
    mask = tf.constant([[True, False, True]])
    last, outputs, states = backend.rnn(running_sum, x, [tf.zeros((1, 1))], mask=mask)
    assert outputs.numpy().ravel().tolist() == [1.0, 1.0, 4.0]     # step 2 skipped: kept 1
    assert states[0].numpy().tolist() == [[4.0]]
    _, outputs, _ = backend.rnn(running_sum, x, [tf.zeros((1, 1))], mask=mask,
                                zero_output_for_mask=True)
    assert outputs.numpy().ravel().tolist() == [1.0, 0.0, 4.0]
    _, outputs, _ = backend.rnn(running_sum, x, [tf.zeros((1, 1))], return_all_outputs=False)
    assert outputs.shape == (1, 1, 1)
    with pytest.raises(ValueError, match="rank at least 3"):
        backend.rnn(running_sum, tf.ones((2, 3)), [tf.zeros((2,))])


def test_rnn_gradient_and_tf_function():
    w = tf.Variable(0.5)

    def step(x_t, states):
        h = tf.tanh(x_t * w + states[0])
        return h, [h]

    x = tf.constant(np.linspace(-1, 1, 6).reshape(1, 3, 2), tf.float32)
    with tf.GradientTape() as tape:
        loss = backend.sum(backend.rnn(step, x, [tf.zeros((1, 2))])[1])
    grad = tape.gradient(loss, w).numpy()
    eps = 1e-3
    values = []
    for delta in (eps, -eps):
        w.assign(0.5 + delta)
        values.append(float(backend.sum(backend.rnn(step, x, [tf.zeros((1, 2))])[1])))
    w.assign(0.5)
    np.testing.assert_allclose(grad, (values[0] - values[1]) / (2 * eps), rtol=1e-2)
    traced = tf.function(lambda t: backend.rnn(running_sum, t, [tf.zeros((1, 1))])[0])
    assert traced(tf.constant([[[1.0], [2.0]]])).numpy().tolist() == [[3.0]]


def test_switch_map_fold_and_gradients():
    x = tf.constant([[-1.0, 2.0], [3.0, -4.0]])
    chosen = backend.switch(tf.constant(True), lambda: x, lambda: -x)
    assert chosen.numpy().tolist() == x.numpy().tolist()
    assert backend.switch(x > 0, x, tf.zeros_like(x)).numpy().tolist() == [[0.0, 2.0], [3.0, 0.0]]
    per_column = backend.switch(tf.constant([True, False]), x, -x)
    assert per_column.numpy().tolist() == [[-1.0, -2.0], [3.0, 4.0]]
    with pytest.raises(ValueError, match="Rank of `condition`"):
        backend.switch(tf.ones((2, 2, 2)) > 0, x, x)
    assert backend.map_fn(lambda r: r * 2, x).numpy().tolist() == [[-2.0, 4.0], [6.0, -8.0]]
    elems = tf.constant([1.0, 2.0, 3.0])
    assert backend.foldl(lambda a, r: a - r, elems).numpy() == -4.0   # (1-2)-3
    assert backend.foldr(lambda a, r: a - r, elems).numpy() == 0.0    # (3-2)-1

    @tf.function
    def grads(v):
        return backend.gradients(backend.sum(v * v), [v])[0]
    assert grads(tf.constant([1.0, 3.0])).numpy().tolist() == [2.0, 6.0]


def test_ctc_by_hand():
    sparse = backend.ctc_label_dense_to_sparse(tf.constant([[1, 2, 0], [2, 0, 0]]),
                                               tf.constant([2, 1]))
    assert sparse.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    assert sparse.values.numpy().tolist() == [1, 2, 2]
    # two steps, classes {0, blank}: label [0] is emitted by (0,0), (0,b), (b,0)
    probs = tf.constant([[[0.6, 0.4], [0.3, 0.7]]])
    cost = backend.ctc_batch_cost(tf.constant([[0]]), probs, tf.constant([[2]]), tf.constant([[1]]))
    expected = -np.log(0.6 * 0.3 + 0.6 * 0.7 + 0.4 * 0.3)
    assert cost.shape == (1, 1)
    np.testing.assert_allclose(cost.numpy(), [[expected]], rtol=1e-5)
    decoded, log_prob = backend.ctc_decode(probs, tf.constant([2]))
    assert decoded[0].numpy().tolist() == [[0, -1]]                  # padded with -1
    np.testing.assert_allclose(log_prob.numpy(), [[-np.log(0.6 * 0.7)]], rtol=1e-4)
