"""Keras masks: made by Embedding(mask_zero=True) and Masking, carried by the layers that
support them, used by RNNs, GlobalAveragePooling1D, BatchNormalization and losses."""
import warnings

import numpy as np
import pytest

import minitf as tf

L = tf.keras.layers
TOKENS = np.array([[4, 2, 0, 0], [3, 0, 0, 0], [1, 2, 3, 4]])
LENGTHS = [2, 1, 4]


def embedded(seed=0):
    tf.random.set_seed(seed)
    return L.Embedding(6, 3, mask_zero=True)


def test_embedding_makes_the_mask_and_dense_passes_it_on():
    vectors = embedded()(TOKENS)
    expected = TOKENS != 0
    np.testing.assert_array_equal(vectors._keras_mask.numpy(), expected)
    np.testing.assert_array_equal(L.Dense(2)(vectors)._keras_mask.numpy(), expected)
    np.testing.assert_array_equal(L.Dropout(0.5)(vectors)._keras_mask.numpy(), expected)
    assert getattr(L.Embedding(6, 3)(TOKENS), "_keras_mask", None) is None  # mask_zero=False


def test_a_layer_without_masking_says_the_mask_stops_there():
    with pytest.warns(UserWarning, match="does not support masking"):
        out = L.Flatten()(embedded()(TOKENS))
    assert getattr(out, "_keras_mask", None) is None


@pytest.mark.parametrize("rnn", [L.SimpleRNN, L.LSTM, L.GRU])
@pytest.mark.parametrize("steps", [4, None], ids=["static", "dynamic"])
def test_a_masked_rnn_sees_only_the_real_steps(rnn, steps):
    embed, layer = embedded(), rnn(3, return_state=True)
    x = tf.keras.Input((steps,))
    padded = tf.keras.Model(x, layer(embed(x)))(TOKENS)  # steps known or not when traced
    for i, n in enumerate(LENGTHS):
        alone = layer(embed(TOKENS[i:i + 1, :n]))  # the same sequence without its padding
        for a, b in zip(padded, alone):
            np.testing.assert_allclose(a.numpy()[i], b.numpy()[0], rtol=1e-5, atol=1e-6)


def test_go_backwards_and_bidirectional_skip_padding_too():
    embed = embedded()
    for layer in [L.LSTM(2, go_backwards=True), L.Bidirectional(L.GRU(2))]:
        padded = layer(embed(TOKENS)).numpy()
        for i, n in enumerate(LENGTHS):
            alone = layer(embed(TOKENS[i:i + 1, :n])).numpy()
            np.testing.assert_allclose(padded[i], alone[0], rtol=1e-5, atol=1e-6)


def test_masked_steps_repeat_the_last_output_or_give_zeros():
    embed = embedded()
    repeat = L.SimpleRNN(2, return_sequences=True)
    outputs = repeat(embed(TOKENS)).numpy()
    np.testing.assert_array_equal(outputs[0, 2], outputs[0, 1])  # padding: last real output
    np.testing.assert_array_equal(outputs[1, 3], outputs[1, 0])
    zeros = L.SimpleRNN(2, return_sequences=True, zero_output_for_mask=True)
    outputs = zeros(embed(TOKENS))
    np.testing.assert_array_equal(outputs.numpy()[0, 2:], 0.0)
    np.testing.assert_array_equal(outputs._keras_mask.numpy(), TOKENS != 0)  # passed on
    assert getattr(L.SimpleRNN(2)(embed(TOKENS)), "_keras_mask", None) is None  # consumed


