"""tf.linalg.diag, diag_part, set_diag, band_part and trace: values (including
TF's diagonal bands `k=(lo, hi)` with alignment), dtypes, gradients, errors.

The expected band layouts below were checked against TensorFlow 2.21."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import arrays

import minitf as tf

batch_shapes = hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=2)
sizes = st.integers(1, 3)
X34 = np.arange(1.0, 13.0).reshape(3, 4)


# --- diag_part ----------------------------------------------------------------------------
@given(batch_shapes, sizes, sizes)
def test_diag_part_main_diagonal(batch, m, n):
    x = arrays(batch + (m, n))
    np.testing.assert_array_equal(tf.linalg.diag_part(x).numpy(),
                                  np.diagonal(x, axis1=-2, axis2=-1))
    check_grads(tf.linalg.diag_part, x)


@pytest.mark.parametrize("k", [1, -1, 3, -2])
def test_diag_part_offset(k):
    np.testing.assert_array_equal(tf.linalg.diag_part(X34, k=k).numpy(), np.diagonal(X34, k))


@pytest.mark.parametrize("k,align,padding,expected", [
    ((-1, 1), "RIGHT_LEFT", 9, [[2, 7, 12], [1, 6, 11], [5, 10, 9]]),
    ((-2, 1), "LEFT_RIGHT", 0, [[2, 7, 12], [1, 6, 11], [0, 5, 10], [0, 0, 9]]),
    ((-2, 1), "RIGHT_LEFT", 0, [[2, 7, 12], [1, 6, 11], [5, 10, 0], [9, 0, 0]]),
    ((0, 1), "RIGHT_LEFT", 0, [[2, 7, 12], [1, 6, 11]]),
])
def test_diag_part_band_layout_as_tf(k, align, padding, expected):
    out = tf.linalg.diag_part(X34, k=k, padding_value=padding, align=align)
    np.testing.assert_array_equal(out.numpy(), expected)


def test_diag_part_band_gradient():
    check_grads(lambda x: tf.linalg.diag_part(x, k=(-2, 1), padding_value=5.0), arrays((2, 3, 4)),
                order=2)
    check_grads(lambda x: tf.linalg.diag_part(x, k=(-1, 2), align="LEFT_LEFT"), arrays((4, 3)))


# --- diag ----------------------------------------------------------------------------------
@given(batch_shapes, sizes)
def test_diag_builds_diagonal_matrices(batch, n):
    d = arrays(batch + (n,))
    expected = d[..., :, None] * np.eye(n)
    np.testing.assert_array_equal(tf.linalg.diag(d).numpy(), expected)
    check_grads(tf.linalg.diag, d)


@pytest.mark.parametrize("diagonal,kwargs,expected", [
    ([1.0, 2.0], {"k": 1}, [[0, 1, 0], [0, 0, 2], [0, 0, 0]]),
    ([1.0, 2.0], {"num_rows": 3}, [[1, 0], [0, 2], [0, 0]]),
    ([1.0, 2.0], {"num_cols": 3, "padding_value": 9}, [[1, 9, 9], [9, 2, 9]]),
    ([1.0, 1.0, 1.0], {"k": -1}, [[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]),
    ([[1.0, 2.0], [3.0, 4.0]], {"k": (0, 1)}, [[3, 2], [0, 4]]),
    ([[1.0, 2.0], [3.0, 4.0]], {"k": (-1, 0), "num_rows": 3, "num_cols": 2},
     [[1, 0], [3, 2], [0, 4]]),
])
def test_diag_options_as_tf(diagonal, kwargs, expected):
    np.testing.assert_array_equal(tf.linalg.diag(diagonal, **kwargs).numpy(), expected)


def test_diag_band_gradient_and_dtypes():
    check_grads(lambda d: tf.linalg.diag(d, k=(-1, 1), num_rows=3, num_cols=4),
                arrays((2, 3, 3)), order=2)
    assert tf.linalg.diag([1, 2]).dtype is tf.int32
    assert tf.linalg.diag([True, False]).numpy().tolist() == [[True, False], [False, False]]


# --- set_diag ----------------------------------------------------------------------------------
@given(batch_shapes, sizes, sizes)
def test_set_diag_replaces_the_diagonal(batch, m, n):
    x = arrays(batch + (m, n), seed=1)
    d = arrays(batch + (min(m, n),), seed=2)
    expected = x.copy()
    idx = np.arange(min(m, n))
    expected[..., idx, idx] = d
    np.testing.assert_array_equal(tf.linalg.set_diag(x, d).numpy(), expected)
    check_grads(tf.linalg.set_diag, x, d)


def test_set_diag_band_as_tf():
    out = tf.linalg.set_diag(tf.zeros([3, 4]), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], k=(0, 1))
    np.testing.assert_array_equal(out.numpy(), [[4, 1, 0, 0], [0, 5, 2, 0], [0, 0, 6, 3]])
    check_grads(lambda x, d: tf.linalg.set_diag(x, d, k=(-1, 1)),
                arrays((3, 4), seed=1), arrays((3, 3), seed=2), order=2)


# --- band_part ---------------------------------------------------------------------------------
@given(batch_shapes, sizes, sizes, st.integers(-1, 2), st.integers(-1, 2))
def test_band_part(batch, m, n, lower, upper):
    lower, upper = min(lower, m), min(upper, n)
    x = arrays(batch + (m, n))
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    np.testing.assert_array_equal(tf.linalg.band_part(x, lower, upper).numpy(),
                                  np.where(keep, x, 0))
    check_grads(lambda t: tf.linalg.band_part(t, lower, upper), x)


def test_band_part_triangles_and_dtypes():
    x = arrays((3, 3))
    np.testing.assert_array_equal(tf.linalg.band_part(x, -1, 0).numpy(), np.tril(x))
    np.testing.assert_array_equal(tf.linalg.band_part(x, 0, -1).numpy(), np.triu(x))
    b = tf.linalg.band_part(tf.ones([3, 3], tf.bool), 0, 0)
    assert b.dtype is tf.bool and b.numpy().tolist() == np.eye(3, dtype=bool).tolist()
    assert tf.linalg.band_part(tf.ones([2, 2], tf.int32), tf.constant(0), -1).dtype is tf.int32


# --- trace ---------------------------------------------------------------------------------------
@given(batch_shapes, sizes, sizes)
def test_trace(batch, m, n):
    x = arrays(batch + (m, n))
    np.testing.assert_allclose(tf.linalg.trace(x).numpy(), np.trace(x, axis1=-2, axis2=-1))
    check_grads(tf.linalg.trace, x, order=2)


def test_trace_int():
    out = tf.linalg.trace(tf.ones([2, 2], tf.int32))
    assert out.dtype is tf.int32 and int(out) == 2


# --- errors --------------------------------------------------------------------------------------
ERRORS = [
    (lambda: tf.linalg.diag(1.0), "diagonal must be at least 1-dim, received shape: \\[\\]"),
    (lambda: tf.linalg.diag(tf.ones([2, 3]), k=(1, 0)),
     "lower_diag_index must not be larger than upper_diag_index: 1 > 0"),
    (lambda: tf.linalg.diag(tf.ones([2, 3]), k=(0, 2)),
     "The number of diagonals provided in the input does not match"),
    (lambda: tf.linalg.diag(tf.ones([3]), num_rows=5, num_cols=5),
     "The number of rows or columns is not consistent"),
    (lambda: tf.linalg.diag(tf.ones([3]), num_rows=2), "The number of rows is too small"),
    (lambda: tf.linalg.diag(tf.ones([3]), num_cols=2), "The number of columns is too small"),
    (lambda: tf.linalg.diag_part([1.0, 2.0]),
     r"input must be at least 2-dim, received shape: \[2\]"),
    (lambda: tf.linalg.diag_part(tf.ones([3, 4]), k=4),
     "lower_diag_index is out of bound: 4. It must be between -3 and 4"),
    (lambda: tf.linalg.diag_part(tf.ones([3, 4]), k=(0, 4)),
     "upper_diag_index is out of bound: 4 It must be between -3 and 4"),
    (lambda: tf.linalg.diag_part(tf.ones([3, 4]), align="FOO"),
     "Value for attr 'align' of \"FOO\" is not in the list of allowed values"),
    (lambda: tf.linalg.set_diag(tf.ones([2, 3]), [9.0, 9.0, 9.0]),
     r"Input shape: \[2,3\]\nDiagonal shape: \[3\]\nExpected diagonal shape: \[2\]"),
    (lambda: tf.linalg.set_diag(tf.zeros([3, 4]), [[1.0, 2.0, 3.0]], k=(0, 1)),
     "The number of diagonals provided in `diag` is not consistent"),
    (lambda: tf.linalg.set_diag([1.0, 2.0], [9.0, 9.0]),
     r"input must be at least 2-dim, received shape: \[2\]"),
    (lambda: tf.linalg.set_diag(tf.zeros([3, 4]), tf.constant([1, 2, 3])),
     "expected to be a float tensor but is a int32 tensor"),
    (lambda: tf.linalg.band_part(tf.ones([3]), 0, -1),
     r"input must be at least 2-dim, received shape: \[3\]"),
    (lambda: tf.linalg.band_part(tf.ones([3, 3]), 5, -1),
     r"num_lower must be negative or less or equal to number of rows \(3\) got: 5"),
    (lambda: tf.linalg.band_part(tf.ones([3, 3]), 0, 5),
     r"num_upper must be negative or less or equal to number of columns \(3\) got: 5"),
    (lambda: tf.linalg.trace(tf.ones([2])), r"input must be at least 2-dim"),
]


@pytest.mark.parametrize("call,message", ERRORS)
def test_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()
