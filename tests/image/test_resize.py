"""tf.image.resize: hand-derived weights, gradients against finite differences, tf.function,
TF's errors - and every method's numbers and gradients against real TF 2.21 (one subprocess)."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import numerical_gradient
from real_tf import run_tf_json

from minitf.image import resize_kernels as kernels

METHODS = ["bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
           "mitchellcubic"]


# --- hand-derived numbers ------------------------------------------------------------
def test_bilinear_uses_half_pixel_centres():
    # output pixel o of 4 sits at input (o + 0.5) * 2 / 4 - 0.5 = -0.25, 0.25, 0.75, 1.25
    got = tf.image.resize(tf.constant([[[0.0], [4.0]]]), [1, 4])
    np.testing.assert_allclose(got.numpy()[0, :, 0], [0, 1, 3, 4])


def test_nearest_keeps_the_dtype_and_copies_pixels():
    image = tf.constant(np.arange(16, dtype=np.uint8).reshape(4, 4, 1))
    got = tf.image.resize(image, [2, 2], method="nearest")
    assert got.dtype == tf.uint8
    np.testing.assert_array_equal(got.numpy()[..., 0], [[5, 7], [13, 15]])


def test_area_averages_the_covered_cells():
    image = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    got = tf.image.resize(image, [2, 2], method="area")
    np.testing.assert_allclose(got.numpy()[0, :, :, 0], [[2.5, 4.5], [10.5, 12.5]])
    third = kernels.area_weights(2, 3)  # 2 cells into 3: each output cell covers 2/3
    np.testing.assert_allclose(third, [[1, 0], [0.5, 0.5], [0, 1]], atol=1e-6)


@pytest.mark.parametrize("kernel", sorted(kernels.KERNELS))
@pytest.mark.parametrize("antialias", [False, True])
def test_scale_and_translate_rows_sum_to_one(kernel, antialias):
    for in_size, out_size in [(5, 3), (3, 8), (9, 2)]:
        weights = kernels.scale_and_translate_weights(in_size, out_size, out_size / in_size,
                                                      kernel, antialias)
        np.testing.assert_allclose(weights.sum(axis=1), 1, atol=1e-6)


def test_antialias_widens_the_kernel_when_shrinking():
    plain = kernels.scale_and_translate_weights(8, 2, 0.25, "triangle", False)
    wide = kernels.scale_and_translate_weights(8, 2, 0.25, "triangle", True)
    # radius 1 becomes 1 / 0.25 = 4: the taps within 4 pixels of the centre (6 inside the image)
    assert (plain > 0).sum(axis=1).max() == 2 and (wide > 0).sum(axis=1).min() == 6


def test_bicubic_weights_interpolate_a_line_exactly_inside():
    line = np.arange(6, dtype=np.float32)
    got = kernels.bicubic_weights(6, 12) @ line
    inside = slice(3, 9)  # all four taps in the image:, Keys cubic reproduces linear functions
    np.testing.assert_allclose(got[inside], (np.arange(12)[inside] + 0.5) / 2 - 0.5, atol=2e-3)


@pytest.mark.parametrize("method", METHODS)
def test_dtypes_shapes_and_3d_input(method):
    image = tf.constant(np.arange(60, dtype=np.int32).reshape(4, 5, 3))
    got = tf.image.resize(image, [3, 7], method=method)
    assert got.shape == (3, 7, 3)
    assert got.dtype == (tf.int32 if method == "nearest" else tf.float32)


def test_preserve_aspect_ratio_fits_inside_the_size():
    got = tf.image.resize(tf.zeros([1, 4, 8, 1]), [6, 6], preserve_aspect_ratio=True)
    assert got.shape == (1, 3, 6, 1)


def test_resize_method_names():
    assert tf.image.ResizeMethod.NEAREST_NEIGHBOR == "nearest"
    assert tf.image.ResizeMethod.MITCHELLCUBIC == "mitchellcubic"


# --- gradients: the map is linear, so central differences with a big step are exact ------
@pytest.mark.parametrize("method,antialias", [("bilinear", False), ("bicubic", False),
                                              ("nearest", False), ("lanczos3", False),
                                              ("bilinear", True), ("gaussian", True)])
def test_gradient_matches_finite_differences(method, antialias):
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, size=(1, 4, 5, 2)).astype(np.float32)
    w = rng.uniform(0.5, 1.5, size=(1, 3, 7, 2)).astype(np.float32)

    def value(arrays):
        y = tf.image.resize(tf.constant(arrays[0], tf.float32), [3, 7], method, False, antialias)
        return float(np.sum(y.numpy().astype(np.float64) * w))

    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.image.resize(xt, [3, 7], method=method, antialias=antialias)
        loss = tf.reduce_sum(y * w)
    np.testing.assert_allclose(tape.gradient(loss, xt).numpy(),
                               numerical_gradient(value, [x], 0, eps=0.5), rtol=1e-4, atol=1e-4)


def test_second_order_gradient_of_a_linear_map():
    x = tf.constant(np.ones((1, 3, 3, 1), np.float64))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.image.resize(x, [5, 4]) ** 2)
        g = inner.gradient(y, x)
        gg = tf.reduce_sum(g * g)
    assert g.dtype == tf.float64 and outer.gradient(gg, x).shape == (1, 3, 3, 1)


def test_gradient_dtypes_as_tf():
    x = tf.ones([1, 4, 4, 1], tf.float16)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        outs = {m: tf.image.resize(x, [3, 3], method=m) for m in ("bicubic", "bilinear",
                                                                   "nearest")}
    assert tape.gradient(outs["bicubic"], x) is None  # TF's bicubic gradient: float32/64 only
    assert tape.gradient(outs["bilinear"], x).dtype == tf.float16
    assert tape.gradient(outs["nearest"], x).dtype == tf.float16


def test_area_has_no_gradient_like_tf():
    x = tf.ones([1, 4, 4, 1])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.image.resize(x, [2, 2], method="area")
        z = tf.image.resize(x, [2, 2], method="area", antialias=True) + tf.reduce_sum(x)
    with pytest.raises(LookupError, match="gradient registry has no entry for: ResizeArea"):
        tape.gradient(y, x)
    with pytest.raises(LookupError):
        tape.gradient(z, x)


def test_scale_and_translate_gradient_is_float32_only():
    x = tf.ones([1, 4, 4, 1], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [2, 2], method="lanczos3")
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor"):
        tape.gradient(y, x)


def test_in_tf_function_same_numbers():
    x = tf.constant(np.random.default_rng(1).uniform(size=(2, 5, 6, 3)).astype(np.float32))
    for method in METHODS:
        f = tf.function(lambda im, m=method: tf.image.resize(im, [4, 9], method=m, antialias=True))
        np.testing.assert_allclose(f(x).numpy(), tf.image.resize(x, [4, 9], method, False,
                                                                 True).numpy(), rtol=1e-6)
        assert f.get_concrete_function(x).structured_outputs.shape == (2, 4, 9, 3)


# --- errors as TF ----------------------------------------------------------------------
@pytest.mark.parametrize("call,cls,text", [
    (lambda: tf.image.resize(tf.zeros([4, 5]), [2, 2]), ValueError,
     "'images' must have either 3 or 4 dimensions."),
    (lambda: tf.image.resize(tf.zeros([1, 4, 5, 1]), [2, 2, 2]), ValueError,
     "'size' must be a 1-D Tensor of 2 elements: new_height, new_width"),
    (lambda: tf.image.resize(tf.zeros([1, 4, 5, 1]), [2.5, 2]), ValueError,
     "'size' must be a 1-D int32 Tensor"),
    (lambda: tf.image.resize(tf.zeros([1, 4, 5, 1]), [2, 2], method="foo"), ValueError,
     "Resize method is not implemented: foo"),
    (lambda: tf.image.resize(tf.zeros([1, 4, 5, 1]), [0, 2]), tf.errors.InvalidArgumentError,
     "output dimensions must be positive"),
    (lambda: tf.image.resize(tf.zeros([1, 0, 5, 1]), [3, 2]), tf.errors.InvalidArgumentError,
     "input image must be of non-zero size"),
    (lambda: tf.image.resize(tf.zeros([1, 4, 5, 1], tf.bool), [3, 2]),
     tf.errors.InvalidArgumentError, "Value for attr 'T' of bool is not in the list"),
])
def test_errors_as_tf(call, cls, text):
    with pytest.raises(cls) as info:
        call()
    assert text in str(info.value)


# --- against real TF ---------------------------------------------------------------------
CASES = [(shape, size, method, antialias, dtype)
         for method in METHODS for antialias in (False, True)
         for shape, size, dtype in [((2, 5, 7, 2), (3, 11), "float32"),
                                    ((9, 4, 1), (4, 9), "uint8"),
                                    ((1, 3, 8, 1), (7, 3), "float64")]]


def _inputs():
    rng = np.random.default_rng(2)
    arrays = []
    for shape, size, method, antialias, dtype in CASES:
        high = 255 if dtype == "uint8" else 1
        arrays.append(rng.uniform(0, high, size=shape).round(3 if dtype != "uint8" else 0))
    return arrays


def test_matches_real_tf_values_and_gradients():
    arrays = _inputs()
    payload = json.dumps([[a.tolist(), size, method, aa, dtype]
                          for a, (shape, size, method, aa, dtype) in zip(arrays, CASES)])
    got = run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        out = []
        for a, size, method, aa, dtype in json.loads('''{payload}'''):
            x = tf.constant(np.array(a), dtype)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.image.resize(x, size, method=method, antialias=aa)
                weights = tf.cast(tf.range(tf.size(y)), tf.float32) / 100.0
                loss = tf.reduce_sum(tf.cast(y, tf.float32) * tf.reshape(weights, y.shape))
            grad = None
            if dtype == "float32" and method != "area":
                grad = tape.gradient(loss, x).numpy().tolist()
            out.append([y.dtype.name, y.numpy().tolist(), grad])
        print(json.dumps(out))
    """)
    for a, case, (dtype, values, grad) in zip(arrays, CASES, got):
        shape, size, method, antialias, in_dtype = case
        x = tf.constant(a, tf.as_dtype(in_dtype))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.image.resize(x, size, method=method, antialias=antialias)
            weights = tf.cast(tf.range(tf.size(y)), tf.float32) / 100.0
            loss = tf.reduce_sum(tf.cast(y, tf.float32) * tf.reshape(weights, y.shape))
        assert y.dtype.name == dtype, case
        np.testing.assert_allclose(y.numpy(), values, rtol=1e-5, atol=2e-4, err_msg=str(case))
        if grad is not None:
            np.testing.assert_allclose(tape.gradient(loss, x).numpy(), grad, rtol=1e-5,
                                       atol=1e-4, err_msg=str(case))
