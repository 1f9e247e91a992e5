"""`tf.keras.ops.image` (minitf/keras/ops/image_ops.py): against Keras 3.15 and by hand.

CASES are expressions over fixed NumPy images; they run once under real
TF/Keras (one subprocess) and once here, and must agree in dtype, shape and
values. The tests below them need no TF: hand-worked numbers, layouts, errors.
"""
import numpy as np
import pytest

import minitf as tf
from minitf.keras import ops
from real_tf import require_tf, run_tf_json

SETUP = """
import numpy as np
rng = np.random.default_rng(0)
rgb = rng.random((2, 5, 6, 3)).astype("float32")
rgb_cf = np.transpose(rgb, (0, 3, 1, 2)).copy()
one = rgb[0]
u8 = (rgb * 255).astype("uint8")
gray = rgb[..., :1].copy()
shear = np.array([1.0, 0.3, -1.0, 0.2, 1.0, -0.5, 0.0, 0.0], "float32")
two = np.array([[1.2, 0.0, -0.5, 0.0, 0.8, 0.4, 0.0, 0.0],
                [0.9, -0.1, 0.5, 0.1, 1.1, -0.3, 0.01, 0.02]], "float32")
vol = rng.random((2, 4, 6, 4, 2)).astype("float32")
big = rng.random((2, 13, 12, 3)).astype("float32")
noisy = np.clip(big + 0.1 * rng.standard_normal(big.shape), 0, 1).astype("float32")
start = np.array([[0, 0], [5, 0], [0, 4], [5, 4]], "float32")
end = np.array([[0.5, 0.2], [4.6, 0.0], [0.1, 3.7], [5.2, 4.1]], "float32")
ends = np.stack([end, start + 0.7])
grid = rng.random((4, 5)).astype("float32")
where = (rng.random((2, 3, 7)) * 8 - 2).astype("float32")
"""

