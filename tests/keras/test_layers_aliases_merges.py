"""tf.keras.layers' alias names (AvgPool1D is AveragePooling1D, Convolution2D is Conv2D, ...),
the merge layers and their functional forms (add, subtract, multiply, average, maximum,
minimum, concatenate, dot), InputLayer, InputSpec, StackedRNNCells and SpatialDropout3D --
checked by hand and against real Keras 3.15 (one TF subprocess for the file)."""
import json

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

L = tf.keras.layers

# alias -> the class it names, in tf.keras.layers of TF 2.21 (checked below against real Keras)
ALIASES = {
    "AvgPool1D": "AveragePooling1D", "AvgPool2D": "AveragePooling2D",
    "AvgPool3D": "AveragePooling3D", "Convolution1D": "Conv1D",
    "Convolution1DTranspose": "Conv1DTranspose", "Convolution2D": "Conv2D",
    "Convolution2DTranspose": "Conv2DTranspose", "Convolution3D": "Conv3D",
    "Convolution3DTranspose": "Conv3DTranspose", "GlobalAvgPool1D": "GlobalAveragePooling1D",
    "GlobalAvgPool2D": "GlobalAveragePooling2D", "GlobalAvgPool3D": "GlobalAveragePooling3D",
    "GlobalMaxPool1D": "GlobalMaxPooling1D", "GlobalMaxPool2D": "GlobalMaxPooling2D",
    "GlobalMaxPool3D": "GlobalMaxPooling3D", "GroupQueryAttention": "GroupedQueryAttention",
    "MaxPool1D": "MaxPooling1D", "MaxPool2D": "MaxPooling2D", "MaxPool3D": "MaxPooling3D",
    "SeparableConvolution1D": "SeparableConv1D", "SeparableConvolution2D": "SeparableConv2D",
}

A = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], "float32")
B = np.array([[2.0, 1.0, -3.0], [1.5, -4.0, 2.0]], "float32")
C = np.array([[0.0, 5.0, 1.0], [-2.0, 3.0, 0.5]], "float32")

MERGES = {  # functional form -> (its layer class, numpy's answer)
    "add": ("Add", A + B + C),
    "subtract": ("Subtract", A - B),
    "multiply": ("Multiply", A * B * C),
    "average": ("Average", (A + B + C) / 3),
    "maximum": ("Maximum", np.maximum(np.maximum(A, B), C)),
    "minimum": ("Minimum", np.minimum(np.minimum(A, B), C)),
    "concatenate": ("Concatenate", np.concatenate([A, B, C], axis=-1)),
    "dot": ("Dot", (A * B).sum(-1, keepdims=True)),
}


def merge_inputs(name):
    return [A, B] if name in ("subtract", "dot") else [A, B, C]


TF_SIDE = """
import json
import numpy as np
import keras
tf = keras._tf_keras  # tf.keras.layers: Keras 3's, plus tf.keras's legacy ones
L = tf.keras.layers
A, B, C = (np.asarray(v, "float32") for v in json.loads(INPUTS))
out_names = json.loads(NAMES)
out = {"aliases": {n: getattr(L, n).__name__ for n in dir(L)
                   if isinstance(getattr(L, n), type) and getattr(L, n).__name__ != n},
       "exported": [n for n in sorted(set(out_names)) if hasattr(L, n)],
       "merges": {}, "symbolic": {}}
for name in MERGES:
    args = [A, B] if name in ("subtract", "dot") else [A, B, C]
    kwargs = {"axes": -1} if name == "dot" else {}
    out["merges"][name] = np.asarray(getattr(tf.keras.layers, name)(args, **kwargs)).tolist()
    ins = [keras.Input((3,)) for _ in args]
    out["symbolic"][name] = list(getattr(tf.keras.layers, name)(ins, **kwargs).shape)
layer = tf.keras.layers.InputLayer(shape=(3,), name="x")
out["input_layer"] = {"config": layer.get_config(), "shape": list(layer.output.shape)}
model = keras.Sequential([L.InputLayer(shape=(4,), batch_size=2), L.Dense(1)])
out["input_layer_model"] = [len(model.layers), list(model.inputs[0].shape)]
specs = [L.InputSpec(ndim=3, axes={-1: 4}), L.InputSpec(shape=(None, 4), dtype="float32"),
         L.InputSpec(min_ndim=2, max_ndim=4)]
out["input_specs"] = [[repr(s), {k: (list(v) if isinstance(v, tuple) else v)
                                 for k, v in s.get_config().items()}] for s in specs]
errors = {}
try:
    L.Dense(2)(np.ones((3,), "float32"))
except Exception as e:
    errors["dense_rank"] = [type(e).__name__, str(e)]
out["errors"] = errors
cells = tf.keras.layers.StackedRNNCells([L.SimpleRNNCell(2), L.SimpleRNNCell(3)])
rnn = L.RNN(cells)
y = rnn(np.ones((2, 4, 5), "float32"))
out["stacked"] = {"shape": list(y.shape), "weights": [[w.path.split("/", 1)[1], list(w.shape)]
                                                      for w in rnn.weights],
                  "state_size": list(cells.state_size), "output_size": cells.output_size}
print(json.dumps(out, default=str))
"""


