"""RandAugment and AugMix: every op and fixed chains (explicit transformations), inference, configs,
errors and a .keras exchange against real TF 2.21 / Keras 3.15 (one subprocess); op choice
statistics, seeds, value ranges, a model fit and Dataset.map without TF."""
import json
import os

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf

L = tf.keras.layers
IMAGES = np.random.default_rng(8).uniform(0, 255, [2, 6, 7, 3]).astype("float32")
RANGES = [(0, 255), (0, 1)]
CHAINS = [  # (chains of layer names, Dirichlet weights, Beta weight)
    ([["equalization", "solarization"], ["auto_contrast"], []], [0.2, 0.3, 0.5], 0.4),
    ([["random_posterization", "random_rotation"],
      ["random_contrast", "random_sharpness", "random_brightness"],
      ["random_color_degeneration", "random_shear", "random_translation"]], [0.5, 0.25, 0.25], 0.1),
]
ERRORS = [("RandAugment", {"factor": 1.5}), ("AugMix", {"factor": (0.1, 0.2, 0.3)}),
          ("AugMix", {"factor": -0.5})]
TF_CODE = '''
import json, os, numpy as np, keras
L = keras.layers
x = np.array(IMAGES, "float32")
out = {}
for low, high in RANGES:
    images = x / 255 * high
    ops = 2 if high == 255 else 1
    policy = L.RandAugment(value_range=(low, high), factor=0.0, num_ops=ops)
    transforms = {n: getattr(policy, n).get_random_transformation(images)
                  for n in policy._AUGMENT_LAYERS}
    for idx in range(11):
        t = {"transforms": transforms,
             "layer_idxes": keras.ops.convert_to_tensor([idx, (idx + 3) % 11][:ops])}
        out[f"randaugment {high} {idx}"] = np.asarray(policy.transform_images(images, t)).tolist()
    mix = L.AugMix(value_range=(low, high), factor=0.0)
    for i, (chains, weights, sample) in enumerate(CHAINS):
        t = {"chain_mixing_weights": keras.ops.convert_to_tensor(weights),
             "weight_sample": keras.ops.convert_to_tensor(sample),
             "chain_transforms": [[{"layer_name": n, "transformation":
                                    getattr(mix, n).get_random_transformation(images)}
                                   for n in chain] for chain in chains]}
        out[f"augmix {high} {i}"] = np.asarray(mix.transform_images(images, t)).tolist()
for name in ("RandAugment", "AugMix"):
    layer = getattr(L, name)(seed=1)
    out["infer " + name] = [layer(x.astype("uint8"), training=False).dtype.name,
                            np.asarray(layer(x, training=False)).tolist()]
out["configs"] = [L.RandAugment(value_range=(0, 1), num_ops=3, factor=0.2, seed=4).get_config(),
                  L.AugMix(num_chains=2, chain_depth=4, factor=(0.1, 0.4), alpha=0.5,
                           all_ops=False, interpolation="nearest").get_config()]
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
y = L.AugMix(num_chains=4, alpha=0.3, seed=2)(L.RandAugment(num_ops=1, factor=0.8)(inp))
keras.Model(inp, y).save(os.path.join(DIR, "tf.keras"))
print(json.dumps(out))
'''


def _model():
    inp = tf.keras.Input((6, 7, 3))
    x = L.AugMix(chain_depth=2, factor=0.6, all_ops=False, seed=2)(
        L.RandAugment(num_ops=3, factor=0.4, seed=1)(inp))
    return tf.keras.Model(inp, L.Dense(2, kernel_initializer="ones")(L.Flatten()(x)))


def _plain(config):
    return {k: v for k, v in json.loads(json.dumps(config)).items() if k != "name"}


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    require_tf()
    folder = str(tmp_path_factory.mktemp("policies"))
    _model().save(os.path.join(folder, "minitf.keras"))
    code = (f"DIR, IMAGES, RANGES = {folder!r}, {IMAGES.tolist()!r}, {RANGES!r}\n"
            f"CHAINS, ERRORS = {CHAINS!r}, {ERRORS!r}\n" + TF_CODE)
    return json.loads(run_tf(code).strip().splitlines()[-1]), folder


@pytest.mark.parametrize("low, high", RANGES)
def test_every_randaugment_op_equals_keras(real, low, high):
    out, _ = real
    images = IMAGES / 255 * high
    ops = 2 if high == 255 else 1                            # (0, 1): each op alone
    policy = L.RandAugment(value_range=(low, high), factor=0.0, num_ops=ops)
    t = policy.get_random_transformation(tf.constant(images))
    for idx in range(11):
        t["layer_idxes"] = tf.constant([idx, (idx + 3) % 11][:ops])
        np.testing.assert_allclose(policy.transform_images(images, t).numpy(),
                                   out[f"randaugment {high} {idx}"], rtol=1e-4, atol=2e-3 * high,
                                   err_msg=policy._AUGMENT_LAYERS[idx])


