"""`tf.compat.v1.Dimension` and `tf.compat.dimension_at_index`.

In TF1 a shape's entries were `Dimension` objects (`shape[0].value` gave the int);
TF2 shapes hold plain ints and None, as minitf's do. `dimension_at_index` still
returns a `Dimension`, which `tf.compat.dimension_value` turns into the int:

>>> import minitf as tf
>>> d = tf.compat.dimension_at_index(tf.TensorShape([3, None]), 0)
>>> d, d.value, tf.compat.dimension_value(d)
(Dimension(3), 3, 3)

TensorFlow's are in `tensorflow/python/framework/tensor_shape.py`.
"""
from ...framework.tensor_shape import TensorShape, _dimension
from ...framework.tf_export import tf_export


@tf_export("compat.v1.Dimension")
class Dimension:
    """One entry of a TF1 shape: an int, or None when unknown (`.value`).

    >>> tf.compat.v1.Dimension(4) == 4, tf.compat.v1.Dimension(None) == 4
    (True, None)
    """

    __slots__ = ("_value",)

    def __init__(self, value):
        self._value = value._value if isinstance(value, Dimension) else _dimension(value)

    @property
    def value(self):
        return self._value

    def __repr__(self):
        return f"Dimension({self._value!r})"

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __eq__(self, other):
        other = other.value if isinstance(other, Dimension) else other
        if self._value is None or other is None:
            return None  # unknown: neither equal nor different, as in TF
        return self._value == other

    def __ne__(self, other):
        equal = self.__eq__(other)
        return None if equal is None else not equal

    def __hash__(self):
        return hash(self._value)

    def __int__(self):
        return self._value

    def __index__(self):
        return self._value

    def is_compatible_with(self, other):
        other = other.value if isinstance(other, Dimension) else other
        return self._value is None or other is None or self._value == other


@tf_export("compat.dimension_at_index")
def dimension_at_index(shape, index):
    """`shape`'s entry at `index` as a `Dimension` (Dimension(None) for an unknown rank).

    >>> tf.compat.dimension_at_index(tf.TensorShape(None), 5)
    Dimension(None)
    """
    if not isinstance(shape, TensorShape):  # TF asserts the same
        raise AssertionError(f"dimension_at_index takes a tf.TensorShape, got {shape!r}: "
                             "wrap a list with tf.TensorShape(...) first.")
    if shape.rank is None:
        return Dimension(None)
    return Dimension(shape.dims[index])
