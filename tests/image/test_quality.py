"""psnr, ssim, ssim_multiscale and draw_bounding_boxes without TF: hand-derived values,
gradients by finite differences, tf.function, errors."""
import numpy as np
import pytest

import minitf as tf
from tests.image.test_color import check_grads_float32

RNG = np.random.default_rng(9)
A = RNG.uniform(0, 1, size=(2, 16, 16, 2)).astype(np.float32)
B = np.clip(A + RNG.normal(0, 0.1, A.shape), 0, 1).astype(np.float32)


def _ssim_by_hand(x, y, max_val=1.0, size=11, sigma=1.5, k1=0.01, k2=0.03):
    """SSIM of one [h, w] channel: Gaussian-weighted local statistics, written with loops."""
    g = np.exp(-((np.arange(size) - (size - 1) / 2) ** 2) / (2 * sigma ** 2))
    window = np.outer(g, g) / np.outer(g, g).sum()
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    values = []
    for i in range(x.shape[0] - size + 1):
        for j in range(x.shape[1] - size + 1):
            px, py = x[i:i + size, j:j + size], y[i:i + size, j:j + size]
            mx, my = (window * px).sum(), (window * py).sum()
            vx = (window * px * px).sum() - mx * mx
            vy = (window * py * py).sum() - my * my
            cov = (window * px * py).sum() - mx * my
            values.append((2 * mx * my + c1) * (2 * cov + c2) /
                          ((mx * mx + my * my + c1) * (vx + vy + c2)))
    return np.mean(values)


def test_psnr_is_20_log10_max_minus_10_log10_mse():
    mse = ((A - B) ** 2).mean(axis=(1, 2, 3))
    np.testing.assert_allclose(tf.image.psnr(A, B, 1.0).numpy(), -10 * np.log10(mse), rtol=1e-5)
    u8a, u8b = (A * 255).astype(np.uint8), (B * 255).astype(np.uint8)
    mse8 = ((u8a.astype(float) - u8b) ** 2).mean(axis=(1, 2, 3))
    np.testing.assert_allclose(tf.image.psnr(u8a, u8b, 255).numpy(),
                               20 * np.log10(255) - 10 * np.log10(mse8), rtol=1e-4)
    assert np.isinf(tf.image.psnr(A, A, 1.0).numpy()).all()


def test_ssim_equals_the_definition_computed_by_hand():
    got = tf.image.ssim(A, B, 1.0).numpy()
    expected = [np.mean([_ssim_by_hand(A[n, ..., c].astype(np.float64),
                                       B[n, ..., c].astype(np.float64)) for c in range(2)])
                for n in range(2)]
    np.testing.assert_allclose(got, expected, rtol=1e-4)
    np.testing.assert_allclose(tf.image.ssim(A, A, 1.0).numpy(), 1.0, rtol=1e-6)
    np.testing.assert_allclose(tf.image.ssim(A, B, 1.0).numpy(), tf.image.ssim(B, A, 1.0).numpy(),
                               rtol=1e-6)


def test_ssim_index_map_and_broadcast_batches():
    index_map = tf.image.ssim(A, B, 1.0, filter_size=5, return_index_map=True)
    assert index_map.shape == (2, 12, 12)
    np.testing.assert_allclose(index_map.numpy().mean(axis=(1, 2)),
                               tf.image.ssim(A, B, 1.0, filter_size=5).numpy(), rtol=1e-5)
    assert tf.image.ssim(A[:1], B, 1.0).shape == (2,)


def test_ssim_multiscale_of_equal_images_is_one_and_drops_with_noise():
    big = RNG.uniform(0, 1, size=(1, 40, 40, 1)).astype(np.float32)
    same = tf.image.ssim_multiscale(big, big, 1.0, filter_size=2)
    np.testing.assert_allclose(same.numpy(), 1.0, rtol=1e-6)
    noisy = np.clip(big + RNG.normal(0, 0.2, big.shape), 0, 1).astype(np.float32)
    assert 0 < tf.image.ssim_multiscale(big, noisy, 1.0, filter_size=2).numpy()[0] < 1


def test_ssim_multiscale_with_one_scale_is_ssim():
    one = tf.image.ssim_multiscale(A, B, 1.0, power_factors=(1.0,), filter_size=5)
    np.testing.assert_allclose(one.numpy(), tf.image.ssim(A, B, 1.0, filter_size=5).numpy(),
                               rtol=1e-5)


