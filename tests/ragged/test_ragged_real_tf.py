"""The same RaggedTensor expressions in minitf and in real TensorFlow 2.21.

Each expression is evaluated on both sides; a value must print exactly as TF
prints it, and an error must be of TF's class and start with TF's message
(minitf adds a sentence that teaches)."""
import json
import re

import numpy as np  # noqa: F401 - used by the expressions
import pytest

import minitf
from real_tf import run_tf_json

PRELUDE = "rc = tf.ragged.constant\nR = tf.RaggedTensor\n"

EXPRESSIONS = """
rc([[1, 2], [3], []])
rc([[1.5, 2.0], [3.0]])
rc([[[1, 2], [3]], [[4]]])
rc([["a", "bc"], []])
rc([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
rc([[[1, 2]], [[5, 6]], []], ragged_rank=1)
rc([list(range(i)) for i in range(12)])
rc([[1, 2], [3], []]).shape
rc([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1).shape
rc([[1, 2], [3]], dtype=tf.float64)
rc([[], []])
rc([[[]], []])
rc([[[1, 2]], []], inner_shape=(2,))
rc([[True], []])
rc([[1, 2], [3]], row_splits_dtype=tf.int32).row_splits
rc([[1, 2], [[3]]])
rc([[1, 2], [3]], ragged_rank=2)
rc([[[1, 2], [3]], []], ragged_rank=1)
R.from_row_splits([1, 2, 3], [0, 2])
R.from_row_splits([1, 2, 3], [1, 3])
R.from_row_splits([1, 2, 3], [0, 2, 1, 3])
R.from_row_splits([1, 2, 3], [[0, 3]])
R.from_row_splits([1., 2], [0, 1.5])
R.from_row_lengths([1, 2, 3], [2, 2])
R.from_row_lengths([1, 2, 3], [-1, 4])
R.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4)
R.from_value_rowids([1, 2, 3], [0, 2, 1])
R.from_value_rowids([1, 2, 3], [0, 1])
R.from_value_rowids([1, 2, 3], [0, 1, 5], nrows=3)
R.from_row_starts([1, 2, 3], [0, 2])
R.from_row_starts([1, 2, 3], [1, 2])
R.from_row_limits([1, 2, 3], [2, 3])
R.from_row_limits([1, 2, 3], [2, 1])
R.from_nested_row_splits([1, 2, 3, 4], [[0, 2, 3], [0, 1, 3, 4]])
R.from_uniform_row_length([1, 2, 3, 4], 2)
R.from_uniform_row_length([1, 2, 3, 4], 2).shape
R.from_tensor([[1, 0, 0], [2, 3, 0]], padding=0)
R.from_tensor([[1, 0, 0], [2, 3, 0]], lengths=[1, 3])
R.from_tensor([[1, 2], [3, 4]]).shape
R.from_tensor([[[1, 0], [0, 0]], [[1, 1], [0, 0]]], padding=[0, 0])
R.from_tensor([[[1, 0, 2], [0, 0, 0]], [[3, 0, 0], [4, 4, 0]]], padding=0, ragged_rank=2)
R.from_tensor([1, 2])
R.from_tensor([[1, 2]], lengths=[1], padding=0)
R.from_sparse(tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 4]))
R.from_sparse(tf.SparseTensor([[0, 1]], [1], [2, 2]))
rc([[1, 2], [3], []]).to_tensor()
rc([[1, 2], [3], []]).to_tensor(default_value=9, shape=[2, 3])
rc([[[1, 2], [3]], [[4]]]).to_tensor()
rc([[[1, 2]], []], ragged_rank=1).to_tensor(default_value=[7, 8])
rc([[1, 2], [3]]).to_tensor(shape=[2])
rc([[[1, 2], [3]], [[4]]]).to_sparse()
rc([[1, 2], [3], []]).to_list()
rc([[1, 2], [3], []]).row_lengths()
rc([[[1], [2, 3]], []]).row_lengths(axis=2)
rc([[1, 2], [3], []]).nrows()
rc([[1, 2], [3], []]).value_rowids()
rc([[1, 2], [3], []]).bounding_shape()
rc([[1, 2], [3]]).merge_dims(0, -1)
rc([[[1], [2, 3]], [[4]]]).merge_dims(1, 2)
rc([[1, 2], [3]]).with_values([1, 2])
rc([[1, 2, 3], [4], []])[0]
rc([[1, 2, 3], [4], []])[1:]
rc([[1, 2, 3], [4], []])[:, :2]
rc([[1, 2, 3], [4], []])[:, ::-1]
rc([[1, 2, 3], [4], []])[:, tf.newaxis]
rc([[[1, 2], [3]], [[4]]])[:, :, :1]
rc([[1, 2], [3]])[5]
rc([[1, 2], [3]])[1, 1]
rc([[1, 2], [3]])[:, 1]
tf.ragged.range([3, 0, 2])
tf.ragged.range([1, 5], [4, 2], [1, -1])
tf.ragged.range(0.5, [2.0, 3.0], 0.5)
tf.ragged.range([1], [3], [0])
tf.ragged.stack([rc([[1, 2], [3]]), rc([[4]])])
tf.ragged.stack([rc([[1, 2], [3]]), rc([[4]])], axis=1)
tf.ragged.stack([[1, 2], [3, 4, 5]])
tf.ragged.stack([])
tf.concat([rc([[1, 2], [3]]), rc([[4]])], axis=0)
tf.concat([rc([[1, 2], [3]]), rc([[4], [5, 6]])], axis=1)
tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, False, True]])
tf.ragged.boolean_mask(rc([[1, 2, 3], [4]]), rc([[True, False, True], [False]]))
tf.ragged.boolean_mask(rc([[1, 2, 3], [4]]), [True, False])
tf.ragged.boolean_mask(rc([[1, 2, 3], [4]]), rc([[True], [False]]))
tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5])
tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=5)
tf.ragged.map_flat_values(tf.ones_like, rc([[1, 2], [3]]))
tf.ragged.map_flat_values(tf.multiply, rc([[1, 2], [3]]), rc([[5], [7, 8]]))
tf.ragged.map_flat_values(tf.reduce_sum, rc([[1, 2], [3]]))
tf.ragged.cross([rc([['a', 'b'], ['c']]), tf.constant([['d'], ['e']])])
tf.ragged.cross([rc([['a', 'b']]), rc([['c', 'd']]), rc([['e', 'f']])])
tf.ragged.cross_hashed([rc([['a', 'b'], ['c']]), tf.constant([['d'], ['e']])])
tf.ragged.cross_hashed([rc([['a', 'b']]), rc([['c', 'd']])], num_buckets=1000)
tf.ragged.cross_hashed([rc([[1, 2]], dtype=tf.int64), rc([['c']])], num_buckets=1000, hash_key=7)
tf.ragged.cross([rc([[1.5]])])
tf.ragged.stack_dynamic_partitions([1, 2, 3, 4, 5], [2, 0, 2, 1, 0], 3)
tf.ragged.stack_dynamic_partitions(rc([[1], [2, 3], []]), [1, 0, 1], 2)
tf.ragged.stack_dynamic_partitions([1, 2, 3, 4, 5], [2, 0, 2, 1, 0], 2)
tf.gather(rc([[1, 2], [3], [4, 5, 6]]), [2, 0, 2])
tf.gather([1, 2, 3], rc([[2], [0, 1]]))
rc([[1., 2.], [3.], []]) + 1
rc([[1., 2.], [3.], []]) + rc([[10., 20.], [30.], []])
rc([[1., 2.], [3.], []]) + tf.constant([[10.], [20.], [30.]])
tf.constant([[10.], [20.], [30.]]) - rc([[1., 2.], [3.], []])
rc([[1., 2.], [3.], []]) + tf.constant([10., 20.])
rc([[1, 2], [3]]) / 2
rc([[1, 2], [3]]) + rc([[1.0, 2], [3]])
rc([[1., 2.], [3.], []]) > 1
rc([[1., 2.], [3.], []]) == 1
tf.nn.relu(rc([[1., 2.], [3.], []]) - 2)
tf.clip_by_value(rc([[1., 2.], [3.], []]), 1.5, 2.5)
tf.where(rc([[True, False], [True]]), rc([[1, 2], [3]]), rc([[4, 5], [6]]))
tf.where(rc([[1., 2.], [3.], []]) > 1.5)
tf.math.sqrt(rc([[4.0, 9.0], [16.0]]))
rc([[[1., 2.], [3., 4.]], [[5., 6.]]], ragged_rank=1) + tf.constant([100., 200.])
tf.reduce_sum(rc([[1., 2.], [3.], []]), axis=1)
tf.reduce_sum(rc([[1., 2.], [3.], []]), axis=0)
tf.reduce_sum(rc([[1., 2.], [3.], []]), axis=1, keepdims=True)
tf.reduce_mean(rc([[1., 2.], [3.], []]), axis=1)
tf.reduce_mean(rc([[1, 2], [3], []]), axis=1)
tf.reduce_max(rc([[1., 2.], [3.], []]), axis=1)
tf.reduce_min(rc([[1, 2], [3], []]), axis=1)
tf.reduce_prod(rc([[1., 2.], [3.], []]), axis=0)
tf.reduce_any(rc([[1., 2.], [3.], []]) > 1, axis=1)
tf.math.reduce_variance(rc([[1., 2.], [3.], []]), axis=1)
tf.reduce_sum(rc([[1., 2.], [3.], []]), axis=2)
tf.reduce_sum(rc([[[1., 2.], [3.]], [[4.]], []]), axis=1)
tf.reduce_sum(rc([[[1., 2.], [3.]], [[4.]], []]), axis=0)
tf.reduce_mean(rc([[[1., 2.], [3., 4.]], [[5., 6.]]], ragged_rank=1), axis=0)
tf.expand_dims(rc([[1, 2], [3]]), 1)
tf.expand_dims(rc([[1, 2], [3]]), -1)
tf.size(rc([[1, 2], [3]]), out_type=tf.int64)
tf.rank(rc([[1, 2], [3]]))
tf.ones_like(rc([[1, 2], [3]]))
tf.cast(rc([[1, 2], [3]]), tf.float32)
tf.ragged.boolean_mask(rc([[1], [], [2, 3]]), rc([[True], [], [False, True]]))
tf.ragged.boolean_mask(rc([[1], [2, 3], []]), rc([[True], [False, True], []]))
rc([[], []]).to_tensor()
rc([[], []], dtype=tf.int32).to_tensor(shape=[3, 2])
R.from_row_splits(tf.constant([], tf.float32), [0])
R.from_row_splits(tf.constant([], tf.float32), [0]).to_tensor()
R.from_row_splits(tf.constant([], tf.float32), [0]).shape
tf.reduce_sum(rc([[], []]), axis=0)
tf.reduce_sum(rc([[], []], dtype=tf.float32), axis=1)
tf.reduce_max(rc([[], [1]]), axis=0)
tf.ragged.range([])
tf.ragged.range(0)
tf.ragged.stack([rc([[1]]), tf.constant([[2, 3]])])
rc([[1, 2], [3]])[:0]
rc([[1, 2], [3]])[:, 5:]
rc([[1, 2], [3]])[-1:]
rc([[1, 2], [3]])[..., :1]
rc([[[1, 2], [3]], [[4]]])[:, -1:]
rc([[[1, 2], [3]], [[4]]])[0]
rc([[[1, 2], [3]], [[4]]])[0, 1]
rc([[1., 2.], [3.]]) * rc([[2., 2.], [2.]])
rc([[1, 2], [3]]) % 2
2 ** rc([[1, 2], [3]])
10 - rc([[1, 2], [3]])
rc([[1, 2], [3]]) < tf.constant([[2], [3]])
tf.math.equal(rc([[1, 2], [3]]), 2)
tf.reduce_sum(rc([[1, 2], [3]]), axis=[0, 1])
tf.reduce_sum(rc([[1, 2], [3]]), axis=-2)
tf.reduce_mean(rc([[[1., 2.], [3.]], [[4.]], []]), axis=2)
tf.reduce_min(rc([[[1., 2.], [3.]], [[4.]], []]), axis=0)
tf.concat([rc([[[1]], [[2, 3]]]), rc([[[4]]])], axis=0)
tf.concat([rc([[1]]), rc([[2.0]])], axis=0)
tf.gather(rc([[[1], [2, 3]], [[4]]]), [1, 1])
tf.ragged.constant([[1, 2], [3]], ragged_rank=0)
tf.ragged.constant([[[1], [2]], [[3]]], inner_shape=(1,))
tf.ragged.constant([[1, 2], [3, 4]], ragged_rank=1)
tf.ragged.constant([])
tf.ragged.constant(5)
tf.ragged.constant([[1, 2], [3]], ragged_rank=-1)
rc([[1, 2], [3]]).to_tensor(default_value=7)
rc([["a"], []]).to_tensor()
rc([[1, 2], [3]]).numpy()
rc([[1, 2], [3, 4]]).numpy()
rc([[[1, 2], [3]], [[4]]]).numpy()
R.from_row_lengths([1, 2, 3], [1, 2]).with_row_splits_dtype(tf.int32)
R.from_value_rowids([1, 2], [1, 1])
R.from_value_rowids([], [], nrows=2)
tf.ragged.segment_ids_to_row_splits([])
tf.ragged.row_splits_to_segment_ids([0])
tf.ragged.map_flat_values(tf.strings.as_string, rc([[1], [2]]))
tf.ragged.stack_dynamic_partitions([], [], 2)
tf.ragged.cross([])
tf.ragged.cross([rc([['a'], []]), rc([['c'], ['d']])])
tf.ragged.boolean_mask(rc([[1, 2], [3]]), [[True, False], [True, False]])
rc([[1, 2], [3]]).merge_dims(0, 0)
rc([[1, 2], [3]])[:, ::2]
tf.math.negative(rc([[1, 2], [3]]))
tf.math.abs(rc([[-1, 2], [-3]]))
tf.math.logical_not(rc([[True], [False]]))
abs(rc([[-1.5]]))
tf.where(rc([[True, False], [True]]), rc([[1, 2], [3]]), 0)
tf.shape(rc([[1, 2], [3]]))
tf.shape(rc([[1, 2], [3]]))[0]
tf.shape(rc([[1, 2], [3]]))[1]
tf.shape(rc([[1, 2], [3]])).static_lengths()
tf.shape(rc([[1, 2], [3]])).inner_shape
tf.shape(rc([[1, 2], [3]])).rank
tf.shape(rc([[[1, 2], [3]], [[4]]]))
tf.shape(rc([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1))
tf.shape(rc([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1))[2]
tf.shape(rc([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)).inner_shape
tf.shape(R.from_uniform_row_length([1, 2, 3, 4], 2))
tf.shape(rc([[1, 2], [3]]), out_type=tf.int64)[0]
tf.shape(rc([[1, 2], [3]])).dtype
""".strip().splitlines()

