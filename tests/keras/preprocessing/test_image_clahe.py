"""ContrastLimitedAdaptiveHistogramEqualization: values, dtypes, configs and a .keras exchange
against real TF 2.21 / Keras 3.15 (one subprocess); by-hand cases, a model fit and Dataset.map
without TF."""
import json
import os

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf

CLAHE = tf.keras.layers.ContrastLimitedAdaptiveHistogramEqualization
RNG = np.random.default_rng(0)
CASES = [  # (images, dtype, kwargs): padding, grids, clip limits, value ranges, layouts, one image
    (RNG.integers(0, 256, [2, 7, 9, 3]).tolist(), "uint8", {"tile_grid_size": (2, 3)}),
    (RNG.uniform(0, 1, [1, 8, 8, 1]).tolist(), "float32",
     {"value_range": (0, 1), "tile_grid_size": (4, 4), "clip_limit": 2.0}),
    (np.arange(0, 64, 4).reshape(1, 4, 4, 1).tolist(), "float32", {"tile_grid_size": (1, 1)}),
    (RNG.uniform(0, 255, [2, 3, 5, 6]).tolist(), "float32",
     {"data_format": "channels_first", "tile_grid_size": (2, 2), "clip_limit": 0}),
    (RNG.uniform(0, 255, [6, 6, 2]).tolist(), "float64", {"tile_grid_size": (3, 2)}),
    (RNG.uniform(-30, 300, [1, 5, 5, 1]).tolist(), "float32", {"tile_grid_size": (2, 2)}),
    (np.full([1, 4, 4, 1], 9.0).tolist(), "float32", {"tile_grid_size": (2, 2)}),
]
TF_CODE = '''
import json, os, numpy as np, keras
C = keras.layers.ContrastLimitedAdaptiveHistogramEqualization
out = {"values": [], "dtypes": []}
for images, dtype, kwargs in CASES:
    layer = C(**kwargs)
    x = np.array(images, dtype)
    result = layer(x)
    out["values"].append(np.asarray(result, "float64").tolist())
    out["dtypes"].append([result.dtype.name, layer(x, training=False).dtype.name])
    out["inference same"] = bool(np.array_equal(np.asarray(layer(x, training=False)), result))
out["configs"] = [C().get_config(), C(value_range=(0, 1), clip_limit=2.5, tile_grid_size=(2, 4),
                                       data_format="channels_first").get_config()]
mine = keras.models.load_model(os.path.join(DIR, "minitf.keras"))
x = np.array(CASES[0][0], "float32")[:, :6, :6]
out["mine"] = [mine.layers[1].get_config(), mine.predict(x, verbose=0).tolist()]
inp = keras.Input((6, 6, 3))
keras.Model(inp, C(clip_limit=3.0, tile_grid_size=(3, 2))(inp)).save(os.path.join(DIR, "tf.keras"))
out["theirs"] = keras.models.load_model(os.path.join(DIR, "tf.keras")).predict(x, verbose=0).tolist()
print(json.dumps(out))
'''


def _model():
    inp = tf.keras.Input((6, 6, 3))
    return tf.keras.Model(inp, CLAHE(clip_limit=2.0, tile_grid_size=(2, 3))(inp))


def _plain(config):
    return {k: v for k, v in json.loads(json.dumps(config)).items() if k != "name"}


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    require_tf()
    folder = str(tmp_path_factory.mktemp("clahe"))
    _model().save(os.path.join(folder, "minitf.keras"))
    code = f"DIR, CASES = {folder!r}, {CASES!r}\n" + TF_CODE
    return json.loads(run_tf(code).strip().splitlines()[-1]), folder


@pytest.mark.parametrize("index", range(len(CASES)))
def test_values_and_dtypes_equal_keras(real, index):
    out, _ = real
    images, dtype, kwargs = CASES[index]
    layer = CLAHE(**kwargs)
    x = np.array(images, dtype)
    result = layer(x)
    np.testing.assert_allclose(result.numpy(), out["values"][index], rtol=1e-5, atol=1e-3)
    assert [result.dtype.name, layer(x, training=False).dtype.name] == out["dtypes"][index]
    np.testing.assert_array_equal(layer(x, training=False).numpy(), result.numpy())  # always on


