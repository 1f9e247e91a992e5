"""`tf.keras.layers.TextVectorization`: raw text in, token indices (or bag-of-words vectors) out.

Each string goes through four steps:

1. standardize: lower-case and strip punctuation (the default), or a callable;
2. split: into words at whitespace, into characters, or with a callable;
3. ngrams: optionally add the n-grams of consecutive tokens ("the cat");
4. look every token up in the vocabulary (an inner StringLookup whose mask
   token is "" at index 0 and whose OOV token "[UNK]" is index 1).

>>> import minitf as tf
>>> layer = tf.keras.layers.TextVectorization()
>>> layer.adapt(["The cat sat.", "the dog, the CAT!", "a b"])
>>> layer.get_vocabulary()
['', '[UNK]', np.str_('the'), np.str_('cat'), np.str_('sat'), np.str_('dog'), np.str_('b'), np.str_('a')]
>>> layer(["the cat", "dog a x y z", ""])
<tf.Tensor: shape=(3, 5), dtype=int64, numpy=
array([[2, 3, 0, 0, 0],
       [5, 7, 1, 1, 1],
       [0, 0, 0, 0, 0]])>

Rows are padded with 0 at the END to the longest row (or cut/padded to
`output_sequence_length`); `keras.utils.pad_sequences` pads in front by
default. The other output modes give one vector per string:
"multi_hot", "count" and "tf_idf" over the vocabulary.

In TensorFlow the split tokens are a `tf.RaggedTensor`; minitf keeps them in
a dense tensor padded with "" (see text_ops.py), which is what makes the
layer work inside `tf.data.Dataset.map` too. `ragged=True` returns a
`tf.RaggedTensor` of the indices (eagerly).
In TensorFlow this is `keras/src/layers/preprocessing/text_vectorization.py`.
"""
import numpy as np

import minitf as tf

from ....framework.tf_export import tf_export
from ...engine import keras_tensor
from ...engine.base_layer import Layer
from ...saving import object_registration
from .index_lookup import adapt_batches, listify, validate_string_arg
from .string_lookup import StringLookup
from .text_ops import ngrams_dense, split_to_dense

PUNCTUATION = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'  # Keras's DEFAULT_STRIP_REGEX
_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")


