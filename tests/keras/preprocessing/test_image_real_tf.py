"""Keras 3's image layers and affine_transform against real TF 2.21 (Keras 3.15).

One snippet runs under both (with `tf` and `affine` bound to either side), in ONE
TF subprocess: the deterministic parts - affine_transform on fixed transforms,
augmentation with zero-width factor ranges, identity at inference, output shapes
and dtypes, Resizing/CenterCrop/RandomCrop values, configs, errors - and the
bounds of random brightness/contrast. `.keras` files move both ways. The random
draws themselves differ (minitf's generator is not Keras's SeedGenerator).
"""
import json
import os
import textwrap

import numpy as np
import pytest

import minitf
from minitf.image.affine_transform import affine_transform
from real_tf import run_tf_json

CASES = textwrap.dedent('''
    import numpy as np
    L = tf.keras.layers
    rng = np.random.RandomState(0)
    images = rng.uniform(0, 255, size=(2, 5, 7, 2)).astype("float32")
    small = np.arange(2 * 4 * 6 * 1, dtype="float32").reshape(2, 4, 6, 1)
    results = {}

    def T(values):
        return np.array(values, "float32")

    def plain(x):
        return np.asarray(x).tolist()

    transforms = [[0.8, -0.6, 3.1, 0.6, 0.8, -1.4, 0, 0], [1.7, 0, -2.3, 0, 0.6, 0.9, 0, 0],
                  [1, 0.4, -13.5, 0.2, 1, 9.2, 0, 0], [0.9, 0.1, 0.5, -0.1, 1.1, 0.3, 0.02, -0.03],
                  [1, 0, 0.5, 0, 1, -0.5, 0, 0], [-1, 0, 40.2, 0, -1, -30.7, 0, 0]]
    for i, t in enumerate(transforms):
        for fill in ["constant", "nearest", "wrap", "reflect"]:
            for interp in ["nearest", "bilinear"]:
                results[f"affine {i} {fill} {interp}"] = plain(affine(images, T([t]), interp, fill, 7.0))
    results["affine uint8"] = plain(affine(images.astype("uint8"), T(transforms[:2]), "bilinear",
                                           "reflect", 3))
    results["affine single"] = plain(affine(images[0], T(transforms[0]), "bilinear", "wrap"))
    results["affine channels_first"] = plain(affine(images.transpose(0, 3, 1, 2), T([transforms[2]]),
                                                    "bilinear", "nearest", 0, "channels_first"))

    fixed = {
        "rotation": L.RandomRotation((0.1, 0.1), interpolation="nearest"),
        "rotation bilinear constant": L.RandomRotation((-0.3, -0.3), fill_mode="constant",
                                                       fill_value=5.0),
        "zoom": L.RandomZoom((0.3, 0.3), (-0.2, -0.2)),
        "zoom keep aspect": L.RandomZoom((-0.4, -0.4), fill_mode="wrap"),
        "translation": L.RandomTranslation((0.2, 0.2), (-0.25, -0.25), fill_mode="nearest"),
        "translation cf": L.RandomTranslation((0.25, 0.25), (0.5, 0.5), fill_mode="constant",
                                              data_format="channels_first"),
        "contrast": L.RandomContrast((-0.3, 0.3)),
        "brightness": L.RandomBrightness((0.1, 0.1)),
        "brightness clip": L.RandomBrightness((-0.9, -0.9), value_range=(10, 100)),
        "resize": L.Resizing(3, 4),
        "resize nearest": L.Resizing(7, 5, interpolation="nearest"),
        "resize bicubic crop": L.Resizing(3, 3, interpolation="bicubic", crop_to_aspect_ratio=True),
        "resize area pad": L.Resizing(6, 3, interpolation="area", pad_to_aspect_ratio=True,
                                      fill_value=1.5),
        "resize antialias": L.Resizing(2, 3, antialias=True),
        "center crop": L.CenterCrop(3, 4),
        "center crop up": L.CenterCrop(6, 6),
        "random crop small": L.RandomCrop(5, 6, seed=9),
        "invert": L.RandomInvert((1.0, 1.0), value_range=(0, 50)),
        "invert never": L.RandomInvert((0.0, 0.0)),
        "solarization": L.Solarization(),
        "solarization range": L.Solarization(value_range=(0, 47)),
    }
    for name, layer in fixed.items():
        x = small.transpose(0, 3, 1, 2) if name.endswith(" cf") else small
        results["fixed " + name] = plain(layer(x))
        results["single " + name] = plain(layer(x[0], training=True))
        results["infer " + name] = plain(layer(x, training=False))
        results["config " + name] = {k: v for k, v in layer.get_config().items() if k != "name"}
    colour = rng.uniform(0, 255, size=(2, 3, 4, 3)).astype("float32")
    results["fixed grayscale"] = plain(L.RandomGrayscale(1.0)(colour))
    results["fixed grayscale cf"] = plain(L.RandomGrayscale(1.0, data_format="channels_first")(
        colour.transpose(0, 3, 1, 2)))
    results["fixed grayscale uint8"] = plain(L.RandomGrayscale(1.0)(colour.astype("uint8")))
    pipe = L.Pipeline([L.RandomBrightness((0.1, 0.1)), L.Rescaling(1 / 255), L.CenterCrop(2, 2)])
    results["fixed pipeline"] = plain(pipe(small))
    results["infer pipeline"] = plain(pipe(small, training=False))
    results["config pipeline"] = [sorted(pipe.get_config()),
                                  [c["class_name"] for c in pipe.get_config()["layers"]],
                                  [type(l).__name__ for l in L.Pipeline.from_config(
                                      pipe.get_config()).layers]]
    results["fixed autocontrast"] = plain(L.AutoContrast()(colour))
    results["fixed autocontrast range"] = plain(L.AutoContrast(value_range=(0, 1))(colour / 300.0))
    results["infer autocontrast flat"] = plain(L.AutoContrast()(np.full((1, 2, 2, 1), 9.0),
                                                                 training=False))
    results["config autocontrast"] = {k: v for k, v in L.AutoContrast().get_config().items()
                                      if k != "name"}
    shear = L.RandomShear(x_factor=(0.5, 0.5), y_factor=(0.25, 0.25), seed=1)
    results["config shear"] = {k: v for k, v in shear.get_config().items() if k != "name"}
    many = np.tile(small, (16, 1, 1, 1))
    sheared = np.asarray(shear(many))
    errors = [np.abs(sheared - np.asarray(affine(many, T([1, sx, 0, sy, 1, 0, 0, 0]), "bilinear",
                                                  "reflect"))).max(axis=(1, 2, 3))
              for sx, sy in [(0.5, 0.25), (-0.5, -0.25)]]
    results["bounds shear"] = [bool(np.minimum(*errors).max() < 1e-3),
                               bool(0 < np.mean(errors[0] < 1e-3) < 1)]
    results["fixed posterization"] = plain(L.RandomPosterization((3, 3))(colour))
    results["fixed posterization range"] = plain(L.RandomPosterization((5, 5), value_range=(0, 1))(
        colour / 255.0))
    results["fixed degeneration"] = plain(L.RandomColorDegeneration((0.5, 0.5))(colour))
    results["fixed degeneration out"] = plain(L.RandomColorDegeneration((-0.8, -0.8),
                                                                       value_range=(20, 200))(colour))
    results["resize uint8"] = plain(L.Resizing(3, 5)(np.array([[[[0], [255], [10]]]], "uint8")))

    every = [L.RandomFlip(seed=1), L.RandomRotation(0.2), L.RandomZoom(0.2), L.RandomTranslation(0.1, 0.1),
             L.RandomContrast(0.5), L.RandomBrightness(0.2), L.RandomCrop(2, 3, seed=4), L.Resizing(3, 2),
             L.CenterCrop(2, 2), L.RandomInvert(), L.RandomGrayscale(), L.Solarization(0.5, 0.5),
             L.RandomShear(0.3, 0.2), L.AutoContrast(), L.RandomPosterization(5)]
    for layer in every:
        name = type(layer).__name__
        for dtype in ["float32", "float64", "uint8"]:
            if name == "RandomContrast" and dtype == "uint8":
                continue
            x = small.astype(dtype)
            out, infer = layer(x), layer(x, training=False)
            results[f"dtype {name} {dtype}"] = [out.dtype.name, list(out.shape), infer.dtype.name,
                                                list(infer.shape), list(layer(x[0]).shape)]
        results[f"identity {name}"] = plain(layer(small, training=False))

    bright, contrast = L.RandomBrightness(0.3, value_range=(0, 1)), L.RandomContrast((0.5, 0.5))
    flat = np.linspace(0.1, 0.9, 2 * 3 * 2 * 1).reshape(2, 3, 2, 1).astype("float32")
    ones = np.tile(flat, (50, 1, 1, 1))
    deltas = np.concatenate([np.asarray(bright(ones)) - ones for _ in range(4)])
    out = np.concatenate([np.asarray(contrast(ones)) for _ in range(4)])
    many = np.tile(ones, (4, 1, 1, 1))
    mean = many.mean(axis=(1, 2), keepdims=True)
    c = (out - mean) / (many - mean)
    results["bounds"] = [bool(np.all(deltas >= -0.3 - 1e-6)), bool(np.all(deltas <= 0.3 + 1e-6)),
                         bool(np.ptp(deltas) > 0.2), float(np.asarray(bright(ones)).min()) >= 0,
                         bool(np.all(c >= 0.5 - 1e-4)), bool(np.all(c <= 1.5 + 1e-4)),
                         bool(np.ptp(c) > 0.3)]

    errors = {
        "rotation factor": lambda: L.RandomRotation(1.5),
        "rotation pair": lambda: L.RandomRotation((0.1, 0.2, 0.3)),
        "rotation fill": lambda: L.RandomRotation(0.1, fill_mode="mirror"),
        "rotation interpolation": lambda: L.RandomRotation(0.1, interpolation="bicubic"),
        "zoom factor": lambda: L.RandomZoom(-1.0),
        "zoom type": lambda: L.RandomZoom("big"),
        "translation factor": lambda: L.RandomTranslation(0.1, 1.5),
        "contrast factor": lambda: L.RandomContrast(1.5),
        "brightness range": lambda: L.RandomBrightness(0.1, value_range=5),
        "flip factor": lambda: L.RandomFlip(factor=0.5),
        "invert factor": lambda: L.RandomInvert(1.5),
        "grayscale factor": lambda: L.RandomGrayscale(-0.1),
        "grayscale channels": lambda: L.RandomGrayscale(1.0)(np.ones((1, 2, 2, 2), "float32")),
        "solarization factor": lambda: L.Solarization(addition_factor=2),
        "solarization pair": lambda: L.Solarization(threshold_factor=(0.1, 0.2, 0.3)),
        "solarization range": lambda: L.Solarization(value_range=3),
        "rank 2": lambda: L.RandomFlip()(np.ones((3, 3), "float32")),
        "resize interpolation": lambda: L.Resizing(2, 2, interpolation="cubic")(small),
        "resize both": lambda: L.Resizing(2, 2, crop_to_aspect_ratio=True,
                                          pad_to_aspect_ratio=True)(small),
        "resize fill": lambda: L.Resizing(2, 2, fill_mode="reflect")(small),
        "pipeline config": lambda: L.Pipeline.from_config({"name": "p"}),
        "shear factor": lambda: L.RandomShear(x_factor=-0.2),
        "shear fill": lambda: L.RandomShear(fill_mode="mirror"),
        "autocontrast range": lambda: L.AutoContrast(value_range=(1, 2, 3)),
        "posterization factor": lambda: L.RandomPosterization(9),
        "degeneration range": lambda: L.RandomColorDegeneration(0.5, value_range=[1]),
        "affine fill": lambda: affine(images, T(transforms[0]), fill_mode="mirror"),
        "affine interpolation": lambda: affine(images, T(transforms[0]), interpolation="cubic"),
        "affine rank": lambda: affine(images[0, 0], T(transforms[0])),
    }
    for name, make in errors.items():
        try:
            make()
            results["error " + name] = None
        except Exception as e:
            results["error " + name] = [type(e).__name__, str(e)]
    print(json.dumps(results))
''')

