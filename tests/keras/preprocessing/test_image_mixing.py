"""MixUp and CutMix: explicit transformations, configs, dtypes, errors and a .keras exchange
against real TF 2.21 / Keras 3.15 (one subprocess); weights, rectangles, seeds, labels, inference,
a model fit and Dataset.map without TF."""
import json
import os

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf

L = tf.keras.layers
IMAGES = np.random.default_rng(3).uniform(0, 255, [3, 4, 5, 2]).astype("float32")
LABELS = np.eye(3, dtype="float32")[[0, 2, 1]]
MIX = {"mix_weight": [0.9, 0.25, 0.5], "permutation_order": [2, 0, 1]}
BOXES = [([0, 1, 2], [3, 5, 5], [1, 0, 2], [3, 4, 3]), ([0, 0, 0], [5, 5, 5], [0, 0, 0], [4, 4, 4]),
         ([1.5, 0, 4], [2.5, 0, 5], [0.5, 1, 3], [2.2, 1, 4])]   # x0, x1, y0, y1 per image
TF_CODE = '''
import json, os, numpy as np, tensorflow as tf, keras
L = keras.layers
x, y = np.array(IMAGES, "float32"), np.array(LABELS, "float32")
mix = {k: keras.ops.convert_to_tensor(v) for k, v in MIX.items()}
out = {}
for fmt, images in (("channels_last", x), ("channels_first", x.transpose(0, 3, 1, 2))):
    m = L.MixUp(data_format=fmt)
    out["mixup images " + fmt] = np.asarray(m.transform_images(images, mix)).tolist()
    c = L.CutMix(data_format=fmt)
    for i, (x0, x1, y0, y1) in enumerate(BOXES):
        corners = [keras.ops.convert_to_tensor(np.array(v, "float32")) for v in (x0, x1, y0, y1)]
        masks, weight = c._generate_batch_mask(images.shape, corners)
        t = {"permutation_order": keras.ops.convert_to_tensor(MIX["permutation_order"]),
             "batch_masks": masks, "mix_weight": weight}
        out[f"cutmix images {fmt} {i}"] = np.asarray(c.transform_images(images, t)).tolist()
        out[f"cutmix labels {fmt} {i}"] = np.asarray(c.transform_labels(y, t)).tolist()
out["mixup labels"] = np.asarray(L.MixUp().transform_labels(y, mix)).tolist()
try:
    L.MixUp().transform_labels(keras.ops.convert_to_tensor(np.array([[1, 0], [0, 1], [1, 1]], "int32")), mix)
except Exception as e:
    out["mixup labels int"] = [type(e).__name__, str(e)]
x8 = x.astype("uint8")
for name in ("MixUp", "CutMix"):
    layer = getattr(L, name)(seed=1)
    out["infer " + name] = [layer(x8, training=False).dtype.name,
                            np.array_equal(np.asarray(layer(x8, training=False)), x8),
                            layer(x8).dtype.name, layer(x).dtype.name]
    d = layer({"images": x, "labels": y}, training=False)
    out["infer dict " + name] = [np.asarray(d["images"]).tolist(), np.asarray(d["labels"]).tolist()]
    out["single " + name] = list(layer(x[0]).shape)
out["configs"] = [L.MixUp(alpha=0.4, seed=3).get_config(), L.CutMix(factor=(0.2, 0.6)).get_config(),
                  L.CutMix(0.3, data_format="channels_first").get_config()]
errors = {}
for name, kwargs in ERRORS:
    try:
        getattr(L, name)(**kwargs)
        errors[name + str(kwargs)] = None
    except Exception as e:
        errors[name + str(kwargs)] = [type(e).__name__, str(e)]
out["errors"] = errors
mine = keras.models.load_model(os.path.join(DIR, "minitf.keras"))
out["mine"] = [[type(l).__name__, l.get_config()] for l in mine.layers]
out["mine predict"] = mine.predict(x, verbose=0).tolist()
inp = keras.Input((4, 5, 2))
model = keras.Model(inp, L.Flatten()(L.CutMix(factor=(0.1, 0.4), seed=5)(L.MixUp(alpha=0.7)(inp))))
model.save(os.path.join(DIR, "tf.keras"))
print(json.dumps(out))
'''
ERRORS = [("CutMix", {"factor": 2.0}), ("CutMix", {"factor": (0.1, 0.2, 0.3)}),
          ("CutMix", {"factor": "big"}), ("MixUp", {"factor": 0.5})]


