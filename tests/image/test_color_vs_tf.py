"""tf.image colour, conversion and quality ops against real TensorFlow 2.21, in one TF process."""
import json

import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

RNG = np.random.default_rng(2)
IMG = RNG.uniform(0, 1, size=(2, 24, 24, 3)).astype(np.float32)
IMG2 = np.clip(IMG * 0.8 + RNG.normal(0, 0.05, IMG.shape), 0, 1).astype(np.float32)
BIG = RNG.uniform(0, 1, size=(1, 180, 180, 1)).astype(np.float32)
BIG2 = np.clip(BIG + RNG.normal(0, 0.1, BIG.shape), 0, 1).astype(np.float32)
U8 = (IMG * 255).astype(np.uint8)
DTYPE_CASES = [("float32", "uint8", False), ("float32", "uint8", True), ("float32", "int16", True),
               ("float32", "int32", True), ("uint8", "float32", False), ("uint8", "int16", False),
               ("int16", "uint8", False), ("int8", "uint8", True), ("int32", "int8", False),
               ("uint8", "float16", False), ("uint16", "uint8", False), ("int64", "int32", True)]
EXPR = {  # name -> expression over tf, img, img2, u8, big, big2 (the same text runs in both)
    "brightness": "tf.image.adjust_brightness(img, 0.2)",
    "brightness_u8": "tf.image.adjust_brightness(u8, -0.1)",
    "contrast": "tf.image.adjust_contrast(img, 1.7)",
    "contrast_u8": "tf.image.adjust_contrast(u8, 0.6)",
    "gamma": "tf.image.adjust_gamma(img, 0.6, 1.3)",
    "gamma_u8": "tf.image.adjust_gamma(u8, 1.8)",
    "hue": "tf.image.adjust_hue(img, 0.23)",
    "hue_neg": "tf.image.adjust_hue(img, -0.7)",
    "hue_u8": "tf.image.adjust_hue(u8, 0.4)",
    "saturation": "tf.image.adjust_saturation(img, 1.6)",
    "saturation_low": "tf.image.adjust_saturation(img, 0.3)",
    "saturation_u8": "tf.image.adjust_saturation(u8, 2.5)",
    "standardize": "tf.image.per_image_standardization(img)",
    "standardize_u8": "tf.image.per_image_standardization(u8)",
    "gray": "tf.image.rgb_to_grayscale(img)",
    "gray_u8": "tf.image.rgb_to_grayscale(u8)",
    "gray_rgb": "tf.image.grayscale_to_rgb(tf.image.rgb_to_grayscale(img))",
    "hsv": "tf.image.rgb_to_hsv(img)",
    "hsv_back": "tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(img))",
    "hsv_to_rgb": "tf.image.hsv_to_rgb(img)",
    "yiq": "tf.image.rgb_to_yiq(img)", "yiq_back": "tf.image.yiq_to_rgb(img)",
    "yuv": "tf.image.rgb_to_yuv(img)", "yuv_back": "tf.image.yuv_to_rgb(img)",
    "psnr": "tf.image.psnr(img, img2, 1.0)",
    "psnr_u8": "tf.image.psnr(u8, u8 // 2, 255)",
    "ssim": "tf.image.ssim(img, img2, 1.0)",
    "ssim_small": "tf.image.ssim(img, img2, 1.0, filter_size=5, filter_sigma=0.8, k1=0.02)",
    "ssim_map": "tf.image.ssim(img, img2, 1.0, filter_size=7, return_index_map=True)",
    "ssim_u8": "tf.image.ssim(u8, u8 // 2 + 60, 255)",
    "msssim": "tf.image.ssim_multiscale(big, big2, 1.0)",
    "msssim_3": "tf.image.ssim_multiscale(img, img2, 1.0, power_factors=(0.3, 0.3, 0.4), "
                "filter_size=3)",
    "draw": "tf.image.draw_bounding_boxes(img, [[[0.1, 0.2, 0.8, 0.9], [0.5, -0.2, 1.3, 0.4]],"
            " [[0.9, 0.1, 0.2, 0.5], [0.0, 0.0, 1.0, 1.0]]], None)",
    "draw_colors": "tf.image.draw_bounding_boxes(img[..., :1], [[[0.1, 0.2, 0.8, 0.9]], "
                   "[[0.3, 0.3, 0.6, 0.6]]], [[0.5, 0.2, 0.1, 1.0], [0.25, 1, 1, 1]])",
}
GRADS = {  # name -> expression of x whose gradient TF has
    "grad_brightness": "tf.image.adjust_brightness(x, 0.2)",
    "grad_gamma": "tf.image.adjust_gamma(x, 0.6, 1.3)",
    "grad_standardize": "tf.image.per_image_standardization(x)",
    "grad_gray": "tf.image.rgb_to_grayscale(x)",
    "grad_hsv": "tf.image.rgb_to_hsv(x)",
    "grad_yuv": "tf.image.rgb_to_yuv(x)",
    "grad_psnr": "tf.image.psnr(x, img2, 1.0)",
    "grad_ssim": "tf.image.ssim(x, img2, 1.0)",
    "grad_msssim": "tf.image.ssim_multiscale(x, img2, 1.0, filter_size=3, "
                   "power_factors=(0.5, 0.5))",
}

