"""Element-wise unary math: values vs NumPy, dtypes, gradients (1st and 2nd order), errors."""
import math
import re
import warnings

import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given, settings
from strategies import arrays, small_shapes

import minitf as tf
from minitf.ops import unary_ops

_erf = np.vectorize(math.erf)
_erfc = np.vectorize(math.erfc)

# name -> (minitf function, NumPy reference in float64, (low, high) of a safe input domain)
UNARY = {
    "sqrt": (tf.sqrt, np.sqrt, (0.2, 3.0)),
    "rsqrt": (tf.math.rsqrt, lambda x: 1 / np.sqrt(x), (0.2, 3.0)),
    "exp": (tf.exp, np.exp, (-2.0, 2.0)),
    "expm1": (tf.math.expm1, np.expm1, (-2.0, 2.0)),
    "log1p": (tf.math.log1p, np.log1p, (-0.8, 2.0)),
    "sin": (tf.sin, np.sin, (-3.0, 3.0)),
    "cos": (tf.cos, np.cos, (-3.0, 3.0)),
    "tan": (tf.tan, np.tan, (-1.2, 1.2)),
    "asin": (tf.asin, np.arcsin, (-0.9, 0.9)),
    "acos": (tf.acos, np.arccos, (-0.9, 0.9)),
    "atan": (tf.atan, np.arctan, (-3.0, 3.0)),
    "sinh": (tf.sinh, np.sinh, (-2.0, 2.0)),
    "cosh": (tf.cosh, np.cosh, (-2.0, 2.0)),
    "tanh": (tf.tanh, np.tanh, (-3.0, 3.0)),
    "sigmoid": (tf.sigmoid, lambda x: 1 / (1 + np.exp(-x)), (-4.0, 4.0)),
    "log_sigmoid": (tf.math.log_sigmoid, lambda x: -np.log1p(np.exp(-x)), (-4.0, 4.0)),
    "square": (tf.square, np.square, (-2.0, 2.0)),
    "reciprocal": (tf.math.reciprocal, lambda x: 1 / x, (0.3, 3.0)),
    "erf": (tf.math.erf, _erf, (-2.5, 2.5)),
    "erfc": (tf.math.erfc, _erfc, (-2.5, 4.0)),
}
SECOND_ORDER = ["exp", "log1p", "tanh", "sigmoid", "sqrt", "square", "log_sigmoid", "erf",
                "rsqrt", "reciprocal", "tan", "asin"]


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_values_match_numpy_and_keep_the_dtype(name, dtype):
    fn, reference, (low, high) = UNARY[name]
    x = arrays((3, 4), low, high, seed=1).astype(dtype)
    out = fn(tf.constant(x))
    assert out.dtype == tf.as_dtype(dtype)
    assert out.shape == tf.TensorShape([3, 4])
    rtol = 2e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(out.numpy(), reference(x.astype(np.float64)), rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_float16_is_kept(name):
    fn, reference, (low, high) = UNARY[name]
    x = arrays((5,), low, high, seed=2).astype(np.float16)
    out = fn(tf.constant(x))
    assert out.dtype == tf.float16
    np.testing.assert_allclose(out.numpy(), reference(x.astype(np.float64)), rtol=4e-3, atol=2e-3)


@pytest.mark.parametrize("name", sorted(UNARY))
@given(shape=small_shapes)
@settings(max_examples=6)
def test_first_order_gradients(name, shape):
    fn, _, (low, high) = UNARY[name]
    check_grads(fn, arrays(shape, low, high, seed=3))


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_second_order_gradients(name):
    fn, _, (low, high) = UNARY[name]
    check_grads(fn, arrays((2, 1, 3), low, high, seed=4), order=2)


@pytest.mark.parametrize("name", ["exp", "tanh", "sigmoid", "sqrt"])
@given(shape=small_shapes)
@settings(max_examples=4)
def test_second_order_over_shapes(name, shape):
    fn, _, (low, high) = UNARY[name]
    check_grads(fn, arrays(shape, low, high, seed=5), order=2)


@pytest.mark.parametrize("op, fn", [(unary_ops.Exp, tf.exp), (unary_ops.Tanh, tf.tanh),
                                    (unary_ops.Sigmoid, tf.sigmoid), (unary_ops.Sqrt, tf.sqrt),
                                    (unary_ops.Rsqrt, tf.math.rsqrt),
                                    (unary_ops.Reciprocal, tf.math.reciprocal)])
def test_gradients_reuse_the_forward_output(op, fn):
    # The gradient must be computed from op.outputs[0]: replace the recorded output by a
    # marker value and the gradient changes, proving that it is read.
    x = tf.constant([0.5, 1.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    record = next(r for r in tape.recorded_operations() if r.op_def is op)
    assert record.outputs[0] is y
    fake = type(record)(op, record.inputs, (tf.constant([2.0, 3.0]),), record.attrs, None)
    honest = op.grad(record, tf.ones_like(y)).numpy()
    marked = op.grad(fake, tf.ones_like(y)).numpy()
    assert not np.allclose(honest, marked)


def test_gradient_dtype_follows_the_input():
    for dtype in (tf.float16, tf.float32):
        x = tf.constant([0.5, 1.0], dtype=dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sigmoid(tf.sqrt(x)) * tf.exp(x)
        assert tape.gradient(y, x).dtype == dtype


def test_sigmoid_and_log_sigmoid_are_stable_for_large_inputs():
    x = tf.constant([-1000.0, -100.0, -50.0, -20.0, 0.0, 20.0, 50.0, 100.0, 1000.0], tf.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warnings anywhere
        s = tf.sigmoid(x).numpy()
        ls = tf.math.log_sigmoid(x).numpy()
        s32 = tf.sigmoid(tf.cast(x, tf.float32)).numpy()
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.log_sigmoid(x)
        g = tape.gradient(y, x).numpy()
    # Reference values from TensorFlow 2.21 (float64 kernels).
    np.testing.assert_allclose(s, [0.0, 3.7200759760208356e-44, 1.9287498479639178e-22,
                                   2.0611536181902033e-09, 0.5, 0.99999999793884642, 1, 1, 1],
                               rtol=1e-15, atol=0)
    np.testing.assert_allclose(ls, [-1000.0, -100.0, -50.0, -20.000000002061153,
                                    -0.6931471805599453, -2.0611536203143808e-09,
                                    -1.9287498479639178e-22, -3.7200759760208356e-44, -0.0],
                               rtol=1e-15, atol=0)
    assert np.all((s32 >= 0) & (s32 <= 1)) and s32[4] == 0.5
    # d log sigmoid(x) = sigmoid(-x), and x is symmetric: the gradient is s reversed.
    np.testing.assert_allclose(g, s[::-1], rtol=1e-15, atol=0)


def test_sigmoid_special_values_and_complex():
    out = tf.sigmoid(tf.constant([np.nan, np.inf, -np.inf])).numpy()
    assert np.isnan(out[0]) and out[1] == 1.0 and out[2] == 0.0
    z = tf.sigmoid(tf.constant([1 + 1j]))
    assert z.dtype == tf.complex128
    np.testing.assert_allclose(z.numpy(), [0.7820415706337493 + 0.20194822765801293j],
                               rtol=1e-14)


def test_log_sigmoid_special_values():
    out = tf.math.log_sigmoid(tf.constant([np.nan, np.inf, -np.inf])).numpy()
    assert np.isnan(out[0]) and out[1] == 0.0 and np.signbit(out[1]) and out[2] == -np.inf


def test_erf_and_erfc_are_accurate_everywhere():
    x = np.linspace(-7.0, 7.0, 2801)
    np.testing.assert_allclose(tf.math.erf(tf.constant(x)).numpy(), _erf(x),
                               rtol=5e-15, atol=1e-16)
    np.testing.assert_allclose(tf.math.erfc(tf.constant(x)).numpy(), _erfc(x),
                               rtol=5e-14, atol=0)
    tail = np.array([2.0, 5.0, 10.0, 20.0, 26.0])  # 1 - erf would give exactly 0 here
    np.testing.assert_allclose(tf.math.erfc(tf.constant(tail)).numpy(), _erfc(tail), rtol=1e-14)
    assert tf.math.erfc(tf.constant(10.0, tf.float64)).numpy() == pytest.approx(
        2.0884875837625443e-45, rel=1e-14)


def test_erf_and_erfc_special_values():
    special = tf.constant([np.nan, np.inf, -np.inf])
    erf, erfc = tf.math.erf(special).numpy(), tf.math.erfc(special).numpy()
    assert np.isnan(erf[0]) and erf[1] == 1.0 and erf[2] == -1.0
    assert np.isnan(erfc[0]) and erfc[1] == 0.0 and erfc[2] == 2.0
    assert tf.math.erf(tf.constant(0.0)).numpy() == 0.0


def test_sqrt_rsqrt_reciprocal_edge_values():
    with np.errstate(all="ignore"):
        assert np.isnan(tf.sqrt(tf.constant(-1.0)).numpy())
        np.testing.assert_array_equal(tf.math.rsqrt(tf.constant([0.0, 4.0])).numpy(), [np.inf, 0.5])
        np.testing.assert_array_equal(tf.math.reciprocal(tf.constant([0.0, -0.0, 2.0])).numpy(),
                                      [np.inf, -np.inf, 0.5])


def test_expm1_and_log1p_keep_tiny_inputs():
    assert tf.math.expm1(tf.constant([1e-10])).numpy()[0] == pytest.approx(1e-10, rel=1e-6)
    assert tf.math.log1p(tf.constant([1e-10])).numpy()[0] == pytest.approx(1e-10, rel=1e-6)
    assert (tf.exp(tf.constant([1e-10])) - 1).numpy()[0] == 0.0  # why expm1 exists


def test_square_on_integers_keeps_the_dtype_and_wraps():
    out = tf.square(tf.constant([-3, 4]))
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), [9, 16])
    wrapped = tf.square(tf.constant([20], tf.uint8))
    assert wrapped.dtype == tf.uint8 and wrapped.numpy()[0] == 144  # 400 mod 256, as TF


def test_round_is_bankers_rounding():
    x = tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, 3.7])
    out = tf.round(x).numpy()
    np.testing.assert_array_equal(out, [0.0, 2.0, 2.0, -0.0, -2.0, -2.0, 2.0, 4.0])
    assert np.signbit(out[3])  # -0.5 rounds to -0.0, as in TF
    assert tf.round(x).dtype == tf.float32


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64, tf.uint8])
def test_round_returns_integer_tensors_unchanged(dtype):
    x = tf.constant([3, 7], dtype=dtype)
    out = tf.round(x)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), [3, 7])


