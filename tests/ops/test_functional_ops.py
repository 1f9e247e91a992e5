"""map_fn, foldl, foldr and scan: values, nested structures, signatures, gradients, errors."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from strategies import arrays, small_shapes

import minitf as tf

nonscalar_shapes = small_shapes.filter(lambda s: len(s) > 0)


# --- map_fn -----------------------------------------------------------------------------------
@given(shape=nonscalar_shapes)
def test_map_fn_matches_a_python_loop(shape):
    x = arrays(shape, seed=1).astype(np.float32)
    out = tf.map_fn(lambda row: row * row + 1.0, tf.constant(x))
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), np.stack([r * r + 1 for r in x]), rtol=1e-6)


def test_map_fn_can_change_the_shape():
    out = tf.map_fn(lambda row: tf.reduce_sum(row), tf.ones([2, 3]))
    assert out.numpy().tolist() == [3.0, 3.0]
    out = tf.map_fn(lambda v: tf.stack([v, 2 * v]), tf.constant([1.0, 2.0]))
    assert out.numpy().tolist() == [[1.0, 2.0], [2.0, 4.0]]


def test_map_fn_python_results_take_the_signature_dtype():
    out = tf.map_fn(lambda v: 3.0, tf.constant([1.0, 2.0, 3.0]))
    assert out.dtype == tf.float32 and out.numpy().tolist() == [3.0, 3.0, 3.0]
    out = tf.map_fn(lambda v: 3, tf.constant([1.0, 2.0]), fn_output_signature=tf.int64)
    assert out.dtype == tf.int64 and out.numpy().tolist() == [3, 3]


@pytest.mark.parametrize("kwargs", [{"fn_output_signature": tf.int32}, {"dtype": tf.int32},
                                    {"fn_output_signature": "int32"}])
def test_map_fn_output_signature_changes_dtype(kwargs):
    out = tf.map_fn(lambda v: tf.cast(v, tf.int32), tf.constant([1.5, 2.5]), **kwargs)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [1, 2]


def test_map_fn_nested_inputs_and_outputs():
    x = tf.constant([1.0, 2.0, 3.0])
    out = tf.map_fn(lambda v: v[0] + v[1], (x, 10 * x), fn_output_signature=tf.float32)
    assert out.numpy().tolist() == [11.0, 22.0, 33.0]
    a, b = tf.map_fn(lambda v: (v, 2 * v), x, fn_output_signature=(tf.float32, tf.float32))
    assert a.numpy().tolist() == [1, 2, 3] and b.numpy().tolist() == [2, 4, 6]
    out = tf.map_fn(lambda d: {"b": d["a"] * 2}, {"a": x}, fn_output_signature={"b": tf.float32})
    assert out["b"].numpy().tolist() == [2.0, 4.0, 6.0]
    y, i = tf.map_fn(lambda v: v, (x, tf.constant([4, 5, 6])))  # same structure: no signature
    assert y.dtype == tf.float32 and i.dtype == tf.int32 and i.numpy().tolist() == [4, 5, 6]


class Spec:
    """Anything with .shape and .dtype works as a signature leaf, like tf.TensorSpec."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tf.TensorShape(shape), dtype


def test_map_fn_over_an_empty_first_axis():
    assert tf.map_fn(lambda v: v, tf.zeros([0, 2])).shape.as_list() == [0]
    out = tf.map_fn(lambda v: v, tf.zeros([0, 2]), fn_output_signature=Spec([2], tf.float32))
    assert out.shape.as_list() == [0, 2]
    out = tf.map_fn(lambda v: v, tf.zeros([0, 2]), fn_output_signature=Spec(None, tf.float32))
    assert out.shape.as_list() == [0]


@given(shape=nonscalar_shapes)
def test_map_fn_gradient(shape):
    check_grads(lambda t: tf.map_fn(lambda row: tf.sin(row) * row, t), arrays(shape, seed=2))


def test_map_fn_second_order():
    check_grads(lambda t: tf.map_fn(lambda row: row * row * row, t), arrays((2, 3), seed=3),
                order=2)


# --- foldl / foldr ---------------------------------------------------------------------------
def test_folds_run_in_opposite_directions():
    x = tf.constant([1.0, 2.0, 3.0])
    assert tf.foldl(lambda a, v: a + v, x).numpy() == 6.0
    assert tf.foldl(lambda a, v: a * 10 + v, x).numpy() == 123.0
    assert tf.foldr(lambda a, v: a * 10 + v, x).numpy() == 321.0
    assert tf.foldl(lambda a, v: a + v, x, initializer=10.0).numpy() == 16.0
    out = tf.foldl(lambda a, v: a * 10 + v, tf.constant([1, 2, 3]))
    assert out.dtype == tf.int32 and out.numpy() == 123


def test_folds_over_rows_and_structures():
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert tf.foldl(lambda a, row: a + row, m).numpy().tolist() == [4.0, 6.0]
    x = tf.constant([1.0, 2.0, 3.0])
    assert tf.foldl(lambda a, v: a + v[0] * v[1], (x, x), initializer=0.0).numpy() == 14.0
    total, product = tf.foldl(lambda a, v: (a[0] + v, a[1] * v), x, initializer=(0.0, 1.0))
    assert total.numpy() == 6.0 and product.numpy() == 6.0
    out = tf.foldr(lambda a, v: a - v["p"], {"p": x}, initializer=0.0)
    assert out.numpy() == -6.0


