"""`tf.debugging.enable_check_numerics`: fail at the first op that makes an Inf or a NaN.

Once enabled, every op's floating-point outputs are checked as it runs. The
first op whose result holds an Inf or NaN raises InvalidArgumentError, naming
the op, the output, how many bad values of each kind it holds, and the inputs
that produced them - so you learn *where* a NaN was born, not just that the
loss became one:

>>> import minitf as tf
>>> tf.debugging.enable_check_numerics()
>>> try:
...     tf.math.log(tf.constant([1.0, 0.0]))
... except tf.errors.InvalidArgumentError as e:
...     print(e)
<BLANKLINE>
<BLANKLINE>
!!! Detected Infinity or NaN in output 0 of eagerly-executing op "Log" (# of outputs: 1) !!!
  dtype: <dtype: 'float32'>
  shape: (2,)
  # of -Inf elements: 1
<BLANKLINE>
  Input tensor: tf.Tensor([1. 0.], shape=(2,), dtype=float32)
<BLANKLINE>
<BLANKLINE>
 : Tensor had -Inf values [Op:CheckNumericsV2]
>>> tf.debugging.disable_check_numerics()

Inside a `tf.function` the check is traced into the graph: each op gets a
CheckNumericsV2 node after it (stateful, so graph optimizations keep it), and
its message, written while tracing, names the graph and the stack of calls
that created the op, your lines marked "->". As in TF, a graph keeps what it
was traced with: functions traced before enabling stay unchecked, and those
traced while it was on keep their checks after `disable_check_numerics()`.

How it hooks in: an op callback (framework/op_callbacks.py), as in TensorFlow
(tensorflow/python/debug/lib/check_numerics_callback.py). Off, it costs
nothing: plain eager ops never look for callbacks.
"""
import threading
import traceback

import numpy as np

from ..framework import dtypes, errors, op_callbacks
from ..framework.op import Op, apply
from ..framework.tf_export import tf_export
from ..framework.traceback_utils import include_frame
from .shape_rules import same_shape

# TF's lists: ops whose outputs are never checked (control flow, identities) or only
# move values around (a bad value there was already reported where it was made).
SKIP_OPS = frozenset({"CheckNumericsV2", "Enter", "Exit", "Identity", "If", "LoopCond",
                      "Merge", "NextIteration", "StatelessIf", "StatefulPartitionedCall",
                      "Switch", "While", "RemoteCall", "DestroyResourceOp"})
SAFE_OPS = frozenset({"Concat", "ConcatV2", "ExpandDims", "Fill", "Gather", "Maximum",
                      "Minimum", "Reshape", "Slice", "Squeeze", "Stack", "StridedSlice",
                      "StridedSliceGrad", "TensorListConcatV2", "TensorListGather",
                      "TensorListGetItem", "TensorListPopBack", "TensorListStack",
                      "Transpose", "Unpack"})
# Batch-norm statistics of an empty batch are NaN by design.
IGNORE_OP_OUTPUTS = frozenset({(f"FusedBatchNorm{v}", i) for v in ("", "V2", "V3")
                               for i in (1, 2, 3, 4)} | {("FusedBatchNormV3", 5)})

_state = threading.local()


def bad_values(x):
    """TF's words for the kinds of non-finite values in `x`: "-Inf", "+Inf and NaN", ...

    >>> bad_values(np.array([-np.inf, 1.0, np.nan]))
    '-Inf and NaN'
    """
    kinds = [name for name, found in (("-Inf", np.isneginf(x).any()),
                                      ("+Inf", np.isposinf(x).any()),
                                      ("NaN", np.isnan(x).any())) if found]
    if len(kinds) == 3:
        return "-Inf, +Inf, and NaN"
    return " and ".join(kinds)


def _check_numerics_v2_forward(x, message):
    if not np.isfinite(x).all():
        raise errors.op_error(errors.InvalidArgumentError, "CheckNumericsV2",
                              f"{message} : Tensor had {bad_values(x)} values")
    return x


# Traced after each checked op of a tf.function; its output is not used, so it must
# be stateful to be run (and kept by the graph optimizations).
CheckNumericsV2 = Op("CheckNumericsV2", _check_numerics_v2_forward, dtypes=dtypes.FLOATING,
                     stateful=True, shape=same_shape)


def limit_string_length(string, max_len=50):
    """`string`, or its last `max_len` characters after "..." (TF's path shortening).

    >>> limit_string_length("/home/me/projects/model/train.py", 12)
    '...el/train.py'
    """
    if max_len is None or len(string) <= max_len:
        return string
    return "..." + string[len(string) - max_len:]


