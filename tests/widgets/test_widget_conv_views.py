"""widgets/conv_views.py: the shipped digits read with NumPy alone, and the feature-map figure."""
import doctest

import matplotlib
import numpy as np
import pytest

import minitf as tf
from widgets import conv_views

matplotlib.use("Agg")


def test_examples():
    result = doctest.testmod(conv_views, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_digit_images_are_the_datasets_digits():
    images, labels = conv_views.digit_images()
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.digits.load_data()
    both = np.concatenate([x_train, x_test]), np.concatenate([y_train, y_test])
    assert images.shape == (1797, 8, 8) and images.dtype == np.uint8
    # the same (image, label) pairs; load_data only shuffles and splits them
    ours = sorted(zip(map(tuple, images.reshape(1797, -1).tolist()), labels.tolist()))
    theirs = sorted(zip(map(tuple, both[0].reshape(1797, -1).tolist()), both[1].tolist()))
    assert ours == theirs


def test_digit_images_refuses_a_file_of_another_shape(tmp_path):
    path = tmp_path / "bad.npz"
    np.savez(path, x=np.zeros((3, 4, 4), np.uint8), y=np.zeros(3, np.uint8))
    with pytest.raises(ValueError, match=r"shape \(n, 8, 8\)"):
        conv_views.digit_images(str(path))


def test_figure_shows_the_maps_it_was_given():
    image = np.arange(64, dtype=float).reshape(8, 8) / 64
    kernels = np.random.default_rng(0).normal(size=(3, 3, 1, 2))       # a Conv2D kernel
    maps = np.random.default_rng(1).normal(size=(6, 6, 2))
    fig = conv_views.draw_feature_maps(image, kernels, maps, ["a", "b"])
    shown = {ax.get_title(): ax.images[0].get_array() for ax in fig.axes if ax.images}
    assert np.allclose(shown["input 8×8"], image)
    assert np.allclose(shown["a"], kernels[:, :, 0, 0])
    assert np.allclose(shown["b: 6×6 map"], maps[..., 1])
    assert len(fig.axes[1].texts) == 9                  # every kernel weight written in
    assert not fig.axes[len(fig.axes) // 2].axison      # the empty corner under the image


def test_figure_refuses_mismatched_counts():
    with pytest.raises(ValueError, match="2 kernels need 2 feature maps"):
        conv_views.draw_feature_maps(np.zeros((8, 8)), np.zeros((3, 3, 2)),
                                     np.zeros((8, 8, 3)), ["a", "b"])
