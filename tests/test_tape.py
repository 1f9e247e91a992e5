"""GradientTape: recording, watching, persistence, higher order, jacobians, custom gradients."""
import gc
import sys
import weakref

import numpy as np
import pytest
from gradcheck import numerical_gradient

import minitf as tf


def test_constants_are_not_watched_unless_asked():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert float(tape.gradient(y, x)) == 6.0


def test_trainable_variables_are_watched_automatically():
    v = tf.Variable(2.0)
    frozen = tf.Variable(5.0, trainable=False)
    with tf.GradientTape() as tape:
        y = v * v * frozen
    dv, dfrozen = tape.gradient(y, [v, frozen])
    assert float(dv) == 20.0
    assert dfrozen is None
    assert tape.watched_variables() == (v,)


def test_watch_accessed_variables_false_needs_explicit_watch():
    a, b = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(b)
        y = a * b
    da, db = tape.gradient(y, [a, b])
    assert da is None and float(db) == 2.0


def test_watch_rejects_python_values():
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable"):
            tape.watch(1.0)


def test_non_persistent_tape_allows_one_gradient_call():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used"):
        tape.gradient(y, x)


def test_persistent_tape_allows_many_calls():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        z = y * y
    assert float(tape.gradient(y, x)) == 4.0
    assert float(tape.gradient(z, x)) == 32.0  # d(x^4) = 4x^3


def test_reentering_an_active_tape_fails():
    tape = tf.GradientTape()
    with tape:
        with pytest.raises(ValueError, match="still recording"):
            tape.__enter__()


def test_nested_sources_keep_their_structure():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v
    grads = tape.gradient(y, {"a": v, "b": [v]})
    assert set(grads) == {"a", "b"}
    assert float(grads["a"]) == 4.0 and float(grads["b"][0]) == 4.0


def test_multiple_targets_are_summed():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y1, y2 = x * 2.0, x * x
    assert float(tape.gradient([y1, y2], x)) == 8.0


def test_output_gradients_weight_the_targets():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v
    assert float(tape.gradient(y, v, output_gradients=tf.constant(3.0))) == 12.0


