"""Slicing: `x[1:, ::-1, tf.newaxis, ...]`, `tf.strided_slice`, `tf.slice`.

All three are the one op TensorFlow calls StridedSlice. Its attributes are
a "sparse spec": one (begin, end, stride) triple per entry of the index,
plus five bit masks saying which entries are special:

    x[1:, ::-1, tf.newaxis, ..., 0]
      entry:   0      1        2      3    4
      begin  = 1      0        0      0    0      begin_mask       = 0b00010  (:: has no start)
      end    = 0      0        0      0    1      end_mask         = 0b00011  (no stops)
      stride = 1     -1        1      1    1      new_axis_mask    = 0b00100
                                                  ellipsis_mask    = 0b01000
                                                  shrink_axis_mask = 0b10000  (0 drops its axis)

`x[key]` builds that spec from the key; `tf.strided_slice` takes it
directly. The forward turns the spec back into a NumPy index. The gradient
scatters the upstream gradient into zeros of the input's shape.

>>> import minitf as tf
>>> x = tf.reshape(tf.range(6), [2, 3])
>>> x[:, ::-1]
<tf.Tensor: shape=(2, 3), dtype=int32, numpy=
array([[2, 1, 0],
       [5, 4, 3]], dtype=int32)>
>>> x[1, tf.newaxis].shape
TensorShape([1, 3])
"""
import builtins
import functools

import numpy as np

from ..framework import dtypes, errors
from ..framework.graph import SymbolicTensor
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import attr_dtype_error

newaxis = None  # `tf.newaxis`: in an index, inserts a size-1 axis

_VALID = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
          "tf.int32/tf.int64 tensors are valid indices, got {!r}")
_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _error(message, hint):
    return errors.op_error(errors.InvalidArgumentError, "StridedSlice", message, hint)


# --- from `x[key]` to a sparse spec ------------------------------------------------------
def _index(value):
    """One int from an index entry (a Python/NumPy int or a scalar int tensor)."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(_VALID.format(value))
    if isinstance(value, Tensor) or hasattr(value, "_is_variable"):
        if value.shape.rank != 0 or not value.dtype.is_integer:
            raise TypeError(_VALID.format(value))
        if isinstance(value, SymbolicTensor):  # known only when the graph runs: the
            return value                       # spec keeps the tensor (see getitem)
        return int(value)
    try:
        return int(value.__index__())
    except (AttributeError, TypeError):
        raise TypeError(_VALID.format(value)) from None


def spec_from_key(key):
    """The StridedSlice attributes for `tensor[key]`, as TF's `_slice_helper` builds them.

    >>> spec = spec_from_key((Ellipsis, 0))  # x[..., 0]
    >>> spec["begin"], spec["end"], spec["ellipsis_mask"], spec["shrink_axis_mask"]
    ((0, 0), (0, 1), 1, 2)
    """
    if not isinstance(key, (tuple, list)):  # TF reads a list like a tuple: x[[0, 1]] is x[0, 1]
        key = (key,)
    elif isinstance(key, list) and key and all(isinstance(k, bool) for k in key):
        # TF packs the list into a bool `begin` tensor, which its kernel refuses.
        raise attr_dtype_error("StridedSlice", "Index", dtypes.bool, "int16, int32, int64",
                               "To pick entries with a bool mask, index with a bool tensor "
                               "or use tf.boolean_mask.")
    begin, end, strides = [], [], []
    masks = dict.fromkeys(_MASKS, 0)
    for i, k in enumerate(key):
        bit = 1 << i
        if isinstance(k, builtins.slice):
            start, stop, step = _index(k.start), _index(k.stop), _index(k.step)
            begin.append(0 if start is None else start)
            end.append(0 if stop is None else stop)
            strides.append(1 if step is None else step)
            masks["begin_mask"] |= bit if start is None else 0
            masks["end_mask"] |= bit if stop is None else 0
            continue
        if k is Ellipsis:
            masks["ellipsis_mask"] |= bit
            b, e = 0, 0
        elif k is None:
            masks["new_axis_mask"] |= bit
            b, e = 0, 0
        else:
            b = _index(k)
            e = b + 1 if type(b) is int else _next(b)
            masks["shrink_axis_mask"] |= bit
        begin.append(b)
        end.append(e)
        strides.append(1)
    return dict(begin=tuple(begin), end=tuple(end), strides=tuple(strides), **masks)


# --- from a sparse spec to a NumPy index, checked the way TF's kernel checks it --------------
def _sparse_entries(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                    shrink_axis_mask):
    """The spec as a list of Ellipsis / None (new axis) / int (shrink) / slice."""
    if ellipsis_mask & (ellipsis_mask - 1):
        raise _error("Multiple ellipses in slice spec not allowed",
                     "Only one `...` may appear in an index.")
    entries = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            entries.append(Ellipsis)
        elif new_axis_mask & bit:
            entries.append(None)
        elif shrink_axis_mask & bit:
            entries.append((b, s))  # an integer index; its stride is checked below
        else:
            entries.append(builtins.slice(None if begin_mask & bit else b,
                                          None if end_mask & bit else e, s))
    return entries


def _dense(entries, rank):
    """Pair each entry with the input axis it reads (None for new axes)."""
    consumed = sum(1 for k in entries if k is not None and k is not Ellipsis)
    if rank == 0 and consumed:
        raise _error("Attempting to slice scalar input.",
                     "A scalar has no axes to index; use it as it is.")
    if Ellipsis not in entries:
        entries = entries + [Ellipsis]  # trailing axes are kept whole
    if consumed > rank:
        raise _error(f"Index out of range using input dim {rank}; input has only {rank} dims",
                     f"This tensor has {rank} axes, but the index names {consumed}.")
    pairs, axis = [], 0
    for k in entries:
        if k is Ellipsis:
            for _ in range(rank - consumed):
                pairs.append((builtins.slice(None), axis))
                axis += 1
        elif k is None:
            pairs.append((None, None))
        else:
            pairs.append((k, axis))
            axis += 1
    return pairs


def _checked(pairs, dims):
    """Validate each axis's entry against its size; return (NumPy key, output dims)."""
    key, out = [], []
    for k, axis in pairs:
        if axis is None:
            key.append(None)
            out.append(1)
            continue
        d = dims[axis]
        step = k[1] if isinstance(k, tuple) else k.step
        if step == 0:
            raise _error(f"strides[{axis}] must be non-zero", "A stride of 0 would never move.")
        if isinstance(k, builtins.slice):
            key.append(k)
            out.append(None if d is None else len(range(*k.indices(d))))
            continue
        if step < 0:
            raise _error("only stride 1 allowed on non-range indexing.",
                         "An integer index picks one position; it cannot step backwards.")
        index = k[0] + d if d is not None and k[0] < 0 else k[0]
        if d is not None and not 0 <= index < d:
            raise _error(f"slice index {index} of dimension {axis} out of bounds.",
                         f"Axis {axis} has size {d}: valid indices are {-d}..{d - 1}.")
        key.append(index)
    return tuple(key), out


