"""ContrastLimitedAdaptiveHistogramEqualization (CLAHE): equalize contrast tile by tile.

Plain histogram equalization (`Equalization`) uses one histogram for the
whole image. CLAHE cuts the image into `tile_grid_size` tiles and gives each
tile its own mapping, so dark and bright regions both gain contrast:

1. per tile and channel, a 256-bin histogram of the values (read in 0..255);
2. bins above `clip_limit * tile_pixels / 256` are cut, and what was cut is
   spread evenly over all bins (this limits how much noise in a flat region
   is amplified);
3. the tile's mapping is its normalised CDF, `(cdf - cdf_min) * 255 / (n - cdf_min)`;
4. each pixel mixes the mappings of the four nearest tile centres,
   bilinearly, so tile borders do not show.

Not random: it runs the same in training and at inference, and keeps the
input's dtype (uint8 in, uint8 out).

>>> import minitf as tf
>>> ramp = tf.reshape(tf.range(0.0, 64.0, 4.0), [1, 4, 4, 1])     # values 0..60
>>> plain = tf.keras.layers.ContrastLimitedAdaptiveHistogramEqualization(
...     clip_limit=0, tile_grid_size=(1, 1))          # no clipping: plain equalization
>>> plain(ramp)[0, ..., 0].numpy()
array([[  0.,  17.,  34.,  51.],
       [ 68.,  85., 102., 119.],
       [136., 153., 170., 187.],
       [204., 221., 238., 255.]], dtype=float32)
>>> clahe = tf.keras.layers.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(1, 1))
>>> clahe(ramp)[0, ..., 0].numpy().round(1)           # clip_limit=4: the gain is limited
array([[  0. ,   7.1,  14.2,  21.3],
       [ 28.4,  35.5,  42.6,  49.7],
       [ 56.8,  63.9,  71. ,  78.1],
       [ 85.3,  92.4,  99.5, 106.6]], dtype=float32)

In Keras: `keras/src/layers/preprocessing/image_preprocessing/clahe.py`
(whose algorithm, padding and interpolation this follows step by step).
"""
import minitf as tf

from ....framework.tf_export import tf_export
from .image_color_more import _rescale
from .image_preprocessing import BaseImagePreprocessingLayer, batch_size


def _pad_to_tiles(images, pad_h, pad_w):
    """Pad height and width at the bottom/right by mirroring ("symmetric", as Keras)."""
    if pad_h == 0 and pad_w == 0:
        return images
    return tf.pad(images, [[0, 0], [0, pad_h], [0, pad_w], [0, 0]], mode="SYMMETRIC")


def _tile_mappings(padded, batch, grid, tile, channels, clip_limit):
    """[batch, grid_h + 2, grid_w + 2, channels, 256]: each tile's clipped, normalised CDF,
    with the border tiles repeated once around (so edge pixels interpolate to themselves)."""
    (grid_h, grid_w), (tile_h, tile_w) = grid, tile
    tiled = tf.reshape(padded, tf.stack([batch, grid_h, tile_h, grid_w, tile_w, channels]))
    tiled = tf.transpose(tiled, [0, 1, 3, 5, 2, 4])
    tiled = tf.reshape(tiled, tf.stack([batch, grid_h, grid_w, channels, tile_h * tile_w]))
    values = tf.clip_by_value(tf.cast(tiled, tf.int32), 0, 255)
    hists = tf.reduce_sum(tf.one_hot(values, 256), axis=-2)
    if clip_limit > 0:
        limit = tf.cast(clip_limit * (tile_h * tile_w) / 256.0, hists.dtype)
        clipped = tf.clip_by_value(hists, 0, limit)
        hists = clipped + tf.reduce_sum(hists - clipped, axis=-1, keepdims=True) / 256.0
    cdf = tf.cumsum(hists, axis=-1)
    cdf_min = tf.reduce_min(cdf, axis=-1, keepdims=True)
    denominator = tf.cast(tile_h * tile_w, cdf.dtype) - cdf_min
    denominator = tf.where(denominator == 0, tf.ones_like(denominator), denominator)
    cdf = tf.clip_by_value((cdf - cdf_min) * 255.0 / denominator, 0, 255)
    cdf = tf.concat([cdf[:, :1], cdf, cdf[:, -1:]], axis=1)
    return tf.concat([cdf[:, :, :1], cdf, cdf[:, :, -1:]], axis=2)


