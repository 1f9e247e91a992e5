"""tf.TensorArray: eager and traced, as a while_loop variable, gradients, a dynamic RNN, errors."""
import numpy as np
import pytest
from gradcheck import check_grads
from test_control_flow_ops import check_grads_in_graph, graph, traced

import minitf as tf
from minitf.framework import errors
from minitf.ops import tensor_array, tensor_array_ops

MODES = ["eager", "graph"]


def run(mode, f, *args):
    return traced(f, *args) if mode == "graph" else f(*args)


# --- values ------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_write_read_stack_size(mode):
    def f():
        ta = tf.TensorArray(tf.float32, size=3)
        ta = ta.write(0, [1.0, 2.0]).write(2, [5.0, 6.0])
        return ta.stack(), ta.read(2), ta.read(1), ta.size()

    stacked, last, unwritten, size = run(mode, f)
    assert stacked.numpy().tolist() == [[1, 2], [0, 0], [5, 6]]
    assert last.numpy().tolist() == [5, 6] and unwritten.numpy().tolist() == [0, 0]
    assert size.dtype == tf.int32 and int(size) == 3


@pytest.mark.parametrize("mode", MODES)
def test_dynamic_size_grows(mode):
    def f():
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        ta = ta.write(0, 1).write(3, 2)
        return ta.stack(), ta.size()

    stacked, size = run(mode, f)
    assert stacked.numpy().tolist() == [1, 0, 0, 2] and int(size) == 4


@pytest.mark.parametrize("mode", MODES)
def test_unstack_gather_scatter_concat(mode):
    def f():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        scattered = tf.TensorArray(tf.float32, size=3).scatter([2, 0], x[:2])
        return ta.read(1), ta.gather([2, 0]), scattered.stack(), ta.concat()

    read, gathered, scattered, joined = run(mode, f)
    assert read.numpy().tolist() == [3, 4]
    assert gathered.numpy().tolist() == [[5, 6], [1, 2]]
    assert scattered.numpy().tolist() == [[3, 4], [0, 0], [1, 2]]
    assert joined.numpy().tolist() == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("mode", MODES)
def test_split_into_equal_pieces(mode):
    def f():
        return tf.TensorArray(tf.float32, size=2).split(tf.range(4.0), [2, 2]).read(1)

    assert run(mode, f).numpy().tolist() == [2.0, 3.0]
    with pytest.raises(errors.UnimplementedError, match="lengths must be known and all equal"):
        tf.TensorArray(tf.float32, size=2).split(tf.range(3.0), [2, 1])


@pytest.mark.parametrize("mode", MODES)
def test_element_shape_empty_arrays_and_python_values(mode):
    def f():
        empty = tf.TensorArray(tf.float32, size=0)
        shaped = tf.TensorArray(tf.float32, size=2, element_shape=[2])
        return empty.stack(), shaped.stack(), tf.TensorArray(tf.float32, size=2).write(0, 1)

    empty, shaped = run(mode, lambda: f()[:2])
    assert empty.shape.as_list() == [0] and shaped.numpy().tolist() == [[0, 0], [0, 0]]
    written = f()[2]
    assert written.element_shape == tf.TensorShape([]) and written.dtype == tf.float32
    ta = tf.TensorArray(tf.float32, size=2)
    assert ta.element_shape.rank is None and ta.write(0, [1.0]).element_shape.as_list() == [1]


def test_eager_writes_update_in_place_traced_writes_return_a_new_array():
    ta = tf.TensorArray(tf.float32, size=2)
    ta.write(0, 7.0)  # TF eager mutates; a graph would lose this write
    assert ta.stack().numpy().tolist() == [7.0, 0.0]

    @tf.function(autograph=False)
    def f():
        ta = tf.TensorArray(tf.float32, size=2)
        ta.write(0, 7.0)
        return ta.write(1, 1.0).stack()

    assert f().numpy().tolist() == [0.0, 1.0]


