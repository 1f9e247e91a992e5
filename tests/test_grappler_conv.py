"""Convolution remapping (grappler/conv_remapper.py) and the BroadcastTo rule.

Every rewrite here must give exactly the numbers of the unoptimized graph: the
fused and shared-patches ops run the same NumPy calls on the same arrays.
"""
import numpy as np
import pytest

import minitf as tf
from minitf.framework.op import apply
from minitf.grappler.arithmetic import simplify_arithmetic
from minitf.grappler.conv_remapper import remap_convolutions
from minitf.ops.nn_ops import ReluGrad


pytestmark = pytest.mark.usefixtures("default_grappler_options")


def _cnn(image_is_argument, activation=tf.nn.relu, padding="SAME", strides=1, dilations=1,
         batch=None):
    """A two-conv training step (SGD) as a lesson would write it, with fresh variables."""
    rng = np.random.default_rng(0)
    shapes = [(3, 3, 2, 4), (4,), (3, 3, 4, 3), (3,), (3, 5), (5,)]
    params = [tf.Variable((rng.standard_normal(s) * 0.3).astype(np.float32)) for s in shapes]
    images = tf.constant(rng.standard_normal((6, 9, 9, 2)).astype(np.float32))
    onehot = tf.one_hot(rng.integers(0, 5, 6), 5)

    def step(x):
        k1, c1, k2, c2, w, b = params
        with tf.GradientTape() as tape:
            h = activation(tf.nn.conv2d(x, k1, strides, padding, dilations=dilations) + c1)
            h = activation(tf.nn.conv2d(h, k2, 1, "SAME") + c2)
            logits = tf.matmul(tf.reduce_mean(h, axis=[1, 2]), w) + b
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(onehot, logits))
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(0.1 * g)
        return loss

    if image_is_argument:
        fn = tf.function(step, input_signature=[tf.TensorSpec([batch, 9, 9, 2])])
        return (lambda: fn(images)), fn, params
    fn = tf.function(lambda: step(images))
    return fn, fn, params


def _run(optimized, steps=3, **kwargs):
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": not optimized})
    call, fn, params = _cnn(**kwargs)
    losses = [call().numpy() for _ in range(steps)]
    (concrete,) = fn._cache.values()
    return losses, [p.numpy() for p in params], concrete._plan.graph


def _same_numbers(**kwargs):
    plain_losses, plain_params, _ = _run(False, **kwargs)
    losses, params, graph = _run(True, **kwargs)
    np.testing.assert_array_equal(losses, plain_losses)
    for a, b in zip(params, plain_params):
        np.testing.assert_array_equal(a, b)
    return [n.op.name for n in graph.nodes]


@pytest.mark.parametrize("image_is_argument", [False, True])
def test_training_step_shares_patches_and_gives_identical_numbers(image_is_argument):
    names = _same_numbers(image_is_argument=image_is_argument)
    assert not {"Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput"} & set(names)
    # Two forward convolutions and one input gradient (the image needs none).
    assert names.count("_Conv2DFromPatches") == 3
    assert names.count("_Conv2DBackpropFilterFromPatches") == 2
    # A constant image's window matrix is folded ahead of time; an argument's is built
    # once per step for both of its readers.
    assert names.count("_ConvPatches") == (3 if image_is_argument else 2)


@pytest.mark.parametrize("kwargs", [
    {"padding": "VALID"}, {"strides": 2}, {"dilations": 2}, {"activation": tf.nn.elu},
    {"activation": tf.nn.leaky_relu}, {"activation": tf.identity},
    {"image_is_argument": True, "batch": 6}], ids=lambda kw: ",".join(
        f"{k}={getattr(v, '__name__', v)}" for k, v in kw.items()))
def test_other_windows_and_activations(kwargs):
    kwargs.setdefault("image_is_argument", False)
    _same_numbers(**kwargs)


def test_unknown_batch_size_still_fuses():
    # Gradients with an unknown batch read the conv's shape (Shape nodes): allowed.
    names = _same_numbers(image_is_argument=True, batch=None)
    assert "Relu" not in names and names.count("_Conv2DFromPatches") == 3


def test_patch_arrays_are_refilled_between_runs_and_never_leak_into_results(monkeypatch):
    from minitf.framework import executor

    monkeypatch.setattr(executor, "SMALL", 0)  # (these test images are tiny)
    tf.config.optimizer.set_experimental_options({})
    call, fn, params = _cnn(image_is_argument=True)
    call()
    (concrete,) = fn._cache.values()
    plan = concrete._plan
    patches = {s[3] for s in plan.steps if s[5].op.name == "_ConvPatches"}
    assert len(patches) == 3 and patches <= set(plan.spares)  # given back after the last reader
    kept = {i: plan.spares[i].__array_interface__["data"][0] for i in patches}
    first = [p.numpy().copy() for p in params]
    call()
    assert {i: plan.spares[i].__array_interface__["data"][0] for i in patches} == kept
    assert any(not np.array_equal(a, p.numpy()) for a, p in zip(first, params))


