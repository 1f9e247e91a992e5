"""RandomHeight, RandomWidth, RandomHue, RandomSaturation, RandomSharpness: fixed factors against
real TF 2.21 / Keras 3.15 (one subprocess), by hand, statistics, seeds, training flag, config,
models and Dataset.map."""
import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

L = tf.keras.layers
RNG = np.random.default_rng(0)
IMAGES = RNG.uniform(0, 255, [2, 4, 5, 3]).astype("float32")

# (layer, kwargs, input of 2x4x5x3 in [0,255] or [0,1]) - deterministic: the factor range is one point
CASES = [
    ("RandomHue", {"factor": (1.0, 1.0)}, 255), ("RandomHue", {"factor": (0.0, 0.0)}, 255),
    ("RandomHue", {"factor": (1.0, 1.0), "value_range": (0, 1)}, 1),
    ("RandomSaturation", {"factor": (0.2, 0.2)}, 255), ("RandomSaturation", {"factor": (0.5, 0.5)}, 255),
    ("RandomSaturation", {"factor": (0.9, 0.9), "value_range": (0, 1)}, 1),
    ("RandomSharpness", {"factor": (0.0, 0.0)}, 255), ("RandomSharpness", {"factor": (0.3, 0.3)}, 255),
    ("RandomSharpness", {"factor": (1.0, 1.0)}, 255),
    ("RandomSharpness", {"factor": (0.8, 0.8), "data_format": "channels_first"}, 255),
    ("RandomHeight", {"factor": (0.5, 0.5)}, 255), ("RandomWidth", {"factor": (-0.4, -0.4)}, 255),
    ("RandomWidth", {"factor": (0.5, 0.5), "interpolation": "nearest"}, 255),
]


def _input(case):
    name, kwargs, scale = case
    images = IMAGES / 255.0 * scale
    if kwargs.get("data_format") == "channels_first":
        images = images.transpose(0, 3, 1, 2)
    return images.astype("float32")


@pytest.fixture(scope="module")
def real():
    require_tf()
    inputs = [_input(case).tolist() for case in CASES]
    return run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        cases, inputs = {[(n, k) for n, k, _ in CASES]!r}, {inputs!r}
        outs = []
        for (name, kwargs), x in zip(cases, inputs):
            layer = getattr(tf.keras.layers, name)(**kwargs)
            outs.append(np.asarray(layer(np.array(x, "float32"))).tolist())
        configs = {{n: getattr(tf.keras.layers, n)(0.3, seed=4).get_config() for n in
                   ["RandomHue", "RandomSaturation", "RandomSharpness", "RandomHeight", "RandomWidth"]}}
        errors = []
        for name, factor in [("RandomHue", 1.5), ("RandomSaturation", 1.1), ("RandomHeight", (0.5, 0.1)),
                             ("RandomWidth", -1.5)]:
            try:
                getattr(tf.keras.layers, name)(factor)
                errors.append(None)
            except Exception as e:
                errors.append(type(e).__name__)
        print(json.dumps({{"outs": outs, "configs": configs, "errors": errors}}, default=list))
        """)


@pytest.mark.parametrize("index", range(len(CASES)))
def test_fixed_factors_equal_keras(real, index):
    name, kwargs, _ = CASES[index]
    out = getattr(L, name)(**kwargs)(_input(CASES[index])).numpy()
    expected = np.array(real["outs"][index], "float32")
    assert out.shape == expected.shape
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-3)


def test_configs_and_errors_equal_keras(real):
    for name, config in real["configs"].items():
        ours = getattr(L, name)(0.3, seed=4).get_config()
        assert {k: list(v) if isinstance(v, tuple) else v for k, v in ours.items()} == \
            {k: v for k, v in config.items()}, name
    for (name, factor), error in zip([("RandomHue", 1.5), ("RandomSaturation", 1.1),
                                      ("RandomHeight", (0.5, 0.1)), ("RandomWidth", -1.5)],
                                     real["errors"]):
        with pytest.raises(ValueError, match="factor"):
            getattr(L, name)(factor)
        assert error == "ValueError"


def test_by_hand_hue_saturation_sharpness():
    red = tf.constant([[[255.0, 0.0, 0.0]]])
    np.testing.assert_allclose(L.RandomHue((1.0, 1.0))(red).numpy(), [[[0, 255, 255]]], atol=1e-3)
    np.testing.assert_allclose(L.RandomSaturation((0.0, 0.0))(red).numpy(), [[[255, 255, 255]]])
    flat = tf.fill([1, 3, 3, 1], 13.0)                                  # blur with zeros outside
    np.testing.assert_allclose(L.RandomSharpness((0.0, 0.0))(flat)[0, ..., 0].numpy(),
                               [[8, 10, 8], [10, 13, 10], [8, 10, 8]], rtol=1e-6)
    np.testing.assert_allclose(L.RandomSharpness((0.5, 0.5))(flat).numpy(), flat.numpy())


def test_random_draws_ranges_seeds_and_inference():
    x = tf.constant(IMAGES)
    for layer_type in (L.RandomHue, L.RandomSaturation, L.RandomSharpness):
        a, b = layer_type(0.8, seed=7), layer_type(0.8, seed=7)
        np.testing.assert_array_equal(a(x).numpy(), b(x).numpy())     # same seed, same draws
        assert not np.allclose(a(x).numpy(), a(x).numpy())             # fresh draws each call
        np.testing.assert_array_equal(a(x, training=False).numpy(), IMAGES)
    assert L.RandomSaturation(0.3).factor == (-0.3, 0.3) and L.RandomSharpness(0.3).factor == (0, 0.3)
    hue = L.RandomHue(0.6, seed=1).get_random_transformation(tf.ones([2000, 1, 1, 3])).numpy()
    assert np.abs(hue).max() <= 0.3 and hue.min() < -0.25 and hue.max() > 0.25
    height = L.RandomHeight(0.5, seed=3)
    sizes = {height(tf.ones([1, 10, 4, 1])).shape[1] for _ in range(40)}
    assert min(sizes) >= 5 and max(sizes) <= 15 and len(sizes) > 4
    assert L.RandomWidth(0.5)(tf.ones([4, 7, 3]), training=False).shape == (4, 7, 3)


def test_in_model_and_dataset_map():
    inp = tf.keras.Input((4, 5, 3))
    out = L.RandomWidth(0.4, seed=2)(L.RandomHue(0.2, seed=1)(L.RandomSharpness(0.3)(inp)))
    model = tf.keras.Model(inp, out)
    assert model.output_shape == (None, 4, None, 3)
    np.testing.assert_allclose(model.predict(IMAGES, verbose=0), IMAGES, rtol=1e-6)   # identity
    restored = tf.keras.Model.from_config(model.get_config())
    assert [type(l).__name__ for l in restored.layers][1:] == [
        "RandomSharpness", "RandomHue", "RandomWidth"]
    ds = tf.data.Dataset.from_tensor_slices(IMAGES).batch(2)
    for layer in (L.RandomHeight((0.5, 0.5)), L.RandomSaturation((0.2, 0.2)), L.RandomHue(0.3)):
        batch = next(iter(ds.map(layer)))
        assert batch.shape[0] == 2 and batch.shape[-1] == 3
    assert next(iter(ds.map(L.RandomHeight((0.5, 0.5))))).shape == (2, 6, 5, 3)
