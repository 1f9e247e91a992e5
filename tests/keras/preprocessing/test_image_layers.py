"""Keras 3's image layers without real TF: what can be worked out by hand, statistics of the
random draws, seeds, the training flag, tf.data, models and saving.
(test_image_real_tf.py compares the deterministic parts with TF 2.21.)"""
import json

import numpy as np
import pytest

import minitf as tf
from minitf.image.affine_transform import affine_transform

L = tf.keras.layers
ROW = np.array([1.0, 2.0, 3.0, 4.0], "float32").reshape(1, 4, 1)
SHIFT_RIGHT_2 = [1.0, 0.0, -2.0, 0.0, 1.0, 0.0, 0.0, 0.0]        # x_in = x - 2


def _all_layers():
    return [L.RandomFlip(seed=1), L.RandomRotation(0.2, seed=2), L.RandomZoom(0.2, seed=3),
            L.RandomTranslation(0.1, 0.2, seed=4), L.RandomContrast((0.3, 0.3), seed=5),
            L.RandomBrightness(0.2, seed=6), L.RandomCrop(3, 3, seed=7), L.Resizing(3, 5),
            L.CenterCrop(2, 2), L.RandomInvert(seed=8), L.RandomGrayscale(seed=10),
            L.Solarization(0.2, 0.6, seed=10), L.RandomShear(0.3, 0.3, seed=11)]


@pytest.mark.parametrize("fill_mode, expected", [
    ("constant", [9, 9, 1, 2]), ("nearest", [1, 1, 1, 2]),
    ("wrap", [3, 4, 1, 2]), ("reflect", [2, 1, 1, 2])])
def test_affine_transform_fill_modes_by_hand(fill_mode, expected):
    out = affine_transform(ROW, SHIFT_RIGHT_2, "nearest", fill_mode, fill_value=9)
    assert out.numpy().ravel().tolist() == expected


def test_affine_transform_bilinear_half_pixel_and_integer_truncation():
    half = [1.0, 0.0, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0]                # x_in = x + 0.5
    out = affine_transform(ROW, half, "bilinear", "constant")
    np.testing.assert_allclose(out.numpy().ravel(), [1.5, 2.5, 3.5, 2.0])   # 4 with a 0 outside
    ints = affine_transform(tf.constant(ROW.astype("uint8")), half, "bilinear", "nearest")
    assert ints.dtype == tf.uint8 and ints.numpy().ravel().tolist() == [1, 2, 3, 4]
    near = affine_transform(ROW, half, "nearest", "nearest")        # 0.5 rounds away from 0
    assert near.numpy().ravel().tolist() == [2, 3, 4, 4]


def test_affine_transform_quarter_turn_batch_and_channels_first():
    image = np.arange(9.0, dtype="float32").reshape(1, 3, 3, 1)
    turn = [0.0, 1.0, 0.0, -1.0, 0.0, 2.0, 0.0, 0.0]               # x_in = y, y_in = 2 - x
    out = affine_transform(np.concatenate([image, image]), [turn, SHIFT_RIGHT_2 * 1], "nearest")
    np.testing.assert_array_equal(out[0, ..., 0], np.rot90(image[0, ..., 0], -1))
    first = affine_transform(image.transpose(0, 3, 1, 2), turn, data_format="channels_first")
    np.testing.assert_allclose(first[0, 0], np.rot90(image[0, ..., 0], -1))


