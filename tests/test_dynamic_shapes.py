"""Shapes known only when the graph runs: tf.shape/size/rank, tf.range, tensor indices,
shape tensors, gradients with None dimensions, and the Effective-TF2 dynamic RNN."""
import numpy as np
import pytest

import minitf as tf


def _unknown(*arrays):
    """A TensorSpec with every dimension None for each array (only the rank is known)."""
    return [tf.TensorSpec([None] * np.ndim(a), tf.as_dtype(np.asarray(a).dtype)) for a in arrays]


# --- tf.shape, tf.size, tf.rank -----------------------------------------------------------------
def test_shape_size_rank_are_ops_for_unknown_dims_and_constants_otherwise():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        return tf.shape(x), tf.size(x), tf.rank(x), tf.shape(x, out_type=tf.int64)

    shape, size, rank, shape64 = f(tf.ones([4, 3]))
    assert shape.numpy().tolist() == [4, 3] and int(size) == 12 and int(rank) == 2
    assert shape64.dtype == tf.int64
    graph = f.get_concrete_function().graph
    names = [n.type for n in graph.nodes]
    assert names.count("Shape") == 2 and "Size" in names
    assert "Rank" not in names  # the rank is known statically: a constant, as in TF
    assert graph.outputs[0].shape.as_list() == [2]

    @tf.function
    def g(x):
        return tf.shape(x)

    g(tf.ones([2, 3]))
    assert "Shape" not in [n.type for n in g.get_concrete_function(tf.ones([2, 3])).graph.nodes]


def test_size_of_an_empty_batch_and_rank_of_unknown_rank():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        return tf.rank(x), tf.size(x)

    rank, size = f(tf.zeros([0, 5]))
    assert int(rank) == 2 and int(size) == 0


# --- tf.range with a symbolic bound ------------------------------------------------------------
def test_range_with_symbolic_bounds():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
    def f(start, limit):
        return tf.range(limit), tf.range(start, limit, 2), tf.range(limit, start, -1)

    a, b, c = f(tf.constant(1), tf.constant(6))
    assert a.numpy().tolist() == [0, 1, 2, 3, 4, 5]
    assert b.numpy().tolist() == [1, 3, 5]
    assert c.numpy().tolist() == [6, 5, 4, 3, 2]
    assert f.get_concrete_function().graph.outputs[0].shape.as_list() == [None]

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def floats(limit):
        return tf.range(0.0, limit, 0.5)

    assert floats(tf.constant(2.0)).numpy().tolist() == [0.0, 0.5, 1.0, 1.5]


def test_range_errors_at_run_time_are_tf_errors():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def f(delta):
        return tf.range(0, 5, delta)

    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires delta != 0"):
        f(tf.constant(0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start >= limit"):
        f(tf.constant(-1))


# --- indexing with tensors ---------------------------------------------------------------------
def test_indexing_with_scalar_tensors_inside_tf_function():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
    def f(x, i, j):
        return x[i], x[i:j], x[:, i], x[i, j], x[i:], x[::j]

    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    got = f(tf.constant(x), tf.constant(1), tf.constant(2))
    for g, w in zip(got, [x[1], x[1:2], x[:, 1], x[1, 2], x[1:], x[::2]]):
        np.testing.assert_array_equal(g.numpy(), w)
    graph = f.get_concrete_function().graph
    assert graph.outputs[0].shape.as_list() == [3]      # an integer index drops its axis
    assert graph.outputs[1].shape.as_list() == [None, 3]
    assert graph.outputs[2].shape.as_list() == [None]
    assert graph.outputs[3].shape.as_list() == []
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        f(tf.constant(x), tf.constant(0), tf.constant(3))  # x[0, 3]: axis 1 has size 3


def test_gradient_of_tensor_indexing_matches_eager():
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))

    def loss(x, i):
        return tf.reduce_sum(x[i] * 2.0) + tf.reduce_sum(x[i:i + 2, 1:] ** 2)

    @tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([], tf.int32)])
    def graph_grad(x, i):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x, i)
        return tape.gradient(y, x)

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss(x, 1)
    np.testing.assert_allclose(graph_grad(x, tf.constant(1)).numpy(),
                               tape.gradient(y, x).numpy())


