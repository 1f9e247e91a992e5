"""`tf.keras.datasets.boston_housing`: house prices of 506 towns near Boston (downloaded).

13 features per town, the median value in k$ as the target; the first call
downloads `boston_housing.npz` into `~/.keras/datasets`. (The data encodes a
racially biased feature; scikit-learn removed it - prefer
`california_housing` for new work.)
"""
from ...framework.tf_export import tf_export
from ..utils.file_utils import get_file
from ._housing import load_from
from ._shipped import check_test_split
from .mnist import ORIGIN_FOLDER


@tf_export("keras.datasets.boston_housing.load_data")
def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """`(x_train, y_train), (x_test, y_test)`: float64 features `(n, 13)` and prices `(n,)`."""
    check_test_split(test_split)
    path = get_file(path, origin=f"{ORIGIN_FOLDER}boston_housing.npz",
                    file_hash="f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5")
    return load_from(path, test_split, seed)
