"""tf.Tensor and tf.constant: dtype inference, conversion errors, printing, Python
protocols, operators' dtype rules, and TensorShape.

Every expected value, dtype, error class and message here was first printed by
TensorFlow 2.21 for the same expression.
"""
import numpy as np
import pytest

import minitf as tf

c = tf.constant


def check(t, dtype, value):
    assert isinstance(t, tf.Tensor) and t.dtype == dtype
    np.testing.assert_array_equal(t.numpy(), value)
    assert dtype == tf.string or t.numpy().dtype == dtype.as_numpy_dtype


# --- what tf.constant infers ------------------------------------------------------------
@pytest.mark.parametrize("value, dtype, expected", [
    (1, tf.int32, 1),
    (1.0, tf.float32, 1.0),
    (True, tf.bool, True),
    (1 + 2j, tf.complex128, 1 + 2j),
    (2**40, tf.int64, 2**40),
    (2**31, tf.int64, 2**31),
    (-2**31, tf.int32, -2**31),
    ([1, 2**40], tf.int64, [1, 2**40]),
    ([1, 2.5], tf.float32, [1.0, 2.5]),
    ([1, True], tf.int32, [1, 1]),            # the first element decides: int, and True fits
    ([1.5, True], tf.float32, [1.5, 1.0]),
    ([1 + 1j, True], tf.complex128, [1 + 1j, 1]),
    ((1, 2), tf.int32, [1, 2]),
    (range(3), tf.int32, [0, 1, 2]),
    ([[1, 2], [3, 4]], tf.int32, [[1, 2], [3, 4]]),
    ([], tf.float32, np.zeros([0])),
    ([[], []], tf.float32, np.zeros([2, 0])),
    (float("nan"), tf.float32, np.nan),
    (float("inf"), tf.float32, np.inf),
])
def test_python_values_infer_tf_dtypes(value, dtype, expected):
    check(c(value), dtype, expected)


@pytest.mark.parametrize("value, dtype", [
    (np.array([1.0, 2.0]), tf.float64),        # NumPy keeps its dtype: float64 stays float64
    (np.array([1, 2]), tf.int64),
    (np.float64(1.5), tf.float64),
    (np.int64(1), tf.int64),
    (np.float16(1), tf.float16),
    (np.bool_(True), tf.bool),
    (np.zeros([0, 2]), tf.float64),
    ([np.float64(1.0), 2.0], tf.float64),      # a NumPy float first: its dtype
    ([2.0, np.float64(1.0)], tf.float32),      # a Python float first: float32
    ([np.int64(1), 2], tf.int32),              # NumPy ints count like Python ints
    ([np.int64(2**40), 2], tf.int64),
])
def test_numpy_values_keep_their_dtype(value, dtype):
    assert c(value).dtype == dtype


def test_strings_become_bytes():
    t = c("ab")
    assert t.dtype == tf.string and t.shape == [] and t.numpy() == b"ab"
    check(c(["ab", b"c"]), tf.string, [b"ab", b"c"])
    assert c("é").numpy() == "é".encode("utf-8")
    check(c(np.array(["x", "yz"])), tf.string, [b"x", b"yz"])
    assert c(np.str_("ab")).numpy() == b"ab"


@pytest.mark.parametrize("value, dtype, expected", [
    (1, tf.float32, 1.0),
    ([1, 2], tf.float64, [1.0, 2.0]),
    (True, tf.int32, 1),
    ([True, False], tf.float32, [1.0, 0.0]),
    (1.5, tf.complex64, 1.5),
    (2**40, tf.int32, 0),               # ints wrap around, as in TF
    ([-1, 256], tf.uint8, [255, 0]),
    (2**63, tf.uint64, 2**63),
    (1e40, tf.float32, np.inf),         # a requested float dtype may overflow to inf
    (70000.0, tf.float16, np.inf),
    (np.array([1.5, 2.7]), tf.int32, [1, 2]),  # NumPy arrays are cast
    (np.array([1, 2]), tf.float32, [1.0, 2.0]),
    ("a", tf.string, b"a"),
])
def test_requested_dtype(value, dtype, expected):
    check(c(value, dtype=dtype), dtype, expected)
    assert c(value, dtype=dtype.name).dtype == dtype