@pytest.fixture(scope="module")
def keras():
    code = f"INPUTS = {json.dumps(json.dumps([A.tolist(), B.tolist(), C.tolist()]))}\n" \
           f"MERGES = {sorted(MERGES)!r}\n" \
           f"NAMES = {json.dumps(json.dumps(sorted(set(ALIASES) | set(ALIASES.values()))))}\n" \
           + TF_SIDE
    return run_tf_json(code)


def test_alias_table_is_tf_kerass(keras):
    assert keras["aliases"] == ALIASES
    names = sorted(set(ALIASES) | set(ALIASES.values()))
    assert keras["exported"] == [n for n in names if hasattr(tf.keras.layers, n)]


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_alias_is_the_same_class(alias):
    cls = getattr(tf.keras.layers, alias)
    assert cls.__name__ == ALIASES[alias]
    if alias != "GroupQueryAttention":  # the one whose class name tf.keras does not export
        assert cls is getattr(tf.keras.layers, ALIASES[alias])
    else:
        assert not hasattr(tf.keras.layers, "GroupedQueryAttention")


@pytest.mark.parametrize("alias", ["AvgPool2D", "Convolution2D", "MaxPool1D", "GlobalMaxPool3D",
                                   "SeparableConvolution2D", "Convolution1DTranspose"])
def test_an_alias_serializes_under_the_class_name(alias):
    kwargs = {"filters": 2, "kernel_size": 1} if "Conv" in alias else \
        {"pool_size": 2} if alias == "AvgPool2D" else {}  # Keras 3: AveragePooling2D has none
    config = L.serialize(getattr(tf.keras.layers, alias)(**kwargs))
    assert config["class_name"] == ALIASES[alias]
    assert type(L.deserialize(config)) is getattr(tf.keras.layers, alias)


