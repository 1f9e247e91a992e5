"""`tf.keras.datasets.fashion_mnist`: 70,000 Zalando clothing images, 28×28 (downloaded).

Four gzip files in the IDX format (a 16-byte header, then pixels; labels:
an 8-byte header, then one byte each) are downloaded into
`~/.keras/datasets/fashion-mnist` on first use. Labels: 0 T-shirt/top,
1 Trouser, 2 Pullover, 3 Dress, 4 Coat, 5 Sandal, 6 Shirt, 7 Sneaker, 8 Bag,
9 Ankle boot.

>>> import gzip, os, tempfile, numpy as np
>>> label_file = os.path.join(tempfile.mkdtemp(), "labels.gz")
>>> with gzip.open(label_file, "wb") as f:
...     _ = f.write(bytes(8) + bytes([9, 0]))
>>> read_idx(label_file, header_bytes=8).tolist()
[9, 0]
"""
import gzip
import os

import numpy as np

from ...framework.tf_export import tf_export
from ..utils.file_utils import get_file
from .mnist import ORIGIN_FOLDER

FILES = ["train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
         "t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz"]
MAX_BYTES = 64 << 20  # the image files unpack to 47 MB


def read_idx(path, header_bytes):
    """The bytes after the header of a gzip'd IDX file, as a flat uint8 array (bounded)."""
    with gzip.open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"{path} unpacks to more than {MAX_BYTES} bytes; it is not a "
                         "Fashion-MNIST file.")
    return np.frombuffer(data, np.uint8, offset=header_bytes)


def load_from(paths):
    y_train = read_idx(paths[0], 8)
    x_train = read_idx(paths[1], 16).reshape(len(y_train), 28, 28)
    y_test = read_idx(paths[2], 8)
    x_test = read_idx(paths[3], 16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)


@tf_export("keras.datasets.fashion_mnist.load_data")
def load_data():
    """`(x_train, y_train), (x_test, y_test)`: uint8 images `(60000, 28, 28)` and
    `(10000, 28, 28)`, uint8 labels 0..9."""
    folder = os.path.join("datasets", "fashion-mnist")
    return load_from([get_file(name, origin=ORIGIN_FOLDER + name, cache_subdir=folder)
                      for name in FILES])