@pytest.mark.parametrize("value, dtype, error, message", [
    ([[1, 2], [3]], None, ValueError, "Can't convert non-rectangular Python sequence to Tensor."),
    ([[1], 2], None, ValueError, "non-rectangular"),
    ([True, 1], None, ValueError, "Can't convert Python sequence with mixed types to Tensor."),
    ([1, 1 + 1j], None, ValueError, "mixed types"),
    (["a", 1], None, ValueError, "mixed types"),
    ([1.5, "a"], None, ValueError, "mixed types"),
    ([1, None], None, ValueError, "mixed types"),
    (None, None, ValueError, r"Attempt to convert a value \(None\) with an unsupported type "
                             r"\(<class 'NoneType'>\) to a Tensor."),
    ([None, 1], None, ValueError, "Attempt to convert a value"),
    ({1: 2}, None, ValueError, r"unsupported type \(<class 'dict'>\)"),
    (2**63, None, ValueError, "Can't convert Python sequence with out-of-range integer to Tensor."),
    (-2**63 - 1, None, ValueError, "out-of-range integer"),
    (1e40, None, ValueError, "Can't convert Python sequence with a value out of range for a "
                             "double-precision float."),
    ([1.0, -1e39], None, ValueError, "out of range"),
    (1.5, tf.int32, TypeError, "Cannot convert 1.5 to EagerTensor of dtype int32"),
    (2.0, tf.int32, TypeError, "Cannot convert 2.0 to EagerTensor of dtype int32"),
    ([1, 2.5], tf.int32, TypeError, r"Cannot convert \[1, 2.5\] to EagerTensor of dtype int32"),
    (float("nan"), tf.int32, TypeError, "Cannot convert nan to EagerTensor of dtype int32"),
    (1, tf.bool, TypeError, "Cannot convert 1 to EagerTensor of dtype bool"),
    (1.5, tf.bool, TypeError, "Cannot convert 1.5 to EagerTensor of dtype bool"),
    ("a", tf.float32, TypeError, "Cannot convert 'a' to EagerTensor of dtype float"),
    ("a", tf.int32, TypeError, "Cannot convert 'a' to EagerTensor of dtype int32"),
    (1.5, tf.string, TypeError, "Cannot convert 1.5 to EagerTensor of dtype string"),
    (True, tf.string, TypeError, "Cannot convert True to EagerTensor of dtype string"),
    (1 + 1j, tf.float32, TypeError, r"Cannot convert \(1\+1j\) to EagerTensor of dtype float"),
    (None, tf.float32, ValueError, r"Attempt to convert a value \(None\)"),
    (np.array(["a"]), tf.float32, ValueError, "could not convert string to float"),
])
def test_conversion_errors(value, dtype, error, message):
    with pytest.raises(error, match=message):
        c(value, dtype=dtype)


def test_convert_to_tensor_dtype_and_hint():
    x = c(1)
    assert tf.convert_to_tensor(x) is x
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32 for Tensor "
                                         "with dtype int32"):
        tf.convert_to_tensor(x, dtype=tf.float32)
    check(tf.convert_to_tensor(1, dtype_hint=tf.float32), tf.float32, 1.0)
    check(tf.convert_to_tensor(True, dtype_hint=tf.int32), tf.int32, 1)
    # A hint is only a preference: a Python value that does not fit keeps its own dtype...
    check(tf.convert_to_tensor(1.5, dtype_hint=tf.int32), tf.float32, 1.5)
    check(tf.convert_to_tensor([1, 2], dtype_hint=tf.bool), tf.int32, [1, 2])
    check(tf.convert_to_tensor("a", dtype_hint=tf.float32), tf.string, b"a")
    check(tf.convert_to_tensor(1e40, dtype_hint=tf.float32), tf.float32, np.inf)
    # ...while NumPy numbers are cast to it.
    check(tf.convert_to_tensor(np.array([1.5]), dtype_hint=tf.int32), tf.int32, [1])
    check(tf.convert_to_tensor(np.array([1.5]), dtype_hint=tf.bool), tf.bool, [True])
    check(tf.convert_to_tensor([c(1.0), 2.0]), tf.float32, [1.0, 2.0])