@tf_export("keras.layers.TextVectorization")
class TextVectorization(Layer):
    """Turn strings into sequences of token indices, or into one vector per string.

    max_tokens: cap on the vocabulary size ("" and "[UNK]" included).
    standardize: "lower_and_strip_punctuation", "lower", "strip_punctuation", None or a
    callable on a string tensor. split: "whitespace", "character", None or a callable
    returning a RaggedTensor or a dense tensor of tokens padded with "".
    ngrams: an int n (1..n-grams) or a tuple of widths. output_mode: "int",
    "multi_hot", "count" or "tf_idf". output_sequence_length: "int" rows cut or
    padded to this length. vocabulary / idf_weights: as StringLookup's.

    >>> vectorize = tf.keras.layers.TextVectorization(
    ...     output_sequence_length=4, ngrams=2, vocabulary=["a", "b", "a b", "c"])
    >>> vectorize(["a b c a b", "c"]).numpy()
    array([[2, 3, 5, 2],
           [5, 0, 0, 0]])
    """

    _allow_non_tensor_positional_args = True  # raw data (lists, strings) in, as Keras 3

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int",
                 output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None,
                 **kwargs):
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        _check_arguments(standardize, split, ngrams, output_mode, output_sequence_length,
                         ragged)
        self._max_tokens, self._standardize, self._split = max_tokens, standardize, split
        self._ngrams_arg = ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._ragged, self._output_mode = ragged, output_mode
        self._output_sequence_length, self._encoding = output_sequence_length, encoding
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        super().__init__(name=name, **kwargs)
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens, vocabulary=vocabulary, idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens, mask_token="", output_mode=output_mode,
            sparse=sparse, has_input_vocabulary=self._has_input_vocabulary, encoding=encoding,
            vocabulary_size=vocabulary_size)
        self.built = True

    # --- vocabulary ------------------------------------------------------------------------
    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary (most frequent tokens first) from strings: an array, a list,
        a tensor, a batched `tf.data.Dataset` or another iterable of batches."""
        self.reset_state()
        batches = adapt_batches(data, steps)
        if batches is not None:
            for batch in batches:
                self.update_state(batch)
        else:
            data = tf.convert_to_tensor(data, tf.string)
            self.update_state(tf.expand_dims(data, -1) if data.shape.rank == 1 else data)
        self.finalize_state()

    def update_state(self, data):
        self._lookup_layer.update_state(self._preprocess(data))

    def finalize_state(self):
        self._lookup_layer.finalize_state()

    def reset_state(self):
        self._lookup_layer.reset_state()

    def get_vocabulary(self, include_special_tokens=True):
        """The token of every index ("" and "[UNK]" first, unless left out)."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Set the vocabulary (and tf_idf's `idf_weights`) directly, replacing any."""
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    # --- call ------------------------------------------------------------------------------
    def _preprocess(self, inputs):
        """Standardize, split and n-gram: strings in, tokens (padded with "") out."""
        inputs = tf.convert_to_tensor(inputs, tf.string)
        if self._standardize in ("lower", "lower_and_strip_punctuation"):
            inputs = tf.strings.lower(inputs)
        if self._standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            inputs = tf.strings.regex_replace(inputs, PUNCTUATION, "")
        if callable(self._standardize):
            inputs = self._standardize(inputs)
        if self._split is not None:
            if inputs.shape.rank > 1:
                if inputs.shape[-1] != 1:
                    raise ValueError(
                        "When using `TextVectorization` to tokenize strings, the input rank "
                        "must be 1 or the last shape dimension must be 1. Received: "
                        f"inputs.shape={tuple(inputs.shape)} with rank={inputs.shape.rank}")
                inputs = tf.squeeze(inputs, axis=-1)
            if callable(self._split):
                inputs = self._split(inputs)
                if isinstance(inputs, tf.RaggedTensor):
                    inputs = inputs.to_tensor(default_value="")
            else:
                inputs = split_to_dense(inputs, self._split)
        if self._ngrams is not None:
            inputs = ngrams_dense(inputs, self._ngrams)
        return inputs

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, (str, bytes, list, tuple, np.ndarray)):  # text, not a structure
            inputs = tf.convert_to_tensor(inputs, tf.string)
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs):
        tokens = self._preprocess(inputs)
        ids = self._lookup_layer.call(tokens)
        if self._output_mode != "int":
            return ids
        length = self._output_sequence_length
        if length is not None:  # pad with 0 at the end, then cut to `length`
            zeros = tf.zeros(tf.concat([tf.shape(ids)[:-1], [length]], 0), tf.int64)
            ids = tf.concat([ids, zeros], -1)[..., :length]
            ids = tf.ensure_shape(ids, ids.shape.as_list()[:-1] + [length])
        if self._ragged:
            return self._to_ragged(tokens, ids)
        return ids

    def _to_ragged(self, tokens, ids):
        """Each row's indices up to its number of tokens, as a RaggedTensor."""
        if not tf.executing_eagerly():
            raise ValueError(
                "TextVectorization(ragged=True) returns a tf.RaggedTensor, which minitf builds "
                "only eagerly: it cannot yet leave a tf.function or tf.data.Dataset.map (in "
                "TensorFlow it can). Use ragged=False there (rows padded with 0 at the end), "
                "or call the layer outside the pipeline.")
        if ids.shape.rank != 2:
            raise ValueError("ragged=True needs a batch of strings (rank 1, or rank 2 with a "
                             f"last dimension of 1); the indices have shape {ids.shape}.")
        counts = tf.reduce_sum(tf.cast(tf.not_equal(tokens, ""), tf.int64), axis=-1)
        if self._output_sequence_length is not None:
            counts = tf.minimum(counts, self._output_sequence_length)
        return tf.RaggedTensor.from_tensor(ids, lengths=counts)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if self._output_mode == "int":
            return (input_shape[0], self._output_sequence_length)
        if self._split is None:
            if len(input_shape) <= 1:
                input_shape = input_shape + (1,)
        else:
            input_shape = input_shape + (None,)
        return self._lookup_layer.compute_output_shape(input_shape)

    def compute_output_spec(self, inputs, *args, **kwargs):
        """As Keras 3 declares it: int64 in "int" mode, float32 otherwise."""
        dtype = "int64" if self._output_mode == "int" else "float32"
        return keras_tensor.KerasTensor(self.compute_output_shape(inputs.shape), dtype)

    # --- config and saving -----------------------------------------------------------------
    def get_config(self):
        lookup = self._lookup_layer
        config = super().get_config()
        config.update({
            "max_tokens": lookup.max_tokens, "standardize": self._standardize,
            "split": self._split, "ngrams": self._ngrams_arg, "output_mode": self._output_mode,
            "output_sequence_length": self._output_sequence_length,
            "pad_to_max_tokens": lookup.pad_to_max_tokens, "sparse": lookup.sparse,
            "ragged": self._ragged, "vocabulary": listify(lookup.input_vocabulary),
            "idf_weights": listify(lookup.input_idf_weights), "encoding": self._encoding,
            "vocabulary_size": self.vocabulary_size()})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        for key in ("standardize", "split"):
            if config.get(key) is not None and not isinstance(config[key], str) \
                    and not callable(config[key]):
                config[key] = _function_from_config(config[key], key)
        if isinstance(config.get("ngrams"), list):
            config["ngrams"] = tuple(config["ngrams"])
        return cls(**config)

    def save_own_variables(self, store):
        self._lookup_layer.save_own_variables(store)

    def load_own_variables(self, store):
        self._lookup_layer.load_own_variables(store)

    def save_assets(self, dir_path):
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path):
        self._lookup_layer.load_assets(dir_path)