@pytest.mark.parametrize("f", [
    lambda x: tf.image.psnr(x, B[:1, :8, :8], 1.0),
    lambda x: tf.image.ssim(x, B[:1, :8, :8], 1.0, filter_size=3),
    lambda x: tf.image.ssim_multiscale(x, B[:1, :8, :8], 1.0, power_factors=(0.6, 0.4),
                                       filter_size=3),
])
def test_metric_gradients_against_finite_differences(f):
    check_grads_float32(f, A[:1, :8, :8], rtol=3e-2, atol=5e-3)


def test_metrics_trace_into_tf_function():
    f = tf.function(lambda a, b: (tf.image.psnr(a, b, 1.0), tf.image.ssim(a, b, 1.0),
                                  tf.image.ssim_multiscale(a, b, 1.0, filter_size=1)))
    for traced, eager in zip(f(tf.constant(A), tf.constant(B)),
                             (tf.image.psnr(A, B, 1.0), tf.image.ssim(A, B, 1.0),
                              tf.image.ssim_multiscale(A, B, 1.0, filter_size=1))):
        np.testing.assert_allclose(traced.numpy(), eager.numpy(), rtol=1e-6)


def test_metric_errors():
    with pytest.raises(ValueError, match="incompatible"):
        tf.image.psnr(A, B[:, :8], 1.0)
    with pytest.raises(ValueError, match="rank at least 3"):
        tf.image.ssim(A[0, 0], B[0, 0], 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="smaller than filter_size 11"):
        tf.image.ssim(A[:, :8, :8], B[:, :8, :8], 1.0)


# --- draw_bounding_boxes -------------------------------------------------------------------
def test_boxes_outline_in_default_colours():
    out = tf.image.draw_bounding_boxes(np.zeros((1, 5, 5, 3), np.float32),
                                       [[[0.0, 0.0, 0.5, 0.5], [0.5, 0.5, 1.0, 1.0]]], None)
    red, green, blue = (out.numpy()[0, ..., c] for c in range(3))
    ring = np.zeros((5, 5))
    ring[0, :3] = ring[2, :3] = ring[:3, 0] = ring[:3, 2] = 1  # first box: rows/cols 0..2
    np.testing.assert_array_equal(red * (1 - blue), ring * (1 - blue))  # yellow = (1, 1, 0)
    assert (blue[2:, 2:][[0, -1]] == 1).all()                        # second box: blue


def test_box_partly_outside_loses_its_outside_edges_and_inverted_box_is_skipped():
    canvas = np.zeros((1, 5, 5, 1), np.float32)
    out = tf.image.draw_bounding_boxes(canvas, [[[0.5, 0.5, 1.5, 1.5], [0.8, 0.0, 0.2, 1.0]]],
                                       [[0.5, 0, 0, 1]]).numpy()[0, ..., 0]
    expected = np.zeros((5, 5), np.float32)
    expected[2, 2:] = expected[2:, 2] = 0.5  # top and left edges only; the rest is outside
    np.testing.assert_array_equal(out, expected)


def test_boxes_errors_and_tf_function():
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank of the images should be 4"):
        tf.image.draw_bounding_boxes(np.zeros((5, 5, 3), np.float32), [[[0, 0, 1, 1]]], None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least as many columns"):
        tf.image.draw_bounding_boxes(np.zeros((1, 5, 5, 3), np.float32), [[[0, 0, 1, 1]]],
                                     [[1.0, 0.0]])
    f = tf.function(lambda x, b: tf.image.draw_bounding_boxes(x, b, None))
    out = f(tf.zeros([1, 4, 4, 1]), tf.constant([[[0.0, 0.0, 1.0, 1.0]]]))
    assert out.numpy()[0, 0, 0, 0] == 1.0 and out.numpy()[0, 1, 1, 0] == 0.0


def test_boxes_take_plain_uint8_arrays_as_float32_but_not_uint8_tensors():
    out = tf.image.draw_bounding_boxes(np.full((1, 3, 3, 1), 7, np.uint8), [[[0, 0, 1, 1]]], None)
    assert out.dtype == tf.float32 and out.numpy()[0, 1, 1, 0] == 7.0  # as TF: cast, not scaled
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 1], tf.uint8), [[[0, 0, 1, 1]]], None)
