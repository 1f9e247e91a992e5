"""Moving blocks of space into the batch or the depth axis and back: tf.space_to_batch
(tf.space_to_batch_nd, tf.nn.space_to_batch), tf.batch_to_space,
tf.required_space_to_batch_paddings, tf.nn.space_to_depth, tf.nn.depth_to_space.

>>> import minitf as tf
>>> x = tf.reshape(tf.range(16), [1, 4, 4, 1])
>>> tf.space_to_batch(x, [2, 2], [[0, 0], [0, 0]])[:, :, :, 0]   # one image per 2x2 offset
<tf.Tensor: shape=(4, 2, 2), dtype=int32, numpy=
array([[[ 0,  2],
        [ 8, 10]],
<BLANKLINE>
       [[ 1,  3],
        [ 9, 11]],
<BLANKLINE>
       [[ 4,  6],
        [12, 14]],
<BLANKLINE>
       [[ 5,  7],
        [13, 15]]], dtype=int32)>

All four moves are a pad or crop plus reshape/transpose, so each pair is the other's
gradient: space_to_batch's gradient is batch_to_space, space_to_depth's is depth_to_space.
(Dilated convolutions use space_to_batch: a convolution of the block images is a dilated
convolution of the original.)
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import stack
from .creation_ops import zeros
from .shape_ops import constant_value


def _error(op_name, message, hint, cls=errors.InvalidArgumentError):
    return errors.op_error(cls, op_name, message, hint)


def _static_ints(value, op_name, what):
    """block_shape / paddings must be known while tracing: minitf computes shapes from them."""
    known = constant_value(convert_to_tensor(value))
    if known is None:
        raise ValueError(f"{op_name}: {what} must be known when the function is traced (a "
                         "constant or Python list) in minitf.")
    if known.size and known.dtype.kind not in "iu":
        raise _error(op_name, f"Value for attr 'T{what}' of "
                     f"{dtypes.tf_type_name(dtypes.from_numpy(known.dtype))} is not in the list "
                     "of allowed values: int32, int64", f"{what} must be integers.")
    return known.astype(np.int64)


def _check_blocks(op_name, rank, block, pads, pads_name):
    m = block.size
    if block.ndim != 1:
        raise _error(op_name, f"block_shape must be one-dimensional, got shape "
                     f"[{','.join(map(str, block.shape))}]", "Give one block size per axis.")
    if pads.shape != (m, 2):
        raise _error(op_name, f"{pads_name} should have shape [{m}, 2] instead of "
                     f"[{','.join(map(str, pads.shape))}]",
                     f"Give a [before, after] pair for each of the {m} blocked axes.")
    if rank is not None and rank < m + 1:
        raise _error(op_name, f"input rank should be >= {m + 1} instead of {rank}",
                     "Axis 0 is the batch; the blocked axes follow it.")
    for i, b in enumerate(block):
        if b < 1:
            raise _error(op_name, f"All values in block_shape must be positive, got value, {b} "
                         f"at index {i}.", "A block has at least one entry per axis.")
    if (pads < 0).any():
        word = "Paddings" if pads_name == "paddings" else "Crops"
        raise _error(op_name, f"{word} must be non-negative",
                     f"{word} count entries added or removed; they cannot be negative.")


# --- space_to_batch_nd / batch_to_space_nd ---------------------------------------------------
def _space_to_batch_forward(x, block_shape, paddings):
    m = len(block_shape)
    x = np.pad(x, [(0, 0)] + [tuple(p) for p in paddings] + [(0, 0)] * (x.ndim - 1 - m))
    for i, b in enumerate(block_shape):
        if x.shape[1 + i] % b:
            raise _error("SpaceToBatchND", f"padded_shape[{i}]={x.shape[1 + i]} is not "
                         f"divisible by block_shape[{i}]={b}",
                         "Pad so each blocked axis is a multiple of its block size "
                         "(tf.required_space_to_batch_paddings computes the padding).")
    batch, rest = x.shape[0], x.shape[1 + m:]
    split = [batch]
    for i, b in enumerate(block_shape):
        split += [x.shape[1 + i] // b, b]
    x = x.reshape(split + list(rest))
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] \
        + list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    x = x.transpose(order)  # block offsets first, then the batch, then the block grid
    return x.reshape([batch * int(np.prod(block_shape))] + [split[1 + 2 * i] for i in range(m)]
                     + list(rest))


def _space_to_batch_shape(x, block_shape, paddings):
    if x.rank is None:
        return TensorShape(None)
    dims = list(x.dims)
    blocks = int(np.prod(block_shape))
    dims[0] = None if dims[0] is None else dims[0] * blocks
    for i, b in enumerate(block_shape):
        d = dims[1 + i]
        dims[1 + i] = None if d is None else (d + int(sum(paddings[i]))) // b
    return TensorShape(dims)


def _batch_to_space_forward(x, block_shape, crops):
    m, blocks = len(block_shape), int(np.prod(block_shape))
    if x.shape[0] % blocks:
        raise _error("BatchToSpaceND", f"Input batch dimension ({x.shape[0]}) is not divisible "
                     f"by product of block sizes ({blocks})",
                     "The batch must hold one image per block offset.")
    batch, grid, rest = x.shape[0] // blocks, x.shape[1:1 + m], x.shape[1 + m:]
    x = x.reshape(list(block_shape) + [batch] + list(grid) + list(rest))
    order = [m]
    for i in range(m):
        order += [m + 1 + i, i]
    order += list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    x = x.transpose(order).reshape([batch] + [g * b for g, b in zip(grid, block_shape)]
                                   + list(rest))
    for i, (start, end) in enumerate(crops):
        if start + end > x.shape[1 + i]:
            raise _error("BatchToSpaceND", f"Crops must be less than the block size times the "
                         f"input size: crops {start}, {end} for a size of {x.shape[1 + i]}",
                         "Crop less than the whole axis.")
    index = [slice(None)] + [slice(int(s), x.shape[1 + i] - int(e))
                             for i, (s, e) in enumerate(crops)]
    return x[tuple(index)]


def _batch_to_space_shape(x, block_shape, crops):
    if x.rank is None:
        return TensorShape(None)
    dims = list(x.dims)
    blocks = int(np.prod(block_shape))
    dims[0] = None if dims[0] is None else dims[0] // blocks
    for i, b in enumerate(block_shape):
        d = dims[1 + i]
        dims[1 + i] = None if d is None else d * b - int(sum(crops[i]))
    return TensorShape(dims)


SpaceToBatchND = Op("SpaceToBatchND", _space_to_batch_forward, typed=(),
                    shape=_space_to_batch_shape)
BatchToSpaceND = Op("BatchToSpaceND", _batch_to_space_forward, typed=(),
                    shape=_batch_to_space_shape)


@SpaceToBatchND.def_grad
def _space_to_batch_grad(op, dy):  # move the blocks back; the padding's gradient is cropped
    return apply(BatchToSpaceND, [dy], {"block_shape": op.attrs["block_shape"],
                                        "crops": op.attrs["paddings"]})


@BatchToSpaceND.def_grad
def _batch_to_space_grad(op, dy):  # the cropped entries get zero gradient (padding)
    return apply(SpaceToBatchND, [dy], {"block_shape": op.attrs["block_shape"],
                                        "paddings": op.attrs["crops"]})


def _as_attrs(block, pads):
    return tuple(int(b) for b in block), tuple((int(a), int(b)) for a, b in pads)


@tf_export("space_to_batch_nd")
def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002 - TF's names
    """Pad the M axes after the batch, cut them into blocks of `block_shape`, and stack
    the entries at each offset within a block as a separate batch entry:
    [batch, d1..dM, rest] -> [batch * prod(block_shape), (d + pads) / block, rest].

    >>> tf.space_to_batch_nd(tf.zeros([1, 4, 6, 3]), [2, 3], [[0, 0], [0, 0]]).shape
    TensorShape([6, 2, 2, 3])
    """
    x = convert_to_tensor(input)
    block = _static_ints(block_shape, "SpaceToBatchND", "block_shape")
    pads = _static_ints(paddings, "SpaceToBatchND", "paddings")
    _check_blocks("SpaceToBatchND", x.shape.rank, block, pads, "paddings")
    block, pads = _as_attrs(block, pads)
    return apply(SpaceToBatchND, [x], {"block_shape": block, "paddings": pads})


@tf_export("space_to_batch", "nn.space_to_batch")
def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002
    """tf.space_to_batch_nd under its TF 2 name.

    >>> tf.space_to_batch([[[1], [2], [3]]], [2], [[1, 0]])[:, :, 0]
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[0, 2],
           [1, 3]], dtype=int32)>
    """
    return space_to_batch_nd(input, block_shape, paddings, name)


@tf_export("batch_to_space")
def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    """The inverse of tf.space_to_batch: put each batch entry back at its offset inside
    the blocks, then crop `crops` = [[start, end], ...] from the M axes after the batch.

    >>> tf.batch_to_space(tf.reshape(tf.range(8), [4, 2, 1]), [2], [[1, 1]])[:, :, 0]
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[4, 1],
           [6, 3]], dtype=int32)>
    """
    x = convert_to_tensor(input)
    block = _static_ints(block_shape, "BatchToSpaceND", "block_shape")
    crop = _static_ints(crops, "BatchToSpaceND", "crops")
    _check_blocks("BatchToSpaceND", x.shape.rank, block, crop, "crops")
    block, crop = _as_attrs(block, crop)
    return apply(BatchToSpaceND, [x], {"block_shape": block, "crops": crop})


@tf_export("required_space_to_batch_paddings")
def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """The paddings (and the crops that undo the extra ones) that make `input_shape`
    plus `base_paddings` divisible by `block_shape`: pad_end grows by
    (block - (size + pads) % block) % block.

    >>> paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3])
    >>> paddings.numpy().tolist(), crops.numpy().tolist()
    ([[0, 1], [0, 2]], [[0, 1], [0, 2]])
    """
    input_shape = convert_to_tensor(input_shape, dtype=dtypes.int32)
    block_shape = convert_to_tensor(block_shape, dtype=dtypes.int32)
    if block_shape.shape.rank != 1 or not block_shape.shape.is_fully_defined():
        raise ValueError(f"Shape {block_shape.shape} must have rank 1 and be fully defined: "
                         "block_shape lists one block size per blocked axis.")
    m = block_shape.shape[0]
    if m == 0:
        return zeros([0, 2], dtypes.int32), zeros([0, 2], dtypes.int32)
    if input_shape.shape.rank is not None and input_shape.shape.as_list() != [m]:
        raise ValueError(f"Shapes {input_shape.shape} and ({m},) are incompatible")
    if base_paddings is None:
        base_paddings = zeros([m, 2], dtypes.int32)
    base_paddings = convert_to_tensor(base_paddings, dtype=dtypes.int32)
    pad_start, orig_pad_end = base_paddings[:, 0], base_paddings[:, 1]
    full_input_shape = input_shape + pad_start + orig_pad_end
    pad_end_extra = (block_shape - full_input_shape % block_shape) % block_shape
    pad_end = orig_pad_end + pad_end_extra
    paddings = stack([stack([pad_start[i], pad_end[i]]) for i in range(m)])
    crops = stack([stack([0, pad_end_extra[i]]) for i in range(m)])
    return paddings, crops


# --- space_to_depth / depth_to_space ---------------------------------------------------------
def _check_depth_args(op_name, x, block_size, data_format):
    if data_format != "NHWC":
        raise _error(op_name, f"Could not find device for node: {{{{node {op_name}}}}} = "
                     f"{op_name}[block_size={block_size}, data_format=\"{data_format}\"]",
                     "On the CPU TensorFlow implements only data_format='NHWC' (channels "
                     "last); transpose to NHWC first.", cls=errors.NotFoundError)
    if block_size < 2:
        raise _error(op_name, f"Value for attr 'block_size' of {block_size} must be at least "
                     "minimum 2", "A block of 1 would move nothing.")
    if x.shape.rank is not None and x.shape.rank != 4:
        raise _error(op_name, f"Input rank should be 4 instead of {x.shape.rank}",
                     "The input is a batch of images [batch, height, width, channels].")


def _space_to_depth_forward(x, block_size):
    n, h, w, c = x.shape
    b = block_size
    if h % b or w % b:
        raise _error("SpaceToDepth", f"Image width {w} and height {h} should be divisible by "
                     f"block_size: {b}", "Pad or crop the image to a multiple of the block.")
    x = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return x.reshape(n, h // b, w // b, b * b * c)


def _depth_to_space_forward(x, block_size):
    n, h, w, c = x.shape
    b = block_size
    if c % (b * b):
        raise _error("DepthToSpace", f"Input depth dimension {c} should be divisible by: "
                     f"{b * b}", "The channels must fill whole blocks of block_size**2.")
    x = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return x.reshape(n, h * b, w * b, c // (b * b))


def _scaled_shape(x, block_size, up):
    if x.rank != 4:
        return TensorShape(None)
    n, h, w, c = x.dims
    b, bb = block_size, block_size * block_size
    if up:
        return TensorShape([n, h and h * b, w and w * b, c and c // bb])
    return TensorShape([n, h and h // b, w and w // b, c and c * bb])


SpaceToDepth = Op("SpaceToDepth", _space_to_depth_forward, typed=(),
                  shape=lambda x, block_size: _scaled_shape(x, block_size, False))
DepthToSpace = Op("DepthToSpace", _depth_to_space_forward, typed=(),
                  shape=lambda x, block_size: _scaled_shape(x, block_size, True))
SpaceToDepth.def_grad(lambda op, dy: apply(DepthToSpace, [dy], op.attrs))
DepthToSpace.def_grad(lambda op, dy: apply(SpaceToDepth, [dy], op.attrs))


@tf_export("nn.space_to_depth")
def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Move each block_size x block_size patch of an image into the channels:
    [n, h, w, c] -> [n, h/b, w/b, b*b*c] (the channels of a patch, row by row).

    >>> x = tf.reshape(tf.range(16), [1, 4, 4, 1])
    >>> tf.nn.space_to_depth(x, 2)[0, 0, 0]
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 1, 4, 5], dtype=int32)>
    """
    x = convert_to_tensor(input)
    _check_depth_args("SpaceToDepth", x, int(block_size), data_format)
    return apply(SpaceToDepth, [x], {"block_size": int(block_size)})


@tf_export("nn.depth_to_space")
def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """The inverse of space_to_depth: spread each pixel's b*b*c channels over a b x b
    patch (the "pixel shuffle" that upsamples in super-resolution models).

    >>> tf.nn.depth_to_space(tf.reshape(tf.range(12), [1, 1, 1, 12]), 2)[0, :, :, 0]
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[0, 3],
           [6, 9]], dtype=int32)>
    """
    x = convert_to_tensor(input)
    _check_depth_args("DepthToSpace", x, int(block_size), data_format)
    return apply(DepthToSpace, [x], {"block_size": int(block_size)})
