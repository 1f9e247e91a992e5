"""tf.nn activations: values vs NumPy and TF, dtypes, kinks, stability, gradients, errors."""
import math
import warnings

import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis.extra import numpy as hnp
from strategies import float_arrays

import minitf as tf

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _erf(v):
    return np.vectorize(math.erf)(v)


def _sigmoid(v):
    return 0.5 * (1 + np.tanh(v / 2))


# NumPy references, evaluated in float64.
REFERENCE = {
    "relu": (tf.nn.relu, lambda v: np.maximum(v, 0)),
    "relu6": (tf.nn.relu6, lambda v: np.clip(v, 0, 6)),
    "leaky_relu": (tf.nn.leaky_relu, lambda v: np.where(v > 0, v, 0.2 * v)),
    "elu": (tf.nn.elu, lambda v: np.where(v > 0, v, np.expm1(np.minimum(v, 0)))),
    "selu": (tf.nn.selu, lambda v: SELU_SCALE * np.where(
        v > 0, v, SELU_ALPHA * np.expm1(np.minimum(v, 0)))),
    "softplus": (tf.nn.softplus, lambda v: np.logaddexp(0, v)),
    "softsign": (tf.nn.softsign, lambda v: v / (1 + np.abs(v))),
    "silu": (tf.nn.silu, lambda v: v * _sigmoid(v)),
    "gelu": (tf.nn.gelu, lambda v: 0.5 * v * (1 + _erf(v / np.sqrt(2)))),
    "gelu_tanh": (lambda x: tf.nn.gelu(x, approximate=True), lambda v: 0.5 * v * (
        1 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v ** 3)))),
}
SMOOTH = ["softplus", "silu", "gelu", "gelu_tanh"]  # differentiable twice everywhere


def _softmax(v, axis=-1):
    e = np.exp(v - v.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _away_from_kinks(x, kinks=(0.0,), gap=0.05):
    """Move entries within `gap` of a kink out of the way: finite differences need it."""
    x = np.array(x, dtype=np.float64)
    for k in kinks:
        near = np.abs(x - k) < gap
        x[near] = k + gap * 2
    return x


# --- values and dtypes ------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(REFERENCE))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_values_match_numpy(name, dtype):
    tf_fn, np_fn = REFERENCE[name]
    v = np.linspace(-7.5, 7.5, 31).astype(dtype)
    out = tf_fn(tf.constant(v))
    assert out.dtype == tf.as_dtype(dtype)
    assert out.shape == v.shape
    np.testing.assert_allclose(out.numpy(), np_fn(v.astype(np.float64)),
                               rtol=2e-6 if dtype == np.float32 else 1e-12, atol=1e-7)


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64, tf.uint8, tf.int8])
def test_relu_and_relu6_keep_integer_dtypes(dtype):
    x = tf.constant([0, 3, 9, 100], dtype)
    assert tf.nn.relu(x).dtype == dtype
    assert tf.nn.relu6(x).numpy().tolist() == [0, 3, 6, 6]
    assert tf.nn.relu(tf.constant([-4, 5], tf.int32)).numpy().tolist() == [0, 5]


def test_leaky_relu_alpha_and_integer_input():
    assert tf.nn.leaky_relu(tf.constant([-1.0, 2.0]), alpha=0.5).numpy().tolist() == [-0.5, 2.0]
    out = tf.nn.leaky_relu(tf.constant([1, -2]))  # TF casts integers to float32
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), [1.0, -0.4])


def test_float16_activations_keep_float16():
    x = tf.constant([-1.0, 0.5, 2.0], tf.float16)
    for fn in (tf.nn.elu, tf.nn.selu, tf.nn.softplus, tf.nn.softsign, tf.nn.gelu, tf.nn.silu,
               tf.nn.softmax, tf.nn.log_softmax, tf.nn.leaky_relu):
        out = fn(x)
        assert out.dtype == tf.float16, fn


def test_selu_constants_are_tfs():
    out = tf.nn.selu(tf.constant([-1000.0, 1.0], tf.float64)).numpy()
    assert out[0] == pytest.approx(-SELU_SCALE * SELU_ALPHA, rel=1e-15)
    assert out[1] == pytest.approx(SELU_SCALE, rel=1e-15)


# Numbers printed by TensorFlow 2.21 (float64 inputs).
TF_GELU_X = [-20.0, -10.0, -5.0, -3.0, -1.0, -0.5, 0.5, 1.0, 3.0]
TF_GELU = [-5.507286032144491e-88, -7.619866192916435e-23, -1.4332584954991237e-06,
           -0.004049694777521031, -0.15865525807260966, -0.1542687708693288,
           0.3457312291306712, 0.8413447419273903, 2.995950305222479]
