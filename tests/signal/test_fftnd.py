"""N-D FFTs over chosen axes: values against NumPy's fftn family (norm, fft_length, axes),
graph mode, no gradient (as TF), errors; real TF 2.21's CPU build has no FFTND kernels, so
one subprocess checks that it raises NotFoundError there and that minitf's fftnd over the
inner axes equals real TF's fft2d/fft3d/rfft2d/irfft2d."""
import json

import numpy as np
import pytest

import minitf as tf

RNG = np.random.default_rng(9)
X = RNG.normal(size=(2, 3, 4)).astype(np.float32)
Z = (X + 1j * RNG.normal(size=(2, 3, 4))).astype(np.complex64)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_complex_transforms_equal_numpy(norm):
    np_norm = norm or "backward"
    np.testing.assert_allclose(tf.signal.fftnd(Z, norm=norm).numpy(),
                               np.fft.fftn(Z, norm=np_norm), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(tf.signal.ifftnd(Z, [3, 6], axes=[0, 2], norm=norm).numpy(),
                               np.fft.ifftn(Z, s=[3, 6], axes=[0, 2], norm=np_norm),
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(tf.signal.rfftnd(X, [2, 5], axes=[1, 2], norm=norm).numpy(),
                               np.fft.rfftn(X, s=[2, 5], axes=[1, 2], norm=np_norm),
                               rtol=1e-4, atol=1e-4)
    back = tf.signal.irfftnd(tf.signal.rfftnd(X, norm=norm), [2, 3, 4], norm=norm)
    np.testing.assert_allclose(back.numpy(), X, atol=1e-5)


def test_defaults_dtypes_and_raw_ops():
    assert tf.signal.rfftnd(tf.constant(X, tf.float64)).dtype == tf.complex128
    assert tf.signal.irfftnd(Z).shape == (2, 3, 6)  # last length: 2 * (bins - 1)
    np.testing.assert_allclose(tf.fftnd(Z, [3, 4], [-2, -1]).numpy(),
                               np.fft.fftn(Z, axes=[1, 2]), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(tf.ifftnd(Z, [4], [2]).numpy(), np.fft.ifft(Z), atol=1e-5)
    np.testing.assert_allclose(tf.rfftnd(X, [4], [2]).numpy(), np.fft.rfft(X), atol=1e-5)
    np.testing.assert_allclose(tf.irfftnd(Z, [6], [2]).numpy(), np.fft.irfft(Z, 6), atol=1e-5)


def test_errors_graph_mode_and_no_gradient():
    with pytest.raises(ValueError, match="RFFT requires"):
        tf.signal.rfftnd(Z)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tcomplex"):
        tf.signal.fftnd(X)
    with pytest.raises(ValueError, match="norm must be"):
        tf.signal.fftnd(Z, norm="both")
    f = tf.function(lambda v: tf.signal.irfftnd(tf.signal.rfftnd(v, axes=[0, 2]), [2, 4],
                                                axes=[0, 2]))
    np.testing.assert_allclose(f(tf.constant(X)).numpy(), X, atol=1e-5)
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.abs(tf.signal.rfftnd(x))
    with pytest.raises(LookupError):
        tape.gradient(y, x)


CASES = {  # minitf expression -> the real TF expression computing the same on a CPU
    "fft2": ("tf.signal.fftnd(tf.constant(Z), axes=[1, 2])", "tf.signal.fft2d(tf.constant(Z))"),
    "fft3": ("tf.signal.fftnd(tf.constant(Z))", "tf.signal.fft3d(tf.constant(Z))"),
    "ifft3": ("tf.signal.ifftnd(tf.constant(Z))", "tf.signal.ifft3d(tf.constant(Z))"),
    "rfft2": ("tf.signal.rfftnd(tf.constant(X), [4, 6], axes=[1, 2])",
              "tf.signal.rfft2d(tf.constant(X), [4, 6])"),
    "irfft2": ("tf.signal.irfftnd(tf.constant(Z), [3, 5], axes=[1, 2])",
               "tf.signal.irfft2d(tf.constant(Z), [3, 5])"),
}

TF_CODE = """
import json, numpy as np, tensorflow as tf
RNG = np.random.default_rng(9)
X = RNG.normal(size=(2, 3, 4)).astype(np.float32)
Z = (X + 1j * RNG.normal(size=(2, 3, 4))).astype(np.complex64)
out = {}
for key, expr in CASES.items():
    a = np.asarray(eval(expr).numpy())
    out[key] = [list(a.shape), np.real(a).ravel().tolist(), np.imag(a).ravel().tolist()]
try:
    tf.signal.fftnd(tf.constant(Z))
    out["error"] = None
except Exception as e:
    out["error"] = type(e).__name__
result = out
"""


TF_SNIPPET = f"CASES = {json.dumps({k: v[1] for k, v in CASES.items()})}\n" + TF_CODE


def check_against_tf(theirs):
    """Run by test_signal_real_tf.py: real TF has no FFTND kernel on a CPU, and minitf's
    N-D transforms over the inner axes equal its fft2d/fft3d/rfft2d/irfft2d."""
    assert theirs["error"] == "NotFoundError"
    namespace = {"tf": tf, "np": np, "X": X, "Z": Z}
    for key, (mine_expr, _) in CASES.items():
        a = np.asarray(eval(mine_expr, namespace).numpy())
        shape, re, im = theirs[key]
        assert list(a.shape) == shape, key
        np.testing.assert_allclose(np.real(a).ravel(), re, rtol=1e-4, atol=1e-4, err_msg=key)
        np.testing.assert_allclose(np.imag(a).ravel(), im, rtol=1e-4, atol=1e-4, err_msg=key)
