"""`keras.ops` core: tensors in and out, casts, shapes, and control flow.

`cond`, `while_loop`, `switch` and `map` are `tf.cond`, `tf.while_loop`,
`tf.switch_case` and `tf.map_fn` with Keras's argument conventions (a
`while_loop` over one tensor returns one tensor, not a 1-tuple); `scan`,
`fori_loop` and `associative_scan` are built from them.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.fori_loop(0, 5, lambda i, total: total + i, 0)
<tf.Tensor: shape=(), dtype=int32, numpy=10>
>>> carry, ys = ops.scan(lambda c, x: (c + x, c * x), 0.0, tf.constant([1.0, 2.0, 3.0]))
>>> carry, ys
(<tf.Tensor: shape=(), dtype=float32, numpy=6.0>, <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 2., 9.], dtype=float32)>)
"""
import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, standardize_dtype


@keras_ops_export()
def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """A tensor of `x`; a `dtype` of another kind is reached by a cast, not refused.

    >>> ops.convert_to_tensor([1.7, -2.2], dtype="int32")  # tf.convert_to_tensor would raise
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -2], dtype=int32)>
    """
    return convert(x, dtype)


@keras_ops_export()
def convert_to_numpy(x):
    """A NumPy array of `x`.

    >>> ops.convert_to_numpy(tf.constant([1, 2]))
    array([1, 2], dtype=int32)
    """
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return np.array(x.numpy())
    return np.array(x)


@keras_ops_export()
def cast(x, dtype):
    """`tf.cast` with a Keras dtype name.

    >>> ops.cast([1.9, -1.9], "int32")
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -1], dtype=int32)>
    """
    return tf.cast(x, standardize_dtype(dtype))


@keras_ops_export()
def saturate_cast(x, dtype):
    """A cast that clips to the target's range first (300.0 to uint8 is 255, not 44).

    >>> ops.saturate_cast(tf.constant([-5.0, 300.0]), "uint8")
    <tf.Tensor: shape=(2,), dtype=uint8, numpy=array([  0, 255], dtype=uint8)>
    """
    dtype = standardize_dtype(dtype)
    x = convert(x)
    in_dtype = x.dtype.name
    in_min, in_max = _limits(in_dtype)
    out_min, out_max = _limits(dtype)
    # The output's limits may not be representable in the input dtype (255 in float16 is,
    # 2**32 - 1 in float32 is not): nudge them inward, as Keras does.
    low = np.array(max(in_min, out_min)).astype(in_dtype)
    if low < out_min:
        low = np.nextafter(low, 0, dtype=in_dtype)
    high = np.array(min(in_max, out_max)).astype(in_dtype)
    if high > out_max:
        high = np.nextafter(high, 0, dtype=in_dtype)
    return tf.cast(tf.clip_by_value(x, tf.constant(low, in_dtype), tf.constant(high, in_dtype)),
                   dtype)


def _limits(dtype):
    if dtype == "bool":
        return 0, 1
    info = np.iinfo(dtype) if "int" in dtype else np.finfo(dtype)
    return info.min.item() if hasattr(info.min, "item") else info.min, \
        info.max.item() if hasattr(info.max, "item") else info.max


@keras_ops_export()
def shape(x):
    """The shape as a tuple: ints where known, scalar tensors where only the run knows.

    >>> ops.shape(tf.zeros((2, 3)))
    (2, 3)
    """
    x = convert(x)
    static = x.shape.as_list()
    if None not in static:
        return tuple(static)
    dynamic = tf.shape(x)
    return tuple(dynamic[i] if d is None else d for i, d in enumerate(static))


@keras_ops_export()
def dtype(x):
    """The dtype's name as a string.

    >>> ops.dtype(tf.constant(1.0))
    'float32'
    """
    return standardize_dtype(convert(x).dtype)


