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


def _batch_sparse(per_example, dtype):
    """One SparseTensor's arrays for a batch: [b, step, j] indices, [B, steps, longest]."""
    indices = [np.concatenate([np.full((len(i), 1), b, np.int64), i], axis=1)
               for b, (i, _, _) in enumerate(per_example)]
    shapes = [shape for _, _, shape in per_example]
    return (np.concatenate(indices).reshape(-1, 3) if indices else np.zeros((0, 3), np.int64),
            np.concatenate([v for _, v, _ in per_example]).astype(empty(dtype).dtype)
            if per_example else empty(dtype),
            np.array([len(per_example)] + [max((s[d] for s in shapes), default=0)
                                           for d in (0, 1)], np.int64))


def _padded(rows, dtype, shape):
    """Stack [steps_b] + shape arrays into [B, longest] + shape, padding with 0 / b""."""
    out = np.zeros((len(rows), max((len(r) for r in rows), default=0)) + tuple(shape),
                   dtype=empty(dtype).dtype)
    if dtype == dtypes.string:
        out[...] = b""
    for b, row in enumerate(rows):
        out[b, :len(row)] = row
    return out


def _parse_sequence(serialized, *context_defaults, context, sequence, allow_missing):
    if serialized.ndim > 1:
        raise errors.InvalidArgumentError(
            None, OP, "Expected serialized to be a scalar or vector, got shape: "
            f"{dims_text(serialized.shape)} [Op:{OP}] Parse one record or a batch.")
    single = serialized.ndim == 0
    messages = [decode(x, "SequenceExample", OP) for x in serialized.reshape(-1)]
    outputs = parse_features([m.context.feature for m in messages], single, *context,
                             context_defaults, missing=_context_missing)
    sparse_keys, sparse_types, dense_keys, dense_shapes, dense_types = sequence
    lists = [m.feature_lists.feature_list for m in messages]
    triples = []
    for key, name in zip(sparse_keys, sparse_types):
        dtype = dtypes.as_dtype(name)
        each = [sparse_outputs(_steps(fl, key, dtype), dtype, (None,)) for fl in lists]
        triples.append(each[0] if single else _batch_sparse(each, dtype))
    outputs += [t[0] for t in triples] + [t[1] for t in triples] + [t[2] for t in triples]
    dense = [[_dense_list(fl, key, dtypes.as_dtype(name), shape, missing_ok) for fl in lists]
             for key, name, shape, missing_ok in zip(dense_keys, dense_types, dense_shapes,
                                                      allow_missing)]
    outputs += [rows[0] if single else _padded(rows, dtypes.as_dtype(name), shape)
                for rows, name, shape in zip(dense, dense_types, dense_shapes)]
    outputs += [np.array([len(r) for r in rows], np.int64).reshape(() if single else -1)
                for rows in dense]  # the number of steps of each example
    return tuple(outputs)


def _sparse_rules(attrs, rank):
    n = len(attrs[0])
    return ([TensorShape([None, rank])] * n + [TensorShape([None])] * n
            + [TensorShape([rank])] * n), [dtypes.int64] * n + [
                dtypes.as_dtype(t) for t in attrs[1]] + [dtypes.int64] * n


def _shapes(serialized, *defaults, context, sequence, **_):
    lead = [] if serialized.rank == 0 else [serialized[0] if serialized.rank else None]
    context_sparse, _ = _sparse_rules(context, 1 + len(lead))
    sequence_sparse, _ = _sparse_rules(sequence, 2 + len(lead))
    return tuple(context_sparse + [TensorShape(lead + list(s)) for s in context[3]]
                 + sequence_sparse + [TensorShape(lead + [None] + list(s)) for s in sequence[3]]
                 + [TensorShape(lead)] * len(sequence[3]))


def _dtypes(serialized, *defaults, context, sequence, **_):
    _, context_sparse = _sparse_rules(context, 1)
    _, sequence_sparse = _sparse_rules(sequence, 2)
    return tuple(context_sparse + list(defaults) + sequence_sparse
                 + [dtypes.as_dtype(t) for t in sequence[4]] + [dtypes.int64] * len(sequence[4]))


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


def _run(serialized, context_features, sequence_features):
    """Check the specs, run the op; (context dict, feature_lists dict, lengths dict)."""
    if not context_features and not sequence_features:
        raise ValueError("Both context_features and sequence_features are None, but at least "
                         "one should have values.")
    _check_kinds(context_features, (FixedLenFeature, VarLenFeature))
    _check_kinds(sequence_features, (FixedLenSequenceFeature, VarLenFeature))
    for key, spec in sorted((sequence_features or {}).items()):
        if isinstance(spec, FixedLenSequenceFeature) and spec.default_value is not None:
            raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None")
    c_sparse, c_dense, c_attrs, defaults = _attrs(context_features)
    s_sparse, s_dense, s_attrs, _ = _attrs(sequence_features)
    s_attrs = dict(s_attrs, dense_shapes=tuple(shape[1:] for shape in s_attrs["dense_shapes"]))
    allow = tuple(bool(sequence_features[k].allow_missing) for k in s_dense)
    outputs = apply(ParseSequenceExampleV2, [serialized] + defaults,
                    {"context": _as_tuple(c_attrs), "sequence": _as_tuple(s_attrs),
                     "allow_missing": allow})
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    split = 3 * len(c_sparse) + len(c_dense)
    end = len(outputs) - len(s_dense)
    return (pack(outputs[:split], c_sparse, c_dense), pack(outputs[split:end], s_sparse, s_dense),
            dict(zip(s_dense, outputs[end:])))


@tf_export("io.parse_single_sequence_example")
def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """Parse one serialized SequenceExample: `(context dict, feature_lists dict)`."""
    serialized = convert_to_tensor(serialized, dtype=dtypes.string)
    if serialized.shape.rank not in (None, 0):
        raise ValueError("Input serialized must be a scalar")
    context, lists, _ = _run(serialized, context_features, sequence_features)
    return context, lists


@tf_export("io.parse_sequence_example")
def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
    """Parse a batch of SequenceExamples: `(context, feature_lists, feature_list_lengths)`.

    Feature lists are padded to the longest example (with 0 or b""); the third
    dict gives each FixedLenSequenceFeature's true number of steps per example.

    >>> def step(v):
    ...     return tf.train.Feature(int64_list=tf.train.Int64List(value=[v]))
    >>> records = [tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={
    ...     "t": tf.train.FeatureList(feature=[step(v) for v in steps])})).SerializeToString()
    ...     for steps in ([1, 2, 3], [4])]
    >>> _, lists, lengths = tf.io.parse_sequence_example(
    ...     records, sequence_features={"t": tf.io.FixedLenSequenceFeature([], tf.int64)})
    >>> lists["t"].numpy().tolist(), lengths["t"].numpy().tolist()
    ([[1, 2, 3], [4, 0, 0]], [3, 1])
    """
    serialized = convert_to_tensor(serialized, dtype=dtypes.string)
    return _run(serialized, context_features, sequence_features)
