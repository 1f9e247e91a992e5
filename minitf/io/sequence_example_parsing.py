"""`tf.io.parse_single_sequence_example`: a `tf.train.SequenceExample` into two dicts.

A SequenceExample has `context` (a `Features`, parsed like an Example's
features: `FixedLenFeature` / `VarLenFeature`) and `feature_lists` (for
each name, one `Feature` per time step), parsed with

* `tf.io.FixedLenSequenceFeature(shape, dtype)` - every step holds
  `prod(shape)` values; gives `[steps] + shape`;
* `tf.io.VarLenFeature(dtype)` - steps of any length; gives a SparseTensor
  with indices `[step, j]` and dense shape `[steps, longest step]`.

>>> import minitf as tf
>>> def floats(v):
...     return tf.train.Feature(float_list=tf.train.FloatList(value=v))
>>> seq = tf.train.SequenceExample(
...     context=tf.train.Features(feature={
...         "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))}),
...     feature_lists=tf.train.FeatureLists(feature_list={
...         "xy": tf.train.FeatureList(feature=[floats([1, 2]), floats([3, 4])])}))
>>> context, lists = tf.io.parse_single_sequence_example(
...     seq.SerializeToString(),
...     context_features={"id": tf.io.FixedLenFeature([], tf.int64)},
...     sequence_features={"xy": tf.io.FixedLenSequenceFeature([2], tf.float32)})
>>> context["id"].numpy(), lists["xy"].numpy().tolist()
(np.int64(7), [[1.0, 2.0], [3.0, 4.0]])

One op, `ParseSequenceExampleV2` (TF's name), does the work, so it runs in
`tf.function` and `Dataset.map` too. Its outputs: the context's sparse
triples and dense tensors, then the feature lists' sparse triples and dense
tensors (see example_parsing.py for the order).
"""
import math

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..ops.shape_rules import dims_text
from .example_parsing import (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, decode,
                              empty, fail, feature_values, op_attrs, pack, parse_features,
                              sparse_outputs)

OP = "ParseSequenceExampleV2"
_NO_ATTRS = {"sparse_keys": (), "sparse_types": (), "dense_keys": (), "dense_shapes": (),
             "dense_types": ()}


def _context_missing(key, dtype, single):  # TF 2.21's words for a missing context feature
    return fail(f"Inconsistent max number of elements for feature {key}: expected 1, but "
                "found 0", "missing", OP)


def _steps(lists, key, dtype):
    steps = lists[key].feature if key in lists else []
    return [feature_values(f, dtype, f"Name: <unknown>, Feature list: {key}, Index: {i}.",
                           "sequence", OP) for i, f in enumerate(steps)]


def _dense_list(lists, key, dtype, shape, allow_missing):
    """[steps] + shape values of one FixedLenSequenceFeature."""
    if key not in lists and not allow_missing:
        raise fail(f"Name: <unknown>, Feature list '{key}' is required but could not be found."
                   "  Did you mean to include it in feature_list_dense_missing_assumed_empty "
                   "or feature_list_dense_defaults?", "list", OP)
    rows = _steps(lists, key, dtype)
    size = math.prod(shape)
    total = sum(len(r) for r in rows)
    if size and total % size:
        raise fail(f"Feature list '{key}' has an unexpected number of values.  Total values "
                   f"size: {total} is not consistent with output shape: "
                   f"[?{''.join(f',{d}' for d in shape)}]", "steps", OP)
    for i, row in enumerate(rows):
        if len(row) != size:
            raise fail(f"Name: <unknown>, Key: {key}, Index: {i}.  Number of values != "
                       f"expected.  values size: {len(row)} but output shape: "
                       f"{dims_text(shape)}", "steps", OP)
    if not rows:
        return empty(dtype).reshape((0,) + tuple(shape))
    return np.stack([r.reshape(shape) for r in rows])