def error_message(slot, num_outputs, op_type, tensor, inputs, graph=None, stack=None,
                  stack_height_limit=30, path_length_limit=50):
    """TF's report of a bad output: op, dtype, shape, counts (eager) or creation stack
    (graph), and the inputs."""
    where = "graph" if graph is not None else "eagerly-executing"
    lines = ["", "", f'!!! Detected Infinity or NaN in output {slot} of {where} op "{op_type}" '
                     f"(# of outputs: {num_outputs}) !!!",
             f"  dtype: {tensor.dtype}", f"  shape: {tensor.shape}"]
    if graph is None:
        value = tensor._value
        for kind, count in (("-Inf", np.isneginf(value).sum()),
                            ("+Inf", np.isposinf(value).sum()), ("+NaN", np.isnan(value).sum())):
            if count:
                lines.append(f"  # of {kind} elements: {count}")
    lines.append("")
    if len(inputs) > 1:
        lines.append(f"  Input tensors ({len(inputs)}):")
        lines += [f"         {i}: {t!s}" for i, t in enumerate(inputs)]
    elif len(inputs) == 1:
        lines.append(f"  Input tensor: {inputs[0]!s}")
    if graph is not None and getattr(graph, "name", None):
        lines.append(f'  Graph name: "{graph.name}"')
    if graph is not None and stack:
        lines += ["", "  Stack trace of op's creation (\"->\": inferred user code):"]
        if stack_height_limit is not None and len(stack) > stack_height_limit:
            lines.append(f"    + ... (Omitted {len(stack) - stack_height_limit} frames)")
            stack = stack[-stack_height_limit:]
        for frame in stack:
            mark = " -> " if include_frame(frame.filename) else "    "
            lines.append(f"    + {limit_string_length(frame.filename, path_length_limit)} "
                         f"(L{frame.lineno}) {frame.name}")
            lines.append(f"{mark}|   {frame.line or ''}")
    return "\n".join(lines) + "\n\n"


def _creation_stack():
    """The calls that led to the op being traced, up to minitf's `apply`."""
    stack = traceback.extract_stack()
    for i in range(len(stack) - 1, -1, -1):
        if stack[i].name == "apply" and stack[i].filename.endswith("op.py"):
            return stack[:i + 1]
    return stack


class CheckNumericsCallback:
    """The op callback: checks eager results at once, adds checks to traced graphs."""

    def __init__(self, stack_height_limit, path_length_limit):
        self.limits = dict(stack_height_limit=stack_height_limit,
                           path_length_limit=path_length_limit)

    def callback(self, op_type, inputs, attrs, outputs, op_name=None, graph=None):
        if op_type in SKIP_OPS or op_type in SAFE_OPS:
            return
        stack = _creation_stack() if graph is not None else None
        for slot, output in enumerate(outputs):
            if not output.dtype.is_floating or (op_type, slot) in IGNORE_OP_OUTPUTS:
                continue
            if graph is not None:
                message = error_message(slot, len(outputs), op_type, output, inputs, graph,
                                        stack, **self.limits)
                apply(CheckNumericsV2, [output], {"message": message})
            elif not np.isfinite(output._value).all():
                message = error_message(slot, len(outputs), op_type, output, inputs,
                                        **self.limits)
                _check_numerics_v2_forward(output._value, message)


@tf_export("debugging.enable_check_numerics")
def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """From now on, in this thread, fail at the first op whose float output holds an Inf
    or NaN (eager ops as they run; `tf.function`s traced from now on, as they run).

    `stack_height_limit` and `path_length_limit` shorten the creation stack that the
    message of a traced op shows. Calling it twice is the same as once.

    >>> tf.debugging.enable_check_numerics()
    >>> tf.constant(1.0) / 4.0
    <tf.Tensor: shape=(), dtype=float32, numpy=0.25>
    >>> tf.debugging.disable_check_numerics()
    """
    if not hasattr(_state, "check_numerics_callback"):
        _state.check_numerics_callback = CheckNumericsCallback(
            stack_height_limit, path_length_limit)
        op_callbacks.add_op_callback(_state.check_numerics_callback.callback)


@tf_export("debugging.disable_check_numerics")
def disable_check_numerics():
    """Stop checking (idempotent; does nothing if checking was never enabled).

    >>> tf.debugging.disable_check_numerics()
    >>> tf.math.log(tf.constant(0.0))
    <tf.Tensor: shape=(), dtype=float32, numpy=-inf>
    """
    callback = getattr(_state, "check_numerics_callback", None)
    if callback is not None:
        op_callbacks.remove_op_callback(callback.callback)
        del _state.check_numerics_callback
