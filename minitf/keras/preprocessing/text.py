"""`tf.keras.preprocessing.text`: Keras 1's word splitting, hashing and `Tokenizer`.

`text_to_word_sequence` lower-cases, turns every character of `filters`
(punctuation, tabs, newlines) into `split`, and splits:

>>> tf.keras.preprocessing.text.text_to_word_sequence("Hello, World! A-b")
['hello', 'world', 'a', 'b']

`hashing_trick(text, n)` maps each word to `hash(word) % (n - 1) + 1` (0 stays
free for padding); `one_hot` is the same with Python's `hash`, which changes
from one Python process to the next unless `PYTHONHASHSEED` is set - use
`hash_function="md5"` for stable indices:

>>> tf.keras.preprocessing.text.hashing_trick("the cat the", 10, hash_function="md5")
[6, 3, 6]

`Tokenizer` learns a vocabulary (`fit_on_texts`): word indices from 1 in order
of decreasing count (ties in order of first appearance), `oov_token` first
if given; it turns texts into index lists and into matrices (binary, count,
freq, tfidf).

>>> tok = tf.keras.preprocessing.text.Tokenizer(oov_token="<?>")
>>> tok.fit_on_texts(["the cat sat", "the dog"])
>>> tok.word_index
{'<?>': 1, 'the': 2, 'cat': 3, 'sat': 4, 'dog': 5}
>>> tok.texts_to_sequences(["the bird sat"])
[[2, 1, 4]]

Keras marks these deprecated (the `TextVectorization` layer replaces them).

In TensorFlow this is `keras/src/legacy/preprocessing/text.py`.
"""
import collections
import hashlib
import json
import warnings

import numpy as np

from ...framework.tf_export import tf_export

FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


