"""Recurrent layers and wrappers: parameter counts by hand, numbers against TF 2.21
and NumPy, gradients of each cell against finite differences, eager vs tf.function
(static and unknown time), states, configs and errors."""
import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads

keras = tf.keras
L = tf.keras.layers
RNG = np.random.default_rng(2)


def pattern(shape, scale=0.1):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.7 + 0.3) * scale * 10).reshape(shape).astype("float32")


@pytest.mark.parametrize("make,shape,count", [
    (lambda: L.SimpleRNN(3), (2, 4, 2), 2 * 3 + 3 * 3 + 3),
    (lambda: L.LSTM(3), (2, 4, 2), 4 * (2 * 3 + 3 * 3 + 3)),
    (lambda: L.GRU(3), (2, 4, 2), 3 * (2 * 3 + 3 * 3) + 2 * 3 * 3),  # two bias vectors
    (lambda: L.GRU(3, reset_after=False), (2, 4, 2), 3 * (2 * 3 + 3 * 3 + 3)),
    (lambda: L.LSTM(3, use_bias=False), (2, 4, 2), 4 * (2 * 3 + 3 * 3)),
    (lambda: L.Bidirectional(L.LSTM(3)), (2, 4, 2), 2 * 4 * (2 * 3 + 3 * 3 + 3)),
    (lambda: L.RNN([L.SimpleRNNCell(4), L.LSTMCell(2)]), (3, 5, 6),
     (6 * 4 + 4 * 4 + 4) + 4 * (4 * 2 + 2 * 2 + 2)),
    (lambda: L.TimeDistributed(L.Dense(3)), (2, 4, 5), 5 * 3 + 3),
    (lambda: L.LSTM(2, stateful=True), (2, 3, 2), 4 * (2 * 2 + 2 * 2 + 2)),  # states: no
])
def test_parameter_counts_by_hand(make, shape, count):
    layer = make()
    layer(tf.zeros(shape))
    assert layer.count_params() == count


# layer, input shape -> [(shape, sum(y), sum(y * pattern)) per output], params.
# Input and weights from `pattern`; all verified against TF 2.21.
TF_CASES = [
    ("L.SimpleRNN(3)", (2, 4, 2), [((2, 3), -0.215646, -0.586601)], 18),
    ("L.SimpleRNN(3, return_sequences=True, go_backwards=True, activation='relu')", (2, 4, 2),
     [((2, 4, 3), 9.548504, -0.046951)], 18),
    ("L.LSTM(3, return_sequences=True, return_state=True)", (2, 4, 2),
     [((2, 4, 3), -5.883567, -0.440613), ((2, 3), -1.897082, -0.670253),
      ((2, 3), -4.063406, -1.565645)], 72),
    ("L.LSTM(2, go_backwards=True, return_state=True)", (1, 5, 3),
     [((1, 2), -0.119345, -0.098869), ((1, 2), -0.119345, -0.098869),
      ((1, 2), -0.621586, -0.517462)], 48),
    ("L.GRU(3, return_sequences=True, return_state=True)", (2, 4, 2),
     [((2, 4, 3), -5.94808, -0.133242), ((2, 3), -0.725417, -0.285661)], 63),
    ("L.GRU(3, reset_after=False, return_state=True)", (2, 4, 2),
     [((2, 3), 0.37543, 0.156084), ((2, 3), 0.37543, 0.156084)], 54),
    ("L.Bidirectional(L.LSTM(2, return_sequences=True))", (2, 3, 2),
     [((2, 3, 4), -1.445299, -0.086138)], 80),
    ("L.Bidirectional(L.GRU(2), merge_mode='sum')", (2, 3, 2),
     [((2, 2), 2.680226, 1.690977)], 72),
    ("L.Bidirectional(L.SimpleRNN(2, return_sequences=True), merge_mode='mul')", (2, 3, 2),
     [((2, 3, 2), 5.038527, 3.606122)], 20),
    ("L.Bidirectional(L.LSTM(2, return_state=True), merge_mode='ave')", (2, 3, 2),
     [((2, 2), -0.359249, -0.297229), ((2, 2), -0.310055, -0.245687),
      ((2, 2), -1.081388, -0.805828), ((2, 2), -0.408444, -0.348772),
      ((2, 2), -1.539399, -1.410649)], 80),
    ("L.RNN([L.SimpleRNNCell(3), L.GRUCell(2)], return_sequences=True)", (2, 3, 2),
     [((2, 3, 2), 3.346918, 1.016286)], 60),
    ("L.TimeDistributed(L.Dense(3, activation='tanh'))", (2, 3, 4),
     [((2, 3, 3), 7.154996, -0.011711)], 15),
    ("L.TimeDistributed(L.Conv1D(2, 2))", (2, 3, 4, 2), [((2, 3, 3, 2), 10.290869, 2.180615)],
     10),
]


