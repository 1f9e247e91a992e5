"""Reading the data files shipped in `minitf/keras/datasets/data/` and splitting them.

Real TensorFlow downloads each dataset once into `~/.keras/datasets` with
`tf.keras.utils.get_file`; minitf ships its few small datasets inside the
package, so `load_data()` never touches the network. Sources and licences
are in `data/README.md`, beside the files.

The split is the one `tf.keras.datasets.boston_housing.load_data` makes: shuffle
the row indices with `np.random.RandomState(seed)`, then the first
`int(n * (1 - test_split))` rows are the training set and the rest the test set.
Same seed, same split, on every machine.

>>> x, y = np.arange(10), np.arange(10) * 10
>>> (x_train, y_train), (x_test, y_test) = shuffled_split(x, y, test_split=0.2, seed=113)
>>> len(x_train), len(x_test)
(8, 2)
>>> bool(np.all(y_train == 10 * x_train))
True
"""
import os

import numpy as np

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def data_path(filename):
    """The absolute path of a file shipped in `minitf/keras/datasets/data/`."""
    path = os.path.join(DATA_DIR, filename)
    if not os.path.exists(path):
        raise FileNotFoundError(
            f"minitf's dataset file {path!r} is missing. It ships inside the package; "
            "reinstall minitf (`pip install -e .` from the repository) to restore it.")
    return path


def check_test_split(test_split):
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It must be between "
                         "0 and 1 (exclusive of 1): the fraction of rows kept for testing.")


def shuffled_split(x, y, test_split, seed):
    """`(x_train, y_train), (x_test, y_test)`: a seeded shuffle, then a cut at
    `int(len(x) * (1 - test_split))`, as Keras's table datasets do."""
    check_test_split(test_split)
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    cut = int(len(x) * (1 - test_split))
    return (np.array(x[:cut]), np.array(y[:cut])), (np.array(x[cut:]), np.array(y[cut:]))


def read_csv_table(filename):
    """(header names, float64 array of the rows) of a shipped CSV file."""
    path = data_path(filename)
    with open(path, encoding="utf-8") as f:
        header = f.readline().strip().split(",")
    rows = np.loadtxt(path, delimiter=",", skiprows=1, dtype="float64", ndmin=2)
    return header, rows


def load_table(filename, test_split, seed):
    """A shipped CSV table split into features (float64) and an int64 label (last column)."""
    _, rows = read_csv_table(filename)
    x, y = rows[:, :-1], rows[:, -1].astype("int64")
    return shuffled_split(x, y, test_split, seed)