def test_constant_with_shape():
    check(c([1, 2, 3, 4], shape=[2, 2]), tf.int32, [[1, 2], [3, 4]])
    check(c(1, shape=[2, 2]), tf.int32, [[1, 1], [1, 1]])
    with pytest.raises(TypeError, match="Eager execution of tf.constant with unsupported shape"):
        c([1, 2, 3], shape=[2, 2])


# --- a tensor never changes -----------------------------------------------------------
def test_tensors_copy_numpy_inputs_and_hand_out_copies():
    source = np.array([1.0, 2.0])
    t = c(source)
    source[0] = 9.0
    out = t.numpy()
    out[1] = 7.0
    assert t.numpy().tolist() == [1.0, 2.0]
    view = np.asarray(t)
    assert not view.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 5.0


def test_numpy_of_a_scalar_is_a_numpy_scalar():
    assert type(c(1.5).numpy()) is np.float32
    assert type(c(1).numpy()) is np.int32
    assert type(c(True).numpy()) is np.bool_
    assert c(b"x").numpy() == b"x" and isinstance(c(b"x").numpy(), bytes)


# --- printing, exactly as TF ------------------------------------------------------------
@pytest.mark.parametrize("value, text", [
    ([1.0, 2.0], "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>"),
    (1.0, "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>"),
    (0.1, "<tf.Tensor: shape=(), dtype=float32, numpy=0.10000000149011612>"),
    (1, "<tf.Tensor: shape=(), dtype=int32, numpy=1>"),
    (True, "<tf.Tensor: shape=(), dtype=bool, numpy=True>"),
    (1 + 2j, "<tf.Tensor: shape=(), dtype=complex128, numpy=(1+2j)>"),
    ("ab", "<tf.Tensor: shape=(), dtype=string, numpy=b'ab'>"),
    (["a", "b"], "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'b'], "
                 "dtype=object)>"),
    (np.zeros([0, 2]), "<tf.Tensor: shape=(0, 2), dtype=float64, numpy=array([], shape=(0, 2), "
                       "dtype=float64)>"),
    ([[1, 2], [3, 4]], "<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[1, 2],\n"
                       "       [3, 4]], dtype=int32)>"),
])
def test_repr(value, text):
    assert repr(c(value)) == text


@pytest.mark.parametrize("value, text", [
    ([1.0, 2.0], "tf.Tensor([1. 2.], shape=(2,), dtype=float32)"),
    (1.0, "tf.Tensor(1.0, shape=(), dtype=float32)"),
    (0.1, "tf.Tensor(0.1, shape=(), dtype=float32)"),
    ("ab", "tf.Tensor(b'ab', shape=(), dtype=string)"),
    (["a", "b"], "tf.Tensor([b'a' b'b'], shape=(2,), dtype=string)"),
    ([True, False], "tf.Tensor([ True False], shape=(2,), dtype=bool)"),
    ([[1, 2], [3, 4]], "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"),
])
def test_str(value, text):
    assert str(c(value)) == text


def test_format():
    assert f"{c(1.5):.2f}" == "1.50"
    assert f"{c([1.5])}" == "[1.5]"
    assert f"{c(3):>3}" == "  3"


# --- Python protocols -----------------------------------------------------------------
def test_len_and_iteration():
    x = c([[1, 2], [3, 4], [5, 6]])
    assert len(x) == 3
    rows = list(x)
    assert all(isinstance(r, tf.Tensor) and r.dtype == tf.int32 for r in rows)
    assert [r.numpy().tolist() for r in rows] == [[1, 2], [3, 4], [5, 6]]
    with pytest.raises(TypeError, match="Scalar tensor has no `len\\(\\)`"):
        len(c(1))
    with pytest.raises(TypeError, match="Cannot iterate over a scalar tensor."):
        iter(c(1))  # raised at iter(), not at the first next()


