"""`tf.data.experimental`: `cardinality`, `enable_debug_mode`, and friends.

(`make_csv_dataset` lives in csv_dataset.py, `record_timings` in timings.py.)

>>> import minitf as tf
>>> int(tf.data.experimental.cardinality(tf.data.Dataset.range(4).repeat()))
-1
"""
from ..framework.tf_export import tf_export
from .structured_function import _DEBUG_MODE


@tf_export("data.experimental.cardinality")
def cardinality(dataset):
    """`dataset.cardinality()`: -1 infinite, -2 unknown.

    >>> int(tf.data.experimental.cardinality(tf.data.Dataset.range(4).filter(lambda x: x > 1)))
    -2
    """
    return dataset.cardinality()


@tf_export("data.experimental.enable_debug_mode")
def enable_debug_mode():
    """Run the functions of `map`, `filter`, ... eagerly, element by element.

    Datasets made afterwards call your Python function for every element, so
    `print` and pdb work inside it, and each result is checked against the
    structure found when the function was traced (naming the element that
    differs). In TensorFlow debug mode cannot be switched off again; here
    `disable_debug_mode()` (a minitf extra) does it, e.g. between tests.

    >>> tf.data.experimental.enable_debug_mode()
    >>> list(tf.data.Dataset.range(2).map(lambda x: x + 1).as_numpy_iterator())
    [np.int64(1), np.int64(2)]
    >>> tf.data.experimental.disable_debug_mode()
    """
    _DEBUG_MODE[0] = True


@tf_export("data.experimental.disable_debug_mode")
def disable_debug_mode():
    """Back to traced functions (a minitf extra; see `enable_debug_mode`).

    >>> tf.data.experimental.disable_debug_mode()
    """
    _DEBUG_MODE[0] = False


del tf_export  # an implementation import: TF's namespace does not show it