TF_SIDE = ("import json, tensorflow as tf, keras\n"
           "affine = keras.ops.image.affine_transform\n" + CASES)


def _minitf_side():
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(CASES, "image cases", "exec"), {"tf": minitf, "affine": affine_transform,
                                                    "json": json, "__name__": "cases"})
    return json.loads(out.getvalue().strip().splitlines()[-1])


SAVE_TF = textwrap.dedent('''
    import json, os, numpy as np, tensorflow as tf
    L = tf.keras.layers
    x = np.linspace(0, 1, 2 * 6 * 6).reshape(2, 6, 6, 1).astype("float32")
    mine = tf.keras.models.load_model(os.path.join(DIR, "minitf.keras"))
    model = tf.keras.Sequential([tf.keras.Input((6, 6, 1)), L.RandomFlip("horizontal", seed=3),
        L.RandomRotation(0.1, fill_mode="constant"), L.RandomZoom(0.2, 0.1), L.RandomTranslation(0.1, 0.2),
        L.RandomContrast(0.3, seed=2), L.RandomBrightness(0.1, value_range=(0, 1)), L.RandomCrop(4, 4),
        L.Resizing(5, 5, interpolation="nearest"), L.CenterCrop(4, 4), L.Flatten(),
        L.Dense(2, kernel_initializer="ones")])
    model.save(os.path.join(DIR, "tf.keras"))
    print(json.dumps({"mine": mine.predict(x, verbose=0).tolist(),
                      "mine layers": [type(l).__name__ for l in mine.layers],
                      "mine configs": [l.get_config() for l in mine.layers],
                      "tf": model.predict(x, verbose=0).tolist()}))
''')


