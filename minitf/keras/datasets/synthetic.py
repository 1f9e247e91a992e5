"""`tf.keras.datasets.synthetic`: small generated datasets, the same on every run (a minitf extra).

Shapes that need no download and that a picture explains: two interleaved
half-moons and N-armed spirals (2-D points for classifiers and decision
boundaries) and noisy sine waves (sequences for recurrent layers). Each
generator is a pure function of its arguments: it draws from its own
`np.random.RandomState(seed)`, never from the global seed, so a lesson's
numbers do not depend on which cells ran before. Each returns
`(x_train, y_train), (x_test, y_test)` like a `load_data()`.

>>> (x_train, y_train), (x_test, y_test) = tf.keras.datasets.synthetic.moons(200, seed=0)
>>> x_train.shape, x_train.dtype, y_train.shape, y_train.dtype, x_test.shape
((160, 2), dtype('float32'), (160,), dtype('int64'), (40, 2))
"""
import numpy as np

from ...framework.tf_export import tf_export
from ._shipped import check_test_split, shuffled_split


def _check_num_samples(num_samples, minimum=2):
    if int(num_samples) != num_samples or num_samples < minimum:
        raise ValueError(f"`num_samples` must be an integer >= {minimum}, got {num_samples}.")
    return int(num_samples)


@tf_export("keras.datasets.synthetic.moons")
def moons(num_samples=400, noise=0.1, test_split=0.2, seed=0):
    """Two interleaving half circles: label 0 arcs over the top, label 1 under it.

    Point i of a moon sits at angle t in [0, pi]: (cos t, sin t) for label 0 and
    (1 - cos t, 0.5 - sin t) for label 1; Gaussian noise of standard deviation
    `noise` is added to both coordinates. No straight line separates them, one
    hidden layer does.

    Returns float32 points of shape `(n, 2)` and int64 labels of shape `(n,)`.

    >>> (x, y), _ = tf.keras.datasets.synthetic.moons(10, noise=0.0, test_split=0.0)
    >>> bool(np.all(x[y == 0, 1] >= 0)), bool(np.all(x[y == 1, 1] <= 0.5))
    (True, True)
    """
    num_samples = _check_num_samples(num_samples)
    check_test_split(test_split)
    rng = np.random.RandomState(seed)
    n_top = num_samples // 2
    t_top = np.linspace(0, np.pi, n_top)
    t_bottom = np.linspace(0, np.pi, num_samples - n_top)
    top = np.stack([np.cos(t_top), np.sin(t_top)], axis=1)
    bottom = np.stack([1 - np.cos(t_bottom), 0.5 - np.sin(t_bottom)], axis=1)
    x = np.concatenate([top, bottom]) + rng.normal(scale=noise, size=(num_samples, 2))
    y = np.concatenate([np.zeros(n_top), np.ones(num_samples - n_top)]).astype("int64")
    return shuffled_split(x.astype("float32"), y, test_split, seed)


@tf_export("keras.datasets.synthetic.spirals")
def spirals(num_samples=400, num_classes=2, noise=0.2, turns=1.0, test_split=0.2, seed=0):
    """`num_classes` spiral arms wound around the origin, one label per arm.

    Along arm k a point at position s in [0, 1] has radius s and angle
    `2*pi*(turns*s + k/num_classes)`, plus Gaussian noise of standard deviation
    `noise` on the angle. The harder cousin of `moons`: a classifier must bend
    its boundary around the centre.

    Returns float32 points of shape `(n, 2)` (inside the unit disc, noise
    aside) and int64 labels 0..num_classes-1.

    >>> (x, y), _ = tf.keras.datasets.synthetic.spirals(300, num_classes=3, test_split=0.0)
    >>> x.shape, np.bincount(y).tolist()
    ((300, 2), [100, 100, 100])
    """
    num_samples = _check_num_samples(num_samples, minimum=num_classes)
    check_test_split(test_split)
    if int(num_classes) != num_classes or num_classes < 2:
        raise ValueError(f"`num_classes` must be an integer >= 2, got {num_classes}.")
    rng = np.random.RandomState(seed)
    per_class = np.full(num_classes, num_samples // num_classes)
    per_class[: num_samples % num_classes] += 1
    points, labels = [], []
    for k, n in enumerate(per_class):
        s = np.linspace(0.0, 1.0, n)
        angle = 2 * np.pi * (turns * s + k / num_classes) + rng.normal(scale=noise, size=n)
        points.append(np.stack([s * np.cos(angle), s * np.sin(angle)], axis=1))
        labels.append(np.full(n, k))
    x = np.concatenate(points).astype("float32")
    y = np.concatenate(labels).astype("int64")
    return shuffled_split(x, y, test_split, seed)


@tf_export("keras.datasets.synthetic.sine_waves")
def sine_waves(num_samples=500, timesteps=20, noise=0.05, test_split=0.2, seed=0):
    """Windows of noisy sine waves; the target is the clean next value.

    Each sample has its own frequency w (between 0.5 and 2 full cycles per
    window) and phase phi: `x[i, t, 0] = sin(w*t + phi) + noise` for
    t = 0..timesteps-1, and `y[i, 0] = sin(w*timesteps + phi)`. A forecasting task for
    `SimpleRNN`, `LSTM` and `GRU`.

    Returns `x` float32 of shape `(n, timesteps, 1)` and `y` float32 of shape
    `(n, 1)`.

    >>> (x, y), (x_test, y_test) = tf.keras.datasets.synthetic.sine_waves(50, timesteps=8)
    >>> x.shape, y.shape, x_test.shape
    ((40, 8, 1), (40, 1), (10, 8, 1))
    >>> bool(np.all(np.abs(y) <= 1.0))
    True
    """
    num_samples = _check_num_samples(num_samples)
    check_test_split(test_split)
    rng = np.random.RandomState(seed)
    cycles = rng.uniform(0.5, 2.0, size=(num_samples, 1))
    omega = 2 * np.pi * cycles / timesteps
    phase = rng.uniform(0, 2 * np.pi, size=(num_samples, 1))
    t = np.arange(timesteps + 1)[None, :]
    clean = np.sin(omega * t + phase)
    x = clean[:, :timesteps] + rng.normal(scale=noise, size=(num_samples, timesteps))
    y = clean[:, timesteps:]
    return shuffled_split(x[..., None].astype("float32"), y.astype("float32"), test_split, seed)
