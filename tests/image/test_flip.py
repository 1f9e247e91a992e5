"""Flips, rotations, random flips and crops: NumPy's own rot90/flip as the oracle, gradients,
tf.function, determinism of the stateless variants, TF's errors, and real TF 2.21."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json

X = np.arange(2 * 3 * 4 * 2).reshape(2, 3, 4, 2)


@pytest.mark.parametrize("batch", [True, False])
def test_deterministic_ops_against_numpy(batch):
    x = X if batch else X[0]
    h = 1 if batch else 0
    np.testing.assert_array_equal(tf.image.flip_left_right(x), np.flip(x, h + 1))
    np.testing.assert_array_equal(tf.image.flip_up_down(x), np.flip(x, h))
    np.testing.assert_array_equal(tf.image.transpose(x), np.swapaxes(x, h, h + 1))
    for k in range(-5, 6):
        np.testing.assert_array_equal(tf.image.rot90(x, k), np.rot90(x, k, axes=(h, h + 1)))


def test_gradients_move_back():
    x = np.random.default_rng(0).uniform(size=(2, 3, 4, 1))
    for f in [tf.image.flip_left_right, tf.image.flip_up_down, tf.image.transpose,
              lambda im: tf.image.rot90(im, 1), lambda im: tf.image.rot90(im, 3),
              lambda im: tf.image.stateless_random_flip_left_right(im, (3, 4)),
              lambda im: tf.image.stateless_random_crop(im, [2, 2, 3, 1], (5, 6))]:
        check_grads(f, x)


def test_random_flip_flips_each_image_or_not():
    images = tf.constant(np.random.default_rng(1).uniform(size=(200, 2, 3, 1)), tf.float32)
    out = tf.image.random_flip_left_right(images, seed=5).numpy()
    same = np.all(out == images.numpy(), axis=(1, 2, 3))
    flipped = np.all(out == images.numpy()[:, :, ::-1], axis=(1, 2, 3))
    assert np.all(same ^ flipped) and 60 < flipped.sum() < 140
    single = tf.image.random_flip_up_down(images[0], seed=2).numpy()
    assert np.array_equal(single, images[0].numpy()) or \
        np.array_equal(single, images[0].numpy()[::-1])


def test_stateless_variants_are_deterministic_and_seed_dependent():
    images = tf.constant(np.random.default_rng(2).uniform(size=(40, 2, 3, 1)), tf.float32)
    runs = {seed: tf.image.stateless_random_flip_up_down(images, seed).numpy()
            for seed in [(1, 2), (1, 2), (7, 9)]}
    a = tf.image.stateless_random_flip_up_down(images, (1, 2)).numpy()
    np.testing.assert_array_equal(a, runs[(1, 2)])
    assert not np.array_equal(a, runs[(7, 9)])
    crops = [tf.image.stateless_random_crop(tf.range(100), [5], seed=(s, 0)).numpy()
             for s in (1, 1, 2, 3, 4)]
    np.testing.assert_array_equal(crops[0], crops[1])
    assert all(np.array_equal(c, np.arange(c[0], c[0] + 5)) for c in crops)
    assert len({int(c[0]) for c in crops}) > 2


def test_random_crop_window_lies_inside():
    value = tf.reshape(tf.range(60), [5, 4, 3])
    for seed in range(5):
        crop = tf.image.random_crop(value, [2, 3, 3], seed=seed).numpy()
        (i,), (j,) = np.nonzero(value.numpy()[:, :, 0] == crop[0, 0, 0])
        np.testing.assert_array_equal(crop, value.numpy()[i:i + 2, j:j + 3])


def test_in_tf_function():
    f = tf.function(lambda im: (tf.image.rot90(im, 3), tf.image.flip_up_down(im),
                                tf.image.stateless_random_flip_left_right(im, (1, 2)),
                                tf.image.random_crop(im, [1, 2, 2, 2], seed=1)))
    rot, flip, stateless, crop = f(tf.constant(X))
    np.testing.assert_array_equal(rot, np.rot90(X, 3, axes=(1, 2)))
    np.testing.assert_array_equal(flip, X[:, ::-1])
    np.testing.assert_array_equal(stateless, tf.image.stateless_random_flip_left_right(X, (1, 2)))
    assert crop.shape == (1, 2, 2, 2)


@pytest.mark.parametrize("call,cls,text", [
    (lambda: tf.image.flip_left_right(tf.zeros([4, 5])), ValueError,
     "'image' (shape (4, 5)) must be at least three-dimensional."),
    (lambda: tf.image.flip_up_down(tf.zeros([1, 1, 4, 5, 1])), ValueError,
     "'image' (shape (1, 1, 4, 5, 1))must have either 3 or 4 dimensions."),
    (lambda: tf.image.rot90(tf.zeros([1, 1, 4, 5, 1])), ValueError,
     "'image' (shape (1, 1, 4, 5, 1)) must have either 3 or 4 dimensions."),
    (lambda: tf.image.transpose(tf.zeros([0, 5, 1])), ValueError,
     "inner 3 dims of 'image.shape' must be > 0: (0, 5, 1)"),
    (lambda: tf.image.rot90(X, [1]), ValueError, "Shape (1,) must have rank 0"),
    (lambda: tf.image.random_crop(X, [3, 2, 2, 2]), tf.errors.InvalidArgumentError,
     "Need value.shape >= size, got '\n2, 3, 4, 2\n3, 2, 2, 2"),
    (lambda: tf.image.random_crop(X, [1, 2, 2]), tf.errors.InvalidArgumentError,
     "Incompatible shapes: [4] vs. [3]"),
    (lambda: tf.image.stateless_random_flip_left_right(X, seed=(1, 2, 3)),
     tf.errors.InvalidArgumentError, "seed must have shape [2], not [3]"),
])
def test_errors_as_tf(call, cls, text):
    with pytest.raises(cls) as info:
        call()
    assert text in str(info.value)


def test_matches_real_tf():
    got = run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        x = tf.constant({json.dumps(X.tolist())})
        out = [tf.image.rot90(x, k).numpy().tolist() for k in range(-2, 5)]
        out += [f(x[0]).numpy().tolist() for f in (tf.image.flip_left_right,
                tf.image.flip_up_down, tf.image.transpose, tf.image.rot90)]
        print(json.dumps(out))
    """)
    mine = [tf.image.rot90(X, k).numpy().tolist() for k in range(-2, 5)]
    mine += [f(X[0]).numpy().tolist() for f in (tf.image.flip_left_right, tf.image.flip_up_down,
                                                tf.image.transpose, tf.image.rot90)]
    assert mine == got