def test_fold_initializer_keeps_python_semantics_and_empty_elems():
    out = tf.foldl(lambda a, v: a + v, tf.constant([1.0, 2.0]), initializer=0)
    assert out.dtype == tf.float32 and out.numpy() == 3.0
    out = tf.foldl(lambda a, v: a + v, tf.zeros([0]), initializer=1.0)
    assert out.dtype == tf.float32 and out.numpy() == 1.0


@pytest.mark.parametrize("fold", [tf.foldl, tf.foldr])
@given(shape=nonscalar_shapes)
def test_fold_gradients(fold, shape):
    check_grads(lambda t: fold(lambda a, v: a * 0.5 + tf.sin(v), t), arrays(shape, seed=4))


@pytest.mark.parametrize("fold", [tf.foldl, tf.foldr])
def test_fold_second_order_with_initializer(fold):
    x, init = arrays((3, 2), seed=5), arrays((2,), seed=6)
    check_grads(lambda t, a0: fold(lambda a, v: a * v + v, t, initializer=a0), x, init, order=2)


# --- scan -------------------------------------------------------------------------------
def test_scan_values():
    x = tf.constant([1.0, 2.0, 3.0])
    assert tf.scan(lambda a, v: a + v, x).numpy().tolist() == [1.0, 3.0, 6.0]
    assert tf.scan(lambda a, v: a + v, x, reverse=True).numpy().tolist() == [6.0, 5.0, 3.0]
    assert tf.scan(lambda a, v: a + v, x, initializer=1.0).numpy().tolist() == [2.0, 4.0, 7.0]
    s, p = tf.scan(lambda a, v: (a[0] + v, a[1] * v), x, initializer=(0.0, 1.0))
    assert s.numpy().tolist() == [1.0, 3.0, 6.0] and p.numpy().tolist() == [1.0, 2.0, 6.0]
    out = tf.scan(lambda a, v: a + v, tf.zeros([0]), initializer=0.0)
    assert out.shape.as_list() == [0] and out.dtype == tf.float32


@given(shape=nonscalar_shapes)
def test_scan_matches_cumsum(shape):
    x = arrays(shape, seed=7).astype(np.float32)
    out = tf.scan(lambda a, v: a + v, tf.constant(x))
    np.testing.assert_allclose(out.numpy(), tf.cumsum(tf.constant(x)).numpy(), rtol=1e-6)


@given(shape=nonscalar_shapes)
def test_scan_gradient(shape):
    check_grads(lambda t: tf.scan(lambda a, v: a * tf.cos(v) + v, t), arrays(shape, seed=8))


# --- errors -----------------------------------------------------------------------------
ERRORS = [
    (lambda: tf.map_fn(lambda v: v, tf.constant(1.0)), ValueError,
     r"Elements in elems must be 1\+ dimensional Tensors, not scalars"),
    (lambda: tf.map_fn(lambda v: v * 2, [1.0, 2.0]), ValueError,
     r"Elements in elems must be 1\+ dimensional Tensors, not scalars"),
    (lambda: tf.map_fn(lambda v: v, (tf.zeros([3]), tf.zeros([2]))), ValueError,
     r"Dimensions 3 and 2 are not compatible"),
    (lambda: tf.map_fn(lambda v: tf.cast(v, tf.int32), tf.constant([1.0, 2.0])),
     tf.errors.InvalidArgumentError,
     r"TensorArray dtype is float32 but Op is trying to write dtype int32"),
    (lambda: tf.map_fn(lambda v: (v, 2 * v), tf.constant([1.0, 2.0])), ValueError,
     r"The two structures don't have the same nested structure"),
    (lambda: tf.map_fn(lambda v: tf.stack([v, v]) if v > 1 else v, tf.constant([1.0, 2.0])),
     ValueError, r"Incompatible shape for value \(\(2,\)\), expected \(\(\)\)"),
    (lambda: tf.foldl(lambda a, v: a + v, tf.zeros([0])), tf.errors.OutOfRangeError,
     r"Tried to read from index 0 but array size is: 0"),
    (lambda: tf.foldr(lambda a, v: a + v, tf.zeros([0])), tf.errors.OutOfRangeError,
     r"Reading from negative indices \(index -1\) is not allowed"),
    (lambda: tf.scan(lambda a, v: a + v, tf.zeros([0])), tf.errors.OutOfRangeError,
     r"Tried to read from index 0 but array size is: 0"),
    (lambda: tf.foldl(lambda a, v: a + v, tf.constant(1.0)), IndexError,
     r"tuple index out of range"),
    (lambda: tf.scan(lambda a, v: a + v, [1.0, 2.0]), IndexError, r"tuple index out of range"),
    (lambda: tf.foldl(lambda a, v: a + v[0] + v[1], (tf.zeros([3]), tf.zeros([2])),
                      initializer=0.0),
     tf.errors.OutOfRangeError, r"Tried to read from index 2 but array size is: 2"),
    (lambda: tf.foldl(lambda a, v: a + v[0] * v[1], (tf.zeros([2]), tf.zeros([2]))),
     ValueError, r"The two structures don't have the same nested structure"),
    (lambda: tf.scan(lambda a, v: tf.cast(a, tf.int32), tf.constant([1.0, 2.0])),
     tf.errors.InvalidArgumentError,
     r"TensorArray dtype is float32 but Op is trying to write dtype int32"),
]


@pytest.mark.parametrize("call,error,match", ERRORS)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
