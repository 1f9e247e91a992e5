"""`tf.keras.datasets.california_housing`: 20,640 Californian census blocks of 1990 (downloaded).

8 features per block, the median house value in $ as the target; the first
call downloads `california_housing.npz` into `~/.keras/datasets`.
`version="small"` keeps its first 600 rows.
"""
from ...framework.tf_export import tf_export
from ..utils.file_utils import get_file
from ._housing import load_from
from ._shipped import check_test_split
from .mnist import ORIGIN_FOLDER


@tf_export("keras.datasets.california_housing.load_data")
def load_data(version="large", path="california_housing.npz", test_split=0.2, seed=113):
    """`(x_train, y_train), (x_test, y_test)`: float32 features `(n, 8)` and prices `(n,)`."""
    check_test_split(test_split)
    path = get_file(path, origin=f"{ORIGIN_FOLDER}california_housing.npz",
                    file_hash="1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f")
    if version not in ("small", "large"):
        raise ValueError("Argument `version` must be one of 'small', 'large'. Received: "
                         f"version={version}")
    return load_from(path, test_split, seed, rows=600 if version == "small" else None)