def _parse_sequence(serialized, *context_defaults, context, sequence, allow_missing):
    if serialized.ndim != 0:
        raise errors.InvalidArgumentError(
            None, OP, f"Expected serialized to be a scalar, got shape: "
            f"{dims_text(serialized.shape)} [Op:{OP}] Parse one SequenceExample at a time.")
    message = decode(serialized[()], "SequenceExample", OP)
    outputs = parse_features([message.context.feature], True, *context, context_defaults,
                             missing=_context_missing)
    sparse_keys, sparse_types, dense_keys, dense_shapes, dense_types = sequence
    lists = message.feature_lists.feature_list
    triples = [sparse_outputs(_steps(lists, key, dtypes.as_dtype(name)),
                              dtypes.as_dtype(name), (None,))
               for key, name in zip(sparse_keys, sparse_types)]
    outputs += [t[0] for t in triples] + [t[1] for t in triples] + [t[2] for t in triples]
    outputs += [_dense_list(lists, key, dtypes.as_dtype(name), shape, missing_ok)
                for key, name, shape, missing_ok in zip(dense_keys, dense_types, dense_shapes,
                                                         allow_missing)]
    return tuple(outputs)


def _sparse_rules(attrs, rank):
    n = len(attrs[0])
    return ([TensorShape([None, rank])] * n + [TensorShape([None])] * n
            + [TensorShape([rank])] * n), [dtypes.int64] * n + [
                dtypes.as_dtype(t) for t in attrs[1]] + [dtypes.int64] * n


def _shapes(serialized, *defaults, context, sequence, **_):
    context_sparse, _ = _sparse_rules(context, 1)
    sequence_sparse, _ = _sparse_rules(sequence, 2)
    return tuple(context_sparse + [TensorShape(s) for s in context[3]] + sequence_sparse
                 + [TensorShape([None] + list(s)) for s in sequence[3]])


def _dtypes(serialized, *defaults, context, sequence, **_):
    _, context_sparse = _sparse_rules(context, 1)
    _, sequence_sparse = _sparse_rules(sequence, 2)
    return tuple(context_sparse + list(defaults) + sequence_sparse
                 + [dtypes.as_dtype(t) for t in sequence[4]])


ParseSequenceExampleV2 = Op(OP, _parse_sequence, typed=(), num_outputs=None, shape=_shapes,
                            dtype=_dtypes)


def _check_kinds(features, allowed):
    for key, spec in (features or {}).items():
        if not isinstance(spec, allowed):
            raise ValueError(f"Unsupported {type(spec).__name__} {spec} for key '{key}'")


def _attrs(features):
    if not features:
        return [], [], _NO_ATTRS, []
    return op_attrs(features)


def _as_tuple(attrs):
    return tuple(attrs[k] for k in ("sparse_keys", "sparse_types", "dense_keys",
                                    "dense_shapes", "dense_types"))


@tf_export("io.parse_single_sequence_example")
def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """Parse one serialized SequenceExample: `(context dict, feature_lists dict)`."""
    if not context_features and not sequence_features:
        raise ValueError("Both context_features and sequence_features are None, but at least "
                         "one should have values.")
    _check_kinds(context_features, (FixedLenFeature, VarLenFeature))
    _check_kinds(sequence_features, (FixedLenSequenceFeature, VarLenFeature))
    serialized = convert_to_tensor(serialized, dtype=dtypes.string)
    if serialized.shape.rank not in (None, 0):
        raise ValueError("Input serialized must be a scalar")
    c_sparse, c_dense, c_attrs, defaults = _attrs(context_features)
    s_sparse, s_dense, s_attrs, _ = _attrs(sequence_features)
    s_attrs = dict(s_attrs, dense_shapes=tuple(shape[1:] for shape in s_attrs["dense_shapes"]))
    allow = tuple(bool(sequence_features[k].allow_missing) for k in s_dense)
    outputs = apply(ParseSequenceExampleV2, [serialized] + defaults,
                    {"context": _as_tuple(c_attrs), "sequence": _as_tuple(s_attrs),
                     "allow_missing": allow})
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    split = 3 * len(c_sparse) + len(c_dense)
    return pack(outputs[:split], c_sparse, c_dense), pack(outputs[split:], s_sparse, s_dense)
