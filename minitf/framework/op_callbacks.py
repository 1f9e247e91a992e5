"""Op callbacks: functions `apply` calls after every op, eager or traced.

TensorFlow's debugging tools watch ops this way (tensorflow/python/framework/
op_callbacks.py): `tf.debugging.enable_check_numerics` adds a callback that
looks at each op's outputs for Inf and NaN. A callback is called as

    callback(op_type, inputs, attrs, outputs, op_name=None, graph=None)

after an eager op has run (`outputs` are its result tensors, `graph` is None),
and after a traced op was added to a `tf.function`'s graph (`outputs` are
symbolic, `graph` is the graph being built: a callback may add nodes to it).
Like TF's, callbacks belong to the thread that adds them.

While none is registered, plain eager code never looks: adding one bumps
`context.active`, the single test `apply`'s fast path makes.

>>> import minitf as tf
>>> from minitf.framework import op_callbacks
>>> seen = []
>>> watch = lambda op_type, inputs, attrs, outputs, op_name=None, graph=None: \\
...     seen.append(op_type)
>>> op_callbacks.add_op_callback(watch)
>>> _ = tf.constant(2.0) * 3.0
>>> op_callbacks.remove_op_callback(watch)
>>> seen
['Mul']
"""
from . import context


def add_op_callback(callback):
    """Call `callback` after every op this thread runs or traces from now on."""
    if not callable(callback):
        raise ValueError(f"Callback function passed to op_callback() is expected to be "
                         f"callable, but got {callback!r} of type {type(callback)}.")
    context._state.op_callbacks.append(callback)
    context._adjust(1)


def remove_op_callback(callback):
    """Stop calling `callback`; KeyError if it was not added in this thread (as TF)."""
    callbacks = context._state.op_callbacks
    if callback not in callbacks:
        raise KeyError("The specified op callback has not been registered, and hence "
                       "cannot be removed.")
    callbacks.remove(callback)
    context._adjust(-1)


def should_invoke_op_callbacks():
    """Whether this thread has op callbacks."""
    return bool(context._state.op_callbacks)


def invoke(op, inputs, attrs, outputs, graph=None):
    """Call this thread's callbacks for one op (`apply` does, only when there are any)."""
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    op_name = None
    if graph is not None and outputs:  # the node's name and its (symbolic) inputs
        op_name, inputs = outputs[0].node.name, outputs[0].node.inputs
    for callback in list(context._state.op_callbacks):
        callback(op.name, tuple(inputs), attrs or {}, outputs, op_name=op_name, graph=graph)
