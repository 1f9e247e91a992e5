"""Indices to vectors: the "one_hot", "multi_hot" and "count" encodings of the lookups.

Every encoding starts from `tf.one_hot(ids, depth)`: one row of `depth`
zeros with a 1 at the id. "multi_hot" keeps a 1 where any id of a sample
landed (a max over the sample's ids), "count" adds them up. An id outside
`[0, depth)` (the mask token's) gives a row of zeros, so it is dropped.

>>> import minitf as tf
>>> ids = tf.constant([[1, 1], [2, 0]], tf.int64)
>>> encode_categorical(ids, "count", 3, tf.int64).numpy()
array([[0, 2, 0],
       [1, 0, 1]])
>>> encode_categorical(ids, "multi_hot", 3, tf.int64).numpy()
array([[0, 1, 0],
       [1, 0, 1]])

A rank-1 input is one sample; a scalar is a sample of one. With
`sparse=True` the result is a `tf.SparseTensor` of the non-zero entries.
In TensorFlow this is `keras/src/utils/numerical_utils.py`
(`encode_categorical_inputs`), which uses `tf.math.bincount` for ranks 1-2.
"""
import minitf as tf


def encode_categorical(ids, output_mode, depth, dtype, sparse=False):
    """Encode integer `ids` as `output_mode` vectors `depth` wide, of `dtype`."""
    if ids.shape.rank == 0:
        ids = tf.expand_dims(ids, -1)
    rank = ids.shape.rank
    if output_mode == "one_hot":
        if rank > 1 and ids.shape[-1] == 1:  # (..., 1): encode on that axis
            ids = tf.squeeze(ids, -1)
        output = tf.one_hot(ids, depth, dtype=dtype)
    else:
        hot = tf.one_hot(ids, depth, dtype=dtype)
        axis = 1 if rank > 1 else 0  # the sample axis, as Keras reduces it
        output = tf.reduce_max(hot, axis=axis) if output_mode == "multi_hot" else \
            tf.reduce_sum(hot, axis=axis)
    return to_sparse(output) if sparse else output


def to_sparse(dense):
    """The non-zero entries of `dense` as a `tf.SparseTensor` (row-major order)."""
    indices = tf.where(tf.not_equal(dense, tf.zeros([], dense.dtype)))
    return tf.SparseTensor(indices, tf.gather_nd(dense, indices),
                           tf.shape(dense, out_type=tf.int64))
