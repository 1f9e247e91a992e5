"""Partial updates: tf.tensor_strided_slice_update, tensor_scatter_nd_max/min,
tf.IndexedSlices, and a variable's v[key].assign and scatter_* methods."""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads

RNG = np.random.default_rng(0)


# --- tensor_strided_slice_update ---------------------------------------------------------------
KEYS = [(1,), (slice(None), 0), (slice(0, 3, 2), slice(None, None, -1)), (Ellipsis, 1),
        (slice(1, None), slice(1, 3))]


def spec_args(x, key):
    """begin/end/strides/masks for `key`, as x[key] builds them."""
    from minitf.ops.slicing_ops import spec_from_key
    spec = spec_from_key(key)
    return [spec["begin"], spec["end"], spec["strides"]], {
        k: spec[k] for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                             "shrink_axis_mask")}


@pytest.mark.parametrize("key", KEYS, ids=str)
def test_strided_slice_update_matches_numpy_and_differentiates(key):
    x = RNG.normal(size=(3, 4))
    value = RNG.normal(size=x[key].shape)
    (begin, end, strides), masks = spec_args(x, key)
    out = tf.tensor_strided_slice_update(x, begin, end, strides, value, **masks)
    expected = x.copy()
    expected[key] = value
    np.testing.assert_array_equal(out.numpy(), expected)
    check_grads(lambda a, b: tf.tensor_strided_slice_update(a, begin, end, strides, b, **masks),
                x, value)


def test_strided_slice_update_broadcasts_only_into_the_slice_shape():
    # (more cases, gradients and real TF: tests/ops/test_slice_assign_broadcast.py)
    np.testing.assert_array_equal(
        tf.tensor_strided_slice_update(tf.zeros([4]), [0], [2], [1], 1.0).numpy(), [1, 1, 0, 0])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot broadcast input shape \[3\] into final shape \[2\]"):
        tf.tensor_strided_slice_update(tf.zeros([4]), [0], [2], [1], [1.0, 2.0, 3.0])


# --- tensor_scatter_nd_max / min ---------------------------------------------------------------
@pytest.mark.parametrize("mode", ["max", "min"])
def test_scatter_nd_max_min_match_numpy_with_repeats(mode):
    tensor = RNG.normal(size=(5, 2))
    indices = np.array([[1], [3], [1]])
    updates = RNG.normal(size=(3, 2))
    fn = tf.tensor_scatter_nd_max if mode == "max" else tf.tensor_scatter_nd_min
    expected = tensor.copy()
    (np.maximum if mode == "max" else np.minimum).at(expected, (indices[:, 0],), updates)
    np.testing.assert_array_equal(fn(tensor, indices, updates).numpy(), expected)
    check_grads(lambda t, u: fn(t, indices, u), tensor, updates)  # no ties: random values


def test_scatter_max_shares_the_gradient_of_a_tie():
    t, u = tf.Variable([1.0, 5.0]), tf.Variable([5.0])
    with tf.GradientTape() as tape:
        y = tf.tensor_scatter_nd_max(t, [[1]], u)
    dt, du = tape.gradient(y, [t, u])
    np.testing.assert_array_equal(dt.numpy(), [1.0, 0.5])
    np.testing.assert_array_equal(du.numpy(), [0.5])


# --- IndexedSlices -----------------------------------------------------------------------------
def test_indexed_slices_hold_rows_and_densify_with_repeats_added():
    rows = tf.IndexedSlices([[1.0, 2.0], [3.0, 4.0]], [0, 0], dense_shape=[2, 2])
    assert rows.dtype == tf.float32 and rows.indices.dtype == tf.int32
    np.testing.assert_array_equal(tf.convert_to_tensor(rows).numpy(), [[4.0, 6.0], [0.0, 0.0]])
    np.testing.assert_array_equal((-rows).values.numpy(), [[-1.0, -2.0], [-3.0, -4.0]])
    with pytest.raises(ValueError, match="without dense_shape"):
        tf.convert_to_tensor(tf.IndexedSlices([1.0], [0]))


