"""The split both housing datasets share (`tf.keras.datasets.boston_housing`, `california_housing`).

Both are `.npz` files with a feature table `x` and prices `y`, read without
unpickling, then split as `_shipped.shuffled_split` does (a `RandomState(seed)`
shuffle, then the last `test_split` of the rows for testing).
"""
from ._shipped import load_npz, shuffled_split


def load_from(path, test_split=0.2, seed=113, rows=None):
    """`(x_train, y_train), (x_test, y_test)` of a local housing `.npz` (its first `rows` rows)."""
    arrays = load_npz(path, ["x", "y"])
    return shuffled_split(arrays["x"][:rows], arrays["y"][:rows], test_split, seed)
