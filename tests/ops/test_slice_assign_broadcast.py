"""`v[key].assign(value)` broadcasts `value` into the slice, as TF 2.21 does
(`tf.raw_ops.TensorStridedSliceUpdate` / `ResourceStridedSliceAssign`)."""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json

# (key, value): the key as Python slices, the value as a nested list
CASES = [
    ((1, slice(None, 2)), 0.0),                       # a scalar fills the slice
    ((1, slice(None, 2)), [3.0]),                     # a size-1 axis stretches
    ((slice(None), slice(0, 2)), [[1.0], [2.0]]),     # a column per row
    ((slice(None), 1), [[9.0, 8.0]]),                 # an extra leading axis of size 1
    ((1, slice(None, 2)), [[[1.0, 2.0]]]),            # two of them
    ((slice(0, 1), slice(0, 2)), [7.0, 8.0]),         # fewer axes than the slice
    ((1, slice(None, 2)), [[1.0], [2.0]]),            # [2, 1] into [2]: refused
    ((1, slice(None, 2)), [1.0, 2.0, 3.0]),           # [3] into [2]: refused
]

TF_CODE = '''
import json
import tensorflow as tf
out = []
for key, value in CASES:
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    try:
        v[key].assign(value)
        out.append(["ok", v.numpy().tolist()])
    except Exception as e:
        out.append([type(e).__name__, str(e)])
print(json.dumps(out))
'''


def minitf_outcome(key, value):
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    try:
        v[key].assign(value)
        return ["ok", v.numpy().tolist()]
    except Exception as e:  # noqa: BLE001 - the class and text are what we compare
        return [type(e).__name__, str(e)]


def test_values_broadcast_into_the_slice():
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert v[1, :2].assign(0.0) is v
    np.testing.assert_array_equal(v.numpy(), [[1, 2, 3], [0, 0, 6]])
    v[:, 1].assign([[9.0, 8.0]])
    np.testing.assert_array_equal(v.numpy(), [[1, 9, 3], [0, 8, 6]])


def test_a_value_that_does_not_broadcast_is_refused_with_tf_text():
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot broadcast input shape \[2,1\] into final shape \[2\]"):
        v[1, :2].assign([[1.0], [2.0]])
    np.testing.assert_array_equal(v.numpy(), [[1, 2, 3], [4, 5, 6]])  # unchanged


def test_in_a_graph_too():
    v = tf.Variable(tf.zeros([2, 3]))

    @tf.function
    def fill(value):
        v[:, 1:].assign(value)
        return v.read_value()

    np.testing.assert_array_equal(fill(tf.constant(7.0)).numpy(), [[0, 7, 7], [0, 7, 7]])
    np.testing.assert_array_equal(fill(tf.constant([[1.0], [2.0]])).numpy(),
                                  [[0, 1, 1], [0, 2, 2]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot broadcast"):
        fill(tf.constant([1.0, 2.0, 3.0]))


@pytest.mark.parametrize("value_shape", [(), (1,), (3, 1), (1, 2), (1, 1, 2)], ids=str)
def test_the_gradient_of_a_broadcast_value_sums_over_the_stretched_axes(value_shape):
    x = np.random.default_rng(1).normal(size=(4, 3))
    value = np.random.default_rng(2).normal(size=value_shape)
    check_grads(lambda a, b: tf.tensor_strided_slice_update(a, [1, 0], [4, 2], [1, 1], b),
                x, value)


def test_the_same_as_real_tf():
    theirs = run_tf_json(f"CASES = {CASES!r}\n" + TF_CODE)
    for (key, value), their in zip(CASES, theirs):
        mine = minitf_outcome(key, value)
        assert mine[0] == their[0], (key, value, mine, their)
        if mine[0] == "ok":
            assert mine[1] == their[1], (key, value)
        else:
            text = their[1].split("}}")[-1].split(" [Op:")[0].strip()
            assert text in mine[1], (text, mine[1])
