"""`tf.strings.split`, `bytes_split` and `ngrams`: strings into rows of pieces.

A batch of strings splits into rows of different lengths, a `tf.RaggedTensor`;
one string (rank 0) splits into a plain 1-D tensor:

>>> import minitf as tf
>>> tf.strings.split(["a b", "c"])
<tf.RaggedTensor [[b'a', b'b'], [b'c']]>
>>> tf.strings.split("the quick  fox").numpy()
array([b'the', b'quick', b'fox'], dtype=object)

Each op here works on a flat batch and returns `(values, row_splits)`:
row `i` is `values[row_splits[i]:row_splits[i + 1]]` (TensorFlow's kernels
`StringSplitV2` and `StringNGrams` do the same). `ragged_apply` wraps that for
any input: a higher-rank or ragged input splits its flat values and keeps its
outer rows (TF's `ragged_string_ops.py`).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.compat import as_bytes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


def _objects(items):
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def rows_to_arrays(rows, otype=object):
    """`[[...], [...]]` -> (flat values, int64 row_splits), as the ragged kernels return."""
    splits = np.zeros(len(rows) + 1, dtype=np.int64)
    splits[1:] = np.cumsum([len(r) for r in rows])
    flat = [v for r in rows for v in r]
    values = _objects(flat) if otype is object else np.asarray(flat, dtype=otype)
    return values, splits


def ragged_shape(s, **_):
    n = s.num_elements() if s.rank is not None else None
    return TensorShape([None]), TensorShape([None if n is None else n + 1])


def ragged_op(name, forward, dtype=dtypes.string, in_dtypes=frozenset({dtypes.string})):
    """An op whose `forward(flat_array, **attrs)` returns `(values, row_splits)`."""
    return Op(name, lambda x, **attrs: forward(x.reshape(-1), **attrs), dtypes=in_dtypes,
              num_outputs=2, shape=ragged_shape, dtype=lambda d, **_: (dtype, dtypes.int64))


def ragged_apply(op, x, attrs, outputs=1):
    """Run a ragged op on `x`: rank 0 -> dense 1-D, rank 1 -> ragged, more -> nested ragged.

    `outputs` > 1: the op returns several value arrays (e.g. code points and offsets)
    before the row splits; each becomes its own result with the same rows."""
    from ..ragged.ragged_tensor import RaggedTensor
    if isinstance(x, RaggedTensor):
        inner = ragged_apply(op, x.flat_values, attrs, outputs)
        if outputs == 1:
            return x.with_flat_values(inner)
        return tuple(x.with_flat_values(v) for v in inner)
    if x.shape.rank is None:
        raise ValueError("tf.strings needs the rank of its input to be known: give the "
                         "tf.function an input_signature with a shape.")
    if x.shape.rank > 1:
        nested = RaggedTensor.from_tensor(x, ragged_rank=x.shape.rank - 1)
        return ragged_apply(op, nested, attrs, outputs)
    results = apply(op, [x], attrs)
    values, splits = results[:-1], results[-1]
    if x.shape.rank == 0:
        out = values
    else:
        out = tuple(RaggedTensor.from_row_splits(v, splits, validate=False) for v in values)
    return out[0] if outputs == 1 else out


def strings_or_ragged(x):
    from ..ragged.ragged_tensor import RaggedTensor
    if isinstance(x, RaggedTensor):
        return x
    return convert_to_tensor(x, dtype=dtypes.string)


# --- split --------------------------------------------------------------------------------
def _split(flat, sep, maxsplit):
    # sep None or b"": runs of ASCII whitespace, empty pieces dropped (Python's bytes.split).
    sep = sep or None
    return rows_to_arrays([s.split(sep, maxsplit) for s in flat])


StringSplitV2 = ragged_op("StringSplitV2", _split)


@tf_export("strings.split")
def split(input, sep=None, maxsplit=-1, name=None):
    """Split each string at `sep`; by default at runs of ASCII whitespace.

    With `sep`, empty pieces are kept; `maxsplit` (>= 0) splits at most that
    many times, the rest staying in the last piece.

    >>> tf.strings.split(["a,,b", ""], sep=",")
    <tf.RaggedTensor [[b'a', b'', b'b'], [b'']]>
    >>> tf.strings.split(["a b c"], maxsplit=1)
    <tf.RaggedTensor [[b'a', b'b c']]>
    """
    sep = None if sep is None else as_bytes(sep)
    return ragged_apply(StringSplitV2, strings_or_ragged(input),
                        {"sep": sep, "maxsplit": int(maxsplit)})


def _bytes_split(flat):
    return rows_to_arrays([[s[i:i + 1] for i in range(len(s))] for s in flat])


BytesSplit = ragged_op("BytesSplit", _bytes_split)


@tf_export("strings.bytes_split")
def bytes_split(input, name=None):
    """Each string as its bytes, one string per byte.

    >>> tf.strings.bytes_split(["ab", ""])
    <tf.RaggedTensor [[b'a', b'b'], []]>
    """
    return ragged_apply(BytesSplit, strings_or_ragged(input), {})


# --- ngrams -------------------------------------------------------------------------------
def _ngrams_of(row, width, pad, left, right, separator, num=None):
    """TF's CreateNgrams: `num` n-grams of `width` over `row` padded by `pad` on each side."""
    num = max(0, len(row) + 2 * pad - width + 1) if num is None else num
    out = []
    for i in range(num):
        left_n = max(0, pad - i)
        right_n = max(0, pad - (num - (i + 1)))
        start = 0 if left_n > 0 else i - pad
        tokens = row[start:start + width - left_n - right_n]
        out.append(separator.join([left] * left_n + list(tokens) + [right] * right_n))
    return out


