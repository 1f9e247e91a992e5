"""A .keras file of a model holding the KA2 image layers: saved and loaded by minitf, the
loaded layers keep their arguments, and inference (training=False) stays the identity."""
import numpy as np

import minitf as tf

L = tf.keras.layers


def test_keras_file_round_trip(tmp_path):
    inp = tf.keras.Input((6, 6, 3))
    x = L.RandomHue(0.2, seed=1)(inp)
    x = L.RandomSaturation((0.3, 0.7), seed=2)(x)
    x = L.RandomSharpness(0.4, value_range=(0, 1))(x)
    x = L.RandomColorJitter(brightness_factor=0.1, hue_factor=(0.1, 0.2))(x)
    x = L.RandomErasing(0.5, scale=(0.1, 0.2), fill_value=[1, 2, 3])(x)
    x = L.RandomGaussianBlur(kernel_size=5, sigma=(0.2, 0.6))(x)
    x = L.Equalization(value_range=(0, 1), bins=64)(x)
    x = L.MaxNumBoundingBoxes(4)(x)
    model = tf.keras.Model(inp, L.RandomWidth(0.2, interpolation="nearest")(L.RandomHeight(0.1)(x)))
    path = str(tmp_path / "augment.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    names = [type(layer).__name__ for layer in loaded.layers[1:]]
    assert names == ["RandomHue", "RandomSaturation", "RandomSharpness", "RandomColorJitter",
                     "RandomErasing", "RandomGaussianBlur", "Equalization", "MaxNumBoundingBoxes",
                     "RandomHeight", "RandomWidth"]
    hue, sat, sharp, jitter, erase, blur, equal, boxes, height, width = loaded.layers[1:]
    assert hue.factor == (0, 0.2) and sat.factor == (0.3, 0.7) and sharp.value_range == [0, 1]
    assert jitter.random_hue.factor == (0.1, 0.2) and jitter.random_contrast is None
    assert erase.fill_value == [1, 2, 3] and erase.scale == (0.1, 0.2)
    assert blur.kernel_size == (5, 5) and blur.sigma == (0.2, 0.6)
    assert equal.bins == 64 and boxes.max_number == 4
    assert height.factor == 0.1 and width.interpolation == "nearest"
    images = np.random.default_rng(0).uniform(0, 1, [2, 6, 6, 3]).astype("float32")
    np.testing.assert_array_equal(loaded.predict(images, verbose=0), images)