def _neighbours(length, tile, grid):
    """Per row (or column): the two tile indices around it (in the padded grid) and the
    weight of the second, from the pixel's distance to the tile centres."""
    position = (tf.range(length, dtype=tf.float32) - tile / 2.0) / tile + 1.0
    low = tf.floor(position)
    weight = position - low
    first = tf.cast(tf.clip_by_value(low, 0, grid + 1), tf.int32)
    second = tf.cast(tf.clip_by_value(low + 1.0, 0, grid + 1), tf.int32)
    return first, second, weight


def clahe(images, clip_limit, tile_grid_size):
    """CLAHE of a float32 batch [batch, height, width, channels] with values in 0..255."""
    height, width, channels = images.shape[1], images.shape[2], images.shape[3]
    grid_h, grid_w = tile_grid_size
    tile_h, tile_w = -(-height // grid_h), -(-width // grid_w)
    padded = _pad_to_tiles(images, tile_h * grid_h - height, tile_w * grid_w - width)
    batch = batch_size(images)
    cdf = _tile_mappings(padded, batch, (grid_h, grid_w), (tile_h, tile_w), channels, clip_limit)
    y0, y1, wy = _neighbours(tile_h * grid_h, tile_h, grid_h)
    x0, x1, wx = _neighbours(tile_w * grid_w, tile_w, grid_w)
    pixels = tf.cast(tf.clip_by_value(padded, 0, 255), tf.int32)
    b = tf.broadcast_to(tf.reshape(tf.range(batch), [-1, 1, 1, 1]), tf.shape(pixels))
    c = tf.broadcast_to(tf.reshape(tf.range(channels), [1, 1, 1, -1]), tf.shape(pixels))

    def look_up(rows, cols):
        rows = tf.broadcast_to(tf.reshape(rows, [1, -1, 1, 1]), tf.shape(pixels))
        cols = tf.broadcast_to(tf.reshape(cols, [1, 1, -1, 1]), tf.shape(pixels))
        return tf.gather_nd(cdf, tf.stack([b, rows, cols, c, pixels], axis=-1))

    wy, wx = tf.reshape(wy, [1, -1, 1, 1]), tf.reshape(wx, [1, 1, -1, 1])
    top = look_up(y0, x0) * (1.0 - wx) + look_up(y0, x1) * wx
    bottom = look_up(y1, x0) * (1.0 - wx) + look_up(y1, x1) * wx
    return (top * (1.0 - wy) + bottom * wy)[:, :height, :width, :]


@tf_export("keras.layers.ContrastLimitedAdaptiveHistogramEqualization")
class ContrastLimitedAdaptiveHistogramEqualization(BaseImagePreprocessingLayer):
    """CLAHE: tile-wise histogram equalization with clipped histograms (always on).

    >>> tf.keras.layers.ContrastLimitedAdaptiveHistogramEqualization().tile_grid_size
    (8, 8)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), clip_limit=4.0, tile_grid_size=(8, 8),
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.clip_limit = value_range, clip_limit
        self.tile_grid_size = tile_grid_size

    def transform_images(self, images, transformation=None, training=True):
        images = tf.convert_to_tensor(images)
        if self.data_format == "channels_first":
            images = tf.transpose(images, [0, 2, 3, 1])
        dtype = images.dtype
        out = clahe(_rescale(images, self.value_range, (0, 255)), self.clip_limit,
                    self.tile_grid_size)
        out = tf.cast(_rescale(out, (0, 255), self.value_range), dtype)
        return tf.transpose(out, [0, 3, 1, 2]) if self.data_format == "channels_first" else out

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "clip_limit": self.clip_limit,
                       "tile_grid_size": self.tile_grid_size})
        return config
