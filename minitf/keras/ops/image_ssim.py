"""`keras.ops.image.ssim`: Keras 3's structural similarity, per image.

SSIM compares local means (mu), variances (sigma^2) and covariance of two
images under a Gaussian window:

    ssim = (2 mu1 mu2 + c1)(2 sigma12 + c2) / ((mu1^2 + mu2^2 + c1)(sigma1^2 + sigma2^2 + c2))

with c1 = (k1 max_val)^2, c2 = (k2 max_val)^2, averaged over the valid
window positions and then over channels. Keras computes it with its own ops
(`keras/src/ops/image.py`, `_ssim`), not with `tf.image.ssim`: windows are
"valid" convolutions, the result has the input's dtype (integers truncate).

>>> import minitf as tf
>>> from minitf.keras import ops
>>> image = tf.random.stateless_uniform((12, 12, 1), seed=(1, 2))
>>> float(ops.image.ssim(image, image))
1.0
"""
import minitf as tf

from ._export import keras_ops_export
from .dtype_rules import convert
from ..layers.conv_utils import standardize_data_format


def _check_rank(name, image):
    if image.shape.rank not in (3, 4):
        raise ValueError(f"Invalid {name} rank: expected rank 3 (single image) or rank 4 (batch "
                         f"of images). Received input with shape: {name}.shape={image.shape}")


def _window(size, sigma, dtype):
    x = tf.range(size, dtype=dtype) - (size - 1) / 2.0
    profile = tf.exp(-(x ** 2) / (2.0 * sigma ** 2))
    profile = profile / tf.reduce_sum(profile)
    return tf.reshape(tf.tensordot(profile, profile, axes=0), (size, size, 1, 1))


@keras_ops_export("image")
def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         data_format=None):
    """Mean SSIM of each image pair: a scalar for (h, w, c), shape (batch,) for batches.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> a = tf.reshape(tf.range(64.0), (1, 8, 8, 1)) / 64.0
    >>> ops.image.ssim(a, a * 0.5, filter_size=3).shape
    TensorShape([1])
    """
    data_format = standardize_data_format(data_format)
    image1, image2 = convert(image1), convert(image2)
    original = image1.dtype
    compute = original if original.is_floating else tf.float32
    image1, image2 = tf.cast(image1, compute), tf.cast(image2, compute)
    _check_rank("image1", image1)
    _check_rank("image2", image2)
    unbatched = image1.shape.rank == 3
    if unbatched:
        image1, image2 = tf.expand_dims(image1, 0), tf.expand_dims(image2, 0)
    if data_format == "channels_first":
        image1 = tf.transpose(image1, (0, 2, 3, 1))
        image2 = tf.transpose(image2, (0, 2, 3, 1))
    _, height, width, channels = image1.shape.as_list()
    kernel = _window(filter_size, filter_sigma, compute)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    x = tf.reshape(tf.transpose(image1, (0, 3, 1, 2)), (-1, height, width, 1))
    y = tf.reshape(tf.transpose(image2, (0, 3, 1, 2)), (-1, height, width, 1))

    def blur(t):
        return tf.nn.conv2d(t, kernel, strides=1, padding="VALID")

    mu1, mu2 = blur(x), blur(y)
    sigma1 = blur(x * x) - mu1 * mu1
    sigma2 = blur(y * y) - mu2 * mu2
    sigma12 = blur(x * y) - mu1 * mu2
    ssim_map = ((2.0 * mu1 * mu2 + c1) * (2.0 * sigma12 + c2)
                / ((mu1 * mu1 + mu2 * mu2 + c1) * (sigma1 + sigma2 + c2)))
    per_image = tf.reduce_mean(tf.reshape(tf.reduce_mean(ssim_map, axis=[1, 2, 3]),
                                          (-1, channels)), axis=-1)
    if unbatched:
        per_image = tf.squeeze(per_image, 0)
    return tf.cast(per_image, original)