@pytest.mark.parametrize("expr,shape,expected,count", TF_CASES)
def test_numbers_match_tensorflow(expr, shape, expected, count):
    layer = eval(expr)
    x = pattern(shape)
    layer(x)
    layer.set_weights([pattern(w.shape, 0.05 + 0.01 * i) for i, w in enumerate(layer.weights)])
    ys = layer(x)
    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    assert layer.count_params() == count
    assert len(ys) == len(expected)
    for y, (out_shape, total, weighted) in zip(ys, expected):
        y = y.numpy()
        assert y.shape == out_shape
        np.testing.assert_allclose([y.sum(), (y * pattern(y.shape)).sum()], [total, weighted],
                                   rtol=1e-5, atol=2e-6)
    static = layer.compute_output_shape(shape)
    static = [static] if isinstance(static, tuple) else static
    assert [tuple(s) for s in static] == [e[0] for e in expected]


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def test_lstm_matches_numpy_equations():
    lstm = L.LSTM(3, return_sequences=True)
    x = RNG.normal(size=(2, 4, 2)).astype("float32")
    y = lstm(x).numpy()
    W, U, b = (w.numpy() for w in lstm.weights)
    h = c = np.zeros((2, 3))
    for t in range(4):
        i, f, g, o = np.split(x[:, t] @ W + h @ U + b, 4, axis=-1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        np.testing.assert_allclose(y[:, t], h, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(lstm.cell.bias.numpy()[3:6], 1.0)  # unit_forget_bias


def test_gru_matches_numpy_equations():
    gru = L.GRU(2, return_sequences=True)
    x = RNG.normal(size=(1, 3, 2)).astype("float32")
    y = gru(x).numpy()
    W, U, b = (w.numpy() for w in gru.weights)
    h = np.zeros((1, 2))
    for t in range(3):
        xz, xr, xh = np.split(x[:, t] @ W + b[0], 3, axis=-1)
        hz, hr, hh = np.split(h @ U + b[1], 3, axis=-1)
        z, r = _sigmoid(xz + hz), _sigmoid(xr + hr)
        h = z * h + (1 - z) * np.tanh(xh + r * hh)
        np.testing.assert_allclose(y[:, t], h, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make,n_states", [
    (lambda: L.SimpleRNNCell(3, dtype="float64"), 1),
    (lambda: L.LSTMCell(3, dtype="float64"), 2),
    (lambda: L.GRUCell(3, dtype="float64"), 1),
    (lambda: L.GRUCell(3, reset_after=False, dtype="float64"), 1),
])
def test_cell_gradients_match_finite_differences(make, n_states):
    cell = make()
    cell(tf.zeros([2, 2], dtype=tf.float64), [tf.zeros([2, 3], dtype=tf.float64)] * n_states)

    def f(x, kernel, recurrent_kernel, bias, *states):
        for name, w in (("kernel", kernel), ("recurrent_kernel", recurrent_kernel),
                        ("bias", bias)):
            object.__setattr__(cell, name, w)
        output, new_states = cell(x, list(states))
        return tf.concat([output] + list(new_states), axis=-1)

    weights = [RNG.normal(size=w.shape) * 0.5 for w in cell.weights]
    states = [RNG.normal(size=(2, 3)) for _ in range(n_states)]
    check_grads(f, RNG.normal(size=(2, 2)), *weights, *states, rtol=1e-4)


def test_layer_gradient_through_time():
    rnn = L.SimpleRNN(2, dtype="float64")
    rnn(tf.zeros([1, 3, 2], dtype=tf.float64))
    check_grads(lambda x: rnn(x), RNG.normal(size=(1, 3, 2)), rtol=1e-4)


def test_eager_equals_tf_function_static_and_unknown_time():
    x = RNG.normal(size=(2, 5, 3)).astype("float32")
    for layer in [L.LSTM(4, return_sequences=True, go_backwards=True),
                  L.GRU(3, return_state=True), L.SimpleRNN(2)]:
        eager = layer(x)
        static = tf.function(layer)(tf.constant(x))
        unknown = tf.function(layer, input_signature=[tf.TensorSpec([None, None, 3])])(
            tf.constant(x))
        for a, b, c in zip(tf.nest.flatten(eager), tf.nest.flatten(static),
                           tf.nest.flatten(unknown)):
            np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(c.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)


def test_initial_state_and_stateful():
    lstm = L.LSTM(2, return_state=True)
    x = RNG.normal(size=(1, 4, 3)).astype("float32")
    _, h, c = lstm(x[:, :2])
    y_split, _, _ = lstm(x[:, 2:], initial_state=[h, c])
    y_whole, _, _ = lstm(x)
    np.testing.assert_allclose(y_split.numpy(), y_whole.numpy(), rtol=1e-5, atol=1e-6)

    stateful = L.GRU(2, stateful=True)
    stateful(x[:, :2])
    carried = stateful(x[:, 2:]).numpy()
    plain = L.GRU(2)
    plain(x)
    plain.set_weights(stateful.get_weights())
    np.testing.assert_allclose(carried, plain(x).numpy(), rtol=1e-5, atol=1e-6)
    stateful.reset_states()
    np.testing.assert_allclose(stateful(x[:, 2:]).numpy(), plain(x[:, 2:]).numpy(),
                               rtol=1e-5, atol=1e-6)


def test_dropout_only_in_training_with_one_mask_per_sequence():
    rnn = L.SimpleRNN(4, dropout=0.5, return_sequences=True, kernel_initializer="ones",
                      recurrent_initializer="zeros", activation=None)
    x = np.ones((1, 3, 6), dtype="float32")
    np.testing.assert_allclose(rnn(x).numpy(), np.full((1, 3, 4), 6.0))
    tf.random.set_seed(5)  # a seed that keeps 4 of the 6 inputs (3 kept would give 6.0 too)
    y = rnn(x, training=True).numpy()
    assert not np.allclose(y, 6.0)
    np.testing.assert_allclose(y[0, 0], y[0, 1])  # the same inputs dropped at every step
    np.testing.assert_allclose(y[0, 0], y[0, 2])


def test_custom_abstract_cell_and_configs():
    class Accumulate(L.AbstractRNNCell):
        state_size = 2
        output_size = 2

        def call(self, inputs, states):
            total = states[0] + inputs
            return total, [total]

    out = L.RNN(Accumulate(), return_sequences=True)(tf.ones([1, 3, 2]))
    np.testing.assert_allclose(out.numpy()[0, :, 1], [1.0, 2.0, 3.0])

    lstm = L.LSTM(3, dropout=0.1, return_sequences=True, name="l")
    config = lstm.get_config()
    assert list(config)[3:13] == [
        "return_sequences", "return_state", "go_backwards", "stateful", "unroll",
        "zero_output_for_mask", "units", "activation", "recurrent_activation", "use_bias"]
    assert config["dropout"] == 0.1 and config["unit_forget_bias"] is True
    assert L.LSTM.from_config(config).get_config() == config
    assert list(L.GRU(2).get_config())[-3:] == ["recurrent_dropout", "reset_after", "seed"]
    assert "seed" not in L.SimpleRNN(2).get_config()
    rnn = L.RNN(L.SimpleRNNCell(2))
    assert L.RNN.from_config(rnn.get_config()).cell.units == 2
    bi = L.Bidirectional(L.GRU(2, name="g"), merge_mode="sum")
    assert (bi.forward_layer.name, bi.backward_layer.name) == ("forward_g", "backward_g")
    assert bi.backward_layer.go_backwards and bi.get_config()["merge_mode"] == "sum"
    assert L.Bidirectional.from_config(bi.get_config()).merge_mode == "sum"
    td = L.TimeDistributed(L.Dense(2))
    assert L.TimeDistributed.from_config(td.get_config()).layer.units == 2


def test_functional_model_with_recurrent_layers():
    inputs = keras.Input((None, 3))
    seq = L.Bidirectional(L.LSTM(4, return_sequences=True))(inputs)
    out, _state = L.GRU(2, return_state=True)(seq)
    model = keras.Model(inputs, [L.TimeDistributed(L.Dense(1))(seq), out])
    assert [tuple(o.shape) for o in model.outputs] == [(None, None, 1), (None, 2)]
    assert model.count_params() == 2 * 4 * (3 * 4 + 4 * 4 + 4) + 3 * (8 * 2 + 2 * 2 + 2 * 2) + 9
    per_step, last = model(RNG.normal(size=(2, 5, 3)).astype("float32"))
    assert per_step.shape == (2, 5, 1) and last.shape == (2, 2)


@pytest.mark.parametrize("make,error,message", [
    (lambda: L.Bidirectional(L.GRU(3), merge_mode="x"), ValueError, "Invalid merge mode"),
    (lambda: L.Bidirectional(L.Dense(3)), ValueError, "with a `keras.layers.RNN` instance"),
    (lambda: L.TimeDistributed(L.Dense(2))(tf.zeros([2, 3])), ValueError,
     "at least 3 dimensions"),
    (lambda: L.RNN(L.Dense(3)), ValueError, "should have a `state_size` attribute"),
    (lambda: L.LSTM(0), ValueError, "expected a positive integer, got 0"),
    (lambda: L.LSTM(2)(tf.zeros([2, 3])), ValueError, "expected ndim=3, found ndim=2"),  # TF 2.21
])
def test_errors(make, error, message):
    with pytest.raises(error, match=message):
        make()


# ConvLSTM2D: input and weights from `pattern`; verified against TF 2.21.
CONV_LSTM_CASES = [
    ("L.ConvLSTM2D(2, 3, padding='same', return_sequences=True)", (2, 3, 4, 4, 1),
     [((2, 3, 4, 4, 2), -9.124701, -0.444732)], 4 * 2 * (3 * 3 * 1 + 3 * 3 * 2 + 1)),
    ("L.ConvLSTM2D(2, (2, 3), strides=2, return_state=True)", (1, 3, 5, 6, 2),
     [((1, 2, 2, 2), -0.884858, 0.039701), ((1, 2, 2, 2), -0.884858, 0.039701),
      ((1, 2, 2, 2), -3.926349, 0.790632)], 4 * 2 * (2 * 3 * 2 + 2 * 3 * 2 + 1)),
    ("L.ConvLSTM2D(1, 2, dilation_rate=2, go_backwards=True)", (1, 2, 5, 5, 1),
     [((1, 3, 3, 1), 2.609199, 0.036085)], 4 * 1 * (2 * 2 * 1 + 2 * 2 * 1 + 1)),
]


@pytest.mark.parametrize("expr,shape,expected,count", CONV_LSTM_CASES)
def test_conv_lstm2d_matches_tensorflow(expr, shape, expected, count):
    test_numbers_match_tensorflow(expr, shape, expected, count)


def test_conv_lstm2d_graph_config_and_gradients():
    layer = L.ConvLSTM2D(2, 2, padding="same", return_sequences=True)
    x = RNG.normal(size=(1, 3, 3, 3, 1)).astype("float32")
    eager = layer(x).numpy()
    unknown = tf.function(layer, input_signature=[tf.TensorSpec([None, None, 3, 3, 1])])
    np.testing.assert_allclose(unknown(tf.constant(x)).numpy(), eager, rtol=1e-5, atol=1e-6)
    config = layer.get_config()
    assert config["filters"] == 2 and config["kernel_size"] == (2, 2)
    assert L.ConvLSTM2D.from_config(config).get_config() == config
    small = L.ConvLSTM2D(1, 2, dtype="float64")
    small(tf.zeros([1, 2, 3, 3, 1], dtype=tf.float64))
    check_grads(lambda t: small(t), RNG.normal(size=(1, 2, 3, 3, 1)), rtol=1e-4)
    with pytest.raises(ValueError, match="expected ndim=5, found ndim=4"):
        layer(tf.zeros([1, 3, 3, 1]))


def test_stacked_cells_config_and_time_distributed_training_flag():
    rnn = L.RNN([L.SimpleRNNCell(3), L.LSTMCell(2)], return_sequences=True)
    rnn(tf.zeros([1, 2, 4]))
    clone = L.RNN.from_config(rnn.get_config())
    assert [type(c).__name__ for c in clone.cell.cells] == ["SimpleRNNCell", "LSTMCell"]
    assert clone.cell.state_size == [3, 2, 2] and clone.cell.output_size == 2
    td = L.TimeDistributed(L.Dropout(0.5))
    x = np.ones((2, 3, 4), "float32")
    np.testing.assert_array_equal(td(x).numpy(), x)
    dropped = td(x, training=True).numpy()
    assert set(np.unique(dropped)) <= {0.0, 2.0} and (dropped == 0).any()