def test_clear_after_read_is_enforced_eagerly():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0)
    ta.read(0)
    with pytest.raises(errors.InvalidArgumentError, match="Could not read index 0 twice"):
        ta.read(0)
    keep = tf.TensorArray(tf.float32, size=2, clear_after_read=False).write(0, 1.0)
    assert keep.read(0).numpy() == keep.read(0).numpy() == 1.0


# --- as a while_loop variable ---------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dynamic", [False, True])
def test_a_tensor_array_as_a_loop_variable(mode, dynamic):
    def squares(n):
        def body(i, ta):
            return i + 1, ta.write(i, tf.stack([i, i * i]))
        _, ta = tf.while_loop(lambda i, ta: i < n, body,
                              (0, tf.TensorArray(tf.int32, size=0 if dynamic else n,
                                                 dynamic_size=dynamic)))
        return ta.stack()

    assert run(mode, squares, tf.constant(4)).numpy()[:, 1].tolist() == [0, 1, 4, 9]


def test_a_loop_learns_the_element_shape_and_keeps_a_fixed_size():
    def f(x):
        _, ta = tf.while_loop(lambda i, ta: i < 5, lambda i, ta: (i + 1, ta.write(i, x * 2.0)),
                              (0, tf.TensorArray(tf.float32, size=5)))
        return ta.stack()

    assert graph(f, tf.TensorSpec([2, 3], tf.float32)).outputs[0].shape.as_list() == [5, 2, 3]


def test_a_tensor_array_from_a_cond():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=2)
        ta = tf.cond(x > 0, lambda: ta.write(0, x), lambda: ta.write(1, -x))
        return ta.stack()

    assert traced(f, tf.constant(3.0)).numpy().tolist() == [3.0, 0.0]
    assert traced(f, tf.constant(-3.0)).numpy().tolist() == [0.0, 3.0]


# --- gradients -----------------------------------------------------------------------------------
def reverse_rows(x):
    """Unstack, read each row, write it reversed and scaled into another array, stack."""
    source = tf.TensorArray(tf.float64, size=3).unstack(x)
    target = tf.TensorArray(tf.float64, size=3)
    for i in range(3):
        target = target.write(2 - i, source.read(i) * float(i + 1))
    return target.stack()


def test_reading_and_stacking_what_was_written_is_differentiable():
    x = np.arange(6.0).reshape(3, 2) / 5
    check_grads(reverse_rows, x)
    check_grads(tf.function(reverse_rows, autograph=False), x)
    check_grads_in_graph(reverse_rows, x)


def test_gather_scatter_concat_and_overwrites_are_differentiable():
    def f(x, y):
        ta = tf.TensorArray(tf.float64, size=4).scatter([3, 1], x)
        ta = ta.write(1, y * y)  # overwrites x[1]: that row gets no gradient
        return tf.concat([ta.gather([1, 3]), tf.reshape(ta.concat(), [4, 2])], 0)

    x, y = np.array([[0.3, -0.2], [1.1, 0.4]]), np.array([0.7, -0.9])
    check_grads(f, x, y)
    check_grads(tf.function(f, autograph=False), x, y)
    check_grads_in_graph(f, x, y)


def test_dynamic_size_gradient_in_a_loop():
    def f(x):
        n = 3

        def body(i, v, ta):
            v = tf.sin(v) + x
            return i + 1, v, ta.write(i, v * v)
        _, _, ta = tf.while_loop(lambda i, v, ta: i < n, body,
                                 (0, x, tf.TensorArray(tf.float64, size=0, dynamic_size=True)))
        return ta.stack()

    # A dynamic size is known only at run time, so stack() has shape [None, 2]; minitf's
    # gradients of Mul/reduce_sum do not yet handle unknown dimensions inside a traced
    # function, so the loop's gradient is checked through a called function.
    check_grads(tf.function(f, autograph=False), np.array([0.2, -0.5]))