def test_floor_ceil_values():
    x = tf.constant([-1.5, -0.2, 0.0, 1.5, 2.0], tf.float64)
    np.testing.assert_array_equal(tf.floor(x).numpy(), [-2.0, -1.0, 0.0, 1.0, 2.0])
    np.testing.assert_array_equal(tf.math.ceil(x).numpy(), [-1.0, -0.0, 0.0, 2.0, 2.0])
    assert tf.floor(tf.constant([1.5], tf.float16)).dtype == tf.float16


def test_is_nan_is_inf_is_finite():
    x = tf.constant([1.0, np.nan, np.inf, -np.inf, 0.0])
    for fn, expected in [(tf.math.is_nan, [False, True, False, False, False]),
                         (tf.math.is_inf, [False, False, True, True, False]),
                         (tf.math.is_finite, [True, False, False, False, True])]:
        out = fn(x)
        assert out.dtype == tf.bool
        np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("fn", [tf.round, tf.floor, tf.math.ceil, tf.math.is_nan,
                                tf.math.is_inf, tf.math.is_finite])
def test_rounding_and_tests_have_no_gradient(fn):
    x = tf.constant([0.3, 1.7])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    assert tape.gradient(y, x) is None


def test_gradients_at_special_points_match_tensorflow():
    # sqrt/rsqrt at 0 give infinite slopes; TF's values are reproduced exactly.
    x = tf.constant([0.0, 0.3, 1.5, 0.5], tf.float64)
    with tf.GradientTape(persistent=True) as tape, np.errstate(divide="ignore"):
        tape.watch(x)
        s, r = tf.sqrt(x), tf.math.rsqrt(x)
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(tape.gradient(s, x).numpy(),
                                   [np.inf, 0.9128709291752769, 0.4082482904638631,
                                    0.7071067811865475], rtol=1e-15)
        np.testing.assert_allclose(tape.gradient(r, x).numpy(),
                                   [-np.inf, -3.0429030972509232, -0.2721655269759088,
                                    -1.4142135623730947], rtol=1e-15)


