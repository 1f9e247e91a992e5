"""Small files in the exact formats Keras downloads, for testing the loaders offline.

`write_all(folder)` writes them (deterministically) and returns {dataset: path
that `get_file` would return}: the same layout, member names, dtypes and pickle
structure as the real downloads, with a few rows instead of thousands.
"""
import gzip
import io
import json
import os
import pickle
import tarfile

import numpy as np


def _texts(rng, n):
    texts = np.empty(n, dtype="object")
    texts[:] = [rng.randint(1, 40, size=rng.randint(3, 12)).tolist() for _ in range(n)]
    return texts


def _npz(path, **arrays):
    np.savez(path, **arrays)  # object arrays are pickled inside, as in imdb.npz
    return path


def _idx_gz(path, header, data):
    with gzip.open(path, "wb") as f:
        f.write(bytes(header) + data.astype(np.uint8).tobytes())
    return path


def _cifar_tar(path, top, batches):
    with tarfile.open(path, "w:gz") as tar:
        for name, batch in batches.items():
            # The real batches are Python 2 pickles, whose byte strings load as `bytes`
            # under encoding="bytes"; protocol 3 stores `bytes` natively, to the same effect.
            data = pickle.dumps(batch, protocol=3)
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _cifar_batch(rng, n, **labels):
    batch = {b"data": rng.randint(0, 256, size=(n, 3072)).astype(np.uint8)}
    batch.update({key.encode(): list(map(int, rng.randint(0, top, n)))
                  for key, top in labels.items()})
    return batch


def write_all(folder):
    rng = np.random.RandomState(0)
    os.makedirs(folder, exist_ok=True)
    p = lambda name: os.path.join(folder, name)  # noqa: E731
    files = {
        "mnist": _npz(p("mnist.npz"), x_train=rng.randint(0, 256, (5, 28, 28)).astype(np.uint8),
                      y_train=rng.randint(0, 10, 5).astype(np.uint8),
                      x_test=rng.randint(0, 256, (3, 28, 28)).astype(np.uint8),
                      y_test=rng.randint(0, 10, 3).astype(np.uint8)),
        "imdb": _npz(p("imdb.npz"), x_train=_texts(rng, 12), y_train=rng.randint(0, 2, 12),
                     x_test=_texts(rng, 9), y_test=rng.randint(0, 2, 9)),
        "reuters": _npz(p("reuters.npz"), x=_texts(rng, 15), y=rng.randint(0, 46, 15)),
        "boston_housing": _npz(p("boston_housing.npz"), x=rng.rand(11, 13), y=rng.rand(11)),
        "california_housing": _npz(p("california_housing.npz"),
                                   x=rng.rand(13, 8).astype(np.float32),
                                   y=rng.rand(13).astype(np.float32)),
    }
    files["fashion_mnist"] = [
        _idx_gz(p("train-labels-idx1-ubyte.gz"), [0, 0, 8, 1, 0, 0, 0, 4], rng.randint(0, 10, 4)),
        _idx_gz(p("train-images-idx3-ubyte.gz"), [0] * 16, rng.randint(0, 256, 4 * 784)),
        _idx_gz(p("t10k-labels-idx1-ubyte.gz"), [0, 0, 8, 1, 0, 0, 0, 2], rng.randint(0, 10, 2)),
        _idx_gz(p("t10k-images-idx3-ubyte.gz"), [0] * 16, rng.randint(0, 256, 2 * 784))]
    ten = {f"data_batch_{i}": _cifar_batch(rng, 2, labels=10) for i in range(1, 6)}
    ten["test_batch"] = _cifar_batch(rng, 3, labels=10)
    files["cifar10"] = _cifar_tar(p("cifar-10-python.tar.gz"), "cifar-10-batches-py", ten)
    hundred = {name: _cifar_batch(rng, n, fine_labels=100, coarse_labels=20)
               for name, n in (("train", 4), ("test", 2))}
    files["cifar100"] = _cifar_tar(p("cifar-100-python.tar.gz"), "cifar-100-python", hundred)
    with open(p("imdb_word_index.json"), "w") as f:
        json.dump({"the": 1, "movie": 17}, f)
    files["imdb_word_index"] = p("imdb_word_index.json")
    return files


def extracted(archive, folder):
    """Unpack a fixture archive the way `get_file(extract=True)` leaves it: the folder path."""
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder
