"""The element-wise check_ops (assert_equal ... assert_near), the dtype checks and the
monotonicity tests: passing and failing, eagerly and inside tf.function (failing when
the graph runs, or while tracing when the values are constants)."""
import numpy as np
import pytest

import minitf as tf

IAE = tf.errors.InvalidArgumentError
I32 = tf.TensorSpec([None], tf.int32)
F32 = tf.TensorSpec([None], tf.float32)


def graph_check(check, spec=I32):
    """A tf.function that runs `check(x, y)` and returns x + 0 (so the graph has an output)."""
    @tf.function(input_signature=[spec, spec])
    def f(x, y):
        check(x, y)
        return x + tf.zeros_like(x)

    return f


# --- binary checks --------------------------------------------------------------------------
BINARY = [  # (function, x, y that pass, y that fails)
    (tf.debugging.assert_equal, [1, 2, 3], [1, 2, 3], [1, 2, 4]),
    (tf.debugging.assert_none_equal, [1, 2, 3], [2, 3, 4], [0, 1, 3]),
    (tf.debugging.assert_less, [1, 2, 3], [2, 3, 4], [2, 3, 3]),
    (tf.debugging.assert_less_equal, [1, 2, 3], [1, 2, 3], [1, 2, 2]),
    (tf.debugging.assert_greater, [1, 2, 3], [0, 1, 2], [0, 1, 3]),
    (tf.debugging.assert_greater_equal, [1, 2, 3], [1, 2, 3], [1, 2, 4]),
]
SYMBOLS = {"assert_equal": "==", "assert_none_equal": "!=", "assert_less": "<",
           "assert_less_equal": "<=", "assert_greater": ">", "assert_greater_equal": ">="}


@pytest.mark.parametrize("check, x, good, bad", BINARY, ids=lambda v: getattr(v, "__name__", ""))
def test_binary_check_eager(check, x, good, bad):
    sym = SYMBOLS[check.__name__]
    assert check(tf.constant(x), tf.constant(good)) is None
    with pytest.raises(IAE) as info:
        check(tf.constant(x), tf.constant(bad))
    text = str(info.value)
    assert text.startswith(f"Condition x {sym} y did not hold.\nIndices of first 1 different "
                           "values:\n[[2]]\nCorresponding x values:\n[3]")
    assert text.endswith(f"First 3 elements of x:\n[1 2 3]\nFirst 3 elements of y:\n"
                         f"[{' '.join(map(str, bad))}]")


@pytest.mark.parametrize("check, x, good, bad", BINARY, ids=lambda v: getattr(v, "__name__", ""))
def test_binary_check_in_a_graph_fails_when_it_runs(check, x, good, bad):
    sym = SYMBOLS[check.__name__]
    f = graph_check(check)
    np.testing.assert_array_equal(f(tf.constant(x), tf.constant(good)).numpy(), x)
    with pytest.raises(IAE) as info:
        f(tf.constant(x), tf.constant(bad))
    assert str(info.value).startswith(
        f"assertion failed: [Condition x {sym} y did not hold element-wise:] [x (x:0) = ] "
        f"[1 2 3] [y (y:0) = ] [{' '.join(map(str, bad))}] (traced at")


@pytest.mark.parametrize("check, x, good, bad", BINARY, ids=lambda v: getattr(v, "__name__", ""))
def test_binary_check_of_constants_fails_while_tracing(check, x, good, bad):
    @tf.function
    def f():
        check(tf.constant(x), tf.constant(bad))
        return tf.constant(0)

    with pytest.raises(IAE) as info:
        f.get_concrete_function()
    lines = [line.strip() for line in str(info.value).splitlines()]
    assert lines[-5:] == [f"InvalidArgumentError: Condition x {SYMBOLS[check.__name__]} y did not "
                          "hold element-wise:", "x (Const:0) =", "[1 2 3]", "y (Const_1:0) =",
                          f"[{' '.join(map(str, bad))}]"]

    @tf.function
    def g():
        check(tf.constant(x), tf.constant(good))
        return tf.constant(0)

    assert int(g()) == 0


def test_x_and_y_broadcast():
    tf.debugging.assert_equal(tf.fill([2, 3], 5), 5)
    tf.debugging.assert_less(tf.constant([[1, 2, 3], [0, 1, 2]]), tf.constant([2, 3, 4]))
    with pytest.raises(IAE) as info:  # different shapes: no "Indices of ..." section
        tf.debugging.assert_less(tf.constant([[1, 2, 3], [0, 5, 2]]), tf.constant([2, 3, 4]))
    assert str(info.value) == ("Condition x < y did not hold.\nFirst 3 elements of x:\n[1 2 3]\n"
                               "First 3 elements of y:\n[2 3 4]")
    with pytest.raises(IAE, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2, 3]))


def test_empty_tensors_pass_trivially():
    tf.debugging.assert_less(tf.zeros([0]), tf.zeros([0]))
    tf.debugging.assert_positive(tf.zeros([0, 3]))