TF_CODE = """
import json, numpy as np, tensorflow as tf
data = json.loads(open({path!r}).read())
img, img2 = np.array(data["img"], np.float32), np.array(data["img2"], np.float32)
big, big2 = np.array(data["big"], np.float32), np.array(data["big2"], np.float32)
u8 = np.array(data["u8"], np.uint8)
out = {{}}
for name, expr in data["expr"].items():
    r = eval(expr)
    out[name] = [r.numpy().tolist(), r.dtype.name]
for name, expr in data["grads"].items():
    x = tf.constant(img)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.sin(eval(expr) * 3.0))
    out[name] = [tape.gradient(y, x).numpy().tolist(), "float32"]
for i, (src, dst, sat) in enumerate(data["dtypes"]):
    x = np.array(data["dtype_inputs"][i], src)
    r = tf.image.convert_image_dtype(x, getattr(tf, dst), saturate=sat)
    out["dtype%d" % i] = [r.numpy().tolist(), r.dtype.name]
print(json.dumps(out))
"""


def _dtype_input(src):
    if src.startswith("float"):
        return [-0.3, 0.0, 0.2, 0.5, 0.7501, 0.999, 1.0, 1.4]
    info = np.iinfo(src)
    return [int(info.min), -1 if info.min < 0 else 0, 0, 1, 2, 100, int(info.max) // 2,
            int(info.max)]


def _mine(expr, img=IMG, img2=IMG2, big=BIG, big2=BIG2, u8=U8, x=None):
    return eval(expr)


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    path = tmp_path_factory.mktemp("image") / "inputs.json"
    path.write_text(json.dumps({
        "img": IMG.tolist(), "img2": IMG2.tolist(), "big": BIG.tolist(), "big2": BIG2.tolist(),
        "u8": U8.tolist(), "expr": EXPR, "grads": GRADS,
        "dtypes": DTYPE_CASES, "dtype_inputs": [_dtype_input(s) for s, _, _ in DTYPE_CASES]}))
    return run_tf_json(TF_CODE.format(path=str(path)))


TOLERANCE = {"msssim": 2e-5, "ssim_map": 2e-5, "hsv_to_rgb": 1e-6, "standardize": 2e-6,
             "standardize_u8": 2e-6}


@pytest.mark.parametrize("name", sorted(EXPR))
def test_values_and_dtypes_match_tf(real, name):
    got = _mine(EXPR[name])
    expected, dtype = real[name]
    assert got.dtype.name == dtype
    expected = np.array(expected, dtype=dtype)
    if got.dtype.is_integer:
        np.testing.assert_array_equal(got.numpy(), expected)
    else:
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5,
                                   atol=TOLERANCE.get(name, 1e-6))


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradients_match_tf(real, name):
    x = tf.constant(IMG)
    with tf.GradientTape() as tape:
        tape.watch(x)
        # sin, not a plain sum: the sum of a standardized image is constant
        y = tf.reduce_sum(tf.sin(_mine(GRADS[name], x=x) * 3.0))
    got = tape.gradient(y, x)
    expected = np.array(real[name][0], np.float32)
    np.testing.assert_allclose(got.numpy(), expected, rtol=2e-4,
                               atol=2e-4 * np.abs(expected).max())


@pytest.mark.parametrize("index", range(len(DTYPE_CASES)))
def test_convert_image_dtype_matches_tf(real, index):
    src, dst, saturate = DTYPE_CASES[index]
    got = tf.image.convert_image_dtype(np.array(_dtype_input(src), src), getattr(tf, dst),
                                       saturate=saturate)
    expected, dtype = real[f"dtype{index}"]
    assert got.dtype.name == dtype
    expected = np.array(expected, dtype)
    valid = slice(None)
    if src.startswith("float") and not saturate:  # out-of-range floats: C casts, undefined
        keep = (np.array(_dtype_input(src)) >= 0) & (np.array(_dtype_input(src)) <= 1)
        valid = keep
    np.testing.assert_array_equal(got.numpy()[valid], expected[valid])
