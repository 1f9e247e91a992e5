"""Splitting text into tokens and joining tokens into n-grams, for TextVectorization.

TensorFlow splits a batch of strings into a `tf.RaggedTensor` (one row of
tokens per string) and `tf.strings.ngrams` works on its rows. These two ops
keep the rows in a dense tensor instead, padded at the end with the empty
string - the token TextVectorization reserves as its mask (index 0), so
padding becomes index 0 in "int" mode and is dropped by the other encodings,
exactly as TF's `RaggedTensor.to_tensor(0)` and bincount treat missing tokens.
Dense rows also travel through `tf.data.Dataset.map` like any tensor.

>>> import minitf as tf
>>> tokens = split_to_dense(tf.constant(["the cat sat", "a dog"]), "whitespace")
>>> tokens.numpy().tolist()
[[b'the', b'cat', b'sat'], [b'a', b'dog', b'']]
>>> ngrams_dense(tokens, (2,)).numpy().tolist()
[[b'the cat', b'cat sat'], [b'a dog', b'']]

A whitespace split drops empty pieces (ASCII whitespace, as TF's); a
"character" split yields each UTF-8 character. Neither op is differentiable.
"""
import numpy as np

from ....framework import dtypes
from ....framework.op import Op, apply
from ....framework.tensor_shape import TensorShape

PAD = b""  # the padding token: TextVectorization's mask token


def _tokens(text, split):
    if split == "whitespace":
        return text.split()
    return [c.encode("utf-8") for c in text.decode("utf-8", errors="replace")]


def pad_rows(rows, scalar=False):
    """Lists of tokens as a dense object array padded with b'' (one row if `scalar`)."""
    if scalar:
        out = np.empty(len(rows[0]), dtype=object)
        out[:] = rows[0]
        return out
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), PAD, dtype=object)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def _split(x, split):
    return pad_rows([_tokens(s, split) for s in x.flat], scalar=x.ndim == 0)


def _split_shape(s, split):
    if s.rank == 0:
        return TensorShape([None])
    return TensorShape([s[0] if s.rank else None, None])


SplitToDense = Op("StringSplitToDense", _split, dtypes={dtypes.string}, shape=_split_shape)


def split_to_dense(strings, split):
    """Tokens of each string of a 0-D or 1-D string tensor, rows padded with b''."""
    return apply(SplitToDense, [strings], {"split": split})


def _ngrams(x, widths, separator):
    rows = [x] if x.ndim == 1 else list(x)
    out = []
    for row in rows:
        tokens = [t for t in row.tolist() if t != PAD]
        out.append([separator.join(tokens[i:i + w]) for w in widths
                    for i in range(len(tokens) - w + 1)])
    return pad_rows(out, scalar=x.ndim == 1)


def _ngrams_shape(s, **_):
    return TensorShape([None]) if s.rank == 1 else TensorShape([s[0], None])


NgramsDense = Op("StringNGramsDense", _ngrams, dtypes={dtypes.string}, shape=_ngrams_shape)


def ngrams_dense(tokens, widths, separator=b" "):
    """Each padded row's n-grams for every width in `widths` (in that order), padded."""
    return apply(NgramsDense, [tokens], {"widths": tuple(int(w) for w in widths),
                                         "separator": separator})
