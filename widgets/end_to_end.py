"""Data and pictures for the end-to-end lesson (29): digits, reviews, curves, confusions.

Everything here needs only NumPy (and matplotlib to draw), so a lesson that
uses it runs unchanged under real TensorFlow, which has neither minitf's
`tf.keras.datasets.digits` nor its reviews.

`digit_split()` is the split `tf.keras.datasets.digits.load_data()` makes
(the same seeded shuffle, 80 % / 20 %), read straight from the shipped file:

>>> (x_train, y_train), (x_test, y_test) = digit_split()
>>> x_train.shape, x_test.shape, x_train.dtype
((1437, 8, 8), (360, 8, 8), dtype('uint8'))

`review_texts()` reads `reviews.csv`, 600 short generated reviews with a 0/1
label (how it is made: `minitf/keras/datasets/data/make_reviews_csv.py`):

>>> texts, labels = review_texts()
>>> len(texts), labels.dtype, texts[0].split()[:3]
(600, dtype('int64'), ['wonderful', 'awful', 'scenes'])

`plot_history`, `plot_confusion_matrix` and `show_images` draw a History's
curves, a confusion matrix with its counts written in, and a row of images:

>>> fig = plot_history({"loss": [1.0, 0.5], "val_loss": [1.1, 0.7],
...                     "accuracy": [0.6, 0.8], "val_accuracy": [0.5, 0.7]})
>>> [ax.get_title() for ax in fig.axes]
['loss', 'accuracy']
>>> fig = plot_confusion_matrix(np.array([[3, 1], [0, 4]]))
>>> fig.axes[0].get_xlabel(), len(fig.axes[0].texts)
('predicted', 4)
>>> fig = show_images(x_test[:3], ["a", "b", "c"])
>>> [ax.get_title() for ax in fig.axes]
['a', 'b', 'c']
"""
import csv
import os

import numpy as np

from widgets.conv_views import digit_images

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "minitf", "keras", "datasets", "data")
REVIEWS = os.path.join(DATA, "reviews.csv")
MAX_REVIEW_CHARS = 10_000


def digit_split(test_split=0.2, seed=113):
    """`(x_train, y_train), (x_test, y_test)` of the shipped digits: shuffle the indices
    with `np.random.RandomState(seed)`, keep the first `int(n * (1 - test_split))`
    for training - the split `tf.keras.datasets.digits.load_data()` makes."""
    if not 0 < test_split < 1:
        raise ValueError(f"test_split must be between 0 and 1 (a fraction of the images "
                         f"kept for testing); got {test_split}.")
    images, labels = digit_images()
    order = np.arange(len(images))
    np.random.RandomState(seed).shuffle(order)
    images, labels = images[order], labels[order]
    cut = int(len(images) * (1 - test_split))
    return (images[:cut], labels[:cut]), (images[cut:], labels[cut:])


def review_texts(path=REVIEWS):
    """`(texts, labels)`: a list of review strings and an int64 array of 0/1 labels."""
    texts, labels = [], []
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        if next(reader, None) != ["text", "label"]:
            raise ValueError(f"{path} should start with the header 'text,label'.")
        for line, row in enumerate(reader, start=2):
            if len(row) != 2 or row[1] not in ("0", "1") or len(row[0]) > MAX_REVIEW_CHARS:
                raise ValueError(f"{path}, line {line}: expected a review and a label 0 or "
                                 f"1, got {row[:2]!r}.")
            texts.append(row[0])
            labels.append(int(row[1]))
    return texts, np.array(labels, dtype="int64")


def plot_history(history, metrics=("loss", "accuracy")):
    """One panel per metric: its training curve and, if present, its validation curve
    (`history` is `History.history`, a dict of per-epoch lists)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(metrics), figsize=(4.2 * len(metrics), 3.0), squeeze=False)
    for ax, name in zip(axes[0], metrics):
        epochs = np.arange(1, len(history[name]) + 1)
        ax.plot(epochs, history[name], "o-", label="training")
        if "val_" + name in history:
            ax.plot(epochs, history["val_" + name], "s--", label="validation")
        ax.set_title(name)
        ax.set_xlabel("epoch")
        ax.legend()
    fig.tight_layout()
    return fig


def plot_confusion_matrix(matrix, class_names=None):
    """The matrix as an image (rows: true class, columns: predicted) with each count
    written in its cell."""
    import matplotlib.pyplot as plt

    matrix = np.asarray(matrix)
    n = matrix.shape[0]
    names = [str(i) for i in range(n)] if class_names is None else list(class_names)
    fig, ax = plt.subplots(figsize=(0.45 * n + 2.0, 0.45 * n + 1.6))
    ax.imshow(matrix, cmap="Blues")
    for (row, col), count in np.ndenumerate(matrix):
        ax.text(col, row, str(count), ha="center", va="center", fontsize=8,
                color="white" if count > matrix.max() / 2 else "black")
    ax.set_xticks(range(n), names)
    ax.set_yticks(range(n), names)
    ax.set_xlabel("predicted")
    ax.set_ylabel("true")
    fig.tight_layout()
    return fig


def show_images(images, titles):
    """A row of grey images, each with its title."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(images), figsize=(1.3 * len(images), 1.7), squeeze=False)
    for ax, image, title in zip(axes[0], images, titles):
        ax.imshow(image, cmap="gray_r")
        ax.set_title(title, fontsize=9)
        ax.axis("off")
    fig.tight_layout()
    return fig
