"""`tf.keras.layers.StringLookup`: strings to indices through a vocabulary.

>>> import minitf as tf
>>> layer = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c", "d"])
>>> layer([["a", "c", "d"], ["d", "z", "b"]])
<tf.Tensor: shape=(2, 3), dtype=int64, numpy=
array([[1, 3, 4],
       [4, 0, 2]])>

Index 0 is the OOV index ("[UNK]"): "z" is not in the vocabulary. The
shared machinery (adapt, output modes, saving) is in index_lookup.py.
In TensorFlow this is `keras/src/layers/preprocessing/string_lookup.py`.
"""
from ....framework.tf_export import tf_export
from .index_lookup import IndexLookup


@tf_export("keras.layers.StringLookup")
class StringLookup(IndexLookup):
    """Map strings to integer indices (or, with `invert=True`, indices to strings).

    max_tokens: cap on the vocabulary size, mask and OOV indices included.
    num_oov_indices: OOV indices (several: a token's Fingerprint64 picks one; 0: OOV
    tokens are an error). mask_token: a token for padding, index 0 in "int" mode.
    oov_token: what `invert=True` returns for an OOV index. vocabulary: a list, array,
    tensor or the path of a text file with one token a line. output_mode: "int",
    "one_hot", "multi_hot", "count" or "tf_idf" (idf_weights: one per vocabulary token).

    An adapted vocabulary is ordered by frequency, ties by reverse sort order:

    >>> layer = tf.keras.layers.StringLookup()
    >>> layer.adapt([["a", "c", "d"], ["d", "z", "b"]])
    >>> layer.get_vocabulary()
    ['[UNK]', np.str_('d'), np.str_('z'), np.str_('c'), np.str_('b'), np.str_('a')]
    >>> tf.keras.layers.StringLookup(vocabulary=["a", "b"], output_mode="multi_hot")(
    ...     [["a", "a"], ["b", "q"]]).numpy()
    array([[0, 1, 0],
           [1, 0, 1]])
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 pad_to_max_tokens=False, sparse=False, encoding="utf-8", name=None, salt=None,
                 **kwargs):
        self.encoding = encoding
        kwargs.pop("vocabulary_dtype", None)
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         idf_weights=idf_weights, invert=invert, output_mode=output_mode,
                         pad_to_max_tokens=pad_to_max_tokens, sparse=sparse, name=name,
                         salt=salt, vocabulary_dtype="string", **kwargs)

    def get_config(self):
        config = super().get_config()
        del config["vocabulary_dtype"]  # strings are the only choice
        config["encoding"] = self.encoding
        return config
