"""IndexLookup: the shared base of StringLookup and IntegerLookup (Keras 3's design).

A lookup layer numbers the tokens of a vocabulary. The first indices are
special: the mask token (index 0, only in "int" mode and only if
`mask_token` is set), then `num_oov_indices` out-of-vocabulary indices; the
vocabulary's own tokens follow. `adapt(data)` counts tokens and keeps the
most frequent (ties: the token that sorts *last* comes first, as Keras's
`np.lexsort(...)[::-1]` orders them); `set_vocabulary` or `vocabulary=` sets
them directly. The output is the index ("int", int64) or an encoding of
it: "one_hot", "multi_hot", "count" (int64, vocabulary_size wide) or "tf_idf"
(float32: counts times `idf_weights`).

>>> import minitf as tf
>>> layer = tf.keras.layers.StringLookup()
>>> layer.adapt(["b", "a", "c", "a", "b", "d", "a"])
>>> layer.get_vocabulary()
['[UNK]', np.str_('a'), np.str_('b'), np.str_('d'), np.str_('c')]
>>> layer(["a", "zebra", "d"])
<tf.Tensor: shape=(3,), dtype=int64, numpy=array([1, 0, 3])>

A `tf.RaggedTensor` input is looked up row by row; `sparse=True` returns the
encodings as a `tf.SparseTensor`; with `num_oov_indices > 1` an unknown token's
Fingerprint64 (or, with `salt`, its SipHash) picks its OOV index.

The adapted vocabulary is saved with a model as Keras does: a text file
`assets/<layer path>/vocabulary.txt` inside the `.keras` zip (and tf_idf's
weights as the dataset "idf_weights"); a vocabulary given as a list is part of
the config instead.

In TensorFlow this is `keras/src/layers/preprocessing/index_lookup.py`.
"""
import collections
import itertools
import os

import numpy as np

import minitf as tf

from ....framework import dtypes, errors
from ...engine import keras_tensor
from ...engine.base_layer import Layer
from ...saving import object_registration
from . import lookup_table
from .lookup_encoding import encode_categorical, to_sparse

_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")
_INT64_MAX = np.iinfo(np.int64).max


def validate_string_arg(value, allowed, caller, arg_name):
    """Keras's check of an argument that must be one of a few strings."""
    if not (isinstance(value, str) and value in allowed):
        raise ValueError(f"Unknown value for `{arg_name}` argument of {caller}. Allowed "
                         f"values are: {allowed}. Received: {arg_name}={value}")


def listify(x):
    """Tensors and arrays as lists, for a JSON config (Keras's `listify_tensors`)."""
    if isinstance(x, tf.Tensor):
        x = x.numpy()
    return x.tolist() if isinstance(x, np.ndarray) else x



def adapt_batches(data, steps=None):
    """The batches `adapt` reads when `data` is a `tf.data.Dataset` or another iterable of
    batches (at most `steps` of them), or None when `data` is one array, list or tensor."""
    if isinstance(data, tf.data.Dataset):
        return data.take(steps) if steps is not None else data
    if hasattr(data, "__iter__") and not isinstance(data, (list, tuple, np.ndarray, tf.Tensor)):
        return itertools.islice(data, steps)
    return None