# --- v[key].assign -----------------------------------------------------------------------------
def test_slice_assign_writes_the_slice_and_returns_the_variable():
    v = tf.Variable(np.arange(12.0).reshape(3, 4))
    expected = v.numpy()
    for key, value in [((1, 2), -1.0), ((slice(None), 0), [7.0, 8.0, 9.0]),
                       ((slice(0, 3, 2), slice(1, 3)), [[1.0, 2.0], [3.0, 4.0]])]:
        result = v[key].assign(value)
        expected[key] = value
        assert result is v
        np.testing.assert_array_equal(v.numpy(), expected)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot broadcast"):
        v[0].assign([5.0, 6.0])
    with pytest.raises(AttributeError, match="no attribute 'assign'"):
        tf.constant([1.0, 2.0])[0].assign(3.0)  # only a variable's slice remembers its origin


def test_a_slice_of_a_variable_is_still_an_ordinary_differentiable_tensor():
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = w[1] * 3.0 + tf.reduce_sum(w[::2])
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [1.0, 3.0, 1.0])
    assert float(w[1]) == 2.0 and w[1:].shape == (2,)
    assert w[w > 1.5].shape == (2,)  # a boolean mask: a plain tensor


def test_slice_assign_inside_tf_function_runs_on_every_call():
    v = tf.Variable(tf.zeros([2, 3]))

    @tf.function
    def write(row, value):
        v[row, 1:].assign(value)
        return v[row]

    first = write(0, tf.constant([1.0, 2.0]))
    np.testing.assert_array_equal(first.numpy(), [0.0, 1.0, 2.0])
    write(1, tf.constant([3.0, 4.0]))  # a new Python row: a new trace
    write(0, tf.constant([5.0, 6.0]))  # the first trace again
    np.testing.assert_array_equal(v.numpy(), [[0.0, 5.0, 6.0], [0.0, 3.0, 4.0]])
    graph = write.get_concrete_function(0, tf.constant([0.0, 0.0])).graph
    assert "TensorStridedSliceUpdate" in str(graph) and "AssignVariableOp" in str(graph)


# --- scatter methods ---------------------------------------------------------------------------
@pytest.mark.parametrize("method, combine", [
    ("scatter_nd_update", lambda old, new: new), ("scatter_nd_add", np.add),
    ("scatter_nd_sub", np.subtract), ("scatter_nd_max", np.maximum),
    ("scatter_nd_min", np.minimum)])
def test_scatter_nd_methods_eager_and_in_a_graph(method, combine):
    start = RNG.normal(size=(4, 2)).astype("float32")
    indices, updates = [[2, 1], [0, 0]], np.array([5.0, -5.0], "float32")
    expected = start.copy()
    for (i, j), u in zip(indices, updates):
        expected[i, j] = combine(expected[i, j], u)
    v = tf.Variable(start)
    assert getattr(v, method)(indices, updates) is v
    np.testing.assert_allclose(v.numpy(), expected)
    g = tf.Variable(start)

    @tf.function
    def update():
        getattr(g, method)(indices, updates)

    update()
    np.testing.assert_allclose(g.numpy(), expected)


@pytest.mark.parametrize("method, combine", [
    ("scatter_update", lambda old, new: new), ("scatter_add", np.add),
    ("scatter_sub", np.subtract), ("scatter_max", np.maximum), ("scatter_min", np.minimum)])
def test_sparse_scatter_methods_take_indexed_slices(method, combine):
    start = RNG.normal(size=(4, 3)).astype("float32")
    rows = RNG.normal(size=(2, 3)).astype("float32")
    v = tf.Variable(start)
    getattr(v, method)(tf.IndexedSlices(rows, [3, 1]))
    expected = start.copy()
    expected[[3, 1]] = combine(expected[[3, 1]], rows)
    np.testing.assert_allclose(v.numpy(), expected)
    with pytest.raises(TypeError, match="must be a `tf.IndexedSlices`"):
        getattr(v, method)([[1.0, 2.0, 3.0]])