def test_complex_inputs_keep_their_dtype():
    z = np.array([1 + 2j, -0.5 + 0.1j], np.complex64)
    for fn, reference in [(tf.exp, np.exp), (tf.sqrt, np.sqrt), (tf.sin, np.sin),
                          (tf.tanh, np.tanh), (tf.math.reciprocal, np.reciprocal),
                          (tf.square, np.square)]:
        out = fn(tf.constant(z))
        assert out.dtype == tf.complex64
        np.testing.assert_allclose(out.numpy(), reference(z), rtol=1e-6)


def test_python_values_are_converted_like_tf():
    assert tf.sqrt(4.0).dtype == tf.float32
    np.testing.assert_allclose(tf.sqrt([4.0, 9.0]).numpy(), [2.0, 3.0])
    v = tf.Variable([0.0, 1.0])
    np.testing.assert_allclose(tf.exp(v).numpy(), np.exp([0.0, 1.0]), rtol=1e-6)


def test_public_names():
    assert tf.nn.sigmoid is tf.math.sigmoid is tf.sigmoid
    assert tf.nn.tanh is tf.math.tanh is tf.tanh
    for name in ["sqrt", "exp", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
                 "square", "round", "floor"]:
        assert getattr(tf, name) is getattr(tf.math, name)
    for name in ["rsqrt", "expm1", "log1p", "reciprocal", "ceil", "is_nan", "is_inf",
                 "is_finite", "erf", "erfc", "log_sigmoid"]:
        assert callable(getattr(tf.math, name))


