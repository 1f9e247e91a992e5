"""tf.gradients, tf.hessians, tf.AggregationMethod, tf.grad_pass_through, tf.recompute_grad,
tf.RegisterGradient, tf.no_gradient, tf.vectorized_map (and tf.custom_gradient inside
tf.function, which the wrappers use); CASES run against real TF in test_top_level_real_tf.py.
"""
import numpy as np
import pytest

import minitf as tf
from minitf.ops import truncate_cast_ops
from minitf.ops.gradients_ops import _REGISTERED
from tests.gradcheck import check_grads


def test_gradients_only_inside_tf_function():
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        tf.gradients(tf.constant(1.0), tf.constant(2.0))
    with pytest.raises(RuntimeError, match="Use tf.GradientTape instead"):
        tf.hessians(tf.constant(1.0), tf.constant(2.0))
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(x):
        y = x * x * v
        z = tf.reduce_sum(y)
        return (tf.gradients(z, [x, v]), tf.gradients(y, x, grad_ys=tf.constant([1.0, 10.0])),
                tf.gradients(z, x, stop_gradients=[y]),
                tf.gradients(x * 2.0, tf.constant(1.0), unconnected_gradients="zero"),
                tf.gradients([z, z], x), tf.gradients(tf.cast(x, tf.int32), x))

    (gx, gv), (gy,), (stopped,), (zero,), (twice,), (integer,) = f(tf.constant([3.0, 4.0]))
    assert gx.numpy().tolist() == [6.0, 16.0] and gv.numpy().tolist() == [9.0, 16.0]
    assert gy.numpy().tolist() == [6.0, 160.0] and twice.numpy().tolist() == [12.0, 32.0]
    assert stopped is None and float(zero) == 0.0 and integer is None
    with pytest.raises(ValueError, match="Invalid `aggregation_method` specified 7"):
        tf.function(lambda x: tf.gradients(x, x, aggregation_method=7))(tf.constant(1.0))


def test_gradients_match_the_tape_and_hessians_finite_differences():
    x0 = tf.constant([0.5, -1.0, 2.0])

    def loss(x):
        return tf.reduce_sum(tf.sin(x) * x ** 2)

    with tf.GradientTape() as tape:
        tape.watch(x0)
        y = loss(x0)
    by_tape = tape.gradient(y, x0).numpy()
    by_graph = tf.function(lambda x: tf.gradients(loss(x), x)[0])(x0).numpy()
    assert np.allclose(by_tape, by_graph)
    hessian = tf.function(lambda x: tf.hessians(loss(x), x)[0])
    h = hessian(tf.constant([0.5, -1.0, 2.0], tf.float64)).numpy()
    eps = 1e-6
    for j in range(3):
        step = np.eye(3)[j] * eps
        plus = tf.function(lambda x: tf.gradients(loss(x), x)[0])(
            tf.constant([0.5, -1.0, 2.0], tf.float64) + step).numpy()
        minus = tf.function(lambda x: tf.gradients(loss(x), x)[0])(
            tf.constant([0.5, -1.0, 2.0], tf.float64) - step).numpy()
        assert np.allclose(h[j], (plus - minus) / (2 * eps), atol=1e-5)
    assert tf.AggregationMethod.DEFAULT == tf.AggregationMethod.ADD_N == 0
    assert (tf.AggregationMethod.EXPERIMENTAL_TREE,
            tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N) == (1, 2)
    method = tf.AggregationMethod.EXPERIMENTAL_TREE
    tree = tf.function(lambda x: tf.gradients(x * x + x, x, aggregation_method=method))
    assert float(tree(tf.constant(2.0))[0]) == 5.0