def test_gradient_ops_are_each_others_transposes():
    """<crop(a), b> == <a, uncrop(b)> and <gather(a), b> == <a, scatter_add(b)>."""
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(4, 2)), rng.normal(size=(4, 2))
    idx = tf.constant([1, 3])
    apply = tensor_array_ops.apply
    cropped = apply(tensor_array_ops.TensorArrayCrop, [tf.constant(a), tf.constant(b), idx])
    uncropped = apply(tensor_array_ops.TensorArrayUncrop, [tf.constant(b), tf.constant(a), idx])
    assert np.isclose(np.sum(cropped.numpy() * b), np.sum(a * uncropped.numpy()))
    g = rng.normal(size=(2, 2))
    gathered = apply(tensor_array_ops.TensorArrayGather, [tf.constant(a), tf.constant(4), idx],
                     {"element_shape": None})
    added = apply(tensor_array_ops.TensorArrayScatterAdd,
                  [tf.constant(g), tf.constant(a), tf.constant(4), idx], {"element_shape": None})
    assert np.isclose(np.sum(gathered.numpy() * g), np.sum(a * added.numpy()))


def test_shape_and_dtype_rules_predict_eager_results(monkeypatch):
    """Graph tracing trusts the ops' rules; eagerly they must match exactly."""
    calls, real = [], tensor_array_ops.apply

    def recording(op, inputs, attrs=None):
        out = real(op, inputs, attrs)
        calls.append((op, inputs, attrs or {}, out if isinstance(out, tuple) else (out,)))
        return out

    monkeypatch.setattr(tensor_array_ops, "apply", recording)
    monkeypatch.setattr(tensor_array, "apply", recording)
    x = tf.constant(np.arange(6.0).reshape(3, 2))
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float64, size=0, dynamic_size=True).unstack(x)
        ta = ta.write(4, x[0]).scatter([1, 0], x[1:])
        parts = [ta.read(2), ta.gather([0, 4]), ta.stack(), ta.concat(),
                 tf.TensorArray(tf.float64, size=2, element_shape=[2]).stack()]
        total = tf.add_n([tf.reduce_sum(p) for p in parts])
    tape.gradient(total, x)
    assert {op.name for op, *_ in calls} >= {
        "TensorArrayScatterV3", "TensorArrayGatherV3", "TensorListStack", "TensorListConcat",
        "TensorListFromTensor", "TensorArrayGradCrop", "TensorArrayGradScatterAdd"}
    for op, inputs, attrs, outputs in calls:
        dtypes = op.output_dtypes([t.dtype for t in inputs], attrs, len(outputs))
        assert dtypes == tuple(t.dtype for t in outputs), op.name
        shapes = op.shape(*[t.shape for t in inputs], **attrs)
        shapes = shapes if isinstance(shapes, tuple) else (shapes,)
        assert shapes == tuple(t.shape for t in outputs), op.name


# --- the dynamic RNN of the "Effective TF2" guide -------------------------------------------------
T, B, D, H = 4, 2, 3, 5