def test_shape_rule_keeps_unknown_dimensions():
    shape = tf.TensorShape([None, 3])
    assert unary_ops.Sqrt.shape(shape) is shape
    assert unary_ops.IsNan.shape(tf.TensorShape(None)).rank is None


# --- errors -------------------------------------------------------------------------------------
INEXACT_LIST = "half, float, double, complex64, complex128$"
FLOAT_LIST = "half, float, double$"


@pytest.mark.parametrize("fn, value, op_name, allowed", [
    (tf.sqrt, tf.constant(4), "Sqrt", INEXACT_LIST),
    (tf.sqrt, 4, "Sqrt", INEXACT_LIST),  # a Python int becomes int32, as in TF
    (tf.math.rsqrt, tf.constant([1], tf.int64), "Rsqrt", INEXACT_LIST),
    (tf.exp, tf.constant([1], tf.uint8), "Exp", INEXACT_LIST),
    (tf.math.expm1, tf.constant([True]), "Expm1", INEXACT_LIST),
    (tf.math.log1p, tf.constant([1]), "Log1p", INEXACT_LIST),
    (tf.sin, tf.constant([1]), "Sin", INEXACT_LIST),
    (tf.cos, tf.constant([1]), "Cos", INEXACT_LIST),
    (tf.tan, tf.constant([1]), "Tan", INEXACT_LIST),
    (tf.asin, tf.constant([1]), "Asin", INEXACT_LIST),
    (tf.acos, tf.constant([1]), "Acos", INEXACT_LIST),
    (tf.atan, tf.constant([1]), "Atan", INEXACT_LIST),
    (tf.sinh, tf.constant([1]), "Sinh", INEXACT_LIST),
    (tf.cosh, tf.constant([1]), "Cosh", INEXACT_LIST),
    (tf.tanh, tf.constant([1]), "Tanh", INEXACT_LIST),
    (tf.sigmoid, tf.constant([1]), "Sigmoid", INEXACT_LIST),
    (tf.square, tf.constant([True]), "Square",
     "half, float, double, int8, int16, int32, int64, uint8, uint16, uint32, uint64, "
     "complex64, complex128$"),
    (tf.math.reciprocal, tf.constant([1], tf.uint8), "Reciprocal",
     "half, float, double, int8, int16, int32, int64, complex64, complex128$"),
    (tf.round, tf.constant([True]), "Round",
     "half, float, double, int8, int16, int32, int64, complex64, complex128$"),
    (tf.floor, tf.constant([1]), "Floor", FLOAT_LIST),
    (tf.math.ceil, tf.constant([1 + 1j]), "Ceil", FLOAT_LIST),
    (tf.math.is_nan, tf.constant([1]), "IsNan", FLOAT_LIST),
    (tf.math.is_inf, tf.constant([1]), "IsInf", FLOAT_LIST),
    (tf.math.is_finite, tf.constant([1 + 1j]), "IsFinite", FLOAT_LIST),
    (tf.math.erf, tf.constant([1]), "Erf", FLOAT_LIST),
    (tf.math.erfc, tf.constant([1 + 1j]), "Erfc", FLOAT_LIST),
    (tf.math.log_sigmoid, tf.constant([1]), "LogSigmoid", FLOAT_LIST),
])
def test_disallowed_dtypes(fn, value, op_name, allowed):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        fn(value)
    text = str(info.value)
    dtype = tf.convert_to_tensor(value).dtype
    type_name = {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name,
                                                                                 dtype.name)
    assert text.startswith(f"Value for attr 'T' of {type_name} is not in the list of allowed "
                           "values: ")
    listed = text.split("allowed values: ")[1].split(" [Op:")[0]
    assert re.search(allowed, listed), listed
    assert f"[Op:{op_name}]" in text
    assert "tf.cast" in text  # the teaching sentence


@pytest.mark.parametrize("fn, value, node", [
    (tf.math.reciprocal, tf.constant([2]), "Reciprocal[T=DT_INT32]"),
    (tf.math.reciprocal, tf.constant([2], tf.int8), "Reciprocal[T=DT_INT8]"),
    (tf.round, tf.constant([2 + 1j]), "Round[T=DT_COMPLEX128]"),
])
def test_declared_dtypes_without_a_cpu_kernel(fn, value, node):
    with pytest.raises(tf.errors.NotFoundError, match="Could not find device for node") as info:
        fn(value)
    assert node in str(info.value)
