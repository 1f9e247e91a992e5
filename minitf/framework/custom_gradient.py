"""`@tf.custom_gradient`: a function that supplies its own gradient.

The decorated function returns `(y, grad_fn)`; the tape does not look
inside it, and on the way back calls `grad_fn(dy)` instead. If the function
reads trainable variables, `grad_fn(dy, variables=...)` must return
`(input_grads, variable_grads)`, as in TensorFlow.

>>> import minitf as tf
>>> @tf.custom_gradient
... def clip_gradient(x):
...     def grad(dy):
...         return tf.clip_by_value(dy, -0.5, 0.5)
...     return tf.identity(x), grad
>>> x = tf.constant(3.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = clip_gradient(x) * 10.0
>>> tape.gradient(y, x)
<tf.Tensor: shape=(), dtype=float32, numpy=0.5>
"""
import functools

from . import context, nest
from .op import Op, record
from .tape import GradientTape
from .tensor import EagerTensor, Tensor, convert_to_tensor

CustomGradient = Op("CustomGradient", None)


@CustomGradient.def_grad
def _custom_gradient_grad(op, *dys):
    grad_fn, variables = op.attrs["grad_fn"], op.attrs["variables"]
    dys = dys[0] if len(dys) == 1 else list(dys)
    if variables:
        input_grads, variable_grads = grad_fn(dys, variables=list(variables))
    else:
        input_grads, variable_grads = grad_fn(dys), []
    input_grads = list(input_grads) if isinstance(input_grads, (list, tuple)) else [input_grads]
    if len(input_grads) != op.attrs["num_args"]:
        raise ValueError(
            f"custom_gradient function expected to return {op.attrs['num_args']} gradients, but "
            f"returned {len(input_grads)} instead: one gradient per positional input.")
    return input_grads + list(variable_grads)


def custom_gradient(f=None):
    """Decorator: `f(*x)` returns `(y, grad_fn)`; gradients use `grad_fn` (see module doc)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        args = [a if isinstance(a, Tensor) else convert_to_tensor(a) for a in args]
        outer = list(context.tape_stack)
        watcher = GradientTape(persistent=True)  # only to see which variables f reads
        context.tape_stack[:] = []
        try:
            with watcher:
                result, grad_fn = f(*args, **kwargs)
            # Fresh output tensors, so an output is never the very object of an input
            # (inside tf.function: an Identity node, made while no tape records).
            flat = [_fresh(t) for t in nest.flatten(result)]
        finally:
            context.tape_stack[:] = outer
        variables = watcher.watched_variables()
        if variables and "variables" not in _parameters(grad_fn):
            raise TypeError(
                "If using @custom_gradient with a function that uses variables, then grad_fn "
                "must accept a keyword argument 'variables'.")
        for v in variables:
            v._read()  # lets outer tapes watch the variables f used
        record(CustomGradient, list(args) + list(variables), flat,
               {"grad_fn": grad_fn, "variables": variables, "num_args": len(args)})
        return nest.pack_sequence_as(result, flat)

    return decorated


def _fresh(t):
    if isinstance(t, EagerTensor):
        return EagerTensor(t._value, t._dtype)
    from ..ops.creation_ops import identity  # noqa: PLC0415 - ops import the framework

    return identity(t)


def _parameters(fn):
    import inspect

    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}
