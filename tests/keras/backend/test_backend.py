"""`tf.keras.backend` without real TF: hand-derived values, variables, global settings restored."""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads

K = tf.keras.backend


def test_elementwise_and_reductions_by_hand():
    x = tf.constant([[1.0, -2.0], [3.0, 4.0]])
    assert K.sqrt(tf.constant([-4.0, 9.0])).numpy().tolist() == [0.0, 3.0]
    assert K.clip(x, 2.0, 0.0).numpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert K.clip(x, None, 0.0).numpy().tolist() == [[0.0, -2.0], [0.0, 0.0]]
    assert K.argmax(x).numpy().tolist() == [0, 1] and K.argmax(x).dtype == tf.int64
    assert K.sum(x, 1).numpy().tolist() == [-1.0, 7.0]
    assert K.prod(x, 0, True).numpy().tolist() == [[3.0, -8.0]]
    assert K.all(tf.constant([[1, 0], [2, 3]]), axis=1).numpy().tolist() == [False, True]
    assert K.cumprod(x, axis=1).numpy().tolist() == [[1.0, -2.0], [3.0, 12.0]]


def test_bool_statistics_are_in_floatx():
    b = tf.constant([True, False, True, True])
    assert K.mean(b).dtype == tf.float32 and K.mean(b).numpy() == 0.75
    np.testing.assert_allclose(K.var(b).numpy(), 0.1875)
    np.testing.assert_allclose(K.std(b).numpy(), 0.1875 ** 0.5, rtol=1e-6)
    old = K.floatx()
    try:
        K.set_floatx("float64")
        assert K.mean(b).dtype == tf.float64
    finally:
        K.set_floatx(old)
    assert K.floatx() == old


def test_sqrt_gradient_is_zero_below_zero():
    x = tf.Variable([-1.0, 4.0])
    with tf.GradientTape() as tape:
        y = K.sum(K.sqrt(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, 0.25])


def test_variables_get_set_update():
    v = K.variable([1, 2])
    assert isinstance(v, tf.Variable) and v.dtype == tf.float32
    value = K.get_value(v)
    assert isinstance(value, np.ndarray) and value.tolist() == [1.0, 2.0]
    assert K.get_value(3) == 3                                    # a non-tensor comes back as is
    K.set_value(v, [5, 6])
    assert v.numpy().tolist() == [5.0, 6.0]
    w = K.variable([[0]], dtype="int32")
    K.batch_set_value([(v, np.array([7, 8])), (w, [[9.7]])])
    assert v.numpy().tolist() == [7.0, 8.0] and w.numpy().tolist() == [[9]]
    assert [a.tolist() for a in K.batch_get_value([v, w])] == [[7.0, 8.0], [[9]]]
    assert K.update_add(v, [1.0, 1.0]) is v and v.numpy().tolist() == [8.0, 9.0]
    K.update_sub(v, [8.0, 8.0]); K.update(w, [[2]])
    assert v.numpy().tolist() == [0.0, 1.0] and w.numpy().tolist() == [[2]]


def test_moving_average_update_by_hand():
    v = K.variable([10.0, 0.0])
    K.moving_average_update(v, [0.0, 10.0], momentum=0.9)   # 0.9 * v + 0.1 * value
    np.testing.assert_allclose(v.numpy(), [9.0, 1.0], rtol=1e-6)


def test_constructors_shapes_and_dtypes():
    assert isinstance(K.zeros((2, 3)), tf.Variable) and K.zeros((2, 3)).dtype == tf.float32
    assert not isinstance(K.zeros((2, 0)), tf.Variable)      # a 0-sized shape: a plain tensor
    assert K.ones((2,), "int32").numpy().tolist() == [1, 1]
    assert K.eye(2).numpy().tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert K.constant(1).dtype == tf.float32                    # floatx, where tf.constant(1) is int32
    x = K.zeros((2, 3, 4))
    assert (K.int_shape(x), K.ndim(x), K.count_params(x), K.dtype(x)) == ((2, 3, 4), 3, 24, "float32")
    assert K.shape(x).numpy().tolist() == [2, 3, 4]
    assert K.int_shape(tf.keras.Input((5,))) == (None, 5)
    floats = K.cast_to_floatx([1, 2])
    assert isinstance(floats, np.ndarray) and floats.dtype == np.float32
    assert K.cast_to_floatx(tf.constant([1])).dtype == tf.float32


