"""Neighbourhood ops: `extract_patches`, `image_gradients`, `sobel_edges`, `total_variation`.

`extract_patches` is an op of its own (ExtractImagePatches): every window a
convolution would see, laid out flat along the channels - im2col, the trick
behind fast convolutions. Its gradient adds each window's gradient back onto the
pixels it came from (conv_utils.add_windows, col2im), and the gradient of that is
extract_patches again. The other three are built from ops that already have
gradients: differences of shifted images, a depthwise convolution with the two
Sobel kernels, and sums of absolute differences.

>>> import minitf as tf
>>> image = tf.reshape(tf.range(9.0), [1, 3, 3, 1])
>>> tf.image.extract_patches(image, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")[0]
<tf.Tensor: shape=(2, 2, 4), dtype=float32, numpy=
array([[[0., 1., 3., 4.],
        [1., 2., 4., 5.]],
<BLANKLINE>
       [[3., 4., 6., 7.],
        [4., 5., 7., 8.]]], dtype=float32)>
"""
import numpy as np

import minitf as tf
from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..ops.conv_utils import (add_windows, crop_spatial, output_spatial, pad_spatial,
                              spatial_pads, windows)

PATCH_TYPES = dtypes.REAL  # TF: every real number type (no bool, no strings)


def _check_patch_attrs(ksizes, strides, rates, padding):
    for name, values in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
        if len(values) < 4:
            raise errors.InvalidArgumentError(
                None, "ExtractImagePatches",
                f"Length for attr '{name}' of {len(values)} must be at least minimum 4 "
                f"{name} has one entry per axis of [batch, height, width, channels].")
    if padding not in ("SAME", "VALID"):
        raise errors.InvalidArgumentError(
            None, "ExtractImagePatches",
            f"Value for attr 'padding' of \"{padding}\" is not in the list of allowed values: "
            "\"SAME\", \"VALID\"")
    if ksizes[0] != 1 or ksizes[3] != 1 or strides[0] != 1 or strides[3] != 1 \
            or rates[0] != 1 or rates[3] != 1:
        raise errors.op_error(errors.UnimplementedError, "ExtractImagePatches",
                              "Only support ksizes across space.",
                              "Patches slide over height and width: use 1 for batch and depth.")


def _patch_geometry(shape, ksizes, strides, rates, padding):
    k, s, d = ksizes[1:3], strides[1:3], rates[1:3]
    out = output_spatial("ExtractImagePatches", shape[1:3], k, s, d, padding, ())
    return k, s, d, spatial_pads(shape[1:3], k, s, d, padding, ()), out


def _patches_shape(images, ksizes, strides, rates, padding):
    _check_patch_attrs(ksizes, strides, rates, padding)
    if images.rank is not None and images.rank != 4:
        raise errors.op_error(errors.InvalidArgumentError, "ExtractImagePatches",
                              f"input must be 4-dimensional[{','.join(map(str, images))}]",
                              "extract_patches takes a batch [batch, height, width, channels].")
    n, h, w, c = images.as_list()
    out = output_spatial("ExtractImagePatches", [h, w], ksizes[1:3], strides[1:3], rates[1:3],
                         padding, ())
    return TensorShape([n, *out, None if c is None else ksizes[1] * ksizes[2] * c])


def _extract_patches(images, ksizes, strides, rates, padding):
    _patches_shape(TensorShape(images.shape), ksizes, strides, rates, padding)
    k, s, d, pads, out = _patch_geometry(images.shape, ksizes, strides, rates, padding)
    n, c = images.shape[0], images.shape[3]
    if min(out) <= 0:
        return np.zeros((n, *out, k[0] * k[1] * c), images.dtype)
    view = windows(pad_spatial(images, pads), k, s, d)  # [n, oh, ow, kh, kw, c]
    return view.reshape(n, out[0], out[1], -1).copy()


def _patches_grad_forward(grads, images, ksizes, strides, rates, padding):
    """col2im: each window's gradient added back onto the pixels it was cut from."""
    k, s, d, pads, out = _patch_geometry(images.shape, ksizes, strides, rates, padding)
    n, h, w, c = images.shape
    padded = (n, h + sum(pads[0]), w + sum(pads[1]), c)
    if min(out) <= 0:
        return np.zeros(images.shape, grads.dtype)
    cols = np.moveaxis(grads.reshape(n, out[0], out[1], k[0], k[1], c), (3, 4), (0, 1))
    return crop_spatial(add_windows(cols, padded, s, d), pads)


ExtractImagePatches = Op("ExtractImagePatches", _extract_patches, dtypes=PATCH_TYPES,
                         shape=_patches_shape)
# TF writes this gradient in Python (array_grad.py); minitf gives it an op of its own.
ExtractImagePatchesGrad = Op("ExtractImagePatchesGrad", _patches_grad_forward, typed=[0],
                             shape=lambda grads, images, **attrs: images)


