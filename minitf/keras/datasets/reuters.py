"""`tf.keras.datasets.reuters`: 11,228 newswires labelled with 46 topics (downloaded).

Each newswire is a list of word indices (see `tf.keras.datasets.imdb` for how
they are shifted and limited, and `_sequences`); the label is the topic,
whose name `get_label_names()` gives. The first call downloads `reuters.npz`
into `~/.keras/datasets`; its object arrays are rebuilt without running code
from the file.

>>> tf.keras.datasets.reuters.get_label_names()[:3]
('cocoa', 'grain', 'veg-oil')
"""
import numpy as np

from ...framework.tf_export import tf_export
from ..utils.file_utils import get_file
from ._safe_pickle import load_npz
from ._sequences import drop_long, limit_vocabulary, shift, shuffled
from .imdb import read_word_index
from .mnist import ORIGIN_FOLDER

LABEL_NAMES = (
    "cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing", "money-supply",
    "coffee", "sugar", "trade", "reserves", "ship", "cotton", "carcass", "crude", "nat-gas",
    "cpi", "money-fx", "interest", "gnp", "meal-feed", "alum", "oilseed", "gold", "tin",
    "strategic-metal", "livestock", "retail", "ipi", "iron-steel", "rubber", "heat", "jobs",
    "lei", "bop", "zinc", "orange", "pet-chem", "dlr", "gas", "silver", "wpi", "hog", "lead")


def load_from(path, num_words=None, skip_top=0, maxlen=None, test_split=0.2, seed=113,
              start_char=1, oov_char=2, index_from=3):
    """`load_data` on a local `reuters.npz`."""
    f = load_npz(path)
    xs, labels = shuffled(np.random.RandomState(seed), f["x"], f["y"])
    xs = shift(xs, start_char, index_from)
    if maxlen:
        xs, labels = drop_long(maxlen, xs, labels)
    xs = limit_vocabulary(xs, num_words, skip_top, oov_char)
    idx = int(len(xs) * (1 - test_split))
    return ((np.array(xs[:idx], dtype="object"), np.array(labels[:idx])),
            (np.array(xs[idx:], dtype="object"), np.array(labels[idx:])))


@tf_export("keras.datasets.reuters.load_data")
def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2,
              seed=113, start_char=1, oov_char=2, index_from=3):
    """`(x_train, y_train), (x_test, y_test)`: newswires as object arrays of lists of word
    indices, and int64 topic labels 0..45; `test_split` of them (after the shuffle) for testing.
    The other arguments mean what they mean for `tf.keras.datasets.imdb.load_data`."""
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}reuters.npz",
                    file_hash="d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916")
    return load_from(path, num_words, skip_top, maxlen, test_split, seed, start_char, oov_char,
                     index_from)


@tf_export("keras.datasets.reuters.get_word_index")
def get_word_index(path="reuters_word_index.json"):
    """`{word: rank}` for the Reuters newswires."""
    return read_word_index(get_file(path, origin=f"{ORIGIN_FOLDER}reuters_word_index.json",
                                    file_hash="4d44cc38712099c9e383dc6e5f11a921"))


@tf_export("keras.datasets.reuters.get_label_names")
def get_label_names():
    """The 46 topic names, in label order."""
    return LABEL_NAMES