def test_random_seeds_shapes_dtypes_statistics():
    a = K.random_normal((2000,), mean=1.0, stddev=2.0, seed=3)
    assert a.shape == (2000,) and a.dtype == tf.float32
    assert abs(float(np.mean(a)) - 1.0) < 0.2 and abs(float(np.std(a)) - 2.0) < 0.2
    u = K.random_uniform((2000,), -1.0, 3.0, dtype="float64", seed=4).numpy()
    assert u.dtype == np.float64 and u.min() >= -1.0 and u.max() < 3.0
    assert abs(u.mean() - 1.0) < 0.15
    t = K.truncated_normal((2000,), stddev=1.0, seed=5).numpy()
    assert np.abs(t).max() <= 2.0
    b = K.random_bernoulli((2000,), p=0.25, seed=6).numpy()
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.25) < 0.05
    v = K.random_uniform_variable((3, 2), 0.0, 1.0, seed=7)
    n = K.random_normal_variable((3,), 0.0, 1.0, dtype="float64", seed=8)
    assert isinstance(v, tf.Variable) and v.shape == (3, 2) and n.dtype == tf.float64
    tf.random.set_seed(0)                  # with the global seed reset, a seeded draw repeats
    first = K.random_uniform((3,), seed=5).numpy()
    tf.random.set_seed(0)
    assert K.random_uniform((3,), seed=5).numpy().tolist() == first.tolist()
    tf.random.set_seed(None)                                     # global state restored


def test_dtype_helpers_and_settings_restore():
    assert K.backend() == "tensorflow"
    assert K.is_float_dtype("bfloat16") and K.is_float_dtype(tf.float64)
    assert not K.is_float_dtype("int32") and K.is_int_dtype("uint8") and not K.is_int_dtype("bool")
    assert K.standardize_dtype(tf.float32) == "float32" and K.standardize_dtype(int) == "int64"
    assert K.is_keras_tensor(tf.keras.Input((2,))) and not K.is_keras_tensor(tf.ones(2))
    assert K.get_uid("kb_test_prefix") + 1 == K.get_uid("kb_test_prefix")
    old = (K.floatx(), K.epsilon(), K.image_data_format())
    try:
        K.set_floatx("float16"); K.set_epsilon(1e-3); K.set_image_data_format("channels_first")
        assert (K.floatx(), K.epsilon(), K.image_data_format()) == ("float16", 1e-3, "channels_first")
        assert K.variable([1]).dtype == tf.float16
        with pytest.raises(ValueError, match="channels_first"):
            K.set_image_data_format("nchw")
    finally:
        K.set_floatx(old[0]); K.set_epsilon(old[1]); K.set_image_data_format(old[2])
    assert (K.floatx(), K.epsilon(), K.image_data_format()) == old


def test_name_scope_and_sparse():
    with K.name_scope("block"):
        assert tf.constant(1.0) is not None
    s = tf.SparseTensor([[0, 1]], [3.0], [2, 2])
    assert K.is_sparse(s) and not K.is_sparse(tf.ones(2))
    assert K.to_dense(s).numpy().tolist() == [[0.0, 3.0], [0.0, 0.0]]
    assert K.eval(s).tolist() == [[0.0, 3.0], [0.0, 0.0]]