TF_GELU_TANH = [-0.0, -0.0, -2.2917969022540063e-07, -0.0036373923237909,
                -0.15880800972132364, -0.15428599020775666, 0.3457140097922433,
                0.8411919902786764, 2.9963626076762093]


def test_gelu_matches_tensorflow_including_far_tail():
    x = tf.constant(TF_GELU_X, tf.float64)
    np.testing.assert_allclose(tf.nn.gelu(x).numpy(), TF_GELU, rtol=1e-12)
    np.testing.assert_allclose(tf.nn.gelu(x, approximate=True).numpy(), TF_GELU_TANH,
                               rtol=1e-12, atol=1e-15)  # 1 + tanh(...) cancels for x << 0
    f32 = tf.nn.gelu(tf.constant([-10.0, -3.0, -1.0, 1.0, 3.0])).numpy()
    np.testing.assert_allclose(f32, [-7.6198536e-23, -4.0496965e-03, -1.5865526e-01,
                                     8.4134471e-01, 2.9959502e+00], rtol=1e-6)


def test_selu_matches_tensorflow():
    x = tf.constant([-1000.0, -20.0, -3.0, -1.0, -1e-5, 1.0, 3.0], tf.float64)
    np.testing.assert_allclose(
        tf.nn.selu(x).numpy(),
        [-1.7580993408473768, -1.7580993372236642, -1.670568728767112, -1.1113307378125628,
         -1.7580905503809817e-05, 1.0507009873554805, 3.1521029620664414], rtol=1e-14)


def test_softplus_matches_tensorflow_at_large_magnitudes():
    x64 = tf.constant([-1000.0, -35.0, -20.0, -1.0, 1.0, 20.0, 35.0, 1000.0], tf.float64)
    np.testing.assert_allclose(
        tf.math.softplus(x64).numpy(),
        [0.0, 6.305116760146989e-16, 2.061153620314381e-09, 0.3132616875182228,
         1.3132616875182228, 20.000000002061153, 35.0, 1000.0], rtol=1e-14)
    x32 = tf.constant([-1000.0, -20.0, -14.0, 14.0, 20.0, 1000.0])
    np.testing.assert_allclose(
        tf.nn.softplus(x32).numpy(),
        [0.0, 2.06115369216775e-09, 8.315287232107949e-07, 14.0, 20.0, 1000.0], rtol=1e-6)


def test_silu_with_beta_matches_tensorflow():
    x = tf.constant([-2.0, -0.5, 0.5, 2.0], tf.float64)
    beta = tf.constant(0.5, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(beta)
        y = tf.nn.swish(x, beta=beta)
    np.testing.assert_allclose(y.numpy(), [-0.5378828427399902, -0.21891174955710094,
                                           0.28108825044289903, 1.4621171572600098], rtol=1e-14)
    assert float(tape.gradient(y, beta)) == pytest.approx(1.695962507300654, rel=1e-12)


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax_and_log_softmax_values(axis):
    v = np.random.default_rng(0).normal(size=(3, 4)) * 3
    np.testing.assert_allclose(tf.nn.softmax(tf.constant(v), axis=axis).numpy(),
                               _softmax(v, axis), rtol=1e-12)
    np.testing.assert_allclose(tf.nn.log_softmax(tf.constant(v), axis=axis).numpy(),
                               np.log(_softmax(v, axis)), rtol=1e-12)
    assert tf.nn.softmax(tf.constant(v.astype(np.float32))).dtype == tf.float32


def test_softmax_of_empty_tensor_is_empty():
    assert tf.nn.softmax(tf.zeros([0])).shape == tf.TensorShape([0])


def test_public_aliases():
    assert tf.math.softplus is tf.nn.softplus
    assert tf.math.softsign is tf.nn.softsign
    assert tf.nn.swish is tf.nn.silu
    assert tf.math.softmax is tf.nn.softmax
    assert tf.math.log_softmax is tf.nn.log_softmax


# --- kinks: TF's conventions -------------------------------------------------------------------
@pytest.mark.parametrize("fn, x, expected", [
    (tf.nn.relu, [0.0, -1.0, 2.0], [0.0, 0.0, 1.0]),
    (tf.nn.relu6, [0.0, 6.0, 3.0, 7.0], [0.0, 0.0, 1.0, 0.0]),
    (tf.nn.leaky_relu, [0.0, -1.0, 1.0], [0.2, 0.2, 1.0]),
    (tf.nn.elu, [0.0], [1.0]),
    (tf.nn.selu, [0.0], [SELU_SCALE]),
])
def test_gradients_at_kinks_follow_tensorflow(fn, x, expected):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected, rtol=1e-6)


