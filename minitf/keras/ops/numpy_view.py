"""`keras.ops.view`: the same bytes read as another dtype, like NumPy's `x.view(dtype)`.

Nothing is converted: float32 `1.0` is the bit pattern 0x3F800000, which read
as int32 is 1065353216. When the new dtype is narrower, the last axis grows
(one float32 is two int16); when it is wider, the last axis shrinks and must
hold a whole number of new items.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.view(tf.constant([1.0, 2.0]), "int32")
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1065353216, 1073741824], dtype=int32)>
>>> ops.view(tf.constant([[1, 2]], "int16"), "int32")  # little-endian: 1 + 2 * 65536
<tf.Tensor: shape=(1, 1), dtype=int32, numpy=array([[131073]], dtype=int32)>

In Keras this is `keras/src/backend/tensorflow/numpy.py` (`view`): `tf.bitcast`
after reshaping, which is what minitf does. `tf.bitcast` itself adds or
removes an axis instead of resizing the last one.
"""
import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the example above calls ops.*
from .dtype_rules import convert, standardize_dtype


@keras_ops_export("numpy")
def view(x, dtype=None):
    """`x`'s bytes reinterpreted as `dtype` (None: `x`'s own dtype); the last axis is
    rescaled by old itemsize / new itemsize.

    >>> ops.view(tf.constant([1], "int32"), "uint8")
    <tf.Tensor: shape=(4,), dtype=uint8, numpy=array([1, 0, 0, 0], dtype=uint8)>
    """
    x = convert(x)
    old = x.dtype
    new = tf.as_dtype(standardize_dtype(dtype if dtype else old))
    shape = x.shape.as_list()
    last = shape[-1] if shape else -1
    if new.size == 0 or old.size == 0:
        raise ValueError(f"Cannot view dtype {old.name} as {new.name}: `view` reinterprets the "
                         "bytes of numbers, and strings have no fixed item size.")
    if (last == -1 and old.size != new.size) or last * old.size % new.size != 0:
        raise ValueError(
            f"Cannot view array of shape {tuple(shape)} and dtype <dtype: '{old.name}'> as "
            f"dtype <dtype: '{new.name}'> "
            "because the total number of bytes is not divisible by the new itemsize. "
            "`view` only regroups the bytes of the last axis: it must hold a whole number "
            f"of {new.name} items ({new.size} bytes each).")
    if old.size == new.size:
        return tf.bitcast(x, new)
    if old.size > new.size:  # each old item becomes `ratio` new ones: bitcast adds an axis
        shape[-1] *= old.size // new.size
        return tf.reshape(tf.bitcast(tf.reshape(x, [-1]), new), shape)
    ratio = new.size // old.size  # group `ratio` old items into a new axis that bitcast eats
    return tf.bitcast(tf.reshape(x, shape[:-1] + [last // ratio, ratio]), new)