def _minitf_model():
    L = minitf.keras.layers
    return minitf.keras.Sequential([
        minitf.keras.Input((6, 6, 1)), L.RandomFlip("vertical", seed=1),
        L.RandomRotation((-0.2, 0.1), fill_mode="wrap", seed=2), L.RandomZoom(0.3, seed=3),
        L.RandomTranslation((-0.1, 0.2), 0.1, interpolation="nearest"),
        L.RandomContrast((0.2, 0.4)), L.RandomBrightness(0.2, value_range=(0, 1)),
        L.RandomCrop(5, 5, seed=4), L.Resizing(4, 4, crop_to_aspect_ratio=True),
        L.CenterCrop(3, 3), L.Flatten(), L.Dense(2, kernel_initializer="ones")])


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """The cases under real TF and under minitf, and the .keras exchange (one TF run)."""
    folder = str(tmp_path_factory.mktemp("image_keras"))
    _minitf_model().save(os.path.join(folder, "minitf.keras"))
    snippet = (f"DIR = {folder!r}\n" + SAVE_TF + "\nprint('@@')\n" + TF_SIDE)
    from real_tf import run_tf
    text = run_tf(snippet)
    first, second = text.split("@@")
    return (json.loads(first.strip().splitlines()[-1]),
            json.loads(second.strip().splitlines()[-1]), _minitf_side(), folder)


