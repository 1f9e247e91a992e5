"""`tf.keras.preprocessing.sequence`: time-series windows and word2vec skip-gram pairs.

`TimeseriesGenerator(data, targets, length)` is a `PyDataset` whose batch `i`
holds windows `data[row - length:row:sampling_rate]` with target
`targets[row]`, for rows `start_index + length`, then every `stride` steps:

>>> import numpy as np
>>> gen = tf.keras.preprocessing.sequence.TimeseriesGenerator(
...     np.arange(10), np.arange(10) * 10, length=3, batch_size=2)
>>> len(gen)
4
>>> gen[0]
(array([[0, 1, 2],
       [1, 2, 3]]), array([30, 40]))

`skipgrams(sequence, vocabulary_size)` makes word2vec's training pairs: each
word with each neighbour within `window_size` (label 1), then as many pairs
of a word with a random word of the vocabulary (label 0). It draws with
Python's `random` module, as Keras does (so `random.seed` fixes the negative
pairs; `seed=` fixes only the final shuffle). `make_sampling_table(size)` gives
each word rank the probability of keeping it (frequent words are skipped more).

>>> couples, labels = tf.keras.preprocessing.sequence.skipgrams(
...     [1, 2, 3], 4, window_size=1, negative_samples=0.0, shuffle=False)
>>> couples, labels
([[1, 2], [2, 1], [2, 3], [3, 2]], [1, 1, 1, 1])

Keras marks all three deprecated (use `tf.keras.utils.timeseries_dataset_from_array`
and a `tf.data` pipeline). Keras 3.15's `TimeseriesGenerator.get_config` fails (its
`PyDataset` base has none), so minitf's generator has no `get_config`/`to_json`.

In TensorFlow this is `keras/src/legacy/preprocessing/sequence.py`.
"""
import random

import numpy as np

from ...framework.tf_export import tf_export as _tf_export
from ..utils.py_dataset import PyDataset as _PyDataset


@_tf_export("keras.preprocessing.sequence.TimeseriesGenerator")
class TimeseriesGenerator(_PyDataset):
    """Batches of windows over `data` (axis 0 is time) with the `targets` that follow.

    sampling_rate: keep every r-th step inside a window. stride: rows between windows.
    start_index / end_index: the first and last rows a window may end before / at.
    shuffle: draw `batch_size` random rows (NumPy's global generator) for every batch.
    reverse: windows in reverse time order. **kwargs: PyDataset's `workers`, ...
    """

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0,
                 end_index=None, shuffle=False, reverse=False, batch_size=128, **kwargs):
        super().__init__(**kwargs)
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is "
                             f"{len(data)} while target length is {len(targets)}")
        self.data = data
        self.targets = targets
        self.length = length
        self.sampling_rate = sampling_rate
        self.stride = stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle = shuffle
        self.reverse = reverse
        self.batch_size = batch_size
        if self.start_index > self.end_index:
            raise ValueError(
                f"`start_index+length={self.start_index} > end_index={self.end_index}` is "
                "disallowed, as no part of the sequence would be left to be used as current "
                "step.")

    def __len__(self):
        span = self.batch_size * self.stride
        return (self.end_index - self.start_index + span) // span

    def __getitem__(self, index):
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            i = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(i, min(i + self.batch_size * self.stride, self.end_index + 1),
                             self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate]
                            for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        if self.reverse:
            return samples[:, ::-1, ...], targets
        return samples, targets


@_tf_export("keras.preprocessing.sequence.make_sampling_table")
def make_sampling_table(size, sampling_factor=1e-5):
    """The probability of keeping the word of each rank: word2vec's
    `min(1, sqrt(f / sampling_factor) / (f / sampling_factor))`, with the frequency `f`
    of rank r taken from Zipf's law, `1 / (r (log r + gamma) + 1/2 - 1/(12 r))`.

    >>> tf.keras.preprocessing.sequence.make_sampling_table(4).round(5)
    array([0.00315, 0.00315, 0.00548, 0.00742])
    """
    gamma = 0.577
    rank = np.arange(size)
    rank[0] = 1  # index 0 is not a word; give it rank 1's value
    inv_fq = rank * (np.log(rank) + gamma) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inv_fq
    return np.minimum(1.0, f / np.sqrt(f))


@_tf_export("keras.preprocessing.sequence.skipgrams")
def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True,
              categorical=False, sampling_table=None, seed=None):
    """(couples, labels): [word, neighbour] pairs labelled 1, then
    `int(len(positives) * negative_samples)` [word, random word] pairs labelled 0.

    Index 0 is not a word and is skipped. With `sampling_table`, word `w` is kept
    with probability `sampling_table[w]`. `categorical=True`: labels [0, 1] / [1, 0].
    """
    couples, labels = _positive_pairs(sequence, window_size, categorical, sampling_table)
    if negative_samples > 0:
        num_negative = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, vocabulary_size - 1)]
                    for i in range(num_negative)]
        labels += ([[1, 0]] if categorical else [0]) * num_negative
    if shuffle:  # the same permutation for both lists: reseed between the shuffles
        if seed is None:
            seed = random.randint(0, 10e6)
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels


def _positive_pairs(sequence, window_size, categorical, sampling_table):
    couples, labels = [], []
    for i, wi in enumerate(sequence):
        if not wi:
            continue
        if sampling_table is not None and sampling_table[wi] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([wi, sequence[j]])
                labels.append([0, 1] if categorical else 1)
    return couples, labels
