"""tf.image colour ops without TF: hand-derived values, finite-difference gradients,
tf.function, the random augmentations and TF's errors."""
import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads, numerical_gradient

RNG = np.random.default_rng(5)
IMG = RNG.uniform(0.05, 0.95, size=(2, 6, 7, 3)).astype(np.float32)


def check_grads_float32(f, x, eps=1e-3, rtol=2e-2, atol=2e-3):
    """Finite differences for ops that compute in float32 as TF's do (eps sized for float32)."""
    x = np.asarray(x, np.float32)
    w = RNG.uniform(0.5, 1.5, size=np.shape(f(tf.constant(x)))).astype(np.float32)

    def value(arrays):
        y = f(tf.constant(arrays[0].astype(np.float32)))
        return float(np.sum(y.numpy().astype(np.float64) * w))

    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.reduce_sum(f(xt) * w)
    got = tape.gradient(y, xt).numpy()
    expected = numerical_gradient(value, [x.astype(np.float64)], 0, eps=eps)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)


# --- convert_image_dtype -----------------------------------------------------------------
def test_int_to_float_divides_by_max():
    got = tf.image.convert_image_dtype(np.array([0, 51, 255], np.uint8), tf.float32)
    np.testing.assert_allclose(got.numpy(), [0, 0.2, 1], rtol=1e-6)
    got = tf.image.convert_image_dtype(np.array([127], np.int8), tf.float64)
    assert got.dtype == tf.float64 and got.numpy()[0] == 1.0


def test_float_to_int_scales_by_max_plus_half_and_truncates():
    x = np.array([0.0, 0.5, 0.999, 1.0], np.float32)
    got = tf.image.convert_image_dtype(x, tf.uint8).numpy()
    np.testing.assert_array_equal(got, [0, 127, 255, 255])  # 0.5 * 255.5 = 127.75 -> 127
    over = tf.image.convert_image_dtype(np.array([1.5, -0.5], np.float32), tf.uint8,
                                        saturate=True)
    np.testing.assert_array_equal(over.numpy(), [255, 0])


def test_int_to_int_multiplies_or_floor_divides():
    up = tf.image.convert_image_dtype(np.array([1, 255], np.uint8), tf.int16).numpy()
    np.testing.assert_array_equal(up, [128, 32640])            # x (32767 + 1) // (255 + 1)
    down = tf.image.convert_image_dtype(np.array([1000, 32767], np.int16), tf.uint8).numpy()
    np.testing.assert_array_equal(down, [7, 255])              # x // 128
    back = tf.image.convert_image_dtype(tf.image.convert_image_dtype(
        np.array([1, 2, 127], np.int8), tf.int16), tf.int8)
    np.testing.assert_array_equal(back.numpy(), [1, 2, 127])
    clipped = tf.image.convert_image_dtype(np.array([-5, 3], np.int8), tf.uint8, saturate=True)
    np.testing.assert_array_equal(clipped.numpy(), [0, 6])


def test_same_dtype_is_identity_and_bad_dtypes_raise():
    x = tf.constant([0.25])
    assert tf.image.convert_image_dtype(x, tf.float32).numpy()[0] == 0.25
    with pytest.raises(AttributeError, match="floating point or integer"):
        tf.image.convert_image_dtype(x, tf.bool)
    with pytest.raises(AttributeError, match="image dtype"):
        tf.image.convert_image_dtype(tf.constant([True]), tf.float32)


def test_saturate_cast_limits_stay_representable():
    from minitf.image.dtype_conversion import saturate_cast

    got = saturate_cast(np.array([3e9, -3e9], np.float32), tf.int32).numpy()
    np.testing.assert_array_equal(got, [2147483520, -2147483648])  # float32 steps below 2**31


# --- colour spaces -------------------------------------------------------------------------
def test_rgb_to_hsv_hand_values():
    rgb = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0.5, 0.5, 0.5], [0, 0, 0], [1, 1, 0]],
                   np.float32)
    hsv = tf.image.rgb_to_hsv(rgb).numpy()
    np.testing.assert_allclose(hsv, [[0, 1, 1], [1 / 3, 1, 1], [2 / 3, 1, 1], [0, 0, 0.5],
                                     [0, 0, 0], [1 / 6, 1, 1]], atol=1e-7)


def test_hsv_round_trip_and_linear_spaces_invert():
    np.testing.assert_allclose(tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(IMG)).numpy(), IMG,
                               atol=1e-6)
    # TF's printed matrices are inverses to about 1e-4 only
    np.testing.assert_allclose(tf.image.yiq_to_rgb(tf.image.rgb_to_yiq(IMG)).numpy(), IMG,
                               atol=1e-4)
    np.testing.assert_allclose(tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(IMG)).numpy(), IMG,
                               atol=1e-4)
    y = tf.image.rgb_to_yuv(IMG).numpy()[..., 0]
    np.testing.assert_allclose(y, IMG @ np.array([0.299, 0.587, 0.114]), atol=1e-6)


