"""`keras.ops.ctc_loss` and `keras.ops.ctc_decode` (also under `keras.ops.nn`), Keras 3's
CTC on the TensorFlow backend: batch-major logits, the blank at `mask_index` (0 by
default), results as dense tensors.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> logits = tf.math.log([[[0.1, 0.9], [0.8, 0.2], [0.1, 0.9]]])   # (batch, steps, classes)
>>> decoded, scores = ops.ctc_decode(logits, [3])                  # blank = class 0
>>> decoded.numpy()                                                # (paths, batch, steps)
array([[[ 1,  1, -1]]], dtype=int32)

The loss is tf.nn.ctc_loss and the decoders tf.nn.ctc_greedy_decoder /
ctc_beam_search_decoder (minitf/ops/nn_ctc_*.py); this module only does Keras's
layout, dtypes and padding (-1 after each decoded sequence).
"""
import minitf as tf

from .. import ops  # noqa: F401 - the examples below call ops.*
from ._export import keras_ops_export
from .dtype_rules import convert, result_type


@keras_ops_export("nn")
def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """One CTC loss per example: target (batch, max_length) ints, output (batch, steps,
    classes) logits, the true lengths of both, the blank class at mask_index.
    float64 is computed in float32 and cast back, as Keras does.

    >>> loss = ops.ctc_loss([[1, 0]], tf.zeros([1, 3, 2]), [1], [3])   # 6 of 8 paths
    >>> print(loss.numpy())
    [0.28768206]
    """
    target = tf.cast(convert(target), "int32")
    output = convert(output)
    result_dtype = result_type(output.dtype, "float32")
    compute_dtype = "float32" if result_dtype == "float64" else result_dtype
    loss = tf.nn.ctc_loss(labels=target, logits=tf.cast(output, compute_dtype),
                          label_length=target_length, logit_length=output_length,
                          blank_index=mask_index, logits_time_major=False)
    return tf.cast(loss, result_dtype)


def _to_dense(decoded, samples, steps):
    """Each path's SparseTensor as (batch, steps) int32, -1 after the sequence."""
    dense = [tf.sparse.to_dense(tf.SparseTensor(st.indices, st.values, [samples, steps]),
                                default_value=-1) for st in decoded]
    return tf.cast(tf.stack(dense, axis=0), "int32")


@keras_ops_export("nn")
def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1,
               merge_repeated=True, mask_index=0):
    """Decode (batch, steps, classes) logits: strategy "greedy" (best class per step) or
    "beam_search". Returns (decoded (paths, batch, steps) int32 padded with -1, scores:
    the greedy decoder's negated sum of logits, or the beam search's log-probabilities).

    >>> decoded, log_probs = ops.ctc_decode(tf.zeros([1, 2, 2]), [2], strategy="beam_search",
    ...                                     top_paths=2)
    >>> decoded.numpy().tolist(), log_probs.numpy().round(4)
    ([[[1, -1]], [[-1, -1]]], array([[-0.2877, -1.3863]], dtype=float32))
    """
    inputs = convert(inputs)
    samples, steps = inputs.shape[0], inputs.shape[1]
    inputs = tf.transpose(inputs, (1, 0, 2))
    inputs = tf.cast(inputs, result_type(inputs.dtype, "float32"))
    sequence_lengths = convert(sequence_lengths, dtype="int32")
    if strategy == "greedy":
        decoded, scores = tf.nn.ctc_greedy_decoder(inputs=inputs, sequence_length=sequence_lengths,
                                                   merge_repeated=merge_repeated,
                                                   blank_index=mask_index)
    elif strategy == "beam_search":
        if mask_index is not None:  # the beam search wants the blank last
            inputs = tf.concat([inputs[..., :mask_index], inputs[..., mask_index + 1:],
                                inputs[..., mask_index:mask_index + 1]], axis=-1)
        decoded, scores = tf.nn.ctc_beam_search_decoder(
            inputs=inputs, sequence_length=sequence_lengths, beam_width=beam_width,
            top_paths=top_paths)
    else:
        raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and "
                         "'beam_search'.")
    dense = _to_dense(decoded, samples, steps)
    if strategy == "beam_search" and mask_index is not None:
        if mask_index < 0:
            mask_index = mask_index + inputs.shape[-1]
        dense = tf.where(dense >= mask_index, dense + 1, dense)
    return dense, scores