def test_configs_and_keras_files_equal_keras(real):
    out, folder = real
    ours = [CLAHE().get_config(), CLAHE(value_range=(0, 1), clip_limit=2.5, tile_grid_size=(2, 4),
                                        data_format="channels_first").get_config()]
    assert [_plain(c) for c in ours] == [_plain(c) for c in out["configs"]]
    x = np.array(CASES[0][0], "float32")[:, :6, :6]
    assert _plain(out["mine"][0]) == _plain(_model().layers[1].get_config())
    np.testing.assert_allclose(out["mine"][1], _model().predict(x, verbose=0), rtol=1e-5)
    theirs = tf.keras.models.load_model(os.path.join(folder, "tf.keras"))
    layer = theirs.layers[1]
    assert (layer.clip_limit, tuple(layer.tile_grid_size)) == (3.0, (3, 2))
    np.testing.assert_allclose(theirs.predict(x, verbose=0), out["theirs"], rtol=1e-5, atol=1e-3)


def test_one_tile_without_clipping_is_histogram_equalization():
    values = np.array([10, 10, 10, 50, 50, 90, 200, 200, 200], "float32").reshape(1, 3, 3, 1)
    out = CLAHE(clip_limit=0, tile_grid_size=(1, 1))(values).numpy().ravel()
    cdf = {10: 3, 50: 5, 90: 6, 200: 9}                      # counts at or below each value
    expected = [cdf[v] * 255 / 9 for v in values.ravel()]    # cdf_min is bin 0's count: 0
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    flat = np.full([1, 4, 4, 2], 7.0, "float32")
    assert np.all(CLAHE(clip_limit=0, tile_grid_size=(2, 2))(flat).numpy() == 255)  # top of CDF
    clipped = CLAHE(tile_grid_size=(2, 2))(flat).numpy()     # the full bin 7 is cut to
    limit = 4.0 * 4 / 256                                    # clip_limit * pixels / 256,
    spread = (4 - limit) / 256                               # the excess spread over all bins
    cdf_7, cdf_min = 8 * spread + limit, spread              # cdf_min: bin 0
    np.testing.assert_allclose(clipped, (cdf_7 - cdf_min) * 255 / (4 - cdf_min), rtol=1e-5)


def test_clipping_limits_the_contrast_gain():
    ramp = np.linspace(100, 140, 64, dtype="float32").reshape(1, 8, 8, 1)
    spread = [np.ptp(CLAHE(clip_limit=c, tile_grid_size=(1, 1))(ramp).numpy())
              for c in (1.0, 4.0, 0)]
    assert spread[0] < spread[1] < spread[2]                 # clip_limit 0: no clipping at all


def test_fit_in_a_model_and_dataset_map():
    inp = tf.keras.Input((6, 6, 3))
    x = CLAHE(tile_grid_size=(2, 2), value_range=(0, 1))(inp)
    model = tf.keras.Model(inp, tf.keras.layers.Dense(1)(tf.keras.layers.Flatten()(x)))
    model.compile("sgd", "mse")
    images = RNG.uniform(0, 1, [4, 6, 6, 3]).astype("float32")
    history = model.fit(images, np.zeros([4, 1], "float32"), epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    layer = CLAHE(tile_grid_size=(3, 3))
    mapped = next(iter(tf.data.Dataset.from_tensor_slices(images * 255).batch(4).map(layer)))
    np.testing.assert_allclose(mapped.numpy(), layer(images * 255).numpy(), rtol=1e-5)
    clone = CLAHE.from_config(CLAHE(clip_limit=1.5, tile_grid_size=(4, 2)).get_config())
    assert (clone.clip_limit, tuple(clone.tile_grid_size)) == (1.5, (4, 2))