def _check_lengths(begin, end, strides):
    if not len(begin) == len(end) == len(strides):
        raise _error(
            "Expected begin, end, and strides to be 1D equal size tensors, but got shapes "
            f"[{len(begin)}], [{len(end)}], and [{len(strides)}] instead.",
            "Give begin, end and strides one entry each per index position.")


@functools.lru_cache(maxsize=1024)  # loops slice same-shaped tensors the same way, again and again
def _cached_key(dims, begin, end, strides, *masks):
    _check_lengths(begin, end, strides)
    entries = _sparse_entries(begin, end, strides, *masks)
    key, out = _checked(_dense(entries, len(dims)), dims)
    return key, tuple(out)


def _numpy_key(dims, spec):
    """(the NumPy index, the output dims) for a spec applied to a tensor with `dims`."""
    return _cached_key(tuple(dims), spec["begin"], spec["end"], spec["strides"],
                       *(spec[m] for m in _MASKS))


def _strided_slice_shape(shape, **spec):
    if shape.rank is None:
        return TensorShape(None)
    return TensorShape(_numpy_key(shape.dims, spec)[1])


def _strided_slice_forward(x, **spec):
    key, _ = _numpy_key(x.shape, spec)
    return np.array(x[key], dtype=x.dtype)  # a string stays an object, not fixed-width bytes


StridedSlice = Op("StridedSlice", _strided_slice_forward, typed=(), shape=_strided_slice_shape)


def _strided_slice_grad_forward(dy, shape, **spec):
    key, _ = _numpy_key(shape, spec)
    grad = np.zeros(shape, dtype=dy.dtype)
    grad[key] = dy  # basic indexing never repeats a position, so assigning is summing
    return grad


StridedSliceGrad = Op("StridedSliceGrad", _strided_slice_grad_forward, typed=(),
                      shape=lambda dy, shape, **spec: TensorShape(shape))


@StridedSlice.def_grad
def _strided_slice_grad(op, dy):
    x = op.inputs[0]
    if not x.shape.is_fully_defined():  # the input's shape is known only at run time
        spec = {k: v for k, v in op.attrs.items() if k in _MASKS}
        bounds = [convert_to_tensor(np.array(op.attrs[k], np.int32))
                  for k in ("begin", "end", "strides")]
        return _dynamic_grad(dy, x, bounds, spec)
    return apply(StridedSliceGrad, [dy], dict(op.attrs, shape=tuple(x.shape)))