CASES = [
    "ops.image.rgb_to_grayscale(rgb)",
    "ops.image.rgb_to_grayscale(rgb_cf, data_format='channels_first')",
    "ops.image.rgb_to_grayscale(one)",
    "ops.image.rgb_to_grayscale(u8)",
    "ops.image.rgb_to_grayscale(gray)",
    "ops.image.rgb_to_hsv(rgb)",
    "ops.image.rgb_to_hsv(rgb_cf, data_format='channels_first')",
    "ops.image.hsv_to_rgb(rgb)",
    "ops.image.hsv_to_rgb(rgb_cf[0], data_format='channels_first')",
    "ops.image.pad_images(rgb, 1, 2, 0, 1)",
    "ops.image.pad_images(one, top_padding=2, target_height=8, right_padding=1, target_width=9)",
    "ops.image.pad_images(rgb_cf, bottom_padding=1, target_height=7, left_padding=0,"
    " right_padding=2, data_format='channels_first')",
    "ops.image.pad_images(u8, 0, 0, 1, 1)",
    "ops.image.crop_images(rgb, 1, 2, 1, 1)",
    "ops.image.crop_images(one, top_cropping=2, target_height=2, right_cropping=1, target_width=3)",
    "ops.image.crop_images(rgb_cf, bottom_cropping=1, target_height=3, left_cropping=0,"
    " right_cropping=2, data_format='channels_first')",
    "ops.image.gaussian_blur(rgb)",
    "ops.image.gaussian_blur(one, kernel_size=(5, 3), sigma=(2.0, 0.5))",
    "ops.image.gaussian_blur(rgb_cf, kernel_size=(3, 5), sigma=(0.7, 1.5),"
    " data_format='channels_first')",
    "ops.image.sobel_edges(rgb)",
    "ops.image.sobel_edges(rgb_cf, data_format='channels_first')",
    "ops.image.affine_transform(rgb, shear)",
    "ops.image.affine_transform(one, shear, interpolation='nearest', fill_mode='wrap')",
    "ops.image.affine_transform(rgb, two, fill_mode='reflect')",
    "ops.image.affine_transform(rgb, two, fill_mode='nearest', fill_value=0.5)",
    "ops.image.affine_transform(rgb_cf, two, fill_value=2.0, data_format='channels_first')",
    "ops.image.affine_transform(u8, shear)",
    "ops.image.extract_patches(rgb, 2)",
    "ops.image.extract_patches(one, (2, 3), strides=(1, 2))",
    "ops.image.extract_patches(rgb, (3, 3), strides=1, padding='same')",
    "ops.image.extract_patches(rgb, 2, strides=1, dilation_rate=2)",
    "ops.image.extract_patches(vol, (2, 3, 2))",
    "ops.image.extract_patches_3d(vol, 2, strides=1)",
    "ops.image.extract_patches_3d(vol[0], (2, 2, 2), strides=(2, 1, 2), padding='same')",
    "ops.image.ssim(big, noisy)",
    "ops.image.ssim(big[0], noisy[0], filter_size=5, filter_sigma=0.8, k1=0.02, k2=0.05)",
    "ops.image.ssim(big * 255, noisy * 255, max_val=255.0, filter_size=7)",
    "ops.image.ssim(np.transpose(big, (0, 3, 1, 2)), np.transpose(noisy, (0, 3, 1, 2)),"
    " data_format='channels_first')",
    "ops.image.ssim(big.astype('float64'), noisy.astype('float64'), filter_size=3)",
    "ops.image.resize(rgb, (3, 4))",
    "ops.image.resize(one, (8, 9), interpolation='bicubic')",
    "ops.image.resize(rgb, (7, 3), interpolation='nearest')",
    "ops.image.resize(rgb, (3, 3), interpolation='lanczos3', antialias=True)",
    "ops.image.resize(rgb, (2, 2), interpolation='area')",
    "ops.image.resize(rgb_cf, (4, 4), data_format='channels_first')",
    "ops.image.resize(rgb_cf[0], (4, 4), data_format='channels_first')",
    "ops.image.resize(rgb, (4, 2), crop_to_aspect_ratio=True)",
    "ops.image.resize(one, (2, 5), crop_to_aspect_ratio=True)",
    "ops.image.resize(rgb, (4, 2), pad_to_aspect_ratio=True, fill_value=0.5)",
    "ops.image.resize(one, (2, 5), pad_to_aspect_ratio=True)",
    "ops.image.resize(u8, (3, 4))",
    "ops.image.resize(u8, (9, 11), interpolation='bicubic')",
    "ops.image.resize(u8, (4, 2), pad_to_aspect_ratio=True, fill_value=3)",
    "ops.image.perspective_transform(rgb, start, end)",
    "ops.image.perspective_transform(one, start, end, interpolation='nearest', fill_value=0.5)",
    "ops.image.perspective_transform(rgb, np.stack([start, start]), ends)",
    "ops.image.perspective_transform(rgb_cf, start, end, data_format='channels_first')",
    "ops.image.map_coordinates(grid, where, order=1)",
    "ops.image.map_coordinates(grid, where, order=0)",
    "ops.image.map_coordinates(grid, where, order=1, fill_mode='nearest')",
    "ops.image.map_coordinates(grid, where, order=1, fill_mode='wrap')",
    # (no 'mirror' case: Keras's TF backend then gathers at index == size and crashes)
    "ops.image.map_coordinates(grid, where, order=1, fill_mode='reflect')",
    "ops.image.map_coordinates(grid, where, order=1, fill_value=-1.0)",
    "ops.image.map_coordinates((grid * 100).astype('int32'), where, order=1)",
    "ops.image.map_coordinates(rgb[0], np.stack([where[0][..., :2], where[1][..., :2],"
    " np.ones((3, 2), 'float32')]), order=1)",
    "ops.image.scale_and_translate(grid, (7, 9), np.array([1.5, 1.8], 'float32'),"
    " np.array([0.3, -0.4], 'float32'), (0, 1), 'linear')",
    "ops.image.scale_and_translate(rgb, (2, 3, 4, 3), np.array([0.6, 0.7], 'float32'),"
    " np.array([0.0, 0.5], 'float32'), (1, 2), 'bicubic')",
    "ops.image.scale_and_translate(rgb, (2, 3, 4, 3), np.array([0.6, 0.7], 'float32'),"
    " np.array([0.0, 0.5], 'float32'), (1, 2), 'lanczos3', antialias=False)",
    "ops.image.scale_and_translate(grid, (9, 6), np.array([2.0, 1.1], 'float32'),"
    " np.array([-0.5, 0.0], 'float32'), (-2, -1), 'lanczos5')",
    # (no integer image: Keras's TF backend then fails in its clip_by_value, uint8 vs float)
    # elastic_transform: only alpha=0 is comparable (minitf's stateless_normal is not
    # bit-equal to TF's Philox draws, so seeded fields differ)
    "ops.image.elastic_transform(big, alpha=0.0, seed=1)",
    "ops.image.elastic_transform(big[0], alpha=0.0, sigma=2.0, interpolation='nearest',"
    " fill_mode='constant', fill_value=0.5, seed=11)",
    "ops.image.elastic_transform(np.transpose(big, (0, 3, 1, 2)), alpha=0.0, sigma=1.5,"
    " fill_mode='wrap', seed=5, data_format='channels_first')",
]

