"""tf.space_to_batch(_nd), tf.nn.space_to_batch, tf.batch_to_space,
tf.required_space_to_batch_paddings, tf.nn.space_to_depth, tf.nn.depth_to_space: values,
errors, gradients (finite differences), tf.function; CASES run against real TF in
test_top_level_real_tf.py.
"""
import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads

IMAGE = np.arange(16.0).reshape(1, 4, 4, 1)


def test_round_trips():
    blocks = tf.space_to_batch(IMAGE, [2, 2], [[1, 1], [0, 2]])
    assert blocks.shape == (4, 3, 3, 1)
    back = tf.batch_to_space(blocks, [2, 2], [[1, 1], [0, 2]])
    assert np.array_equal(back.numpy(), IMAGE)
    assert tf.space_to_batch_nd(IMAGE, [2, 2], [[0, 0], [0, 0]]).shape == (4, 2, 2, 1)
    assert tf.nn.space_to_batch(IMAGE, [1, 2], [[0, 0], [0, 0]]).shape == (2, 4, 2, 1)
    depth = tf.nn.space_to_depth(IMAGE, 2)
    assert depth.shape == (1, 2, 2, 4) and depth.numpy()[0, 0, 1].tolist() == [2, 3, 6, 7]
    assert np.array_equal(tf.nn.depth_to_space(depth, 2).numpy(), IMAGE)


def test_required_paddings_make_blocks_fit():
    paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3], [[1, 0], [0, 0]])
    assert paddings.numpy().tolist() == [[1, 0], [0, 2]]  # 1 + 5 is already even
    assert crops.numpy().tolist() == [[0, 0], [0, 2]]
    x = tf.ones([1, 5, 7, 1])
    blocks = tf.space_to_batch(x, [2, 3], paddings)
    assert blocks.shape == (6, 3, 3, 1)
    empty = tf.required_space_to_batch_paddings([], tf.zeros([0], tf.int32))
    assert [p.shape.as_list() for p in empty] == [[0, 2], [0, 2]]


