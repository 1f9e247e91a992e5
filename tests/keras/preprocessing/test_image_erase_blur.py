"""RandomErasing and RandomGaussianBlur: fixed cases against real TF 2.21 / Keras 3.15 (one
subprocess), rectangle statistics, probabilities, seeds, inference, config, model, Dataset.map."""
import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

L = tf.keras.layers
IMAGES = np.random.default_rng(2).uniform(0, 255, [2, 5, 6, 3]).astype("float32")

CASES = [  # deterministic: probability 1 (or 0), a whole-image rectangle, sigma ranges of one point
    ("RandomErasing", {"factor": (1.0, 1.0), "scale": (1.0, 1.0), "fill_value": 300.0}, IMAGES),
    ("RandomErasing", {"factor": (1.0, 1.0), "scale": (1.0, 1.0), "fill_value": [10, 20, 30]},
     IMAGES),
    ("RandomErasing", {"factor": (0.0, 0.0), "fill_value": 0.0}, IMAGES),
    ("RandomGaussianBlur", {"factor": (1.0, 1.0), "sigma": (0.7, 0.7)}, IMAGES),
    ("RandomGaussianBlur", {"factor": (1.0, 1.0), "kernel_size": 5, "sigma": (0.3, 0.3)}, IMAGES),
    ("RandomGaussianBlur", {"factor": (1.0, 1.0), "sigma": (1.0, 1.0),
                            "data_format": "channels_first"}, IMAGES.transpose(0, 3, 1, 2)),
    ("RandomGaussianBlur", {"factor": (0.0, 0.0)}, IMAGES),
]
ERRORS = [("RandomErasing", {"scale": 1.5}), ("RandomGaussianBlur", {"kernel_size": 4}),
          ("RandomGaussianBlur", {"sigma": (2.0, 3.0)}), ("RandomErasing", {"factor": 2.0})]


@pytest.fixture(scope="module")
def real():
    require_tf()
    return run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        cases = {[(n, k, x.tolist()) for n, k, x in CASES]!r}
        outs = [np.asarray(getattr(tf.keras.layers, n)(**k)(np.array(x, "float32"))).tolist()
                for n, k, x in cases]
        errors = []
        for name, kwargs in {ERRORS!r}:
            try:
                getattr(tf.keras.layers, name)(**kwargs)
                errors.append(None)
            except ValueError as e:
                errors.append(str(e))
        configs = [tf.keras.layers.RandomErasing(seed=2).get_config(),
                   tf.keras.layers.RandomGaussianBlur(kernel_size=(3, 5), sigma=0.4).get_config()]
        print(json.dumps({{"outs": outs, "errors": errors, "configs": configs}}, default=list))
        """)


@pytest.mark.parametrize("index", range(len(CASES)))
def test_fixed_cases_equal_keras(real, index):
    name, kwargs, images = CASES[index]
    out = getattr(L, name)(**kwargs)(images).numpy()
    np.testing.assert_allclose(out, np.array(real["outs"][index], "float32"), rtol=1e-4, atol=1e-3)


def test_errors_and_configs_equal_keras(real):
    for (name, kwargs), message in zip(ERRORS, real["errors"]):
        with pytest.raises(ValueError) as info:
            getattr(L, name)(**kwargs)
        assert str(info.value) == message
    ours = [L.RandomErasing(seed=2).get_config(),
            L.RandomGaussianBlur(kernel_size=(3, 5), sigma=0.4).get_config()]
    for mine, theirs in zip(ours, real["configs"]):
        assert {k: list(v) if isinstance(v, tuple) else v for k, v in mine.items()} == theirs


def test_erasing_rectangles_statistics_and_seeds():
    layer = L.RandomErasing((1.0, 1.0), scale=(0.25, 0.25), fill_value=0.0, seed=3)
    out = layer(np.ones([200, 8, 8, 1], "float32")).numpy()[..., 0]
    for image in out[:20]:
        rows, cols = np.nonzero(image == 0)
        assert len(rows) == (rows.max() - rows.min() + 1) * (cols.max() - cols.min() + 1)  # a box
    area = (out == 0).mean(axis=(1, 2))
    assert 0.15 < area.mean() < 0.35                  # sides of sqrt(0.25) = half the image
    half = L.RandomErasing(1.0, fill_value=0.0, seed=4)(np.ones([400, 6, 6, 1], "float32"))
    erased = (half.numpy() == 0).any(axis=(1, 2, 3)).mean()
    assert 0.35 < erased < 0.65                       # probability drawn in [0, 1]: half on average
    noise = L.RandomErasing((1.0, 1.0), scale=(1.0, 1.0), value_range=(0, 1), seed=5)
    filled = noise(np.full([1, 20, 20, 1], 0.5, "float32")).numpy()
    assert filled.min() == 0.0 and 0 < filled.max() <= 1.0 and len(np.unique(filled)) > 50
    a, b = (L.RandomErasing(seed=9) for _ in range(2))
    np.testing.assert_array_equal(a(IMAGES).numpy(), b(IMAGES).numpy())
    np.testing.assert_array_equal(a(IMAGES, training=False).numpy(), IMAGES)
    with pytest.raises(ValueError, match="fill_value"):
        L.RandomErasing((1.0, 1.0), fill_value="red")(IMAGES)


def test_blur_by_hand_and_random_sigma():
    image = np.zeros([1, 3, 3, 1], "float32")
    image[0, 1, 1, 0] = 1.0
    out = L.RandomGaussianBlur((1.0, 1.0), sigma=(1.0, 1.0))(image).numpy()[0, ..., 0]
    k = np.exp(-0.5 * np.array([1.0, 0.0, 1.0]) / (1 + 1e-6) ** 2)
    np.testing.assert_allclose(out, np.outer(k, k) / k.sum() ** 2, rtol=1e-5)
    layer = L.RandomGaussianBlur((1.0, 1.0), sigma=1.0, seed=1)
    centres = {float(layer(image * 255)[0, 1, 1, 0]) for _ in range(5)}
    assert len(centres) == 5                          # a fresh sigma each call
    np.testing.assert_array_equal(layer(IMAGES, training=False).numpy(), IMAGES)


def test_model_and_dataset_map():
    inp = tf.keras.Input((5, 6, 3))
    model = tf.keras.Model(inp, L.RandomGaussianBlur(seed=1)(L.RandomErasing(seed=2)(inp)))
    np.testing.assert_array_equal(model.predict(IMAGES, verbose=0), IMAGES)
    clone = tf.keras.Model.from_config(model.get_config())
    assert clone.layers[1].scale == (0.02, 0.33) and clone.layers[2].kernel_size == (3, 3)
    ds = tf.data.Dataset.from_tensor_slices(IMAGES).batch(2)
    blur = L.RandomGaussianBlur((1.0, 1.0), sigma=(0.5, 0.5))
    np.testing.assert_allclose(next(iter(ds.map(blur))).numpy(), blur(IMAGES).numpy(), rtol=1e-5)
    erase = L.RandomErasing((1.0, 1.0), scale=(1.0, 1.0), fill_value=1.0)
    np.testing.assert_array_equal(next(iter(ds.map(erase))).numpy(), np.ones_like(IMAGES))
