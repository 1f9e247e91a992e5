"""`tf.keras.datasets`: small datasets that load offline, with TF's `load_data()` shape.

Real TensorFlow downloads its datasets (MNIST, CIFAR-10, IMDB, Boston housing,
...) on first use. minitf has no network at run time, so it ships small real
datasets inside the package and generates the rest deterministically:

- `digits`: 1797 handwritten digits, 8×8 pixels (UCI optdigits, CC BY 4.0) -
  minitf's MNIST;
- `wine`, `iris`: real structured tables (UCI, CC BY 4.0), like
  `boston_housing`;
- `reviews`: generated movie reviews as word indices, in IMDB's format;
- `synthetic`: `moons`, `spirals` and `sine_waves`.

Every `load_data()` returns `(x_train, y_train), (x_test, y_test)` NumPy arrays
and gives the same split on every run. Sources and licences sit beside the
files, in `minitf/keras/datasets/data/README.md`.

>>> (x_train, y_train), (x_test, y_test) = tf.keras.datasets.digits.load_data()
>>> x_train.shape, y_test.shape
((1437, 8, 8), (360,))
"""
from . import digits, iris, reviews, synthetic, wine  # noqa: F401
