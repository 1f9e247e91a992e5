"""Image quality: `psnr`, `ssim` and `ssim_multiscale`, as TensorFlow computes them.

* PSNR (peak signal-to-noise ratio), in decibels: 20 log10(max_val) - 10 log10(MSE).
  Identical images give inf.
* SSIM (structural similarity, Wang et al. 2004) compares local means,
  variances and the covariance of two images under an 11 x 11 Gaussian window
  (sigma 1.5): SSIM = luminance * contrast-structure, averaged over the image
  and the channels. 1.0 means identical.
* MS-SSIM repeats the contrast-structure term on 5 halvings of the image
  (2 x 2 average pooling) and multiplies the terms, each to a power.

>>> import minitf as tf
>>> a = tf.constant([[[0.0], [1.0]], [[0.5], [0.5]]])
>>> round(float(tf.image.psnr(a, a * 0.9, max_val=1.0)), 4)
24.2597

All three are made of ordinary ops (depthwise convolution, average pooling),
so their gradients flow back to both images, as in TF. Integer images are
converted to float32 in [0, 1] first, and `max_val` with them.
"""
from ..framework import dtypes, errors
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.array_ops import reshape, stack, tile
from ..ops.creation_ops import range as tf_range
from ..ops.depthwise_conv_ops import depthwise_conv2d
from ..ops.manipulation_ops import pad
from ..ops.math_ops import cast, log, pow as tf_pow, squared_difference
from ..ops.nn_ops import relu, softmax
from ..ops.pool_ops import avg_pool
from ..ops.reduction_ops import reduce_mean, reduce_prod
from ..ops.unary_ops import square
from .dtype_conversion import convert_image_dtype

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _check_compatible(a, b):
    """TF's `_verify_compatible_image_shapes`: the last three axes agree, batch axes broadcast."""
    for x in (a, b):
        if x.shape.rank is not None and x.shape.rank < 3:
            raise ValueError(f"Shape {x.shape} must have rank at least 3: images are "
                             "[height, width, channels], or a batch of them.")
    if a.shape.rank is None or b.shape.rank is None:
        return
    if not a.shape[-3:].is_compatible_with(b.shape[-3:]):
        raise ValueError(f"Shapes {a.shape[-3:]} and {b.shape[-3:]} are incompatible: both "
                         "images need the same height, width and channels.")
    for d1, d2 in zip(reversed(a.shape[:-3]), reversed(b.shape[:-3])):
        if not (d1 == 1 or d2 == 1 or d1 is None or d2 is None or d1 == d2):
            raise ValueError(f"Two images are not compatible: {a.shape} and {b.shape}")


def _prepare(img1, img2, max_val):
    img1, img2 = convert_to_tensor(img1), convert_to_tensor(img2)
    _check_compatible(img1, img2)
    max_val = convert_image_dtype(cast(max_val, img1.dtype), dtypes.float32)
    return (convert_image_dtype(img1, dtypes.float32),
            convert_image_dtype(img2, dtypes.float32), max_val)


