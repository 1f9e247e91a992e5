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
