"""`tf.keras.datasets.digits`: 1797 handwritten digits as 8×8 images (a minitf extra).

Real TensorFlow's `tf.keras.datasets.mnist` downloads 70,000 images of 28×28
pixels. minitf ships a much smaller real set inside the package instead - the
UCI "Optical Recognition of Handwritten Digits" images, where each pixel counts
the inked bits of a 4×4 block of a 32×32 scan, so pixels run from 0 to 16. It
loads offline in milliseconds and trains in seconds, with the same
`load_data()` shape as MNIST. Source, licence (CC BY 4.0) and checksums:
`minitf/keras/datasets/data/README.md`.

>>> (x_train, y_train), (x_test, y_test) = tf.keras.datasets.digits.load_data()
>>> x_train.shape, x_train.dtype, y_train.shape, y_train.dtype
((1437, 8, 8), dtype('uint8'), (1437,), dtype('uint8'))
>>> x_test.shape, y_test.shape
((360, 8, 8), (360,))
>>> int(x_train.max()), sorted(set(y_train.tolist())) == list(range(10))
(16, True)
"""
import os

import numpy as np

from ...framework.tf_export import tf_export
from ._shipped import data_path, load_npz, shuffled_split

NUM_CLASSES = 10
MAX_PIXEL_VALUE = 16


@tf_export("keras.datasets.digits.load_data")
def load_data(path="digits.npz", test_split=0.2, seed=113):
    """Load the 8×8 digits: `(x_train, y_train), (x_test, y_test)`.

    Args:
      path: the `.npz` file to read (keys `x` and `y`); a bare file name is
        looked up among the files minitf ships.
      test_split: the fraction of the 1797 images kept for testing.
      seed: the seed of the shuffle that precedes the split (as
        `tf.keras.datasets.boston_housing`); the same seed gives the same split.

    Returns:
      `x_train`, `x_test`: uint8 arrays of shape `(num_samples, 8, 8)`, values
      0..16 (divide by 16.0 to scale to [0, 1]). `y_train`, `y_test`: uint8
      arrays of shape `(num_samples,)`, the digits 0..9. With the defaults:
      1437 training and 360 test images.

    >>> (x_train, y_train), _ = tf.keras.datasets.digits.load_data(test_split=0.5)
    >>> x_train.shape
    (898, 8, 8)
    >>> (a, _), _ = tf.keras.datasets.digits.load_data(seed=1)
    >>> (b, _), _ = tf.keras.datasets.digits.load_data(seed=1)
    >>> bool(np.array_equal(a, b))
    True
    """
    if not os.path.isabs(path) and os.path.dirname(path) == "":
        path = data_path(path)
    arrays = load_npz(path, ["x", "y"])  # bounded, never unpickles
    x, y = arrays["x"], arrays["y"]
    if x.ndim != 3 or y.shape != x.shape[:1]:
        raise ValueError(f"{path} should hold x of shape (n, 8, 8) and y of shape (n,); it "
                         f"holds x {x.shape} and y {y.shape}.")
    return shuffled_split(x, y, test_split, seed)