def _close(a, b, key):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, key
    np.testing.assert_allclose(b, a, rtol=1e-4, atol=2e-3, err_msg=key)


@pytest.mark.parametrize("prefix", ["affine", "fixed", "single", "infer", "identity", "resize"])
def test_values_match_real_tf(both, prefix):
    _, tf_results, ours, _ = both
    keys = [k for k in tf_results if k.startswith(prefix + " ")]
    assert keys
    for key in keys:
        _close(tf_results[key], ours[key], key)


def test_dtypes_shapes_configs_bounds_and_errors_match_real_tf(both):
    _, tf_results, ours, _ = both
    keys = [k for k in tf_results if k.split(" ")[0] in ("dtype", "config", "bounds")]
    assert "bounds shear" in keys and "config autocontrast" in keys
    assert "dtype RandomPosterization uint8" in keys
    assert len(keys) > 40
    for key in keys:
        assert ours[key] == tf_results[key], key
    assert all(tf_results["bounds"]) and all(tf_results["bounds shear"])
    errors = [k for k in tf_results if k.startswith("error ")]
    for key in errors:   # Keras wraps errors raised in `call` in "Exception encountered ..."
        assert tf_results[key] is not None and ours[key] is not None, key
        assert ours[key][0] == tf_results[key][0], key
        assert ours[key][1].splitlines()[0] in tf_results[key][1], key


def test_keras_files_move_both_ways(both):
    exchange, _, _, folder = both
    x = np.linspace(0, 1, 2 * 6 * 6).reshape(2, 6, 6, 1).astype("float32")
    mine = _minitf_model()
    mine.load_weights(os.path.join(folder, "minitf.keras"))
    np.testing.assert_allclose(exchange["mine"], mine.predict(x, verbose=0), rtol=1e-5, atol=1e-5)
    def unnamed(config):
        return {k: v for k, v in json.loads(json.dumps(config)).items() if k != "name"}
    assert [unnamed(c) for c in exchange["mine configs"][:9]] == [unnamed(l.get_config())
                                                                  for l in mine.layers[:9]]
    theirs = minitf.keras.models.load_model(os.path.join(folder, "tf.keras"))
    assert [type(l).__name__ for l in theirs.layers][:9] == [
        "RandomFlip", "RandomRotation", "RandomZoom", "RandomTranslation", "RandomContrast",
        "RandomBrightness", "RandomCrop", "Resizing", "CenterCrop"]
    np.testing.assert_allclose(exchange["tf"], theirs.predict(x, verbose=0), rtol=1e-5, atol=1e-5)