def test_inference_conv_bias_relu_becomes_fused_conv2d():
    k = tf.Variable(np.random.default_rng(1).standard_normal((3, 3, 2, 4)).astype(np.float32))
    c = tf.Variable(np.linspace(-1, 1, 4).astype(np.float32))

    @tf.function
    def f(x):
        return tf.nn.relu6(tf.nn.bias_add(tf.nn.conv2d(x, k, 1, "SAME"), c))

    x = tf.constant(np.random.default_rng(2).standard_normal((2, 5, 5, 2)).astype(np.float32))
    graph = f.get_concrete_function(x).graph
    fused, report = remap_convolutions(graph)
    assert [n.op.name for n in fused.nodes if n.op.name.startswith("_")] == ["_FusedConv2D"]
    assert report == [("fused Conv2D(x, ReadVariableOp) -> BiasAdd(ReadVariableOp_1) -> Relu6 "
                       "into _FusedConv2D")]
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    plain = tf.function(f.python_function)(x).numpy()
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": False})
    np.testing.assert_array_equal(f(x).numpy(), plain)


def test_what_is_left_alone():
    k = tf.Variable(tf.ones([3, 3, 1, 4]))  # grouped: 2 input channels, filter depth 1

    @tf.function
    def grouped(x):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.nn.conv2d(x, k, 1, "SAME") + 1.0)  # scalar "bias": no fusion
        return tape.gradient(y, k)

    graph = grouped.get_concrete_function(tf.TensorSpec([2, 4, 4, 2])).graph
    assert remap_convolutions(graph)[1] == []
    tf.config.optimizer.set_experimental_options({"remapping": False})
    call, fn, _ = _cnn(image_is_argument=False)
    call()
    names = [n.op.name for n in fn._cache[next(iter(fn._cache))]._plan.graph.nodes]
    assert "Conv2D" in names and not any(n.startswith("_Conv") for n in names)


def test_errors_still_name_the_traced_line():
    @tf.function(input_signature=[tf.TensorSpec([None, 4, 4, 2])])
    def f(x):
        k = tf.ones([3, 3, 2, 2])
        return tf.nn.relu(tf.nn.conv2d(x, k, 1, "SAME") + tf.ones([2]))

    np.testing.assert_array_equal(f(tf.zeros([0, 4, 4, 2])).numpy(), np.zeros([0, 4, 4, 2]))
    assert "_FusedConv2D" in [n.op.name for n in f._cache[next(iter(f._cache))]._plan.graph.nodes]


def test_broadcast_to_is_skipped_only_when_the_other_operand_has_the_full_shape():
    @tf.function
    def f(a, y):
        return tf.nn.relu(tf.broadcast_to(a, [2, 3]) * y), tf.broadcast_to(a, [2, 3]) + 1.0

    spec = tf.TensorSpec
    graph = f.get_concrete_function(spec([1, 3]), spec([2, 3])).graph
    _, report = simplify_arithmetic(graph)
    assert report == ["simplified Mul(BroadcastTo, y) -> Mul(a, y)"]
    a, y = tf.constant([[1.0, -2.0, 3.0]]), tf.constant([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
    got = f(a, y)
    np.testing.assert_array_equal(got[0].numpy(), np.maximum(a.numpy() * y.numpy(), 0))
    np.testing.assert_array_equal(got[1].numpy(), np.broadcast_to(a.numpy(), [2, 3]) + 1)


@pytest.mark.parametrize("padding, dilations", [
    ("SAME", 1), ("VALID", 1), ("SAME", 2), ([[0, 0], [2, 0], [1, 1], [0, 0]], 1),
    ([[0, 0], [3, 3], [0, 0], [0, 0]], 1)], ids=str)
def test_input_gradient_from_a_window_matrix_of_dy(padding, dilations):
    # The last case pads more than the window spans: the kernel crops dy, so it is kept.
    k = tf.constant(np.random.default_rng(3).standard_normal((3, 3, 4, 2)).astype(np.float32))
    x = tf.constant(np.random.default_rng(4).standard_normal((2, 7, 6, 4)).astype(np.float32))

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.conv2d(x, k, 1, padding, dilations=dilations)
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, x)

    results = []
    for optimized in (False, True):
        tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": not optimized})
        fn = tf.function(grad)
        results.append(fn(x).numpy())
    np.testing.assert_array_equal(results[0], results[1])
    np.testing.assert_allclose(results[1], grad(x).numpy(), rtol=1e-5, atol=1e-5)
    names = [n.op.name for n in fn._cache[next(iter(fn._cache))]._plan.graph.nodes]
    cropped = padding == [[0, 0], [3, 3], [0, 0], [0, 0]]
    assert ("Conv2DBackpropInput" in names) == cropped


def test_relu_grad_of_a_broadcast_gradient_broadcasts_itself():
    @tf.function
    def f(a, y):  # what the gradient of relu(...) before a reduce_mean looks like
        return apply(ReluGrad, [tf.broadcast_to(a, [2, 3]), y])

    spec = tf.TensorSpec
    graph = f.get_concrete_function(spec([1, 3]), spec([2, 3])).graph
    simple, report = simplify_arithmetic(graph)
    assert report == ["simplified ReluGrad(BroadcastTo, y) -> Mul(a, Cast)"]
    assert "BroadcastTo" not in [n.op.name for n in tf.grappler.prune(simple)[0].nodes]
    # Same numbers as the kernel, signed zeros and nan included.
    a = tf.constant([[-1.5, np.nan, 2.0]])
    y = tf.constant([[1.0, -1.0, 0.0], [-2.0, 3.0, 4.0]])
    want = np.broadcast_to(a.numpy(), [2, 3]) * (y.numpy() > 0)
    got = f(a, y).numpy()
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
