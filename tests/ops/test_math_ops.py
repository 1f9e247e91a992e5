"""Element-wise binary math, comparisons, logic, cast, sign/abs: values, dtypes, gradients, errors."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from strategies import arrays, broadcasting_pair, small_shapes

import minitf as tf
from minitf.ops.math_ops import where

BINARY = {
    "add": (tf.add, np.add),
    "subtract": (tf.subtract, np.subtract),
    "multiply": (tf.multiply, np.multiply),
    "truediv": (tf.math.truediv, np.divide),
    "maximum": (tf.maximum, np.maximum),
    "minimum": (tf.minimum, np.minimum),
    "pow": (tf.pow, np.power),
    "squared_difference": (tf.math.squared_difference, lambda a, b: (a - b) ** 2),
    "floormod": (tf.math.floormod, np.mod),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_values_and_dtype(name):
    tf_fn, np_fn = BINARY[name]
    a = arrays((2, 3), 0.5, 2.0, seed=1).astype(np.float32)
    b = arrays((3,), 0.5, 2.0, seed=2).astype(np.float32)
    out = tf_fn(tf.constant(a), tf.constant(b))
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), np_fn(a, b), rtol=1e-6)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "truediv", "squared_difference"])
@given(shapes=broadcasting_pair())
def test_binary_gradients_over_broadcasting_pairs(name, shapes):
    tf_fn = BINARY[name][0]
    a = arrays(shapes[0], 0.5, 2.0, seed=3)
    b = arrays(shapes[1], 0.5, 2.0, seed=4)
    check_grads(tf_fn, a, b)


@given(shapes=broadcasting_pair())
def test_pow_gradient_over_broadcasting_pairs(shapes):
    check_grads(tf.pow, arrays(shapes[0], 0.5, 2.0, seed=5), arrays(shapes[1], -1.5, 1.5, seed=6))


@pytest.mark.parametrize("fn", [tf.maximum, tf.minimum])
@given(shapes=broadcasting_pair())
def test_maximum_minimum_gradients(fn, shapes):
    a = arrays(shapes[0], 0.0, 1.0, seed=7)
    b = arrays(shapes[1], 2.0, 3.0, seed=8) * np.sign(arrays(shapes[1], -1, 1, seed=9))
    check_grads(fn, a, b)


def test_floormod_gradient():
    check_grads(tf.math.floormod, np.array([2.3, -1.7, 5.2]), np.array([1.5, 1.1, -2.4]))


def test_maximum_gives_ties_to_the_first_argument():
    x, y = tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = tf.maximum(x, y)
    assert tape.gradient(z, x).numpy().tolist() == [1.0, 0.0]
    assert tape.gradient(z, y).numpy().tolist() == [0.0, 1.0]


@pytest.mark.parametrize("name", ["add", "multiply", "truediv", "pow", "squared_difference"])
def test_binary_second_order(name):
    tf_fn = BINARY[name][0]
    check_grads(tf_fn, arrays((2, 1), 0.5, 2.0, seed=10), arrays((3,), 0.5, 2.0, seed=11),
                order=2)


def test_pow_gradient_at_zero_base_is_finite():
    x, y = tf.constant([0.0, 2.0]), tf.constant([2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.pow(x, y)
    dx, dy = tape.gradient(z, [x, y])
    assert dx.numpy().tolist() == [0.0, 12.0]
    np.testing.assert_allclose(dy.numpy(), [0.0, 8 * np.log(2.0)], rtol=1e-6)


def test_integer_division_rules():
    assert (tf.constant(7) / tf.constant(2)).dtype == tf.float64
    assert float(tf.constant(7) / tf.constant(2)) == 3.5
    assert (tf.constant(7, tf.int8) / tf.constant(2, tf.int8)).dtype == tf.float32
    assert int(tf.constant(-7) // 2) == -4
    assert int(tf.constant(-7) % 3) == 2
    assert float(tf.constant(-7.5) % 2.0) == 0.5
    assert (tf.constant(7) // 2).dtype == tf.int32


@pytest.mark.parametrize("expr", [lambda: tf.constant(7) // tf.constant(0),
                                  lambda: tf.constant(7) % tf.constant(0)])
def test_integer_division_by_zero(expr):
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        expr()


def test_python_scalars_adopt_the_tensor_dtype():
    x = tf.constant([1.0, 2.0])
    for result in (x + 1, 1 + x, x * 2, 2 * x, 2 - x, 1 / x, x ** 2, 2 ** x):
        assert result.dtype == tf.float32
    assert (tf.constant([1, 2]) * 3).dtype == tf.int32
    assert (tf.constant([1.0], tf.float64) + 1).dtype == tf.float64


@pytest.mark.parametrize("a, b, message", [
    (tf.constant([1, 2, 3]), tf.constant([1, 2]), r"Incompatible shapes: \[3\] vs. \[2\]"),
    (tf.ones([2, 3]), tf.ones([4]), r"Incompatible shapes: \[2,3\] vs. \[4\]"),
    (tf.constant(1), tf.constant(1.0), r"input #1\(zero-based\) was expected to be a int32 "
                                       r"tensor but is a float tensor"),
    (tf.constant(1), 1.5, "expected to be a int32 tensor but is a float tensor"),
    (tf.constant(1.0, tf.float64), tf.constant(1.0), "double tensor but is a float tensor"),
])
def test_add_errors(a, b, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message) as info:
        a + b
    assert "[Op:AddV2]" in str(info.value)


def test_broadcast_error_teaches():
    with pytest.raises(tf.errors.InvalidArgumentError, match="equal, or one of them 1"):
        tf.ones([2, 3]) * tf.ones([2])


def test_integer_negative_power_is_an_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="negative integer powers"):
        tf.constant(2) ** -1


def test_disallowed_dtype_names_the_allowed_ones():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of bool is not in the list of allowed values"):
        -tf.constant(True)


def test_comparisons_and_logic():
    a, b = tf.constant([1, 2, 3]), tf.constant([3, 2, 1])
    assert (a < b).numpy().tolist() == [True, False, False]
    assert (a <= b).numpy().tolist() == [True, True, False]
    assert (a > b).numpy().tolist() == [False, False, True]
    assert (a >= b).numpy().tolist() == [False, True, True]
    assert (a == b).numpy().tolist() == [False, True, False]
    assert (a != b).numpy().tolist() == [True, False, True]
    assert (a == b).dtype == tf.bool
    assert (a == None) is False and (a != None) is True  # noqa: E711 - TF's behaviour
    t, f = tf.constant([True, True]), tf.constant([True, False])
    assert (t & f).numpy().tolist() == [True, False]
    assert (t | f).numpy().tolist() == [True, True]
    assert (t ^ f).numpy().tolist() == [False, True]
    assert (~f).numpy().tolist() == [False, True]
    assert tf.math.logical_xor(t, f).numpy().tolist() == [False, True]


def test_bitwise_operators_on_integers():
    a, b = tf.constant(3), tf.constant(5)
    assert int(a & b) == 1 and int(a | b) == 7 and int(a ^ b) == 6 and int(~a) == -4


def test_comparisons_have_no_gradient():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.cast(x > 1.5, tf.float32)
    assert tape.gradient(y, x) is None


def test_where_selects_and_routes_gradients():
    c = tf.constant([True, False, True])
    x, y = tf.constant([1.0, 2.0, 3.0]), tf.constant([10.0, 20.0, 30.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = where(c, x, y) * 2.0
    assert z.numpy().tolist() == [2.0, 40.0, 6.0]
    assert tape.gradient(z, x).numpy().tolist() == [2.0, 0.0, 2.0]
    assert tape.gradient(z, y).numpy().tolist() == [0.0, 2.0, 0.0]


@given(shape=small_shapes)
def test_unary_core_gradients(shape):
    x = arrays(shape, 0.5, 2.0, seed=12)
    check_grads(lambda a: tf.math.log(a) - a + abs(a) * tf.math.negative(a), x, order=2)


def test_cast_truncates_and_wraps_like_tf():
    assert int(tf.cast(tf.constant(1.7), tf.int32)) == 1
    assert int(tf.cast(tf.constant(-1.7), tf.int32)) == -1
    assert int(tf.cast(tf.constant(300), tf.uint8)) == 44
    assert tf.cast(tf.constant([0.0, 2.0]), tf.bool).numpy().tolist() == [False, True]
    assert tf.cast(tf.constant(1), tf.float64).dtype == tf.float64


def test_cast_gradient_between_floats_and_none_for_ints():
    x = tf.Variable([1.5, 2.5])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.cast(x, tf.float64) * 2.0
        z = tf.cast(tf.cast(x, tf.int32), tf.float32)
    g = tape.gradient(y, x)
    assert g.dtype == tf.float32 and g.numpy().tolist() == [2.0, 2.0]
    assert tape.gradient(z, x) is None


def test_sign_abs_and_complex_abs():
    assert tf.sign(tf.constant([-2.0, 0.0, 3.0])).numpy().tolist() == [-1.0, 0.0, 1.0]
    assert abs(tf.constant([-3])).numpy().tolist() == [3]
    c = tf.abs(tf.constant([3 + 4j]))
    assert c.dtype == tf.float64 and c.numpy().tolist() == [5.0]


def test_where_condition_must_be_bool_like_tf():
    assert tf.where([True, False], 1.0, 2).numpy().tolist() == [1.0, 2.0]
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.where([[1, 0]], 1.0, 2.0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input #0\(zero-based\) was expected to be a bool tensor"):
        tf.where(tf.constant([1, 0]), 1.0, 2.0)
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.where([True, False], [1, 2], [3.0, 4.0])
