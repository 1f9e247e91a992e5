"""`tf.keras.layers.IntegerLookup`: integer ids to contiguous indices.

Raw ids (years, product codes, ...) become indices 0, 1, 2, ...; -1 is the
OOV token:

>>> import minitf as tf
>>> layer = tf.keras.layers.IntegerLookup(vocabulary=[12, 36, 1138, 42])
>>> layer([[12, 1138, 42], [42, 1000, 36]])
<tf.Tensor: shape=(2, 3), dtype=int64, numpy=
array([[1, 3, 4],
       [4, 0, 2]])>

The shared machinery (adapt, output modes, saving) is in index_lookup.py.
In TensorFlow this is `keras/src/layers/preprocessing/integer_lookup.py`.
"""
from ....framework.tf_export import tf_export
from .index_lookup import IndexLookup


@tf_export("keras.layers.IntegerLookup")
class IntegerLookup(IndexLookup):
    """Map integers to indices (or, with `invert=True`, indices back to integers).

    The arguments are StringLookup's, with integer tokens: `oov_token=-1`,
    `mask_token=None` (e.g. 0 for padded ids), and `oov_method` ("floormod":
    an OOV id `x` goes to bucket `x % num_oov_indices`; "farmhash": the
    Fingerprint64 of its decimal text picks the bucket).

    >>> layer = tf.keras.layers.IntegerLookup()
    >>> layer.adapt([5, 3, 3, 9, 9, 1])
    >>> layer.get_vocabulary()
    [-1, np.int64(9), np.int64(3), np.int64(5), np.int64(1)]
    >>> tf.keras.layers.IntegerLookup(vocabulary=[7, 8], invert=True)([0, 1, 2])
    <tf.Tensor: shape=(3,), dtype=int64, numpy=array([-1,  7,  8])>
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, vocabulary_dtype="int64", idf_weights=None, invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False,
                 oov_method="floormod", salt=None, name=None, **kwargs):
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError("If `max_tokens` is set for `IntegerLookup`, it must be greater "
                             f"than 1. Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError("The value of `num_oov_indices` argument for `IntegerLookup` "
                             f"must >= 0. Received: num_oov_indices={num_oov_indices}")
        if vocabulary_dtype != "int64":
            raise ValueError("Only `vocabulary_dtype='int64'` is supported at this time. "
                             f"Received: vocabulary_dtype={vocabulary_dtype}")
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         vocabulary_dtype=vocabulary_dtype, idf_weights=idf_weights,
                         invert=invert, output_mode=output_mode, sparse=sparse,
                         pad_to_max_tokens=pad_to_max_tokens, oov_method=oov_method, salt=salt,
                         name=name, **kwargs)

    def get_config(self):
        config = super().get_config()
        if config["oov_token"] is not None:
            config["oov_token"] = int(config["oov_token"])
        if config["mask_token"] is not None:
            config["mask_token"] = int(config["mask_token"])
        if config["vocabulary"] is not None:
            config["vocabulary"] = [int(v) for v in config["vocabulary"]]
        return config