def test_batch_dot_by_hand_errors_and_gradient():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert K.batch_dot(x, x).numpy().tolist() == [[5.0], [25.0]]       # per-row dot, shape (2, 1)
    with pytest.raises(ValueError, match="rank < 2"):
        K.batch_dot(tf.ones(2), x)
    with pytest.raises(ValueError, match="different batch sizes"):
        K.batch_dot(tf.ones((3, 2)), x)
    with pytest.raises(ValueError, match="axis 0"):
        K.batch_dot(x, x, axes=0)
    with pytest.raises(ValueError, match=r"x.shape\[1\] != y.shape\[1\] \(2 != 3\)"):
        K.batch_dot(x, tf.ones((2, 3)))
    rng = np.random.default_rng(0)
    check_grads(lambda a, b: K.batch_dot(a, b, axes=(1, 2)), rng.normal(size=(2, 3, 2)),
                rng.normal(size=(2, 4, 3)))
    check_grads(lambda a, b: K.dot(a, b), rng.normal(size=(2, 2, 3)), rng.normal(size=(2, 3, 2)))


def test_array_helpers_by_hand():
    x = tf.constant([[1, 2], [3, 4]])
    assert K.repeat(x, 2).numpy().tolist() == [[[1, 2], [1, 2]], [[3, 4], [3, 4]]]
    with pytest.raises(ValueError, match="rank 2"):
        K.repeat(tf.ones(3), 2)
    assert K.repeat_elements(x, 2, axis=0).numpy().tolist() == [[1, 2], [1, 2], [3, 4], [3, 4]]
    assert K.batch_flatten(tf.ones((2, 3, 4))).shape == (2, 12)
    assert K.arange(-3).numpy().tolist() == [] and K.arange(3, dtype="float32").dtype == tf.float32
    assert K.temporal_padding(tf.ones((1, 1, 1))).numpy().ravel().tolist() == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="tuple of 2 tuples"):
        K.spatial_2d_padding(tf.ones((1, 2, 2, 1)), ((1, 1),))
    with pytest.raises(ValueError, match="Unknown data_format"):
        K.spatial_2d_padding(tf.ones((1, 2, 2, 1)), data_format="NHWC")
    with pytest.raises(ValueError, match="interpolation"):
        K.resize_images(tf.ones((1, 2, 2, 1)), 2, 2, "channels_last", "cubic")
    assert K.resize_volumes(tf.ones((1, 1, 1, 1, 1)), 2, 3, 1, "channels_last").shape == (1, 2, 3, 1, 1)
    s = tf.SparseTensor([[0, 0]], [1.0], [1, 2])
    assert K.is_sparse(K.concatenate([s, s]))
    assert K.to_dense(K.concatenate([s, s])).numpy().tolist() == [[1.0, 0.0, 1.0, 0.0]]
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = K.sum(K.stop_gradient(x) * x)
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 2.0]


def test_losses_by_hand():
    t = tf.constant([[1.0, 0.0]])
    p = tf.constant([[0.5, 0.5]])
    np.testing.assert_allclose(K.categorical_crossentropy(t, p).numpy(), [np.log(2.0)], rtol=1e-6)
    np.testing.assert_allclose(K.categorical_crossentropy(t, p * 4).numpy(), [np.log(2.0)],
                               rtol=1e-6)                                   # rescaled to sum 1
    np.testing.assert_allclose(K.sparse_categorical_crossentropy(tf.constant([0]), p).numpy(),
                               [np.log(2.0)], rtol=1e-6)
    bce = K.binary_crossentropy(tf.constant([1.0]), tf.constant([0.0])).numpy()
    assert np.isfinite(bce).all() and bce[0] > 15                          # clipped at epsilon
    res = K.sparse_categorical_crossentropy(tf.constant([0, 1]), tf.constant([[0.5, 0.5]] * 2),
                                            ignore_class=1)
    np.testing.assert_allclose(res.numpy(), [np.log(2.0), 0.0], rtol=1e-6)
    focal = K.binary_focal_crossentropy(tf.constant([1.0]), tf.constant([0.5]), gamma=2.0)
    np.testing.assert_allclose(focal.numpy(), [0.25 * np.log(2.0)], rtol=1e-5)