@ExtractImagePatches.def_grad
def _extract_patches_grad(op, dy):
    return apply(ExtractImagePatchesGrad, [dy, op.inputs[0]], op.attrs)


@ExtractImagePatchesGrad.def_grad
def _extract_patches_grad_grad(op, ddx):  # linear: the adjoint's adjoint is the op itself
    return apply(ExtractImagePatches, [ddx], op.attrs), None


@tf_export("image.extract_patches")
def extract_patches(images, sizes, strides, rates, padding, name=None):
    """Every `sizes[1]` x `sizes[2]` window of `images`, flattened into the channel axis.

    images: [batch, h, w, c] -> [batch, out_h, out_w, sizes[1] * sizes[2] * c], each
    patch in (row, column, channel) order. `strides` moves the window, `rates` spreads
    its taps (dilation); padding "SAME" or "VALID" as for convolutions.

    >>> tf.image.extract_patches(tf.ones([1, 4, 4, 3]), [1, 2, 2, 1], [1, 2, 2, 1],
    ...                          [1, 1, 1, 1], "VALID").shape
    TensorShape([1, 2, 2, 12])
    """
    images = convert_to_tensor(images, name="images")
    return apply(ExtractImagePatches, [images],
                 {"ksizes": tuple(int(v) for v in sizes), "strides": tuple(int(v) for v in strides),
                  "rates": tuple(int(v) for v in rates), "padding": padding})


@tf_export("image.image_gradients")
def image_gradients(image):
    """(dy, dx): the difference to the next pixel down and to the right, 0 on the last
    row/column: dy[:, i, j] = image[:, i + 1, j] - image[:, i, j].

    >>> dy, dx = tf.image.image_gradients(tf.reshape(tf.range(4.0), [1, 2, 2, 1]))
    >>> dy[0, ..., 0], dx[0, ..., 0]
    (<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[2., 2.],
           [0., 0.]], dtype=float32)>, <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1., 0.],
           [1., 0.]], dtype=float32)>)
    """
    image = convert_to_tensor(image)
    if image.shape.rank != 4:
        raise ValueError("image_gradients expects a 4D tensor [batch_size, h, w, d], not "
                         f"{_shape_text(image.shape)}.")
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    return (tf.pad(dy, [[0, 0], [0, 1], [0, 0], [0, 0]]),
            tf.pad(dx, [[0, 0], [0, 0], [0, 1], [0, 0]]))


def _shape_text(shape):
    dims = ["None" if d is None else str(d) for d in shape.as_list()]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


SOBEL = [[[-1, -2, -1], [0, 0, 0], [1, 2, 1]],   # d/dy: bottom row minus top row
         [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]   # d/dx: right column minus left column


@tf_export("image.sobel_edges")
def sobel_edges(image):
    """The Sobel edge maps: [batch, h, w, d] -> [batch, h, w, d, 2] (dy, dx) per channel.

    The image is padded by reflection, then each channel is convolved (depthwise)
    with the two 3x3 Sobel kernels.

    >>> edges = tf.image.sobel_edges(tf.reshape(tf.range(9.0), [1, 3, 3, 1]))
    >>> edges[0, 1, 1, 0]
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([24.,  8.], dtype=float32)>
    """
    image = convert_to_tensor(image)
    kernels = np.expand_dims(np.transpose(np.asarray(SOBEL), (1, 2, 0)), -2)  # [3, 3, 1, 2]
    kernels = tf.tile(tf.constant(kernels, dtype=image.dtype), [1, 1, image.shape[-1], 1])
    padded = tf.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    output = tf.nn.depthwise_conv2d(padded, kernels, [1, 1, 1, 1], "VALID")
    return tf.reshape(output, [-1 if d is None else d for d in image.shape.as_list()] + [2])


@tf_export("image.total_variation")
def total_variation(images, name=None):
    """The sum of absolute differences between neighbouring pixels (down and right):
    a measure of noise, often added to a loss to smooth an image. One number per
    image for a batch.

    >>> tf.image.total_variation(tf.constant([[[0.0], [1.0]], [[3.0], [0.0]]]))
    <tf.Tensor: shape=(), dtype=float32, numpy=8.0>
    """
    images = convert_to_tensor(images, name="images")
    rank = images.shape.rank
    if rank == 3:
        dif1, dif2, axis = images[1:, :, :] - images[:-1, :, :], \
            images[:, 1:, :] - images[:, :-1, :], None
    elif rank == 4:
        dif1, dif2, axis = images[:, 1:, :, :] - images[:, :-1, :, :], \
            images[:, :, 1:, :] - images[:, :, :-1, :], [1, 2, 3]
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return tf.reduce_sum(tf.abs(dif1), axis=axis) + tf.reduce_sum(tf.abs(dif2), axis=axis)
