"""tf.vectorized_map: apply a function to each slice of a batch and stack the results.

>>> import minitf as tf
>>> tf.vectorized_map(lambda row: tf.reduce_sum(row * row), tf.constant([[1.0, 2.0], [3.0, 4.]]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 5., 25.], dtype=float32)>

In TensorFlow, vectorized_map rewrites `fn` once into batched ops ("pfor": a matmul of
one example becomes a batched matmul), which is what makes it fast. minitf calls `fn` once
per slice and stacks the results, as tf.map_fn does: the same numbers, shapes and
structure, without the speed. Elements whose first axis is 1 are broadcast to the
batch, as in TF.
"""
from ..framework import nest
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import stack
from .shape_ops import shape as tf_shape


def _batch_size(flat):
    sizes = set()
    for t in flat:
        if t.shape.rank == 0:
            raise IndexError("list index out of range (vectorized_map slices elems along "
                             "their first axis; a scalar has none: give it a batch axis)")
        sizes.add(t.shape[0])
    sizes.discard(1)
    if len(sizes) > 1:
        if None in sizes:
            return None
        raise ValueError(f"Incompatible batch sizes {sorted(sizes)}: every element of elems "
                         "needs the same first axis (or 1, which is broadcast).")
    return sizes.pop() if sizes else 1


def _leaf(value):
    return convert_to_tensor(value)


def _graph_loop(fn, elems, flat):
    """A tf.while_loop over the batch, writing each step's outputs into TensorArrays."""
    from .tensor_array import TensorArray  # noqa: PLC0415
    from .while_ops import while_loop  # noqa: PLC0415

    sized = next(t for t in flat if t.shape[0] != 1)
    n = tf_shape(sized)[0]

    def step(i):
        return nest.map_structure(_leaf, fn(nest.pack_sequence_as(
            elems, [t[0] if t.shape[0] == 1 else t[i] for t in flat])))

    probe = nest.flatten(step(0))  # learns the outputs' dtypes (unused nodes are pruned)
    arrays = [TensorArray(t.dtype, size=n, element_shape=t.shape) for t in probe]

    def body(i, *arrays):
        outs = nest.flatten(step(i))
        return (i + 1,) + tuple(a.write(i, o) for a, o in zip(arrays, outs))

    result = while_loop(lambda i, *_: i < n, body, (0,) + tuple(arrays))
    structure = step(0)
    return nest.pack_sequence_as(structure, [a.stack() for a in result[1:]])


@tf_export("vectorized_map")
def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`fn(elems[i])` for each i along the first axis, stacked: outputs keep `fn`'s
    structure (tuples, dicts) with a batch axis in front.

    >>> pairs = (tf.constant([[1.0], [2.0]]), tf.constant([10.0]))   # [10.0] is broadcast
    >>> [t.numpy().tolist() for t in tf.vectorized_map(lambda e: (e[0] + e[1], e[1]), pairs)]
    [[[11.0], [12.0]], [10.0, 10.0]]
    """
    flat = [convert_to_tensor(t) for t in nest.flatten(elems)]
    n = _batch_size(flat)
    if n is None:  # the batch is only known when the graph runs: a loop in the graph
        return _graph_loop(fn, elems, flat)
    outputs = []
    for i in range(n):
        item = [t[0] if t.shape[0] == 1 else t[i] for t in flat]
        outputs.append(nest.map_structure(_leaf, fn(nest.pack_sequence_as(elems, item))))
    if n == 0:
        raise ValueError("vectorized_map needs at least one element to learn fn's outputs.")
    stacked = [stack(list(parts)) for parts in zip(*[nest.flatten(o) for o in outputs])]
    return nest.pack_sequence_as(outputs[0], stacked)
