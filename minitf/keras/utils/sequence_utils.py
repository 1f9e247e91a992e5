"""`tf.keras.utils.pad_sequences`: lists of different lengths -> one rectangular array.

Text and other sequences come as lists of word indices, each as long as its
sentence; a batch needs one length. `pad_sequences` cuts long ones to `maxlen`
and fills short ones with `value` - at the front by default ("pre"), so that
the real words sit next to a recurrent layer's final step.

>>> tf.keras.utils.pad_sequences([[1, 2, 3], [4, 5], [6]])
array([[1, 2, 3],
       [0, 4, 5],
       [0, 0, 6]], dtype=int32)
>>> tf.keras.utils.pad_sequences([[1, 2, 3], [4]], maxlen=2, padding="post", truncating="post")
array([[1, 2],
       [4, 0]], dtype=int32)
"""
import numpy as np

from ...framework.tf_export import tf_export


@tf_export("keras.utils.pad_sequences", "keras.preprocessing.sequence.pad_sequences")
def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """A NumPy array of shape `(len(sequences), maxlen) + item_shape`.

    `maxlen` defaults to the longest sequence. `truncating` ("pre"/"post")
    says which end of a long sequence is dropped, `padding` which end of a
    short one is filled with `value`. Items may be arrays themselves (all of
    the first non-empty item's shape).
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    if padding not in ("pre", "post"):
        raise ValueError(f'Padding type "{padding}" not understood')
    if truncating not in ("pre", "post"):
        raise ValueError(f'Truncating type "{truncating}" not understood')
    lengths, item_shape = [], None
    for sequence in sequences:
        try:
            lengths.append(len(sequence))
        except TypeError as error:
            raise ValueError("`sequences` must be a list of iterables. Found non-iterable: "
                             f"{sequence}") from error
        if item_shape is None and len(sequence):
            item_shape = np.asarray(sequence).shape[1:]
    item_shape = item_shape or ()
    if maxlen is None:
        if not lengths:
            raise ValueError("`sequences` is empty: pass `maxlen` to get an array of shape "
                             "(0, maxlen).")
        maxlen = max(lengths)
    is_text = np.issubdtype(dtype, np.str_) or np.issubdtype(dtype, np.bytes_)
    if isinstance(value, str) and dtype is not object and not is_text:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: "
                         f"{type(value)}\nYou should set `dtype=object` for variable length "
                         "strings.")
    result = np.full((len(lengths), maxlen) + tuple(item_shape), value, dtype=dtype)
    for row, sequence in enumerate(sequences):
        if not len(sequence) or maxlen == 0:
            continue
        kept = np.asarray(sequence[-maxlen:] if truncating == "pre" else sequence[:maxlen],
                          dtype=dtype)
        if kept.shape[1:] != tuple(item_shape):
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {row} "
                             f"is different from expected shape {tuple(item_shape)}")
        if padding == "post":
            result[row, :len(kept)] = kept
        else:
            result[row, maxlen - len(kept):] = kept
    return result