def test_grayscale_weights_and_back():
    gray = tf.image.rgb_to_grayscale(IMG)
    assert gray.shape == (2, 6, 7, 1)
    np.testing.assert_allclose(gray.numpy()[..., 0], IMG @ np.array([0.2989, 0.587, 0.114]),
                               atol=1e-6)
    rgb = tf.image.grayscale_to_rgb(gray)
    assert rgb.shape == (2, 6, 7, 3)
    np.testing.assert_array_equal(rgb.numpy()[..., 2], gray.numpy()[..., 0])
    u8 = tf.image.rgb_to_grayscale(np.array([[[255, 0, 0]]], np.uint8))
    assert u8.dtype == tf.uint8 and u8.numpy().item() == 76  # 0.2989 * 255.5 = 76.4 -> 76
    with pytest.raises(ValueError, match="size 1"):
        tf.image.grayscale_to_rgb(IMG)


def test_colour_space_gradients_against_finite_differences():
    x = RNG.uniform(0.1, 0.9, size=(4, 3))
    check_grads(tf.image.rgb_to_hsv, x)
    check_grads(tf.image.rgb_to_yiq, x, order=2)
    check_grads(tf.image.yuv_to_rgb, x)
    check_grads_float32(tf.image.rgb_to_grayscale, x[None])


def test_hsv_to_rgb_has_no_gradient_as_in_tf():
    x = tf.constant(IMG)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.hsv_to_rgb(x))
    assert tape.gradient(y, x) is None


# --- adjustments ---------------------------------------------------------------------------
def test_brightness_and_gamma_hand_values():
    x = np.array([[[0.2, 0.9]]], np.float32)
    np.testing.assert_allclose(tf.image.adjust_brightness(x, 0.2).numpy(), [[[0.4, 1.1]]])
    np.testing.assert_allclose(tf.image.adjust_gamma(x, 2, gain=3).numpy(),
                               3 * x ** 2, rtol=1e-6)
    u8 = np.array([[[10, 250]]], np.uint8)
    np.testing.assert_array_equal(tf.image.adjust_brightness(u8, 0.1).numpy(), [[[35, 255]]])
    with pytest.raises(ValueError, match="non-negative"):
        tf.image.adjust_gamma(x, -1.0)


def test_contrast_moves_each_channel_from_its_mean():
    got = tf.image.adjust_contrast(IMG, 1.5).numpy()
    mean = IMG.mean(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(got, (IMG - mean) * 1.5 + mean, atol=1e-6)


def test_hue_turns_the_wheel_and_keeps_max_and_min():
    red = np.array([[[1.0, 0.0, 0.0]]], np.float32)
    np.testing.assert_allclose(tf.image.adjust_hue(red, 1 / 3).numpy(), [[[0, 1, 0]]], atol=1e-6)
    np.testing.assert_allclose(tf.image.adjust_hue(red, -1 / 3).numpy(), [[[0, 0, 1]]],
                               atol=1e-6)
    turned = tf.image.adjust_hue(IMG, 0.37).numpy()
    np.testing.assert_allclose(turned.max(-1), IMG.max(-1), atol=1e-6)
    np.testing.assert_allclose(turned.min(-1), IMG.min(-1), atol=1e-6)
    np.testing.assert_allclose(tf.image.adjust_hue(IMG, 1.0).numpy(), IMG, atol=1e-5)
    with pytest.raises(ValueError, match=r"\[-1, 1\]"):
        tf.image.adjust_hue(IMG, 1.5)


def test_saturation_scales_s_of_hsv():
    hsv = tf.image.rgb_to_hsv(IMG).numpy()
    got = tf.image.rgb_to_hsv(tf.image.adjust_saturation(IMG, 0.5)).numpy()
    np.testing.assert_allclose(got[..., 1], hsv[..., 1] * 0.5, atol=1e-5)
    np.testing.assert_allclose(got[..., 2], hsv[..., 2], atol=1e-6)
    grey = tf.image.adjust_saturation(IMG, 0.0).numpy()
    np.testing.assert_allclose(grey, np.repeat(IMG.max(-1, keepdims=True), 3, -1), atol=1e-6)


def test_per_image_standardization():
    got = tf.image.per_image_standardization(IMG).numpy()
    np.testing.assert_allclose(got.mean(axis=(1, 2, 3)), 0, atol=1e-6)
    np.testing.assert_allclose(got.std(axis=(1, 2, 3)), 1, rtol=1e-5)
    flat = tf.image.per_image_standardization(np.full((2, 2, 1), 7, np.uint8))
    assert flat.dtype == tf.float32 and not np.any(flat.numpy())  # no division by 0
    with pytest.raises(ValueError, match="at least three-dimensional"):
        tf.image.per_image_standardization(np.zeros((2, 2), np.float32))


@pytest.mark.parametrize("f", [
    lambda x: tf.image.adjust_brightness(x, 0.3),
    lambda x: tf.image.adjust_gamma(x, 0.7, 1.2),
    tf.image.per_image_standardization,
])
def test_adjustment_gradients_against_finite_differences(f):
    check_grads_float32(f, IMG[:1, :3, :4])


def test_kernels_without_gradient_in_tf_give_none():
    x = tf.constant(IMG)
    for f in (lambda x: tf.image.adjust_hue(x, 0.1), lambda x: tf.image.adjust_saturation(x, 2),
              lambda x: tf.image.adjust_contrast(x, 2.0)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(f(x))
        assert tape.gradient(y, x) is None


@pytest.mark.parametrize("call,cls,message", [
    (lambda: tf.image.rgb_to_hsv(np.zeros((2, 4), np.float32)), tf.errors.FailedPreconditionError,
     "3 channels but input only has 4"),
    (lambda: tf.image.adjust_hue(np.zeros((1, 2, 4), np.float32), 0.1),
     tf.errors.InvalidArgumentError, "3 channels but instead has 4"),
    (lambda: tf.image.adjust_contrast(np.zeros((2, 4), np.float32), 2.0),
     tf.errors.InvalidArgumentError, r"at least 3-D, got shape\[2,4\]"),
    (lambda: tf.image.rgb_to_yiq(np.zeros((2, 4), np.float32)), ValueError, "3 colour channels"),
])
def test_bad_shapes_raise_tfs_errors(call, cls, message):
    with pytest.raises(cls, match=message):
        call()


def test_everything_traces_into_tf_function():
    def pipeline(x):
        x = tf.image.adjust_brightness(x, 0.05)
        x = tf.image.adjust_contrast(x, 1.2)
        x = tf.image.adjust_hue(x, 0.1)
        x = tf.image.adjust_saturation(x, 1.3)
        x = tf.image.adjust_gamma(x, 0.9)
        x = tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x))
        x = tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(x))
        x = tf.image.per_image_standardization(tf.image.rgb_to_grayscale(x))
        return tf.image.convert_image_dtype(tf.sigmoid(x), tf.uint8)

    traced = tf.function(pipeline)(tf.constant(IMG))
    np.testing.assert_array_equal(traced.numpy(), pipeline(tf.constant(IMG)).numpy())