# --- shape tensors ------------------------------------------------------------------------------
def test_shape_tensors_for_zeros_ones_fill_reshape_tile_broadcast():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        n = tf.shape(x)[0]
        return (tf.zeros(tf.shape(x)), tf.ones([n, 2], tf.int32), tf.fill(tf.shape(x), 7.0),
                tf.reshape(x, tf.stack([n, -1])), tf.reshape(x, [n * 3]),
                tf.tile(x, tf.stack([2, n])), tf.broadcast_to(x[:1], tf.shape(x)),
                tf.zeros_like(x, dtype=tf.int32), tf.expand_dims(x, 1), tf.squeeze(x[:, :1], 1))

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = f(tf.constant(x))
    want = [np.zeros((2, 3)), np.ones((2, 2)), np.full((2, 3), 7.0), x, x.reshape(6),
            np.tile(x, (2, 2)), np.broadcast_to(x[:1], (2, 3)), np.zeros((2, 3)),
            x[:, None], x[:, 0]]
    for got, expected in zip(out, want):
        np.testing.assert_array_equal(got.numpy(), expected)
    assert out[1].dtype == tf.int32
    static = [t.shape.as_list() for t in f.get_concrete_function().graph.outputs]
    assert static[:5] == [[None, 3], [None, 2], [None, 3], [None, None], [None]]
    assert static[8] == [None, 1, 3] and static[9] == [None]


def test_reshape_infers_the_minus_one_when_the_input_size_is_known():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def f(n):
        return tf.reshape(tf.zeros([6]), tf.stack([n, 3]))

    assert f(tf.constant(2)).shape.as_list() == [2, 3]
    # 6 values and one unknown size: the size is worked out while tracing, as TF does
    assert f.get_concrete_function().graph.outputs[0].shape.as_list() == [2, 3]


def test_split_into_equal_pieces_of_an_unknown_axis_is_a_clear_error():
    @tf.function(input_signature=[tf.TensorSpec([2, None], tf.float32)])
    def f(x):
        return tf.split(x, 2, axis=1)

    with pytest.raises(ValueError, match="Cannot split axis 1 of a tensor of shape"):
        f(tf.ones([2, 4]))


def test_unstack_without_num_on_an_unknown_axis_is_a_clear_error():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        return tf.unstack(x)

    with pytest.raises(ValueError, match="Cannot infer argument `num`"):
        f(tf.ones([3, 2]))


# --- gradients with unknown dimensions ------------------------------------------------------------
def _mlp(seed=0):
    rng = np.random.RandomState(seed)
    return [tf.Variable(rng.randn(4, 5).astype(np.float32)), tf.Variable(np.zeros(5, np.float32)),
            tf.Variable(rng.randn(5, 3).astype(np.float32)), tf.Variable(np.zeros(3, np.float32))]


def _mlp_loss(variables, x, y):
    w1, b1, w2, b2 = variables
    h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1))
    logits = tf.matmul(h, w2) + b2
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.cast(y, tf.int32),
                                                            logits=logits)
    dense = tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(tf.cast(y, tf.int32), 3),
                                                    logits=logits)
    return tf.reduce_mean(sparse) + tf.reduce_mean(dense)


def test_training_step_with_a_batch_of_unknown_size_matches_eager_with_one_trace():
    variables = _mlp()

    @tf.function(input_signature=[tf.TensorSpec([None, 4]), tf.TensorSpec([None])])
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = _mlp_loss(variables, x, y)
        return loss, tape.gradient(loss, variables)

    rng = np.random.RandomState(1)
    for batch in (1, 3, 8):
        x = tf.constant(rng.randn(batch, 4).astype(np.float32))
        y = tf.constant(rng.randint(0, 3, batch).astype(np.float32))
        loss, grads = step(x, y)
        with tf.GradientTape() as tape:
            eager_loss = _mlp_loss(variables, x, y)
        eager_grads = tape.gradient(eager_loss, variables)
        np.testing.assert_allclose(float(loss), float(eager_loss), rtol=1e-6)
        for g, e in zip(grads, eager_grads):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)
    assert step.experimental_get_tracing_count() == 1


