"""keras.utils.FeatureSpace: encodings worked out by hand, use in Dataset.map and in a model
that trains, save/load, and the same vectors and files as real TF 2.21 (Keras 3.15)."""
import json
import os
import tempfile

import numpy as np
import pytest

import minitf as tf
from minitf.ops.hash_ops import fingerprint64
from tests.real_tf import run_tf_json

FS = tf.keras.utils.FeatureSpace
RAW = {"f": [0.0, 0.1, 0.2, 0.3], "s": ["zero", "one", "two", "one"], "i": [0, 1, 2, 3],
       "g": [1., 2., 3., 4.]}


def _space(**kwargs):
    space = FS(features={"f": "float_normalized", "s": "string_categorical",
                         "i": "integer_categorical", "g": "float"},
               crosses=[("s", "i")], crossing_dim=4, **kwargs)
    space.adapt(tf.data.Dataset.from_tensor_slices(RAW))
    return space


def test_concat_puts_features_in_name_order_then_crosses():
    out = _space()(RAW).numpy()
    assert out.shape == (4, 1 + 1 + 5 + 4 + 4)  # f, g, i one-hot (OOV + 4), s (OOV + 3), cross
    f = np.array(RAW["f"])
    np.testing.assert_allclose(out[:, 0], (f - f.mean()) / f.std(), rtol=1e-5)
    np.testing.assert_array_equal(out[:, 1], RAW["g"])
    # IntegerLookup orders its vocabulary by count, ties in reverse order: [-1 (OOV), 3, 2, 1, 0]
    np.testing.assert_array_equal(out[:, 2:7], [[0, 0, 0, 0, 1], [0, 0, 0, 1, 0],
                                                [0, 0, 1, 0, 0], [0, 1, 0, 0, 0]])
    # StringLookup: "one" twice first, then "zero", "two" in reverse order: [UNK, one, zero, two]
    np.testing.assert_array_equal(out[:, 7:11], [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1],
                                                 [0, 1, 0, 0]])
    assert out[:, 11:].sum(axis=1).tolist() == [1, 1, 1, 1]  # one crossed bin per row


def test_dict_mode_and_the_other_feature_kinds():
    space = FS(features={"r": FS.float_rescaled(scale=2.), "h": FS.string_hashed(num_bins=3),
                         "n": FS.integer_hashed(4, output_mode="int"),
                         "d": FS.float_discretized(num_bins=2)}, output_mode="dict")
    data = {"r": [1., 2.], "h": ["a", "b"], "n": [5, 6], "d": [1., 3.]}
    space.adapt(tf.data.Dataset.from_tensor_slices(data).batch(2))
    out = space(data)
    assert sorted(out) == ["d", "h", "n", "r"]
    np.testing.assert_array_equal(out["r"].numpy(), [[2.], [4.]])
    assert out["n"].dtype == tf.int64
    assert out["n"].numpy().ravel().tolist() == [fingerprint64(b"5") % 4, fingerprint64(b"6") % 4]
    np.testing.assert_array_equal(out["h"].numpy().argmax(-1),
                                  [fingerprint64(b"a") % 3, fingerprint64(b"b") % 3])
    assert space.preprocessors["d"].bin_boundaries == [1.0]  # the median of [1, 3]
    np.testing.assert_array_equal(out["d"].numpy(), [[0, 1], [0, 1]])


def test_a_single_example_and_dataset_map():
    space = _space()
    assert space({k: v[0] for k, v in RAW.items()}).shape == (15,)
    batched = tf.data.Dataset.from_tensor_slices(RAW).batch(2).map(space)
    assert batched.element_spec.shape.as_list() == [None, 15]
    np.testing.assert_allclose(np.concatenate([b.numpy() for b in batched]), space(RAW).numpy())
    single = tf.data.Dataset.from_tensor_slices(RAW).map(space)
    assert single.element_spec.shape.as_list() == [15]
    labeled = tf.data.Dataset.from_tensor_slices((RAW, [0, 1, 0, 1])).batch(4)
    x, y = next(iter(labeled.map(lambda x, y: (space(x), y))))
    assert x.shape == (4, 15) and y.numpy().tolist() == [0, 1, 0, 1]