def test_message_and_summarize():
    x, y = tf.range(6), tf.range(6) + 1
    with pytest.raises(IAE) as info:
        tf.debugging.assert_equal(x, y, message="off by one", summarize=2)
    assert str(info.value) == (
        "off by one\nCondition x == y did not hold.\nIndices of first 2 different values:\n"
        "[[0]\n [1]]\nCorresponding x values:\n[0 1]\nCorresponding y values:\n[1 2]\n"
        "First 2 elements of x:\n[0 1]\nFirst 2 elements of y:\n[1 2]")
    with pytest.raises(IAE, match=r"First 6 elements of x:\n\[0 1 2 3 4 5\]"):
        tf.debugging.assert_equal(x, y, summarize=-1)
    with pytest.raises(IAE) as info:
        tf.debugging.assert_equal(x, y, summarize=0)
    assert str(info.value) == "Condition x == y did not hold."


def test_tensors_of_different_dtypes_are_not_converted():
    # Each side is converted on its own (TF's _binary_assert), so 1 stays int32.
    with pytest.raises(IAE, match="cannot compute Equal as input #1"):
        tf.debugging.assert_equal(tf.constant(1.0), 1)


def test_a_tensor_equals_itself_without_an_op():
    x = tf.constant([np.nan])
    assert tf.debugging.assert_equal(x, x) is None  # TF's short cut, even for NaN


# --- x compared with zero --------------------------------------------------------------------
UNARY = [  # (function, values that pass, values that fail, TF's condition text)
    (tf.debugging.assert_positive, [1, 2], [1, 0], "Condition x > 0 did not hold element-wise:"),
    (tf.debugging.assert_negative, [-1, -2], [-1, 0], "Condition x < 0 did not hold element-wise:"),
    (tf.debugging.assert_non_negative, [0, 2], [0, -2],
     "Condition x >= 0 did not hold element-wise:"),
    # TF's text has no line break after "element-wise:" here.
    (tf.debugging.assert_non_positive, [0, -2], [0, 2],
     "Condition x <= 0 did not hold element-wise:x (shape=(2,) dtype=int32) = "),
]


@pytest.mark.parametrize("check, good, bad, head", UNARY, ids=lambda v: getattr(v, "__name__", ""))
def test_unary_check_eager(check, good, bad, head):
    assert check(tf.constant(good)) is None
    with pytest.raises(IAE) as info:
        check(tf.constant(bad), message="why")
    text = str(info.value)
    assert text.startswith(f"why.  \n{head}")
    assert text.endswith(f"['{bad[0]}', '{bad[1]}']")
    if "<=" not in head:
        assert "\nx (shape=(2,) dtype=int32) = \n" in text


@pytest.mark.parametrize("check, good, bad, head", UNARY, ids=lambda v: getattr(v, "__name__", ""))
def test_unary_check_in_a_graph(check, good, bad, head):
    @tf.function(input_signature=[I32])
    def f(x):
        check(x)
        return tf.identity(x)

    np.testing.assert_array_equal(f(tf.constant(good)).numpy(), good)
    with pytest.raises(IAE) as info:
        f(tf.constant(bad))
    assert str(info.value).startswith(f"assertion failed: [] [{head.split('x (')[0]}")
    assert f"[{bad[0]} {bad[1]}] (traced at" in str(info.value)


def test_unary_checks_use_x_dtype_for_zero():
    tf.debugging.assert_positive(tf.constant([0.5], tf.float64))
    tf.debugging.assert_non_negative(tf.constant([0], tf.uint8))


# --- assert_near --------------------------------------------------------------------------
def test_assert_near_default_tolerance_is_ten_eps_of_the_dtype():
    tf.debugging.assert_near(tf.constant([1.0, 2.0]), tf.constant([1.0 + 5e-7, 2.0]))
    with pytest.raises(IAE, match="x and y not equal to tolerance rtol = tf.Tensor"):
        tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.00001]))
    tf.debugging.assert_near(tf.constant([1.0], tf.float64), tf.constant([1.0 + 1e-15], tf.float64))
    with pytest.raises(IAE):
        tf.debugging.assert_near(tf.constant([1.0], tf.float64),
                                 tf.constant([1.0 + 1e-13], tf.float64))


def test_assert_near_eager_message_is_tf_asserts():
    with pytest.raises(IAE) as info:
        tf.debugging.assert_near(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.5]), message="m")
    assert str(info.value) == (
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'm.  '\n"
        "b'x and y not equal to tolerance rtol = tf.Tensor(1.1920929e-06, shape=(), "
        "dtype=float32), atol = tf.Tensor(1.1920929e-06, shape=(), dtype=float32)'\n"
        "b'x (shape=(2,) dtype=float32) = '\n1.0, 2.0\nb'y (shape=(2,) dtype=float32) = '\n"
        "1.0, 2.5")


