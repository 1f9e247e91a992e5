"""tf.ragged_fill_empty_rows and its gradient op: hand-derived values, finite
differences, a traced graph, and the same calls in real TF."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json


def fill(rowids, values, nrows, default):
    return tf.ragged_fill_empty_rows(value_rowids=tf.constant(rowids, tf.int64),
                                     values=values, nrows=tf.constant(nrows, tf.int64),
                                     default_value=default)


def test_empty_rows_get_the_default_once():
    out = fill([0, 0, 2], tf.constant([1.0, 2.0, 3.0]), 4, tf.constant(9.0))
    assert out.output_values.numpy().tolist() == [1.0, 2.0, 9.0, 3.0, 9.0]
    assert out.output_value_rowids.numpy().tolist() == [0, 0, 1, 2, 3]
    assert out.empty_row_indicator.numpy().tolist() == [False, True, False, True]
    assert out.reverse_index_map.numpy().tolist() == [0, 1, 3]
    unsorted = fill([1, 0], tf.constant([1.0, 2.0]), 3, tf.constant(0.0))
    assert unsorted.output_values.numpy().tolist() == [2.0, 1.0, 0.0]
    assert unsorted.reverse_index_map.numpy().tolist() == [1, 0]
    none = fill([], tf.constant([], tf.float32), 2, tf.constant(5.0))
    assert none.output_values.numpy().tolist() == [5.0, 5.0]


@pytest.mark.parametrize("args, text", [
    (([0, 5], [1.0, 2.0], 3, 0.0), r"indices\(1, 0\) is invalid: 5 >= 3"),
    (([0], [1.0, 2.0], 3, 0.0), "must match the first dimension"),
    (([0, 0], [1.0, 2.0], 3, [0.0]), "default_value must be a scalar"),
    (([0, 0], [[1.0], [2.0]], 3, 0.0), "values must be a vector"),
])
def test_errors(args, text):
    rowids, values, nrows, default = args
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        fill(rowids, tf.constant(values), nrows, tf.constant(default))


def test_gradient_against_finite_differences():
    check_grads(lambda v, d: fill([0, 0, 2], v, 4, d).output_values,
                np.array([0.5, -1.0, 2.0]), np.array(0.25))
    g = tf.ragged_fill_empty_rows_grad(tf.constant([0, 1, 3], tf.int64),
                                       tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
    assert g.d_values.numpy().tolist() == [1.0, 2.0, 4.0] and float(g.d_default_value) == 8.0


def test_traced_in_a_graph():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(values):
        return fill([0, 2], values, 3, tf.constant(-1.0)).output_values

    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [1.0, -1.0, 2.0]


def test_same_as_real_tf():
    calls = [([0, 0, 2], [1.0, 2.0, 3.0], 4, 9.0), ([1, 0], [1.0, 2.0], 3, 0.0),
             ([], [], 2, 5.0), ([3, 3, 1], [4.0, 5.0, 6.0], 5, 0.5)]
    code = f"""
import json, tensorflow as tf
out = []
for rowids, values, nrows, default in {calls!r}:
    r = tf.ragged_fill_empty_rows(value_rowids=tf.constant(rowids, tf.int64),
                                  values=tf.constant(values, tf.float32),
                                  nrows=tf.constant(nrows, tf.int64),
                                  default_value=tf.constant(default))
    out.append([t.numpy().tolist() for t in r])
print(json.dumps(out))
"""
    theirs = run_tf_json(code)
    ours = [[t.numpy().tolist() for t in fill(r, tf.constant(v, tf.float32), n,
                                              tf.constant(d))] for r, v, n, d in calls]
    assert json.loads(json.dumps(ours)) == theirs
