"""Reading CIFAR's "python version" batches: pickled dicts of uint8 rows.

Each batch file is a pickle of `{b"data": uint8 array (n, 3072), b"labels": [...],
...}` - the 3072 bytes are 1024 red, then green, then blue pixels of a 32×32
image. `load_batch` rebuilds it with `RestrictedUnpickler` (no code from the
file runs) and returns images `(n, 3, 32, 32)` and their labels.

>>> import os, pickle, tempfile, numpy as np
>>> path = os.path.join(tempfile.mkdtemp(), "test_batch")
>>> with open(path, "wb") as f:
...     pickle.dump({b"data": np.zeros((2, 3072), np.uint8), b"labels": [4, 2]}, f)
>>> images, labels = load_batch(path)
>>> images.shape, labels
((2, 3, 32, 32), [4, 2])
"""
import numpy as np

from ..backend import image_data_format
from ._safe_pickle import load_pickle


def load_batch(fpath, label_key="labels"):
    """(data `(n, 3, 32, 32)`, labels) of one pickled CIFAR batch."""
    batch = {key.decode("utf8"): value for key, value in load_pickle(fpath).items()}
    data = batch["data"]
    return data.reshape(data.shape[0], 3, 32, 32), batch[label_key]


def finish(x_train, y_train, x_test, y_test):
    """Labels as columns `(n, 1)`; images channels-last unless Keras's data format says first."""
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    if image_data_format() == "channels_last":
        x_train = x_train.transpose(0, 2, 3, 1)
        x_test = x_test.transpose(0, 2, 3, 1)
    return x_train, y_train, x_test, y_test