EVALUATOR = """
import json
out = []
for case in CASES:
    value = eval(case)
    array = np.asarray(value)
    out.append({"dtype": str(array.dtype), "shape": list(array.shape),
                "values": array.astype("float64").ravel().tolist()})
print(json.dumps(out))
"""


def _run_here():
    scope = {"ops": ops, "CASES": CASES}
    exec(SETUP, scope)
    results = []
    for case in CASES:
        array = np.asarray(eval(case, scope))
        results.append({"dtype": str(array.dtype), "shape": list(array.shape),
                        "values": array.astype("float64").ravel()})
    return results


@pytest.fixture(scope="module")
def keras_results():
    require_tf()
    code = ("import keras\nfrom keras import ops\n" + SETUP + f"\nCASES = {CASES!r}\n"
            + EVALUATOR)
    return run_tf_json(code)


def test_every_case_equals_keras(keras_results):
    for case, mine, theirs in zip(CASES, _run_here(), keras_results):
        assert mine["dtype"] == theirs["dtype"], case
        assert mine["shape"] == theirs["shape"], case
        np.testing.assert_allclose(mine["values"], theirs["values"], rtol=2e-5, atol=2e-6,
                                   err_msg=case)


def test_names_live_under_keras_ops_image():
    for name in ("rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb", "pad_images", "crop_images",
                 "gaussian_blur", "sobel_edges", "affine_transform", "extract_patches",
                 "extract_patches_3d", "ssim", "resize", "perspective_transform",
                 "map_coordinates", "scale_and_translate", "elastic_transform"):
        assert getattr(tf.keras.ops.image, name) is getattr(ops.image, name)


def test_grayscale_weights_by_hand():
    pixel = tf.constant([[[0.5, 1.0, 2.0]]])
    expected = 0.2989 * 0.5 + 0.5870 * 1.0 + 0.1140 * 2.0
    np.testing.assert_allclose(ops.image.rgb_to_grayscale(pixel).numpy(), [[[expected]]],
                               rtol=1e-6)
    # integers are summed in float and truncated back
    pixel = tf.constant([[[255, 255, 0]]], tf.uint8)
    assert ops.image.rgb_to_grayscale(pixel).numpy() == 225   # 225.9


def test_hsv_round_trip_both_layouts():
    images = np.random.default_rng(1).random((2, 3, 4, 3)).astype("float32")
    back = ops.image.hsv_to_rgb(ops.image.rgb_to_hsv(images))
    np.testing.assert_allclose(back.numpy(), images, atol=1e-6)
    first = np.transpose(images, (0, 3, 1, 2))
    hsv_first = ops.image.rgb_to_hsv(first, data_format="channels_first")
    np.testing.assert_allclose(np.transpose(hsv_first.numpy(), (0, 2, 3, 1)),
                               ops.image.rgb_to_hsv(images).numpy(), atol=1e-7)


