"""Crops and pads, and crop_and_resize: hand-worked numbers, gradients against finite
differences, tf.function, TF's error texts - and crop_and_resize against real TF 2.21."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads, numerical_gradient
from real_tf import run_tf_json

X = tf.reshape(tf.range(2 * 4 * 6), [2, 4, 6, 1])


def flat(t):
    return t.numpy().ravel().tolist()


# numbers printed by TF 2.21 for the same calls (first 12 values)
def test_crop_to_bounding_box():
    got = tf.image.crop_to_bounding_box(X, 1, 2, 2, 3)
    assert got.shape == (2, 2, 3, 1) and flat(got)[:12] == [8, 9, 10, 14, 15, 16, 32, 33, 34,
                                                            38, 39, 40]


def test_pad_to_bounding_box_puts_the_image_at_the_offset():
    got = tf.image.pad_to_bounding_box(X, 1, 2, 6, 9)
    assert got.shape == (2, 6, 9, 1) and got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy()[:, 1:5, 2:8], X.numpy())
    assert got.numpy().sum() == X.numpy().sum()


@pytest.mark.parametrize("fraction,shape,first", [
    (0.5, (2, 2, 4, 1), [7, 8, 9, 10, 13, 14, 15, 16, 31, 32, 33, 34]),
    (0.3, (2, 2, 2, 1), [8, 9, 14, 15, 32, 33, 38, 39]),
    (1.0, (2, 4, 6, 1), list(range(12)))])
def test_central_crop(fraction, shape, first):
    got = tf.image.central_crop(X, fraction)
    assert got.shape == shape and flat(got)[:12] == first
    assert tf.image.central_crop(X[0], 0.7).shape == (4, 6, 1)


def test_resize_with_crop_or_pad_crops_and_pads_evenly():
    got = tf.image.resize_with_crop_or_pad(X, 3, 9)
    assert got.shape == (2, 3, 9, 1) and flat(got)[:12] == [0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 6, 7]


def test_resize_with_pad():
    got = tf.image.resize_with_pad(tf.cast(X, tf.float32), 7, 5)
    np.testing.assert_allclose(flat(got)[:12], [0, 0, 0, 0, 0, 1.1, 2.3, 3.5, 4.7, 5.9, 9.1,
                                                10.3], rtol=1e-6)
    nearest = tf.image.resize_with_pad(X, 7, 5, method="nearest")
    assert nearest.dtype == tf.int32 and flat(nearest)[:12] == [0, 0, 0, 0, 0, 0, 1, 3, 4, 5,
                                                                12, 13]


def test_gradients_of_crops_and_pads():
    x = np.random.default_rng(0).uniform(size=(1, 4, 5, 2))
    check_grads(lambda im: tf.image.crop_to_bounding_box(im, 1, 1, 2, 3), x)
    check_grads(lambda im: tf.image.pad_to_bounding_box(im, 1, 0, 6, 6), x)
    check_grads(lambda im: tf.image.central_crop(im, 0.5), x)
    check_grads(lambda im: tf.image.resize_with_crop_or_pad(im, 6, 3), x)


def test_in_tf_function():
    f = tf.function(lambda im: tf.image.resize_with_crop_or_pad(im, 3, 9))
    np.testing.assert_array_equal(f(X).numpy(), tf.image.resize_with_crop_or_pad(X, 3, 9))


@pytest.mark.parametrize("call,text", [
    (lambda: tf.image.crop_to_bounding_box(X, -1, 2, 2, 3), "offset_height must be >= 0."),
    (lambda: tf.image.crop_to_bounding_box(X, 1, -2, 2, 3), "offset_width must be >= 0."),
    (lambda: tf.image.crop_to_bounding_box(X, 1, 2, 0, 3), "target_height must be > 0."),
    (lambda: tf.image.crop_to_bounding_box(X, 1, 2, 2, 0), "target_width must be > 0."),
    (lambda: tf.image.crop_to_bounding_box(X, 3, 2, 2, 3), "height must be >= target + offset."),
    (lambda: tf.image.crop_to_bounding_box(X, 1, 4, 2, 3), "width must be >= target + offset."),
    (lambda: tf.image.crop_to_bounding_box(tf.zeros([4, 5]), 1, 4, 2, 3),
     "'image' (shape (4, 5)) must have either 3 or 4 dimensions."),
    (lambda: tf.image.crop_to_bounding_box(tf.zeros([0, 5, 1]), 0, 0, 1, 1),
     "inner 3 dims of 'image.shape' must be > 0: (1, 0, 5, 1)"),
    (lambda: tf.image.pad_to_bounding_box(X, -1, 2, 6, 9), "offset_height must be >= 0"),
    (lambda: tf.image.pad_to_bounding_box(X, 3, 2, 6, 9), "height must be <= target - offset"),
    (lambda: tf.image.pad_to_bounding_box(X, 1, 4, 6, 9), "width must be <= target - offset"),
    (lambda: tf.image.central_crop(X, 0.0), "central_fraction must be within (0, 1]"),
    (lambda: tf.image.central_crop(X, 1.5), "central_fraction must be within (0, 1]"),
    (lambda: tf.image.central_crop(tf.zeros([4, 5]), 0.5),
     "'image' (shape (4, 5)) must be at least three-dimensional."),
    (lambda: tf.image.resize_with_crop_or_pad(X, 0, 9), "target_height must be > 0."),
    (lambda: tf.image.resize_with_pad(tf.zeros([1, 4, 4, 1]), 0, 5), "target_height must be > 0."),
])
def test_value_errors_as_tf(call, text):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == text


# --- crop_and_resize ---------------------------------------------------------------------
IMG = tf.reshape(tf.range(2 * 4 * 6 * 2, dtype=tf.float32), [2, 4, 6, 2])
BOXES = [[0, 0, 1, 1], [0.2, 0.1, 0.8, 1.3]]


def test_crop_and_resize_numbers_from_tf():
    got = tf.image.crop_and_resize(IMG, BOXES, [0, 1], [3, 3])
    assert got.shape == (2, 3, 3, 2)
    assert flat(got)[:12] == [0, 1, 5, 6, 10, 11, 18, 19, 23, 24, 28, 29]
    assert flat(tf.image.crop_and_resize(IMG, BOXES, [0, 1], [1, 1])) == [23, 24, 73, 74]
    nearest = tf.image.crop_and_resize(IMG, BOXES, [0, 1], [3, 3], method="nearest",
                                       extrapolation_value=-1)
    assert flat(nearest)[:12] == [0, 1, 6, 7, 10, 11, 24, 25, 30, 31, 34, 35]
    assert flat(nearest)[-2:] == [-1, -1]  # box 1 reaches past the right edge (x2 = 1.3)


def test_crop_and_resize_dtypes_and_empty_boxes():
    assert tf.image.crop_and_resize(tf.cast(IMG, tf.uint8), [[0, 0, 1, 1]], [0],
                                    [3, 3]).dtype == tf.float32
    empty = tf.image.crop_and_resize(IMG, tf.zeros([0, 4]), tf.zeros([0], tf.int32), [3, 3])
    assert empty.shape == (0, 3, 3, 2)


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_crop_and_resize_image_gradient(method):
    image = np.random.default_rng(1).uniform(size=(2, 4, 5, 2))
    boxes = tf.constant([[0.1, 0.2, 0.7, 0.9], [0.9, 0.05, 0.2, 1.2]])
    x = tf.constant(image.astype(np.float32))
    w = np.random.default_rng(2).uniform(size=(2, 3, 4, 2)).astype(np.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.image.crop_and_resize(x, boxes, [1, 0], [3, 4], method) * w)

    def value(arrays):  # linear in the image: a large step is exact
        crops = tf.image.crop_and_resize(tf.constant(arrays[0], tf.float32), boxes, [1, 0],
                                         [3, 4], method)
        return float(np.sum(crops.numpy().astype(np.float64) * w))

    np.testing.assert_allclose(tape.gradient(loss, x).numpy(),
                               numerical_gradient(value, [image], 0, eps=0.5), atol=1e-4)


def test_crop_and_resize_box_gradient_against_finite_differences():
    image = np.random.default_rng(3).uniform(size=(1, 5, 6, 1)).astype(np.float32)
    boxes = np.array([[0.13, 0.21, 0.71, 0.87]])
    w = np.random.default_rng(4).uniform(size=(1, 3, 4, 1)).astype(np.float32)
    b = tf.constant(boxes.astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(b)
        loss = tf.reduce_sum(tf.image.crop_and_resize(image, b, [0], [3, 4]) * w)

    def value(arrays):
        crops = tf.image.crop_and_resize(image, arrays[0].astype(np.float32), [0], [3, 4])
        return float(np.sum(crops.numpy().astype(np.float64) * w))

    np.testing.assert_allclose(tape.gradient(loss, b).numpy(),
                               numerical_gradient(value, [boxes], 0, eps=1e-3), rtol=2e-2)


def test_crop_and_resize_in_tf_function():
    f = tf.function(lambda im, b: tf.image.crop_and_resize(im, b, [0, 1], [3, 3]))
    np.testing.assert_array_equal(f(IMG, tf.constant(BOXES, tf.float32)).numpy(),
                                  tf.image.crop_and_resize(IMG, BOXES, [0, 1], [3, 3]).numpy())


@pytest.mark.parametrize("call,cls,text", [
    (lambda: tf.image.crop_and_resize(IMG, [[0, 0, 1, 1]], [0, 1], [3, 3]),
     tf.errors.InvalidArgumentError, "box_index has incompatible shape"),
    (lambda: tf.image.crop_and_resize(IMG, [[0, 0, 1, 1]], [2], [3, 3]),
     tf.errors.OutOfRangeError, "box_index has values outside [0, batch_size)"),
    (lambda: tf.image.crop_and_resize(IMG, [[0, 0, 1]], [0], [3, 3]),
     tf.errors.InvalidArgumentError, "boxes must have 4 columns"),
    (lambda: tf.image.crop_and_resize(IMG, [[0, 0, 1, 1]], [0], [0, 3]),
     tf.errors.InvalidArgumentError, "crop dimensions must be positive"),
    (lambda: tf.image.crop_and_resize(IMG, [[0, 0, 1, 1]], [0], [3, 3], method="bicubic"),
     tf.errors.InvalidArgumentError, "Value for attr 'method' of \"bicubic\" is not in the list"),
    (lambda: tf.image.crop_and_resize(IMG[0], [[0, 0, 1, 1]], [0], [3, 3]),
     tf.errors.InvalidArgumentError, "input image must be 4-D[4,6,2]"),
])
def test_crop_and_resize_errors_as_tf(call, cls, text):
    with pytest.raises(cls) as info:
        call()
    assert text in str(info.value)


def test_crop_and_resize_matches_real_tf_with_gradients():
    rng = np.random.default_rng(5)
    image = rng.uniform(size=(2, 5, 7, 3)).round(4)
    boxes = [[0.1, 0.2, 0.7, 0.9], [0.9, 0.05, 0.2, 1.2], [-0.2, 0.3, 0.6, 0.6],
             [0.33, 0.17, 0.33, 0.81]]
    cases = [([3, 4], "bilinear"), ([1, 5], "bilinear"), ([4, 1], "nearest"), ([3, 3], "nearest")]
    got = run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        image = tf.constant({json.dumps(image.tolist())}, tf.float32)
        boxes = tf.constant({json.dumps(boxes)}, tf.float32)
        out = []
        for size, method in {json.dumps(cases)}:
            with tf.GradientTape() as tape:
                tape.watch([image, boxes])
                crops = tf.image.crop_and_resize(image, boxes, [1, 0, 1, 0], size, method, 0.5)
                w = tf.reshape(tf.cast(tf.range(tf.size(crops)), tf.float32) / 50.0, crops.shape)
                loss = tf.reduce_sum(crops * w)
            gi, gb = tape.gradient(loss, [image, boxes])
            out.append([crops.numpy().tolist(), gi.numpy().tolist(), gb.numpy().tolist()])
        print(json.dumps(out))
    """)
    x, b = tf.constant(image, tf.float32), tf.constant(boxes, tf.float32)
    for (size, method), (crops_tf, gi_tf, gb_tf) in zip(cases, got):
        with tf.GradientTape() as tape:
            tape.watch([x, b])
            crops = tf.image.crop_and_resize(x, b, [1, 0, 1, 0], size, method, 0.5)
            w = tf.reshape(tf.cast(tf.range(tf.size(crops)), tf.float32) / 50.0, crops.shape)
            loss = tf.reduce_sum(crops * w)
        gi, gb = tape.gradient(loss, [x, b])
        np.testing.assert_allclose(crops.numpy(), crops_tf, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gi.numpy(), gi_tf, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(gb.numpy(), gb_tf, rtol=1e-4, atol=1e-4)