def test_bool():
    assert bool(c(1.5)) and not bool(c(0)) and bool(c([1]))
    assert not bool(c([]))
    with pytest.raises(ValueError, match="The truth value of an array with more than one "
                                         "element is ambiguous"):
        bool(c([1, 2]))


def test_int_float_and_index():
    assert int(c(2.7)) == 2 and float(c(2)) == 2.0
    with pytest.raises(TypeError, match="only 0-dimensional arrays can be converted"):
        float(c([2.5]))
    items = [10, 20, 30]
    assert items[c(1)] == 20 and items[c(2, tf.int64)] == 30
    assert items[1:c(2)] == [20]
    with pytest.raises(AttributeError, match="has no attribute '__index__'"):
        items[c(1.0)]
    with pytest.raises(AttributeError, match="has no attribute '__index__'"):
        items[c(True)]
    with pytest.raises(TypeError, match="only integer scalar arrays can be converted"):
        items[c([1])]


def test_tensors_are_unhashable_but_refs_are():
    x = c(1)
    with pytest.raises(TypeError, match=r"^Tensor is unhashable. Instead, use tensor.ref\(\) "
                                        r"as the key.$"):
        hash(x)
    table = {x.ref(): "x"}
    assert table[x.ref()] == "x" and x.ref().deref() is x
    assert x.ref() != c(1).ref()


def test_equality_is_element_wise_and_none_is_false():
    check(c([1, 2]) == c([1, 3]), tf.bool, [True, False])
    check(c([1, 2]) != [1, 3], tf.bool, [False, True])
    assert (c([1, 2]) == None) is False  # noqa: E711 - exactly what is being tested
    assert (c([1, 2]) != None) is True  # noqa: E711


def test_logical_and_bitwise_operators():
    t, f = c([True, False]), c([True, True])
    check(t & f, tf.bool, [True, False])
    check(t | False, tf.bool, [True, False])
    check(t ^ f, tf.bool, [False, True])
    check(~t, tf.bool, [False, True])
    check(c(6) & 3, tf.int32, 2)
    check(c(6) | 3, tf.int32, 7)
    check(c(6) ^ 3, tf.int32, 5)
    check(~c(5), tf.int32, -6)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of float is not in the list of allowed values: "
                             "int8, int16, int32, int64, uint8, uint16, uint32, uint64"):
        c(6.0) & 3


def test_negating_a_bool_is_an_error():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of bool is not in the list of allowed") as e:
        -c(True)
    assert "[Op:Neg]" in str(e.value)
    with pytest.raises(tf.errors.InvalidArgumentError, match="of uint8 is not in the list"):
        -c([1, 2], tf.uint8)


# --- operator dtype rules -----------------------------------------------------------------
def test_python_scalars_adopt_the_tensor_dtype():
    check(c(1.0) + 2, tf.float32, 3.0)
    check(2 * c(3.0), tf.float32, 6.0)
    check(2 - c(1.5), tf.float32, 0.5)
    check(c(1.0, tf.float64) + 2, tf.float64, 3.0)
    check(c(1.0) + np.float64(2), tf.float32, 3.0)
    check(c(1.0) + True, tf.float32, 2.0)
    check(c(1) + True, tf.int32, 2)
    check(c([1, 2]) * [3, 4], tf.int32, [3, 8])
    check([3, 4] * c([1, 2]), tf.int32, [3, 8])
    check(c(2**40) + 1, tf.int64, 2**40 + 1)
    check(c(1) + 2**40, tf.int32, 1)  # 2**40 wraps into int32, exactly as TF does
    check(c(1, tf.uint8) + 300, tf.uint8, 45)


