"""RandomPerspective and RandomElasticTransform: explicit warps, fixed cases, configs, errors and a
.keras exchange against real TF 2.21 / Keras 3.15 (one subprocess); random ranges, seeds,
inference, a model fit and Dataset.map (batch of unknown size) without TF."""
import json
import os

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf

L = tf.keras.layers
IMAGES = np.random.default_rng(5).uniform(-20, 280, [2, 6, 7, 3]).astype("float32")
START = [[[0.0, 0.0], [6.0, 0.0], [0.0, 5.0], [6.0, 5.0]]] * 2
END = [[[0.5, -0.3], [5.2, 0.4], [0.8, 4.1], [6.9, 5.6]], [[0.0, 1.0], [6.0, 0.0], [-1.0, 5.0],
                                                           [5.0, 4.0]]]
WARPS = [({}, [True, True]), ({"interpolation": "nearest"}, [True, False]),
         ({"fill_value": 7.0}, [False, True]), ({"data_format": "channels_first"}, [True, True])]
FIXED = [("RandomPerspective", {"factor": 0.0}), ("RandomPerspective", {"scale": 0.0, "factor": (1.0, 1.0)}),
         ("RandomElasticTransform", {"scale": 0.0}), ("RandomElasticTransform", {"factor": 0.0}),
         ("RandomElasticTransform", {"factor": (0.0, 1e-9), "value_range": (0, 100)})]
ERRORS = [("RandomPerspective", {"scale": 1.5}), ("RandomPerspective", {"factor": 1.5}),
          ("RandomPerspective", {"interpolation": "bicubic"}),
          ("RandomElasticTransform", {"scale": 2}), ("RandomElasticTransform", {"scale": (0.1,)}),
          ("RandomElasticTransform", {"interpolation": "lanczos3"})]
TF_CODE = '''
import json, os, numpy as np, keras
L = keras.layers
x = np.array(IMAGES, "float32")
out = {}
for i, (kwargs, apply) in enumerate(WARPS):
    layer = L.RandomPerspective(**kwargs)
    images = x.transpose(0, 3, 1, 2) if kwargs.get("data_format") else x
    t = {"apply_perspective": keras.ops.convert_to_tensor(apply),
         "start_points": keras.ops.convert_to_tensor(np.array(START, "float32")),
         "end_points": keras.ops.convert_to_tensor(np.array(END, "float32")),
         "input_shape": images.shape}
    out[f"warp {i}"] = np.asarray(layer.transform_images(images, t)).tolist()
for i, (name, kwargs) in enumerate(FIXED):
    out[f"fixed {i}"] = np.asarray(getattr(L, name)(**kwargs)(x)).tolist()
for name in ("RandomPerspective", "RandomElasticTransform"):
    out["infer " + name] = [getattr(L, name)()(x.astype("uint8"), training=False).dtype.name,
                            getattr(L, name)()(x, training=False).dtype.name]
out["configs"] = [L.RandomPerspective(0.4, scale=0.3, interpolation="nearest", fill_value=2.0,
                                      seed=1).get_config(),
                  L.RandomElasticTransform((0.2, 0.6), scale=0.5, fill_mode="wrap",
                                           value_range=(0, 1)).get_config()]
errors = {}
for name, kwargs in ERRORS:
    try:
        getattr(L, name)(**kwargs)
        errors[name + str(kwargs)] = None
    except Exception as e:
        errors[name + str(kwargs)] = [type(e).__name__, str(e)]
out["errors"] = errors
mine = keras.models.load_model(os.path.join(DIR, "minitf.keras"))
out["mine"] = [[type(l).__name__, l.get_config()] for l in mine.layers[1:3]]
out["mine predict"] = mine.predict(x, verbose=0).tolist()
inp = keras.Input((6, 7, 3))
y = L.RandomElasticTransform(0.7, scale=(0.1, 0.3), interpolation="nearest", seed=3)(inp)
keras.Model(inp, L.RandomPerspective(0.6, scale=0.25)(y)).save(os.path.join(DIR, "tf.keras"))
print(json.dumps(out))
'''


