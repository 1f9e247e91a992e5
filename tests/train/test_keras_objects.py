"""Keras models and optimizers in a checkpoint: Keras 3's child names (so TF's keys), and
an optimizer restored before it is built gets its slots on creation."""
import numpy as np
import pytest

import minitf as tf

keras = tf.keras

# What TF 2.21 + Keras 3.15 list for the same objects (test_real_tf_keys.py re-checks).
SEQUENTIAL_ADAM_KEYS = [
    "_CHECKPOINTABLE_OBJECT_GRAPH",
    "model/_functional/_operations/3/moving_mean/.ATTRIBUTES/VARIABLE_VALUE",
    "model/_functional/_operations/3/moving_variance/.ATTRIBUTES/VARIABLE_VALUE",
    "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE",
    "optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE",
] + [f"optimizer/_trainable_variables/{i}/.ATTRIBUTES/VARIABLE_VALUE" for i in range(6)] + \
    sorted(f"optimizer/_variables/{i}/.ATTRIBUTES/VARIABLE_VALUE" for i in range(2, 14))


def sequential_and_adam():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Dropout(0.1),
                              keras.layers.BatchNormalization(), keras.layers.Dense(2)])
    return model, keras.optimizers.Adam(0.01)


def step(model, optimizer, x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - 1.0) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


def test_sequential_and_adam_keys(tmp_path):
    model, optimizer = sequential_and_adam()
    step(model, optimizer, np.ones((5, 4), "float32"))
    path = tf.train.Checkpoint(model=model, optimizer=optimizer).write(str(tmp_path / "s"))
    assert [k for k, _ in tf.train.list_variables(path)] == SEQUENTIAL_ADAM_KEYS


def test_functional_keys(tmp_path):
    inputs = keras.Input((4,))
    outputs = keras.layers.Dense(2)(keras.layers.Dense(3)(inputs))
    path = tf.train.Checkpoint(model=keras.Model(inputs, outputs)).write(str(tmp_path / "f"))
    assert tf.train.list_variables(path) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
        ("model/_operations/1/_kernel/.ATTRIBUTES/VARIABLE_VALUE", [4, 3]),
        ("model/_operations/1/bias/.ATTRIBUTES/VARIABLE_VALUE", [3]),
        ("model/_operations/2/_kernel/.ATTRIBUTES/VARIABLE_VALUE", [3, 2]),
        ("model/_operations/2/bias/.ATTRIBUTES/VARIABLE_VALUE", [2])]


def test_unbuilt_optimizer_gets_its_slots_when_it_builds(tmp_path):
    x = np.linspace(-1, 1, 20, dtype="float32").reshape(5, 4)
    model, optimizer = sequential_and_adam()
    step(model, optimizer, x)
    path = tf.train.Checkpoint(model=model, optimizer=optimizer).write(str(tmp_path / "o"))
    model2, optimizer2 = sequential_and_adam()
    status = tf.train.Checkpoint(model=model2, optimizer=optimizer2).read(path)
    assert optimizer2.iterations.numpy() == 1 and not optimizer2.built
    optimizer2.build(model2.trainable_variables)  # slots are created... and restored
    for a, b in zip(optimizer.variables, optimizer2.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    status.assert_consumed()
    step(model, optimizer, x)
    step(model2, optimizer2, x)
    for a, b in zip(model.variables, model2.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=0, atol=1e-6)


def test_optimizer_slots_are_saved_once(tmp_path):
    """A slot reachable as `_variables/2` and as `_momentums/0` is one tensor."""
    model, optimizer = sequential_and_adam()
    step(model, optimizer, np.ones((5, 4), "float32"))
    path = tf.train.Checkpoint(optimizer=optimizer).write(str(tmp_path / "once"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert not any("_momentums" in k or "_velocities" in k for k in keys)
    assert len(keys) == 1 + 2 + 6 + 12


def test_attention_and_rnn_round_trip_and_defer(tmp_path):
    """MultiHeadAttention's weights sit under Keras 3's `_query_dense/_kernel`... (minitf has
    no EinsumDense sublayers: the names are mapped) and still restore when built later."""
    q = np.linspace(-1, 1, 60, dtype="float32").reshape(2, 5, 6)
    source = keras.layers.MultiHeadAttention(2, 4)
    rnn = keras.layers.LSTM(3)
    expected, expected_rnn = source(q, q).numpy(), rnn(q).numpy()
    path = tf.train.Checkpoint(attention=source, rnn=rnn).write(str(tmp_path / "a"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert "attention/_query_dense/_kernel/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "rnn/cell/recurrent_kernel/.ATTRIBUTES/VARIABLE_VALUE" in keys
    target, target_rnn = keras.layers.MultiHeadAttention(2, 4), keras.layers.LSTM(3)
    status = tf.train.Checkpoint(attention=target, rnn=target_rnn).read(path)
    np.testing.assert_allclose(target(q, q).numpy(), expected, rtol=0, atol=1e-6)
    np.testing.assert_allclose(target_rnn(q).numpy(), expected_rnn, rtol=0, atol=1e-6)
    status.assert_consumed()


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta",
                                  "Adamax", "Nadam", "Ftrl", "Lion"])
def test_every_optimizer_restores_into_a_fresh_one_before_it_builds(tmp_path, name):
    make = getattr(keras.optimizers, name)
    optimizer, w = make(), tf.Variable([1.0, 2.0])
    for _ in range(2):
        optimizer.apply_gradients([(tf.constant([1.0, -1.0]), w)])
    path = tf.train.Checkpoint(o=optimizer, w=w).write(str(tmp_path / name))
    fresh, w2 = make(), tf.Variable([0.0, 0.0])
    status = tf.train.Checkpoint(o=fresh, w=w2).read(path)
    fresh.build([w2])  # slots (and e.g. Nadam's _u_product attribute) restored as made
    status.assert_consumed()
    assert len(fresh.variables) == len(optimizer.variables)
    for a, b in zip(optimizer.variables, fresh.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
