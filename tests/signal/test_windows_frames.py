"""tf.signal windows, frame and overlap_and_add: values from their formulas, TF's edge rules
(periodic windows, length 1, pad_end, axis), errors, gradients by finite differences, graph
mode, and one batch of the same calls under real TF 2.21."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads


def test_raised_cosine_windows_follow_the_formula():
    n = np.arange(6)
    np.testing.assert_allclose(tf.signal.hann_window(6).numpy(),
                               0.5 - 0.5 * np.cos(2 * np.pi * n / 6),
                               atol=1e-6)
    np.testing.assert_allclose(tf.signal.hann_window(6, periodic=False).numpy(),
                               0.5 - 0.5 * np.cos(2 * np.pi * n / 5), atol=1e-6)
    odd = np.arange(5)  # an odd length is symmetric even when periodic, as in TF
    np.testing.assert_allclose(tf.signal.hamming_window(5).numpy(),
                               0.54 - 0.46 * np.cos(2 * np.pi * odd / 4), atol=1e-6)
    assert tf.signal.hann_window(1).numpy().tolist() == [1.0]
    assert tf.signal.hann_window(4, dtype=tf.float64).dtype == tf.float64


def test_kaiser_vorbis_and_kbd_windows():
    np.testing.assert_allclose(tf.signal.kaiser_window(7, beta=3.0).numpy(),
                               np.kaiser(7, 3.0), rtol=1e-5)
    v = tf.signal.vorbis_window(8).numpy()
    np.testing.assert_allclose(v[:4] ** 2 + v[4:] ** 2, np.ones(4), rtol=1e-5)  # Princen-Bradley
    k = tf.signal.kaiser_bessel_derived_window(8).numpy()
    np.testing.assert_allclose(k[:4] ** 2 + k[4:] ** 2, np.ones(4), rtol=1e-5)
    np.testing.assert_allclose(k, k[::-1])


def test_window_errors():
    with pytest.raises(ValueError, match="dtype must be a floating point type"):
        tf.signal.hann_window(4, dtype=tf.int32)
    with pytest.raises(ValueError, match="must have rank 0"):
        tf.signal.vorbis_window([4])


def test_frame_gathers_overlapping_slices_on_any_axis():
    x = np.arange(20).reshape(2, 10)
    got = tf.signal.frame(x, 4, 3).numpy()
    np.testing.assert_array_equal(got, np.stack([x[:, 0:4], x[:, 3:7], x[:, 6:10]], 1))
    padded = tf.signal.frame(x, 4, 3, pad_end=True, pad_value=-1).numpy()
    assert padded.shape == (2, 4, 4)
    np.testing.assert_array_equal(padded[:, 3], [[9, -1, -1, -1], [19, -1, -1, -1]])
    on_axis0 = tf.signal.frame(x.T, 4, 3, axis=0).numpy()
    assert on_axis0.shape == (3, 4, 2)
    np.testing.assert_array_equal(on_axis0[1], x.T[3:7])
    assert tf.signal.frame(x, 12, 1).shape == (2, 0, 12)


def test_overlap_and_add_sums_frames_at_their_offsets():
    frames = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    expected = np.zeros((2, 8), np.float32)
    for f in range(3):
        expected[:, 2 * f:2 * f + 4] += frames[:, f]
    np.testing.assert_array_equal(tf.signal.overlap_and_add(frames, 2).numpy(), expected)
    gaps = tf.signal.overlap_and_add(frames, 5).numpy()  # step longer than a frame: zeros between
    assert gaps.shape == (2, 14) and gaps[0, 4] == 0
    with pytest.raises(ValueError, match="frame_step must be an integer"):
        tf.signal.overlap_and_add(frames, 2.0)


def test_gradients():
    x = np.random.default_rng(0).normal(size=(2, 9))
    check_grads(lambda v: tf.signal.frame(v, 4, 2), x)
    check_grads(lambda v: tf.signal.frame(v, 4, 3, pad_end=True), x)
    check_grads(lambda v: tf.signal.overlap_and_add(tf.reshape(v, [2, 3, 3]), 2), x[:, :9])


def test_graph_mode():
    @tf.function
    def roundtrip(x):
        return tf.signal.overlap_and_add(tf.signal.frame(x, 4, 4), 4)

    x = tf.range(12.0)
    np.testing.assert_array_equal(roundtrip(x).numpy(), x.numpy())


CASES = {
    "hann": "tf.signal.hann_window(7)",
    "hann_sym": "tf.signal.hann_window(8, periodic=False)",
    "hamming": "tf.signal.hamming_window(10, dtype=tf.float64)",
    "hamming_1": "tf.signal.hamming_window(1)",
    "kaiser": "tf.signal.kaiser_window(9, beta=5.0)",
    "kaiser_1": "tf.signal.kaiser_window(1)",
    "kbd": "tf.signal.kaiser_bessel_derived_window(10)",
    "vorbis": "tf.signal.vorbis_window(6, dtype=tf.float64)",
    "frame": "tf.signal.frame(tf.reshape(tf.range(30), [3, 10]), 4, 3)",
    "frame_pad": ("tf.signal.frame(tf.reshape(tf.range(30.0), [3, 10]), 4, 3, pad_end=True, "
                  "pad_value=7)"),
    "frame_axis": "tf.signal.frame(tf.reshape(tf.range(30.0), [10, 3]), 3, 2, axis=0)",
    "frame_pad_axis": "tf.signal.frame(tf.reshape(tf.range(30.0), [5, 6]), 4, 4, True, 0, -2)",
    "ola": "tf.signal.overlap_and_add(tf.reshape(tf.range(24.0), [2, 3, 4]), 3)",
    "ola_fast": "tf.signal.overlap_and_add(tf.reshape(tf.range(12), [3, 4]), 4)",
    "ola_gap": "tf.signal.overlap_and_add(tf.reshape(tf.range(12.0), [3, 4]), 6)",
    "grad_frame": "grad(lambda v: tf.signal.frame(v, 4, 2, pad_end=True) * 3.0, tf.ones([2, 9]))",
    "grad_ola": "grad(lambda v: tf.signal.overlap_and_add(v, 2) * tf.range(8.0), tf.ones([3, 4]))",
}

PRELUDE = """
import json, numpy as np

def grad(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(f(x))
    return tape.gradient(y, x)

def encode(t):
    return {"dtype": t.dtype.name, "shape": t.shape.as_list(),
            "v": np.asarray(t.numpy(), float).ravel().tolist()}
"""


TF_SNIPPET = ("import tensorflow as tf\n" + PRELUDE + f"cases = {json.dumps(CASES)}\n"
              "result = {k: encode(eval(v)) for k, v in cases.items()}\n")


def check_against_tf(real_tf_results):
    """Run by test_signal_real_tf.py, which runs every tf.signal file's snippet in one TF."""
    namespace = {"tf": tf}
    exec(PRELUDE, namespace)
    for key, expr in CASES.items():
        mine, theirs = namespace["encode"](eval(expr, namespace)), real_tf_results[key]
        assert (mine["dtype"], mine["shape"]) == (theirs["dtype"], theirs["shape"]), key
        np.testing.assert_allclose(mine["v"], theirs["v"], rtol=1e-6, atol=1e-6, err_msg=key)