def _model():
    inp = tf.keras.Input((4, 5, 2))
    x = L.CutMix(factor=(0.3, 0.8), seed=2)(L.MixUp(alpha=0.5, seed=1)(inp))
    return tf.keras.Model(inp, L.Dense(2, kernel_initializer="ones")(L.Flatten()(x)))


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    require_tf()
    folder = str(tmp_path_factory.mktemp("mixing"))
    _model().save(os.path.join(folder, "minitf.keras"))
    code = (f"DIR, IMAGES, LABELS = {folder!r}, {IMAGES.tolist()!r}, {LABELS.tolist()!r}\n"
            f"MIX, BOXES, ERRORS = {MIX!r}, {BOXES!r}, {ERRORS!r}\n" + TF_CODE)
    return json.loads(run_tf(code).strip().splitlines()[-1]), folder


def _listed(config):
    return json.loads(json.dumps(config))


@pytest.mark.parametrize("fmt", ["channels_last", "channels_first"])
def test_explicit_transformations_equal_keras(real, fmt):
    out, _ = real
    images = IMAGES if fmt == "channels_last" else IMAGES.transpose(0, 3, 1, 2)
    mix = {k: tf.constant(v) for k, v in MIX.items()}
    np.testing.assert_allclose(L.MixUp(data_format=fmt).transform_images(images, mix),
                               out["mixup images " + fmt], rtol=1e-6)
    cut = L.CutMix(data_format=fmt)
    for i, (x0, x1, y0, y1) in enumerate(BOXES):
        t = cut.box_transformation(tf.constant(images), *(np.array(v, "float32")
                                                          for v in (x0, x1, y0, y1)),
                                   MIX["permutation_order"])
        np.testing.assert_array_equal(cut.transform_images(images, t),
                                      out[f"cutmix images {fmt} {i}"])
        np.testing.assert_allclose(cut.transform_labels(LABELS, t),
                                   out[f"cutmix labels {fmt} {i}"], rtol=1e-6)