@StridedSliceGrad.def_grad
def _strided_slice_grad_grad(op, ddy):
    spec = {k: v for k, v in op.attrs.items() if k != "shape"}
    return apply(StridedSlice, [ddy], spec)


# --- bounds known only when the graph runs: x[i], x[i:j] with tensors i, j --------------------
_UNKNOWN = "?"  # stands for a bound whose value is a tensor, in the static shape rule


def _next(index):
    from .math_ops import add

    return add(index, 1)


def _dynamic_shape(shape, begin, end, strides, _known, **masks):
    """The static output shape when some bounds are tensors: an integer index still
    drops its axis, a slice with an unknown bound has an unknown length."""
    if shape.rank is None:
        return TensorShape(None)
    entries = _sparse_entries(*_known, **masks)
    out = []
    for k, axis in _dense(entries, shape.rank):
        if axis is None:
            out.append(1)
        elif isinstance(k, builtins.slice):
            d = shape[axis]
            unknown = _UNKNOWN in (k.start, k.stop, k.step) or d is None
            out.append(None if unknown else len(range(*k.indices(d))))
    return TensorShape(out)


def _dynamic_forward(x, begin, end, strides, _known, **masks):
    spec = dict(begin=tuple(begin.tolist()), end=tuple(end.tolist()),
                strides=tuple(strides.tolist()), **masks)
    return _strided_slice_forward(x, **spec)


# TF's StridedSlice always takes begin/end/strides as input tensors; minitf keeps them as
# attributes when they are known while tracing (most slices) and uses this twin otherwise.
StridedSliceDynamic = Op("StridedSlice", _dynamic_forward, typed=(), shape=_dynamic_shape)


def _dynamic_grad_forward(dy, shape, begin, end, strides, **masks):
    spec = dict(begin=tuple(begin.tolist()), end=tuple(end.tolist()),
                strides=tuple(strides.tolist()), **masks)
    return _strided_slice_grad_forward(dy, tuple(int(d) for d in shape), **spec)


StridedSliceGradDynamic = Op("StridedSliceGrad", _dynamic_grad_forward, typed=(),
                             shape=lambda dy, shape, *_, _shape, **masks: _shape)


def _dynamic_grad(dy, x, bounds, masks):
    from .shape_ops import shape_of

    shape = convert_to_tensor(shape_of(x), dtype=dtypes.int32)
    return apply(StridedSliceGradDynamic, [dy, shape] + bounds, dict(masks, _shape=x.shape))


@StridedSliceDynamic.def_grad
def _strided_slice_dynamic_grad(op, dy):
    masks = {k: v for k, v in op.attrs.items() if k in _MASKS}
    return (_dynamic_grad(dy, op.inputs[0], list(op.inputs[1:]), masks), None, None, None)


@StridedSliceGradDynamic.def_grad
def _strided_slice_grad_dynamic_grad(op, ddy):
    masks = {k: v for k, v in op.attrs.items() if k in _MASKS}
    known = [(_UNKNOWN,) * t.shape[0] for t in op.inputs[2:]]
    return (apply(StridedSliceDynamic, [ddy] + list(op.inputs[2:]),
                  dict(masks, _known=tuple(known))), None, None, None, None)


def _has_tensor(spec):
    return any(isinstance(v, SymbolicTensor) for k in ("begin", "end", "strides")
               for v in spec[k])


def dynamic_slice(tensor, spec):
    """StridedSlice with begin/end/strides packed into int tensors at run time."""
    from .array_ops import stack

    vectors, known = [], []
    for key in ("begin", "end", "strides"):
        values = spec[key]
        tensors = [v for v in values if isinstance(v, SymbolicTensor)]
        dtype = tensors[0].dtype if tensors else dtypes.int32
        vectors.append(stack([v if isinstance(v, SymbolicTensor) else
                              convert_to_tensor(v, dtype=dtype) for v in values]))
        known.append(tuple(_UNKNOWN if isinstance(v, SymbolicTensor) else v for v in values))
    masks = {k: spec[k] for k in _MASKS}
    return apply(StridedSliceDynamic, [tensor] + vectors, dict(masks, _known=tuple(known)))


# --- the public entry points ---------------------------------------------------------------
def _is_bool_mask(key):
    if isinstance(key, (bool, np.bool_)):
        return isinstance(key, bool)  # TF: a Python bool is a (scalar) mask, np.bool_ is not
    if isinstance(key, np.ndarray):
        return key.dtype == np.bool_
    if isinstance(key, Tensor) or hasattr(key, "_is_variable"):
        return key.dtype is dtypes.bool
    return False