def test_activations_by_hand_and_gradient():
    x = tf.constant([[-2.0, 0.5, 8.0]])
    assert K.relu(x, max_value=6.0).numpy().tolist() == [[0.0, 0.5, 6.0]]
    assert K.relu(x, threshold=1.0).numpy().tolist() == [[0.0, 0.0, 8.0]]
    np.testing.assert_allclose(K.hard_sigmoid(x).numpy(), [[0.1, 0.6, 1.0]], rtol=1e-6)
    with pytest.raises(ValueError, match="1D"):
        K.softmax(tf.constant([1.0, 2.0]))
    check_grads(lambda a: K.relu(a, alpha=0.1, max_value=1.5), [[-1.3, 0.7, 2.2]])
    check_grads(lambda t, a: K.categorical_crossentropy(t, a), [[0.2, 0.8]], [[0.3, 0.6]],
                wrt=[1])
    with pytest.raises(ValueError, match="bias dimensions"):
        K.bias_add(tf.ones((2, 3, 4)), tf.ones((1, 1, 1)))
    assert K.in_top_k(tf.constant([[0.1, 0.9]]), tf.constant([1]), 1).numpy().tolist() == [True]


def test_dropout_scales_kept_entries():
    y = K.dropout(tf.ones((1000,)), 0.5, seed=1).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0} and 400 < (y == 0).sum() < 600


def test_conv_and_pool_channels_first_match_channels_last():
    rng = np.random.default_rng(1)
    x = tf.constant(rng.normal(size=(1, 4, 4, 2)), tf.float32)
    k = tf.constant(rng.normal(size=(2, 2, 2, 3)), tf.float32)
    to_first = lambda t: tf.transpose(t, [0, 3, 1, 2])  # noqa: E731
    for fn in (lambda t, f: K.conv2d(t, k, padding="same", data_format=f),
               lambda t, f: K.pool2d(t, (2, 2), (2, 2), data_format=f, pool_mode="avg"),
               lambda t, f: K.bias_add(t, tf.constant([1.0, 2.0]), data_format=f)):
        np.testing.assert_allclose(fn(to_first(x), "channels_first").numpy(),
                                   to_first(fn(x, "channels_last")).numpy(), rtol=1e-5, atol=1e-6)
    assert K.conv1d(tf.ones((1, 4, 1)), tf.ones((3, 1, 1)), padding="causal").numpy().ravel().tolist() \
        == [1.0, 2.0, 3.0, 3.0]                                  # step t sees steps <= t only
    with pytest.raises(ValueError, match="Invalid padding"):
        K.conv2d(x, k, padding="full")
    with pytest.raises(ValueError, match="pooling mode"):
        K.pool2d(x, (2, 2), pool_mode="min")
    with pytest.raises(ValueError, match="pool_size"):
        K.pool2d(x, (2, 2, 2))
    check_grads(lambda a, b: K.conv2d(a, b, (2, 2), "same"), rng.normal(size=(1, 3, 3, 1)),
                rng.normal(size=(2, 2, 1, 2)))


def running_sum(x_t, states):
    total = x_t + states[0]
    return total, [total]


def test_rnn_by_hand_with_mask_and_backwards():
    x = tf.constant([[[1.0], [2.0], [3.0]]])
    last, outputs, states = K.rnn(running_sum, x, [tf.zeros((1, 1))])
    assert outputs.numpy().ravel().tolist() == [1.0, 3.0, 6.0] and last.numpy().tolist() == [[6.0]]
    _, outputs, _ = K.rnn(running_sum, x, [tf.zeros((1, 1))], go_backwards=True)
    assert outputs.numpy().ravel().tolist() == [3.0, 5.0, 6.0]
    mask = tf.constant([[True, False, True]])
    last, outputs, states = K.rnn(running_sum, x, [tf.zeros((1, 1))], mask=mask)
    assert outputs.numpy().ravel().tolist() == [1.0, 1.0, 4.0]     # step 2 skipped: kept 1
    assert states[0].numpy().tolist() == [[4.0]]
    _, outputs, _ = K.rnn(running_sum, x, [tf.zeros((1, 1))], mask=mask, zero_output_for_mask=True)
    assert outputs.numpy().ravel().tolist() == [1.0, 0.0, 4.0]
    _, outputs, _ = K.rnn(running_sum, x, [tf.zeros((1, 1))], return_all_outputs=False)
    assert outputs.shape == (1, 1, 1)
    with pytest.raises(ValueError, match="rank at least 3"):
        K.rnn(running_sum, tf.ones((2, 3)), [tf.zeros((2,))])


