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
import io
import os
import zipfile

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


def load_npz(path, names, max_bytes=64 << 20):
    """{name: array} from an `.npz` file, read defensively (the path may be the user's).

    Never unpickles (`allow_pickle=False`, object arrays refused), and checks each
    member's declared size and its `.npy` header (shape x item size must equal the
    bytes present) before allocating; a bad file is a ValueError naming it.
    """
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        raise ValueError(f"{path} is not a readable .npz archive ({e}).") from e
    arrays = {}
    with archive:
        for name in names:
            try:
                info = archive.getinfo(name + ".npy")
            except KeyError:
                raise ValueError(f"{path} has no array '{name}' (it holds "
                                 f"{archive.namelist()}).") from None
            if info.file_size > max_bytes:
                raise ValueError(f"{path}: array '{name}' declares {info.file_size} bytes, "
                                 f"more than the {max_bytes} a dataset file may hold.")
            try:
                data = archive.open(info).read(info.file_size + 1)
            except (zipfile.BadZipFile, OSError, EOFError) as e:
                raise ValueError(f"{path}: array '{name}' cannot be read ({e}); the file "
                                 "is truncated or corrupt.") from e
            arrays[name] = _parse_npy(io.BytesIO(data), len(data), f"{path}: array '{name}'")
    return arrays


def _parse_npy(stream, size, what):
    fmt = np.lib.format
    try:
        version = fmt.read_magic(stream)
        read_header = fmt.read_array_header_1_0 if version == (1, 0) else \
            fmt.read_array_header_2_0
        shape, fortran, dtype = read_header(stream)
    except ValueError as e:
        raise ValueError(f"{what} has no valid .npy header ({e}).") from e
    if dtype.hasobject:
        raise ValueError(f"{what} holds Python objects (pickles); refusing to load it.")
    needed = int(np.prod(shape, dtype=object)) * dtype.itemsize
    if needed != size - stream.tell():
        raise ValueError(f"{what} declares shape {shape} ({needed} bytes) but holds "
                         f"{size - stream.tell()} bytes; the file is corrupt.")
    stream.seek(0)
    return fmt.read_array(stream, allow_pickle=False)
