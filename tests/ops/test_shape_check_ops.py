"""Rank and shape checks, tf.ensure_shape and the broadcast-shape helpers: what is known
while tracing fails at once (ValueError), what only the running graph knows fails then
(InvalidArgumentError)."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf
from minitf.grappler import prune

IAE = tf.errors.InvalidArgumentError
UNKNOWN = tf.TensorSpec(None, tf.float32)  # unknown rank


def lines(error):
    return [line.strip() for line in str(error).splitlines()]


# --- assert_rank, assert_rank_at_least, assert_rank_in --------------------------------------
def test_assert_rank_eager():
    assert tf.debugging.assert_rank(tf.zeros([2, 3]), 2) is None
    assert tf.assert_rank is tf.debugging.assert_rank
    with pytest.raises(ValueError) as info:
        tf.debugging.assert_rank(tf.zeros([3]), 2, message="need a matrix")
    assert str(info.value) == ("need a matrix.  Tensor  must have rank 2.  Received rank 1, "
                               "shape (3,)")


def test_assert_rank_at_least_and_rank_in_eager():
    tf.debugging.assert_rank_at_least(tf.zeros([2, 3, 4]), 2)
    tf.debugging.assert_rank_in(tf.constant(1.0), [0, 1])
    with pytest.raises(ValueError) as info:
        tf.debugging.assert_rank_at_least(tf.zeros([3]), 2)
    assert str(info.value) == "Tensor  must have rank at least 2.  Received rank 1, shape (3,)"
    with pytest.raises(ValueError) as info:
        tf.debugging.assert_rank_in(tf.zeros([3]), (2, 3))
    assert str(info.value) == "Tensor  must have rank in (2, 3).  Received rank 1, shape (3,)"


def test_rank_argument_must_be_an_int32_scalar():
    with pytest.raises(ValueError, match="^Rank must be a scalar.$"):
        tf.debugging.assert_rank(tf.zeros([3]), [1])
    with pytest.raises(TypeError, match="must be of type tf.int32; got tf.int64"):
        tf.debugging.assert_rank(tf.zeros([3]), tf.constant(1, tf.int64))


def test_known_rank_fails_while_tracing():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        tf.debugging.assert_rank(x, 2)
        return x

    with pytest.raises(ValueError) as info:
        f.get_concrete_function()
    assert lines(info.value)[-1] == ("ValueError: Tensor x:0 must have rank 2.  Received rank 1, "
                                     "shape (None,)")


@pytest.mark.parametrize("check, rank, good, bad, words", [
    (tf.debugging.assert_rank, 2, [2, 3], [3], "[Tensor x:0 must have rank] [2]"),
    (tf.debugging.assert_rank_at_least, 2, [2, 3, 1], [3],
     "[Tensor x:0 must have rank at least] [2]"),
    (tf.debugging.assert_rank_in, (0, 2), [], [3], "[Tensor x:0 must have rank in] [0] [2]"),
], ids=["rank", "at_least", "rank_in"])
def test_unknown_rank_is_checked_when_the_graph_runs(check, rank, good, bad, words):
    @tf.function(input_signature=[UNKNOWN])
    def f(x):
        check(x, rank)
        return tf.identity(x)

    assert f(tf.zeros(good)).shape == good
    with pytest.raises(IAE) as info:
        f(tf.zeros(bad))
    assert str(info.value).startswith(f"assertion failed: [] {words} [Received shape: ] [3]")


# --- assert_scalar --------------------------------------------------------------------------
def test_assert_scalar():
    assert tf.debugging.assert_scalar(tf.constant(1)) is None
    with pytest.raises(ValueError, match=r"^m\.  Expected scalar shape, saw shape: \(2,\)\.$"):
        tf.debugging.assert_scalar(tf.zeros([2]), message="m")

    @tf.function(input_signature=[UNKNOWN])
    def f(x):
        tf.debugging.assert_scalar(x)
        return x

    with pytest.raises(ValueError, match="Expected scalar shape for x:0, saw shape: <unknown>."):
        f.get_concrete_function()


# --- assert_shapes --------------------------------------------------------------------------
def test_assert_shapes_named_dimensions_eager():
    x, y, param = tf.zeros([10, 3]), tf.ones([10, 7]), tf.Variable([1.0, 2.0, 3.0])
    assert tf.debugging.assert_shapes(
        [(x, ("N", "Q")), (y, ("N", "D")), (param, ("Q",)), (1.0, ())]) is None
    with pytest.raises(ValueError) as info:
        tf.debugging.assert_shapes([(x, ("N", "D")), (y, ("N", "D"))], message="pairs")
    assert str(info.value) == (
        "pairs.  Specified by tensor shape=(10, 3) dtype=float32 dimension 1.  Tensor "
        "shape=(10, 7) dtype=float32 dimension 1 must have size 3.  Received size 7, "
        "shape (10, 7)")


def test_assert_shapes_explicit_any_and_innermost_sizes():
    x = tf.zeros([2, 4, 3])
    tf.debugging.assert_shapes([(x, (2, None, "."))])
    tf.debugging.assert_shapes([(x, (..., 3)), (x, ("*", "B", 3))])
    # TF reads an empty shape as (1,), also after "...": the last axis must then be 1.
    tf.debugging.assert_shapes([(tf.zeros([2, 1]), (...,))])
    with pytest.raises(ValueError, match="dimension -1 must have size 1.  Received size 3"):
        tf.debugging.assert_shapes([(x, (...,))])
    tf.debugging.assert_shapes([(x, tf.TensorShape([2, 4, 3])), (x, None)])
    with pytest.raises(ValueError, match=r"^Specified explicitly\.  Tensor shape=\(2, 4, 3\) "
                                         r"dtype=float32 dimension -1 must have size 4\."):
        tf.debugging.assert_shapes([(x, (..., 4))])
    with pytest.raises(ValueError, match=r"Tensor  must have rank at least 4\."):
        tf.debugging.assert_shapes([(x, (..., 1, 1, 1, 1))])
    with pytest.raises(ValueError, match=r"Tensor  must have rank 2\."):
        tf.debugging.assert_shapes([(x, ("A", "B"))])


def test_assert_shapes_scalars_count_as_shape_one():
    tf.debugging.assert_shapes([(tf.constant(5.0), (1,)), (tf.zeros([1]), ())])
    with pytest.raises(ValueError, match=r"must have rank in \(0, 1\)"):
        tf.debugging.assert_shapes([(tf.zeros([1, 1]), ())])


def test_assert_shapes_rejects_badly_written_shapes():
    x = tf.zeros([2])
    with pytest.raises(ValueError, match="Specified shape must be an iterable.  An iterable has"):
        tf.debugging.assert_shapes([(x, 2)])
    with pytest.raises(ValueError, match=r"specified shape index 1\.  Symbol `\.\.\.` or `\*`"):
        tf.debugging.assert_shapes([(x, ("N", ...))])


def test_assert_shapes_unknown_sizes_are_checked_when_the_graph_runs():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32),
                                  tf.TensorSpec([None, 2], tf.int32)])
    def f(x, y):
        tf.debugging.assert_shapes([(x, ("N",)), (y, ("N", 2))])
        return x + 0

    f(tf.constant([1, 2, 3]), tf.zeros([3, 2], tf.int32))
    with pytest.raises(IAE) as info:
        f(tf.constant([1, 2]), tf.zeros([3, 2], tf.int32))
    assert str(info.value).startswith(
        "assertion failed: [] [Specified by tensor x:0 dimension 0] [Tensor y:0 dimension] [0] "
        "[must have size] [2] [Received shape: ] [3 2]")


def test_assert_shapes_unknown_rank_in_a_graph():
    @tf.function(input_signature=[UNKNOWN])
    def square(x):
        tf.debugging.assert_shapes([(x, ("N", "N"))])
        return tf.identity(x)

    square(tf.zeros([2, 2]))
    with pytest.raises(IAE, match=r"\[Tensor x:0 must have rank\] \[2\]"):
        square(tf.zeros([4]))
    with pytest.raises(IAE, match=r"\[Tensor x:0 dimension\] \[1\] \[must have size\] \[2\]"):
        square(tf.zeros([2, 3]))


def test_assert_shapes_known_mismatch_fails_while_tracing():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        tf.debugging.assert_shapes([(x, ("B", 4))])
        return x

    with pytest.raises(ValueError, match="Tensor x:0 dimension 1 must have size 4.  Received "
                                         r"size 3, shape \(None, 3\)"):
        f.get_concrete_function()


# --- tf.ensure_shape ----------------------------------------------------------------------
def test_ensure_shape_eager():
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    for shape in ([2, 3], [None, 3], [2, None], None, tf.TensorShape(None)):
        np.testing.assert_array_equal(tf.ensure_shape(x, shape).numpy(), x.numpy())
    with pytest.raises(IAE) as info:
        tf.ensure_shape(x, [None, 5])
    assert str(info.value).startswith("Shape of tensor dummy_input [2,3] is not compatible with "
                                      "expected shape [?,5]. [Op:EnsureShape]")
    with pytest.raises(IAE, match=r"\[2,3\] is not compatible with expected shape \[6\]"):
        tf.ensure_shape(x, [6])


def test_ensure_shape_refines_the_static_shape_in_a_graph():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        y = tf.ensure_shape(x, [None, 3])
        seen.append((x.shape, y.shape))
        return tf.matmul(y, tf.ones([3, 1]))  # the 3 is now known to matmul's shape rule

    concrete = f.get_concrete_function()
    assert seen == [(tf.TensorShape([None, None]), tf.TensorShape([None, 3]))]
    assert concrete.structured_outputs.shape == tf.TensorShape([None, 1])
    assert f(tf.ones([2, 3])).numpy().tolist() == [[3.0], [3.0]]
    with pytest.raises(IAE) as info:
        f(tf.ones([2, 4]))
    assert str(info.value).startswith("Shape of tensor x [2,4] is not compatible with expected "
                                      "shape [?,3].")


def test_ensure_shape_merges_with_what_is_known_and_rejects_contradictions():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        return tf.ensure_shape(x, [4, None])

    assert f.get_concrete_function().structured_outputs.shape == tf.TensorShape([4, 3])

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def g(x):
        return tf.ensure_shape(x, [None, 2])

    with pytest.raises(ValueError, match=r"Dimension 1 in both shapes must be equal, but are 3 "
                                         r"and 2\. Shapes are \[\?,3\] and \[\?,2\]\."):
        g.get_concrete_function()

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def h(x):
        return tf.ensure_shape(x, [3])

    with pytest.raises(ValueError, match="Shapes must be equal rank, but are 2 and 1"):
        h.get_concrete_function()


def test_unused_ensure_shape_is_pruned_as_tf_warns():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        tf.ensure_shape(x, [3])  # result unused: TF says the check may not run
        return x * 2.0

    graph = f.get_concrete_function().graph
    pruned, report = prune(graph)
    assert "EnsureShape" not in [n.op.name for n in pruned.nodes]
    assert any("EnsureShape" in line for line in report)


def test_ensure_shape_gradient_is_the_identity():
    check_grads(lambda x: tf.ensure_shape(x, [None, 2]) * x, np.array([[1.0, -2.0], [0.5, 3.0]]))


# --- broadcast_static_shape and broadcast_dynamic_shape --------------------------------------
@pytest.mark.parametrize("x, y, expected", [
    ([1, 2, 3], [5, 1, 3], [5, 2, 3]),
    ([2, 1], [3], [2, 3]),
    ([], [4, 2], [4, 2]),
    ([None, 1], [4], [None, 4]),
    ([None], [1], [None]),
    ([None, 5], [1, None], [None, 5]),
    ([0], [1], [0]),
])
def test_broadcast_static_shape(x, y, expected):
    result = tf.broadcast_static_shape(tf.TensorShape(x), tf.TensorShape(y))
    assert isinstance(result, tf.TensorShape) and result == tf.TensorShape(expected)


def test_broadcast_static_shape_unknown_rank_and_failure():
    assert tf.broadcast_static_shape(tf.TensorShape(None), tf.TensorShape([2])).rank is None
    with pytest.raises(ValueError) as info:
        tf.broadcast_static_shape(tf.TensorShape([2, 3]), tf.TensorShape([4]))
    assert str(info.value) == (
        "Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
        "pair they are either equal or one of them is 1. Received: (2, 3) and (4,).")


def test_broadcast_dynamic_shape_eager():
    out = tf.broadcast_dynamic_shape(tf.constant([1, 2, 3]), tf.constant([5, 1, 3]))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [5, 2, 3]
    out = tf.broadcast_dynamic_shape(tf.constant([4, 1], tf.int64), [3])
    assert out.dtype == tf.int64 and out.numpy().tolist() == [4, 3]
    with pytest.raises(IAE, match=r"^Incompatible shapes: \[2,3\] vs. \[4\] \[Op:BroadcastArgs\]"):
        tf.broadcast_dynamic_shape([2, 3], [4])


def test_broadcast_dynamic_shape_in_a_graph():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                                  tf.TensorSpec([None], tf.float32)])
    def f(a, b):
        shape = tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b))
        return shape, tf.broadcast_to(b, shape)

    concrete = f.get_concrete_function()
    assert concrete.structured_outputs[0].shape == tf.TensorShape([2])
    shape, out = f(tf.zeros([2, 3]), tf.constant([1.0, 2.0, 3.0]))
    assert shape.numpy().tolist() == [2, 3] and out.shape == (2, 3)
    with pytest.raises(IAE, match=r"Incompatible shapes: \[2,3\] vs. \[2\]"):
        f(tf.zeros([2, 3]), tf.constant([1.0, 2.0]))