def test_rnn_gradient_and_tf_function():
    w = tf.Variable(0.5)

    def step(x_t, states):
        h = tf.tanh(x_t * w + states[0])
        return h, [h]

    x = tf.constant(np.linspace(-1, 1, 6).reshape(1, 3, 2), tf.float32)
    with tf.GradientTape() as tape:
        loss = K.sum(K.rnn(step, x, [tf.zeros((1, 2))])[1])
    grad = tape.gradient(loss, w).numpy()
    eps = 1e-3
    values = []
    for delta in (eps, -eps):
        w.assign(0.5 + delta)
        values.append(float(K.sum(K.rnn(step, x, [tf.zeros((1, 2))])[1])))
    w.assign(0.5)
    np.testing.assert_allclose(grad, (values[0] - values[1]) / (2 * eps), rtol=1e-2)
    traced = tf.function(lambda t: K.rnn(running_sum, t, [tf.zeros((1, 1))])[0])
    assert traced(tf.constant([[[1.0], [2.0]]])).numpy().tolist() == [[3.0]]


def test_switch_map_fold_and_gradients():
    x = tf.constant([[-1.0, 2.0], [3.0, -4.0]])
    assert K.switch(tf.constant(True), lambda: x, lambda: -x).numpy().tolist() == x.numpy().tolist()
    assert K.switch(x > 0, x, tf.zeros_like(x)).numpy().tolist() == [[0.0, 2.0], [3.0, 0.0]]
    assert K.switch(tf.constant([True, False]), x, -x).numpy().tolist() == [[-1.0, -2.0], [3.0, 4.0]]
    with pytest.raises(ValueError, match="Rank of `condition`"):
        K.switch(tf.ones((2, 2, 2)) > 0, x, x)
    assert K.map_fn(lambda r: r * 2, x).numpy().tolist() == [[-2.0, 4.0], [6.0, -8.0]]
    assert K.foldl(lambda a, r: a - r, tf.constant([1.0, 2.0, 3.0])).numpy() == -4.0   # (1-2)-3
    assert K.foldr(lambda a, r: a - r, tf.constant([1.0, 2.0, 3.0])).numpy() == 0.0    # (3-2)-1

    @tf.function
    def grads(v):
        return K.gradients(K.sum(v * v), [v])[0]
    assert grads(tf.constant([1.0, 3.0])).numpy().tolist() == [2.0, 6.0]


def test_ctc_by_hand():
    sparse = K.ctc_label_dense_to_sparse(tf.constant([[1, 2, 0], [2, 0, 0]]), tf.constant([2, 1]))
    assert sparse.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    assert sparse.values.numpy().tolist() == [1, 2, 2]
    # two steps, classes {0, blank}: label [0] is emitted by (0,0), (0,b), (b,0)
    probs = tf.constant([[[0.6, 0.4], [0.3, 0.7]]])
    cost = K.ctc_batch_cost(tf.constant([[0]]), probs, tf.constant([[2]]), tf.constant([[1]]))
    expected = -np.log(0.6 * 0.3 + 0.6 * 0.7 + 0.4 * 0.3)
    assert cost.shape == (1, 1)
    np.testing.assert_allclose(cost.numpy(), [[expected]], rtol=1e-5)
    decoded, log_prob = K.ctc_decode(probs, tf.constant([2]))
    assert decoded[0].numpy().tolist() == [[0, -1]]                  # padded with -1
    np.testing.assert_allclose(log_prob.numpy(), [[-np.log(0.6 * 0.7)]], rtol=1e-4)