def test_numpy_operands_adopt_the_tensor_dtype():
    check(c([1.0]) + np.array([2.0]), tf.float32, [3.0])
    check(np.array([2.0]) + c([1.0]), tf.float32, [3.0])
    check(c([1.0]) + np.array([2]), tf.float32, [3.0])
    check(c([1, 2], tf.int16) + np.array([1]), tf.int16, [2, 3])


MISMATCH = ("cannot compute AddV2 as input #1\\(zero-based\\) was expected to be a int32 tensor "
            "but is a float tensor")


@pytest.mark.parametrize("expr", [
    lambda: c(1) + c(1.0),
    lambda: c(1) + 1.5,
    lambda: c(1) + 2.0,  # a Python float never becomes an int, even 2.0
])
def test_no_implicit_promotion(expr):
    with pytest.raises(tf.errors.InvalidArgumentError, match=MISMATCH + r" \[Op:AddV2\]"):
        expr()


def test_mismatch_names_both_dtypes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="expected to be a float tensor but is a double tensor"):
        c(1.0) + c(2.0, tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="expected to be a float tensor but is a complex128 tensor"):
        c(1.0) + (1 + 2j)


@pytest.mark.parametrize("dtype, result", [
    (tf.int8, tf.float32), (tf.int16, tf.float32), (tf.uint8, tf.float32),
    (tf.int32, tf.float64), (tf.int64, tf.float64),
])
def test_integer_true_division_gives_floats(dtype, result):
    check(c(7, dtype) / c(2, dtype), result, 3.5)
    check(c(7, dtype) / 2, result, 3.5)