def make_rnn(dtype=np.float32, seed=0, read="gather"):
    """The dynamic RNN of the "Effective TF2" guide, with its loop written out.

    The guide writes `for i in tf.range(timesteps): output, state = self.cell(input_data[i],
    state); outputs = outputs.write(i, output)` and lets AutoGraph make the while_loop.
    """
    rng = np.random.default_rng(seed)
    params = [tf.Variable(rng.normal(size=s).astype(dtype) * 0.5, name=n)
              for n, s in [("W", (D, H)), ("U", (H, H)), ("b", (H,)), ("V", (H, 1))]]
    W, U, b, V = params

    def cell(x, state):
        state = tf.tanh(tf.matmul(x, W) + tf.matmul(state, U) + b)
        return state, state

    def dynamic_rnn(input_data):
        input_data = tf.transpose(input_data, [1, 0, 2])  # [batch, time, ...] -> [time, ...]
        timesteps = tf.shape(input_data)[0]
        outputs = tf.TensorArray(input_data.dtype, timesteps)
        inputs = tf.TensorArray(input_data.dtype, timesteps).unstack(input_data)
        state = tf.zeros([B, H], input_data.dtype)

        def body(i, state, outputs):
            x = tf.gather(input_data, i) if read == "gather" else inputs.read(i)
            output, state = cell(x, state)
            return i + 1, state, outputs.write(i, output)

        _, state, outputs = tf.while_loop(lambda i, *_: i < timesteps, body, (0, state, outputs))
        return tf.transpose(outputs.stack(), [1, 0, 2]), state

    def loss(x, y):
        outputs, _ = dynamic_rnn(x)
        prediction = tf.matmul(tf.reshape(outputs, [B * T, H]), V)
        return tf.reduce_mean((prediction - tf.reshape(y, [B * T, 1])) ** 2)

    return params, dynamic_rnn, loss


@pytest.mark.parametrize("read", ["gather", "tensor_array"])
def test_dynamic_rnn_trains_under_tf_function(read):
    params, _, loss = make_rnn(read=read)
    rng = np.random.default_rng(5)
    x = tf.constant(rng.normal(size=(B, T, D)).astype(np.float32))
    y = tf.constant(rng.normal(size=(B, T, 1)).astype(np.float32))

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            value = loss(x, y)
        for v, g in zip(params, tape.gradient(value, params)):
            v.assign_sub(0.2 * g)
        return value

    losses = [float(train_step(x, y)) for _ in range(6)]
    assert all(b < a for a, b in zip(losses, losses[1:])), losses
    assert train_step.experimental_get_tracing_count() == 1
    assert "While" in {n.type.replace("Stateless", "") for n in
                       train_step.get_concrete_function(x, y).graph.nodes}


def test_dynamic_rnn_gradients_match_eager_and_finite_differences():
    params, dynamic_rnn, loss = make_rnn(np.float64, seed=2)
    rng = np.random.default_rng(6)
    x, y = rng.normal(size=(B, T, D)), rng.normal(size=(B, T, 1))

    @tf.function
    def graph_grads(x, y):
        with tf.GradientTape() as tape:
            value = loss(x, y)
        return value, tape.gradient(value, params)

    with tf.GradientTape() as tape:
        eager_value = loss(tf.constant(x), tf.constant(y))
    eager = tape.gradient(eager_value, params)
    value, grads = graph_grads(tf.constant(x), tf.constant(y))
    np.testing.assert_allclose(value.numpy(), eager_value.numpy(), rtol=1e-12)
    for g, e in zip(grads, eager):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-10, atol=1e-12)
    W = params[0]
    for index in [(0, 0), (2, 4)]:  # finite differences on two weights
        base = W.numpy()
        shifted = []
        for delta in (1e-6, -1e-6):
            moved = base.copy()
            moved[index] += delta
            W.assign(moved)
            shifted.append(float(loss(tf.constant(x), tf.constant(y))))
        W.assign(base)
        assert np.isclose(grads[0].numpy()[index], (shifted[0] - shifted[1]) / 2e-6, rtol=1e-5)
    check_grads_in_graph(lambda x: dynamic_rnn(x)[0], x)


def test_written_values_get_gradients_of_their_own_shape_inside_a_traced_loop():
    # The loop's TensorArray buffer changes shape (no rows -> [3, 1, 2]), so inside the
    # gradient loop its gradient has an unknown shape; the gradient of each written value
    # must still have the value's shape, or the MatMul gradient before it cannot run.
    w = tf.Variable(np.array([[2.0, -1.0]]))
    x = np.array([[1.5]])

    def loss(x):
        ta = tf.TensorArray(tf.float64, size=3)
        for t in tf.range(3):
            ta = ta.write(t, tf.matmul(x, w) * tf.cast(t + 1, tf.float64))
        return tf.reduce_sum(tf.square(ta.stack()))

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            value = loss(x)
        return tape.gradient(value, w)

    got = grad(tf.constant(x))
    expected = 2 * x[0, 0] ** 2 * w.numpy() * (1 + 4 + 9)  # d/dw sum_t ((t+1) x w)^2
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    check_grads_in_graph(loss, x)