def test_pad_then_crop_gives_the_image_back():
    image = tf.reshape(tf.range(12.0), (3, 4, 1))
    padded = ops.image.pad_images(image, top_padding=2, left_padding=1, target_height=6,
                                  target_width=7)
    assert padded.shape == (6, 7, 1)
    assert float(tf.reduce_sum(padded)) == float(tf.reduce_sum(image))
    back = ops.image.crop_images(padded, top_cropping=2, left_cropping=1, bottom_cropping=1,
                                 right_cropping=2)
    np.testing.assert_array_equal(back.numpy(), image.numpy())


def test_gaussian_blur_keeps_a_constant_interior_and_total_mass():
    blurred = ops.image.gaussian_blur(tf.ones((1, 7, 7, 2)), kernel_size=(3, 3),
                                      sigma=(1.0, 1.0))
    np.testing.assert_allclose(blurred.numpy()[0, 1:-1, 1:-1], 1.0, rtol=1e-6)
    assert blurred.numpy()[0, 0, 0, 0] < 1.0   # zero padding at the border
    x = np.arange(-1.0, 2.0)
    profile = np.exp(-0.5 * x ** 2) / np.exp(-0.5 * x ** 2).sum()
    impulse = np.zeros((3, 3, 1), "float32")
    impulse[1, 1] = 1.0
    np.testing.assert_allclose(ops.image.gaussian_blur(impulse).numpy()[..., 0],
                               np.outer(profile, profile), rtol=1e-6)


def test_sobel_edges_sees_a_vertical_edge_in_dx_only():
    image = np.zeros((1, 4, 4, 1), "float32")
    image[..., 2:, 0] = 1.0
    edges = ops.image.sobel_edges(image).numpy()
    assert edges.shape == (1, 4, 4, 1, 2)
    np.testing.assert_array_equal(edges[0, 1:-1, :, 0, 0], 0.0)     # dy
    assert edges[0, 1, 1, 0, 1] == 4.0                               # dx at the step


def test_affine_identity_and_shift():
    image = np.random.default_rng(2).random((3, 4, 2)).astype("float32")
    identity = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    np.testing.assert_allclose(ops.image.affine_transform(image, identity).numpy(), image)
    down = [1.0, 0.0, 0.0, 0.0, 1.0, -1.0, 0.0, 0.0]       # y_in = y - 1
    moved = ops.image.affine_transform(image, down, fill_value=7.0).numpy()
    np.testing.assert_array_equal(moved[0], 7.0)
    np.testing.assert_allclose(moved[1:], image[:-1])


def test_patches_lay_windows_flat_in_keras_order():
    image = np.arange(2 * 4 * 4, dtype="float32").reshape(4, 4, 2)
    patches = ops.image.extract_patches(image, 2).numpy()
    assert patches.shape == (2, 2, 8)
    np.testing.assert_array_equal(patches[1, 0], image[2:4, 0:2].ravel())
    volume = np.arange(4 ** 3, dtype="float32").reshape(4, 4, 4, 1)
    cubes = ops.image.extract_patches_3d(volume, 2).numpy()
    np.testing.assert_array_equal(cubes[1, 0, 1], volume[2:4, 0:2, 2:4].ravel())


def test_patches_channels_first_is_the_transposed_channels_last():
    # (real TF cannot run this one on CPU: its Conv2D takes NHWC only)
    image = np.random.default_rng(3).random((2, 4, 6, 3)).astype("float32")
    first = ops.image.extract_patches(np.transpose(image, (0, 3, 1, 2)), 2,
                                      data_format="channels_first").numpy()
    np.testing.assert_allclose(np.transpose(first, (0, 2, 3, 1)),
                               ops.image.extract_patches(image, 2).numpy())


def test_ssim_is_one_for_equal_images_and_drops_with_noise():
    image = np.random.default_rng(4).random((2, 12, 12, 2)).astype("float32")
    np.testing.assert_allclose(ops.image.ssim(image, image).numpy(), [1.0, 1.0], rtol=1e-6)
    noise = np.random.default_rng(5).standard_normal(image.shape).astype("float32")
    weak, strong = (ops.image.ssim(image, image + s * noise).numpy() for s in (0.05, 0.3))
    assert np.all(strong < weak) and np.all(weak < 1.0)