GRADIENT_CASES = {
    "broadcast add": (lambda a, b: a + b, [(3, 1), (1, 4)]),
    "broadcast mul": (lambda a, b: a * b, [(2, 3), (3,)]),
    "sub, div": (lambda a, b: (a - b) / (b * b + 1.0), [(2, 3), (2, 1)]),
    "maximum": (lambda a, b: tf.maximum(a, b), [(3, 2), (2,)]),
    "batched matmul": (lambda a, b: tf.matmul(a, b), [(2, 3, 4), (4, 2)]),
    "matmul transposed": (lambda a, b: tf.matmul(a, b, transpose_b=True), [(3, 4), (2, 4)]),
    "reductions": (lambda a: tf.reduce_sum(a, 0) + tf.reduce_mean(a, 1, keepdims=True)
                   + tf.reduce_max(a, 0), [(3, 3)]),
    "mean all": (lambda a: tf.reduce_mean(a) * tf.reduce_logsumexp(a), [(2, 3)]),
    "tile": (lambda a: tf.tile(a, [2, 3]), [(2, 3)]),
    "transpose, reshape": (lambda a: tf.reshape(tf.transpose(a), [-1]), [(2, 3)]),
    "slicing": (lambda a: a[1:, ::-1] * a[:-1, :], [(3, 4)]),
    "gather": (lambda a: tf.gather(a, [2, 0, 2]), [(3, 2)]),
    "gather axis 1": (lambda a: tf.gather(a, [[1, 0]], axis=1), [(3, 2)]),
    "gather batch_dims": (lambda a: tf.gather(a, [[1], [0], [1]], axis=1, batch_dims=1),
                          [(3, 2, 2)]),
    "concat": (lambda a, b: tf.concat([a, b, a], axis=0), [(2, 3), (1, 3)]),
    "stack, expand": (lambda a: tf.stack([a, 2 * a], 1) * tf.expand_dims(a, 1), [(2, 3)]),
    "softmax": (lambda a: tf.nn.softmax(a) + tf.nn.log_softmax(a, axis=0), [(2, 3)]),
    "bias_add": (lambda a, b: tf.nn.bias_add(a, b), [(2, 3), (3,)]),
    "where": (lambda a, b: tf.where(a > 0.0, a, b), [(2, 3), (3,)]),
    "broadcast_to": (lambda a: tf.broadcast_to(a, [4, 3]), [(1, 3)]),
    "squared difference": (lambda a, b: tf.math.squared_difference(a, b), [(2, 1), (3,)]),
    "pad": (lambda a: tf.pad(a, [[1, 0], [0, 2]]), [(3, 4)]),
    "top_k, sort": (lambda a: tf.math.top_k(a, 2).values + tf.sort(a, axis=1)[:, :2], [(3, 4)]),
    "sparse ce 3-d": (lambda a: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.ones([2, 3], tf.int32), logits=a), [(2, 3, 4)]),
    "moments, l2_normalize": (lambda a: tf.nn.moments(a, [0])[1] + tf.math.l2_normalize(a, 1),
                              [(3, 4)]),
    "clip_by_norm, cumsum": (lambda a: tf.clip_by_norm(a, 1.0) + tf.cumsum(a, axis=0), [(3, 4)]),
    "einsum": (lambda a, b: tf.einsum("ij,jk->ik", a, b), [(3, 4), (4, 2)]),
    "split in sizes, reverse": (lambda a: tf.split(a, [1, 3], axis=1)[1] * tf.reverse(a, [0])[:, 1:],
                                [(3, 4)]),
}


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradients_with_every_dimension_unknown_match_eager(name):
    fn, shapes = GRADIENT_CASES[name]
    rng = np.random.RandomState(0)
    arrays = [rng.randn(*s).astype(np.float32) for s in shapes]
    weights = np.asarray(rng.uniform(0.5, 1.5, np.shape(fn(*arrays))), np.float32)

    def value_and_grads(*xs):
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = tf.reduce_sum(fn(*xs) * weights)
        return y, tape.gradient(y, list(xs))

    traced = tf.function(value_and_grads, input_signature=_unknown(*arrays))
    y, grads = traced(*arrays)
    y_eager, grads_eager = value_and_grads(*[tf.constant(a) for a in arrays])
    np.testing.assert_allclose(float(y), float(y_eager), rtol=1e-5)
    for g, e, a in zip(grads, grads_eager, arrays):
        assert g.shape == a.shape
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-5)