def getitem(tensor, key):
    """`tensor[key]` (installed as `Tensor.__getitem__`).

    ints, slices, `...` and `tf.newaxis` follow NumPy's basic indexing; a
    bool tensor as the whole key is `tf.boolean_mask(tensor, key)`.
    """
    tensor = convert_to_tensor(tensor)
    if _is_bool_mask(key):
        from .gather_ops import boolean_mask

        return boolean_mask(tensor, key)
    spec = spec_from_key(key)
    if _has_tensor(spec):  # x[i] with i a tensor of the graph being traced
        return dynamic_slice(tensor, spec)
    return apply(StridedSlice, [tensor], spec)


def _int_vector(name, value):
    array = convert_to_tensor(value).numpy()
    if array.dtype.kind not in "iu":
        raise attr_dtype_error("StridedSlice", "Index", dtypes.from_numpy(array.dtype),
                               "int16, int32, int64",
                               f"`{name}` holds positions, so it must be integers.")
    return np.asarray(array)


@tf_export("strided_slice")
def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """The StridedSlice op with its spec spelled out (`x[key]` builds the same spec).

    Bit i of a mask applies to entry i: begin_mask/end_mask ignore begin[i]/end[i]
    (slice from the start / to the end), ellipsis_mask makes entry i `...`,
    new_axis_mask makes it `tf.newaxis`, shrink_axis_mask makes it the integer begin[i].

    >>> x = tf.reshape(tf.range(6), [2, 3])
    >>> tf.strided_slice(x, [0, 2], [2, 0], [1, -1], end_mask=1)  # x[0:, 2:0:-1]
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[2, 1],
           [5, 4]], dtype=int32)>
    """
    input_ = convert_to_tensor(input_)
    begin, end = _int_vector("begin", begin), _int_vector("end", end)
    strides = np.ones_like(begin) if strides is None else _int_vector("strides", strides)
    if begin.ndim != 1 or end.ndim != 1 or strides.ndim != 1:
        raise _error(
            "Expected begin, end, and strides to be 1D equal size tensors, but got shapes "
            f"{_dims(begin)}, {_dims(end)}, and {_dims(strides)} instead.",
            "begin, end and strides are vectors with one entry per index position.")
    spec = dict(begin=tuple(int(b) for b in begin), end=tuple(int(e) for e in end),
                strides=tuple(int(s) for s in strides), begin_mask=int(begin_mask),
                end_mask=int(end_mask), ellipsis_mask=int(ellipsis_mask),
                new_axis_mask=int(new_axis_mask), shrink_axis_mask=int(shrink_axis_mask))
    return apply(StridedSlice, [input_], spec)


def _dims(array):
    return "[" + ",".join(str(d) for d in array.shape) + "]"


@tf_export("slice")
def slice(input_, begin, size, name=None):  # noqa: A001 - TF's name
    """The block starting at `begin` with extent `size` (-1: to the end of that axis).

    >>> tf.slice(tf.reshape(tf.range(6), [2, 3]), [0, 1], [2, -1])
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 2],
           [4, 5]], dtype=int32)>
    """
    input_ = convert_to_tensor(input_)
    begin = [int(b) for b in np.reshape(np.asarray(begin), [-1])]
    size = [int(s) for s in np.reshape(np.asarray(size), [-1])]
    dims = input_.shape.as_list()
    if len(begin) != len(dims) or len(size) != len(dims):
        raise errors.op_error(
            errors.InvalidArgumentError, "Slice",
            f"Expected begin and size arguments to be 1-D tensors of size {len(dims)}, but got "
            f"shapes [{len(begin)}] and [{len(size)}] instead.", "Give one entry per axis.")
    end, end_mask = [], 0
    for axis, (b, s, d) in enumerate(zip(begin, size, dims)):
        if d is not None and not 0 <= b <= d:  # an unknown size is checked when the graph runs
            raise errors.op_error(errors.InvalidArgumentError, "Slice",
                                  f"Expected begin[{axis}] in [0, {d}], but got {b}",
                                  "begin must be a position inside the tensor.")
        if s == -1:
            end_mask |= 1 << axis
        elif d is not None and not 0 <= s <= d - b:
            raise errors.op_error(errors.InvalidArgumentError, "Slice",
                                  f"Expected size[{axis}] in [0, {d - b}], but got {s}",
                                  "begin + size must stay inside the tensor.")
        end.append(b + max(s, 0))
    spec = dict(begin=tuple(begin), end=tuple(end), strides=(1,) * len(dims), begin_mask=0,
                end_mask=end_mask, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0)
    return apply(StridedSlice, [input_], spec)