class IndexLookup(Layer):
    """Maps tokens to indices through a vocabulary (not exported: see the subclasses)."""

    _allow_non_tensor_positional_args = True  # raw data (lists, strings) in, as Keras 3

    def __init__(self, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary_dtype,
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 sparse=False, pad_to_max_tokens=False, oov_method="floormod", name=None,
                 salt=None, **kwargs):
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        _check_arguments(type(self).__name__, max_tokens, pad_to_max_tokens, num_oov_indices,
                         oov_method, output_mode, invert, sparse, idf_weights)
        salt = _check_salt(salt, vocabulary_dtype, oov_method)
        frozen_size = kwargs.pop("vocabulary_size", None)
        has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        kwargs.pop("trainable", None)
        kwargs.pop("dtype", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword argument(s): {kwargs}")
        super().__init__(name=name)
        self.invert, self.max_tokens, self.num_oov_indices = invert, max_tokens, num_oov_indices
        self.mask_token, self.oov_token, self.output_mode = mask_token, oov_token, output_mode
        self.sparse, self.pad_to_max_tokens = sparse, pad_to_max_tokens
        self.vocabulary_dtype = dtypes.as_dtype(vocabulary_dtype).name
        self.oov_method, self.salt = oov_method, salt
        self._frozen_vocab_size = frozen_size
        self.input_vocabulary = vocabulary if not isinstance(vocabulary, str) else None
        self.input_idf_weights = idf_weights
        self._has_input_vocabulary = has_input_vocabulary
        self._tokens = self._as_token_array([])
        if output_mode == "tf_idf":
            if has_input_vocabulary and idf_weights is None:
                raise ValueError("When specifying the `vocabulary` argument, in TF-IDF output "
                                 "mode, the `idf_weights` argument must also be provided.")
            if idf_weights is not None:
                self._set_idf(np.asarray(listify(idf_weights), np.float32))
        self.lookup_table = self._table([])
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        self.reset_state()

    # --- the special indices ---------------------------------------------------------------
    def _oov_start_index(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start_index(self):
        return self._oov_start_index() + self.num_oov_indices

    def _is_string(self):
        return self.vocabulary_dtype == "string"

    def _as_key(self, token):
        """A token as the tensor holds it: bytes for strings, an int for integers."""
        if self._is_string():
            return token.encode(getattr(self, "encoding", "utf-8")) \
                if isinstance(token, str) else bytes(token)
        return int(token)

    def _as_token_array(self, tokens):
        """Tokens as Keras keeps them: a NumPy array of str (or int64)."""
        if self._is_string():
            return np.array([t.decode(getattr(self, "encoding", "utf-8"))
                             if isinstance(t, bytes) else str(t) for t in tokens], dtype=str)
        return np.array([int(t) for t in tokens], dtype=np.int64)

    def _table(self, tokens):
        """The frozen table for the learned `tokens` (TF's StaticHashTable)."""
        keys = [self._as_key(t) for t in tokens]
        if self.invert:
            default = self._as_key(self.oov_token) if self.oov_token is not None else None
            mask = None if self.mask_token is None else (0, self._as_key(self.mask_token))
            value_dtype = dtypes.as_dtype(self.vocabulary_dtype)
        else:
            default = self._oov_start_index() if self.num_oov_indices == 1 else -1
            mask_value = 0 if self.output_mode == "int" else _INT64_MAX
            mask = None if self.mask_token is None else (self._as_key(self.mask_token),
                                                         mask_value)
            value_dtype = dtypes.int64
        return lookup_table.LookupTable(
            keys, self._token_start_index(), default, mask, self.num_oov_indices,
            self._oov_start_index(), self.oov_method, self.invert, value_dtype,
            None if self.salt is None else tuple(self.salt))

    # --- the vocabulary --------------------------------------------------------------------
    def vocabulary_size(self):
        """The number of indices: the vocabulary plus the mask and OOV indices."""
        return len(self._tokens) + self._token_start_index()

    def get_vocabulary(self, include_special_tokens=True):
        """The token of every index; `include_special_tokens=False` drops mask and OOV."""
        vocab = [self.oov_token] * self._token_start_index() + list(self._tokens)
        if self.mask_token is not None and self.output_mode == "int":
            vocab[0] = self.mask_token
        return vocab if include_special_tokens else vocab[self._token_start_index():]

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Set the vocabulary (a list, array, tensor, or a text file with one token a line)
        and, in "tf_idf" mode, its `idf_weights`, replacing what the layer had."""
        if self.output_mode == "tf_idf" and idf_weights is None:
            raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        if self.output_mode != "tf_idf" and idf_weights is not None:
            raise ValueError("`idf_weights` should only be set if output_mode is `'tf_idf'`. "
                             f"Received: output_mode={self.output_mode} and "
                             f"idf_weights={idf_weights}")
        if isinstance(vocabulary, str):
            self._set_vocabulary_file(vocabulary)
            return
        vocabulary = self._as_token_array(listify(vocabulary))
        if vocabulary.size == 0:
            raise ValueError(f"Cannot set an empty vocabulary. Received: vocabulary={vocabulary}")
        token_start = self._token_start_index()
        special = [self.mask_token] * self._oov_start_index() + \
            [self.oov_token] * self.num_oov_indices
        found_special = np.array_equal(np.array(special, dtype=vocabulary.dtype),
                                       vocabulary[:token_start])
        tokens = vocabulary[token_start:] if found_special else vocabulary
        _check_tokens(self, vocabulary, tokens, special)
        self._install(tokens)
        if self.output_mode == "tf_idf":
            self._set_input_idf(vocabulary, idf_weights, found_special)

    def _set_input_idf(self, vocabulary, idf_weights, found_special):
        weights = np.asarray(listify(idf_weights))
        if len(vocabulary) != len(weights):
            raise ValueError("`idf_weights` must be the same length as vocabulary. "
                             f"len(idf_weights) is {len(weights)}; len(vocabulary) is "
                             f"{len(vocabulary)}")
        if weights.ndim != 1:
            raise ValueError("TF-IDF data must be a 1-index array. Received: "
                             f"type(idf_weights)={type(idf_weights)}")
        front = 0 if found_special else self._token_start_index()
        front_value = 0 if found_special else np.average(weights)
        back = self.max_tokens - front - len(weights) \
            if self.pad_to_max_tokens and self.max_tokens is not None else 0
        self._set_idf(np.pad(weights, (front, back), "constant",
                             constant_values=(front_value, 0)).astype(np.float32))

    def _set_vocabulary_file(self, path):
        if getattr(object_registration._state, "safe_mode", None) is True:  # inside load_model
            raise ValueError(
                "Requested the loading of a vocabulary file outside of the model archive. This "
                "carries a potential risk of loading arbitrary and sensitive files and thus it "
                "is disallowed by default. If you trust the source of the artifact, you can "
                "override this error by passing `safe_mode=False` to the loading function, or "
                "calling `keras.config.enable_unsafe_deserialization(). Vocabulary file: "
                f"'{path}'")
        if not os.path.exists(path):
            raise ValueError(f"Vocabulary file {path} does not exist.")
        if self.output_mode == "tf_idf":
            raise ValueError("output_mode `'tf_idf'` does not support loading a vocabulary "
                             "from file.")
        with open(path, "rb") as f:  # one token a line, as TF's TextFileInitializer reads it
            lines = f.read().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        seen = {}
        for number, line in enumerate(lines):
            if line in seen:  # TF's table initializer refuses a second value for a key
                start = self._token_start_index()
                raise errors.FailedPreconditionError(
                    None, "InitializeTableFromTextFileV2", "HashTable has different value for "
                    f"same key. Key {line.decode(errors='replace')} has {seen[line] + start} "
                    f"and trying to add value {number + start} "
                    f"[Op:InitializeTableFromTextFileV2] Line {number + 1} of {path} repeats "
                    "a token; a vocabulary file lists each token once.")
            seen[line] = number
        self._install(self._as_token_array(lines))

    def _install(self, tokens):
        size = self._token_start_index() + len(tokens)
        if self.max_tokens is not None and size > self.max_tokens:
            raise ValueError("Attempted to set a vocabulary larger than the maximum vocab "
                             f"size. Received vocabulary size is {size}; `max_tokens` is "
                             f"{self.max_tokens}.")
        self._tokens = tokens
        self.lookup_table = self._table(tokens)
        self._record_vocabulary_size()

    def _set_idf(self, weights):
        """tf_idf's weights: a tf.Variable Keras does not track (not in `layer.weights`)."""
        variable = tf.Variable(weights, dtype=tf.float32, trainable=False)
        object.__setattr__(self, "idf_weights", variable)
        object.__setattr__(self, "idf_weights_const", variable.value())

    def _record_vocabulary_size(self):
        size = self.vocabulary_size()
        if self.output_mode != "int" and not self.pad_to_max_tokens and \
                self._frozen_vocab_size is not None and size != self._frozen_vocab_size:
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, "
                "the vocabulary size cannot be changed after the layer is called. Old vocab "
                f"size is {self._frozen_vocab_size}, new vocab size is {size}")
        self._frozen_vocab_size = size

    # --- adapt -----------------------------------------------------------------------------
    def adapt(self, data, steps=None):
        """Learn the vocabulary from `data`: an array, a list, a tensor, a `tf.data.Dataset`
        (of batches) or another iterable of batches; `steps` limits the batches read."""
        self.reset_state()
        batches = adapt_batches(data, steps)
        if batches is not None:
            for batch in batches:
                self.update_state(batch)
        else:
            data = self._ensure_array(data)
            self.update_state(data[:, None] if data.ndim == 1 else data)
        self.finalize_state()

    def _ensure_array(self, data):
        if isinstance(data, tf.Tensor):
            data = data.numpy()
        if self._is_string():
            data = np.asarray(data, dtype=object)
            return np.vectorize(self._as_key, otypes=[object])(data) if data.size else data
        return np.asarray(data).astype(np.int64)

    def update_state(self, data):
        """Count the tokens of one batch (each row of a 2-D batch is one document)."""
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}' after setting a static "
                             "vocabulary via `vocabulary` argument or `set_vocabulary()` "
                             "method.")
        if isinstance(data, tf.RaggedTensor):  # rows of different lengths: one per document
            documents = [self._ensure_array(row) for row in data.to_list()]
        else:
            data = self._ensure_array(data)
            documents = list(data.reshape(1, -1) if data.ndim < 2 else data)
        for document in documents:
            self._token_counts.update(np.ravel(document).tolist())
        if self.output_mode == "tf_idf":
            for document in documents:
                self._document_counts.update(set(np.ravel(document).tolist()))
            self._num_documents += len(documents)

    def finalize_state(self):
        """Keep the most frequent tokens (after `update_state` calls) as the vocabulary."""
        if self._has_input_vocabulary or not self._token_counts:
            self._record_vocabulary_size()
            return
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                self._token_counts.pop(self._as_key(special), None)
        ranked = sorted(self._token_counts.items(), key=lambda kv: (kv[1], kv[0]),
                        reverse=True)  # by count, ties: the larger token first
        if self.max_tokens:
            ranked = ranked[:self.max_tokens - self._token_start_index()]
        keys = [k for k, _ in ranked]
        self._tokens = self._as_token_array(keys)
        self.lookup_table = self._table(self._tokens)
        if self.output_mode == "tf_idf":
            self._set_idf(self._learned_idf(keys))
        self.reset_state()
        self._record_vocabulary_size()

    def _learned_idf(self, keys):
        """log(1 + documents / (1 + documents holding the token)), the OOV slots the mean."""
        counts = np.array([self._document_counts[k] for k in keys], dtype=np.int64)
        idf = np.log(1 + self._num_documents / (1 + counts)).astype(np.float32)
        idf = np.pad(idf, (self._token_start_index(), 0), constant_values=np.mean(idf))
        if self.pad_to_max_tokens and self.max_tokens is not None:
            idf = np.pad(idf, (0, self.max_tokens - idf.size), constant_values=0)
        return idf

    def reset_state(self):
        """Forget the counts of an unfinished `adapt`."""
        object.__setattr__(self, "_token_counts", collections.Counter())
        object.__setattr__(self, "_document_counts", collections.Counter())
        object.__setattr__(self, "_num_documents", 0)

    # --- call ------------------------------------------------------------------------------
    def _key_dtype(self):
        return tf.int64 if self.invert else dtypes.as_dtype(self.vocabulary_dtype)

    def _ensure_tensor(self, inputs):
        inputs = tf.convert_to_tensor(inputs)
        key_dtype = self._key_dtype()
        if inputs.dtype != key_dtype:
            if inputs.dtype == tf.string or key_dtype == tf.string or inputs.dtype == tf.bool:
                raise TypeError(f"{type(self).__name__} '{self.name}' looks up {key_dtype.name} "
                                f"values, but received {inputs.dtype.name} inputs. Convert them "
                                f"first (tf.strings.as_string, tf.cast), or use "
                                f"{'IntegerLookup' if self._is_string() else 'StringLookup'}.")
            if inputs.dtype.is_floating and tf.executing_eagerly() and \
                    np.any(np.mod(inputs.numpy(), 1) != 0):  # Keras would truncate: refuse
                raise ValueError(f"{type(self).__name__} '{self.name}' received the non-integer "
                                 f"ids {inputs.numpy()[np.mod(inputs.numpy(), 1) != 0][:3]}; "
                                 "Keras casts floats to int64, which would truncate them. Round "
                                 "or fix these values first.")
            inputs = tf.cast(inputs, key_dtype)  # e.g. float ids read from a CSV, as Keras
        return inputs

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, (str, bytes, list, tuple, np.ndarray)):  # tokens, not a structure
            inputs = tf.convert_to_tensor(inputs)
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs):
        self._ensure_known_vocab_size()
        if isinstance(inputs, tf.RaggedTensor):
            return self._call_ragged(inputs)
        inputs = self._ensure_tensor(inputs)
        scalar = inputs.shape.rank == 0
        if scalar:
            inputs = tf.expand_dims(inputs, -1)
        ids = lookup_table.lookup(inputs, self.lookup_table)
        if self.output_mode == "int":
            return tf.squeeze(ids, -1) if scalar else ids
        return self._encode(ids)

    def _encode(self, ids):
        """Indices as one_hot/multi_hot/count vectors, or counts times idf (tf_idf)."""
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        if self.output_mode != "tf_idf":
            return encode_categorical(ids, self.output_mode, depth, tf.int64, self.sparse)
        counts = encode_categorical(ids, "count", depth, tf.int64)
        output = tf.cast(counts, tf.float32) * self.idf_weights_const
        return to_sparse(output) if self.sparse else output  # (TF 2.21 fails here if sparse)

    def _call_ragged(self, inputs):
        """A RaggedTensor's values are looked up row by row (Keras's map_flat_values);
        multi_hot/count/tf_idf see each row's tokens, and one_hot gives a ragged batch."""
        ids = lookup_table.lookup(self._ensure_tensor(inputs.flat_values), self.lookup_table)
        if self.output_mode == "int":
            return inputs.with_flat_values(ids)
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        if self.output_mode == "one_hot":
            return inputs.with_flat_values(tf.one_hot(ids, depth, dtype=tf.int64))
        return self._encode(inputs.with_flat_values(ids).to_tensor(default_value=-1))  # -1: none

    def _ensure_known_vocab_size(self):
        if self.output_mode != "int" and not self.pad_to_max_tokens and \
                self._frozen_vocab_size is None:
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, "
                "you must set the layer's vocabulary before calling it. Either pass a "
                "`vocabulary` argument to the layer, or call `adapt` with some sample data.")

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        input_shape = tuple(input_shape)
        if self.output_mode == "one_hot":
            if len(input_shape) > 1 and input_shape[-1] == 1:
                return input_shape[:-1] + (depth,)
            return input_shape + (depth,)
        return input_shape[:-1] + (depth,)

    def compute_output_spec(self, inputs, *args, **kwargs):
        """Keras 3 declares int64 in "int" mode (even inverted) and float32 otherwise."""
        dtype = "int64" if self.output_mode == "int" else "float32"
        return keras_tensor.KerasTensor(self.compute_output_shape(inputs.shape), dtype)

    # --- config and saving -----------------------------------------------------------------
    def get_config(self):
        config = super().get_config()
        config.update({
            "invert": self.invert, "max_tokens": self.max_tokens,
            "num_oov_indices": self.num_oov_indices, "oov_token": self.oov_token,
            "mask_token": self.mask_token, "output_mode": self.output_mode,
            "sparse": self.sparse, "pad_to_max_tokens": self.pad_to_max_tokens,
            "vocabulary_dtype": self.vocabulary_dtype,
            "idf_weights": listify(self.input_idf_weights),
            "vocabulary": listify(self.input_vocabulary),
            "vocabulary_size": self._frozen_vocab_size,
            "oov_method": self.oov_method, "salt": self.salt})
        return config

    def save_own_variables(self, store):
        """tf_idf's weights go into the weights file as the dataset 'idf_weights'."""
        if self.output_mode == "tf_idf":
            store["idf_weights"] = self.idf_weights_const.numpy()

    def load_own_variables(self, store):
        if self.output_mode == "tf_idf":
            self._set_idf(np.asarray(store["idf_weights"], np.float32))

    def save_assets(self, dir_path):
        """An adapted vocabulary is written to `vocabulary.txt`, one token a line."""
        if self.input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(str(w) for w in self.get_vocabulary(include_special_tokens=True)))

    def load_assets(self, dir_path):
        if self.input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        values = [str(line) for line in lines] if self._is_string() else \
            [int(line) for line in lines]
        idf = self.idf_weights_const.numpy() if self.output_mode == "tf_idf" else None
        self.set_vocabulary(values, idf_weights=idf)