def test_unknown_dims_that_turn_out_to_be_broadcast_ones_are_summed_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None, None])])
    def grads(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = tf.reduce_sum(a * b)
        return tape.gradient(y, [a, b])

    da, db = grads(tf.ones([3, 1]), tf.fill([3, 4], 2.0))   # a's size-1 axis was broadcast
    assert da.numpy().tolist() == [[8.0]] * 3 and db.numpy().tolist() == [[1.0] * 4] * 3
    da, db = grads(tf.ones([1, 4]), tf.fill([3, 1], 2.0))   # both broadcast
    assert da.numpy().tolist() == [[6.0] * 4] and db.numpy().tolist() == [[4.0]] * 3
    assert grads.experimental_get_tracing_count() == 1


def test_second_order_gradient_with_unknown_dims():
    @tf.function(input_signature=[tf.TensorSpec([None])])
    def hessian_diag(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(x ** 3 + tf.reduce_mean(x) * x)
            g = inner.gradient(y, x)
        return outer.gradient(g, x)

    x = np.array([1.0, 2.0, 3.0], np.float32)
    # d/dx_i of (3 x_i^2 + mean(x) + sum(x)/n) summed over outputs: 6 x_i + 2/n + ... (eager)
    with tf.GradientTape() as outer:
        t = tf.constant(x)
        outer.watch(t)
        with tf.GradientTape() as inner:
            inner.watch(t)
            y = tf.reduce_sum(t ** 3 + tf.reduce_mean(t) * t)
        g = inner.gradient(y, t)
    np.testing.assert_allclose(hessian_diag(x).numpy(), outer.gradient(g, t).numpy(), rtol=1e-6)


# --- AutoGraph loops over tf.range(n) and the Effective TF2 dynamic RNN -----------------------------
def test_for_over_a_symbolic_range_is_a_while_loop_over_the_index():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def total(n):
        s = tf.constant(0)
        for i in tf.range(1, n, 2):
            s += i
        return s

    assert int(total(tf.constant(10))) == 1 + 3 + 5 + 7 + 9
    assert int(total(tf.constant(0))) == 0
    graph = total.get_concrete_function().graph
    loop = [n for n in graph.nodes if n.type.endswith("While")][0]
    assert "GatherV2" not in [n.type for n in loop.attrs["body"].nodes]  # i is the loop var

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
    def down(n, step):
        out = tf.constant(0)
        for i in tf.range(n, 0, step):   # the direction is known only at run time
            out = out * 10 + i
        return out

    assert int(down(tf.constant(5), tf.constant(-2))) == 531


def _rnn_parts(units=4, seed=0):
    rng = np.random.RandomState(seed)
    wx = tf.Variable(rng.randn(3, units).astype(np.float32) * 0.5)
    wh = tf.Variable(rng.randn(units, units).astype(np.float32) * 0.5)
    b = tf.Variable(np.zeros(units, np.float32))

    def cell(x, h):
        h = tf.tanh(tf.matmul(x, wx) + tf.matmul(h, wh) + b)
        return h, h

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.float32)])
    def dynamic_rnn(input_data):  # the official "Effective TF2" example
        input_data = tf.transpose(input_data, [1, 0, 2])
        timesteps = tf.shape(input_data)[0]
        batch_size = tf.shape(input_data)[1]
        outputs = tf.TensorArray(tf.float32, timesteps)
        state = tf.zeros([batch_size, units])
        for i in tf.range(timesteps):
            output, state = cell(input_data[i], state)
            outputs = outputs.write(i, output)
        return tf.transpose(outputs.stack(), [1, 0, 2]), state

    return dynamic_rnn, [wx, wh, b], cell


