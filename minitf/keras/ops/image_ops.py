"""`keras.ops.image`: colour conversion, cropping, padding, blurring and edges.

Keras 3 images are (h, w, c) or (batch, h, w, c) tensors ("channels_last");
with `data_format="channels_first"` the channels come before h and w. These
functions take both and give back the same layout. Most are the `tf.image`
op under a Keras name (Keras's TensorFlow backend calls it, moving channels
last and back); `crop_images` and `pad_images` take any two of "before,
after, target size" per axis and work out the third.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> image = tf.ones((4, 5, 3))
>>> ops.image.pad_images(image, top_padding=1, bottom_padding=1,
...                      left_padding=1, target_width=7).shape
TensorShape([6, 7, 3])
>>> ops.image.rgb_to_grayscale(image).shape
TensorShape([4, 5, 1])

In Keras these live in `keras/src/ops/image.py` and
`keras/src/backend/tensorflow/image.py`.
"""
import minitf as tf

from ._export import keras_ops_export
from .dtype_rules import convert
from ..layers.conv_utils import standardize_data_format


def _check_rank(images):
    if images.shape.rank not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 "
                         "(batch of images). Received input with shape: "
                         f"images.shape={images.shape}")


def _to_last(images, data_format):
    """Move channels last for "channels_first"; return (images, undo)."""
    if data_format != "channels_first":
        return images, lambda y: y
    if images.shape.rank == 4:
        return tf.transpose(images, (0, 2, 3, 1)), lambda y: tf.transpose(y, (0, 3, 1, 2))
    return tf.transpose(images, (1, 2, 0)), lambda y: tf.transpose(y, (2, 0, 1))


@keras_ops_export("image")
def rgb_to_grayscale(images, data_format=None):
    """Weighted sum 0.2989 R + 0.5870 G + 0.1140 B, one channel out, dtype kept.

    A one-channel image comes back unchanged; integer images are summed in
    float and truncated back.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> ops.image.rgb_to_grayscale(tf.constant([[[1.0, 0.0, 0.0]]])).numpy()
    array([[[0.2989]]], dtype=float32)
    """
    images = convert(images)
    data_format = standardize_data_format(data_format)
    channels_axis = -1 if data_format == "channels_last" else -3
    _check_rank(images)
    if images.shape[channels_axis] not in (1, 3):
        raise ValueError("Invalid channel size: expected 3 (RGB) or 1 (Grayscale). "
                         f"Received input with shape: images.shape={images.shape}")
    if images.shape[channels_axis] == 1:
        return tf.identity(images)
    original = images.dtype
    compute = original if original.is_floating else tf.float32
    weights = tf.constant([0.2989, 0.5870, 0.1140], dtype=compute)
    axis = images.shape.rank + channels_axis
    gray = tf.tensordot(tf.cast(images, compute), weights, axes=[[axis], [0]])
    return tf.cast(tf.expand_dims(gray, axis=channels_axis), original)


def _hsv(convert_fn, images, data_format):
    images = convert(images)
    data_format = standardize_data_format(data_format)
    _check_rank(images)
    if not images.dtype.is_floating:
        raise ValueError(f"Invalid images dtype: expected float dtype. Received: "
                         f"images.dtype={images.dtype.name}")
    images, undo = _to_last(images, data_format)
    return undo(convert_fn(images))


@keras_ops_export("image")
def rgb_to_hsv(images, data_format=None):
    """RGB to hue, saturation, value (each in [0, 1]) for float images.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> ops.image.rgb_to_hsv(tf.constant([[[0.0, 0.0, 1.0]]])).numpy()
    array([[[0.6666667, 1.       , 1.       ]]], dtype=float32)
    """
    return _hsv(tf.image.rgb_to_hsv, images, data_format)


@keras_ops_export("image")
def hsv_to_rgb(images, data_format=None):
    """Hue, saturation, value back to RGB for float images.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> ops.image.hsv_to_rgb(tf.constant([[[0.0, 1.0, 1.0]]])).numpy()
    array([[[1., 0., 0.]]], dtype=float32)
    """
    return _hsv(tf.image.hsv_to_rgb, images, data_format)


def _check_two_of(names, values):
    if list(values).count(None) != 1:
        received = ", ".join(f"{n}={v}" for n, v in zip(names, values))
        raise ValueError(f"Must specify exactly two of {', '.join(names)}. Received: {received}")


def _check_non_negative(**values):
    for name, value in values.items():
        if value is not None and value < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={value}")


def _geometry(images, data_format):
    images = convert(images)
    data_format = standardize_data_format(data_format)
    if images.shape.rank not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 "
                         f"(batch of images). Received: images.shape={images.shape}")
    hw = slice(-3, -1) if data_format == "channels_last" else slice(-2, None)
    return images, data_format, images.shape.as_list()[hw]


