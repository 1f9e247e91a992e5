"""tf.nn.RNNCellResidualWrapper / RNNCellDeviceWrapper / RNNCellDropoutWrapper around a
Keras cell or any callable (real-TF comparisons: test_nn_real_tf.py)."""
import numpy as np
import pytest

import minitf as tf

X = tf.constant([[0.1, 0.2, 0.3], [1.0, -1.0, 0.5]])
H = [tf.constant([[0.5, -0.5, 0.0], [0.0, 0.0, 1.0]])]


def _cell():
    return tf.keras.layers.SimpleRNNCell(3, kernel_initializer="ones",
                                         recurrent_initializer="ones")


def test_residual_wrapper_adds_the_inputs():
    cell = _cell()
    plain_out, plain_state = cell(X, H)
    out, state = tf.nn.RNNCellResidualWrapper(cell)(X, H)
    np.testing.assert_allclose(out.numpy(), X.numpy() + plain_out.numpy(), rtol=1e-6)
    np.testing.assert_allclose(state[0].numpy(), plain_state[0].numpy())
    out, _ = tf.nn.RNNCellResidualWrapper(cell, residual_fn=lambda i, o: i - o)(X, H)
    np.testing.assert_allclose(out.numpy(), X.numpy() - plain_out.numpy(), rtol=1e-6)
    wrapped = tf.nn.RNNCellResidualWrapper(cell)
    assert wrapped.state_size == 3 and wrapped.output_size == 3
    assert len(wrapped.trainable_weights) == 3 and wrapped.name == "residual_wrapper"
    assert wrapped.get_config()["cell"]["class_name"] == "SimpleRNNCell"


def test_device_wrapper_places_the_cell():
    out, _ = tf.nn.RNNCellDeviceWrapper(_cell(), "/cpu:0")(X, H)
    assert out.device.endswith("device:CPU:0")


def test_dropout_wrapper_masks_and_scales():
    identity = lambda x, s: (x, s)  # noqa: E731
    keep_all = tf.nn.RNNCellDropoutWrapper(identity)(tf.ones([4, 50]), [tf.ones([4, 50])])
    assert keep_all[0].numpy().tolist() == [[1.0] * 50] * 4
    wrapped = tf.nn.RNNCellDropoutWrapper(identity, input_keep_prob=0.5, state_keep_prob=0.25,
                                          seed=3)
    out, state = wrapped(tf.ones([4, 50]), [tf.ones([4, 50])])
    assert set(out.numpy().ravel().tolist()) == {0.0, 2.0}
    assert set(state[0].numpy().ravel().tolist()) == {0.0, 4.0}
    again, _ = wrapped(tf.ones([4, 50]), [tf.ones([4, 50])])
    assert set(again.numpy().ravel().tolist()) == {0.0, 2.0}
    skip = tf.nn.RNNCellDropoutWrapper(identity, state_keep_prob=0.5,
                                       dropout_state_filter_visitor=lambda s: False)
    assert skip(tf.ones([1, 3]), [tf.ones([1, 3])])[1][0].numpy().tolist() == [[1.0] * 3]


def test_variational_dropout_keeps_one_mask_for_every_step_and_example():
    identity = lambda x, s: (x, s)  # noqa: E731
    wrapped = tf.nn.RNNCellDropoutWrapper(identity, input_keep_prob=0.5,
                                          variational_recurrent=True, input_size=40,
                                          dtype=tf.float32, seed=4)
    first, _ = wrapped(tf.ones([3, 40]), [])
    second, _ = wrapped(tf.ones([3, 40]), [])
    assert first.numpy().tolist() == second.numpy().tolist()
    assert (first.numpy() == first.numpy()[:1]).all()
    assert set(first.numpy().ravel().tolist()) == {0.0, 2.0}


@pytest.mark.parametrize("make, cls, message", [
    (lambda: tf.nn.RNNCellDropoutWrapper(_cell(), input_keep_prob=1.5), ValueError,
     "Parameter input_keep_prob must be between 0 and 1: 1"),
    (lambda: tf.nn.RNNCellDropoutWrapper(_cell(), variational_recurrent=True), ValueError,
     "When variational_recurrent=True, dtype must be provided"),
    (lambda: tf.nn.RNNCellDropoutWrapper(_cell(), input_keep_prob=0.5,
                                         variational_recurrent=True, dtype=tf.float32),
     ValueError, "input_size must be provided"),
    (lambda: tf.nn.RNNCellResidualWrapper(3), AttributeError, "has no attribute 'call'"),
])
def test_wrapper_errors(make, cls, message):
    with pytest.raises(cls, match=message):
        make()
