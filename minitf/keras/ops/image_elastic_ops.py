"""`keras.ops.image.elastic_transform`: push every pixel by a smooth random field.

Keras draws one standard-normal field per image with
`tf.random.stateless_normal` (the same seed for x and y, so the two fields
are equal, as in Keras 3.15), times `sigma`; blurs it with a Gaussian of
size `6 * int(sigma) | 1` and that `sigma`; and reads the image at
(y + alpha * dy, x + alpha * dx) with `map_coordinates` (order 0 for
"nearest", 1 for "bilinear"). `alpha` scales the push, `sigma` its
smoothness; `alpha=0` leaves the image unchanged. The recipe is Keras's, but
minitf's `stateless_normal` numbers are not TF's, so a seed gives a different
(equally random) field here than in Keras.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> image = tf.random.stateless_uniform((6, 6, 1), seed=(1, 2))
>>> bool(tf.reduce_all(ops.image.elastic_transform(image, alpha=0.0, seed=3) == image))
True
"""
import minitf as tf

from ._export import keras_ops_export
from .dtype_rules import convert
from .image_ops import gaussian_blur
from .image_transform_ops import INTERPOLATIONS, check_image_args
from .image_warp_ops import map_coordinates
from ..layers.conv_utils import standardize_data_format
from ..random.seed_generator import draw_seed


@keras_ops_export("image")
def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation="bilinear",
                      fill_mode="reflect", fill_value=0.0, seed=None, data_format=None):
    """Elastic distortion of float images; `seed` (int or SeedGenerator) fixes the field.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> ops.image.elastic_transform(tf.ones((2, 8, 8, 3)), seed=1).shape
    TensorShape([2, 8, 8, 3])
    """
    data_format = standardize_data_format(data_format)
    images = convert(images)
    check_image_args(images, interpolation, fill_mode)
    dtype = images.dtype
    size = 6 * int(sigma) | 1
    unbatched = images.shape.rank == 3
    if unbatched:
        images = tf.expand_dims(images, 0)
    channel_axis = -1 if data_format == "channels_last" else 1
    if data_format == "channels_last":
        batch, height, width, channels = images.shape.as_list()
    else:
        batch, channels, height, width = images.shape.as_list()
    noise = tf.random.stateless_normal((batch, height, width), seed=draw_seed(seed),
                                       dtype=dtype) * tf.cast(sigma, dtype)
    field = gaussian_blur(tf.expand_dims(noise, channel_axis), (size, size), (sigma, sigma),
                          data_format=data_format)
    shift = tf.cast(alpha, dtype) * tf.squeeze(field, channel_axis)
    x, y = tf.meshgrid(tf.range(width, dtype=dtype), tf.range(height, dtype=dtype))
    rows, cols = y[None] + shift, x[None] + shift
    order = INTERPOLATIONS.index(interpolation)
    planes = []
    for c in range(channels):
        planes.append(tf.stack([
            map_coordinates(images[b, ..., c] if channel_axis == -1 else images[b, c],
                            [rows[b], cols[b]], order=order, fill_mode=fill_mode,
                            fill_value=fill_value)
            for b in range(batch)], axis=0))
    out = tf.stack(planes, axis=channel_axis)
    return tf.cast(tf.squeeze(out, 0) if unbatched else out, dtype)
