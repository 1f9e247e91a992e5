"""`tf.keras.datasets.wine`: a real structured table of 178 wines (a minitf extra).

Thirteen chemical measurements of wines from one Italian region, and which of
three cultivars (grape varieties) each wine came from - the UCI "Wine" table
(CC BY 4.0; source and checksums in `minitf/keras/datasets/data/README.md`).
`load_data()` gives NumPy arrays like `tf.keras.datasets.boston_housing`;
`csv_path()` gives the CSV file itself (with a header row) for `tf.data`.

>>> (x_train, y_train), (x_test, y_test) = tf.keras.datasets.wine.load_data()
>>> x_train.shape, x_train.dtype, y_train.shape, y_train.dtype
((142, 13), dtype('float64'), (142,), dtype('int64'))
>>> x_test.shape
(36, 13)
>>> FEATURE_NAMES[:3], CLASS_NAMES
(('alcohol', 'malic_acid', 'ash'), ('class_0', 'class_1', 'class_2'))
"""
from ...framework.tf_export import tf_export
from ._shipped import data_path, load_table

FEATURE_NAMES = ("alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium",
                 "total_phenols", "flavanoids", "nonflavanoid_phenols", "proanthocyanins",
                 "color_intensity", "hue", "od280_od315_of_diluted_wines", "proline")
LABEL_NAME = "cultivar"
CLASS_NAMES = ("class_0", "class_1", "class_2")


@tf_export("keras.datasets.wine.load_data")
def load_data(test_split=0.2, seed=113):
    """Load the wine table: `(x_train, y_train), (x_test, y_test)`.

    Args:
      test_split: the fraction of the 178 rows kept for testing.
      seed: the seed of the shuffle before the split (as
        `tf.keras.datasets.boston_housing`).

    Returns:
      `x_*`: float64 arrays of shape `(num_samples, 13)`, columns in
      `FEATURE_NAMES` order, unscaled (proline is in the hundreds, hue near 1:
      normalize before training). `y_*`: int64 arrays of shape
      `(num_samples,)`, the cultivar 0, 1 or 2.

    >>> (x_train, y_train), _ = tf.keras.datasets.wine.load_data(test_split=0.5, seed=0)
    >>> len(x_train), sorted(set(y_train.tolist()))
    (89, [0, 1, 2])
    """
    return load_table("wine.csv", test_split, seed)


@tf_export("keras.datasets.wine.csv_path")
def csv_path():
    """The shipped `wine.csv` (a header row, then 178 rows; the label `cultivar` last).

    >>> import os
    >>> os.path.basename(tf.keras.datasets.wine.csv_path())
    'wine.csv'
    """
    return data_path("wine.csv")