@keras_ops_export("image")
def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None,
               right_padding=None, target_height=None, target_width=None, data_format=None):
    """Pad with zeros; per axis give two of (before, after, target size).

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> ops.image.pad_images(tf.ones((1, 2, 1)), top_padding=1, bottom_padding=0,
    ...                      left_padding=1, right_padding=1)[..., 0].numpy()
    array([[0., 0., 0., 0.],
           [0., 1., 1., 0.]], dtype=float32)
    """
    images, data_format, (height, width) = _geometry(images, data_format)
    _check_two_of(("top_padding", "bottom_padding", "target_height"),
                  (top_padding, bottom_padding, target_height))
    _check_two_of(("left_padding", "right_padding", "target_width"),
                  (left_padding, right_padding, target_width))
    _check_non_negative(top_padding=top_padding, bottom_padding=bottom_padding,
                        target_height=target_height, left_padding=left_padding,
                        right_padding=right_padding, target_width=target_width)
    if top_padding is None:
        top_padding = target_height - bottom_padding - height
    if bottom_padding is None:
        bottom_padding = target_height - top_padding - height
    if left_padding is None:
        left_padding = target_width - right_padding - width
    if right_padding is None:
        right_padding = target_width - left_padding - width
    _check_non_negative(top_padding=top_padding, left_padding=left_padding,
                        right_padding=right_padding, bottom_padding=bottom_padding)
    pads = [[top_padding, bottom_padding], [left_padding, right_padding]]
    pads = pads + [[0, 0]] if data_format == "channels_last" else [[0, 0]] + pads
    if images.shape.rank == 4:
        pads = [[0, 0]] + pads
    return tf.pad(images, pads)


@keras_ops_export("image")
def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None,
                right_cropping=None, target_height=None, target_width=None, data_format=None):
    """Cut a box out; per axis give two of (cut before, cut after, target size).

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> image = tf.reshape(tf.range(16.0), (4, 4, 1))
    >>> ops.image.crop_images(image, top_cropping=1, target_height=2,
    ...                       left_cropping=2, right_cropping=0)[..., 0].numpy()
    array([[ 6.,  7.],
           [10., 11.]], dtype=float32)
    """
    images, data_format, (height, width) = _geometry(images, data_format)
    _check_two_of(("top_cropping", "bottom_cropping", "target_height"),
                  (top_cropping, bottom_cropping, target_height))
    _check_two_of(("left_cropping", "right_cropping", "target_width"),
                  (left_cropping, right_cropping, target_width))
    _check_non_negative(top_cropping=top_cropping, bottom_cropping=bottom_cropping,
                        target_height=target_height, left_cropping=left_cropping,
                        right_cropping=right_cropping, target_width=target_width)
    if top_cropping is None:
        top_cropping = height - target_height - bottom_cropping
    if target_height is None:
        target_height = height - bottom_cropping - top_cropping
    if left_cropping is None:
        left_cropping = width - target_width - right_cropping
    if target_width is None:
        target_width = width - right_cropping - left_cropping
    _check_non_negative(top_cropping=top_cropping, target_height=target_height,
                        left_cropping=left_cropping, target_width=target_width)
    begin, size = [top_cropping, left_cropping], [target_height, target_width]
    if data_format == "channels_last":
        begin, size = begin + [0], size + [-1]
    else:
        begin, size = [0] + begin, [-1] + size
    if images.shape.rank == 4:
        begin, size = [0] + begin, [-1] + size
    return tf.slice(images, begin, size)


def _gaussian_kernel(kernel_size, sigma, channels, dtype):
    def one_d(size, s):
        x = tf.range(size, dtype=dtype) - (size - 1) / 2
        k = tf.exp(-0.5 * (x / s) ** 2)
        return k / tf.reduce_sum(k)

    height, width = int(kernel_size[0]), int(kernel_size[1])
    kernel = tf.tensordot(one_d(float(width), sigma[1]), one_d(float(height), sigma[0]), axes=0)
    return tf.tile(tf.reshape(kernel, (height, width, 1, 1)), [1, 1, channels, 1])


@keras_ops_export("image")
def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Blur each channel with a normalised Gaussian kernel ("same" zero padding).

    Like Keras, the kernel is the outer product of the profile for
    (kernel_size[1], sigma[1]) and the one for (kernel_size[0], sigma[0]),
    read as a (kernel_size[0], kernel_size[1]) window.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> image = tf.pad(tf.ones((1, 1, 1)), [[1, 1], [1, 1], [0, 0]])
    >>> ops.image.gaussian_blur(image)[..., 0].numpy().round(4)
    array([[0.0751, 0.1238, 0.0751],
           [0.1238, 0.2042, 0.1238],
           [0.0751, 0.1238, 0.0751]], dtype=float32)
    """
    images = convert(images)
    data_format = standardize_data_format(data_format)
    _check_rank(images)
    unbatched = images.shape.rank == 3
    if unbatched:
        images = tf.expand_dims(images, 0)
    images, undo = _to_last(images, data_format)
    kernel = _gaussian_kernel(kernel_size, [float(s) for s in sigma], images.shape[-1],
                              images.dtype)
    out = undo(tf.nn.depthwise_conv2d(images, kernel, strides=[1, 1, 1, 1], padding="SAME"))
    return tf.squeeze(out, 0) if unbatched else out


@keras_ops_export("image")
def sobel_edges(images, data_format=None):
    """Sobel gradients [dy, dx] per channel: (batch, h, w, c, 2) out.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> ops.image.sobel_edges(tf.zeros((1, 4, 4, 2))).shape
    TensorShape([1, 4, 4, 2, 2])
    """
    images = convert(images)
    data_format = standardize_data_format(data_format)
    if data_format == "channels_first":
        images = tf.transpose(images, (0, 2, 3, 1))
    edges = tf.image.sobel_edges(images)
    if data_format == "channels_first":
        edges = tf.transpose(edges, (0, 3, 1, 2, 4))
    return edges
