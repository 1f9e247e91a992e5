"""`tf.strings.substr`, `reduce_join`, `unsorted_segment_join`, `format`, `to_hash_bucket`.

>>> import minitf as tf
>>> tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator="-").numpy()
array([b'a-b', b'c-d'], dtype=object)
>>> tf.strings.substr("hello", pos=1, len=3).numpy()
b'ell'
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.compat import as_bytes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .logging_ops import format_tensor
from .string_ops import check_unit

_STRING = {dtypes.string}
_MASK = (1 << 64) - 1


def _strings(x):
    return convert_to_tensor(x, dtype=dtypes.string)


def _invalid(op, message, error=errors.InvalidArgumentError):
    return error(None, op, f"{message} [Op:{op}]")


# --- substr -------------------------------------------------------------------------------
def _char_starts(s):
    return [i for i, b in enumerate(s) if b & 0xC0 != 0x80]


def _substr_one(s, pos, length, unit, index):
    starts = _char_starts(s) if unit == "UTF8_CHAR" else range(len(s))
    n = len(starts)
    p = pos + n if pos < 0 else pos
    if not 0 <= p <= n:
        shown = f"string b'{s.decode('utf-8', 'backslashreplace')}'" if unit == "BYTE" \
            else "string"
        raise _invalid("Substr", f"pos {pos} out of range for {shown} at index {index}. "
                       "A position counts from 0 (or from the end when negative) and must "
                       "lie within the string.")
    end = n if length < 0 else min(p + length, n)
    if unit == "BYTE":
        return s[p:end]
    return s[starts[p] if p < n else len(s):starts[end] if end < n else len(s)]


def _substr(x, pos, length, unit):
    try:
        shape = np.broadcast_shapes(x.shape, pos.shape)
    except ValueError:
        raise _invalid("Substr", f"Incompatible shapes: {list(x.shape)} vs. "
                       f"{list(pos.shape)}") from None
    xs, ps, ls = (np.broadcast_to(a, shape) for a in (x, pos, length))
    out = np.empty(shape, dtype=object)
    for i, (s, p, n) in enumerate(zip(xs.flat, ps.flat, ls.flat)):
        out.flat[i] = _substr_one(s, int(p), int(n), unit, i)
    return out


Substr = Op("Substr", _substr, typed=(1, 2), dtypes={dtypes.int32, dtypes.int64},
            shape=lambda s, p, n, **_: TensorShape(np.broadcast_shapes(
                tuple(d if d is not None else 1 for d in s.as_list()),
                tuple(d if d is not None else 1 for d in p.as_list())))
            if s.rank is not None and p.rank is not None else TensorShape(None),
            dtype=dtypes.string)


@tf_export("strings.substr")
def substr(input, pos, len, unit="BYTE", name=None):
    """`len` bytes (or UTF-8 characters with `unit="UTF8_CHAR"`) from `pos` on.

    A negative `pos` counts from the end; a `len` reaching past the end stops
    there. `pos` and `len` have one shape, and broadcast against `input`.

    >>> tf.strings.substr(["hello", "world"], pos=-3, len=2).numpy()
    array([b'll', b'rl'], dtype=object)
    >>> tf.strings.substr("héllo", 1, 2, unit="UTF8_CHAR").numpy().decode()
    'él'
    """
    check_unit("Substr", unit)
    x = _strings(input)
    pos = convert_to_tensor(pos)
    length = convert_to_tensor(len, dtype=pos.dtype)
    if pos.shape != length.shape:
        raise ValueError(f"pos and len must have the same shape, got {pos.shape} and "
                         f"{length.shape}.")
    return apply(Substr, [x, pos, length], {"unit": unit})


# --- reduce_join --------------------------------------------------------------------------
def _reduce_join(x, axes, keepdims, separator):
    kept = [a for a in range(x.ndim) if a not in axes]
    # the first listed axis varies fastest, as TF's ReduceJoin kernel walks them
    moved = np.transpose(x, kept + list(reversed(axes)))
    flat = moved.reshape([x.shape[a] for a in kept] + [-1])
    out = np.empty(flat.shape[:-1], dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = separator.join(flat[index])
    if keepdims:
        out = out.reshape([1 if a in axes else x.shape[a] for a in range(x.ndim)])
    return out


def _reduce_join_shape(s, axes, keepdims, separator):
    if s.rank is None:
        return TensorShape(None)
    dims = s.as_list()
    return TensorShape([1 if a in axes else d for a, d in enumerate(dims)
                        if keepdims or a not in axes])


ReduceJoin = Op("ReduceJoin", _reduce_join, dtypes=_STRING, shape=_reduce_join_shape)


def _axes(axis, rank):
    listed = list(reversed(range(rank))) if axis is None else np.ravel(axis).tolist()
    for a in listed:
        if not -rank <= a < rank:
            raise _invalid("ReduceJoin", f"Invalid reduction dimension {a} for input with "
                           f"{rank} dimension(s)", errors.OutOfRangeError)
    axes = [a % rank for a in listed]
    if len(set(axes)) != len(axes):
        raise _invalid("ReduceJoin", f"Duplicate reduction dimension {axes}")
    return axes


@tf_export("strings.reduce_join")
def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """Join strings along `axis` (all axes when None), like `reduce_sum` for text.

    A RaggedTensor joins each row along its ragged axis (`axis=1`, or `-1`).

    >>> tf.strings.reduce_join([["a", "b"], ["c", "d"]]).numpy()
    b'abcd'
    >>> tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=0, keepdims=True).numpy()
    array([[b'ac', b'bd']], dtype=object)
    """
    from ..ragged.ragged_tensor import RaggedTensor
    separator = as_bytes(separator)
    if isinstance(inputs, RaggedTensor):
        return _ragged_reduce_join(inputs, axis, keepdims, separator)
    x = _strings(inputs)
    if x.shape.rank is None:
        raise ValueError("reduce_join needs the rank of its input: give the tf.function an "
                         "input_signature with a shape.")
    axes = _axes(axis, x.shape.rank)
    return apply(ReduceJoin, [x], {"axes": tuple(axes), "keepdims": bool(keepdims),
                                   "separator": separator})


def _ragged_reduce_join(rt, axis, keepdims, separator):
    if rt.ragged_rank != 1 or rt.flat_values.shape.rank != 1 or axis not in (1, -1):
        raise NotImplementedError(
            "minitf's reduce_join of a RaggedTensor joins the rows of a 2-D one (axis=1); "
            "convert other cases with .to_tensor(default_value='') first.")
    splits = rt.row_splits.numpy()
    values = rt.flat_values.numpy()
    out = np.empty(len(splits) - 1, dtype=object)
    out[:] = [separator.join(values[a:b]) for a, b in zip(splits[:-1], splits[1:])]
    out = out[:, None] if keepdims else out
    return convert_to_tensor(out, dtype=dtypes.string)


# --- unsorted_segment_join ----------------------------------------------------------------
def _segment_join(x, ids, num_segments, separator):
    if ids.ndim > x.ndim:
        raise _invalid("UnsortedSegmentJoin", f"Invalid segment_id rank {ids.ndim} for input "
                       f"with {x.ndim} dimension(s)", errors.OutOfRangeError)
    n = int(num_segments)
    if ids.size and (ids.min() < 0 or ids.max() >= n):
        raise _invalid("UnsortedSegmentJoin", "segment_ids are not allowed to exceed "
                       "num_segments or to have negative values.")
    rest = x.shape[ids.ndim:]
    pieces = [[[] for _ in range(int(np.prod(rest)))] for _ in range(n)]
    rows = x.reshape((ids.size, -1))
    for segment, row in zip(ids.flat, rows):
        for slot, value in zip(pieces[segment], row):
            slot.append(value)
    out = np.empty((n, int(np.prod(rest))), dtype=object)
    for i, segment in enumerate(pieces):
        out[i] = [separator.join(slot) for slot in segment]
    return out.reshape((n,) + rest)


UnsortedSegmentJoin = Op(
    "UnsortedSegmentJoin", _segment_join, typed=(0,), dtypes=_STRING,
    shape=lambda s, i, n, **_: TensorShape(None) if s.rank is None or i.rank is None
    else TensorShape([None] + s.as_list()[i.rank:]))


@tf_export("strings.unsorted_segment_join")
def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """Join the entries of each segment in order: like `unsorted_segment_sum` for text.

    Segments with no entries are empty strings.

    >>> tf.strings.unsorted_segment_join(["a", "b", "c"], [1, 0, 1], 3, separator=":").numpy()
    array([b'b', b'a:c', b''], dtype=object)
    """
    return apply(UnsortedSegmentJoin, [_strings(inputs), convert_to_tensor(segment_ids),
                                       convert_to_tensor(num_segments)],
                 {"separator": as_bytes(separator)})


# --- format -------------------------------------------------------------------------------
def _format(*arrays, template, placeholder, summarize):
    pieces = template.split(placeholder)
    out = pieces[0]
    for array, piece in zip(arrays, pieces[1:]):
        out += format_tensor(np.asarray(array), summarize) + piece
    return np.array(out.encode(), dtype=object)


StringFormat = Op("StringFormat", _format, typed=(), shape=lambda *s, **_: TensorShape([]),
                  dtype=dtypes.string)


@tf_export("strings.format")
def format(template, inputs, placeholder="{}", summarize=3, name=None):
    """Fill each `placeholder` in `template` with a tensor, printed as `tf.print` does.

    `summarize` entries are shown at each end of an axis (-1: all).

    >>> tf.strings.format("x={} y={}", [1, tf.range(10)], summarize=2).numpy()
    b'x=1 y=[0 1 ... 8 9]'
    """
    values = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    expected = template.count(placeholder)
    if expected != len(values):
        raise ValueError(f"The template expects {expected} tensors, but the inputs only has "
                         f"{len(values)}. Please ensure the number of placeholders in template "
                         "matches inputs length.")
    return apply(StringFormat, [convert_to_tensor(v) for v in values],
                 {"template": template, "placeholder": placeholder,
                  "summarize": int(summarize)})


# --- to_hash_bucket -----------------------------------------------------------------------
def hash64(data, seed=0xDECAFCAFFE):
    """TensorFlow's legacy `Hash64` (core/lib/hash/hash.cc, a MurmurHash64A variant).

    >>> hash64(b"hello") % 1000000007
    302950538
    """
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(data)
    h = (seed ^ (n * m)) & _MASK
    body = n - n % 8
    for i in range(0, body, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * m) & _MASK
        k = ((k ^ (k >> r)) * m) & _MASK
        h = ((h ^ k) * m) & _MASK
    if n % 8:
        h = ((h ^ int.from_bytes(data[body:], "little")) * m) & _MASK
    h = ((h ^ (h >> r)) * m) & _MASK
    return h ^ (h >> r)


def _to_hash_bucket(x, num_buckets):
    out = np.empty(x.shape, dtype=np.int64)
    out.flat[:] = [hash64(s) % num_buckets for s in x.flat]
    return out


StringToHashBucket = Op("StringToHashBucket", _to_hash_bucket, dtypes=_STRING,
                        shape=lambda s, **_: s, dtype=dtypes.int64)


@tf_export("strings.to_hash_bucket")
def to_hash_bucket(string_tensor, num_buckets, name=None):
    """Hash each string to a bucket id with TF's legacy `Hash64` (int64).

    Prefer `to_hash_bucket_fast` (FarmHash, quicker) in new code; this one is
    kept because older models' buckets were made with it.

    >>> tf.strings.to_hash_bucket(["hello", ""], 1000000007).numpy()
    array([302950538, 727638525])
    """
    if not isinstance(num_buckets, int) or isinstance(num_buckets, bool) or num_buckets < 1:
        raise _invalid("StringToHashBucket", f"Value for attr 'num_buckets' of {num_buckets} "
                       "must be at least minimum 1; pass a positive number of buckets.")
    return apply(StringToHashBucket, [_strings(string_tensor)], {"num_buckets": num_buckets})