@pytest.mark.parametrize("low, high", RANGES)
def test_fixed_augmix_chains_equal_keras(real, low, high):
    out, _ = real
    images = tf.constant(IMAGES / 255 * high)
    mix = L.AugMix(value_range=(low, high), factor=0.0)
    for i, (chains, weights, sample) in enumerate(CHAINS):
        t = {"chain_mixing_weights": tf.constant(weights), "weight_sample": tf.constant(sample),
             "chain_transforms": [[{"layer_name": n, "transformation":
                                    getattr(mix, n).get_random_transformation(images)}
                                   for n in chain] for chain in chains]}
        np.testing.assert_allclose(mix.transform_images(images, t).numpy(),
                                   out[f"augmix {high} {i}"], rtol=1e-4, atol=2e-3 * high)


def test_inference_configs_errors_equal_keras(real):
    out, _ = real
    for name in ("RandAugment", "AugMix"):
        layer = getattr(L, name)(seed=1)
        assert layer(IMAGES.astype("uint8"), training=False).dtype.name == out["infer " + name][0]
        np.testing.assert_array_equal(layer(IMAGES, training=False), out["infer " + name][1])
    ours = [L.RandAugment(value_range=(0, 1), num_ops=3, factor=0.2, seed=4).get_config(),
            L.AugMix(num_chains=2, chain_depth=4, factor=(0.1, 0.4), alpha=0.5, all_ops=False,
                     interpolation="nearest").get_config()]
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
    rand, mix = theirs.layers[1:3]
    assert (rand.num_ops, rand.factor, mix.num_chains, mix.alpha, mix.seed) == (
        1, (0, 0.8), 4, 0.3, 2)
    assert rand.random_rotation.factor == (0, 0.8) and rand.random_posterization.factor == (1, 6)
    np.testing.assert_array_equal(theirs.predict(IMAGES, verbose=0), IMAGES)


def test_randaugment_op_choice_and_seeds():
    policy = L.RandAugment(num_ops=2, seed=3)
    chosen = np.concatenate([policy.get_random_transformation(tf.constant(IMAGES))["layer_idxes"]
                             .numpy() for _ in range(150)])
    counts = np.bincount(chosen, minlength=11)
    assert len(counts) == 11 and counts.min() > 10           # each of the 11 ops is drawn
    first = L.RandAugment(seed=5)(IMAGES).numpy()
    np.testing.assert_array_equal(first, L.RandAugment(seed=5)(IMAGES).numpy())
    assert not np.array_equal(first, L.RandAugment(seed=6)(IMAGES).numpy())
    assert L.RandAugment().random_posterization.factor == (1, 4)    # max(1, int(8 * 0.5)) bits
    one = L.RandAugment(value_range=(0, 1), factor=0.9, seed=2)(IMAGES / 255).numpy()
    assert one.min() >= -1e-6 and one.max() <= 1 + 1e-6


def test_augmix_mixing_and_seeds():
    layer = L.AugMix(num_chains=4, chain_depth=2, alpha=0.5, seed=7)
    t = layer.get_random_transformation(tf.constant(IMAGES))
    weights = t["chain_mixing_weights"].numpy()
    assert weights.shape == (4,) and np.all(weights >= 0) and abs(weights.sum() - 1) < 1e-5
    assert 0 <= float(t["weight_sample"]) <= 1
    assert len(t["chain_transforms"]) == 4 and all(len(c) <= 2 for c in t["chain_transforms"])
    names = {s["layer_name"] for _ in range(20)
             for c in layer.get_random_transformation(tf.constant(IMAGES))["chain_transforms"]
             for s in c}
    assert names == set(layer._augment_layers)              # every layer gets chosen
    t["weight_sample"] = tf.constant(1.0)                     # all of the original image
    np.testing.assert_allclose(layer.transform_images(IMAGES, t).numpy(), IMAGES, rtol=1e-6)
    first = L.AugMix(seed=5)(IMAGES).numpy()
    np.testing.assert_array_equal(first, L.AugMix(seed=5)(IMAGES).numpy())
    assert first.min() >= 0 and first.max() <= 255
    assert set(L.AugMix(all_ops=False)._augment_layers).isdisjoint(
        {"random_brightness", "random_color_degeneration", "random_contrast", "random_sharpness"})


def test_fit_in_a_model_and_dataset_map():
    model = _model()
    model.compile("sgd", "mse")
    history = model.fit(IMAGES / 255, np.zeros([2, 2], "float32"), epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    dense = model.layers[-1]
    np.testing.assert_allclose(model.predict(IMAGES, verbose=0), IMAGES.reshape(2, -1)
                               @ dense.kernel.numpy() + dense.bias.numpy(), rtol=1e-4)
    ds = tf.data.Dataset.from_tensor_slices(IMAGES).batch(2)
    for layer in (L.RandAugment(seed=1), L.AugMix(seed=1)):
        batch = next(iter(ds.map(layer))).numpy()
        assert batch.shape == IMAGES.shape and np.abs(batch - IMAGES).max() > 0
        assert layer(IMAGES[0]).shape == (6, 7, 3)
