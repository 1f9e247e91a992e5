"""Bad input to layers, losses, compile and fit: TF's error class, TF's text (the part quoted
here was printed by TF 2.21 for the same call), the layer and the shapes, and one sentence
that teaches."""
import re

import numpy as np
import pytest

import minitf as tf


def _raises(error, tf_text, call, *also):
    """`call()` raises `error` whose message starts with TF's text and contains `also`."""
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert message.startswith(tf_text), message
    for part in also:
        assert part in message, message
    assert len(message) > len(tf_text) + 20, "no teaching sentence after TF's text"
    return message


# --- a built layer called on the wrong rank or size --------------------------------------------
def test_dense_wrong_last_axis_names_layer_and_shape():
    dense = tf.keras.layers.Dense(2, name="dense")
    dense(np.ones((1, 3), "float32"))
    _raises(ValueError, "Input 0 with name 'None' of layer 'dense' is incompatible with the "
            "layer: expected axis -1 of input shape to have value 3, but received input with "
            "shape (2, 4)", lambda: dense(np.ones((2, 4), "float32")), "built")


def test_dense_missing_batch_axis_suggests_expand_dims():
    dense = tf.keras.layers.Dense(2, name="dense")
    dense(np.ones((1, 3), "float32"))
    _raises(ValueError, "Input 0 with name 'None' of layer 'dense' is incompatible with the "
            "layer: expected min_ndim=2, found ndim=1. Full shape received: (3,)",
            lambda: dense(np.ones((3,), "float32")), "(1, 3)", "tf.expand_dims(x, 0)")


def test_conv2d_rank_and_channels():
    conv = tf.keras.layers.Conv2D(2, 3, name="conv2d")
    _raises(ValueError, "Input 0 with name 'None' of layer 'conv2d' is incompatible with the "
            "layer: expected min_ndim=4, found ndim=3. Full shape received: (2, 8, 8)",
            lambda: conv(np.ones((2, 8, 8), "float32")), "(2, 8, 8, 1)", "tf.expand_dims(x, -1)")
    conv(np.ones((1, 8, 8, 1), "float32"))
    _raises(ValueError, "Input 0 with name 'None' of layer 'conv2d' is incompatible with the "
            "layer: expected axis -1 of input shape to have value 1, but received input with "
            "shape (1, 8, 8, 2)", lambda: conv(np.ones((1, 8, 8, 2), "float32")))


@pytest.mark.parametrize("layer", [tf.keras.layers.LSTM, tf.keras.layers.GRU,
                                   tf.keras.layers.SimpleRNN])
def test_recurrent_layers_want_exactly_rank_3(layer):
    rnn = layer(2, name="rnn")
    _raises(ValueError, "Input 0 with name 'None' of layer 'rnn' is incompatible with the "
            "layer: expected ndim=3, found ndim=2. Full shape received: (2, 3)",
            lambda: rnn(np.ones((2, 3), "float32")), "(1, 2, 3)")
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=4"):
        rnn(np.ones((1, 2, 3, 4), "float32"))


def test_models_name_the_layer_that_refused():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, name="head")])
    for call in (lambda: model(np.ones((2, 4), "float32")),
                 lambda: model.predict(np.ones((2, 4), "float32"), verbose=0)):
        _raises(ValueError, "Input 0 with name 'None' of layer 'head' is incompatible", call,
                "(2, 4)")
    inputs = tf.keras.Input((3,), name="feat")
    functional = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs), name="net")
    _raises(ValueError, "Input 0 with name 'feat' of layer 'net' is incompatible with the "
            "layer: expected shape=(None, 3), found shape=(2, 4)",
            lambda: functional(np.ones((2, 4), "float32")))


def test_functional_forgives_a_trailing_axis_of_one_like_tf():
    inputs = tf.keras.Input((3,))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(model(x[..., None]).numpy(), model(x).numpy())
    single = tf.keras.Input((1,))
    model = tf.keras.Model(single, tf.keras.layers.Dense(2)(single))
    np.testing.assert_allclose(model(np.array([1.0, 2.0], "float32")).numpy(),
                               model(np.array([[1.0], [2.0]], "float32")).numpy())
    assert model.predict(np.array([1.0, 2.0, 3.0], "float32"), verbose=0).shape == (3, 2)


# --- labels that do not fit the loss -----------------------------------------------------------
def test_elementwise_loss_shape_clash_is_tf_invalid_argument():
    _raises(tf.errors.InvalidArgumentError, "Incompatible shapes: [4,2] vs. [4,3]",
            lambda: tf.keras.losses.MeanSquaredError()(np.ones((4, 2), "float32"),
                                                       np.ones((4, 3), "float32")))


def test_crossentropy_label_shapes():
    _raises(ValueError, "Arguments `target` and `output` must have the same rank (ndim). "
            "Received: target.shape=(4,), output.shape=(4, 3)",
            lambda: tf.keras.losses.categorical_crossentropy(np.ones((4,), "float32"),
                                                             np.ones((4, 3), "float32")),
            "sparse_categorical_crossentropy", "to_categorical")
    _raises(ValueError, "Arguments `target` and `output` must have the same shape. Received: "
            "target.shape=(4, 2), output.shape=(4, 3)",
            lambda: tf.keras.losses.CategoricalCrossentropy()(np.ones((4, 2), "float32"),
                                                              np.ones((4, 3), "float32")),
            "one column per class")
    _raises(ValueError, "Argument `output` must have rank (ndim) `target.ndim - 1`. Received: "
            "target.shape=(4, 3), output.shape=(4, 3)",
            lambda: tf.keras.losses.SparseCategoricalCrossentropy()(
                np.ones((4, 3), "float32"), np.full((4, 3), 1 / 3, "float32")),
            "categorical_crossentropy")
    _raises(ValueError, "Arguments `target` and `output` must have the same shape up until the "
            "last dimension: target.shape=(5,), output.shape=(4, 3)",
            lambda: tf.keras.losses.SparseCategoricalCrossentropy()(
                np.ones((5,), "float32"), np.full((4, 3), 1 / 3, "float32")),
            "one label per row")


