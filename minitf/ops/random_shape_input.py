"""Random ops whose `shape` is known only when the graph runs.

Inside a `tf.function` traced with `input_signature=[tf.TensorSpec([None, 3])]`,
`tf.random.uniform(tf.shape(x))` has a shape tensor without a value yet. As in TF,
the traced node then takes the shape as an input (minitf appends it after the op's
other inputs), and its static output shape is what constant folding can tell:
`tf.shape(x)` of a [None, 3] tensor gives TensorShape([None, 3])
(`shape_ops.constant_value_as_shape`, TF's rule). When the graph runs, the node
calls the op's own forward with the shape it received, so the numbers are the
eager ones for the same seeds and kernel.

>>> @tf.function(input_signature=[tf.TensorSpec([None, 3])])
... def noise(x):
...     return tf.random.stateless_uniform(tf.shape(x), seed=[1, 2])
>>> noise.get_concrete_function().structured_outputs.shape
TensorShape([None, 3])
>>> bool(tf.reduce_all(noise(tf.ones([2, 3])) ==
...                    tf.random.stateless_uniform([2, 3], seed=[1, 2])))
True
"""
from ..framework import dtypes
from ..framework.graph import SymbolicTensor
from ..framework.op import Op, apply
from .shape_ops import constant_value, constant_value_as_shape, pack_shape
from .shape_rules import check_sizes


def symbolic_shape(op_name, shape):
    """`shape` as an int vector tensor if only the running graph knows its value, else
    None (then the caller reads it as a tuple of ints, as in eager code). A shape whose
    value constant folding finds comes back as that value, so the graph keeps the
    op with a static shape attribute."""
    if isinstance(shape, SymbolicTensor):
        tensor = shape
    elif type(shape) in (list, tuple) and any(isinstance(d, SymbolicTensor) for d in shape):
        tensor = pack_shape(shape)
    else:
        return None
    # While tracing, TF checks the node's input at graph construction: a TypeError and a
    # ValueError (not the InvalidArgumentError an eager kernel raises).
    if tensor.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Value passed to parameter 'shape' has DataType {tensor.dtype.name} "
                        "not in list of allowed values: int32, int64. A shape lists whole "
                        "numbers of elements: tf.shape(x) is int32 already.")
    if tensor.shape.rank is not None and tensor.shape.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {tensor.shape.rank} for "
                         f"'{{{{node {op_name}}}}}' (op: '{op_name}'): its shape input lists "
                         "one size per axis, a vector such as tf.shape(x).")
    value = constant_value(tensor)
    if value is not None:
        return tuple(check_sizes(op_name, [int(d) for d in value.reshape(-1)]))
    return tensor


_variants = {}


def with_shape_input(op, num_inputs):
    """The op `op` taking its `shape` as one more (last) input: same name, forward,
    shape rule, dtype rule, statefulness and gradient (None for the shape)."""
    variant = _variants.get((op, num_inputs))
    if variant is not None:
        return variant

    def forward(*args, shape, **attrs):
        dims = tuple(check_sizes(op.name, [int(d) for d in args[-1]]))
        return op.forward(*args[:-1], shape=dims, **attrs)

    rule = op.dtype
    if callable(rule) and not isinstance(rule, dtypes.DType):
        rule = (lambda original: lambda *in_dtypes, **attrs: original(*in_dtypes[:-1], **attrs))(
            op.dtype)
    typed = op.typed if op.typed is not None else tuple(range(num_inputs))
    variant = Op(op.name, forward, dtypes=op.dtypes, typed=typed, dtype=rule,
                 shape=lambda *shapes, **attrs: op.shape(*shapes[:-1], **attrs),
                 num_outputs=op.num_outputs, stateful=op.stateful)
    if op.grad is not None:
        @variant.def_grad
        def _grad(node, *dys):
            grads = op.grad(node, *dys)
            return (*(grads if isinstance(grads, (tuple, list)) else (grads,)), None)
    _variants[(op, num_inputs)] = variant
    return variant


def apply_random(op, inputs, attrs):
    """`apply(op, inputs, attrs)`, where attrs["shape"] is a tuple of ints, or an int
    vector tensor known only when the graph runs (`symbolic_shape`)."""
    dims = attrs["shape"]
    if type(dims) is tuple:
        return apply(op, inputs, attrs)
    static = {**attrs, "shape": constant_value_as_shape(dims)}
    return apply(with_shape_input(op, len(inputs)), [*inputs, dims], static)


def num_elements(dims):
    """The number of values a draw of shape `dims` makes: an int, or an int64 scalar
    tensor when `dims` is a shape tensor."""
    if type(dims) is tuple:
        size = 1
        for d in dims:
            size *= d
        return size
    from .math_ops import cast
    from .reduction_ops import reduce_prod

    return reduce_prod(cast(dims, dtypes.int64))
