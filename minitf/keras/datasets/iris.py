"""`tf.keras.datasets.iris`: Fisher's 150 iris flowers, a tiny real table (a minitf extra).

Four measurements in centimetres (sepal and petal, length and width) and the
species: setosa (0), versicolor (1) or virginica (2), 50 flowers each. From UCI
(CC BY 4.0; source, changes and checksums in
`minitf/keras/datasets/data/README.md`).

>>> (x_train, y_train), (x_test, y_test) = tf.keras.datasets.iris.load_data()
>>> x_train.shape, x_train.dtype, y_train.dtype, x_test.shape
((120, 4), dtype('float64'), dtype('int64'), (30, 4))
>>> CLASS_NAMES[int(y_train[0])] in CLASS_NAMES
True
"""
from ...framework.tf_export import tf_export
from ._shipped import data_path, load_table

FEATURE_NAMES = ("sepal_length", "sepal_width", "petal_length", "petal_width")
LABEL_NAME = "species"
CLASS_NAMES = ("setosa", "versicolor", "virginica")


@tf_export("keras.datasets.iris.load_data")
def load_data(test_split=0.2, seed=113):
    """Load the iris table: `(x_train, y_train), (x_test, y_test)`.

    Returns float64 features of shape `(num_samples, 4)` (columns in
    `FEATURE_NAMES` order) and int64 species labels of shape `(num_samples,)`,
    split after a shuffle seeded with `seed`, as `boston_housing.load_data`.

    >>> (_, y_train), (_, y_test) = tf.keras.datasets.iris.load_data(test_split=0.1)
    >>> len(y_train), len(y_test)
    (135, 15)
    """
    return load_table("iris.csv", test_split, seed)


@tf_export("keras.datasets.iris.csv_path")
def csv_path():
    """The shipped `iris.csv` (header `sepal_length,...,species`, then 150 rows).

    >>> import os
    >>> os.path.basename(tf.keras.datasets.iris.csv_path())
    'iris.csv'
    """
    return data_path("iris.csv")
