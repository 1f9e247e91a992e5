"""Parsing serialized `tf.train.Example`s: `tf.io.parse_single_example`, `tf.io.parse_example`.

You describe each feature you want with a spec:

* `tf.io.FixedLenFeature(shape, dtype, default_value=None)` - exactly
  `prod(shape)` values in every example (or the default where it is missing);
  gives a dense tensor of `shape` (batch: `[batch] + shape`);
* `tf.io.VarLenFeature(dtype)` - any number of values; gives a `tf.SparseTensor`;
* `tf.io.FixedLenSequenceFeature(shape, dtype, allow_missing, default_value)` -
  any number of `shape`-sized steps; gives `[steps] + shape` (batch: padded
  to the longest example with `default_value`).

dtype is one of the three list kinds: `tf.int64` (Int64List), `tf.float32`
(FloatList), `tf.string` (BytesList).

>>> import minitf as tf
>>> example = tf.train.Example(features=tf.train.Features(feature={
...     "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[3])),
...     "tags": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"a", b"b"]))}))
>>> parsed = tf.io.parse_single_example(example.SerializeToString(), {
...     "label": tf.io.FixedLenFeature([], tf.int64),
...     "tags": tf.io.VarLenFeature(tf.string)})
>>> parsed["label"]
<tf.Tensor: shape=(), dtype=int64, numpy=3>
>>> tf.sparse.to_dense(parsed["tags"]).numpy()
array([b'a', b'b'], dtype=object)

The parser is one op, `ParseExampleV2` as in TensorFlow, so it runs eagerly,
inside `tf.function` and inside `Dataset.map` (the usual place: one TFRecord
record in, a dict of tensors out). Its outputs are, in order, the sparse
features' indices, values and dense shapes, then the dense features; the
Python wrapper packs them into the dict (sparse keys first, then dense keys,
each sorted - TensorFlow's order). Protobuf decoding is Google's `protobuf`
library's, through the classes in minitf/train/example.py.
"""
import collections
import math

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..ops.array_ops import reshape
from ..ops.sparse_tensor import SparseTensor
from ..ops.shape_rules import dims_text
from ..train.example import message_classes

_ALLOWED = (dtypes.float32, dtypes.int64, dtypes.string)
_KINDS = {"bytes_list": dtypes.string, "float_list": dtypes.float32,
          "int64_list": dtypes.int64}
_HINTS = {
    "missing": "Give the FixedLenFeature a default_value, or use tf.io.VarLenFeature for a "
               "feature some examples lack.",
    "type": "Declare the feature with the dtype it was written with: int64_list -> tf.int64, "
            "float_list -> tf.float32, bytes_list -> tf.string.",
    "count": "A FixedLenFeature needs exactly prod(shape) values in every example; use "
             "tf.io.VarLenFeature (or FixedLenSequenceFeature) for lists whose length varies.",
    "parse": "The record is not a serialized tf.train.Example (was it written with "
             "example.SerializeToString()? a SequenceExample needs "
             "tf.io.parse_single_sequence_example).",
    "list": "Give the FixedLenSequenceFeature allow_missing=True to read a missing list as "
            "zero steps.",
    "steps": "Every step of a FixedLenSequenceFeature holds prod(shape) values; use "
             "tf.io.VarLenFeature for steps whose length varies.",
}