def _function_from_config(value, key):
    """A registered function saved as {'class_name': 'function', 'config': 'package>name'}."""
    if isinstance(value, dict) and value.get("class_name") == "function":
        found = object_registration.get_registered_object(value.get("config"))
        if found is None:
            raise ValueError(
                f"TextVectorization's `{key}` is the function {value.get('config')!r}, which is "
                "not registered here. Decorate it with "
                "@tf.keras.utils.register_keras_serializable(package=...) (or pass it in "
                "custom_objects) before loading.")
        return found
    return tf.keras.utils.deserialize_keras_object(value)


def _check_arguments(standardize, split, ngrams, output_mode, output_sequence_length, ragged):
    """Keras's constructor checks, in its order and words."""
    caller = "TextVectorization"
    if standardize is not None and not callable(standardize):
        validate_string_arg(standardize, _STANDARDIZE, caller, "standardize")
    if split is not None and not callable(split):
        validate_string_arg(split, _SPLIT, caller, "split")
    validate_string_arg(output_mode, ("int", "one_hot", "multi_hot", "count", "tf_idf"),
                        caller, "output_mode")
    if not (ngrams is None or isinstance(ngrams, int) or isinstance(ngrams, tuple)
            and all(isinstance(item, int) for item in ngrams)):
        raise ValueError("`ngrams` must be None, an integer, or a tuple of integers. "
                         f"Received: ngrams={ngrams}")
    if output_mode == "int" and not (isinstance(output_sequence_length, int)
                                     or output_sequence_length is None):
        raise ValueError("`output_sequence_length` must be either None or an integer when "
                         "`output_mode` is 'int'. Received: "
                         f"output_sequence_length={output_sequence_length}")
    if output_mode != "int" and output_sequence_length is not None:
        raise ValueError("`output_sequence_length` must not be set if `output_mode` is not "
                         f"'int'. Received output_sequence_length={output_sequence_length}.")
    if ragged and output_mode != "int":
        raise ValueError("`ragged` must not be true if `output_mode` is `'int'`. Received: "
                         f"ragged={ragged} and output_mode={output_mode}")