@keras_ops_export()
def is_tensor(x):
    """True for a tensor (a NumPy array is not one).

    >>> ops.is_tensor(tf.constant(1)), ops.is_tensor(np.ones(2))
    (True, False)
    """
    return isinstance(x, tf.Tensor)


@keras_ops_export()
def stop_gradient(variable):
    """`tf.stop_gradient`: the value, with no gradient flowing back through it.

    >>> ops.stop_gradient(tf.constant(2.0))
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """
    return tf.stop_gradient(variable)


@keras_ops_export()
def custom_gradient(f):
    """`tf.custom_gradient`: `f` returns (value, grad_fn).

    >>> @ops.custom_gradient
    ... def clip_grad(x):
    ...     return x, lambda dy: ops.clip(dy, -1.0, 1.0)
    >>> clip_grad(tf.constant(3.0))
    <tf.Tensor: shape=(), dtype=float32, numpy=3.0>
    """
    return tf.custom_gradient(f)


@keras_ops_export()
def cond(pred, true_fn, false_fn):
    """`tf.cond`: a graph branch inside `tf.function`, a Python `if` in eager mode.

    >>> ops.cond(tf.constant(True), lambda: 1, lambda: 0)
    1
    """
    return tf.cond(pred, true_fn, false_fn)


@keras_ops_export()
def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """`tf.while_loop`; one loop variable in gives one out (Keras's convention).

    >>> ops.while_loop(lambda x: x < 100, lambda x: x * 2, 1)
    <tf.Tensor: shape=(), dtype=int32, numpy=128>
    """
    is_tuple = isinstance(loop_vars, (tuple, list))
    loop_vars = tuple(loop_vars) if is_tuple else (loop_vars,)

    def _body(*args):
        outputs = body(*args)
        return tuple(outputs) if is_tuple else (outputs,)

    outputs = tf.while_loop(cond, _body, loop_vars, maximum_iterations=maximum_iterations)
    return tuple(outputs) if is_tuple else outputs[0]


@keras_ops_export()
def fori_loop(lower, upper, body_fun, init_val):
    """`val = body_fun(i, val)` for i in range(lower, upper), as a while_loop.

    >>> ops.fori_loop(0, 3, lambda i, x: x * 2.0, 1.0)
    <tf.Tensor: shape=(), dtype=float32, numpy=8.0>
    """
    _, result = while_loop(lambda i, val: i < upper,
                           lambda i, val: (i + 1, body_fun(i, val)), (lower, init_val))
    return result


def _leading(tree):
    leaves = tf.nest.flatten(tree)
    return [convert(leaf) for leaf in leaves]


@keras_ops_export()
def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """`carry, y = f(carry, x)` along xs' first axis; returns (last carry, stacked ys).

    minitf unrolls the loop over the static length (each step an op in the
    graph), so gradients flow through every step; Keras on TensorFlow uses a
    `tf.while_loop` with the same results.

    >>> ops.scan(lambda c, x: (c + x, c), 0, tf.constant([1, 2, 3]))[1]
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 3], dtype=int32)>
    """
    if xs is None and length is None:
        raise ValueError("Got no `xs` to scan over and `length` not provided.")
    leaves = _leading(xs) if xs is not None else []
    n = length if length is not None else leaves[0].shape[0]
    carry, ys = init, []
    steps = range(n - 1, -1, -1) if reverse else range(n)
    for i in steps:
        x = None if xs is None else tf.nest.pack_sequence_as(xs, [leaf[i] for leaf in leaves])
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys or all(leaf is None for leaf in tf.nest.flatten(ys[0])):
        return carry, None
    stacked = [tf.stack(parts) for parts in zip(*(tf.nest.flatten(y) for y in ys))]
    return carry, tf.nest.pack_sequence_as(ys[0], stacked)


