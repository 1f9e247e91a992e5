"""Layers without weights are built from the start, as in Keras 3.

Keras 3 sets `built = True` in the constructor of a layer that has no weights
(Activation, Reshape, the pooling layers, Identity, Masking, Dropout), so
`count_params()` answers 0 before the first call instead of asking to build
the layer. Layers whose weights, or checks, depend on the input's shape
(Dense, Flatten, the merge layers) are built on their first call.
"""
import pytest

import minitf as tf

from real_tf import run_tf_json

L = tf.keras.layers
# (name, constructor arguments, built right after construction in TF 2.21 / Keras 3.15)
CASES = [
    ("Activation", ("relu",), True), ("Dropout", (0.5,), True), ("Reshape", ((2,),), True),
    ("Identity", (), True), ("Masking", (), True),
    ("MaxPooling1D", (), True), ("MaxPooling2D", (), True),
    ("AveragePooling1D", (2,), True), ("AveragePooling2D", (2,), True),
    ("GlobalAveragePooling1D", (), True), ("GlobalAveragePooling2D", (), True),
    ("GlobalMaxPooling1D", (), True), ("GlobalMaxPooling2D", (), True),
    ("Flatten", (), False), ("Add", (), False), ("Concatenate", (), False),
    ("Dense", (2,), False), ("BatchNormalization", (), False), ("Conv2D", (2, 3), False),
]


@pytest.mark.parametrize("name,args,built", CASES, ids=[c[0] for c in CASES])
def test_built_after_construction(name, args, built):
    layer = getattr(L, name)(*args)
    assert layer.built is built
    if built:
        assert layer.count_params() == 0
    else:
        with pytest.raises(ValueError, match="isn't built"):
            layer.count_params()


def test_a_layer_built_at_init_still_computes():
    x = tf.constant([[[-1.0], [2.0], [3.0], [-4.0]]])          # (1, 4, 1)
    assert L.Activation("relu")(x).numpy().ravel().tolist() == [0.0, 2.0, 3.0, 0.0]
    assert L.Reshape((2, 2))(x).shape == (1, 2, 2)
    assert L.MaxPooling1D()(x).numpy().ravel().tolist() == [2.0, 3.0]
    assert L.GlobalAveragePooling1D()(x).numpy().ravel().tolist() == [0.0]
    inputs = tf.keras.Input(shape=(4, 1))
    model = tf.keras.Model(inputs, L.Activation("relu")(L.Reshape((2, 2))(inputs)))
    assert model.count_params() == 0 and model(x).shape == (1, 2, 2)


def test_built_flags_match_real_tf():
    code = ("import json, tensorflow as tf\n"
            f"cases = {[(n, a) for n, a, _ in CASES]!r}\n"
            "print(json.dumps([getattr(tf.keras.layers, n)(*a).built for n, a in cases]))")
    assert run_tf_json(code) == [built for _, _, built in CASES]