def test_resize_crop_and_pad_keep_the_aspect_ratio():
    image = tf.reshape(tf.range(8.0), (2, 4, 1))
    cropped = ops.image.resize(image, (2, 2), crop_to_aspect_ratio=True)[..., 0].numpy()
    np.testing.assert_array_equal(cropped, [[1.0, 2.0], [5.0, 6.0]])   # the centre 2x2
    padded = ops.image.resize(image, (4, 4), pad_to_aspect_ratio=True, fill_value=-1.0,
                              interpolation="nearest")[..., 0].numpy()
    np.testing.assert_array_equal(padded[0], -1.0)                     # band above
    np.testing.assert_array_equal(padded[1:3], image.numpy()[..., 0])  # image unchanged
    big = ops.image.resize(tf.constant([[[0], [255]]], tf.uint8), (1, 4), interpolation="bicubic")
    assert big.dtype == tf.uint8 and big.numpy().max() == 255          # saturated, not wrapped


def test_perspective_with_equal_points_is_the_identity():
    image = np.random.default_rng(6).random((5, 6, 2)).astype("float32")
    corners = [[0.0, 0.0], [5.0, 0.0], [0.0, 4.0], [5.0, 4.0]]
    np.testing.assert_allclose(
        ops.image.perspective_transform(image, corners, corners).numpy(), image, atol=1e-5)


def test_map_coordinates_linear_mix_and_fill_modes_by_hand():
    line = tf.constant([0.0, 10.0, 20.0])
    read = ops.image.map_coordinates
    np.testing.assert_allclose(read(line, [[0.25, 1.5]], order=1).numpy(), [2.5, 15.0])
    np.testing.assert_allclose(read(line, [[-1.0, 3.0]], order=0, fill_value=7).numpy(), [7, 7])
    np.testing.assert_allclose(read(line, [[-1.0, 3.0]], order=0, fill_mode="nearest").numpy(),
                               [0, 20])
    np.testing.assert_allclose(read(line, [[-1.0, 3.0]], order=0, fill_mode="wrap").numpy(),
                               [20, 0])


def test_scale_and_translate_doubles_a_grid_by_hand():
    image = np.arange(9, dtype="float32").reshape(3, 3)
    scale = np.array([2.0, 2.0], "float32")
    out = ops.image.scale_and_translate(image, (5, 5), scale, -(scale / 2.0 - 0.5), (0, 1),
                                        "linear").numpy()
    np.testing.assert_allclose(out, 1.5 * np.arange(5)[:, None] + 0.5 * np.arange(5))
    # integers: rounded, and kept inside the input's range (the cubic would overshoot)
    step = tf.constant([[10, 10, 200, 200]], tf.uint8)
    up = ops.image.scale_and_translate(step, (1, 9), [1.0, 2.2], [0.0, 0.0], (0, 1), "cubic")
    assert up.dtype == tf.uint8
    assert up.numpy().min() == 10 and up.numpy().max() == 200


def test_elastic_transform_is_seeded_and_moves_pixels():
    image = np.random.default_rng(7).random((1, 10, 10, 2)).astype("float32")
    first = ops.image.elastic_transform(image, alpha=4.0, sigma=1.0, seed=3).numpy()
    again = ops.image.elastic_transform(image, alpha=4.0, sigma=1.0, seed=3).numpy()
    other = ops.image.elastic_transform(image, alpha=4.0, sigma=1.0, seed=4).numpy()
    np.testing.assert_array_equal(first, again)
    assert not np.allclose(first, other) and not np.allclose(first, image)
    assert first.min() >= image.min() - 1e-6 and first.max() <= image.max() + 1e-6


