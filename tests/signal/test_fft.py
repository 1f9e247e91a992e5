"""tf.signal's FFT family: values against the DFT written as a matrix, fft_length padding and
cropping, dtypes, TF's errors, gradients by finite differences (TF's complex convention), graph
mode, and one batch of the same expressions under real TF 2.21."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads

RNG = np.random.default_rng(3)
X = RNG.normal(size=(2, 3, 5)).astype(np.float32)
Z = (RNG.normal(size=(2, 3, 4)) + 1j * RNG.normal(size=(2, 3, 4))).astype(np.complex64)


def dft_matrix(n, sign=-1):
    k = np.arange(n)
    return np.exp(sign * 2j * np.pi * np.outer(k, k) / n)


def test_fft_is_the_dft_matrix_and_ifft_its_inverse():
    got = tf.signal.fft(Z)
    assert got.dtype == tf.complex64 and got.shape == (2, 3, 4)
    np.testing.assert_allclose(got.numpy(), Z @ dft_matrix(4).T, rtol=1e-5, atol=1e-5)
    back = tf.signal.ifft(got).numpy()
    np.testing.assert_allclose(back, Z, rtol=1e-5, atol=1e-5)
    z128 = tf.constant(Z.astype(np.complex128))
    assert tf.signal.fft(z128).dtype == tf.complex128


def test_fft2d_and_fft3d_transform_the_inner_axes_one_by_one():
    one_by_one = Z @ dft_matrix(4).T
    one_by_one = np.einsum("ij,bjk->bik", dft_matrix(3), one_by_one)
    np.testing.assert_allclose(tf.signal.fft2d(Z).numpy(), one_by_one, rtol=1e-4, atol=1e-4)
    three = np.einsum("ij,jkl->ikl", dft_matrix(2), one_by_one)
    np.testing.assert_allclose(tf.signal.fft3d(Z).numpy(), three, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(tf.signal.ifft3d(tf.signal.fft3d(Z)).numpy(), Z, atol=1e-5)
    np.testing.assert_allclose(tf.signal.ifft2d(tf.signal.fft2d(Z)).numpy(), Z, atol=1e-5)


def test_rfft_keeps_half_the_bins_and_fft_length_pads_or_crops():
    full = X.astype(np.complex128) @ dft_matrix(5).T
    got = tf.signal.rfft(X)
    assert got.dtype == tf.complex64 and got.shape == (2, 3, 3)
    np.testing.assert_allclose(got.numpy(), full[..., :3], rtol=1e-5, atol=1e-5)
    padded = np.concatenate([X, np.zeros((2, 3, 3), np.float32)], -1)
    np.testing.assert_allclose(tf.signal.rfft(X, [8]).numpy(),
                               (padded @ dft_matrix(8).T)[..., :5], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tf.signal.rfft(X, [3]).numpy(),
                               (X[..., :3] @ dft_matrix(3).T)[..., :2], rtol=1e-5, atol=1e-5)
    assert tf.signal.rfft(tf.constant(X, tf.float64)).dtype == tf.complex128


def test_irfft_inverts_rfft_with_the_default_and_odd_lengths():
    even = tf.signal.irfft(tf.signal.rfft(X[..., :4]))
    assert even.shape == (2, 3, 4) and even.dtype == tf.float32
    np.testing.assert_allclose(even.numpy(), X[..., :4], atol=1e-5)
    odd = tf.signal.irfft(tf.signal.rfft(X), [5])
    np.testing.assert_allclose(odd.numpy(), X, atol=1e-5)
    np.testing.assert_allclose(tf.signal.irfft2d(tf.signal.rfft2d(X), [3, 5]).numpy(), X,
                               atol=1e-5)
    np.testing.assert_allclose(tf.signal.irfft3d(tf.signal.rfft3d(X), [2, 3, 5]).numpy(), X,
                               atol=1e-5)


def test_fftshift_and_ifftshift_roll_by_half():
    x = np.arange(10.0).reshape(2, 5)
    np.testing.assert_array_equal(tf.signal.fftshift(x).numpy(), np.fft.fftshift(x))
    np.testing.assert_array_equal(tf.signal.ifftshift(x).numpy(), np.fft.ifftshift(x))
    np.testing.assert_array_equal(tf.signal.fftshift(x, axes=1).numpy(),
                                  np.fft.fftshift(x, axes=1))
    np.testing.assert_array_equal(tf.signal.ifftshift(x, axes=[-1]).numpy(),
                                  np.fft.ifftshift(x, axes=[-1]))


def test_errors_follow_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tcomplex' of float"):
        tf.signal.fft(tf.constant([1.0, 2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank of at least 2"):
        tf.signal.fft2d(tf.constant([1j], tf.complex64))
    with pytest.raises(ValueError, match="RFFT requires tf.float32 or tf.float64"):
        tf.signal.rfft(tf.constant([1, 2]))
    with pytest.raises(ValueError, match="IRFFT requires tf.complex64 or tf.complex128"):
        tf.signal.irfft(tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="must have rank at least 1"):
        tf.signal.rfft(tf.constant(1.0))


def _complex_fn(transform):
    def f(a, b):
        y = transform(tf.complex(a, b))
        return tf.stack([tf.math.real(y), tf.math.imag(y)])
    return f


@pytest.mark.parametrize("transform", [tf.signal.fft, tf.signal.ifft, tf.signal.fft2d,
                                       tf.signal.ifft2d, tf.signal.fft3d, tf.signal.ifft3d])
def test_complex_transform_gradients(transform):
    a, b = RNG.normal(size=(2, 2, 3)), RNG.normal(size=(2, 2, 3))
    check_grads(_complex_fn(transform), a, b)


@pytest.mark.parametrize("length", [None, [3], [4], [7]])
def test_rfft_gradient_with_padding_and_cropping(length):
    x = RNG.normal(size=(2, 5))
    check_grads(lambda v: tf.abs(tf.signal.rfft(v, length)) ** 2, x)
    check_grads(lambda v: tf.math.imag(tf.signal.rfft(v, length)), x)


@pytest.mark.parametrize("length", [None, [3], [6]])
def test_irfft_gradient(length):
    a, b = RNG.normal(size=(2, 4)), RNG.normal(size=(2, 4))
    check_grads(lambda p, q: tf.signal.irfft(tf.complex(p, q), length), a, b)


def test_2d_real_transform_gradients():
    x = RNG.normal(size=(3, 4))
    check_grads(lambda v: tf.abs(tf.signal.rfft2d(v, [3, 5])), x)
    a, b = RNG.normal(size=(3, 3)), RNG.normal(size=(3, 3))
    check_grads(lambda p, q: tf.signal.irfft2d(tf.complex(p, q)), a, b)


def test_rfft3d_has_no_gradient_as_in_tf():
    x = tf.ones([2, 2, 2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.abs(tf.signal.rfft3d(x))
    with pytest.raises(LookupError):
        tape.gradient(y, x)


def test_graph_mode_equals_eager():
    @tf.function
    def f(x):
        spectrum = tf.signal.rfft(x, [8])
        return tf.signal.irfft(spectrum, [8]), tf.signal.fftshift(tf.abs(spectrum))

    eager = tf.signal.irfft(tf.signal.rfft(X, [8]), [8])
    graph, shifted = f(tf.constant(X))
    assert graph.shape == (2, 3, 8) and shifted.shape == (2, 3, 5)
    np.testing.assert_allclose(graph.numpy(), eager.numpy(), atol=1e-6)


CASES = {
    "fft": "tf.signal.fft(tf.constant(Z))",
    "ifft": "tf.signal.ifft(tf.constant(Z))",
    "fft2d": "tf.signal.fft2d(tf.constant(Z))",
    "ifft3d": "tf.signal.ifft3d(tf.constant(Z))",
    "rfft": "tf.signal.rfft(tf.constant(X))",
    "rfft_pad": "tf.signal.rfft(tf.constant(X), [8])",
    "rfft_crop": "tf.signal.rfft(tf.constant(X), [3])",
    "rfft2d": "tf.signal.rfft2d(tf.constant(X), [4, 6])",
    "rfft3d": "tf.signal.rfft3d(tf.constant(X))",
    "irfft": "tf.signal.irfft(tf.constant(Z))",
    "irfft_odd": "tf.signal.irfft(tf.constant(Z), [5])",
    "irfft_crop": "tf.signal.irfft(tf.constant(Z), [3])",
    "irfft_pad": "tf.signal.irfft(tf.constant(Z), [10])",
    "irfft2d": "tf.signal.irfft2d(tf.constant(Z), [3, 5])",
    "irfft3d": "tf.signal.irfft3d(tf.constant(Z))",
    "fftshift": "tf.signal.fftshift(tf.constant(X), axes=[0, 2])",
    "ifftshift": "tf.signal.ifftshift(tf.constant(X))",
    "grad_fft": "grad(lambda v: tf.abs(tf.signal.fft(v)) ** 2, tf.constant(Z))",
    "grad_ifft2d": "grad(lambda v: tf.math.real(tf.signal.ifft2d(v)) * W3, tf.constant(Z))",
    "grad_rfft": "grad(lambda v: tf.abs(tf.signal.rfft(v)) ** 2, tf.constant(X))",
    "grad_rfft_pad": "grad(lambda v: tf.math.imag(tf.signal.rfft(v, [8])), tf.constant(X))",
    "grad_irfft": "grad(lambda v: tf.signal.irfft(v) * W5, tf.constant(Z[..., :4]))",
    "grad_irfft_odd": "grad(lambda v: tf.signal.irfft(v, [7]) ** 2, tf.constant(Z))",
    "grad_rfft2d": "grad(lambda v: tf.abs(tf.signal.rfft2d(v)), tf.constant(X))",
    "grad_irfft2d": "grad(lambda v: tf.signal.irfft2d(v) ** 2, tf.constant(Z))",
}

PRELUDE = """
import json, numpy as np
RNG = np.random.default_rng(3)
X = RNG.normal(size=(2, 3, 5)).astype(np.float32)
Z = (RNG.normal(size=(2, 3, 4)) + 1j * RNG.normal(size=(2, 3, 4))).astype(np.complex64)
W3 = np.linspace(0.5, 1.5, 4).astype(np.float32)
W5 = np.linspace(0.5, 1.5, 6).astype(np.float32)

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


def _evaluate(namespace, cases):
    out = {}
    for key, expr in cases.items():
        out[key] = namespace["encode"](eval(expr, namespace))
    return out


TF_SNIPPET = ("import tensorflow as tf\n" + PRELUDE + f"cases = {json.dumps(CASES)}\n"
              "result = {k: encode(eval(v)) for k, v in cases.items()}\n")


def check_against_tf(theirs):
    """Run by test_signal_real_tf.py, which runs every tf.signal file's snippet in one TF."""
    namespace = {"tf": tf}
    exec(PRELUDE, namespace)
    mine = _evaluate(namespace, CASES)
    for key, value in theirs.items():
        assert mine[key]["dtype"] == value["dtype"], key
        assert mine[key]["shape"] == value["shape"], key
        for part in ("re", "im"):
            np.testing.assert_allclose(mine[key][part], value[part], rtol=2e-4, atol=2e-4,
                                       err_msg=key)