def test_global_average_pooling_averages_real_steps_only():
    vectors = embedded()(TOKENS)
    pooled = L.GlobalAveragePooling1D()(vectors)
    v, mask = vectors.numpy(), TOKENS != 0
    expected = (v * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    np.testing.assert_allclose(pooled.numpy(), expected, rtol=1e-6)
    assert getattr(pooled, "_keras_mask", None) is None


def test_masking_layer_marks_all_equal_steps():
    steps = np.array([[[1.0, 2.0], [-1.0, -1.0], [0.0, -1.0]]], "float32")
    out = L.Masking(mask_value=-1.0)(steps)
    np.testing.assert_array_equal(out._keras_mask.numpy(), [[True, False, True]])
    np.testing.assert_array_equal(out.numpy(), [[[1.0, 2.0], [0.0, 0.0], [0.0, -1.0]]])
    assert L.Masking.from_config(L.Masking(-1.0).get_config()).mask_value == -1.0


def test_merge_layers_combine_masks():
    a = embedded(0)(TOKENS)
    b = embedded(1)(np.where(np.arange(4) < 3, TOKENS, 0))  # one more step masked
    both = (TOKENS != 0) & (np.arange(4) < 3)
    np.testing.assert_array_equal(L.Add()([a, b])._keras_mask.numpy(), both)
    either = (TOKENS != 0) | (np.arange(4) < 3) & (TOKENS != 0)
    np.testing.assert_array_equal(L.Concatenate()([a, b])._keras_mask.numpy(), either)
    unmasked = tf.ones([3, 4, 3])
    np.testing.assert_array_equal(L.Concatenate()([a, unmasked])._keras_mask.numpy(), True)


def test_batch_normalization_learns_moments_of_real_steps():
    vectors = embedded()(TOKENS)
    bn = L.BatchNormalization(momentum=0.0)
    bn(vectors, training=True)
    real = vectors.numpy()[TOKENS != 0]
    np.testing.assert_allclose(bn.moving_mean.numpy(), real.mean(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.numpy(), real.var(0), rtol=1e-4, atol=1e-6)


def test_losses_and_fit_ignore_masked_steps():
    tf.random.set_seed(0)
    x = tf.keras.Input((4,))
    h = L.LSTM(4, return_sequences=True)(L.Embedding(6, 3, mask_zero=True)(x))
    model = tf.keras.Model(x, L.Dense(2)(h))
    y = np.zeros((3, 4), "int64")
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    pred = model(TOKENS)
    per_step = tf.keras.losses.sparse_categorical_crossentropy(y, pred, from_logits=True)
    assert float(loss(y, pred)) == pytest.approx(float(np.mean(per_step.numpy()[TOKENS != 0])),
                                                 rel=1e-5)
    model.compile(optimizer="sgd", loss=loss)
    first = model.fit(TOKENS, y, epochs=1, batch_size=3, verbose=0).history["loss"][0]
    assert first == pytest.approx(float(loss(y, pred)), rel=1e-5)  # the graph step masks too
    # the padding token's embedding row gets no gradient at all
    with tf.GradientTape() as tape:
        value = loss(y, model(TOKENS))
    grad = tf.convert_to_tensor(tape.gradient(value, model.layers[1].embeddings))
    np.testing.assert_array_equal(grad.numpy()[0], 0.0)
    assert np.abs(grad.numpy()[1:5]).sum() > 0


def test_masks_travel_inside_a_traced_function():
    embed, rnn = embedded(), L.GRU(2)

    @tf.function
    def encode(tokens):
        return rnn(embed(tokens))

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        traced = encode(tf.constant(TOKENS)).numpy()
    np.testing.assert_allclose(traced, rnn(embed(TOKENS)).numpy(), rtol=1e-6)
    np.testing.assert_allclose(traced[1], rnn(embed(TOKENS[1:2, :1])).numpy()[0], rtol=1e-5)


@pytest.mark.parametrize("go_backwards", [False, True])
def test_masked_loop_over_an_unknown_number_of_steps(go_backwards):
    embed, rnn = embedded(), L.LSTM(2, return_sequences=True, go_backwards=go_backwards)

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])
    def encode(tokens):  # steps unknown while tracing: the RNN runs a tf.while_loop
        return rnn(embed(tokens))

    assert "While" in str(encode.get_concrete_function().graph)
    np.testing.assert_allclose(encode(tf.constant(TOKENS, tf.int32)).numpy(),
                               rnn(embed(TOKENS)).numpy(), rtol=1e-5, atol=1e-6)


def test_metrics_count_real_steps_only():
    pred = embedded()(TOKENS)  # (3, 4, 3) scores with the padding mask attached
    y = np.ones((3, 4), "int64")
    hits = (np.argmax(pred.numpy(), -1) == 1)
    metric = tf.keras.metrics.SparseCategoricalAccuracy()
    metric.update_state(y, pred)
    assert float(metric.result()) == pytest.approx(hits[TOKENS != 0].mean())
    weighted = tf.keras.metrics.SparseCategoricalAccuracy()
    weights = np.array([[1.0, 1.0, 1.0, 1.0], [0.0] * 4, [1.0, 0.0, 1.0, 0.0]])
    weighted.update_state(y, pred, sample_weight=weights)  # weights times the mask
    keep = (TOKENS != 0) & (weights > 0)
    assert float(weighted.result()) == pytest.approx(hits[keep].mean())


def test_multi_head_attention_reads_the_masks_the_tensors_carry():
    tf.random.set_seed(3)
    vectors = embedded()(TOKENS)                       # (3, 4, 3), padding masked
    mha = L.MultiHeadAttention(num_heads=2, key_dim=2)
    out, scores = mha(vectors, vectors, return_attention_scores=True)
    real = TOKENS != 0
    scores = scores.numpy()                            # (batch, heads, Tq, Tv)
    keep = np.broadcast_to(real[:, None, :, None] & real[:, None, None, :], scores.shape)
    np.testing.assert_array_equal(scores[~keep], 0.0)  # padding neither attends nor is attended
    np.testing.assert_array_equal(scores[1, :, 1:], 0.0)  # e.g. a padded query: all zeros
    np.testing.assert_allclose(scores[0, :, :2, :2].sum(-1), 1.0, rtol=1e-6)
    np.testing.assert_array_equal(out._keras_mask.numpy(), real)  # the query's mask
    plain = tf.constant(vectors.numpy())  # the same values, no mask attached
    same = mha(plain, plain, attention_mask=real[:, :, None] & real[:, None, :])
    np.testing.assert_allclose(same.numpy(), out.numpy(), rtol=1e-6)
