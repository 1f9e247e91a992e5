"""Higher-order functions over the first axis: `map_fn`, `foldl`, `foldr`, `scan`.

>>> import minitf as tf
>>> tf.map_fn(lambda row: tf.reduce_sum(row), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 7.], dtype=float32)>
>>> tf.foldl(lambda total, x: total * 10 + x, tf.constant([1, 2, 3]))
<tf.Tensor: shape=(), dtype=int32, numpy=123>

`elems` may be a tensor or a nested structure (tuple, list, dict) of
tensors that share their first dimension; `fn` then receives one slice of
each, packed the same way.

In eager mode these are plain Python loops: `tf.unstack` cuts the first
axis into slices, `fn` runs once per slice, and `tf.stack` joins the
results. Every step is an ordinary minitf op, so a GradientTape records it
and gradients flow through the loop. (TensorFlow builds a `tf.while_loop`
over a `TensorArray` instead; the numbers are the same.)
"""
from ..framework import dtypes, errors, nest
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import stack, unstack
from .creation_ops import zeros


def _flat_elems(elems):
    return [convert_to_tensor(e) for e in nest.flatten(elems)]


def _slices(elems, flat, n):
    """For i in range(n): the i-th slice of every tensor, packed like `elems`."""
    columns = [unstack(t, num=n) if n else [] for t in flat]
    return [nest.pack_sequence_as(elems, [c[i] for c in columns]) for i in range(n)]


def _loop_length(flat, fn_name):
    """The number of steps of a fold or scan: the first tensor's first dimension."""
    if any(t.shape.rank == 0 for t in flat):
        raise IndexError(f"tuple index out of range: {fn_name} loops over the first axis of "
                         "elems, which must be tensors with at least one dimension.")
    n = flat[0].shape[0]
    for t in flat[1:]:
        if t.shape[0] < n:
            raise errors.OutOfRangeError(
                None, None, f"Tried to read from index {t.shape[0]} but array size is: "
                f"{t.shape[0]}. All tensors in elems must have the same first dimension.")
    return n


def _first_or_raise(n, fn_name):
    if n == 0:
        message = ("Reading from negative indices (index -1) is not allowed" if fn_name ==
                   "foldr" else "Tried to read from index 0 but array size is: 0")
        raise errors.OutOfRangeError(None, None, f"{message}. Without an initializer, {fn_name} "
                                     "starts from an element of elems, so elems cannot be empty.")


def _check_structure(before, after):
    nest.assert_same_structure(before, after, check_types=False)


def _fold(fn, elems, initializer, fn_name, reverse):
    flat = _flat_elems(elems)
    n = _loop_length(flat, fn_name)
    steps = _slices(elems, flat, n)
    if reverse:
        steps = steps[::-1]
    if initializer is None:
        _first_or_raise(n, fn_name)
        accumulator, steps = steps[0], steps[1:]
    else:
        accumulator = initializer
    for item in steps:
        new = fn(accumulator, item)
        _check_structure(accumulator, new)
        accumulator = new
    return nest.map_structure(convert_to_tensor, accumulator)


@tf_export("foldl")
def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """Fold from the left: `a = fn(a, elems[i])` for i = 0, 1, ..., n-1; returns `a`.

    Without `initializer`, `a` starts as `elems[0]` and the loop starts at 1.

    >>> tf.foldl(lambda a, x: a + x, tf.constant([1.0, 2.0, 3.0]), initializer=10.0)
    <tf.Tensor: shape=(), dtype=float32, numpy=16.0>
    """
    return _fold(fn, elems, initializer, "foldl", reverse=False)


@tf_export("foldr")
def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """Fold from the right: `a = fn(a, elems[i])` for i = n-1, ..., 0; returns `a`.

    >>> tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]))
    <tf.Tensor: shape=(), dtype=int32, numpy=321>
    """
    return _fold(fn, elems, initializer, "foldr", reverse=True)


def _check_dtype(value, dtype, what):
    """A step's output converted to the loop's dtype, or TF's TensorArray error."""
    if isinstance(value, Tensor) and value.dtype is not dtype:
        raise errors.InvalidArgumentError(
            None, None, f"TensorArray dtype is {dtype.name} but Op is trying to write dtype "
            f"{value.dtype.name}. Every step must return the same dtype; {what}.")
    return convert_to_tensor(value, dtype=dtype)