def test_a_model_on_the_encoded_features_trains_and_saves():
    space = _space()
    inputs, encoded = space.get_inputs(), space.get_encoded_features()
    assert sorted(inputs) == ["f", "g", "i", "s"] and encoded.shape == (None, 15)
    assert inputs["s"].dtype == tf.string and inputs["i"].dtype == tf.int32
    tf.keras.utils.set_random_seed(0)
    head = tf.keras.layers.Dense(1, activation="sigmoid")(encoded)
    model = tf.keras.Model(inputs, head)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="binary_crossentropy")
    x = {k: np.array(v)[:, None] for k, v in RAW.items()}
    y = np.array([[0.], [1.], [0.], [1.]])
    history = model.fit(x, y, epochs=30, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    path = os.path.join(tempfile.mkdtemp(), "m.keras")
    model.save(path)
    np.testing.assert_allclose(tf.keras.models.load_model(path)(x).numpy(), model(x).numpy(),
                               rtol=1e-6)


def test_feature_space_save_and_load():
    space = _space()
    path = os.path.join(tempfile.mkdtemp(), "space.keras")
    space.save(path)
    loaded = tf.keras.models.load_model(path)
    assert isinstance(loaded, FS)
    np.testing.assert_allclose(loaded(RAW).numpy(), space(RAW).numpy())
    again = FS.from_config(space.get_config())
    assert again.crosses[0].name == "s_X_i" and again.features["s"].output_mode == "one_hot"


def test_errors_as_keras():
    with pytest.raises(ValueError, match="call `.adapt"):
        FS(features={"f": "float_normalized"})({"f": [1.]})
    with pytest.raises(ValueError, match="cannot be None or empty"):
        FS(features={})
    with pytest.raises(ValueError, match="Invalid feature type: foo"):
        FS(features={"f": "foo"})
    with pytest.raises(ValueError, match="Expected one of {'dict', 'concat'}"):
        FS(features={"f": "float"}, output_mode="x")
    with pytest.raises(ValueError, match="Received unknown features"):
        FS(features={"f": "float"}, crosses=[("f", "g")])
    with pytest.raises(ValueError, match="can only be called with a dict"):
        FS(features={"f": "float"})([1.])
    with pytest.raises(ValueError, match="Cannot concatenate features because feature 'i'"):
        FS(features={"i": FS.integer_categorical(output_mode="int")}).adapt({"i": [1, 2]})
    with pytest.raises(ValueError, match="should return an integer dtype"):
        FS(features={"f": FS.feature("float32", tf.keras.layers.Rescaling(1.), "one_hot")},
           output_mode="dict")({"f": [1.]})


def test_nothing_to_adapt_needs_no_adapt():
    space = FS(features={"f": "float", "h": FS.string_hashed(2)})
    out = space({"f": [1., 2.], "h": ["a", "a"]})
    assert out.shape == (2, 3)


REAL_TF = """
import json, os, numpy as np, tensorflow as tf
FS = tf.keras.utils.FeatureSpace
raw = {"f": [0.0, 0.1, 0.2, 0.3], "s": ["zero", "one", "two", "one"], "i": [0, 1, 2, 3],
       "g": [1., 2., 3., 4.]}
folder = FOLDER
space = FS(features={"f": "float_normalized", "s": "string_categorical",
                     "i": "integer_categorical", "g": "float"}, crosses=[("s", "i")],
           crossing_dim=4)
space.adapt(tf.data.Dataset.from_tensor_slices(raw))
out = {"concat": space(raw).numpy().tolist(),
       "single": space({k: v[0] for k, v in raw.items()}).numpy().tolist()}
d = FS(features={"r": FS.float_rescaled(scale=2.), "h": FS.string_hashed(num_bins=3),
                 "n": FS.integer_hashed(4, output_mode="int"), "d": FS.float_discretized(num_bins=2)},
       output_mode="dict")
data = {"r": [1., 2.], "h": ["a", "b"], "n": [5, 6], "d": [1., 3.]}
d.adapt(tf.data.Dataset.from_tensor_slices(data).batch(2))
out["dict"] = {k: [v.numpy().tolist(), v.dtype.name] for k, v in d(data).items()}
out["config"] = json.loads(json.dumps(space.get_config()))
mine = tf.keras.models.load_model(os.path.join(folder, "mine.keras"))
out["mine"] = mine(raw).numpy().tolist()
space.save(os.path.join(folder, "theirs.keras"))
print(json.dumps(out))
"""


def test_same_as_real_tf_and_files_both_ways():
    folder = tempfile.mkdtemp()
    space = _space()
    space.save(os.path.join(folder, "mine.keras"))
    real = run_tf_json(REAL_TF.replace("FOLDER", repr(folder)))
    np.testing.assert_allclose(space(RAW).numpy(), real["concat"], rtol=1e-5)
    np.testing.assert_allclose(space({k: v[0] for k, v in RAW.items()}).numpy(), real["single"],
                               rtol=1e-5)
    np.testing.assert_allclose(real["mine"], real["concat"], rtol=1e-5)
    d = FS(features={"r": FS.float_rescaled(scale=2.), "h": FS.string_hashed(num_bins=3),
                     "n": FS.integer_hashed(4, output_mode="int"),
                     "d": FS.float_discretized(num_bins=2)}, output_mode="dict")
    data = {"r": [1., 2.], "h": ["a", "b"], "n": [5, 6], "d": [1., 3.]}
    d.adapt(tf.data.Dataset.from_tensor_slices(data).batch(2))
    assert {k: [v.numpy().tolist(), v.dtype.name] for k, v in d(data).items()} == real["dict"]
    config = json.loads(json.dumps(space.get_config()))
    assert config["crosses"] == real["config"]["crosses"]
    assert sorted(config["features"]) == sorted(real["config"]["features"])
    theirs = tf.keras.models.load_model(os.path.join(folder, "theirs.keras"))
    np.testing.assert_allclose(theirs(RAW).numpy(), real["concat"], rtol=1e-5)
