"""tf.signal stft/inverse_stft, mdct/inverse_mdct, dct/idct, the mel matrix and MFCCs: values
from their definitions (NumPy sums, no SciPy), round trips, TF's errors, gradients by finite
differences, graph mode, and one batch of the same calls under real TF 2.21."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads

RNG = np.random.default_rng(5)
X = RNG.normal(size=(2, 6)).astype(np.float32)


def dct_by_definition(x, kind):
    n = x.shape[-1]
    k, m = np.arange(n)[:, None], np.arange(n)[None, :]
    if kind == 1:
        inner = 2 * (x[..., 1:-1] @ np.cos(np.pi * k[:, 0][None, 1:-1].T * np.arange(n) / (n - 1)))
        return x[..., :1] + (-1) ** np.arange(n) * x[..., -1:] + inner
    if kind == 2:
        return 2 * x @ np.cos(np.pi * (2 * m.T + 1) * k.T / (2 * n))
    if kind == 3:
        return x[..., :1] + 2 * x[..., 1:] @ np.cos(np.pi * k[1:] * (2 * m + 1) / (2 * n))
    return 2 * x @ np.cos(np.pi * (2 * m.T + 1) * (2 * k.T + 1) / (4 * n))


@pytest.mark.parametrize("kind", [1, 2, 3, 4])
def test_dct_types_follow_their_sums(kind):
    np.testing.assert_allclose(tf.signal.dct(X, type=kind).numpy(),
                               dct_by_definition(X.astype(np.float64), kind), rtol=1e-4,
                               atol=1e-4)


@pytest.mark.parametrize("kind", [2, 3, 4])
def test_ortho_dct_round_trips_and_n_pads_or_crops(kind):
    back = tf.signal.idct(tf.signal.dct(X, type=kind, norm="ortho"), type=kind, norm="ortho")
    np.testing.assert_allclose(back.numpy(), X, atol=1e-5)
    np.testing.assert_allclose(tf.signal.dct(X, type=kind, n=4).numpy(),
                               tf.signal.dct(X[:, :4], type=kind).numpy(), atol=1e-5)
    padded = np.pad(X, [[0, 0], [0, 2]])
    np.testing.assert_allclose(tf.signal.dct(X, type=kind, n=8).numpy(),
                               tf.signal.dct(padded, type=kind).numpy(), atol=1e-5)


def test_dct_errors():
    with pytest.raises(ValueError, match="Normalization is not supported for the Type-I"):
        tf.signal.dct(X, type=1, norm="ortho")
    with pytest.raises(ValueError, match="Types I, II, III and IV"):
        tf.signal.dct(X, type=5)
    with pytest.raises(NotImplementedError, match="axis must be -1"):
        tf.signal.dct(X, axis=0)
    with pytest.raises(ValueError, match="Unknown normalization"):
        tf.signal.idct(X, norm="forward")
    with pytest.raises(ValueError, match="n should be a positive integer"):
        tf.signal.dct(X, n=0)


def test_stft_is_windowed_frames_through_rfft():
    x = RNG.normal(size=40).astype(np.float32)
    s = tf.signal.stft(x, 10, 5)
    assert s.shape == (7, 9) and s.dtype == tf.complex64  # fft_length: next power of 2 = 16
    frames = np.stack([x[5 * f:5 * f + 10] for f in range(7)])
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(10) / 10)
    np.testing.assert_allclose(s.numpy(), np.fft.rfft(frames * window, 16), rtol=1e-4,
                               atol=1e-4)
    assert tf.signal.stft(x, 10, 5, fft_length=12, pad_end=True).shape == (8, 7)


def test_inverse_stft_with_the_inverse_window_reconstructs():
    x = RNG.normal(size=64).astype(np.float32)
    s = tf.signal.stft(x, 16, 4)
    y = tf.signal.inverse_stft(s, 16, 4, window_fn=tf.signal.inverse_stft_window_fn(4))
    assert y.shape == (64,)
    np.testing.assert_allclose(y.numpy()[12:52], x[12:52], atol=1e-5)


def test_mdct_round_trip_with_vorbis_and_kbd_windows():
    x = np.pad(RNG.normal(size=40), [4, 4]).astype(np.float32)
    for window in (tf.signal.vorbis_window, tf.signal.kaiser_bessel_derived_window, None):
        for norm in (None, "ortho"):
            m = tf.signal.mdct(x, 8, window_fn=window, norm=norm)
            assert m.shape == (11, 4)
            y = tf.signal.inverse_mdct(m, window_fn=window, norm=norm)
            np.testing.assert_allclose(y.numpy()[4:44], x[4:44], atol=1e-5)
    with pytest.raises(ValueError, match="multiple of 4"):
        tf.signal.mdct(x, 6)


def test_mel_matrix_is_triangles_on_the_htk_mel_scale():
    m = tf.signal.linear_to_mel_weight_matrix(8, 33, 16000, 100.0, 7000.0).numpy()
    assert m.shape == (33, 8) and np.all(m[0] == 0) and np.all(m >= 0) and m.max() <= 1
    mel = lambda f: 1127.0 * np.log(1 + f / 700.0)  # noqa: E731
    edges = np.linspace(mel(100.0), mel(7000.0), 10)
    bins = mel(np.linspace(0, 8000, 33)[1:])
    expected = np.maximum(0, np.minimum((bins[:, None] - edges[None, :-2]) /
                                        (edges[1:-1] - edges[:-2]),
                                        (edges[None, 2:] - bins[:, None]) /
                                        (edges[2:] - edges[1:-1])))
    np.testing.assert_allclose(m[1:], expected, atol=1e-4)
    with pytest.raises(ValueError, match="Nyquist"):
        tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=5000.0)
    with pytest.raises(ValueError, match="num_mel_bins must be positive"):
        tf.signal.linear_to_mel_weight_matrix(0)


def test_mfccs_are_a_scaled_dct2():
    logmel = RNG.normal(size=(3, 5)).astype(np.float32)
    np.testing.assert_allclose(tf.signal.mfccs_from_log_mel_spectrograms(logmel).numpy(),
                               dct_by_definition(logmel.astype(np.float64), 2) / np.sqrt(10),
                               atol=1e-5)


def test_gradients():
    x = RNG.normal(size=(2, 5))
    for kind in (1, 2, 3, 4):
        check_grads(lambda v, kind=kind: tf.signal.dct(v, type=kind), x)
    check_grads(lambda v: tf.signal.idct(v, norm="ortho"), x)
    signal = RNG.normal(size=24)
    check_grads(lambda v: tf.abs(tf.signal.stft(v, 8, 4)), signal)
    check_grads(lambda v: tf.signal.mdct(v, 8), signal)
    a, b = RNG.normal(size=(3, 5)), RNG.normal(size=(3, 5))
    check_grads(lambda p, q: tf.signal.inverse_stft(tf.complex(p, q), 8, 4), a, b)


def test_graph_mode_equals_eager():
    x = tf.constant(RNG.normal(size=(2, 32)).astype(np.float32))
    f = tf.function(lambda v: tf.signal.inverse_stft(
        tf.signal.stft(v, 8, 2), 8, 2, window_fn=tf.signal.inverse_stft_window_fn(2)))
    eager = tf.signal.inverse_stft(tf.signal.stft(x, 8, 2), 8, 2,
                                   window_fn=tf.signal.inverse_stft_window_fn(2))
    np.testing.assert_allclose(f(x).numpy(), eager.numpy(), atol=1e-6)
    g = tf.function(lambda v: tf.signal.mfccs_from_log_mel_spectrograms(tf.signal.dct(v)))
    np.testing.assert_allclose(g(x).numpy(),
                               tf.signal.mfccs_from_log_mel_spectrograms(tf.signal.dct(x)).numpy(),
                               atol=1e-5)


CASES = {
    "dct1": "tf.signal.dct(tf.constant(X), type=1)",
    "dct2": "tf.signal.dct(tf.constant(X))",
    "dct2_ortho_n": "tf.signal.dct(tf.constant(X), n=8, norm='ortho')",
    "dct3": "tf.signal.dct(tf.constant(X), type=3, n=4)",
    "dct4_ortho": "tf.signal.dct(tf.constant(X), type=4, norm='ortho')",
    "idct2": "tf.signal.idct(tf.constant(X))",
    "idct4": "tf.signal.idct(tf.constant(X, tf.float64), type=4)",
    "stft": "tf.signal.stft(tf.constant(S), 10, 4)",
    "stft_pad": ("tf.signal.stft(tf.constant(S), 9, 5, fft_length=12, pad_end=True, "
                 "window_fn=tf.signal.hamming_window)"),
    "istft": "tf.signal.inverse_stft(tf.signal.stft(tf.constant(S), 10, 4), 10, 4)",
    "istft_inv": ("tf.signal.inverse_stft(tf.signal.stft(tf.constant(S), 12, 3), 12, 3, "
                  "window_fn=tf.signal.inverse_stft_window_fn(3))"),
    "istft_pad": ("tf.signal.inverse_stft(tf.signal.stft(tf.constant(S), 8, 4, fft_length=6), 8, "
                  "4, fft_length=6)"),
    "iwindow": ("tf.signal.inverse_stft_window_fn(3, tf.signal.hamming_window)(10, "
                "dtype=tf.float64)"),
    "mdct": "tf.signal.mdct(tf.constant(S), 8)",
    "mdct_kbd": ("tf.signal.mdct(tf.constant(S), 12, "
                 "window_fn=tf.signal.kaiser_bessel_derived_window, pad_end=True, norm='ortho')"),
    "imdct": ("tf.signal.inverse_mdct(tf.signal.mdct(tf.constant(S), 8, window_fn=None), "
              "window_fn=None)"),
    "mel": "tf.signal.linear_to_mel_weight_matrix()",
    "mel_64": ("tf.signal.linear_to_mel_weight_matrix(40, 257, 16000, 20.0, 8000.0, "
               "dtype=tf.float64)"),
    "mfcc": "tf.signal.mfccs_from_log_mel_spectrograms(tf.constant(X))",
    "grad_dct": "grad(lambda v: tf.signal.dct(v, type=4) * W, tf.constant(X))",
    "grad_stft": "grad(lambda v: tf.abs(tf.signal.stft(v, 10, 4)), tf.constant(S))",
    "grad_mdct": "grad(lambda v: tf.signal.mdct(v, 8) ** 2, tf.constant(S))",
}

PRELUDE = """
import json, numpy as np
RNG = np.random.default_rng(5)
X = RNG.normal(size=(2, 6)).astype(np.float32)
S = RNG.normal(size=(2, 41)).astype(np.float32)
W = np.linspace(0.5, 1.5, 6).astype(np.float32)

def grad(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(f(x))
    return tape.gradient(y, x)

def encode(t):
    a = np.asarray(t.numpy())
    return {"dtype": t.dtype.name, "shape": list(a.shape),
            "re": np.real(a).ravel().tolist(), "im": np.imag(a).ravel().tolist()}
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
        for part in ("re", "im"):
            np.testing.assert_allclose(mine[part], theirs[part], rtol=2e-4, atol=2e-4,
                                       err_msg=key)
