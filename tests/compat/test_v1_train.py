"""TF1 optimizers (tf.compat.v1.train) against their update rules, written out in NumPy."""
import numpy as np
import pytest

import minitf as tf

v1 = tf.compat.v1
START = np.array([1.0, -2.0], np.float32)


def _steps(make_optimizer, count=3, global_step=False):
    """Minimize sum(w^3) from START in a TF1 graph; the value of w after each step."""
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant(START))
        step_var = v1.train.get_or_create_global_step() if global_step else None
        step = make_optimizer().minimize(tf.reduce_sum(w * w * w), global_step=step_var)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            seen = []
            for _ in range(count):
                sess.run(step)
                seen.append(sess.run(w))
            return seen, (sess.run(step_var) if global_step else None)


def _grad(w):
    return 3 * w * w


def test_gradient_descent_and_global_step():
    seen, step = _steps(lambda: v1.train.GradientDescentOptimizer(0.01), global_step=True)
    w = START.astype(np.float64)
    for got in seen:
        w = w - 0.01 * _grad(w)
        np.testing.assert_allclose(got, w, rtol=1e-5)
    assert step == 3


@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum_follows_its_rule(nesterov):
    seen, _ = _steps(lambda: v1.train.MomentumOptimizer(0.01, 0.9, use_nesterov=nesterov))
    w, accum = START.astype(np.float64), np.zeros(2)
    for got in seen:
        g = _grad(w)
        accum = 0.9 * accum + g
        w = w - (0.01 * (g + 0.9 * accum) if nesterov else 0.01 * accum)
        np.testing.assert_allclose(got, w, rtol=1e-5)


def test_adam_follows_tf1s_kernel_and_keeps_its_slots():
    seen, _ = _steps(lambda: v1.train.AdamOptimizer(0.1))
    w, m, v = START.astype(np.float64), np.zeros(2), np.zeros(2)
    for t, got in enumerate(seen, start=1):
        g = _grad(w)
        lr = 0.1 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        m, v = m + (g - m) * 0.1, v + (g * g - v) * 0.001
        w = w - lr * m / (np.sqrt(v) + 1e-8)
        np.testing.assert_allclose(got, w, rtol=1e-5)
    with tf.Graph().as_default():
        w = v1.get_variable("w", [2])
        opt = v1.train.AdamOptimizer()
        opt.minimize(tf.reduce_sum(w))
        assert [v.name for v in v1.global_variables()] == [
            "w:0", "beta1_power:0", "beta2_power:0", "w/Adam:0", "w/Adam_1:0"]
        assert v1.trainable_variables() == [w] and opt.get_slot(w, "m").name == "w/Adam:0"


def test_compute_and_apply_gradients_separately():
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant(2.0))
        unused = v1.get_variable("unused", initializer=tf.constant(0.0))
        opt = v1.train.GradientDescentOptimizer(0.5)
        pairs = opt.compute_gradients(w * w)
        assert [v for _, v in pairs] == [w, unused] and pairs[1][0] is None
        step = opt.apply_gradients(pairs, name="apply")
        assert step.name == "apply"
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            grad = sess.run(pairs[0][0])
            sess.run(step)
            assert (grad, sess.run(w)) == (4.0, 0.0)
        with pytest.raises(ValueError, match="No gradients provided for any variable"):
            opt.minimize(tf.constant(1.0) * 2.0, var_list=[w])
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="No variables to optimize."):
            v1.train.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0) * 2.0)


def test_eager_minimize_takes_a_loss_function():
    v = tf.Variable([1.0, 2.0])
    opt = v1.train.GradientDescentOptimizer(0.25)
    assert opt.minimize(lambda: tf.reduce_sum(v * v)) is None
    np.testing.assert_allclose(v.numpy(), [0.5, 1.0])
    with pytest.raises(RuntimeError, match="should be a function when eager execution"):
        opt.minimize(tf.reduce_sum(v))


def test_placeholder_learning_rate_is_fed():
    with tf.Graph().as_default():
        lr = v1.placeholder(tf.float32, [])
        w = v1.get_variable("w", initializer=tf.constant(1.0))
        step = v1.train.GradientDescentOptimizer(lr).minimize(w)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(step, {lr: 0.5})
            sess.run(step, {lr: 0.25})
            assert sess.run(w) == 0.25
