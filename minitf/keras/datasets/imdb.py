"""`tf.keras.datasets.imdb`: 50,000 movie reviews labelled by sentiment (downloaded).

Each review is a list of word indices, words ranked by frequency over the
whole dataset; label 1 is a positive review, 0 a negative one. The first call
downloads `imdb.npz` into `~/.keras/datasets`; its object arrays are pickles,
rebuilt without running code from the file (`_safe_pickle`). How indices are
shifted and the vocabulary limited: `_sequences`. For a review set that needs
no network, see `tf.keras.datasets.reviews` (minitf's own, generated).
"""
import json
import warnings

import numpy as np

from ...framework.tf_export import tf_export
from ..utils.file_utils import get_file
from ._safe_pickle import load_npz
from ._sequences import drop_long, limit_vocabulary, shift, shuffled
from .mnist import ORIGIN_FOLDER


def load_from(path, num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1,
              oov_char=2, index_from=3):
    """`load_data` on a local `imdb.npz`."""
    f = load_npz(path)
    rng = np.random.RandomState(seed)
    x_train, labels_train = shuffled(rng, f["x_train"], f["y_train"])
    x_test, labels_test = shuffled(rng, f["x_test"], f["y_test"])
    x_train = shift(x_train, start_char, index_from)
    x_test = shift(x_test, start_char, index_from)
    if maxlen:
        x_train, labels_train = drop_long(maxlen, x_train, labels_train)
        x_test, labels_test = drop_long(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, "
                             "no sequence was kept. Increase maxlen.")
    xs = limit_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    idx = len(x_train)
    return ((np.array(xs[:idx], dtype="object"), labels[:idx]),
            (np.array(xs[idx:], dtype="object"), labels[idx:]))


@tf_export("keras.datasets.imdb.load_data")
def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113,
              start_char=1, oov_char=2, index_from=3, **kwargs):
    """`(x_train, y_train), (x_test, y_test)`: 25,000 + 25,000 reviews as object arrays of
    lists of word indices, and their 0/1 labels.

    Args:
      path: the file name to cache the dataset under (in `~/.keras/datasets`).
      num_words: keep only the `num_words` most frequent words (others become `oov_char`).
      skip_top: also replace the `skip_top` most frequent words (like "the") by `oov_char`.
      maxlen: drop reviews with `maxlen` words or more.
      seed: the seed of the shuffle.
      start_char: the index put at the start of every review (1).
      oov_char: the index of a word cut by `num_words`/`skip_top` (2); None drops such words.
      index_from: added to every word's rank (3), so 0, 1 and 2 stay free.
    """
    if kwargs:  # Keras accepts and ignores them ("for backwards compatibility"); say so
        warnings.warn(f"imdb.load_data ignores the keyword arguments {sorted(kwargs)}; "
                      "check their spelling against the arguments listed in its docstring.",
                      stacklevel=2)
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}imdb.npz",
                    file_hash="69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f")
    return load_from(path, num_words, skip_top, maxlen, seed, start_char, oov_char, index_from)


def read_word_index(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@tf_export("keras.datasets.imdb.get_word_index")
def get_word_index(path="imdb_word_index.json"):
    """`{word: rank}` for the IMDB reviews (add `index_from` to find a word in a review)."""
    return read_word_index(get_file(fname=path, origin=f"{ORIGIN_FOLDER}imdb_word_index.json",
                                    file_hash="bfafd718b763782e994055a2d397834f"))