def _string_ngrams(data, splits, separator, ngram_widths, left_pad, right_pad, pad_width,
                   preserve_short_sequences):
    rows = []
    for a, b in zip(splits[:-1], splits[1:]):
        row, grams = data[a:b], []
        for width in ngram_widths:
            pad = min(width - 1 if pad_width < 0 else pad_width, width - 1)
            grams += _ngrams_of(row, width, pad, left_pad, right_pad, separator)
        if preserve_short_sequences and not grams and len(row):
            width = len(row) + 2 * pad_width
            grams = _ngrams_of(row, width, pad_width, left_pad, right_pad, separator, num=1)
        rows.append(grams)
    values, out_splits = rows_to_arrays(rows)
    return values, out_splits.astype(splits.dtype)


StringNGrams = Op("StringNGrams", _string_ngrams, typed=(0,), dtypes={dtypes.string},
                  num_outputs=2, shape=lambda d, s, **_: (TensorShape([None]), s),
                  dtype=lambda d, s, **_: (dtypes.string, s))


def _ngram_attrs(ngram_width, separator, pad_values, padding_width, preserve_short_sequences):
    widths = (ngram_width,) if isinstance(ngram_width, int) else tuple(ngram_width)
    if any(w <= 0 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    if pad_values is None:
        left = right = b""
        padding_width = 0
    elif isinstance(pad_values, (tuple, list)) and len(pad_values) == 2 \
            and all(isinstance(v, (str, bytes)) for v in pad_values):
        left, right = (as_bytes(v) for v in pad_values)
    elif isinstance(pad_values, (str, bytes)):
        left = right = as_bytes(pad_values)
    else:
        raise ValueError("pad_values must be a string, tuple of strings, or None.")
    if pad_values is not None and padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    return {"separator": as_bytes(separator), "ngram_widths": widths, "left_pad": left,
            "right_pad": right, "pad_width": -1 if padding_width is None else padding_width,
            "preserve_short_sequences": bool(preserve_short_sequences)}


@tf_export("strings.ngrams")
def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams of each sequence along the last axis, joined with `separator`.

    `ngram_width` may be a tuple (all those widths, one after another);
    `pad_values` (one string or a (left, right) pair) pads each sequence,
    `padding_width` times (default: width - 1); `preserve_short_sequences`
    gives a sequence shorter than the width one n-gram of all of it.

    >>> tf.strings.ngrams(["a", "b", "c"], 2).numpy()
    array([b'a b', b'b c'], dtype=object)
    >>> tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]]), 2)
    <tf.RaggedTensor [[b'a b', b'b c'], []]>
    """
    from ..ragged.ragged_tensor import RaggedTensor
    attrs = _ngram_attrs(ngram_width, separator, pad_values, padding_width,
                         preserve_short_sequences)
    if isinstance(data, RaggedTensor):
        if data.ragged_rank > 1:
            return data.with_values(ngrams(data.values, ngram_width, separator, pad_values,
                                           padding_width, preserve_short_sequences))
        values, splits = apply(StringNGrams, [strings_or_ragged(data.values), data.row_splits],
                               attrs)
        return RaggedTensor.from_row_splits(values, splits, validate=False)
    x = strings_or_ragged(data)
    if x.shape.rank == 0:
        raise ValueError("Data must have rank>0")
    from . import array_ops
    leading, n = x.shape.as_list()[:-1], x.shape[-1]
    if n is None or None in leading:
        raise ValueError("tf.strings.ngrams of a dense tensor needs its shape while tracing; "
                         "pass a RaggedTensor for sequences of unknown length.")
    count = int(np.prod(leading))
    splits = convert_to_tensor(np.arange(count + 1, dtype=np.int64) * n)
    values, _ = apply(StringNGrams, [array_ops.reshape(x, [-1]), splits], attrs)
    return array_ops.reshape(values, leading + [_ngram_count(n, attrs)])


def _ngram_count(n, attrs):
    """How many n-grams a sequence of `n` items gives (the same for every row of a dense input)."""
    total = 0
    for width in attrs["ngram_widths"]:
        pad = attrs["pad_width"]
        pad = min(width - 1 if pad < 0 else pad, width - 1)
        total += max(0, n + 2 * pad - width + 1)
    return 1 if attrs["preserve_short_sequences"] and total == 0 and n > 0 else total