# --- random augmentation -------------------------------------------------------------------
def test_stateless_random_ops_repeat_for_a_seed_and_change_with_it():
    for f in (lambda s: tf.image.stateless_random_brightness(IMG, 0.3, s),
              lambda s: tf.image.stateless_random_contrast(IMG, 0.2, 1.8, s),
              lambda s: tf.image.stateless_random_hue(IMG, 0.4, s),
              lambda s: tf.image.stateless_random_saturation(IMG, 0.2, 1.8, s)):
        np.testing.assert_array_equal(f((1, 2)).numpy(), f((1, 2)).numpy())
        assert np.any(f((1, 2)).numpy() != f((3, 4)).numpy())


def test_random_brightness_stays_in_its_range_and_follows_the_seed():
    flat = np.full((1, 1, 1), 0.5, np.float32)
    deltas = [float(tf.image.random_brightness(flat, 0.1)[0, 0, 0]) - 0.5 for _ in range(50)]
    assert -0.1 <= min(deltas) and max(deltas) < 0.1 and len(set(deltas)) > 40
    tf.random.set_seed(7)
    a = tf.image.random_contrast(IMG, 0.5, 1.5, seed=3)
    tf.random.set_seed(7)
    b = tf.image.random_contrast(IMG, 0.5, 1.5, seed=3)
    np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_random_jpeg_quality_draws_an_int_quality():
    u8 = (IMG[0] * 255).astype(np.uint8)
    got = tf.image.stateless_random_jpeg_quality(u8, 40, 41, (1, 1))  # only quality 40
    np.testing.assert_array_equal(got.numpy(), tf.image.adjust_jpeg_quality(u8, 40).numpy())
    assert tf.image.random_jpeg_quality(IMG[0], 50, 90).dtype == tf.float32


@pytest.mark.parametrize("call,message", [
    (lambda: tf.image.random_brightness(IMG, -0.1), "non-negative"),
    (lambda: tf.image.random_contrast(IMG, 1.0, 0.5), "upper must be > lower"),
    (lambda: tf.image.random_saturation(IMG, -1.0, 0.5), "lower must be non-negative"),
    (lambda: tf.image.random_hue(IMG, 0.6), "max_delta must be <= 0.5"),
    (lambda: tf.image.stateless_random_hue(IMG, -0.1, (1, 2)), "non-negative"),
    (lambda: tf.image.random_jpeg_quality(IMG[0], 50, 120), "between 0 and 100"),
    (lambda: tf.image.random_jpeg_quality(IMG[0], 60, 60), "must be less than"),
])
def test_random_ops_check_their_arguments(call, message):
    with pytest.raises(ValueError, match=message):
        call()