@tf_export("io.FixedLenFeature")
class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature with `prod(shape)` values in every example (or `default_value`).

    >>> tf.io.FixedLenFeature([2], tf.int64)
    FixedLenFeature(shape=[2], dtype=tf.int64, default_value=None)
    """

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


@tf_export("io.FixedLenSequenceFeature")
class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """Any number of `shape`-sized steps; batches are padded with `default_value`.

    >>> tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True)
    FixedLenSequenceFeature(shape=[2], dtype=tf.float32, allow_missing=True, default_value=None)
    """

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


@tf_export("io.VarLenFeature")
class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """Any number of values per example, parsed into a `tf.SparseTensor`.

    >>> tf.io.VarLenFeature(tf.string)
    VarLenFeature(dtype=tf.string)
    """


# --- reading one feature out of a decoded message ------------------------------------------
def decode(serialized, message="Example", op="ParseExampleV2"):
    """A serialized Example (or SequenceExample) as a protobuf message."""
    cls = message_classes()[message]
    try:
        return cls.FromString(serialized)
    except Exception:  # protobuf's DecodeError: the bytes are not this message
        text = serialized[:64].decode("ascii", "backslashreplace")
        what = (f"Could not parse example input, value: '{text}'" if message == "Example"
                else "Invalid protocol message input, example id: <unknown>")
        hint = _HINTS["parse"] if message == "Example" else (
            "The record is not a serialized tf.train.SequenceExample.")
        raise errors.InvalidArgumentError(None, op, f"{what} [Op:{op}] {hint}") from None


def fail(text, hint, op="ParseExampleV2"):
    return errors.InvalidArgumentError(None, op, f"{text} [Op:{op}] {_HINTS[hint]}")


def feature_values(feature, dtype, where, style="dense", op="ParseExampleV2"):
    """The values of one `Feature` as a 1-D array of `dtype` (TF's checks and words).

    `style` picks TF's wording of a type mismatch: "dense", "varlen" or "sequence"."""
    kind = feature.WhichOneof("kind")
    if kind is None:  # a Feature with no list set: no values of any type
        return empty(dtype)
    got = _KINDS[kind]
    if got != dtype:
        want, have = dtypes.tf_type_name(dtype), dtypes.tf_type_name(got)
        text = {"varlen": f"Expected type: {want}, Actual type: {have}",
                "sequence": f"Expected type: {want}",
                "dense": f"Data type: {have} but expected type: {want}"}[style]
        raise fail(f"{where}  Data types don't match. {text}", "type", op)
    values = list(getattr(feature, kind).value)
    if dtype == dtypes.string:
        out = np.empty((len(values),), dtype=object)
        out[:] = values
        return out
    return np.array(values, dtype=dtype.as_numpy_dtype)


def empty(dtype):
    """No values of `dtype` (object array for strings)."""
    return np.zeros((0,), dtype=object if dtype == dtypes.string else dtype.as_numpy_dtype)


def _where(key, index, single):
    return f"Key: {key}." if single else f"Name: <unknown>, Key: {key}, Index: {index}."


def _missing(key, dtype, single):
    name = "" if single else "Name: <unknown>, "
    return fail(f"{name}Feature: {key} (data type: {dtypes.tf_type_name(dtype)}) is required "
                 "but could not be found.", "missing")


# --- the op ------------------------------------------------------------------------------------
def sparse_outputs(rows, dtype, leading):
    """indices, values, dense_shape of a VarLenFeature from each row's 1-D values.

    `leading` is () for one example ([j] indices) or (batch,) for a batch ([i, j])."""
    counts = [len(r) for r in rows]
    if leading:
        indices = [(i, j) for i, n in enumerate(counts) for j in range(n)]
        shape = [len(rows), max(counts, default=0)]
    else:
        indices = [(j,) for j in range(counts[0])]
        shape = [counts[0]]
    values = np.concatenate(rows).astype(empty(dtype).dtype) if rows else empty(dtype)
    return (np.array(indices, dtype=np.int64).reshape(-1, len(shape)), values,
            np.array(shape, np.int64))


def _dense_row(feature, key, dtype, shape, default, where):
    size = math.prod(shape)
    if feature is None:
        return default.reshape(shape)
    values = feature_values(feature, dtype, where)
    if values.size != size:
        kind = {dtypes.int64: "int64_list", dtypes.float32: "float_list"}.get(dtype, "bytes_list")
        text = (f"{where}  Can't parse serialized Example: Some {kind} slice was not parsed."
                if where.startswith("Key") else f"{where}  Number of "
                f"{dtypes.tf_type_name(dtype)} values != expected.  Values size: {values.size} "
                f"but output shape: {dims_text(shape)}")
        raise fail(text, "count")
    return values.reshape(shape)


def _sequence_rows(rows, shape, dtype, default):
    """Stack [steps] + shape rows, padding short ones with `default` (0 / b"")."""
    size = math.prod(shape)
    steps = [len(r) // size for r in rows]
    out = np.empty((len(rows), max(steps, default=0)) + tuple(shape),
                   dtype=object if dtype == dtypes.string else dtype.as_numpy_dtype)
    out[...] = default.reshape(-1)[0] if default.size else (b"" if dtype == dtypes.string else 0)
    for i, (row, n) in enumerate(zip(rows, steps)):
        out[i, :n] = row.reshape((n,) + tuple(shape))
    return out


def _dense_output(maps, key, dtype, shape, default, single, missing):
    if shape and shape[0] == -1:  # FixedLenSequenceFeature: any number of steps
        rows = []
        for i, features in enumerate(maps):
            feature = features.get(key)
            if feature is None and default.size == 0:
                raise missing(key, dtype, single)
            row = (empty(dtype) if feature is None
                   else feature_values(feature, dtype, _where(key, i, single)))
            rows.append(row)
        out = _sequence_rows(rows, shape[1:], dtype, default)
        return out[0] if single else out
    rows = []
    for i, features in enumerate(maps):
        feature = features.get(key)
        if feature is None and default.size == 0:
            raise missing(key, dtype, single)
        rows.append(_dense_row(feature, key, dtype, shape, default, _where(key, i, single)))
    if single:
        return rows[0]
    if not rows:
        return np.empty((0,) + tuple(shape), dtype=default.dtype)
    return np.stack(rows)  # (np.stack keeps 0-d bytes entries as bytes, not as arrays)


def parse_features(maps, single, sparse_keys, sparse_types, dense_keys, dense_shapes,
                   dense_types, dense_defaults, missing=_missing):
    """The op outputs for a list of feature maps (`Features.feature`, one per example):
    indices, values and dense shapes of the sparse keys, then the dense keys' tensors."""
    sparse = []
    for key, name in zip(sparse_keys, sparse_types):
        dtype = dtypes.as_dtype(name)
        rows = [feature_values(features[key], dtype, _where(key, i, single), "varlen")
                if key in features else empty(dtype) for i, features in enumerate(maps)]
        sparse.append(sparse_outputs(rows, dtype, () if single else (len(rows),)))
    dense = [_dense_output(maps, key, dtypes.as_dtype(name), shape, default, single, missing)
             for key, name, shape, default in zip(dense_keys, dense_types, dense_shapes,
                                                   dense_defaults)]
    return [s[0] for s in sparse] + [s[1] for s in sparse] + [s[2] for s in sparse] + dense


def _parse_example(serialized, *dense_defaults, sparse_keys, sparse_types, dense_keys,
                   dense_shapes, dense_types):
    if serialized.ndim > 1:
        raise errors.InvalidArgumentError(
            None, "ParseExampleV2", "Expected serialized to be a scalar or vector, got shape: "
            f"{dims_text(serialized.shape)} [Op:ParseExampleV2] Parse one record or a batch.")
    maps = [decode(s).features.feature for s in serialized.reshape(-1)]
    return tuple(parse_features(maps, serialized.ndim == 0, sparse_keys, sparse_types,
                                dense_keys, dense_shapes, dense_types, dense_defaults))


def _parse_shapes(serialized, *defaults, sparse_keys, dense_shapes, **_):
    lead = [] if serialized.rank == 0 else [serialized[0] if serialized.rank else None]
    rank = 1 + len(lead)
    n = len(sparse_keys)
    return tuple([TensorShape([None, rank])] * n + [TensorShape([None])] * n
                 + [TensorShape([rank])] * n
                 + [TensorShape(lead + [None if d == -1 else d for d in shape])
                    for shape in dense_shapes])


def _parse_dtypes(serialized, *defaults, sparse_keys, sparse_types, **_):
    n = len(sparse_keys)
    return tuple([dtypes.int64] * n + [dtypes.as_dtype(t) for t in sparse_types]
                 + [dtypes.int64] * n + list(defaults))


ParseExampleV2 = Op("ParseExampleV2", _parse_example, typed=(), num_outputs=None,
                    shape=_parse_shapes, dtype=_parse_dtypes)


# --- the public functions ----------------------------------------------------------------------
def check_features(features):
    """The specs, validated as TensorFlow does (ValueError / InvalidArgumentError)."""
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    for key, spec in features.items():
        if not isinstance(spec, (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature)):
            raise ValueError(f"Unsupported {type(spec).__name__} {spec} for key '{key}'")
        dtype = dtypes.as_dtype(spec.dtype)
        if dtype not in _ALLOWED:
            attr = "sparse_types" if isinstance(spec, VarLenFeature) else "Tdense"
            raise errors.InvalidArgumentError(
                None, "ParseExampleV2", f"Value for attr '{attr}' of {dtype.name} is not in "
                "the list of allowed values: float, int64, string. Example features hold "
                "only int64, float32 and bytes lists: parse as tf.int64 and tf.cast after.")
        if isinstance(spec, FixedLenFeature) and any(d is None for d in list(spec.shape)):
            raise ValueError(f"First dimension of shape for feature {key} unknown. Consider "
                             f"using FixedLenSequenceFeature. Received feature={spec}.")


def dense_default(spec):
    """The default as a tensor of the feature's shape; empty means "required"."""
    dtype = dtypes.as_dtype(spec.dtype)
    shape = [int(d) for d in spec.shape]
    if spec.default_value is None:
        empty = np.zeros((0,), dtype=object if dtype == dtypes.string else dtype.as_numpy_dtype)
        if isinstance(spec, FixedLenSequenceFeature) and spec.allow_missing:
            return convert_to_tensor(np.zeros(shape, empty.dtype) if dtype != dtypes.string
                                     else np.full(shape, b"", dtype=object), dtype=dtype)
        return convert_to_tensor(empty, dtype=dtype)
    value = convert_to_tensor(spec.default_value, dtype=dtype)
    if isinstance(spec, FixedLenSequenceFeature):
        return reshape(value, [-1])[:1]
    return reshape(value, shape)


def _split(features):
    sparse = sorted(k for k, v in features.items() if isinstance(v, VarLenFeature))
    dense = sorted(k for k in features if k not in sparse)
    return sparse, dense


def op_attrs(features):
    """The sparse keys, dense keys, op attributes and dense defaults for `features`."""
    check_features(features)
    sparse, dense = _split(features)
    shapes = tuple(((-1,) if isinstance(features[k], FixedLenSequenceFeature) else ())
                   + tuple(int(d) for d in features[k].shape) for k in dense)
    attrs = {"sparse_keys": tuple(sparse), "dense_keys": tuple(dense), "dense_shapes": shapes,
             "sparse_types": tuple(dtypes.as_dtype(features[k].dtype).name for k in sparse),
             "dense_types": tuple(dtypes.as_dtype(features[k].dtype).name for k in dense)}
    return sparse, dense, attrs, [dense_default(features[k]) for k in dense]


def pack(outputs, sparse, dense):
    """The result dict from the op's outputs: SparseTensors first, then dense tensors."""
    n = len(sparse)
    result = {k: SparseTensor(outputs[i], outputs[n + i], outputs[2 * n + i])
              for i, k in enumerate(sparse)}
    result.update(zip(dense, outputs[3 * n:3 * n + len(dense)]))
    return result


def parse(serialized, features):
    """Run ParseExampleV2 and pack its outputs into the result dict.

    SparseFeature and RaggedFeature specs (feature_specs.py) are read as VarLenFeatures
    and shaped afterwards."""
    from .feature_specs import expand

    features, finish = expand(features, VarLenFeature)
    sparse, dense, attrs, defaults = op_attrs(features)
    outputs = apply(ParseExampleV2, [serialized] + defaults, attrs)
    return finish(pack(list(outputs) if isinstance(outputs, (list, tuple)) else [outputs],
                       sparse, dense), serialized.shape.rank != 0)


@tf_export("io.parse_single_example")
def parse_single_example(serialized, features, name=None, example_names=None):
    """Parse one serialized Example (a scalar string) into a dict of tensors.

    >>> ex = tf.train.Example(features=tf.train.Features(feature={
    ...     "xy": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0]))}))
    >>> tf.io.parse_single_example(ex.SerializeToString(),
    ...                            {"xy": tf.io.FixedLenFeature([2], tf.float32),
    ...                             "z": tf.io.FixedLenFeature([], tf.float32, default_value=0.5)})
    {'xy': <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>,
     'z': <tf.Tensor: shape=(), dtype=float32, numpy=0.5>}
    """
    serialized = convert_to_tensor(serialized, dtype=dtypes.string)
    if serialized.shape.rank not in (None, 0):
        raise ValueError("Input serialized must be a scalar")
    return parse(serialized, features)


@tf_export("io.parse_example")
def parse_example(serialized, features, example_names=None, name=None):
    """Parse a batch (a 1-D string tensor) of serialized Examples; outputs gain a batch axis.

    >>> ex = tf.train.Example(features=tf.train.Features(feature={
    ...     "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))}))
    >>> tf.io.parse_example([ex.SerializeToString()] * 2,
    ...                     {"id": tf.io.FixedLenFeature([], tf.int64)})
    {'id': <tf.Tensor: shape=(2,), dtype=int64, numpy=array([7, 7])>}
    """
    serialized = convert_to_tensor(serialized, dtype=dtypes.string)
    return parse(serialized, features)