def _stack_steps(outputs, template, dtypes_, what, empty_shapes):
    """Stack the per-step outputs leaf by leaf and pack them like `template`."""
    if not outputs:
        return nest.pack_sequence_as(template, [
            zeros([0] + shape, dtype) for dtype, shape in zip(dtypes_, empty_shapes)])
    columns = list(zip(*[nest.flatten(o) for o in outputs]))
    stacked = []
    for column, dtype in zip(columns, dtypes_):
        column = [_check_dtype(v, dtype, what) for v in column]
        first = column[0].shape
        for v in column[1:]:
            if v.shape != first:
                raise ValueError(f"Incompatible shape for value ({tuple(v.shape.as_list())}), "
                                 f"expected ({tuple(first.as_list())}): every step must "
                                 "return tensors of the same shape so they can be stacked.")
        stacked.append(stack(column))
    return nest.pack_sequence_as(template, stacked)


@tf_export("scan")
def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """Like foldl, but keeps every intermediate `a`: output[i] = a after step i.

    With `reverse=True` the loop runs from the end; output[i] still belongs to elems[i].

    >>> tf.scan(lambda a, x: a + x, tf.constant([1.0, 2.0, 3.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 3., 6.], dtype=float32)>
    """
    flat = _flat_elems(elems)
    n = _loop_length(flat, "scan")
    steps = _slices(elems, flat, n)
    order = list(range(n))[::-1] if reverse else list(range(n))
    outputs = {}
    if initializer is None:
        _first_or_raise(n, "scan")
        accumulator = steps[order[0]]
        outputs[order[0]] = accumulator
        order = order[1:]
    else:  # unlike foldl, TF's scan converts the initializer to tensors first
        accumulator = nest.map_structure(convert_to_tensor, initializer)
    template = accumulator
    kinds = [convert_to_tensor(v).dtype for v in nest.flatten(accumulator)]
    for i in order:
        new = fn(accumulator, steps[i])
        _check_structure(accumulator, new)
        accumulator = outputs[i] = new
    shapes = [convert_to_tensor(v).shape.as_list() for v in nest.flatten(template)]
    return _stack_steps([outputs[i] for i in range(n)], template, kinds,
                        "the accumulator keeps the dtype it started with", shapes)


def _signature_leaf(spec):
    """(dtype, shape or None) from a DType, a dtype name, or a TensorSpec-like object."""
    if isinstance(spec, dtypes.DType) or isinstance(spec, str):
        return dtypes.as_dtype(spec), None
    shape = getattr(spec, "shape", None)
    known = shape is not None and shape.rank is not None and shape.is_fully_defined()
    return dtypes.as_dtype(spec.dtype), shape.as_list() if known else None


def _map_length(flat):
    if any(t.shape.rank == 0 for t in flat):
        raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    n = flat[0].shape[0]
    for t in flat[1:]:
        if t.shape[0] != n:
            raise ValueError(f"Dimensions {n} and {t.shape[0]} are not compatible: every "
                             "tensor in elems must have the same first dimension.")
    return n


@tf_export("map_fn")
def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """Apply `fn` to each slice `elems[i]` along the first axis and stack the results.

    If `fn` returns a different structure or dtype than `elems` has, say so
    with `fn_output_signature` (a dtype, a `tf.TensorSpec`, or a nest of them;
    `dtype=` is its old name).

    >>> tf.map_fn(lambda x: tf.cast(x > 1.5, tf.int32), tf.constant([1.0, 2.0]),
    ...           fn_output_signature=tf.int32)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 1], dtype=int32)>
    """
    signature = fn_output_signature if fn_output_signature is not None else dtype
    flat = _flat_elems(elems)
    if signature is None:  # by default fn keeps the structure and dtypes of elems
        signature = nest.pack_sequence_as(elems, [t.dtype for t in flat])
    leaves = [_signature_leaf(s) for s in nest.flatten(signature)]
    n = _map_length(flat)
    outputs = []
    for item in _slices(elems, flat, n):
        out = fn(item)
        nest.assert_same_structure(signature, out)
        outputs.append(out)
    return _stack_steps(outputs, signature, [d for d, _ in leaves],
                        "give the output dtype with fn_output_signature",
                        [s or [] for _, s in leaves])
