"""`tf.image.resize` and the resize ops below it, with their gradients.

Every method is a linear map, separable over height and width (resize_kernels.py
builds one weight matrix per axis):

    resized[n] = W_height @ image[n] @ W_width^T          (for each channel)

so its gradient is the transposed map, `W_height^T @ dy @ W_width`, and the
gradient of that is the resize again - second derivatives come free. The ops
keep TF's names: ResizeBilinear, ResizeBicubic, ResizeNearestNeighbor,
ResizeArea (TF has no gradient for it: asking raises LookupError) and ScaleAndTranslate (lanczos,
gaussian, mitchellcubic, and bilinear/bicubic with antialias).

>>> import minitf as tf
>>> image = tf.constant([[[0.0], [4.0]]])                     # 1 x 2 pixels, 1 channel
>>> tf.image.resize(image, [1, 4])[..., 0]
<tf.Tensor: shape=(1, 4), dtype=float32, numpy=array([[0., 1., 3., 4.]], dtype=float32)>

In TensorFlow `size` may be a tensor known only when the graph runs; minitf
builds the weight matrices while tracing, so inside `tf.function` it needs
`size` as a Python list or a tensor whose value is known then.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..ops.array_ops import expand_dims, squeeze
from ..ops.shape_ops import constant_value
from . import resize_kernels as kernels

# TF's T list for the resize ops (bfloat16 aside).
RESIZE_TYPES = frozenset({dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16, dtypes.int32,
                          dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64})


def _matrices(weights, image_shape, size, attrs):
    (height, width), (new_height, new_width) = image_shape[1:3], size
    return weights(height, new_height, **attrs), weights(width, new_width, **attrs)


def sparse_rows(weights):
    """Row o of `weights` as (columns, values) of its nonzero entries: two [out, taps]
    arrays, padded with weight 0. A resize row has only a few taps (2 for bilinear)."""
    nonzero = weights != 0
    taps = max(1, int(nonzero.sum(axis=1).max(initial=0)))
    columns = np.argsort(~nonzero, axis=1, kind="stable")[:, :taps]  # nonzero columns first
    return columns, np.take_along_axis(weights, columns, axis=1)


def apply_along(x, weights, axis):
    """weights @ x along `axis`, one gathered copy of x per tap (not a dense matmul: a
    224 -> 112 bilinear row has 2 nonzero weights out of 224)."""
    columns, values = sparse_rows(weights)
    shape = [1] * x.ndim
    shape[axis] = -1
    out = np.take(x, columns[:, 0], axis=axis) * values[:, 0].reshape(shape)
    for k in range(1, columns.shape[1]):
        out += np.take(x, columns[:, k], axis=axis) * values[:, k].reshape(shape)
    return out


def resample(images, w_height, w_width):
    """W_height @ images @ W_width^T over axes 1 and 2 of an NHWC batch, in float32."""
    x = images.astype(np.float32, copy=False)
    return apply_along(apply_along(x, w_height, 1), w_width, 2)


def _check_sizes(name, image_shape, size):
    if min(image_shape[1:3]) <= 0:
        raise errors.op_error(errors.InvalidArgumentError, name,
                              "input image must be of non-zero size",
                              "An image with no rows or no columns has nothing to resize.")
    if min(size) <= 0:
        raise errors.op_error(errors.InvalidArgumentError, name,
                              "output dimensions must be positive",
                              "Ask for at least one row and one column.")


def _resize_shape(images, size, **attrs):
    return TensorShape([images[0], size[0], size[1], images[3]])


def _grad_shape(grads, original_image, **attrs):
    return original_image


def make_resize_op(name, weights, keep_dtype=False, grad_dtypes=None, differentiable=None):
    """The op `name` (forward: the map; gradient: `{name}Grad`, the transposed map).

    grad_dtypes: the image dtypes `{name}Grad` accepts (others raise TF's error);
    differentiable: the image dtypes TF's Python gradient handles (others get None)."""

    def forward(images, size, **attrs):
        _check_sizes(name, images.shape, size)
        w_height, w_width = _matrices(weights, images.shape, size, attrs)
        return resample(images, w_height, w_width).astype(
            images.dtype if keep_dtype else np.float32, copy=False)

    def grad_forward(grads, original_image, size, **attrs):
        w_height, w_width = _matrices(weights, original_image.shape, size, attrs)
        return resample(grads, w_height.T, w_width.T).astype(original_image.dtype, copy=False)

    resize_op = Op(name, forward, dtypes=RESIZE_TYPES, shape=_resize_shape,
                   dtype=None if keep_dtype else dtypes.float32)
    grad_op = Op(f"{name}Grad", grad_forward, dtypes=grad_dtypes, shape=_grad_shape,
                 typed=[0] if keep_dtype else [1] if grad_dtypes is None else [0, 1],
                 dtype=lambda grads, original, **attrs: original)

    @resize_op.def_grad
    def _resize_grad(op, dy):  # the transposed map, onto the input's shape and dtype
        if differentiable is not None and op.inputs[0].dtype not in differentiable:
            return None
        return apply(grad_op, [dy, op.inputs[0]], op.attrs)

    @grad_op.def_grad
    def _resize_grad_grad(op, ddx):  # the map is linear: its gradient's gradient is itself
        return apply(resize_op, [ddx], op.attrs), None

    return resize_op, grad_op


ResizeBilinear, ResizeBilinearGrad = make_resize_op(
    "ResizeBilinear", lambda i, o: kernels.bilinear_weights(i, o))
ResizeBicubic, ResizeBicubicGrad = make_resize_op(
    "ResizeBicubic", lambda i, o: kernels.bicubic_weights(i, o),
    differentiable=frozenset({dtypes.float32, dtypes.float64}))  # TF: None for float16
ResizeArea, _ = make_resize_op("ResizeArea", lambda i, o: kernels.area_weights(i, o))


@ResizeArea.def_grad
def _resize_area_grad(op, dy):  # TF registers no gradient for ResizeArea, and says so
    raise LookupError("gradient registry has no entry for: ResizeArea (TensorFlow defines no "
                      "gradient for method='area'; use 'bilinear' with antialias=True to "
                      "shrink with a gradient)")
ScaleAndTranslate, ScaleAndTranslateGrad = make_resize_op(
    "ScaleAndTranslate",
    lambda i, o, kernel_type, antialias: kernels.scale_and_translate_weights(
        i, o, np.float32(o) / np.float32(i), kernel_type, antialias),
    grad_dtypes=frozenset({dtypes.float32}))  # TF's ScaleAndTranslateGrad is float32 only


def _nearest_forward(images, size):
    _check_sizes("ResizeNearestNeighbor", images.shape, size)
    rows = kernels.nearest_indices(images.shape[1], size[0])
    cols = kernels.nearest_indices(images.shape[2], size[1])
    return images[:, rows][:, :, cols]  # a copy of the chosen pixels: the dtype stays


ResizeNearestNeighbor, ResizeNearestNeighborGrad = make_resize_op(
    "ResizeNearestNeighbor", lambda i, o: kernels.nearest_weights(i, o), keep_dtype=True)
ResizeNearestNeighbor.forward = _nearest_forward


# --- the public API -------------------------------------------------------------------
@tf_export("image.ResizeMethod")
class ResizeMethod:
    """The names `tf.image.resize` accepts for `method` (plain strings, as in TF).

    >>> tf.image.ResizeMethod.BILINEAR
    'bilinear'
    """

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_SCALE_AND_TRANSLATE = {"lanczos3", "lanczos5", "gaussian", "mitchellcubic"}


def _resize_fn(images, size, method, antialias):
    """The op TF's `resize_images_v2` picks for `method` and `antialias`."""
    if method == "bilinear" and not antialias:
        return apply(ResizeBilinear, [images], {"size": size})
    if method == "bicubic" and not antialias:
        return apply(ResizeBicubic, [images], {"size": size})
    if method == "nearest":
        return apply(ResizeNearestNeighbor, [images], {"size": size})
    if method == "area":
        return apply(ResizeArea, [images], {"size": size})
    kernel = {"bilinear": "triangle", "bicubic": "keyscubic"}.get(method, method)
    return apply(ScaleAndTranslate, [images],
                 {"size": size, "kernel_type": kernel, "antialias": bool(antialias)})


def static_size(size, what="size"):
    """`size` as a tuple of two Python ints, known while tracing."""
    try:
        tensor = convert_to_tensor(size, dtype=dtypes.int32)
    except (TypeError, ValueError):
        raise ValueError(f"'{what}' must be a 1-D int32 Tensor") from None
    if not tensor.shape.is_compatible_with([2]):
        raise ValueError(f"'{what}' must be a 1-D Tensor of 2 elements: new_height, new_width")
    value = constant_value(tensor)
    if value is None:
        raise ValueError(f"minitf needs '{what}' while tracing (it builds the resize weights "
                         "then): pass a Python list or a tensor computed from constants.")
    return tuple(int(v) for v in np.reshape(value, [-1]))


def as_batch(images, what="images"):
    """(a 4-D batch, whether the input was one 3-D image); TF's check of the rank."""
    images = convert_to_tensor(images)
    rank = images.shape.rank
    if rank is None:
        raise ValueError(f"'{what}' contains no shape.")
    if rank == 3:
        return expand_dims(images, 0), False
    if rank != 4:
        raise ValueError(f"'{what}' must have either 3 or 4 dimensions.")
    return images, True


def aspect_size(height, width, size):
    """The largest size within `size` with the image's aspect ratio (TF's float32 rounding)."""
    if height is None or width is None:
        raise ValueError("minitf needs the image's height and width while tracing to "
                         "preserve the aspect ratio: give them in the input_signature.")
    f32 = np.float32
    factor = min(f32(size[0]) / f32(height), f32(size[1]) / f32(width))
    return int(np.round(factor * f32(height))), int(np.round(factor * f32(width)))


@tf_export("image.resize")
def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """Resize `images` ([h, w, c] or [batch, h, w, c]) to `size` = [new_height, new_width].

    Each output pixel is a weighted sum of input pixels (see resize_kernels.py);
    the result is float32, except with method "nearest", which copies pixels and
    keeps the dtype. `antialias=True` blurs while shrinking (bilinear, bicubic and
    the lanczos/gaussian/mitchellcubic kernels); `preserve_aspect_ratio=True` fits
    the image inside `size` without stretching it.

    >>> image = tf.reshape(tf.range(16.0), [4, 4, 1])
    >>> tf.image.resize(image, [2, 2])[..., 0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)>
    >>> tf.image.resize(image, [2, 2], method="nearest")[..., 0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)>
    """
    if method not in {v for k, v in vars(ResizeMethod).items() if k.isupper()}:
        raise ValueError(f"Resize method is not implemented: {method}")
    images, is_batch = as_batch(images)
    size = static_size(size)
    if preserve_aspect_ratio:
        size = aspect_size(images.shape[1], images.shape[2], size)
    resized = _resize_fn(images, size, method, antialias)
    return resized if is_batch else squeeze(resized, axis=[0])