def _eager_rnn(cell, x, units=4):
    state = tf.zeros([x.shape[0], units])
    outputs = []
    for t in range(x.shape[1]):
        output, state = cell(x[:, t], state)
        outputs.append(output)
    return tf.stack(outputs, axis=1), state


def test_effective_tf2_dynamic_rnn_traces_once_and_matches_eager():
    dynamic_rnn, _, cell = _rnn_parts()
    rng = np.random.RandomState(1)
    for shape in [(2, 5, 3), (3, 2, 3), (1, 1, 3)]:
        x = tf.constant(rng.randn(*shape).astype(np.float32))
        outputs, state = dynamic_rnn(x)
        eager_outputs, eager_state = _eager_rnn(cell, x)
        np.testing.assert_allclose(outputs.numpy(), eager_outputs.numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(state.numpy(), eager_state.numpy(), rtol=1e-5, atol=1e-6)
    assert dynamic_rnn.experimental_get_tracing_count() == 1
    graph = dynamic_rnn.get_concrete_function().graph
    assert graph.outputs[0].shape.as_list() == [None, None, 4]


def test_effective_tf2_dynamic_rnn_trains():
    dynamic_rnn, variables, cell = _rnn_parts()
    rng = np.random.RandomState(2)
    x = tf.constant(rng.randn(2, 5, 3).astype(np.float32))
    y = tf.constant(rng.randn(2, 5, 4).astype(np.float32) * 0.3)

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3]), tf.TensorSpec([None, None, 4])])
    def train_step(x, y):
        with tf.GradientTape() as tape:
            outputs, _ = dynamic_rnn(x)
            loss = tf.reduce_mean(tf.square(outputs - y))
        grads = tape.gradient(loss, variables)
        for v, g in zip(variables, grads):
            v.assign_sub(0.2 * g)
        return loss, grads

    with tf.GradientTape() as tape:  # the first step's gradient, computed eagerly
        eager_loss = tf.reduce_mean(tf.square(_eager_rnn(cell, x)[0] - y))
    eager_grads = tape.gradient(eager_loss, variables)
    loss, grads = train_step(x, y)
    np.testing.assert_allclose(float(loss), float(eager_loss), rtol=1e-5)
    for g, e in zip(grads, eager_grads):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-4, atol=1e-6)
    losses = [float(train_step(x, y)[0]) for _ in range(20)]
    assert losses[-1] < 0.8 * float(loss) and losses == sorted(losses, reverse=True)
    train_step(x[:1, :3], y[:1, :3])  # another batch size and length: no new trace
    assert train_step.experimental_get_tracing_count() == 1


def test_graph_optimizations_keep_run_time_shapes_correct():
    @tf.function(input_signature=[tf.TensorSpec([None, 4])])
    def f(x):
        twice = tf.reshape(tf.reshape(x, [-1, 2, 2]), tf.stack([tf.shape(x)[0], 4]))
        return twice + tf.zeros(tf.shape(x)) * 1.0, tf.shape(x)[0] + tf.shape(x)[0]

    x = tf.reshape(tf.range(8.0), [2, 4])
    out, n = f(x)
    np.testing.assert_array_equal(out.numpy(), x.numpy())
    assert int(n) == 4
    optimized, report = tf.grappler.optimize(f.get_concrete_function().graph)
    assert [node.type for node in optimized.nodes].count("Shape") == 1  # merged (CSE)