def _model():
    inp = tf.keras.Input((6, 7, 3))
    x = L.RandomElasticTransform((0.5, 0.9), scale=0.4, fill_mode="nearest", seed=2)(inp)
    x = L.RandomPerspective(0.8, scale=0.5, fill_value=1.0, seed=1)(x)
    return tf.keras.Model(inp, L.Dense(2, kernel_initializer="ones")(L.Flatten()(x)))


def _plain(config):
    return {k: v for k, v in json.loads(json.dumps(config)).items() if k != "name"}


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    require_tf()
    folder = str(tmp_path_factory.mktemp("warp"))
    _model().save(os.path.join(folder, "minitf.keras"))
    code = (f"DIR, IMAGES, START, END = {folder!r}, {IMAGES.tolist()!r}, {START!r}, {END!r}\n"
            f"WARPS, FIXED, ERRORS = {WARPS!r}, {FIXED!r}, {ERRORS!r}\n" + TF_CODE)
    return json.loads(run_tf(code).strip().splitlines()[-1]), folder


@pytest.mark.parametrize("index", range(len(WARPS)))
def test_explicit_perspective_warps_equal_keras(real, index):
    out, _ = real
    kwargs, apply = WARPS[index]
    images = IMAGES.transpose(0, 3, 1, 2) if kwargs.get("data_format") else IMAGES
    t = {"apply_perspective": tf.constant(apply), "start_points": tf.constant(START),
         "end_points": tf.constant(END)}
    result = L.RandomPerspective(**kwargs).transform_images(images, t).numpy()
    np.testing.assert_allclose(result, out[f"warp {index}"], rtol=1e-4, atol=2e-3)


def test_fixed_cases_inference_configs_errors_equal_keras(real):
    out, _ = real
    for i, (name, kwargs) in enumerate(FIXED):
        np.testing.assert_allclose(getattr(L, name)(**kwargs)(IMAGES).numpy(), out[f"fixed {i}"],
                                   rtol=1e-6, err_msg=name + str(kwargs))
    for name in ("RandomPerspective", "RandomElasticTransform"):
        assert [getattr(L, name)()(IMAGES.astype("uint8"), training=False).dtype.name,
                getattr(L, name)()(IMAGES, training=False).dtype.name] == out["infer " + name]
    ours = [L.RandomPerspective(0.4, scale=0.3, interpolation="nearest", fill_value=2.0,
                                seed=1).get_config(),
            L.RandomElasticTransform((0.2, 0.6), scale=0.5, fill_mode="wrap",
                                     value_range=(0, 1)).get_config()]
    assert [_plain(c) for c in ours] == [_plain(c) for c in out["configs"]]
    for name, kwargs in ERRORS:
        with pytest.raises(Exception) as info:
            getattr(L, name)(**kwargs)
        assert [type(info.value).__name__, str(info.value)] == out["errors"][name + str(kwargs)]


def test_keras_files_move_both_ways(real):
    out, folder = real
    mine = _model()
    assert [[n, _plain(c)] for n, c in out["mine"]] == [
        [type(layer).__name__, _plain(layer.get_config())] for layer in mine.layers[1:3]]
    mine.load_weights(os.path.join(folder, "minitf.keras"))
    np.testing.assert_allclose(out["mine predict"], mine.predict(IMAGES, verbose=0), rtol=1e-5)
    theirs = tf.keras.models.load_model(os.path.join(folder, "tf.keras"))
    elastic, perspective = theirs.layers[1:3]
    assert (elastic.scale, elastic.interpolation, elastic.seed, perspective.factor,
            perspective.scale) == ((0.1, 0.3), "nearest", 3, (0, 0.6), 0.25)
    np.testing.assert_array_equal(theirs.predict(IMAGES, verbose=0), IMAGES)


