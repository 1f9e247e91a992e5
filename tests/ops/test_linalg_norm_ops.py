"""tf.norm / tf.linalg.norm, tf.linalg.normalize and tf.math.l2_normalize:
values against numpy.linalg.norm, keepdims, gradients, and TF's errors."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from strategies import arrays, small_shapes

import minitf as tf


def test_public_names():
    assert tf.norm is tf.linalg.norm
    assert tf.math.l2_normalize is tf.nn.l2_normalize is tf.linalg.l2_normalize


def away_from_zero(shape, seed=0):
    """Entries in [0.5, 2] with random signs: no kinks of |x| nearby."""
    rng = np.random.default_rng(seed)
    return rng.uniform(0.5, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)


@st.composite
def shape_and_vector_axis(draw):
    shape = draw(small_shapes.filter(lambda s: len(s) > 0))
    axis = draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    return shape, axis


VECTOR_ORDS = ["euclidean", 1, 2, np.inf, 3, 0.5]


@pytest.mark.parametrize("ord", VECTOR_ORDS)
@given(shape_and_vector_axis(), st.booleans())
def test_vector_norms(ord, shape_axis, keepdims):
    shape, axis = shape_axis
    x = away_from_zero(shape, seed=len(shape))
    np_ord = 2 if ord == "euclidean" else ord
    flat = x.reshape(-1) if axis is None else x
    expected = np.linalg.norm(flat, ord=np_ord, axis=None if axis is None else axis,
                              keepdims=keepdims and axis is not None)
    if keepdims and axis is None:
        expected = np.reshape(expected, [1] * len(shape))
    out = tf.norm(x, ord=ord, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10)
    assert out.shape == tf.TensorShape(np.shape(expected))
    if ord != np.inf:  # (inf is a max: its gradient is checked below, without ties)
        check_grads(lambda t: tf.norm(t, ord=ord, axis=axis, keepdims=keepdims), x)


def test_inf_norm_gradient_goes_to_the_largest_entry():
    x = np.array([[1.0, -3.0, 2.0], [0.5, 1.5, -1.0]])
    check_grads(lambda t: tf.norm(t, ord=np.inf, axis=1), x)
    check_grads(lambda t: tf.norm(t, ord=np.inf), x)


MATRIX_ORDS = ["fro", "euclidean", 1, 2, np.inf]


@pytest.mark.parametrize("ord", MATRIX_ORDS)
@pytest.mark.parametrize("shape,axis", [((3, 2), (0, 1)), ((2, 3, 4), (-1, 0)),
                                        ((2, 3, 4), [1, 2]), ((2, 2), (1, 0))])
def test_matrix_norms(ord, shape, axis):
    x = away_from_zero(shape, seed=3)
    np_ord = "fro" if ord == "euclidean" else ord
    expected = np.linalg.norm(x, ord=np_ord, axis=tuple(axis))
    np.testing.assert_allclose(tf.norm(x, ord=ord, axis=axis).numpy(), expected, rtol=1e-10)
    kept = tf.norm(x, ord=ord, axis=axis, keepdims=True)
    np.testing.assert_allclose(kept.numpy(), np.linalg.norm(x, ord=np_ord, axis=tuple(axis),
                                                            keepdims=True), rtol=1e-10)
    check_grads(lambda t: tf.norm(t, ord=ord, axis=axis), x)


def test_euclidean_norm_second_order_and_float32():
    check_grads(lambda t: tf.norm(t, axis=-1), away_from_zero((2, 3)), order=2)
    out = tf.norm(tf.constant([3.0, 4.0]))
    assert out.dtype is tf.float32 and float(out) == 5.0
    assert tf.norm(tf.constant([3 + 4j])).numpy() == 5  # complex in, complex out (as TF)


def test_normalize():
    x = away_from_zero((2, 3))
    unit, length = tf.linalg.normalize(x, axis=1)
    expected_length = np.linalg.norm(x, axis=1, keepdims=True)
    np.testing.assert_allclose(length.numpy(), expected_length)
    np.testing.assert_allclose(unit.numpy(), x / expected_length)
    unit, length = tf.linalg.normalize(tf.constant([3.0, 4.0]))
    assert length.shape == tf.TensorShape([1])
    check_grads(lambda t: tf.linalg.normalize(t, ord=1, axis=0)[0], x)


@given(shape_and_vector_axis())
def test_l2_normalize(shape_axis):
    shape, axis = shape_axis
    x = arrays(shape, seed=2)
    expected = x / np.sqrt(np.maximum(np.sum(x * x, axis=axis, keepdims=True), 1e-12))
    np.testing.assert_allclose(tf.math.l2_normalize(x, axis=axis).numpy(), expected, rtol=1e-10)
    check_grads(lambda t: tf.math.l2_normalize(t, axis=axis), x)


def test_l2_normalize_zero_vector_stays_zero_and_dim_alias():
    assert tf.math.l2_normalize([0.0, 0.0]).numpy().tolist() == [0.0, 0.0]
    out = tf.nn.l2_normalize(tf.constant([[3.0, 4.0]]), dim=1)
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8]], rtol=1e-6)
    check_grads(lambda t: tf.math.l2_normalize(t, axis=[0, 1]), arrays((2, 2)), order=2)


ERRORS = [
    (lambda: tf.norm(tf.ones([2, 3]), ord=0), ValueError,
     "'ord' must be a supported vector norm, got 0"),
    (lambda: tf.norm(tf.ones([2, 3]), ord=-1), ValueError,
     "'ord' must be a supported vector norm, got -1"),
    (lambda: tf.norm(tf.ones([2, 3]), ord="fro"), ValueError,
     "'ord' must be a supported vector norm, got fro"),
    (lambda: tf.norm(tf.ones([2, 3]), ord=3, axis=[0, 1]), ValueError,
     r"'ord' must be a supported matrix norm in \['euclidean', 'fro', 1, 2, inf\], got 3"),
    (lambda: tf.norm(tf.ones([2, 3]), axis=(0,)), ValueError,
     r"'axis' must be None, an integer, or a tuple of 2 unique integers, got \(0,\)"),
    (lambda: tf.norm(tf.ones([2, 3]), axis=(0, 0)), ValueError,
     r"tuple of 2 unique integers, got \(0, 0\)"),
    (lambda: tf.norm(tf.ones([2, 3]), axis=[0, 1, 2]), ValueError,
     r"tuple of 2 unique integers, got \[0, 1, 2\]"),
    (lambda: tf.norm(tf.ones([2, 3]), axis=5), tf.errors.InvalidArgumentError,
     r"Invalid reduction dimension \(5 for input with 2 dimension\(s\)"),
    (lambda: tf.norm(tf.ones([2], tf.int32)), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values"),
    (lambda: tf.math.l2_normalize(tf.constant([1j])), TypeError, "real floating tensors"),
]


@pytest.mark.parametrize("call,error,message", ERRORS)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
