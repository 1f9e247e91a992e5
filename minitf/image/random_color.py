"""Random colour augmentation: `random_*` and `stateless_random_*` of brightness,
contrast, hue, saturation and JPEG quality.

Each draws one number for the whole call (not one per image) and hands it to
the matching `adjust_*`:

* `random_brightness(image, max_delta)`: delta in [-max_delta, max_delta);
* `random_contrast(image, lower, upper)`: factor in [lower, upper);
* `random_hue(image, max_delta)`: delta in [-max_delta, max_delta), max_delta <= 0.5;
* `random_saturation(image, lower, upper)`: factor in [lower, upper);
* `random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality)`: an int quality.

The `random_*` forms use the global and op seeds (`tf.random.set_seed`, `seed=`);
the `stateless_random_*` forms take `seed`, a pair of ints, and give the same
result for the same seed every time:

>>> import minitf as tf
>>> x = tf.constant([[[0.2, 0.4, 0.6]]])
>>> a = tf.image.stateless_random_brightness(x, 0.2, seed=(1, 2))
>>> b = tf.image.stateless_random_brightness(x, 0.2, seed=(1, 2))
>>> bool(tf.reduce_all(a == b))
True

(minitf's `tf.random` draws its own numbers: the same seed gives different
values from TensorFlow's, so the augmented images differ from TF's too.)
"""
from ..framework import dtypes
from ..framework.tf_export import tf_export
from ..ops.random_ops import stateless_uniform, uniform
from .color_adjust import adjust_brightness, adjust_contrast, adjust_hue, adjust_saturation
from .jpeg_codec import adjust_jpeg_quality


def _check_delta(max_delta, limit=None):
    if limit is not None and max_delta > limit:
        raise ValueError(f"max_delta must be <= {limit}.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def _check_quality(low, high):
    if not (0 <= low <= 100 and 0 <= high <= 100):
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if low >= high:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")


@tf_export("image.random_brightness")
def random_brightness(image, max_delta, seed=None):
    """`adjust_brightness` by a delta drawn from [-max_delta, max_delta).

    >>> y = tf.image.random_brightness(tf.constant([[[0.5]]]), max_delta=0.1)
    >>> 0.4 <= float(y[0, 0, 0]) < 0.6
    True
    """
    _check_delta(max_delta)
    return adjust_brightness(image, uniform([], -max_delta, max_delta, seed=seed))


@tf_export("image.stateless_random_brightness")
def stateless_random_brightness(image, max_delta, seed):
    """`random_brightness` whose delta is fixed by `seed` (a pair of ints).

    >>> y = tf.image.stateless_random_brightness(tf.constant([[[0.5]]]), 0.1, seed=(3, 4))
    >>> 0.4 <= float(y[0, 0, 0]) < 0.6
    True
    """
    _check_delta(max_delta)
    return adjust_brightness(image, stateless_uniform([], seed, -max_delta, max_delta))


@tf_export("image.random_contrast")
def random_contrast(image, lower, upper, seed=None):
    """`adjust_contrast` by a factor drawn from [lower, upper).

    >>> tf.image.random_contrast(tf.zeros([2, 2, 1]), 0.5, 1.5).shape
    TensorShape([2, 2, 1])
    """
    _check_range(lower, upper)
    return adjust_contrast(image, uniform([], lower, upper, seed=seed))


@tf_export("image.stateless_random_contrast")
def stateless_random_contrast(image, lower, upper, seed):
    """`random_contrast` whose factor is fixed by `seed`.

    >>> tf.image.stateless_random_contrast(tf.zeros([2, 2, 1]), 0.5, 1.5, seed=(1, 2)).shape
    TensorShape([2, 2, 1])
    """
    _check_range(lower, upper)
    return adjust_contrast(image, stateless_uniform([], seed, lower, upper))


@tf_export("image.random_hue")
def random_hue(image, max_delta, seed=None):
    """`adjust_hue` by a delta drawn from [-max_delta, max_delta); max_delta at most 0.5.

    >>> tf.image.random_hue(tf.constant([[[0.3, 0.3, 0.3]]]), 0.2).numpy()  # grey has no hue
    array([[[0.3, 0.3, 0.3]]], dtype=float32)
    """
    _check_delta(max_delta, 0.5)
    return adjust_hue(image, uniform([], -max_delta, max_delta, seed=seed))


@tf_export("image.stateless_random_hue")
def stateless_random_hue(image, max_delta, seed):
    """`random_hue` whose delta is fixed by `seed`.

    >>> tf.image.stateless_random_hue(tf.zeros([1, 1, 3]), 0.2, seed=(1, 2)).numpy()
    array([[[0., 0., 0.]]], dtype=float32)
    """
    _check_delta(max_delta, 0.5)
    return adjust_hue(image, stateless_uniform([], seed, -max_delta, max_delta))


@tf_export("image.random_saturation")
def random_saturation(image, lower, upper, seed=None):
    """`adjust_saturation` by a factor drawn from [lower, upper).

    >>> tf.image.random_saturation(tf.constant([[[0.3, 0.3, 0.3]]]), 0.5, 1.5).numpy()
    array([[[0.3, 0.3, 0.3]]], dtype=float32)
    """
    _check_range(lower, upper)
    return adjust_saturation(image, uniform([], lower, upper, seed=seed))


@tf_export("image.stateless_random_saturation")
def stateless_random_saturation(image, lower, upper, seed=None):
    """`random_saturation` whose factor is fixed by `seed`.

    >>> tf.image.stateless_random_saturation(tf.zeros([1, 1, 3]), 0.5, 1.5, (1, 2)).numpy()
    array([[[0., 0., 0.]]], dtype=float32)
    """
    _check_range(lower, upper)
    return adjust_saturation(image, stateless_uniform([], seed, lower, upper))


@tf_export("image.random_jpeg_quality")
def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """`adjust_jpeg_quality` at an int quality drawn from [min_jpeg_quality, max_jpeg_quality).

    >>> tf.image.random_jpeg_quality(tf.zeros([8, 8, 3]), 70, 90).shape
    TensorShape([8, 8, 3])
    """
    _check_quality(min_jpeg_quality, max_jpeg_quality)
    quality = uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed, dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)


@tf_export("image.stateless_random_jpeg_quality")
def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    """`random_jpeg_quality` whose quality is fixed by `seed`.

    >>> tf.image.stateless_random_jpeg_quality(tf.zeros([8, 8, 1]), 70, 90, (1, 2)).shape
    TensorShape([8, 8, 1])
    """
    _check_quality(min_jpeg_quality, max_jpeg_quality)
    quality = stateless_uniform([], seed, min_jpeg_quality, max_jpeg_quality,
                                dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)
