"""RandomColorJitter and Equalization: against real TF 2.21 / Keras 3.15 (one subprocess), by hand,
seeds, the training flag, config round trip, a model and Dataset.map."""
import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

L = tf.keras.layers
RNG = np.random.default_rng(1)
INTS = RNG.integers(0, 256, [2, 4, 5, 3]).astype("float32")
PEAKED = np.clip(RNG.normal(100, 20, [2, 6, 6, 3]), 0, 255).astype("float32")

CASES = [  # (layer, kwargs, images)
    ("Equalization", {}, INTS), ("Equalization", {}, PEAKED),
    ("Equalization", {"bins": 16}, PEAKED),
    ("Equalization", {"value_range": (0, 1)}, PEAKED / 255),
    ("Equalization", {"data_format": "channels_first"}, PEAKED.transpose(0, 3, 1, 2)),
    ("Equalization", {}, np.full([1, 3, 3, 2], 7.0, "float32")),
    ("RandomColorJitter", {"brightness_factor": (0.1, 0.1), "contrast_factor": 0.0,
                           "saturation_factor": (0.3, 0.3), "hue_factor": (1.0, 1.0)}, PEAKED),
    ("RandomColorJitter", {"saturation_factor": (0.8, 0.8), "value_range": (0, 1)}, PEAKED / 255),
]


@pytest.fixture(scope="module")
def real():
    require_tf()
    return run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        cases = {[(n, k, x.tolist()) for n, k, x in CASES]!r}
        outs = [np.asarray(getattr(tf.keras.layers, n)(**k)(np.array(x, "float32"))).tolist()
                for n, k, x in cases]
        configs = [tf.keras.layers.Equalization(value_range=(1, 0), bins=8).get_config(),
                   tf.keras.layers.RandomColorJitter(brightness_factor=0.2, hue_factor=(0.1, 0.3),
                                                     seed=3).get_config()]
        print(json.dumps({{"outs": outs, "configs": configs}}, default=list))
        """)


@pytest.mark.parametrize("index", range(len(CASES)))
def test_equal_keras(real, index):
    name, kwargs, images = CASES[index]
    out = getattr(L, name)(**kwargs)(images).numpy()
    np.testing.assert_allclose(out, np.array(real["outs"][index], "float32"), rtol=1e-4, atol=2e-3)


def test_configs_equal_keras(real):
    ours = [L.Equalization(value_range=(1, 0), bins=8).get_config(),
            L.RandomColorJitter(brightness_factor=0.2, hue_factor=(0.1, 0.3), seed=3).get_config()]
    for mine, theirs in zip(ours, real["configs"]):
        mine = {k: list(v) if isinstance(v, tuple) else v for k, v in mine.items()}
        assert mine == theirs


def test_equalization_by_hand_and_inference():
    two_levels = tf.constant([[[50.0], [50.0], [200.0], [200.0]]])
    np.testing.assert_array_equal(L.Equalization()(two_levels)[..., 0].numpy(), [[0, 0, 255, 255]])
    flat = tf.fill([1, 2, 2, 1], 9.0)                       # one bin: left as it was
    np.testing.assert_array_equal(L.Equalization()(flat).numpy(), flat.numpy())
    np.testing.assert_array_equal(L.Equalization()(INTS, training=False).numpy(), INTS)
    with pytest.raises(ValueError, match="value_range"):
        L.Equalization(value_range=5)


def test_jitter_random_seeded_and_in_pipelines():
    a, b = (L.RandomColorJitter(brightness_factor=0.3, contrast_factor=0.3, saturation_factor=0.4,
                                hue_factor=0.2, seed=5) for _ in range(2))
    first = a(PEAKED).numpy()
    np.testing.assert_array_equal(first, b(PEAKED).numpy())
    assert not np.allclose(first, a(PEAKED).numpy())
    assert first.min() >= 0 and first.max() <= 255
    np.testing.assert_array_equal(a(PEAKED, training=False).numpy(), PEAKED)
    inp = tf.keras.Input((6, 6, 3))
    model = tf.keras.Model(inp, L.Equalization()(L.RandomColorJitter(hue_factor=0.3)(inp)))
    np.testing.assert_array_equal(model.predict(PEAKED, verbose=0), PEAKED)   # inference: identity
    clone = tf.keras.Model.from_config(model.get_config())
    assert clone.layers[1].random_hue.factor == (0, 0.3)
    ds = tf.data.Dataset.from_tensor_slices(PEAKED).batch(2).map(L.Equalization())
    np.testing.assert_allclose(next(iter(ds)).numpy(), L.Equalization()(PEAKED).numpy())