@tf_export("keras.preprocessing.text.text_to_word_sequence")
def text_to_word_sequence(input_text, filters=FILTERS, lower=True, split=" "):
    """The words of `input_text`: filtered characters become `split`, empty words dropped."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in input_text.split(split) if word]


@tf_export("keras.preprocessing.text.one_hot")
def one_hot(input_text, n, filters=FILTERS, lower=True, split=" ", analyzer=None):
    """`hashing_trick` with Python's `hash` (not stable across processes).

    >>> len(tf.keras.preprocessing.text.one_hot("a b a", 5))
    3
    """
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower,
                         split=split, analyzer=analyzer)


def _md5(word):
    return int(hashlib.md5(word.encode()).hexdigest(), 16)


@tf_export("keras.preprocessing.text.hashing_trick")
def hashing_trick(text, n, hash_function=None, filters=FILTERS, lower=True, split=" ",
                  analyzer=None):
    """Each word as `hash_function(word) % (n - 1) + 1`: an index in [1, n).

    hash_function: None (Python's `hash`), "md5", or a function of a string.
    analyzer: a function text -> words, instead of `text_to_word_sequence`.
    """
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        hash_function = _md5
    words = analyzer(text) if analyzer is not None else \
        text_to_word_sequence(text, filters=filters, lower=lower, split=split)
    return [hash_function(w) % (n - 1) + 1 for w in words]


@tf_export("keras.preprocessing.text.Tokenizer")
class Tokenizer:
    """A word (or character) vocabulary, fitted on texts; see the module docstring.

    num_words: use only the `num_words - 1` most frequent words when converting.
    char_level: every character is a token. oov_token: stands for unknown words.
    """

    def __init__(self, num_words=None, filters=FILTERS, lower=True, split=" ",
                 char_level=False, oov_token=None, analyzer=None, **kwargs):
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed "
                          "`num_words`.")
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {str(kwargs)}")
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.filters = filters
        self.split = split
        self.lower = lower
        self.num_words = num_words
        self.document_count = document_count
        self.char_level = char_level
        self.oov_token = oov_token
        self.index_docs = collections.defaultdict(int)
        self.word_index = {}
        self.index_word = {}
        self.analyzer = analyzer

    def _tokens(self, text):
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, filters=self.filters, lower=self.lower,
                                     split=self.split)

    def fit_on_texts(self, texts):
        """Count words (and the documents they occur in); rebuild `word_index`."""
        for text in texts:
            self.document_count += 1
            seq = self._tokens(text)
            for w in seq:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(seq):
                self.word_docs[w] += 1
        counts = sorted(self.word_counts.items(), key=lambda x: x[1], reverse=True)
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + \
            [word for word, _ in counts]
        self.word_index = dict(zip(vocabulary, range(1, len(vocabulary) + 1)))
        self.index_word = {c: w for w, c in self.word_index.items()}
        for w, c in list(self.word_docs.items()):
            self.index_docs[self.word_index[w]] = c

    def fit_on_sequences(self, sequences):
        """Count documents per index, for `sequences_to_matrix(mode="tfidf")`."""
        self.document_count += len(sequences)
        for seq in sequences:
            for i in set(seq):
                self.index_docs[i] += 1

    def texts_to_sequences(self, texts):
        """Each text as a list of word indices (unknown words: oov index, or dropped)."""
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        oov_index = self.word_index.get(self.oov_token)
        for text in texts:
            vect = []
            for w in self._tokens(text):
                i = self.word_index.get(w)
                if i is None:
                    if self.oov_token is not None:
                        vect.append(oov_index)
                elif not (self.num_words and i >= self.num_words):
                    vect.append(i)
                elif oov_index is not None:  # a word beyond the num_words - 1 kept
                    vect.append(oov_index)
            yield vect

    def sequences_to_texts(self, sequences):
        """Each index list as a text (words joined by spaces).

        >>> tok = tf.keras.preprocessing.text.Tokenizer()
        >>> tok.fit_on_texts(["a b b"])
        >>> tok.sequences_to_texts([[1, 2, 9]])
        ['b a']
        """
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        oov_index = self.word_index.get(self.oov_token)
        for seq in sequences:
            vect = []
            for num in seq:
                word = self.index_word.get(num)
                if word is None:
                    if self.oov_token is not None:
                        vect.append(self.index_word[oov_index])
                elif not (self.num_words and num >= self.num_words):
                    vect.append(word)
                elif oov_index is not None:
                    vect.append(self.index_word[oov_index])
            yield " ".join(vect)

    def texts_to_matrix(self, texts, mode="binary"):
        """`sequences_to_matrix(texts_to_sequences(texts), mode)`."""
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """A (len(sequences), num_words) float64 matrix; mode: binary, count, freq, tfidf.

        >>> tok = tf.keras.preprocessing.text.Tokenizer(num_words=4)
        >>> tok.sequences_to_matrix([[1, 1, 3]], mode="count")
        array([[0., 2., 0., 1.]])
        """
        num_words = self._matrix_width()
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        x = np.zeros((len(sequences), num_words))
        for i, seq in enumerate(sequences):
            if not seq:
                continue
            counts = collections.defaultdict(int)
            for j in seq:
                if j < num_words:
                    counts[j] += 1
            for j, c in list(counts.items()):
                x[i][j] = self._matrix_value(mode, c, len(seq), j)
        return x

    def _matrix_width(self):
        if self.num_words:
            return self.num_words
        if self.word_index:
            return len(self.word_index) + 1
        raise ValueError("Specify a dimension (`num_words` argument), or fit on some text "
                         "data first.")

    def _matrix_value(self, mode, count, length, j):
        if mode == "count":
            return count
        if mode == "freq":
            return count / length
        if mode == "binary":
            return 1
        if mode == "tfidf":
            tf = 1 + np.log(count)
            idf = np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
            return tf * idf
        raise ValueError("Unknown vectorization mode:", mode)

    def get_config(self):
        """The settings, and the learned counts and indices as JSON strings."""
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower,
                "split": self.split, "char_level": self.char_level,
                "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts),
                "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs),
                "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs):
        """`{"class_name": "Tokenizer", "config": get_config()}` as JSON (`json.dumps`
        keyword arguments pass through); `tokenizer_from_json` reads it back."""
        return json.dumps({"class_name": self.__class__.__name__,
                           "config": self.get_config()}, **kwargs)


@tf_export("keras.preprocessing.text.tokenizer_from_json")
def tokenizer_from_json(json_string):
    """The `Tokenizer` a `to_json` string describes (its vocabulary included).

    >>> tok = tf.keras.preprocessing.text.Tokenizer()
    >>> tok.fit_on_texts(["x y y"])
    >>> tf.keras.preprocessing.text.tokenizer_from_json(tok.to_json()).word_index
    {'y': 1, 'x': 2}
    """
    config = dict(json.loads(json_string).get("config"))
    word_counts = json.loads(config.pop("word_counts"))
    word_docs = json.loads(config.pop("word_docs"))
    index_docs = {int(k): v for k, v in json.loads(config.pop("index_docs")).items()}
    index_word = {int(k): v for k, v in json.loads(config.pop("index_word")).items()}
    word_index = json.loads(config.pop("word_index"))
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = word_counts
    tokenizer.word_docs = word_docs
    tokenizer.index_docs = index_docs
    tokenizer.word_index = word_index
    tokenizer.index_word = index_word
    return tokenizer