def test_affine_transform_errors_teach():
    with pytest.raises(ValueError, match="fill_mode"):
        affine_transform(ROW, SHIFT_RIGHT_2, fill_mode="mirror")
    with pytest.raises(ValueError, match="rank 3"):
        affine_transform(ROW[0], SHIFT_RIGHT_2)
    with pytest.raises(ValueError, match="8 numbers"):
        affine_transform(ROW, [1.0, 0.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_images x 8"):
        affine_transform(np.ones([3, 2, 2, 1], "float32"), [SHIFT_RIGHT_2] * 2)


def test_flip_rate_is_one_half_and_both_axes_flip_together():
    images = np.tile(np.array([[[[0.0], [1.0]], [[2.0], [3.0]]]], "float32"), (2000, 1, 1, 1))
    out = L.RandomFlip("horizontal", seed=0)(images).numpy()
    flipped = out[:, 0, 0, 0] == 1.0
    assert np.all(flipped | (out[:, 0, 0, 0] == 0.0))
    assert 0.45 < flipped.mean() < 0.55
    both = L.RandomFlip(seed=0)(images).numpy()[:, :, :, 0].reshape(-1, 4)
    assert {tuple(r) for r in both.tolist()} == {(0, 1, 2, 3), (3, 2, 1, 0)}


@pytest.mark.parametrize("layer", _all_layers(), ids=lambda l: type(l).__name__)
def test_identity_at_inference_and_augmentation_by_default(layer):
    images = np.random.RandomState(1).uniform(0, 200, (4, 5, 5, 3)).astype("float32")
    shape_changes = type(layer).__name__ in ("Resizing", "CenterCrop")
    inferred = layer(images, training=False).numpy()
    if not shape_changes:
        np.testing.assert_array_equal(inferred, images)
    out = layer(images)                               # Keras 3: training defaults to True
    assert out.dtype == tf.float32
    assert layer(images[0]).shape.rank == 3
    if not shape_changes and type(layer).__name__ != "RandomCrop":
        assert out.shape == images.shape and not np.allclose(out.numpy(), images)


def test_same_seed_same_augmentations_and_calls_differ():
    images = np.random.RandomState(2).uniform(0, 1, (6, 5, 5, 1)).astype("float32")
    a, b = L.RandomRotation(0.3, seed=11), L.RandomRotation(0.3, seed=11)
    first = a(images).numpy()
    np.testing.assert_array_equal(first, b(images).numpy())
    assert not np.allclose(first, a(images).numpy())
    tf.random.set_seed(5)
    c = L.RandomZoom(0.3)(images).numpy()
    tf.random.set_seed(5)
    np.testing.assert_array_equal(c, L.RandomZoom(0.3)(images).numpy())


def test_random_draws_stay_in_their_ranges():
    images = tf.zeros([500, 4, 4, 1])
    zoom = L.RandomZoom((-0.3, 0.2), (0.1, 0.4), seed=1).get_random_transformation(images).numpy()
    assert zoom[:, 4].min() >= 0.7 and zoom[:, 4].max() <= 1.2 and np.ptp(zoom[:, 4]) > 0.4
    assert zoom[:, 0].min() >= 1.1 and zoom[:, 0].max() <= 1.4
    shift = L.RandomTranslation((0.0, 0.5), 0.25, seed=2).get_random_transformation(images).numpy()
    assert -shift[:, 5].min() <= 2.0 and -shift[:, 5].max() >= 0.0     # dy in [0, 0.5 * 4]
    assert np.abs(shift[:, 2]).max() <= 1.0
    bright = L.RandomBrightness((-0.5, 0.1), value_range=(0, 1), seed=3)
    deltas = bright(tf.fill([500, 1, 1, 1], 0.5)).numpy() - 0.5
    assert deltas.min() >= -0.5 and deltas.max() <= 0.1 + 1e-6 and np.ptp(deltas) > 0.5
    assert bright(tf.fill([50, 1, 1, 1], 0.95)).numpy().max() <= 1.0        # clipped


def test_invert_grayscale_and_solarization_rates_and_ranges():
    images = tf.fill([2000, 1, 1, 3], 60.0) + tf.constant([0.0, 10.0, 20.0])
    inverted = L.RandomInvert((0.2, 0.4), seed=1)(images).numpy()[:, 0, 0, 0] == 195.0
    assert 0.25 < inverted.mean() < 0.35                       # mean probability 0.3
    grey = L.RandomGrayscale(0.25, seed=2)(images).numpy()[:, 0, 0]
    turned = np.ptp(grey, axis=1) < 1e-4
    assert 0.2 < turned.mean() < 0.3
    np.testing.assert_allclose(grey[turned, 0], 0.2989 * 60 + 0.587 * 70 + 0.114 * 80, rtol=1e-5)
    solar = L.Solarization((0.0, 0.0), (0.0, 0.5), seed=3)   # thresholds in [0, 127.5]
    out = solar(tf.fill([1000, 1, 1, 1], 100.0)).numpy().ravel()
    assert set(np.unique(out).tolist()) == {100.0, 155.0}
    assert 0.7 < (out == 155.0).mean() < 0.85                  # threshold below 100: 100/127.5


def test_random_crop_windows_are_pieces_of_the_image():
    image = np.arange(36.0, dtype="float32").reshape(1, 6, 6, 1)
    crop = L.RandomCrop(2, 3, seed=3)
    starts = set()
    for _ in range(40):
        out = crop(image).numpy()[0, :, :, 0]
        row, col = divmod(int(out[0, 0]), 6)
        np.testing.assert_array_equal(out, image[0, row:row + 2, col:col + 3, 0])
        starts.add((row, col))
    assert len(starts) > 8 and max(r for r, _ in starts) <= 4 and max(c for _, c in starts) <= 3
    assert isinstance(L.RandomCrop(2, 2).get_config()["seed"], int)   # Keras draws one


def test_resizing_keeps_integer_dtype_and_center_crop_cuts_the_middle():
    out = L.Resizing(1, 3)(tf.constant([[[[0], [255]]]], tf.uint8))
    assert out.dtype == tf.uint8 and out.numpy().ravel().tolist() == [0, 128, 255]
    image = np.arange(20.0, dtype="float32").reshape(4, 5, 1)
    np.testing.assert_array_equal(L.CenterCrop(2, 3)(image)[..., 0], image[1:3, 1:4, 0])
    assert L.Resizing(2, 2, crop_to_aspect_ratio=True).compute_output_shape((None, 9, 4, 3)) == \
        (None, 2, 2, 3)


def test_dict_inputs_pass_labels_and_refuse_boxes():
    out = L.RandomFlip(seed=1)({"images": np.ones([2, 3, 3, 1], "float32"), "labels": [1, 0]})
    assert out["images"].shape == (2, 3, 3, 1) and list(out["labels"]) == [1, 0]
    with pytest.raises(NotImplementedError, match="bounding"):
        L.RandomFlip()({"images": np.ones([3, 3, 1]), "bounding_boxes": {}})


def test_dataset_map_batched_with_unknown_batch_size_and_unbatched():
    images = np.random.RandomState(3).uniform(0, 1, (5, 6, 6, 1)).astype("float32")
    layers = [L.RandomFlip(seed=1), L.RandomRotation(0.1, seed=2), L.RandomCrop(4, 4, seed=3),
              L.RandomContrast(0.2, seed=4)]

    def augment(x):
        for layer in layers:
            x = layer(x)
        return x
    batched = tf.data.Dataset.from_tensor_slices(images).batch(2).map(augment)
    assert [b.shape for b in batched.as_numpy_iterator()] == [(2, 4, 4, 1)] * 2 + [(1, 4, 4, 1)]
    single = tf.data.Dataset.from_tensor_slices(images).map(augment)
    outs = list(single.as_numpy_iterator())
    assert [o.shape for o in outs] == [(4, 4, 1)] * 5
    again = list(single.as_numpy_iterator())
    assert any(not np.allclose(a, b) for a, b in zip(outs, again))   # fresh draws per epoch


def test_models_train_predict_identity_and_save_load(tmp_path):
    x = np.random.RandomState(4).uniform(0, 1, (8, 6, 6, 1)).astype("float32")
    y = np.arange(8) % 2
    inputs = tf.keras.Input((6, 6, 1))
    hidden = inputs
    for layer in _all_layers()[:7]:
        hidden = layer(hidden)
    outputs = L.Dense(2)(L.Flatten()(L.Resizing(4, 4)(hidden)))
    for model in [tf.keras.Model(inputs, outputs),
                  tf.keras.Sequential([tf.keras.Input((6, 6, 1))] + _all_layers()
                                      + [L.Flatten(), L.Dense(2)])]:
        model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        history = model.fit(x, y, epochs=2, batch_size=3, verbose=0)
        assert np.all(np.isfinite(history.history["loss"]))
        predicted = model.predict(x, verbose=0)
        np.testing.assert_allclose(predicted, model.predict(x, verbose=0))   # no augmentation
        path = str(tmp_path / f"{model.name}.keras")
        model.save(path)
        loaded = tf.keras.models.load_model(path)
        np.testing.assert_allclose(loaded.predict(x, verbose=0), predicted, rtol=1e-6)
        for old, new in zip(model.layers, loaded.layers):   # tuples come back as JSON lists
            assert json.loads(json.dumps(old.get_config())) == json.loads(
                json.dumps(new.get_config()))


@pytest.mark.parametrize("layer", _all_layers(), ids=lambda l: type(l).__name__)
def test_config_round_trip(layer):
    clone = type(layer).from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()


def test_pipeline_passes_training_on_and_saves_with_the_model(tmp_path):
    x = np.arange(8.0, dtype="float32").reshape(2, 2, 2, 1)
    pipeline = L.Pipeline([L.RandomBrightness((0.1, 0.1), value_range=(0, 100)),
                           L.Rescaling(0.5)])
    np.testing.assert_allclose(pipeline(x), (x + 10) * 0.5)           # training by default
    np.testing.assert_allclose(pipeline(x, training=False), x * 0.5)
    mapped = tf.data.Dataset.from_tensor_slices(x).map(pipeline)
    np.testing.assert_allclose(np.stack(list(mapped.as_numpy_iterator())), (x + 10) * 0.5)
    model = tf.keras.Sequential([tf.keras.Input((2, 2, 1)), pipeline, L.Flatten(), L.Dense(1)])
    model.compile("sgd", "mse")
    model.fit(x, np.ones((2, 1)), verbose=0)
    model.save(str(tmp_path / "pipeline.keras"))
    loaded = tf.keras.models.load_model(str(tmp_path / "pipeline.keras"))
    assert [type(l).__name__ for l in loaded.layers[0].layers] == ["RandomBrightness", "Rescaling"]
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    with pytest.raises(ValueError, match="list of serialized layers"):
        L.Pipeline.from_config({"name": "p"})


def test_shear_slants_rows_and_autocontrast_stretches_always():
    image = np.arange(9.0, dtype="float32").reshape(1, 3, 3, 1)
    shear = L.RandomShear(x_factor=(1.0, 1.0), interpolation="nearest", fill_mode="constant",
                          seed=4)
    rows = {tuple(shear(image).numpy().ravel().tolist()) for _ in range(20)}
    assert rows == {(0, 1, 2, 4, 5, 0, 8, 0, 0), (0, 1, 2, 0, 3, 4, 0, 0, 6)}   # x_in = x +- y
    auto = L.AutoContrast(value_range=(0, 1))
    x = np.array([[[[0.2, 0.5]], [[0.6, 0.5]]]], "float32")           # channel 1 is flat
    for training in (True, False):
        out = auto(x, training=training).numpy()
        np.testing.assert_allclose(out[..., 0].ravel(), [0.0, 1.0], atol=1e-6)
        np.testing.assert_allclose(out[..., 1].ravel(), [0.5, 0.5])


def test_posterization_levels_and_degeneration_range():
    ramp = tf.reshape(tf.range(256.0), [1, 16, 16, 1])
    for bits in (1, 3, 6):
        out = L.RandomPosterization((bits, bits))(ramp).numpy()
        assert len(np.unique(out)) == 2 ** bits and out.min() == 0
    drawn = {len(np.unique(L.RandomPosterization(4, seed=s)(ramp).numpy())) for s in range(12)}
    assert drawn == {2, 4, 8}                                          # bits 1..3
    red = tf.constant([[[[200.0, 0.0, 0.0]]]])
    grey = 0.2989 * 200
    outs = np.concatenate([L.RandomColorDegeneration(0.5, seed=s)(red).numpy() for s in range(30)])
    amounts = (outs[:, 0, 0, 1] - 0.0) / grey                          # green moved a * grey
    assert np.all(outs >= 0) and np.all(outs <= 255)
    assert np.all(amounts[amounts > 0] <= 0.5 + 1e-5) and np.any(outs[:, 0, 0, 1] == 0)