def test_labels_inference_configs_errors_equal_keras(real):
    out, _ = real
    mix = {k: tf.constant(v) for k, v in MIX.items()}
    np.testing.assert_allclose(L.MixUp().transform_labels(LABELS, mix), out["mixup labels"],
                               rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:   # one-hot labels are floats
        L.MixUp().transform_labels(tf.constant([[1, 0], [0, 1], [1, 1]]), mix)
    assert out["mixup labels int"][0] == "InvalidArgumentError"
    assert str(info.value).startswith(out["mixup labels int"][1].split(" [Op")[0])
    x8 = IMAGES.astype("uint8")
    for name in ("MixUp", "CutMix"):
        layer = getattr(L, name)(seed=1)
        infer = layer(x8, training=False)
        assert [infer.dtype.name, np.array_equal(infer.numpy(), x8), layer(x8).dtype.name,
                layer(IMAGES).dtype.name] == out["infer " + name]
        d = layer({"images": IMAGES, "labels": LABELS}, training=False)
        np.testing.assert_array_equal(d["images"], out["infer dict " + name][0])
        np.testing.assert_array_equal(d["labels"], out["infer dict " + name][1])
        assert list(layer(IMAGES[0]).shape) == out["single " + name]
    ours = [L.MixUp(alpha=0.4, seed=3).get_config(), L.CutMix(factor=(0.2, 0.6)).get_config(),
            L.CutMix(0.3, data_format="channels_first").get_config()]
    for mine, theirs in zip(ours, out["configs"]):
        mine, theirs = _listed(mine), dict(theirs)
        assert {k: v for k, v in mine.items() if k != "name"} == {
            k: v for k, v in theirs.items() if k != "name"}
    for name, kwargs in ERRORS:
        expected = out["errors"][name + str(kwargs)]
        if expected is None:                                  # MixUp takes (and ignores) factor
            assert getattr(L, name)(**kwargs).factor == (0.5 * -1, 0.5)
            continue
        with pytest.raises(Exception) as info:
            getattr(L, name)(**kwargs)
        assert [type(info.value).__name__, str(info.value)] == expected


def test_keras_files_move_both_ways(real):
    out, folder = real
    mine = _model()
    assert [[n, _listed({k: v for k, v in c.items() if k != "name"})] for n, c in out["mine"]][1:3] \
        == [[type(layer).__name__, _listed({k: v for k, v in layer.get_config().items()
                                            if k != "name"})] for layer in mine.layers[1:3]]
    mine.load_weights(os.path.join(folder, "minitf.keras"))
    np.testing.assert_allclose(out["mine predict"], mine.predict(IMAGES, verbose=0), rtol=1e-6)
    theirs = tf.keras.models.load_model(os.path.join(folder, "tf.keras"))
    mixup, cutmix = theirs.layers[1:3]
    assert (type(mixup).__name__, mixup.alpha, cutmix.factor, cutmix.seed) == (
        "MixUp", 0.7, (0.1, 0.4), 5)
    np.testing.assert_array_equal(theirs.predict(IMAGES, verbose=0), IMAGES.reshape(3, -1))


def test_mixup_weights_statistics_and_seeds():
    images = np.arange(400, dtype="float32").reshape(400, 1, 1, 1)
    labels = np.eye(400, dtype="float32")
    layer = L.MixUp(alpha=0.2, seed=7)
    t = layer.get_random_transformation(tf.constant(images))
    weight, order = t["mix_weight"].numpy(), t["permutation_order"].numpy()
    assert sorted(order.tolist()) == list(range(400)) and order.tolist() != list(range(400))
    # Beta(0.2, 0.2) has mean 1/2 and piles up near 0 and 1
    assert abs(weight.mean() - 0.5) < 0.08 and ((weight < 0.1) | (weight > 0.9)).mean() > 0.5
    np.testing.assert_allclose(layer.transform_images(images, t).numpy()[:, 0, 0, 0],
                               weight * np.arange(400) + (1 - weight) * order, rtol=1e-5)
    mixed = layer.transform_labels(labels, t).numpy()
    np.testing.assert_allclose(mixed[np.arange(400), np.arange(400)],
                               np.where(order == np.arange(400), 1, weight), rtol=1e-5)
    np.testing.assert_allclose(mixed.sum(axis=1), 1.0, rtol=1e-5)
    first = L.MixUp(alpha=0.2, seed=7)({"images": images, "labels": labels})
    again = L.MixUp(alpha=0.2, seed=7)({"images": images, "labels": labels})
    np.testing.assert_array_equal(again["labels"], first["labels"])
    np.testing.assert_array_equal(again["images"], first["images"])
    wide = L.MixUp(alpha=5.0, seed=7).get_random_transformation(tf.constant(images))
    assert np.abs(wide["mix_weight"].numpy() - 0.5).mean() < 0.2   # peaked at 1/2


def test_cutmix_rectangles_and_label_weights():
    images = np.concatenate([np.zeros([1, 8, 8, 1]), np.ones([1, 8, 8, 1])]).astype("float32")
    images = np.tile(images, [100, 1, 1, 1])
    labels = np.tile(np.eye(2, dtype="float32"), [100, 1])
    out = L.CutMix(seed=3)({"images": images, "labels": labels})
    pasted = out["images"].numpy()[..., 0] != images[..., 0]
    for i in range(40):
        rows, cols = np.nonzero(pasted[i])
        if len(rows):                                         # a rectangle, never two pieces
            assert len(rows) == (np.ptp(rows) + 1) * (np.ptp(cols) + 1)
    own = np.where(labels == 1, out["labels"].numpy(), 0).sum(axis=1)
    swapped = out["images"].numpy().reshape(200, -1) != images.reshape(200, -1)
    kept = 1 - swapped.mean(axis=1)
    partner_same = kept == 1                                  # pasted from an equal image
    assert np.all(own[~partner_same] <= kept[~partner_same] + 0.2)
    np.testing.assert_allclose(out["labels"].numpy().sum(axis=1), 1.0, rtol=1e-5)
    assert 0.05 < (1 - kept).mean() < 0.6
    same = L.CutMix(seed=3)({"images": images, "labels": labels})
    np.testing.assert_array_equal(same["images"], out["images"])
    assert not np.array_equal(L.CutMix(seed=4)(images).numpy(), out["images"].numpy())
    with pytest.raises(NotImplementedError, match="bounding boxes"):
        L.CutMix()({"images": images, "bounding_boxes": {}})


def test_fit_in_a_model_and_dataset_map():
    model = _model()
    model.compile("sgd", "mse")
    history = model.fit(IMAGES / 255, np.ones([3, 2], "float32"), epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    dense = model.layers[-1]                                  # inference: mixing is off
    np.testing.assert_allclose(model.predict(IMAGES, verbose=0), IMAGES.reshape(3, -1)
                               @ dense.kernel.numpy() + dense.bias.numpy(), rtol=1e-4)
    clone = tf.keras.Model.from_config(model.get_config())
    assert clone.layers[1].alpha == 0.5 and clone.layers[2].factor == (0.3, 0.8)
    ds = tf.data.Dataset.from_tensor_slices({"images": IMAGES, "labels": LABELS}).batch(2)
    for layer in (L.MixUp(seed=1), L.CutMix(seed=1)):
        batches = list(ds.map(layer))
        assert [b["images"].shape[0] for b in batches] == [2, 1]
        for b in batches:
            np.testing.assert_allclose(b["labels"].numpy().sum(axis=1), 1.0, rtol=1e-5)