def _check_arguments(caller, max_tokens, pad_to_max_tokens, num_oov_indices, oov_method,
                     output_mode, invert, sparse, idf_weights):
    """Keras's constructor checks, in Keras's order and words."""
    if max_tokens is not None and max_tokens <= 1:
        raise ValueError("If set, `max_tokens` must be greater than 1. Received: "
                         f"max_tokens={max_tokens}")
    if pad_to_max_tokens and max_tokens is None:
        raise ValueError("If pad_to_max_tokens is True, must set `max_tokens`. Received: "
                         f"max_tokens={max_tokens}")
    if num_oov_indices < 0:
        raise ValueError("`num_oov_indices` must be greater than or equal to 0. Received: "
                         f"num_oov_indices={num_oov_indices}")
    validate_string_arg(oov_method, ("floormod", "farmhash"), caller, "oov_method")
    validate_string_arg(output_mode, _MODES, caller, "output_mode")
    if invert and output_mode != "int":
        raise ValueError("`output_mode` must be `'int'` when `invert` is true. Received: "
                         f"output_mode={output_mode}")
    if sparse and output_mode == "int":
        raise ValueError("`sparse` may only be true if `output_mode` is `'one_hot'`, "
                         "`'multi_hot'`, `'count'` or `'tf_idf'`. Received: "
                         f"sparse={sparse} and output_mode={output_mode}")
    if idf_weights is not None and output_mode != "tf_idf":
        raise ValueError("`idf_weights` should only be set if `output_mode` is `'tf_idf'`. "
                         f"Received: idf_weights={idf_weights} and output_mode={output_mode}")