# --- stability ---------------------------------------------------------------------------------
STABLE = [tf.nn.relu, tf.nn.relu6, tf.nn.leaky_relu, tf.nn.elu, tf.nn.selu, tf.nn.softplus,
          tf.nn.softsign, tf.nn.silu, tf.nn.gelu, lambda x: tf.nn.gelu(x, approximate=True),
          tf.nn.softmax, tf.nn.log_softmax]


@pytest.mark.parametrize("fn", STABLE)
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_huge_inputs_give_finite_values_and_gradients_without_warnings(fn, dtype):
    x = tf.constant([-1000.0, -30.0, 0.5, 30.0, 1000.0], dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        g = tape.gradient(y, x)
    assert np.all(np.isfinite(y.numpy())) and np.all(np.isfinite(g.numpy()))


def test_softmax_of_huge_logits_is_exact():
    out = tf.nn.softmax(tf.constant([1000.0, -1000.0, 0.0])).numpy()
    np.testing.assert_array_equal(out, [1.0, 0.0, 0.0])
    np.testing.assert_array_equal(tf.nn.log_softmax(tf.constant([1000.0, 0.0])).numpy(),
                                  [0.0, -1000.0])


# --- gradients ---------------------------------------------------------------------------------
KINKS = {"relu": (0.0,), "relu6": (0.0, 6.0), "leaky_relu": (0.0,), "elu": (0.0,),
         "selu": (0.0,), "softsign": (0.0,)}


@pytest.mark.parametrize("name", sorted(REFERENCE))
@given(x=float_arrays(low=-8.0, high=8.0))
def test_first_order_gradients(name, x):
    check_grads(REFERENCE[name][0], _away_from_kinks(x, KINKS.get(name, ())))


@pytest.mark.parametrize("name", SMOOTH + ["elu", "softsign"])
def test_second_order_gradients(name):
    x = _away_from_kinks(np.linspace(-3.0, 3.0, 7).reshape(7, 1) * [1.0, 0.7], (0.0,))
    check_grads(REFERENCE[name][0], x, order=2)


@given(x=float_arrays(), beta=float_arrays(shape=()))
def test_swish_gradient_wrt_features_and_beta(x, beta):
    check_grads(lambda a, b: tf.nn.swish(a, beta=b), x, beta, order=1)


def test_swish_second_order():
    check_grads(lambda a, b: tf.nn.swish(a, beta=b), np.array([[-1.5, 0.3], [0.8, 2.0]]),
                np.array(0.7), order=2)


rank_at_least_1 = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)


@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax])
@given(x=float_arrays(shape=rank_at_least_1, low=-4.0, high=4.0))
def test_softmax_gradients_on_every_axis(fn, x):
    for axis in range(-x.ndim, x.ndim):
        check_grads(lambda v, axis=axis: fn(v, axis=axis), x)


@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax])
@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_second_order(fn, axis):
    x = np.random.default_rng(3).normal(size=(3, 4))
    check_grads(lambda v: fn(v, axis=axis), x, order=2)


def test_integer_inputs_get_no_gradient():
    x = tf.constant([1, -2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.relu(x)
    assert tape.gradient(y, x) is None


# --- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize("fn, x, cls, message", [
    (tf.nn.elu, [1, -2], tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of int32 is not in the list of allowed values: half, float, double"),
    (tf.nn.selu, [1, 2], tf.errors.InvalidArgumentError, r"attr 'T' of int32 .*\[Op:Selu\]"),
    (tf.nn.softplus, [1], tf.errors.InvalidArgumentError, r"attr 'T' of int32 .*\[Op:Softplus\]"),
    (tf.nn.softsign, [1], tf.errors.InvalidArgumentError, r"attr 'T' of int32 .*\[Op:Softsign\]"),
    (tf.nn.relu, [True], tf.errors.InvalidArgumentError, r"attr 'T' of bool .*\[Op:Relu\]"),
    (tf.nn.softmax, [1, 2], tf.errors.InvalidArgumentError, r"attr 'T' of int32 .*\[Op:Softmax\]"),
    (tf.nn.gelu, [1, 2], ValueError, r"must be a floating point tensor.*<dtype: 'int32'>"),
    (tf.nn.softmax, 1.0, tf.errors.InvalidArgumentError,
     r"logits must have >= 1 dimension, got \[\] \[Op:Softmax\]"),
    (tf.nn.log_softmax, 1.0, tf.errors.InvalidArgumentError,
     r"logits must have >= 1 dimension, got \[\] \[Op:LogSoftmax\]"),
])
def test_error_table(fn, x, cls, message):
    with pytest.raises(cls, match=message):
        fn(x)


@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax])
@pytest.mark.parametrize("axis", [2, -3])
def test_softmax_axis_out_of_range(fn, axis):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"`dim` must be in the range \[-2, 2\) where 2 is the number of "
                             rf"dimensions in the input. Received: dim={axis}"):
        fn([[1.0, 2.0]], axis=axis)
