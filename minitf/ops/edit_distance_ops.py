"""tf.edit_distance: the Levenshtein distance between sequences held in SparseTensors
(how speech and OCR models are scored: the label error rate).

>>> import minitf as tf
>>> hypothesis = tf.SparseTensor([[0, 0], [0, 1], [0, 2]], [1, 2, 3], [1, 3])
>>> truth = tf.SparseTensor([[0, 0], [0, 1]], [1, 3], [1, 2])
>>> tf.edit_distance(hypothesis, truth)     # one deletion, over a truth of length 2
<tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>

The last axis of both tensors holds the sequences; every other index names one pair, so
the result has the shape of the larger dense shape without its last axis. A pair missing
from one side compares with an empty sequence; normalized by an empty truth the distance
is inf (0 when both are empty), as in TF. There is no gradient (TF's EditDistance is not
differentiable).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


def levenshtein(a, b):
    """Insertions, deletions and substitutions turning sequence `a` into `b` (one row of the
    dynamic-programming table at a time)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[len(b)]


def _sequences(indices, values):
    groups = {}
    for index, value in zip(indices.tolist(), values.tolist()):
        groups.setdefault(tuple(index[:-1]), []).append(value)
    return groups


def _edit_distance_forward(h_indices, h_values, h_shape, t_indices, t_values, t_shape,
                           normalize):
    for name, shape in (("truth", t_shape), ("hypothesis", h_shape)):
        if shape.size < 2:
            raise errors.op_error(
                errors.InvalidArgumentError, "EditDistance", "Input SparseTensors must have "
                f"rank at least 2, but {name}_shape rank is: {shape.size}",
                "The last axis holds the sequences; at least one more axis lists them.")
    if h_shape.size != t_shape.size:
        raise errors.op_error(errors.InvalidArgumentError, "EditDistance",
                              "truth and hypothesis must have the same rank",
                              "Both hold sequences along their last axis.")
    out_shape = np.maximum(h_shape[:-1], t_shape[:-1])
    out = np.zeros(out_shape, np.float32)
    hyps, truths = _sequences(h_indices, h_values), _sequences(t_indices, t_values)
    for key in set(hyps) | set(truths):
        h, t = hyps.get(key, []), truths.get(key, [])
        distance = float(levenshtein(h, t))
        if normalize:
            distance = distance / len(t) if t else (np.inf if h else 0.0)
        out[key] = distance
    return out


EditDistance = Op("EditDistance", _edit_distance_forward, typed=(1, 4), dtype=dtypes.float32,
                  shape=lambda *shapes, normalize: TensorShape(None))


@tf_export("edit_distance")
def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """Levenshtein distance between each hypothesis and truth sequence (the last axis of
    two SparseTensors), divided by the truth's length when `normalize`.

    >>> a = tf.SparseTensor([[0, 0], [0, 1]], ["a", "b"], [1, 2])
    >>> b = tf.SparseTensor([[0, 0]], ["b"], [1, 1])
    >>> tf.edit_distance(a, b, normalize=False)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """
    from .sparse_tensor import SparseTensor  # noqa: PLC0415 - sparse imports many ops

    if not isinstance(hypothesis, SparseTensor):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor):
        raise TypeError("Truth must be a SparseTensor.")
    inputs = [hypothesis.indices, hypothesis.values, hypothesis.dense_shape,
              truth.indices, truth.values, truth.dense_shape]
    return apply(EditDistance, inputs, {"normalize": bool(normalize)})
