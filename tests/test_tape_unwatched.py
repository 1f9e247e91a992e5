"""A tape differentiates only what it watches: constants it never watched get
no gradient, even when a recorded op used them (values verified against TF 2.21)."""
import minitf as tf


def _record(**tape_kwargs):
    x = tf.constant(2.0)
    w = tf.Variable(3.0)
    tape = tf.GradientTape(persistent=True, **tape_kwargs)
    with tape:
        y = x * w + tf.sin(x)
        z = y * 2.0
    return tape, x, w, y, z


def test_unwatched_constant_gets_none():
    tape, x, w, y, _ = _record()
    gx, gw = tape.gradient(y, [x, w])  # verified against TF 2.21: [None, 2.0]
    assert gx is None
    assert gw.numpy() == 2.0


def test_nothing_watched_gives_nones():
    tape, x, w, y, _ = _record(watch_accessed_variables=False)
    assert tape.gradient(y, [x, w]) == [None, None]  # verified against TF 2.21


def test_unwatched_source_with_zero_unconnected_gradients():
    tape, x, _, y, z = _record()
    gy, gx = tape.gradient(z, [y, x], unconnected_gradients="zero")
    assert gy.numpy() == 2.0  # a recorded intermediate still works as a source
    assert gx.numpy() == 0.0  # verified against TF 2.21


def test_target_that_is_an_unwatched_source_gets_its_seed():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        pass
    assert tape.gradient(x, x).numpy() == 1.0  # verified against TF 2.21


def test_watching_the_constant_restores_its_gradient():
    x = tf.constant(2.0)
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * w + tf.sin(x)
    gx, gw = tape.gradient(y, [x, w])
    assert abs(gx.numpy() - (3.0 + float(tf.cos(2.0).numpy()))) < 1e-6
    assert gw.numpy() == 2.0


def test_jacobian_of_unwatched_source_is_none():
    tape, x, w, y, _ = _record()
    jx, jw = tape.jacobian(y, [x, w])  # verified against TF 2.21: [None, 2.0]
    assert jx is None
    assert jw.numpy() == 2.0


def test_batch_jacobian_of_unwatched_source_is_zeros():
    xb = tf.ones((2, 3))
    w = tf.Variable([[3.0], [1.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(xb * 3.0, 1, keepdims=True) * w
    bj = tape.batch_jacobian(y, xb)  # verified against TF 2.21: zeros, shape (2, 1, 3)
    assert bj.shape == (2, 1, 3)
    assert bj.numpy().tolist() == [[[0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0]]]
