"""Pictures for the convolution lesson: an image, the filters slid over it, the maps they make.

`digit_images()` reads the 1797 handwritten 8×8 digits that minitf ships (the
file behind `tf.keras.datasets.digits.load_data()`, a minitf extra) with NumPy
alone, so a lesson that uses it runs unchanged under real TensorFlow:

>>> images, labels = digit_images()
>>> images.shape, images.dtype, int(images.max()), labels[:5].tolist()
((1797, 8, 8), dtype('uint8'), 16, [0, 1, 2, 3, 4])

`draw_feature_maps(image, kernels, maps, titles)` draws, for each filter, its
kernel (with the weights written in) above the feature map it produced, next
to the input image:

>>> import numpy as np
>>> kernels = np.stack([np.eye(3), np.ones((3, 3)) / 9], axis=-1)     # (3, 3, 2)
>>> maps = np.zeros((8, 8, 2))
>>> fig = draw_feature_maps(images[0] / 16, kernels, maps, ["diagonal", "blur"])
>>> [ax.get_title() for ax in fig.axes if ax.get_title()]
['input 8×8', 'diagonal', 'blur', 'diagonal: 8×8 map', 'blur: 8×8 map']
"""
import os

import numpy as np

DIGITS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "minitf", "keras", "datasets", "data", "digits.npz")


def digit_images(path=DIGITS):
    """All the shipped digits, unshuffled: `(images, labels)`, uint8 arrays of shapes
    `(1797, 8, 8)` (pixels 0..16) and `(1797,)`."""
    with np.load(path, allow_pickle=False) as data:   # never unpickles
        images, labels = data["x"], data["y"]
    if images.ndim != 3 or images.shape[1:] != (8, 8) or labels.shape != images.shape[:1]:
        raise ValueError(f"{path} should hold x of shape (n, 8, 8) and y of shape (n,); it "
                         f"holds x {images.shape} and y {labels.shape}.")
    return images, labels


def draw_feature_maps(image, kernels, maps, titles, figsize=None):
    """A figure: the input image; per filter, its kernel above its feature map.

    image: (H, W); kernels: (kh, kw, n) -- one 2-D kernel per filter (a Conv2D kernel
    of shape (kh, kw, 1, n) may be passed as is); maps: (H', W', n); titles: n names.
    """
    import matplotlib.pyplot as plt

    kernels = np.asarray(kernels, dtype=float)
    kernels = kernels.reshape(kernels.shape[0], kernels.shape[1], -1)
    maps = np.asarray(maps, dtype=float)
    count = kernels.shape[-1]
    if maps.shape[-1] != count or len(titles) != count:
        raise ValueError(f"{count} kernels need {count} feature maps and {count} titles; got "
                         f"{maps.shape[-1]} maps and {len(titles)} titles.")
    fig, axes = plt.subplots(2, count + 1, figsize=figsize or (2.2 * (count + 1), 4.4))
    _show(axes[0, 0], image, f"input {image.shape[0]}×{image.shape[1]}", cmap="gray_r")
    axes[1, 0].axis("off")
    for i, title in enumerate(titles):
        _show(axes[0, i + 1], kernels[..., i], title, cmap="coolwarm", centred=True)
        for (r, c), value in np.ndenumerate(kernels[..., i]):
            axes[0, i + 1].text(c, r, f"{value:.2g}", ha="center", va="center", fontsize=8)
        _show(axes[1, i + 1], maps[..., i], f"{title}: {maps.shape[0]}×{maps.shape[1]} map",
              cmap="coolwarm", centred=True)
    fig.tight_layout()
    return fig


def _show(ax, values, title, cmap, centred=False):
    limit = max(float(np.abs(values).max()), 1e-9) if centred else None
    ax.imshow(values, cmap=cmap, vmin=-limit if centred else None, vmax=limit)
    ax.set_title(title, fontsize=9)
    ax.set_xticks([])
    ax.set_yticks([])
