"""`tf.strings`: the few string ops text and CSV pipelines need.

A `tf.string` tensor holds bytes (str is encoded as UTF-8):

>>> import minitf as tf
>>> words = tf.strings.split(tf.constant("the quick  fox"))
>>> words
<tf.Tensor: shape=(3,), dtype=string, numpy=array([b'the', b'quick', b'fox'], dtype=object)>
>>> tf.strings.to_number(tf.constant(["1.5", "2"]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 2. ], dtype=float32)>

minitf has no `tf.RaggedTensor`, so `split` takes one string at a time
(inside `Dataset.map` that is the natural unit anyway); TensorFlow splits a
batch of strings into a RaggedTensor.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export

_STRING = {dtypes.string}


def _strings(x):
    return convert_to_tensor(x, dtype=dtypes.string)


def _map_bytes(fn, array, otype=object):
    out = np.empty(array.shape, dtype=otype)
    out.flat[:] = [fn(s) for s in array.flat]
    return out


def _to_number(x, out_type):
    def convert(s):
        text = s.decode().strip()
        try:
            return int(text) if out_type.is_integer else float(text)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, "StringToNumber", f"StringToNumberOp could not correctly convert "
                f"string: {s.decode()} [Op:StringToNumber] Only text that is a number "
                "converts; filter or fix such values first.") from None
    return _map_bytes(convert, x).astype(out_type._np)


StringToNumber = Op("StringToNumber", _to_number, dtypes=_STRING, shape=lambda s, **_: s,
                    dtype=lambda d, out_type: out_type)


@tf_export("strings.to_number")
def to_number(string_tensor, out_type=dtypes.float32, name=None):
    """Parse each string as a number of `out_type` (float32 by default).

    >>> tf.strings.to_number("7", out_type=tf.int64)
    <tf.Tensor: shape=(), dtype=int64, numpy=7>
    """
    return apply(StringToNumber, [_strings(string_tensor)],
                 {"out_type": dtypes.as_dtype(out_type)})


def _split(x, sep, maxsplit):
    text = x[()]
    if sep is None:
        parts = text.split(None, maxsplit)
    else:
        parts = text.split(sep, maxsplit) if text else []
    out = np.empty(len(parts), dtype=object)
    out[:] = parts
    return out


def _split_shape(s, **_):
    if s.rank not in (0, None):
        raise ValueError(f"minitf's tf.strings.split takes one string (a scalar), got shape "
                         f"{s}; TensorFlow returns a RaggedTensor for a batch of strings, "
                         "which minitf does not have. Split inside Dataset.map instead.")
    return TensorShape([None])


StringSplit = Op("StringSplitV2", _split, dtypes=_STRING, shape=_split_shape)


@tf_export("strings.split")
def split(input, sep=None, maxsplit=-1, name=None):
    """Split one string at `sep` (default: runs of whitespace, empty pieces dropped).

    >>> tf.strings.split("a,b,,c", sep=",").numpy()
    array([b'a', b'b', b'', b'c'], dtype=object)
    """
    x = _strings(input)
    _split_shape(x.shape)
    sep = sep.encode() if isinstance(sep, str) else sep
    return apply(StringSplit, [x], {"sep": sep, "maxsplit": int(maxsplit)})


def _elementwise(name, fn, doc):
    op = Op(name, lambda x: _map_bytes(fn, x), dtypes=_STRING, shape=lambda s: s)

    def public(input, name=None, encoding=""):
        return apply(op, [_strings(input)])

    public.__doc__ = doc
    return op, public


StringStrip, strip = _elementwise("StringStrip", bytes.strip, """Remove leading and trailing whitespace.

    >>> tf.strings.strip("  hi ").numpy()
    b'hi'
    """)
StringLower, lower = _elementwise("StringLower", bytes.lower, """Lower-case (ASCII letters).

    >>> tf.strings.lower("AbC").numpy()
    b'abc'
    """)
StringUpper, upper = _elementwise("StringUpper", bytes.upper, """Upper-case (ASCII letters).

    >>> tf.strings.upper("AbC").numpy()
    b'ABC'
    """)
tf_export("strings.strip")(strip)
tf_export("strings.lower")(lower)
tf_export("strings.upper")(upper)

StringLength = Op("StringLength", lambda x: _map_bytes(len, x, np.int32), dtypes=_STRING,
                  shape=lambda s: s, dtype=dtypes.int32)


@tf_export("strings.length")
def length(input, unit="BYTE", name=None):
    """The length of each string in bytes.

    >>> tf.strings.length(["ab", "cde"]).numpy()
    array([2, 3], dtype=int32)
    """
    return apply(StringLength, [_strings(input)])


def _join(*arrays, separator):
    parts = np.broadcast_arrays(*arrays)
    out = np.empty(parts[0].shape, dtype=object)
    out.flat[:] = [separator.join(items) for items in zip(*[p.flat for p in parts])]
    return out


StringJoin = Op("StringJoin", _join, dtypes=_STRING,
                shape=lambda *shapes, separator: max(shapes, key=lambda s: s.rank or 0))


@tf_export("strings.join")
def join(inputs, separator="", name=None):
    """Join strings element-wise: `join(["a", "b"], "-")` is b'a-b'.

    >>> tf.strings.join(["data", "train.csv"], separator="/").numpy()
    b'data/train.csv'
    """
    separator = separator.encode() if isinstance(separator, str) else separator
    return apply(StringJoin, [_strings(x) for x in inputs], {"separator": separator})


def _as_string(x):
    if x.dtype.kind == "f":
        return _map_bytes(lambda v: f"{v:f}".encode(), x)
    return _map_bytes(lambda v: str(v).lower().encode() if x.dtype.kind == "b"
                      else str(v).encode(), x)


AsString = Op("AsString", _as_string, shape=lambda s: s, dtype=dtypes.string)


@tf_export("strings.as_string", "as_string")
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",
              name=None):
    """Numbers as strings (floats with 6 decimals, like TF's default).

    >>> tf.strings.as_string(tf.constant([1, 20])).numpy()
    array([b'1', b'20'], dtype=object)
    """
    return apply(AsString, [convert_to_tensor(input)])
