"""`tf.keras.datasets.mnist`: 70,000 handwritten digits, 28×28 grey pixels (downloaded).

The first call downloads `mnist.npz` (11 MB) from Google's storage into
`~/.keras/datasets` (see `tf.keras.utils.get_file`); later calls read it
from there. For a dataset that needs no network, see
`tf.keras.datasets.digits` (minitf's own, shipped inside the package).

The file holds four uint8 arrays and is read without unpickling anything:

>>> import minitf as tf, numpy as np, os, tempfile
>>> folder = tempfile.mkdtemp()
>>> np.savez(os.path.join(folder, "mnist.npz"), x_train=np.zeros((2, 28, 28), np.uint8),
...          y_train=np.array([3, 1], np.uint8), x_test=np.zeros((1, 28, 28), np.uint8),
...          y_test=np.array([7], np.uint8))
>>> (x_train, y_train), (x_test, y_test) = load_from(os.path.join(folder, "mnist.npz"))
>>> x_train.shape, y_train.tolist(), x_test.dtype
((2, 28, 28), [3, 1], dtype('uint8'))
"""
from ...framework.tf_export import tf_export
from ..utils.file_utils import get_file
from ._shipped import load_npz

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def load_from(path):
    arrays = load_npz(path, ["x_train", "y_train", "x_test", "y_test"])
    return (arrays["x_train"], arrays["y_train"]), (arrays["x_test"], arrays["y_test"])


@tf_export("keras.datasets.mnist.load_data")
def load_data(path="mnist.npz"):
    """`(x_train, y_train), (x_test, y_test)`: uint8 images `(60000, 28, 28)` and
    `(10000, 28, 28)` with values 0..255, and uint8 labels 0..9.

    Args:
      path: the file name to cache the dataset under (in `~/.keras/datasets`).
    """
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}mnist.npz",
                    file_hash="731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1")
    return load_from(path)