def test_grad_pass_through_and_recompute_grad():
    x = tf.constant([1.3, 2.6])
    w = tf.Variable(2.0)
    rounded = tf.grad_pass_through(lambda t: tf.round(t * w))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = rounded(x)
    assert y.numpy().tolist() == [3.0, 5.0]
    gx, gw = tape.gradient(y, [x, w])
    assert gx.numpy().tolist() == [1.0, 1.0] and gw is None

    def block(t):
        return tf.sin(t) * w

    check_grads(tf.recompute_grad(lambda t: tf.sin(t) * t), [0.3, -1.2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(block)(x)
    gx, gw = tape.gradient(y, [x, w])
    assert np.allclose(gx.numpy(), np.cos([1.3, 2.6]) * 2.0)
    assert np.isclose(float(gw), np.sin([1.3, 2.6]).sum())

    @tf.function
    def traced(t):
        with tf.GradientTape() as tape:
            tape.watch(t)
            out = tf.recompute_grad(block)(t) + rounded(t)
        return tape.gradient(out, [t, w])

    gx, gw = traced(x)
    assert np.allclose(gx.numpy(), np.cos([1.3, 2.6]) * 2.0 + 1.0)
    assert np.isclose(float(gw), np.sin([1.3, 2.6]).sum())


def test_register_gradient_and_no_gradient():
    with pytest.raises(KeyError, match="Registering two gradient with name 'Abs'"):
        tf.RegisterGradient("Abs")(lambda op, g: g)
    with pytest.raises(KeyError, match="Registering two gradient with name 'Abs'"):
        tf.no_gradient("Abs")
    with pytest.raises(TypeError, match="op_type must be a string"):
        tf.no_gradient(3)
    tf.no_gradient("TopLevelTestOnlyOp")
    with pytest.raises(KeyError, match="TopLevelTestOnlyOp"):
        tf.no_gradient("TopLevelTestOnlyOp")
    x = tf.constant([7.0, -7.5])
    try:
        @tf.RegisterGradient("TruncateMod")  # TF has none: one may be registered
        def _truncatemod_grad(op, grad):
            return grad, None

        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.truncatemod(x, 2.0) * 3.0
        assert tape.gradient(y, x).numpy().tolist() == [3.0, 3.0]
    finally:
        truncate_cast_ops.TruncateMod.grad = truncate_cast_ops.raise_no_gradient
        _REGISTERED.pop("TruncateMod", None)


def test_forward_accumulator_matches_jacobian_products():
    x = tf.constant([0.5, -1.0, 2.0], tf.float64)
    tangent = tf.constant([1.0, 2.0, -1.0], tf.float64)
    with tf.autodiff.ForwardAccumulator(x, tangent) as acc:
        y = tf.sin(x) * tf.reduce_sum(x * x)
        unused = tf.constant(1.0)
    with tf.autodiff.GradientTape() as tape:
        tape.watch(x)
        y2 = tf.sin(x) * tf.reduce_sum(x * x)
    jacobian = tape.jacobian(y2, x).numpy()
    assert np.allclose(acc.jvp(y).numpy(), jacobian @ tangent.numpy())
    assert acc.jvp(unused) is None and float(acc.jvp(unused, unconnected_gradients="zero")) == 0
    assert acc.jvp(x) is tangent
    v = tf.Variable(3.0)
    with tf.autodiff.ForwardAccumulator([v], [2.0]) as acc:
        out = v * v * v
    assert float(acc.jvp(out)) == 54.0  # 3 v^2 * 2


def test_vectorized_map():
    batch = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    out = tf.vectorized_map(lambda e: tf.matmul(e[None], e[None], transpose_b=True), batch)
    assert out.shape == (2, 1, 1) and out.numpy().ravel().tolist() == [5.0, 25.0]
    pair = tf.vectorized_map(lambda e: {"sum": e[0] + e[1], "c": 3.0},
                             (batch, tf.constant([1.0])))
    assert pair["sum"].numpy().tolist() == [[2.0, 3.0], [4.0, 5.0]]
    assert pair["c"].numpy().tolist() == [3.0, 3.0]
    with pytest.raises(IndexError):
        tf.vectorized_map(lambda e: e, tf.constant(1.0))
    f = tf.function(lambda b: tf.vectorized_map(lambda r: tf.reduce_sum(r * r), b))
    assert f.get_concrete_function(tf.TensorSpec([None, 2])).structured_outputs.shape[0] is None
    assert f(tf.constant([[1.0, 2.0], [3.0, 4.0], [0.0, 1.0]])).numpy().tolist() == [5.0, 25.0,
                                                                                    1.0]
    check_grads(lambda b: tf.vectorized_map(lambda r: tf.reduce_prod(r), b),
                [[1.0, 2.0], [3.0, 4.0]])


CASES = [
    "traced_gradients(tf.constant([3., 4.]))",
    "forward(tf.constant([1., 2.]), tf.constant([1., 0.]))",
    "forward_variable()",
    "tf.gradients(tf.constant(1.), tf.constant(2.))",
    "tf.hessians(tf.constant(1.), tf.constant(2.))",
    "traced(lambda x: tf.gradients(x * 2., x, aggregation_method=7), tf.constant(1.))",
    "traced(lambda x: tf.gradients(tf.reduce_sum(x), 3.), tf.constant(1.))",
    "traced(lambda x: tf.hessians(x * x, [x, x * 2]), tf.constant([1., 2.]))",
    "traced(lambda x: tf.hessians(tf.reduce_sum(tf.sin(x) * x[::-1]), x), tf.constant([1., 2.]))",
    "[tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT]",
    "[tf.AggregationMethod.EXPERIMENTAL_TREE, tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]",
    "tf.no_gradient('Abs')", "tf.no_gradient(3)", "tf.RegisterGradient('Abs')(lambda op, g: g)",
    "tf.RegisterGradient(3)", "tf.no_gradient('MyOtherOpXYZ')",
    "grad(tf.grad_pass_through(tf.round), tf.constant([1.3, 2.6]))",
    "grad(lambda x: tf.grad_pass_through(tf.round)(x) * x, tf.constant([1.3, 2.6]))",
    "grad(tf.recompute_grad(lambda x: tf.sin(x) * w), tf.constant([1.3, 2.6]), with_w=True)",
    "grad(tf.grad_pass_through(lambda x: tf.round(x * w)), tf.constant([1.3, 2.6]), with_w=True)",
    "tf.vectorized_map(lambda e: e * 2., tf.constant([[1., 2.], [3., 4.]]))",
    "tf.vectorized_map(lambda e: (e[0] + e[1], tf.reduce_sum(e[0])), (m, tf.constant([1., 2.])))",
    "tf.vectorized_map(lambda e: tf.matmul(e[None], e[None], transpose_b=True), m)",
    "tf.vectorized_map(lambda e: e, (tf.constant([1., 2.]), tf.constant([1.])))",
    "tf.vectorized_map(lambda e: e, tf.constant(1.))",
    "tf.vectorized_map(lambda e: 3., tf.constant([1., 2.]))",
    "tf.vectorized_map(lambda e: [e, tf.cast(e, tf.int32)], tf.constant([1., 2.]))",
    "traced(lambda b: tf.vectorized_map(lambda r: tf.reduce_max(r), b), m * 2.)",
]
SETUP = """
m = tf.constant([[1., 2.], [3., 4.]])
w = tf.Variable(2.)
v = tf.Variable([1., 2.])
def traced(f, x):
    return tf.function(f, autograph=False)(x)
@tf.function(autograph=False)
def traced_gradients(x):
    y = x * x * v
    z = tf.reduce_sum(y)
    return (tf.gradients(z, [x, v]), tf.gradients(y, x, grad_ys=tf.constant([1., 10.])),
            tf.gradients(z, x, stop_gradients=[y]),
            tf.gradients(x * 2., tf.constant(1.), unconnected_gradients='zero'),
            tf.gradients([z, z], x), tf.hessians(tf.reduce_sum(x ** 3), x),
            tf.gradients(tf.cast(x, tf.int32), x))
def forward(x, t):
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.sin(x) * x
        z = tf.constant(3.)
    return [acc.jvp(y), acc.jvp(z), acc.jvp(z, unconnected_gradients='zero'),
            acc.jvp([y, y * 2]), acc.jvp(x)]
def forward_variable():
    with tf.autodiff.ForwardAccumulator([w, v], [1., tf.constant([0.5, 1.])]) as acc:
        y = w * tf.reduce_sum(v * v)
    return acc.jvp(y)
def grad(f, x, with_w=False):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, [x, w] if with_w else x)
"""