def test_fit_with_labels_of_the_wrong_width_names_output_loss_and_shapes():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, name="out")])
    model.compile(optimizer="sgd", loss="mse")
    # TF 2.21 (graph mode) raises ValueError("Dimensions must be equal, but are 2 and 4 for
    # '{{node compile_loss/mse/sub}} ...' with input shapes: [?,2], [?,4].")
    message = _raises(ValueError, "Dimensions must be equal, but are 2 and 4 for the loss 'mse' "
                      "of output 'out' with input shapes: [?,2], [?,4].",
                      lambda: model.fit(np.ones((8, 3)), np.ones((8, 2)), verbose=0))
    assert "units of the last layer" in message
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match=re.escape("[?,3], [?,4]")):
        model.evaluate(np.ones((8, 3)), np.ones((8, 3)), verbose=0)
    # Broadcastable labels are left alone, and label range errors are not shape errors.
    model.compile(optimizer="sgd", loss="mse")
    model.fit(np.ones((8, 3)), np.ones((8, 1)), verbose=0)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4)])
    model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(True))
    with pytest.raises(tf.errors.InvalidArgumentError):
        model.fit(np.ones((8, 3)), np.full(8, 7), verbose=0)


def test_fit_with_integer_labels_for_categorical_crossentropy():
    model = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(4, activation="softmax")])
    model.compile(optimizer="sgd", loss="categorical_crossentropy")
    _raises(ValueError, "Arguments `target` and `output` must have the same rank (ndim). "
            "Received: target.shape=(8,), output.shape=(8, 4)",
            lambda: model.fit(np.ones((8, 3)), np.arange(8) % 4, verbose=0),
            "sparse_categorical_crossentropy")


# --- unknown names -----------------------------------------------------------------------------
@pytest.mark.parametrize("call, tf_text, hint", [
    (lambda: tf.keras.Sequential().compile(optimizer="adamm", loss="mse"),
     "Could not interpret optimizer identifier: adamm", "Adam"),
    (lambda: tf.keras.Sequential().compile(optimizer="adam", loss="msee"),
     "Could not interpret loss identifier: msee", "'mse'"),
    (lambda: tf.keras.metrics.get("accuracyy"),
     "Could not interpret metric identifier: accuracyy", "'accuracy'"),
    (lambda: tf.keras.layers.Dense(2, activation="rellu"),
     "Could not interpret activation function identifier: rellu", "Did you mean 'relu'"),
    (lambda: tf.keras.layers.Dense(2, kernel_initializer="glorot"),
     "Could not interpret initializer identifier: glorot", "'glorot_uniform'"),
    (lambda: tf.keras.layers.Dense(2, kernel_regularizer="l3"),
     "Could not interpret regularizer identifier: l3", "Known names: l1, l1_l2, l2"),
    (lambda: tf.keras.layers.Dense(2, kernel_constraint="nonnegg"),
     "Could not interpret constraint identifier: nonnegg", "'non_neg'"),
])
def test_unknown_string_identifiers(call, tf_text, hint):
    _raises(ValueError, tf_text, call, hint)


def test_unknown_metric_fails_at_the_first_batch_like_tf():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse", metrics=["accuracyy"])  # TF accepts it here
    _raises(ValueError, "Could not interpret metric identifier: accuracyy",
            lambda: model.fit(np.ones((2, 3)), np.ones((2, 1)), verbose=0))


# --- training before compile -------------------------------------------------------------------
@pytest.mark.parametrize("method, call", [
    ("fit", lambda m: m.fit(np.ones((2, 3)), np.ones((2, 1)), verbose=0)),
    ("evaluate", lambda m: m.evaluate(np.ones((2, 3)), np.ones((2, 1)), verbose=0)),
    ("train_on_batch", lambda m: m.train_on_batch(np.ones((2, 3)), np.ones((2, 1)))),
    ("test_on_batch", lambda m: m.test_on_batch(np.ones((2, 3)), np.ones((2, 1)))),
])
def test_training_before_compile(method, call):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    _raises(ValueError, "You must call `compile()` before using the model.",
            lambda: call(model), f"`{method}`", "model.compile(")
    assert model.predict(np.ones((2, 3)), verbose=0).shape == (2, 1)  # predict needs no compile


def test_fit_with_mismatched_sample_counts():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    _raises(ValueError, "Data cardinality is ambiguous. Make sure all arrays contain the same "
            "number of samples.", lambda: model.fit(np.ones((8, 3)), np.ones((7, 1)),
                                                    verbose=0), "8", "7")


def test_input_with_a_dict_shape_points_to_named_inputs():
    # TF 2.21: ValueError("Cannot convert '{'a': (3,)}' to a shape. Found invalid dimension ...")
    with pytest.raises(ValueError, match=r"^Cannot convert '\{'a': \(3,\)\}' to a shape. Found "
                       "invalid dimension") as info:
        tf.keras.Input(shape={"a": (3,)})
    assert "one tf.keras.Input per name" in str(info.value)
    with pytest.raises(ValueError, match="Found invalid dimension 'x'"):
        tf.keras.Input(shape=(3, "x"))
