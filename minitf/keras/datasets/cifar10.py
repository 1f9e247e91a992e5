"""`tf.keras.datasets.cifar10`: 60,000 colour images 32×32 in 10 classes (downloaded).

The first call downloads CIFAR-10's python archive (163 MB) from the
University of Toronto into `~/.keras/datasets` and unpacks it; the batches
inside are pickles, read without running code from them (`_cifar.load_batch`).
Classes: 0 airplane, 1 automobile, 2 bird, 3 cat, 4 deer, 5 dog, 6 frog,
7 horse, 8 ship, 9 truck.
"""
import os

import numpy as np

from ...framework.tf_export import tf_export
from ..utils.file_utils import get_file
from ._cifar import finish, load_batch


def load_from(folder):
    """The five training batches and the test batch in `folder/cifar-10-batches-py`."""
    folder = os.path.join(folder, "cifar-10-batches-py")
    parts = [load_batch(os.path.join(folder, f"data_batch_{i}")) for i in range(1, 6)]
    x_train = np.concatenate([x for x, _ in parts]).astype("uint8")
    y_train = np.concatenate([np.asarray(y) for _, y in parts]).astype("uint8")
    x_test, y_test = load_batch(os.path.join(folder, "test_batch"))
    x_train, y_train, x_test, y_test = finish(x_train, y_train, np.asarray(x_test),
                                              np.asarray(y_test))
    return (x_train, y_train), (x_test.astype(x_train.dtype), y_test.astype(y_train.dtype))


@tf_export("keras.datasets.cifar10.load_data")
def load_data():
    """`(x_train, y_train), (x_test, y_test)`: uint8 images `(50000, 32, 32, 3)` and
    `(10000, 32, 32, 3)` (channels last unless `image_data_format()` is
    "channels_first"), uint8 labels of shape `(n, 1)`."""
    folder = get_file(fname="cifar-10-batches-py-target",
                      origin="https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz",
                      extract=True, file_hash="6d958be074577803d12ecdefd02955f39262c83c16fe9348"
                                              "329d7fe0b5c001ce")
    return load_from(folder)