def test_assert_near_tolerances_and_strict_comparison():
    x, y = tf.constant([10.0]), tf.constant([10.5])
    tf.debugging.assert_near(x, y, rtol=0.1, atol=0.0)   # 0.5 < 0.1 * 10.5
    tf.debugging.assert_near(x, y, rtol=0.0, atol=0.6)
    with pytest.raises(IAE):
        tf.debugging.assert_near(x, y, rtol=0.0, atol=0.5)  # TF's code tests diff < tol
    with pytest.raises(IAE):
        tf.debugging.assert_near(x, x, rtol=0.0, atol=0.0)


def test_assert_near_converts_y_to_x_dtype_and_broadcasts():
    tf.debugging.assert_near(tf.constant([[1.0, 1.0]], tf.float64), 1)
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype int32"):
        tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1]))


def test_assert_near_in_a_graph():
    f = graph_check(lambda x, y: tf.debugging.assert_near(x, y, atol=0.1), spec=F32)
    f(tf.constant([1.0]), tf.constant([1.05]))
    with pytest.raises(IAE, match=r"^assertion failed: \[\] \[x and y not equal to tolerance "
                                  r"rtol = Tensor\(\\\"Const:0\\\", shape=\(\), dtype=float32\)"):
        f(tf.constant([1.0]), tf.constant([1.5]))


# --- dtypes ---------------------------------------------------------------------------------
def test_assert_type():
    assert tf.debugging.assert_type(tf.constant(1.0), tf.float32) is None
    tf.debugging.assert_type(tf.Variable(1), "int32")
    with pytest.raises(TypeError) as info:
        tf.debugging.assert_type(tf.constant(21), tf.bool, message="need flags")
    assert str(info.value) == "need flags.  tensor must be of type tf.bool; got tf.int32"

    @tf.function(input_signature=[I32])
    def f(x):
        tf.debugging.assert_type(x, tf.int64)
        return x

    with pytest.raises(TypeError, match="x:0 must be of type tf.int64; got tf.int32"):
        f.get_concrete_function()


def test_assert_integer():
    tf.debugging.assert_integer(tf.constant([1], tf.uint8))
    with pytest.raises(TypeError) as info:
        tf.debugging.assert_integer(tf.constant([True]))
    assert str(info.value) == ('Expected "x" to be integer type.  Found: tensor of dtype '
                               "<dtype: 'bool'>")

    @tf.function(input_signature=[F32])
    def f(x):
        tf.debugging.assert_integer(x, message="indices")
        return x

    with pytest.raises(TypeError, match=r'indices\.  Expected "x" to be integer type\.  '
                                        r"Found: x:0 of dtype <dtype: 'float32'>"):
        f.get_concrete_function()


def test_is_numeric_tensor():
    assert tf.debugging.is_numeric_tensor(tf.constant([1, 2]))
    assert tf.debugging.is_numeric_tensor(tf.constant(1j))
    assert not tf.debugging.is_numeric_tensor(tf.constant(True))
    assert not tf.debugging.is_numeric_tensor(tf.constant("a"))
    assert not tf.debugging.is_numeric_tensor(np.float32(1.0))


def test_assert_proper_iterable_and_same_float_dtype():
    tf.debugging.assert_proper_iterable((1, 2))
    for bad in (tf.constant([1]), np.zeros(2), "ab", 3):
        with pytest.raises(TypeError, match='Expected argument "values" to be'):
            tf.debugging.assert_proper_iterable(bad)
    assert tf.debugging.assert_same_float_dtype() is tf.float32
    assert tf.debugging.assert_same_float_dtype([tf.constant(1.0, tf.float64), None]) is tf.float64
    with pytest.raises(ValueError, match=r"type=<dtype: 'float64'>, must be of the same type"):
        tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(1.0, tf.float64)])
    with pytest.raises(ValueError, match="Expected floating point type, got <dtype: 'int32'>."):
        tf.debugging.assert_same_float_dtype([tf.constant(1)])


# --- monotonicity -------------------------------------------------------------------------------
@pytest.mark.parametrize("values, non_decreasing, increasing", [
    ([1.0, 1.0, 3.0], True, False),
    ([1, 2, 3], True, True),
    ([3, 1, 2], False, False),
    ([[1, 2], [3, 4]], True, True),  # row-major order
    ([[1, 5], [3, 4]], False, False),
    ([7], True, True),
    ([], True, True),
])
def test_is_non_decreasing_and_strictly_increasing(values, non_decreasing, increasing):
    x = tf.constant(values, tf.float32)
    assert bool(tf.math.is_non_decreasing(x)) is non_decreasing
    assert bool(tf.math.is_strictly_increasing(x)) is increasing


def test_monotonicity_in_a_graph_and_for_non_numbers():
    f = tf.function(tf.math.is_strictly_increasing, input_signature=[I32])
    assert bool(f(tf.constant([1, 2, 5])))
    assert not bool(f(tf.constant([1, 1])))
    assert bool(f(tf.constant([], tf.int32)))
    with pytest.raises(TypeError, match="Expected x to be numeric, instead found"):
        tf.math.is_non_decreasing(tf.constant([True, False]))