def test_perspective_corners_probabilities_and_seeds():
    layer = L.RandomPerspective(scale=0.4, seed=3)
    t = layer.get_random_transformation(tf.zeros([500, 6, 7, 1]))
    start, end = t["start_points"].numpy(), t["end_points"].numpy()
    np.testing.assert_array_equal(start[0], [[0, 0], [6, 0], [0, 5], [6, 5]])
    moved = (end - start)[start != 0] / start[start != 0]
    assert -0.2 <= moved.min() < -0.18 and 0.18 < moved.max() <= 0.2   # within +-scale/2
    assert 0.4 < t["apply_perspective"].numpy().mean() < 0.6           # p ~ U(0, 1): half
    always = L.RandomPerspective((1.0, 1.0), seed=1)(IMAGES).numpy()
    assert np.all(np.abs(always - IMAGES).max(axis=(1, 2, 3)) > 1)
    again = L.RandomPerspective((1.0, 1.0), seed=1)(IMAGES).numpy()
    np.testing.assert_array_equal(always, again)
    np.testing.assert_array_equal(L.RandomPerspective(seed=1)(IMAGES, training=False), IMAGES)
    assert L.RandomPerspective((1.0, 1.0), seed=1)(IMAGES[0]).shape == (6, 7, 3)


def test_elastic_field_grows_with_scale_and_repeats_with_seed():
    ramp = np.tile(np.linspace(0, 255, 32, dtype="float32"), [4, 32, 1])[..., None]
    moves, roughness = [], []
    for scale in (0.1, 0.5, 1.0):   # sigma = 0.16, 0.8 (1-tap kernel: raw noise), 1.6 (7 taps)
        layer = L.RandomElasticTransform((1.0, 1.0), scale=(scale, scale), seed=4)
        moved = (layer(ramp).numpy() - ramp)[:, 2:-2, 2:-2, 0]
        moves.append(np.abs(moved).mean())
        roughness.append(np.abs(np.diff(moved, axis=1)).mean() / moves[-1])
    assert moves[0] < 0.1 * moves[1] and moves[0] < 0.1 * moves[2]
    assert roughness[2] < 0.6 * roughness[1]            # the blurred field is smooth
    layer = L.RandomElasticTransform((1.0, 1.0), seed=6, value_range=(0, 200))
    t = layer.get_random_transformation(tf.constant(ramp))
    first = layer.transform_images(ramp, t).numpy()
    np.testing.assert_array_equal(first, layer.transform_images(ramp, t).numpy())  # seed kept
    assert first.min() >= 0 and first.max() <= 200                  # clipped to value_range
    a = L.RandomElasticTransform((1.0, 1.0), seed=9)(ramp).numpy()
    b = L.RandomElasticTransform((1.0, 1.0), seed=9, data_format="channels_first")(
        ramp.transpose(0, 3, 1, 2)).numpy()
    np.testing.assert_allclose(b.transpose(0, 2, 3, 1), a, rtol=1e-5, atol=1e-3)
    np.testing.assert_array_equal(L.RandomElasticTransform(seed=1)(ramp, training=False), ramp)


def test_ones_of_bool_with_a_graph_only_shape():
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def ones(x):
        return tf.ones_like(x, dtype=tf.bool), tf.ones(tf.shape(x), tf.bool)
    assert all(np.all(t.numpy()) and t.dtype == tf.bool for t in ones(tf.zeros([3, 2])))


def test_fit_in_a_model_and_dataset_map():
    model = _model()
    model.compile("sgd", "mse")
    history = model.fit(IMAGES / 255, np.zeros([2, 2], "float32"), epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    dense = model.layers[-1]
    np.testing.assert_allclose(model.predict(IMAGES, verbose=0), IMAGES.reshape(2, -1)
                               @ dense.kernel.numpy() + dense.bias.numpy(), rtol=1e-4)
    ds = tf.data.Dataset.from_tensor_slices(np.clip(IMAGES, 0, 255)).batch(2)
    for layer in (L.RandomElasticTransform((1.0, 1.0), seed=1),
                  L.RandomPerspective((1.0, 1.0), seed=1)):
        batch = next(iter(ds.map(layer))).numpy()
        assert batch.shape == IMAGES.shape and np.abs(batch - np.clip(IMAGES, 0, 255)).max() > 1