@tf_export("image.psnr")
def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio in dB, one number per image: 20 log10(max_val) - 10 log10(MSE).

    >>> x = tf.constant([[[0.25], [0.75]]])
    >>> float(tf.image.psnr(x, x + 0.1, max_val=1.0))
    20.0
    """
    a, b, max_val = _prepare(a, b, max_val)
    mse = reduce_mean(squared_difference(a, b), [-3, -2, -1])
    return 20 * log(max_val) / log(10.0) - (10 / 2.302585092994046) * log(mse)


def _gaussian_window(size, sigma):
    """TF's `_fspecial_gauss`: exp(-(i^2 + j^2) / (2 sigma^2)), normalized by a softmax."""
    coords = cast(tf_range(size), dtypes.float32) - (size - 1) / 2.0
    g = square(coords) * (-0.5 / sigma ** 2)
    g = reshape(g, [1, -1]) + reshape(g, [-1, 1])
    return reshape(softmax(reshape(g, [1, -1])), [size, size, 1, 1])


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2,
                      return_index_map=False):
    """SSIM and the contrast-structure term, per channel, under the Gaussian window."""
    for img in (img1, img2):
        h, w = img.shape[-3], img.shape[-2]
        if (h is not None and h < filter_size) or (w is not None and w < filter_size):
            raise errors.InvalidArgumentError(
                None, None, f"assertion failed: image of shape {img.shape} is smaller than "
                f"filter_size {filter_size}: SSIM's window must fit inside the image (pass a "
                "smaller filter_size for small images).")
    channels = img1.shape[-1]
    kernel = tile(_gaussian_window(filter_size, filter_sigma), [1, 1, channels, 1])

    def reducer(x):  # the Gaussian-weighted local mean of each channel
        head = x.shape[:-3].as_list()
        y = depthwise_conv2d(reshape(x, [-1] + x.shape[-3:].as_list()), kernel,
                             strides=[1, 1, 1, 1], padding="VALID")
        return reshape(y, head + y.shape[1:].as_list())

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mean0, mean1 = reducer(img1), reducer(img2)
    num0 = mean0 * mean1 * 2.0
    den0 = square(mean0) + square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(img1 * img2) * 2.0
    den1 = reducer(square(img1) + square(img2))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    if return_index_map:
        return luminance * cs, cs
    return reduce_mean(luminance * cs, [-3, -2]), reduce_mean(cs, [-3, -2])


@tf_export("image.ssim")
def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    """Structural similarity of two images (or batches): 1.0 for identical images.

    `return_index_map=True` gives the SSIM of every window position instead of the mean.

    >>> import numpy as np
    >>> x = tf.constant(np.linspace(0.0, 1.0, 16 * 16).reshape(16, 16, 1), tf.float32)
    >>> float(tf.image.ssim(x, x, max_val=1.0))
    1.0
    >>> round(float(tf.image.ssim(x, 1.0 - x, max_val=1.0)), 4)
    -0.8262
    """
    img1, img2, max_val = _prepare(img1, img2, max_val)
    per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2,
                                       return_index_map)
    return reduce_mean(per_channel, [-1])


def _halve(images):
    """One MS-SSIM scale down: pad odd sizes by reflection, then 2 x 2 average pooling."""
    out = []
    for x in images:
        tail = x.shape[-3:].as_list()
        flat = reshape(x, [-1] + tail)
        rem_h, rem_w = tail[0] % 2, tail[1] % 2
        if rem_h or rem_w:
            flat = pad(flat, [[0, 0], [0, rem_h], [0, rem_w], [0, 0]], mode="SYMMETRIC")
        pooled = avg_pool(flat, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
        out.append(reshape(pooled, x.shape[:-3].as_list() + pooled.shape[1:].as_list()))
    return out


@tf_export("image.ssim_multiscale")
def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multi-scale SSIM: contrast-structure at each halving, SSIM at the last, to the powers.

    The image must stay at least `filter_size` wide at the smallest scale:
    with 5 scales and filter 11 that is 11 * 2**4 = 176 pixels.

    >>> import numpy as np
    >>> x = tf.constant(np.linspace(0.0, 1.0, 32 * 32).reshape(32, 32, 1), tf.float32)
    >>> float(tf.image.ssim_multiscale(x, x, 1.0, filter_size=2))
    1.0
    """
    img1, img2, max_val = _prepare(img1, img2, max_val)
    images = [img1, img2]
    mcs = []
    for k in range(len(power_factors)):
        if k > 0:
            images = _halve(images)
        ssim_per_channel, cs = _ssim_per_channel(*images, max_val, filter_size, filter_sigma,
                                                 k1, k2)
        mcs.append(relu(cs))
    mcs.pop()  # the last scale contributes its full SSIM instead
    terms = stack(mcs + [relu(ssim_per_channel)], axis=-1)
    weights = convert_to_tensor(list(power_factors), dtypes.float32)
    return reduce_mean(reduce_prod(tf_pow(terms, weights), [-1]), [-1])