@pytest.mark.parametrize("call, message", [
    (lambda: ops.image.elastic_transform(tf.ones((4, 4, 1)), fill_mode="mirror"), "fill_mode"),
    (lambda: ops.image.elastic_transform(tf.ones((4, 4)), seed=1), "Invalid images rank"),
    (lambda: ops.image.scale_and_translate(tf.ones((3, 3)), (2, 2), [1.0, 1.0], [0.0, 0.0],
                                           (0, 1), "nearest"), "method"),
    (lambda: ops.image.perspective_transform(tf.ones((4, 4, 1)), tf.ones((3, 2)),
                                             tf.ones((3, 2))), "Invalid start_points shape"),
    (lambda: ops.image.perspective_transform(tf.ones((4, 4, 1)), tf.ones((4, 2)),
                                             tf.ones((2, 4, 2))), "same shape"),
    (lambda: ops.image.map_coordinates(tf.ones((3, 3)), tf.ones((1, 4)), order=1),
     "First dim of `coordinates`"),
    (lambda: ops.image.map_coordinates(tf.ones((3,)), tf.ones((1, 4)), order=1,
                                       fill_mode="edge"), "fill_mode"),
    (lambda: ops.image.resize(tf.ones((4, 4, 1)), (2,)), "tuple of 2 integers"),
    (lambda: ops.image.resize(tf.ones((4, 4, 1)), (0, 2)), "positive height"),
    (lambda: ops.image.resize(tf.ones((4, 4, 1)), (2, 2), crop_to_aspect_ratio=True,
                              pad_to_aspect_ratio=True), "Only one of"),
    (lambda: ops.image.resize(tf.ones((4, 4, 1)), (2, 2), interpolation="cubic"),
     "interpolation"),
    (lambda: ops.image.resize(tf.ones((4, 4, 1)), (2, 2), fill_mode="reflect"),
     "Only `'constant'`"),
    (lambda: ops.image.ssim(tf.ones((4, 4)), tf.ones((4, 4, 1))), "Invalid image1 rank"),
    (lambda: ops.image.ssim(tf.ones((4, 4, 1)), tf.ones((4, 4))), "Invalid image2 rank"),
    (lambda: ops.image.affine_transform(tf.ones((4, 4, 1)), tf.ones((8,)),
                                        interpolation="bicubic"), "interpolation"),
    (lambda: ops.image.affine_transform(tf.ones((4, 4, 1)), tf.ones((8,)), fill_mode="mirror"),
     "fill_mode"),
    (lambda: ops.image.affine_transform(tf.ones((4, 4, 1)), tf.ones((1, 1, 8))),
     "Invalid transform rank"),
    (lambda: ops.image.extract_patches(tf.ones((4, 4, 1)), (2, 2, 2, 2)), "length 2 or 3"),
    (lambda: ops.image.extract_patches_3d(tf.ones((4, 4, 4, 1)), 2, strides=(1, 1)),
     "Invalid `strides`"),
    (lambda: ops.image.rgb_to_grayscale(tf.ones((4, 4))), "Invalid images rank"),
    (lambda: ops.image.rgb_to_grayscale(tf.ones((4, 4, 2))), "Invalid channel size"),
    (lambda: ops.image.rgb_to_hsv(tf.ones((4, 4, 3), tf.int32)), "expected float dtype"),
    (lambda: ops.image.hsv_to_rgb(tf.ones((2, 4, 4, 3)), data_format="nchw"),
     "data_format"),
    (lambda: ops.image.pad_images(tf.ones((4, 4, 1)), 1, 1), "Must specify exactly two"),
    (lambda: ops.image.pad_images(tf.ones((4, 4, 1)), 1, 1, target_height=3, target_width=6),
     "bottom_padding must be >= 0"),
    (lambda: ops.image.pad_images(tf.ones((4, 4, 1)), -1, 1, 1, 1), "top_padding must be >= 0"),
    (lambda: ops.image.crop_images(tf.ones((4, 4, 1)), 1, 1, 4, 1), "target_height must be"),
    (lambda: ops.image.crop_images(tf.ones((4,)), 1, 1, 1, 1), "Invalid images rank"),
    (lambda: ops.image.gaussian_blur(tf.ones((4, 4))), "Invalid images rank"),
])
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_patch_size_of_the_wrong_type_is_a_type_error():
    with pytest.raises(TypeError, match="Expected an int or a tuple"):
        ops.image.extract_patches(tf.ones((4, 4, 1)), "2")


def test_map_coordinates_order_above_one_is_not_implemented():
    with pytest.raises(NotImplementedError, match="order<=1"):
        ops.image.map_coordinates(tf.ones((3,)), [[0.5]], order=3)
