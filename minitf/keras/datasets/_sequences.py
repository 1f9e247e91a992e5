"""The word-index bookkeeping IMDB and Reuters share (Keras's `load_data` rules).

Each text is a list of word ranks (1 = most frequent word). `load_data`
shuffles the texts with `np.random.RandomState(seed)`, then:

1. `shift`: adds `index_from` to every rank and puts `start_char` in front,
   keeping 0 for padding, 1 for "start" and 2 for "out of vocabulary";
2. `drop_long`: drops texts with `maxlen` words or more (and their labels);
3. `limit_vocabulary`: a word outside `[skip_top, num_words)` becomes
   `oov_char` (or is dropped when `oov_char` is None).

>>> xs = shift([[1, 2], [3]], start_char=1, index_from=3)
>>> xs
[[1, 4, 5], [1, 6]]
>>> drop_long(3, xs, [0, 1])
([[1, 6]], [1])
>>> limit_vocabulary(xs, num_words=5, skip_top=0, oov_char=2)
[[1, 4, 2], [1, 2]]
"""
import numpy as np


def shuffled(rng, *arrays):
    """The arrays, all reordered by one permutation drawn from `rng` (a RandomState)."""
    indices = np.arange(len(arrays[0]))
    rng.shuffle(indices)
    return [a[indices] for a in arrays]


def shift(xs, start_char, index_from):
    if start_char is not None:
        return [[start_char] + [w + index_from for w in x] for x in xs]
    if index_from:
        return [[w + index_from for w in x] for x in xs]
    return [list(x) for x in xs]


def drop_long(maxlen, xs, labels):
    """Only the texts shorter than `maxlen` words, with their labels (Keras's remove_long_seq)."""
    kept = [(x, y) for x, y in zip(xs, labels) if len(x) < maxlen]
    return [x for x, _ in kept], [y for _, y in kept]


def limit_vocabulary(xs, num_words, skip_top, oov_char):
    if not num_words:
        num_words = max(max(x) for x in xs)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    return [[w for w in x if skip_top <= w < num_words] for x in xs]