def test_floor_division_and_modulo_follow_python():
    check(c([-7, 7]) // 2, tf.int32, [-4, 3])
    check(c([-7, 7]) % 2, tf.int32, [1, 1])
    check(c([-7, 7]) % -2, tf.int32, [-1, -1])
    check(c([-7.0, 7.0]) // 2, tf.float32, [-4.0, 3.0])
    check(c([-7.0, 7.5]) % -2, tf.float32, [-1.0, -0.5])
    assert [int(v) for v in c([-7, 7]) // 2] == [-7 // 2, 7 // 2]


@pytest.mark.parametrize("expr, op", [
    (lambda: c([1, 2]) // 0, "FloorDiv"),
    (lambda: c([1, 2]) % 0, "FloorMod"),
    (lambda: c([1, -2]) % c([0, 1]), "FloorMod"),
    (lambda: c([1, 2], tf.int64) // 0, "FloorDiv"),
])
def test_integer_division_by_zero(expr, op):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"Integer division by zero \[Op:{op}\]"):
        expr()


def test_float_division_by_zero_is_inf():
    with np.errstate(divide="ignore"):
        check(c(1.0) / 0, tf.float32, np.inf)
        check(c(1) / 0, tf.float64, np.inf)


def test_powers():
    check(c(2) ** 3, tf.int32, 8)
    check(2 ** c(3), tf.int32, 8)
    check(2 ** c(3.0), tf.float32, 8.0)
    check(c(2.0) ** -1, tf.float32, 0.5)
    check(c(2) ** 0, tf.int32, 1)
    for expr in (lambda: c(2) ** -1, lambda: c(2) ** c(-1), lambda: c(2, tf.int64) ** -1):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Integers to negative integer powers are not allowed "
                                 r"\[Op:Pow\]"):
            expr()


# --- TensorShape ------------------------------------------------------------------------
S = tf.TensorShape


@pytest.mark.parametrize("dims, text, rep", [
    ([2, 3], "(2, 3)", "TensorShape([2, 3])"),
    ([None, 3], "(None, 3)", "TensorShape([None, 3])"),
    ([5], "(5,)", "TensorShape([5])"),
    ([], "()", "TensorShape([])"),
    (None, "<unknown>", "TensorShape(None)"),
])
def test_tensor_shape_printing(dims, text, rep):
    assert str(S(dims)) == text and repr(S(dims)) == rep and f"{S(dims)}" == text


def test_tensor_shape_equality():
    assert S([2, 3]) == [2, 3] and S([2, 3]) == (2, 3) and S([2, 3]) == S([2, 3])
    assert S([2, 3]) != S([2, 4]) and S([1]) != [1, 2]
    assert S([None]) == S([None]) and S(None) == S(None) and S([2, None]) == [2, None]
    assert not (S([2, 3]) == "a") and not (S([2, 3]) == None)  # noqa: E711
    assert hash(S([2, 3])) == hash(S((2, 3)))
    assert c([[1, 2]]).shape == [1, 2] and c(1).shape == []


def test_tensor_shape_compatibility():
    assert S([2, None]).is_compatible_with([2, 5])
    assert not S([2, None]).is_compatible_with([3, 5])
    assert S(None).is_compatible_with([3, 5]) and S([2, 3]).is_compatible_with(S(None))
    assert not S([2]).is_compatible_with([2, 1])
    assert S([2, None]).merge_with([None, 4]) == [2, 4]
    assert S([2, 3]).merge_with(S(None)) == [2, 3]
    assert S([2, 3]).most_specific_compatible_shape([2, 4]) == S([2, None])
    with pytest.raises(ValueError, match=r"Shapes \(2, None\) and \(3, 4\) are not compatible"):
        S([2, None]).merge_with([3, 4])
    with pytest.raises(ValueError, match=r"Shapes \(2, None\) and \[3, 4\] are incompatible"):
        S([2, None]).assert_is_compatible_with([3, 4])


def test_tensor_shape_queries():
    s = S([2, None, 4])
    assert s.rank == 3 and s.ndims == 3 and S(None).rank is None
    assert s.as_list() == [2, None, 4] and list(s) == [2, None, 4]
    assert s[0] == 2 and s[-1] == 4 and s[1] is None and s[1:] == S([None, 4])
    assert S(None)[0] is None and S(None)[1:] == S(None)
    assert not s.is_fully_defined() and S([2, 3]).is_fully_defined()
    assert s.num_elements() is None and S([2, 3]).num_elements() == 6
    assert S([]).num_elements() == 1
    assert S([2]).concatenate([3, None]) == [2, 3, None] and S([2]) + S([3]) == [2, 3]
    assert [2, 3] + S([4]) == [2, 3, 4] and S([2]).concatenate(S(None)) == S(None)
    assert bool(S([])) and not bool(S(None)) and len(S([2, 3])) == 2
    assert S(3) == [3] and S(np.int64(3)) == [3] and S(c([2, 3])) == [2, 3]
    assert S([2, 3]).with_rank(2) == [2, 3] and S(None).with_rank(2) == [None, None]


@pytest.mark.parametrize("call, error, message", [
    (lambda: S(None).as_list(), ValueError, "as_list\\(\\) is not defined on an unknown "
                                            "TensorShape."),
    (lambda: len(S(None)), ValueError, "Cannot take the length of shape with unknown rank."),
    (lambda: list(S(None)), ValueError, "Cannot iterate over a shape with unknown rank."),
    (lambda: S([-1]), ValueError, "Dimension -1 must be >= 0"),
    (lambda: S([2.5]), TypeError, "Dimension value must be integer or None or have an "
                                  "__index__ method, got value '2.5' with type "
                                  "'<class 'float'>'"),
    (lambda: S([[2]]), TypeError, "Dimension value must be integer"),
    (lambda: S("ab"), TypeError, "Failed to convert"),
    (lambda: S([2, None]).assert_has_rank(3), ValueError, r"Shape \(2, None\) must have rank 3"),
    (lambda: S([2, 3]).with_rank(3), ValueError, r"Shape \(2, 3\) must have rank 3"),
    (lambda: S([2, 3]).with_rank_at_least(3), ValueError, "must have rank at least 3"),
    (lambda: S([2, None]).assert_is_fully_defined(), ValueError,
     r"Shape \(2, None\) is not fully defined"),
    (lambda: S([2, 3]).assert_same_rank([1]), ValueError,
     r"Shapes \(2, 3\) and \(1,\) must have the same rank"),
    (lambda: S([2, 3])[5], IndexError, "out of range"),
])
def test_tensor_shape_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --- tf.errors ------------------------------------------------------------------------------
@pytest.mark.parametrize("name, code", [
    ("CancelledError", 1), ("UnknownError", 2), ("InvalidArgumentError", 3),
    ("DeadlineExceededError", 4), ("NotFoundError", 5), ("AlreadyExistsError", 6),
    ("PermissionDeniedError", 7), ("ResourceExhaustedError", 8),
    ("FailedPreconditionError", 9), ("AbortedError", 10), ("OutOfRangeError", 11),
    ("UnimplementedError", 12), ("InternalError", 13), ("UnavailableError", 14),
    ("DataLossError", 15), ("UnauthenticatedError", 16),
])
def test_error_classes_and_codes(name, code):
    cls = getattr(tf.errors, name)
    error = cls(None, None, "bad thing")
    assert issubclass(cls, tf.errors.OpError) and not issubclass(cls, ValueError)
    assert (str(error), error.message, error.error_code, error.op, error.node_def) == (
        "bad thing", "bad thing", code, None, None)


def test_op_error_takes_an_error_code():
    assert tf.errors.OpError(None, None, "m", 3).error_code == 3
    assert tf.errors.UnknownError(None, None, "m").error_code == 2
    assert issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError)


def test_an_op_failure_carries_tf_text_the_op_and_a_hint():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        c([1, 2, 3]) + c([1, 2])
    error = info.value
    assert error.error_code == 3
    assert error.message.startswith("Incompatible shapes: [3] vs. [2] [Op:AddV2] ")
    assert len(error.message) > len("Incompatible shapes: [3] vs. [2] [Op:AddV2] ") + 20


def test_framework_docstring_examples_run():
    import doctest

    from minitf.framework import dtypes, errors, tensor, tensor_shape

    for module in (tensor, tensor_shape, dtypes, errors):
        result = doctest.testmod(module, extraglobs={"tf": tf, "np": np})
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_tensor_shape_is_subtype_of_matches_tf():
    S = tf.TensorShape
    assert S([2, 3]).is_subtype_of(S([None, 3]))
    assert not S([None, 3]).is_subtype_of(S([2, 3]))
    assert S([2]).is_subtype_of(S(None))
    assert not S(None).is_subtype_of(S([2]))
    assert not S([2]).is_subtype_of(S([2, 1]))


# --- foreign array-likes (NumPy's __array__ protocol) ----------------------------------------

class _ArrayLike:
    """Not a list, not an ndarray: only NumPy's __array__ protocol, as pandas and xarray offer."""

    def __init__(self, array):
        self._array = np.asarray(array)

    def __array__(self, dtype=None, copy=None):
        return self._array if dtype is None else self._array.astype(dtype)


def test_an_object_offering_array_converts_through_it_keeping_its_dtype():
    assert tf.constant(_ArrayLike([1.5, 2.5])).dtype == tf.float64   # TF 2.21: float64
    assert tf.constant(_ArrayLike([1, 2])).dtype == tf.int64
    t = tf.convert_to_tensor(_ArrayLike([1.5, 2.5]), dtype=tf.float32)
    assert t.dtype == tf.float32 and t.numpy().tolist() == [1.5, 2.5]


def test_a_pandas_series_and_a_dataframe_dict_become_tensors_as_in_tf():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"x": [0.5, 1.5], "n": [1, 2], "s": ["a", "b"]})
    assert tf.constant(df["x"]).dtype == tf.float64
    assert tf.constant(df["s"]).numpy().tolist() == [b"a", b"b"]
    ds = tf.data.Dataset.from_tensor_slices(dict(df))
    # TF 2.21: {'x': float64, 'n': int64, 's': string} scalars
    assert {k: s.dtype for k, s in ds.element_spec.items()} == {
        "x": tf.float64, "n": tf.int64, "s": tf.string}
    assert [int(e["n"]) for e in ds] == [1, 2]