# --- TF's errors -------------------------------------------------------------------------------
def ta2():
    return tf.TensorArray(tf.float32, size=2)


ERRORS = [  # (f, eager error, eager message, traced error, traced message)
    (lambda: ta2().write(0, 1.0).read(5), errors.OutOfRangeError,
     "Tried to read from index 5 but array size is: 2", errors.InvalidArgumentError,
     "Trying to access element 5 in a list with 2 elements"),
    (lambda: ta2().read(-1), errors.OutOfRangeError,
     r"Reading from negative indices \(index -1\) is not allowed",
     errors.InvalidArgumentError, "Trying to access element -1 in a list with 2 elements"),
    (lambda: ta2().write(3, 1.0).stack(), errors.OutOfRangeError,
     "Tried to write to index 3 but array is not resizeable and size is: 2",
     errors.InvalidArgumentError, "Trying to modify element 3 in a list with 2 elements"),
    (lambda: ta2().write(0, tf.constant(1)), errors.InvalidArgumentError,
     "TensorArray dtype is float32 but Op is trying to write dtype int32",
     errors.InvalidArgumentError, "Invalid data types; op elements int32 but list elements float"),
    (lambda: ta2().write(0, [1.0]).write(1, [1.0, 2.0]), ValueError,
     r"Incompatible shape for value \(\(2,\)\), expected \(\(1,\)\)", ValueError,
     r"Inconsistent shapes: saw \(2,\) but expected \(1,\)"),
    (lambda: tf.TensorArray(tf.float32, size=1).unstack([[1.0], [2.0]]).stack(), ValueError,
     "Cannot unstack 2 tensors into a TensorArray of static size 1",
     errors.InvalidArgumentError, "Cannot unstack 2 tensors into a TensorArray of static size 1"),
    (lambda: tf.TensorArray(tf.float32), ValueError,
     "Size must be declared for TensorArrays when eager execution is enabled", ValueError,
     "Argument `size` must be provided if argument `flow` is not provided"),
    (lambda: tf.TensorArray(tf.float32, size=2).stack(), errors.InvalidArgumentError,
     "non-fully-defined element_shape", errors.InvalidArgumentError,
     "non-fully-defined element_shape"),
    (lambda: ta2().write(0, 1.0).concat(), errors.InvalidArgumentError,
     "Concat saw a scalar shape at index 0 but requires at least vectors",
     errors.InvalidArgumentError, "Concat saw a scalar shape"),
    (lambda: ta2().gather([0, 4]), errors.InvalidArgumentError,
     "Trying to access element 4 in a list with 2 elements", errors.InvalidArgumentError,
     "Trying to access element 4"),
    (lambda: ta2().write(0.0, 1.0), TypeError, "Cannot convert 0.0 to EagerTensor of dtype int32",
     TypeError, "Cannot convert 0.0"),
]


@pytest.mark.parametrize("f, eager_error, eager_message, graph_error, graph_message", ERRORS)
def test_errors_in_both_modes(f, eager_error, eager_message, graph_error, graph_message):
    with pytest.raises(eager_error, match=eager_message):
        f()
    with pytest.raises(graph_error, match=graph_message):
        traced(f)


def test_a_loop_cannot_turn_a_tensor_array_into_a_tensor():
    with pytest.raises(ValueError):
        traced(lambda: tf.while_loop(lambda i, ta: i < 2, lambda i, ta: (i + 1, ta.stack()),
                                     (0, tf.TensorArray(tf.float32, size=2, element_shape=[]))))