def _check_salt(salt, vocabulary_dtype, oov_method):
    """`salt` as Keras keeps it: None or [k0, k1] (the SipHash keys of OOV hashing)."""
    if salt is None:
        return None
    if dtypes.as_dtype(vocabulary_dtype).is_integer and oov_method != "farmhash":
        raise ValueError("`salt` can only be used when `oov_method='farmhash'`. Received: "
                         f"oov_method={oov_method}")
    if isinstance(salt, (tuple, list)) and len(salt) == 2:
        return list(salt)
    if isinstance(salt, int):
        return [salt, salt]
    raise ValueError("The `salt` argument for `IndexLookup` can only be a tuple of 2 "
                     f"integers, or a single integer. Received: salt={salt}.")


def _check_tokens(layer, vocabulary, tokens, special):
    """No token twice; the mask/OOV tokens only at the start, in order (Keras's checks)."""
    repeated = [t for t, n in collections.Counter(tokens).items() if n > 1]
    if repeated:
        raise ValueError("The passed vocabulary has at least one repeated term. Please "
                         f"uniquify your dataset. The repeated terms are: {repeated}")
    listed = tokens.tolist()
    if layer.mask_token is not None and layer.mask_token in listed:
        index = np.argwhere(vocabulary == layer.mask_token)[-1]
        raise ValueError(
            "Found reserved mask token at unexpected location in `vocabulary`. Note that "
            "passed `vocabulary` does not need to include the OOV and mask tokens. Either "
            "remove all mask and OOV tokens, or include them only at the start of the "
            f"vocabulary in precisely this order: {special}. Received: "
            f"mask_token={layer.mask_token} at vocabulary index {index}")
    if layer.oov_token is not None and layer.invert and layer.oov_token in listed:
        index = np.argwhere(vocabulary == layer.oov_token)[-1]
        raise ValueError(
            "Found reserved OOV token at unexpected location in `vocabulary`. Note that "
            "passed `vocabulary` does not need to include the OOV and mask tokens. Either "
            "remove all mask and OOV tokens, or include them only at the start of the "
            f"vocabulary in precisely this order: {special}. Received: "
            f"oov_token={layer.oov_token} at vocabulary index {index}")
