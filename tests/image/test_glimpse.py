"""extract_glimpse: windows placed as TF places them (compared with real TF 2.21 where the
fill is zeros), the random fills' ranges, TF's errors, tf.function."""
import json

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

X = np.arange(2 * 5 * 6, dtype=np.float32).reshape(2, 5, 6, 1)
CASES = [([2, 3], [[0.0, 0.0], [0.5, -0.5]], True, True),
         ([2, 3], [[1.0, 1.0], [-1.0, -0.9]], True, True),
         ([2, 3], [[1.0, 2.0], [4.0, -1.0]], False, False),
         ([2, 3], [[1.0, 2.0], [-2.7, -1.0]], True, False),
         ([2, 3], [[0.3, 0.7], [0.1, 0.9]], False, True),
         ([7, 3], [[0.0, 0.0], [0.5, -0.5]], True, True),
         ([3, 8], [[-0.2, 0.1], [9.0, 9.0]], False, False)]


def test_centred_window_by_hand():
    got = tf.image.extract_glimpse(X, [2, 3], [[0.0, 0.0], [0.5, -0.5]], noise="zero")
    # image 0: centre (2.5, 3) minus half the window (1, 1.5): rows 1-2, columns 1-3
    np.testing.assert_array_equal(got[0, ..., 0], X[0, 1:3, 1:4, 0])
    # image 1: y = 0.5 * 5 / 2 + 2.5 - 1 = 2.75 -> 2; x = -1.5 + 3 - 1.5 = 0
    np.testing.assert_array_equal(got[1, ..., 0], X[1, 2:4, 0:3, 0])


def test_random_fills_stay_in_range():
    got = tf.image.extract_glimpse(X, [3, 8], [[0.0, 3.0], [1.0, 4.0]], centered=False,
                                   normalized=False, noise="uniform").numpy()
    assert got.shape == (2, 3, 8, 1)
    np.testing.assert_array_equal(got[0, :, :3, 0], X[0, 0:3, 3:6, 0])
    for i in range(2):
        assert X[i].min() <= got[i].min() and got[i].max() <= X[i].max()
    gauss = tf.image.extract_glimpse(X, [3, 8], [[0.0, 3.0], [1.0, 4.0]], False, False,
                                     noise="gaussian")
    assert np.all(np.isfinite(gauss.numpy()))


def test_in_tf_function_and_no_gradient_as_tf():
    f = tf.function(lambda im: tf.image.extract_glimpse(im, [2, 3], [[0.0, 0.0], [0.5, -0.5]],
                                                        noise="zero"))
    np.testing.assert_array_equal(f(tf.constant(X)), tf.image.extract_glimpse(
        X, [2, 3], [[0.0, 0.0], [0.5, -0.5]], noise="zero"))
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.extract_glimpse(x, [2, 3], [[0.0, 0.0], [0.5, -0.5]], noise="zero")
    with pytest.raises(LookupError, match="gradient registry has no entry for: ExtractGlimpseV2"):
        tape.gradient(y, x)


@pytest.mark.parametrize("call,text", [
    (lambda: tf.image.extract_glimpse(X, [2, 3], [[0.0, 0.0]] * 2, noise="foo"),
     "The noise could only be uniform, gaussian, or zero, gotfoo"),
    (lambda: tf.image.extract_glimpse(X, [2, 3], [[0.0, 0.0]], noise="zero"),
     "first dimension should be batch[1,2]"),
    (lambda: tf.image.extract_glimpse(X, [2, 3, 1], [[0.0, 0.0]] * 2, noise="zero"),
     "input must be a vector of size 2 (height, width)[3]"),
    (lambda: tf.image.extract_glimpse(X[0], [2, 3], [[0.0, 0.0]] * 2, noise="zero"),
     "input must be 4-dimensional (batch_size, height, width, depth)[5,6,1]"),
    (lambda: tf.image.extract_glimpse(X, [2, 3], [[0.0, 0.0, 0.0]] * 2, noise="zero"),
     "second dimension should be of size 2 (y,x)[2,3]"),
])
def test_errors_as_tf(call, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        call()
    assert text in str(info.value)


def test_matches_real_tf():
    got = run_tf_json(f"""
        import json, tensorflow as tf
        x = tf.reshape(tf.range(2 * 5 * 6, dtype=tf.float32), [2, 5, 6, 1])
        cases = json.loads('{json.dumps(CASES)}')
        print(json.dumps([tf.image.extract_glimpse(x, size, off, centered, normalized,
                                                   noise="zero").numpy().tolist()
                          for size, off, centered, normalized in cases]))
    """)
    for (size, offsets, centered, normalized), want in zip(CASES, got):
        mine = tf.image.extract_glimpse(X, size, offsets, centered, normalized, noise="zero")
        assert mine.numpy().tolist() == want, (size, offsets, centered, normalized)
