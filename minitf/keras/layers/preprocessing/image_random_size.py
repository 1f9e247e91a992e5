"""RandomHeight and RandomWidth: stretch or squeeze a batch of images by a random factor.

Keras 3.15 keeps these two as *legacy* layers (`keras/src/legacy/layers.py`,
still exported as `tf.keras.layers.RandomHeight` / `RandomWidth`). While
training they draw ONE factor for the whole batch, uniform in
[1 + lower, 1 + upper], and resize the height (or width) to
`int(factor * size)` with `tf.image.resize(method=interpolation)`; the other
side is unchanged. So the output height (width) is unknown until the layer
runs. At inference they return the images as they came (cast to the
layer's dtype).

factor: a number f means [-f, f] (0.2: between 80% and 120% of the size);
a pair (lo, hi) is the range itself; every bound must be >= -1.

>>> import minitf as tf
>>> images = tf.ones([2, 4, 6, 3])
>>> tf.keras.layers.RandomHeight((0.5, 0.5))(images).shape          # always 150%
TensorShape([2, 6, 6, 3])
>>> tf.keras.layers.RandomWidth((-0.5, -0.5))(images).shape         # always 50%
TensorShape([2, 4, 3, 3])

Unlike the other image layers these are plain Keras layers: their config has
no `data_format` and images are always channels-last. The random numbers are
minitf's (same seed, same sizes), not real Keras's.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from ...engine.base_layer import Layer
from .image_preprocessing import make_generator, random_uniform


class _RandomSize(Layer):
    """Resize one image axis (-3: height, -2: width) by a factor drawn once per call."""

    _AXIS = -3
    _NAME = "height"

    def __init__(self, factor, interpolation="bilinear", seed=None, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor
        if isinstance(factor, (tuple, list)):
            lower, upper = factor[0], factor[1]
        else:
            lower, upper = -factor, factor
        if upper < lower:
            raise ValueError("`factor` argument cannot have an upper bound lesser than the "
                             f"lower bound. Received: factor={factor}")
        if lower < -1.0 or upper < -1.0:
            raise ValueError(f"`factor` argument must have values larger than -1. "
                             f"Received: factor={factor}")
        self.lower, self.upper = lower, upper
        self.interpolation, self.seed = interpolation, seed
        self.generator = make_generator(seed)

    def call(self, inputs, training=True):
        inputs = tf.cast(tf.convert_to_tensor(inputs), self.compute_dtype)
        if not training:
            return inputs
        shape = tf.shape(inputs)
        scale = random_uniform(self.generator, [], 1.0 + self.lower, 1.0 + self.upper)
        new = tf.cast(scale * tf.cast(shape[self._AXIS], tf.float32), tf.int32)
        size = (tf.stack([new, shape[-2]]) if self._AXIS == -3
                else tf.stack([shape[-3], new]))
        out = tf.cast(self._resize(inputs, size), self.compute_dtype)
        if inputs.shape.rank is not None and hasattr(out, "set_shape"):   # graph: keep sizes
            static = inputs.shape.as_list()
            static[self._AXIS] = None
            out.set_shape(static)
        return out

    def _resize(self, images, size):
        if tf.executing_eagerly():
            return tf.image.resize(images, size, method=self.interpolation)
        # minitf's resize builds its weights from a size known while tracing; a size drawn
        # when the graph runs is handed to an eager resize through tf.py_function.
        return tf.py_function(lambda x, s: tf.image.resize(x, s.numpy().tolist(),
                                                           method=self.interpolation),
                              [images, size], tf.float32)

    def compute_output_shape(self, input_shape):
        input_shape = list(input_shape)
        input_shape[self._AXIS] = None
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "interpolation": self.interpolation,
                       "seed": self.seed})
        return config


@tf_export("keras.layers.RandomHeight")
class RandomHeight(_RandomSize):
    """Resize the height of a batch by one random factor while training (width kept).

    >>> tf.keras.layers.RandomHeight(0.2, seed=1)(tf.ones([8, 10, 3]), training=False).shape
    TensorShape([8, 10, 3])
    """

    _AXIS = -3


@tf_export("keras.layers.RandomWidth")
class RandomWidth(_RandomSize):
    """Resize the width of a batch by one random factor while training (height kept).

    >>> tf.keras.layers.RandomWidth((1.0, 1.0))(tf.ones([8, 10, 3])).shape    # doubled
    TensorShape([8, 20, 3])
    """

    _AXIS = -2