EVALUATE = """
import json, re
def describe(text):
    try:
        return ["value", repr(eval(text))]
    except Exception as e:
        message = re.sub(r"^\\{\\{function_node [^}]*\\}\\} ", "", str(e))
        return ["error", type(e).__name__, message]
print(json.dumps([describe(t) for t in EXPRESSIONS]))
"""


def _ours(expressions):
    scope = {"tf": minitf, "np": np}
    exec(PRELUDE, scope)
    scope["EXPRESSIONS"] = expressions
    out = {}
    exec(EVALUATE.replace("print(json.dumps(", "RESULT = (("), scope)
    out = scope["RESULT"]
    return out[0] if isinstance(out, tuple) else out


def _first_line(message):
    line = message.split("\n")[0]
    return re.sub(r" name: .*$", "", line).strip()


@pytest.fixture(scope="module")
def theirs():
    code = ("import tensorflow as tf, numpy as np\n" + PRELUDE +
            f"EXPRESSIONS = {EXPRESSIONS!r}\n" + EVALUATE)
    return run_tf_json(code)


@pytest.mark.parametrize("index", range(len(EXPRESSIONS)), ids=EXPRESSIONS)
def test_same_as_real_tf(theirs, index):
    ours = _ours([EXPRESSIONS[index]])[0]
    want = theirs[index]
    assert ours[0] == want[0], (ours, want)
    if want[0] == "value":
        assert ours[1] == want[1]
    else:
        assert ours[1] == want[1], (ours, want)
        assert _first_line(want[2]) in ours[2], (ours, want)


def test_expressions_cover_values_and_errors(theirs):
    kinds = json.dumps(theirs)
    assert kinds.count('"value"') >= 150 and kinds.count('"error"') > 25
