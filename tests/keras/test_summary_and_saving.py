"""model.summary() text (verified character for character against TF 2.21 / Keras 3 at
the default 80-column terminal) and save_weights/load_weights."""
import os

import numpy as np
import pytest

import minitf as tf

keras = tf.keras

SEQUENTIAL = '''Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense (Dense)                   │ (None, 4)              │            16 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ batch_normalization             │ (None, 4)              │            16 │
│ (BatchNormalization)            │                        │               │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dropout (Dropout)               │ (None, 4)              │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense_1 (Dense)                 │ (None, 2)              │            10 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 42 (168.00 B)
 Trainable params: 34 (136.00 B)
 Non-trainable params: 8 (32.00 B)
'''

FUNCTIONAL = '''Model: "functional_1"
┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃
┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩
│ x (InputLayer)      │ (None, 8)         │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ dense_2 (Dense)     │ (None, 8)         │         72 │ x[0][0]           │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ y (InputLayer)      │ (None, 8)         │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ add (Add)           │ (None, 8)         │          0 │ dense_2[0][0],    │
│                     │                   │            │ y[0][0]           │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ o1 (Dense)          │ (None, 1)         │          9 │ add[0][0]         │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ o2 (Dense)          │ (None, 2)         │         18 │ add[0][0]         │
└─────────────────────┴───────────────────┴────────────┴───────────────────┘
 Total params: 99 (396.00 B)
 Trainable params: 99 (396.00 B)
 Non-trainable params: 0 (0.00 B)
'''

UNBUILT = '''Model: "sequential_1"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense_3 (Dense)                 │ ?                      │   0 (unbuilt) │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 0 (0.00 B)
 Trainable params: 0 (0.00 B)
 Non-trainable params: 0 (0.00 B)
'''


@pytest.fixture
def terminal_80(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    keras.backend.clear_session()


def _summary(model):
    lines = []
    model.summary(print_fn=lines.append)
    return "".join(lines)


def test_summary_text_matches_tensorflow(terminal_80):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.Dropout(0.5),
                              keras.layers.Dense(2)])
    assert _summary(model) == SEQUENTIAL
    x, y = keras.Input((8,), name="x"), keras.Input((8,), name="y")
    s = keras.layers.Add()([keras.layers.Dense(8)(x), y])
    functional = keras.Model([x, y], [keras.layers.Dense(1, name="o1")(s),
                                      keras.layers.Dense(2, name="o2")(s)])
    assert _summary(functional) == FUNCTIONAL
    assert _summary(keras.Sequential([keras.layers.Dense(2)])) == UNBUILT


def test_summary_prints_and_shows_deferred_build_shapes(terminal_80, capsys):
    model = keras.Sequential([keras.layers.Dense(2), keras.layers.Dense(1)])
    model(tf.ones([3, 4]))
    model.summary()
    out = capsys.readouterr().out
    assert "│ dense (Dense)                   │ (3, 2)                 │            10 │" in out
    assert out.endswith(" Non-trainable params: 0 (0.00 B)\n")


def test_summary_long_words_are_cut_with_an_ellipsis(terminal_80):
    # verified against TF 2.21: "input_layer_1[0][0]" does not fit its 17 columns
    trunk = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
    inp = keras.Input((3,))
    features = trunk(inp)
    model = keras.Model(inp, [keras.layers.Dense(1)(features), keras.layers.Dense(2)(features)])
    assert "│ input_layer_1[0]… │" in _summary(model)


def test_save_and_load_weights_round_trip(tmp_path):
    def make():
        return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                                 keras.layers.BatchNormalization(), keras.layers.Dense(1)])

    model, clone = make(), make()
    model.layers[1](tf.constant(np.arange(12.0).reshape(3, 4)), training=True)  # moving stats
    path = os.fspath(tmp_path / "model.weights.h5")
    model.save_weights(path)
    clone.load_weights(path)
    for a, b in zip(model.get_weights(), clone.get_weights()):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(model(np.ones((2, 3))).numpy(), clone(np.ones((2, 3))).numpy())
    h5py = pytest.importorskip("h5py")
    with h5py.File(path) as f:  # Keras 3's layout: plain arrays, no pickle
        assert f["layers/batch_normalization/vars/2"].shape == (4,)  # moving_mean
        assert len(f["layers/batch_normalization/vars"]) == 4


def test_weight_file_errors(tmp_path):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match=r"must end in `.weights.h5`. Received"):
        model.save_weights(os.fspath(tmp_path / "m.weights.npz"))
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        model.save_weights(os.fspath(tmp_path / "m.txt"))
    path = os.fspath(tmp_path / "m.weights.h5")
    model.save_weights(path)
    other = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="must match. variable.shape=\\(3, 2\\)"):
        other.load_weights(path)
    bigger = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="'dense_.*' expected 2 variables, but received 0"):
        bigger.load_weights(path)
    with pytest.raises(FileExistsError):
        model.save_weights(path, overwrite=False)