@pytest.mark.parametrize("name", sorted(MERGES))
def test_functional_merges_compute_like_numpy_and_keras(keras, name):
    layer_class, expected = MERGES[name]
    kwargs = {"axes": -1} if name == "dot" else {}
    got = getattr(tf.keras.layers, name)(merge_inputs(name), **kwargs)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(got.numpy(), keras["merges"][name], rtol=1e-6)
    layer = getattr(tf.keras.layers, layer_class)(**kwargs)  # the class gives the same numbers
    np.testing.assert_allclose(layer(merge_inputs(name)).numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("name", sorted(MERGES))
def test_functional_merges_in_a_model(keras, name):
    kwargs = {"axes": -1} if name == "dot" else {}
    ins = [tf.keras.Input((3,)) for _ in merge_inputs(name)]
    out = getattr(tf.keras.layers, name)(ins, **kwargs)
    assert list(out.shape) == keras["symbolic"][name]
    model = tf.keras.Model(ins, out)
    np.testing.assert_allclose(model(merge_inputs(name)).numpy(), MERGES[name][1], rtol=1e-6)


def test_merge_gradients():
    a, b = tf.constant(A), tf.constant(B)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        prod = tf.reduce_sum(L.multiply([a, b]))
        high = tf.reduce_sum(L.maximum([a, b]))
        diff = tf.reduce_sum(L.subtract([a, b]))
    np.testing.assert_allclose(tape.gradient(prod, a).numpy(), B)
    np.testing.assert_allclose(tape.gradient(high, a).numpy(), (A > B).astype("float32"))
    np.testing.assert_allclose(tape.gradient(diff, b).numpy(), -np.ones_like(B))


def test_merge_errors():
    with pytest.raises(ValueError, match="exactly 2 inputs"):
        L.subtract([A, B, C])
    with pytest.raises(ValueError, match="incompatible shapes"):
        L.add([tf.keras.Input((3,)), tf.keras.Input((4,))])
    with pytest.raises(ValueError, match="matching shapes except for the concatenation axis"):
        L.concatenate([tf.keras.Input((3, 2)), tf.keras.Input((4, 3))], axis=1)


def test_input_layer_matches_keras(keras):
    layer = tf.keras.layers.InputLayer(shape=(3,), name="x")
    theirs = keras["input_layer"]
    config = json.loads(json.dumps(layer.get_config()))
    assert config == json.loads(json.dumps(theirs["config"]))
    assert list(layer.output.shape) == theirs["shape"]
    model = tf.keras.Sequential([tf.keras.layers.InputLayer(shape=(4,), batch_size=2),
                                 L.Dense(1)])
    assert [len(model.layers), list(model.inputs[0].shape)] == keras["input_layer_model"]
    assert model(np.ones((2, 4), "float32")).shape == (2, 1)


def test_input_spec_matches_keras(keras):
    specs = [tf.keras.layers.InputSpec(ndim=3, axes={-1: 4}),
             tf.keras.layers.InputSpec(shape=(None, 4), dtype="float32"),
             tf.keras.layers.InputSpec(min_ndim=2, max_ndim=4)]
    for spec, (text, config) in zip(specs, keras["input_specs"]):
        assert repr(spec) == text
        mine = {k: (list(v) if isinstance(v, tuple) else v) for k, v in spec.get_config().items()}
        assert json.loads(json.dumps(mine)) == json.loads(json.dumps(config))


def test_input_spec_is_checked_on_call(keras):
    class Pairs(L.Layer):
        def __init__(self):
            super().__init__()
            self.input_spec = tf.keras.layers.InputSpec(ndim=2, axes={-1: 2})

        def call(self, x):
            return x

    assert Pairs()(np.ones((3, 2), "float32")).shape == (3, 2)
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 2"):
        Pairs()(np.ones((3, 4), "float32"))
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=3"):
        Pairs()(np.ones((3, 4, 2), "float32"))
    name, message = keras["errors"]["dense_rank"]
    with pytest.raises(ValueError) as raised:
        L.Dense(2)(np.ones((3,), "float32"))
    assert name == "ValueError" and "expected min_ndim=2, found ndim=1" in message
    assert "expected min_ndim=2, found ndim=1" in str(raised.value)


def test_stacked_rnn_cells_match_keras(keras):
    cells = tf.keras.layers.StackedRNNCells([L.SimpleRNNCell(2), L.SimpleRNNCell(3)])
    rnn = L.RNN(cells)
    y = rnn(np.ones((2, 4, 5), "float32"))
    theirs = keras["stacked"]
    assert list(y.shape) == theirs["shape"]
    assert [[w.path.split("/", 1)[1], list(w.shape)] for w in rnn.weights] == \
        theirs["weights"]  # stacked_rnn_cells/simple_rnn_cell/kernel, ... as in Keras
    assert list(cells.state_size) == theirs["state_size"]
    assert cells.output_size == theirs["output_size"]


def test_spatial_dropout_3d_drops_whole_channels():
    layer = tf.keras.layers.SpatialDropout3D(0.5, seed=1)
    x = tf.ones([4, 2, 3, 2, 6])
    np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
    y = layer(x, training=True).numpy()
    per_channel = y.reshape(4, -1, 6)
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert (per_channel.min(axis=1) == per_channel.max(axis=1)).all()  # one choice per map
    first = tf.keras.layers.SpatialDropout3D(0.5, data_format="channels_first", seed=2)
    y = first(tf.ones([3, 6, 2, 2, 2]), training=True).numpy().reshape(3, 6, -1)
    assert (y.min(axis=2) == y.max(axis=2)).all()