def test_errors_teach():
    with pytest.raises(tf.errors.InvalidArgumentError, match="is not divisible by block_shape"):
        tf.space_to_batch(IMAGE, [3, 3], [[0, 0], [0, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"should have shape \[2, 2\]"):
        tf.space_to_batch(IMAGE, [2, 2], [[0, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not divisible by product"):
        tf.batch_to_space(np.ones((3, 2, 1)), [2], [[0, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="should be divisible by: 9"):
        tf.nn.depth_to_space(np.ones((1, 1, 1, 12)), 3)
    with pytest.raises(tf.errors.NotFoundError, match="NHWC"):
        tf.nn.space_to_depth(IMAGE, 2, data_format="NCHW")


def test_gradients_match_finite_differences():
    x = np.arange(1.0, 1.0 + 2 * 3 * 2).reshape(1, 2, 3, 2) / 7.0
    check_grads(lambda t: tf.space_to_batch(t, [2, 2], [[0, 0], [1, 0]]), x, order=2)
    y = np.arange(1.0, 13.0).reshape(4, 1, 3, 1) / 5.0
    check_grads(lambda t: tf.batch_to_space(t, [2, 2], [[0, 1], [1, 0]]), y, order=2)
    z = np.arange(1.0, 33.0).reshape(2, 2, 2, 4) / 9.0
    check_grads(lambda t: tf.nn.depth_to_space(t, 2), z, order=2)
    check_grads(lambda t: tf.nn.space_to_depth(t, 2), z.reshape(2, 4, 4, 1), order=2)


def test_inside_tf_function():
    @tf.function
    def f(x):
        blocks = tf.space_to_batch(x, [2, 2], [[0, 0], [0, 0]])
        return blocks, tf.batch_to_space(blocks, [2, 2], [[0, 0], [0, 0]]), \
            tf.nn.depth_to_space(tf.nn.space_to_depth(x, 2), 2)

    concrete = f.get_concrete_function(tf.TensorSpec([None, 4, 4, 1]))
    assert concrete.structured_outputs[0].shape.as_list() == [None, 2, 2, 1]
    blocks, back, same = f(tf.constant(IMAGE))
    assert blocks.shape == (4, 2, 2, 1) and np.array_equal(back.numpy(), IMAGE)
    assert np.array_equal(same.numpy(), IMAGE)


CASES = [
    "tf.space_to_batch(x, [2, 2], [[0, 0], [0, 0]])",
    "tf.space_to_batch(np.arange(6).reshape(1, 3, 2), [2], [[1, 0]])",
    "tf.space_to_batch(x, [3, 3], [[0, 0], [0, 0]])",
    "tf.batch_to_space(tf.space_to_batch(x, [2, 2], [[0, 0], [0, 0]]), [2, 2], [[0, 0], [0, 0]])",
    "tf.batch_to_space(np.arange(8).reshape(4, 2, 1), [2], [[1, 1]])",
    "tf.batch_to_space(np.arange(6).reshape(3, 2, 1), [2], [[0, 0]])",
    "tf.batch_to_space(np.arange(24.).reshape(4, 2, 3, 1), [2, 2], [[0, 1], [2, 1]])",
    "tf.space_to_batch_nd(x, [2, 2], [[1, 1], [0, 2]])",
    "tf.space_to_batch(x, [2, 2], [[-1, 1], [0, 0]])",
    "tf.nn.space_to_batch(np.arange(24.).reshape(2, 3, 4), [3], [[0, 0]])",
    "tf.nn.space_to_depth(x, 2)",
    "tf.nn.depth_to_space(tf.nn.space_to_depth(x, 2), 2)",
    "tf.nn.space_to_depth(x, 3)",
    "tf.nn.depth_to_space(np.arange(12).reshape(1, 1, 1, 12), 2)",
    "tf.nn.depth_to_space(np.arange(24.).reshape(1, 2, 1, 12), 2)",
    "tf.nn.depth_to_space(np.arange(12).reshape(1, 1, 1, 12), 3)",
    "tf.nn.space_to_depth(x, 2, data_format='NCHW')",
    "tf.nn.space_to_depth(x, 1)",
    "tf.nn.space_to_depth(np.arange(8).reshape(2, 4), 2)",
    "tf.nn.space_to_depth(np.arange(72.).reshape(2, 6, 3, 2), 3)",
    "tf.required_space_to_batch_paddings([5, 7], [2, 3])",
    "tf.required_space_to_batch_paddings([5, 7], [2, 3], [[1, 0], [0, 2]])",
    "tf.required_space_to_batch_paddings([4], [2])",
    "tf.space_to_batch(x, [2, 2], [[0, 0]])",
    "tf.space_to_batch(x, [2, 2, 2, 2], [[0, 0]] * 4)",
    "tf.space_to_batch(x, [0, 2], [[0, 0], [0, 0]])",
    "grad(lambda v: tf.space_to_batch(v, [2, 2], [[1, 1], [0, 2]]) * w(4, 3, 3, 1), x)",
    "grad(lambda v: tf.nn.space_to_depth(v, 2) * w(1, 2, 2, 4), x)",
    "grad(lambda v: tf.nn.depth_to_space(v, 2) * w(1, 4, 4, 1), np.ones((1, 2, 2, 4)))",
    "grad(lambda v: tf.batch_to_space(v, [2, 2], [[1, 0], [0, 1]]) * w(1, 3, 3, 1), ones)",
]
SETUP = """
x = np.arange(16.0).reshape(1, 4, 4, 1)
ones = np.ones((4, 2, 2, 1))
def w(*shape):
    return tf.constant(np.arange(1.0, np.prod(shape) + 1.0).reshape(shape) ** 1.5)
def grad(f, v):
    v = tf.constant(v, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = f(v)
    return tape.gradient(y, v)
"""