@keras_ops_export()
def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan with an associative `f` (a running `f`-reduction) along `axis`.

    >>> ops.associative_scan(ops.add, tf.constant([1, 2, 3, 4]))
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([ 1,  3,  6, 10], dtype=int32)>
    """
    leaves = _leading(elems)
    parts = [tf.unstack(leaf, axis=axis) for leaf in leaves]
    n = len(parts[0])
    order = list(range(n - 1, -1, -1)) if reverse else list(range(n))
    outs, acc = [None] * n, None
    for i in order:
        cur = tf.nest.pack_sequence_as(elems, [p[i] for p in parts])
        acc = cur if acc is None else (f(cur, acc) if reverse else f(acc, cur))
        outs[i] = acc
    stacked = [tf.stack(col, axis=axis) for col in zip(*(tf.nest.flatten(o) for o in outs))]
    return tf.nest.pack_sequence_as(elems, stacked)


@keras_ops_export()
def switch(index, branches, *operands):
    """`branches[index](*operands)`, with `index` clamped into range (as `tf.switch_case`).

    >>> ops.switch(1, [lambda x: x + 1, lambda x: x * 10], tf.constant(2))
    <tf.Tensor: shape=(), dtype=int32, numpy=20>
    """
    index = convert(index, "int32")
    index = tf.clip_by_value(index, 0, len(branches) - 1)
    return tf.switch_case(index, [lambda b=b: b(*operands) for b in branches])


@keras_ops_export()
def map(f, xs):
    """`f` applied to each slice of `xs` along its first axis, results stacked.

    >>> ops.map(lambda x: x * x, tf.constant([1, 2, 3]))
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 4, 9], dtype=int32)>
    """
    return tf.map_fn(f, xs)


@keras_ops_export()
def vectorized_map(function, elements):
    """`function` on each slice along axis 0, stacked (TF vectorizes it; minitf maps).

    >>> ops.vectorized_map(lambda x: ops.sum(x), tf.ones((2, 3)))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 3.], dtype=float32)>
    """
    return tf.map_fn(function, elements)


@keras_ops_export()
def slice(inputs, start_indices, shape):
    """The block of size `shape` starting at `start_indices` (`tf.slice`).

    >>> ops.slice(tf.reshape(tf.range(6), (2, 3)), (0, 1), (2, 2))
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 2],
           [4, 5]], dtype=int32)>
    """
    return tf.slice(inputs, start_indices, shape)


@keras_ops_export()
def slice_update(inputs, start_indices, updates):
    """`inputs` with the block at `start_indices` replaced by `updates`.

    >>> ops.slice_update(tf.zeros(4), (1,), tf.ones(2))
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([0., 1., 1., 0.], dtype=float32)>
    """
    inputs, updates = convert(inputs), convert(updates)
    begin = [int(s) for s in start_indices]
    end = [b + d for b, d in zip(begin, updates.shape.as_list())]
    return tf.tensor_strided_slice_update(inputs, begin, end, [1] * len(begin), updates)


@keras_ops_export()
def scatter(indices, values, shape):
    """A zeros tensor of `shape` with `values` added at `indices` (`tf.scatter_nd`).

    >>> ops.scatter([[1], [3]], [5.0, 7.0], (4,))
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([0., 5., 0., 7.], dtype=float32)>
    """
    return tf.scatter_nd(indices, values, shape)


@keras_ops_export()
def scatter_update(inputs, indices, updates):
    """`inputs` with the entries at `indices` set to `updates`.

    >>> ops.scatter_update(tf.zeros(3), [[0], [2]], [1.0, 2.0])
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 0., 2.], dtype=float32)>
    """
    return tf.tensor_scatter_nd_update(inputs, indices, updates)


@keras_ops_export()
def unstack(x, num=None, axis=0):
    """The slices of `x` along `axis`, as a list.

    >>> [t.numpy() for t in ops.unstack(tf.constant([[1, 2], [3, 4]]))]
    [array([1, 2], dtype=int32), array([3, 4], dtype=int32)]
    """
    return tf.unstack(x, num=num, axis=axis)