def test_unconnected_gradients_none_or_zero():
    v, w = tf.Variable([2.0, 1.0]), tf.Variable([[1.0]])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(v * v)
    assert tape.gradient(y, w) is None
    zero = tape.gradient(y, w, unconnected_gradients="zero")
    assert zero.shape == (1, 1) and zero.dtype == tf.float32 and float(zero[0, 0]) == 0.0
    zero2 = tape.gradient(y, w, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert zero2.numpy().tolist() == [[0.0]]


def test_integer_sources_get_none():
    x = tf.constant(3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x) is None


def test_target_may_be_the_source_itself():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        v * v
    assert float(tape.gradient(v, v)) == 1.0


def test_gradient_with_respect_to_an_intermediate_tensor():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        h = x * 3.0
        tape.watch(h)
        y = h * h + h
    assert float(tape.gradient(y, h)) == 13.0  # 2h + 1 at h = 6


def test_value_used_twice_accumulates():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        a = x * x
        y = a + a * x  # x^2 + x^3
    assert float(tape.gradient(y, x)) == 2 * 3.0 + 3 * 9.0


def test_stop_recording_hides_operations():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        with tape.stop_recording():
            hidden = v * v
        y = hidden + v * 3.0
    assert float(tape.gradient(y, v)) == 3.0


def test_stop_recording_requires_recording_tape():
    tape = tf.GradientTape()
    with pytest.raises(ValueError, match="must be recording"):
        with tape.stop_recording():
            pass


def test_reset_forgets_earlier_operations():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v
        tape.reset()
        z = v * 3.0
        total = y + z
    assert float(tape.gradient(total, v)) == 3.0


def test_stop_gradient_blocks_the_path():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.stop_gradient(x * x) * x
    assert float(tape.gradient(y, x)) == 4.0  # only the second factor


def test_variable_read_before_assign_keeps_old_value():
    v = tf.Variable(1.0)
    old = v.read_value()
    v.assign(5.0)
    assert float(old) == 1.0 and float(v) == 5.0
    with tf.GradientTape() as tape:
        y = v * v
    assert float(tape.gradient(y, v)) == 10.0


def test_second_derivative_with_nested_tapes():
    x = tf.Variable(2.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = x * x * x
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    assert float(dy) == 12.0 and float(d2y) == 12.0  # 3x^2, 6x


def test_third_derivative():
    x = tf.constant(1.5)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = x ** 4.0
            g1 = t1.gradient(y, x)
        g2 = t2.gradient(g1, x)
    g3 = t3.gradient(g2, x)
    assert np.isclose(float(g3), 24 * 1.5)


def test_jacobian_matches_finite_differences():
    rng = np.random.default_rng(0)
    a = rng.uniform(0.5, 1.5, size=(2, 3))
    w = rng.uniform(-1, 1, size=(3, 2))
    x = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.matmul(x * x, tf.constant(w))
    jac = tape.jacobian(y, x)
    assert jac.shape == (2, 2, 2, 3)
    for i in range(2):
        for j in range(2):
            expected = numerical_gradient(lambda arrs: float((arrs[0] ** 2 @ w)[i, j]), [a], 0)
            np.testing.assert_allclose(jac.numpy()[i, j], expected, rtol=1e-6, atol=1e-8)


def test_jacobian_of_unconnected_source():
    v, w = tf.Variable([1.0, 2.0]), tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        y = v * v
    assert tape.jacobian(y, w) is None
    assert tape.jacobian(y, w, unconnected_gradients="zero").numpy().tolist() == [0.0, 0.0]
    assert tape.jacobian(y, v).numpy().tolist() == [[2.0, 0.0], [0.0, 4.0]]


def test_batch_jacobian():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    bj = tape.batch_jacobian(y, x)
    expected = [[[2.0, 0.0], [0.0, 4.0]], [[6.0, 0.0], [0.0, 8.0]]]
    assert bj.numpy().tolist() == expected


def test_batch_jacobian_requires_matching_batch():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reshape(x, [4, 1])
    with pytest.raises(ValueError, match="first dimension"):
        tape.batch_jacobian(y, x)


def test_custom_gradient_replaces_the_gradient():
    @tf.custom_gradient
    def scaled_identity(x):
        def grad(dy):
            return dy * 100.0

        return x * 1.0, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scaled_identity(x) * 3.0
    assert float(y) == 6.0
    assert float(tape.gradient(y, x)) == 300.0


def test_custom_gradient_stable_log1pexp():
    # The classic example: a numerically stable gradient for log(1 + e^x).
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))

        return tf.math.log(1 + e), grad

    x = tf.constant(100.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert float(tape.gradient(y, x)) == 1.0


def test_custom_gradient_with_variables():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def times_w(x):
        def grad(dy, variables):
            return dy * w, [dy * x * 10.0]

        return x * w, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = times_w(x)
    dx, dw = tape.gradient(y, [x, w])
    assert float(dx) == 3.0 and float(dw) == 20.0


def test_custom_gradient_with_variables_requires_variables_argument():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def times_w(x):
        return x * w, lambda dy: dy

    with pytest.raises(TypeError, match="keyword argument 'variables'"):
        times_w(tf.constant(1.0))


def test_recorded_operations_list_the_computation():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.exp(x * x)
    names = [r.type for r in tape.recorded_operations()]
    assert names == ["ReadVariableOp", "Mul", "Exp"]
    exp_record = tape.recorded_operations()[-1]
    assert exp_record.outputs[0] is y


def test_long_chain_does_not_hit_recursion_limit():
    x = tf.Variable(1.0)
    steps = max(10_000, sys.getrecursionlimit() + 1)
    with tf.GradientTape() as tape:
        y = x
        for _ in range(steps):
            y = y * 1.0
    assert float(tape.gradient(y, x)) == 1.0


def test_non_persistent_tape_releases_its_records():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        hidden = x * x
        y = hidden * 3.0
    ref = weakref.ref(hidden)
    del hidden
    tape.gradient(y, x)
    gc.collect()
    assert tape.recorded_operations() == []
    assert ref() is None


def test_gradient_through_broadcasting_has_source_shapes():
    a = tf.Variable(np.ones((3, 1), np.float32))
    b = tf.Variable(np.ones((4,), np.float32))
    with tf.GradientTape() as tape:
        y = a * b
    da, db = tape.gradient(y, [a, b])
    assert da.shape == (3, 1) and db.shape == (4,)
    assert da.numpy().ravel().tolist() == [4.0] * 3 and db.numpy().tolist() == [3.0] * 4


def test_jacobian_of_an_empty_target_is_empty_zeros():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x[:0] * 2.0
    jac = tape.jacobian(y, x)
    assert jac.shape == (0, 2) and jac.dtype == tf.float32
