"""`tf.keras.datasets`: TF's eight downloaded datasets, and minitf's small offline ones.

TensorFlow's datasets - `mnist`, `fashion_mnist`, `cifar10`, `cifar100`,
`imdb`, `reuters`, `boston_housing`, `california_housing` - download on first
use into `~/.keras/datasets` (`tf.keras.utils.get_file`, the same URLs and
file hashes as Keras) and load exactly as Keras loads them. Their pickled
parts are read without running code from the file (`_safe_pickle`).

The lessons run without a network, so minitf also ships small real datasets
inside the package and generates the rest deterministically:

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
from . import (boston_housing, california_housing, cifar10, cifar100, fashion_mnist,  # noqa: F401
               imdb, mnist, reuters)
