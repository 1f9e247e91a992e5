"""`tf.keras.datasets.reviews`: generated movie reviews in IMDB's format (a minitf extra).

`tf.keras.datasets.imdb` downloads 50,000 real reviews. minitf generates short
English-like reviews from a 40-word vocabulary instead, deterministically, in
exactly IMDB's format: each review is a list of word indices, starting with
`start_char` (1), unknown words become `oov_char` (2), real words start at
`index_from` (3); the label is 1 for a positive review, 0 for a negative one.
The label is the sign of the review's sentiment words, and "not" flips the
word after it - so word ORDER matters, which is what recurrent layers and
attention can learn and a bag of words cannot fully.

>>> (x_train, y_train), (x_test, y_test) = tf.keras.datasets.reviews.load_data()
>>> len(x_train), len(x_test), x_train.dtype, y_train.dtype
(1000, 1000, dtype('O'), dtype('int64'))
>>> x_train[0][0]
1
>>> index = tf.keras.datasets.reviews.get_word_index()
>>> words = {rank + 3: word for word, rank in index.items()}
>>> text = " ".join(words[i] for i in x_train[0][1:])
>>> isinstance(text, str)
True
"""
import numpy as np

from ...framework.tf_export import tf_export
from ._shipped import check_test_split

# Words in rank order (rank 1 first), the way IMDB's word index ranks by frequency.
_NEUTRAL = ("the", "movie", "was", "and", "a", "film", "plot", "acting", "it", "story", "i",
            "this", "of", "actors", "music", "ending", "is", "very", "quite", "really", "scenes",
            "director", "script", "cast")
_POSITIVE = ("good", "great", "wonderful", "funny", "moving", "brilliant", "enjoyable")
_NEGATIVE = ("bad", "boring", "awful", "dull", "weak", "terrible", "clumsy")
_NEGATION = "not"
_VOCABULARY = _NEUTRAL[:4] + (_NEGATION,) + _NEUTRAL[4:] + _POSITIVE + _NEGATIVE
_POLARITY = {**{w: 1 for w in _POSITIVE}, **{w: -1 for w in _NEGATIVE}}


@tf_export("keras.datasets.reviews.get_word_index")
def get_word_index():
    """`{word: rank}` with ranks from 1, like `tf.keras.datasets.imdb.get_word_index()`.

    In the sequences a word appears as `rank + index_from` (3 by default).

    >>> index = tf.keras.datasets.reviews.get_word_index()
    >>> index["the"], len(index)
    (1, 39)
    """
    return {word: rank for rank, word in enumerate(_VOCABULARY, start=1)}


def _one_review(rng, min_words, max_words):
    """(list of words, label): neutral filler with sentiment words, some negated."""
    while True:
        words, score = [], 0
        for _ in range(rng.randint(min_words, max_words + 1)):
            if rng.rand() < 0.25:
                word = _POSITIVE[rng.randint(len(_POSITIVE))] if rng.rand() < 0.5 \
                    else _NEGATIVE[rng.randint(len(_NEGATIVE))]
                sign = _POLARITY[word]
                if rng.rand() < 0.3:
                    words.append(_NEGATION)
                    sign = -sign
                words.append(word)
                score += sign
            else:
                words.append(_NEUTRAL[rng.randint(len(_NEUTRAL))])
        if score != 0:
            return words, int(score > 0)


@tf_export("keras.datasets.reviews.load_data")
def load_data(num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1, oov_char=2,
              index_from=3, num_samples=2000, test_split=0.5, min_words=6, max_words=24):
    """Generate reviews: `(x_train, y_train), (x_test, y_test)`, IMDB's format.

    `num_words`, `skip_top`, `maxlen`, `start_char`, `oov_char` and
    `index_from` mean what they mean for `tf.keras.datasets.imdb.load_data`:
    keep the `num_words` most frequent words (others become `oov_char`), also
    mark the `skip_top` most frequent as `oov_char`, drop reviews longer than
    `maxlen`. `num_samples`, `test_split`, `min_words` and `max_words` size the
    generated set (IMDB itself has 25,000 + 25,000 reviews).

    Returns `x_*` as NumPy object arrays of Python lists of ints (make them one
    array with `tf.keras.utils.pad_sequences`) and `y_*` as int64 arrays of 0/1
    labels.

    >>> (x, y), _ = tf.keras.datasets.reviews.load_data(num_words=5, num_samples=20)
    >>> max(max(review) for review in x) < 5
    True
    """
    check_test_split(test_split)
    rng = np.random.RandomState(seed)
    index = get_word_index()
    sequences, labels = [], []
    for _ in range(int(num_samples)):
        words, label = _one_review(rng, min_words, max_words)
        sequence = [start_char] if start_char is not None else []
        for word in words:
            rank = index[word]
            code = rank + index_from
            keep = rank > skip_top and (num_words is None or code < num_words)
            sequence.append(code if keep else oov_char)
        if maxlen is None or len(sequence) <= maxlen:
            sequences.append(sequence)
            labels.append(label)
    if not sequences:
        raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, no "
                         "sequence was kept. Increase maxlen.")
    x = np.empty(len(sequences), dtype=object)
    x[:] = sequences
    y = np.array(labels, dtype="int64")
    cut = int(len(x) * (1 - test_split))
    return (x[:cut], y[:cut]), (x[cut:], y[cut:])
