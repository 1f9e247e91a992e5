"""tf.debugging.check_numerics and assert_all_finite: pass-through, TF's error text, a kept
(stateful) graph node, and an identity gradient that is itself checked."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf
from minitf.grappler import fold_constants, prune

IAE = tf.errors.InvalidArgumentError
NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_finite_values_pass_through_unchanged(dtype):
    x = tf.constant([[1.0, -2.5], [0.0, 3.0]], dtype)
    for check in (tf.debugging.check_numerics, tf.debugging.assert_all_finite):
        y = check(x, "m")
        assert y.dtype == dtype and y.shape == x.shape
        np.testing.assert_array_equal(y.numpy(), x.numpy())


@pytest.mark.parametrize("values, kind", [
    ([1.0, NAN], "NaN"), ([INF, 1.0], "Inf"), ([-INF], "Inf"), ([NAN, -INF], "Inf and NaN"),
])
def test_non_finite_values_raise_with_tf_text(values, kind):
    for check in (tf.debugging.check_numerics, tf.debugging.assert_all_finite):
        with pytest.raises(IAE) as info:
            check(tf.constant(values), "my tensor")
        assert str(info.value).startswith(
            f"my tensor : Tensor had {kind} values [Op:CheckNumerics]")


def test_only_float_tensors_are_accepted():
    with pytest.raises(IAE, match="Value for attr 'T' of int32 is not in the list of allowed"):
        tf.debugging.check_numerics(tf.constant([1, 2]), "ints")


def test_check_in_a_graph_fails_when_it_runs():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.debugging.check_numerics(tf.math.log(x), "log(x)") * 2.0

    np.testing.assert_allclose(f(tf.constant([1.0, np.e])).numpy(), [0.0, 2.0], rtol=1e-6)
    with pytest.raises(IAE, match=r"^log\(x\) : Tensor had Inf values .*\(traced at "):
        f(tf.constant([0.0]))


def test_unused_check_is_kept_because_it_is_stateful():
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def f(x):
        tf.debugging.check_numerics(x / 0.0, "x / 0")  # result unused
        return x

    graph = f.get_concrete_function().graph
    assert "CheckNumerics" in [n.op.name for n in prune(graph)[0].nodes]
    with pytest.raises(IAE, match="x / 0 : Tensor had "):
        f(tf.constant(1.0))


def test_check_of_a_constant_is_not_folded_away():
    @tf.function
    def f():
        return tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "c")

    folded, _ = fold_constants(f.get_concrete_function().graph)
    assert "CheckNumerics" in [n.op.name for n in folded.nodes]
    assert f().numpy().tolist() == [1.0, 2.0]


def test_gradient_is_the_identity():
    check_grads(lambda x: tf.debugging.check_numerics(x * x, "square"),
                np.array([[0.5, -1.5], [2.0, 3.0]]), order=2)
    check_grads(lambda x: tf.sin(tf.debugging.assert_all_finite(x, "x")), np.array([0.3, -2.0]))


def test_gradient_is_checked_too():
    x = tf.constant([0.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.sqrt(tf.debugging.check_numerics(x, "x")))  # d sqrt at 0 = inf
    with pytest.raises(IAE) as info:
        tape.gradient(y, x)
    assert str(info.value).startswith(
        "Not a number (NaN) or infinity (Inf) values detected in gradient. b'x' : Tensor had "
        "Inf values")


def test_gradient_through_a_traced_function():
    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(x):
        return tf.reduce_sum(tf.debugging.check_numerics(x, "x") * 3.0)

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).numpy().tolist() == [3.0, 3.0]
