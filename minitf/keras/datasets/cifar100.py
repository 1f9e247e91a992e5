"""`tf.keras.datasets.cifar100`: 60,000 colour images 32×32 in 100 classes (downloaded).

Like CIFAR-10, but each image has a "fine" label (100 classes) and a
"coarse" one (20 superclasses); `label_mode` picks which.
"""
import os

import numpy as np

from ...framework.tf_export import tf_export
from ..utils.file_utils import get_file
from ._cifar import finish, load_batch


def load_from(folder, label_mode="fine"):
    folder = os.path.join(folder, "cifar-100-python")
    key = f"{label_mode}_labels"
    x_train, y_train = load_batch(os.path.join(folder, "train"), label_key=key)
    x_test, y_test = load_batch(os.path.join(folder, "test"), label_key=key)
    x_train, y_train, x_test, y_test = finish(x_train, np.asarray(y_train), x_test,
                                              np.asarray(y_test))
    return (x_train, y_train), (x_test, y_test)


@tf_export("keras.datasets.cifar100.load_data")
def load_data(label_mode="fine"):
    """`(x_train, y_train), (x_test, y_test)`: uint8 images `(50000, 32, 32, 3)` and
    `(10000, 32, 32, 3)`, labels `(n, 1)`: 0..99 ("fine") or 0..19 ("coarse")."""
    if label_mode not in ["fine", "coarse"]:
        raise ValueError('`label_mode` must be one of `"fine"`, `"coarse"`. '
                         f"Received: label_mode={label_mode}.")
    folder = get_file(fname="cifar-100-python-target",
                      origin="https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz",
                      extract=True, file_hash="85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e"
                                              "1ef29b855ba677a7")
    return load_from(folder, label_mode)
