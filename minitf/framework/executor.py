"""Running a traced graph: a lean loop over NumPy arrays.

`compile_graph` turns a graph's node list into a flat plan of steps
`(forward, input slots, attrs, output slots)`; `run` fills a list of slots
with the argument arrays and executes the steps in order, letting go of each
intermediate array right after its last reader. No Tensor objects,
no dtype checks, no tape: all of that happened once, while tracing. That is
why a `tf.function` runs faster than the same code in eager mode.

Buffers are reused where safe. A graph runs again and again with the same
shapes, so when the executor lets go of a big intermediate array that nobody
else holds (no output, variable or view refers to it or to its memory), it
keeps the array as a spare for the node that made it; on the next run that
node's kernel writes its result there (`out=`, for ops with `accepts_out`)
instead of asking the system for fresh memory, which for a big array means
page faults and cold caches. Eager mode cannot do this: every result it makes
belongs to the caller. (TensorFlow's runtime plans memory for the same reason.)

>>> import minitf as tf
>>> f = tf.function(lambda x: x * 2.0)
>>> concrete = f.get_concrete_function(tf.TensorSpec([], tf.float32))
>>> run(compile_graph(concrete.graph), [np.float32(3.0)])
[array(6., dtype=float32)]
"""
import sys

import numpy as np

from . import context, device, errors
from .graph import Const, Placeholder
from .op import explain_failure, out_of_memory, quiet, restore
from .tensor import DEFAULT_DEVICE, EagerTensor


class Plan:
    """A graph ready to run: slot numbers for every tensor and a list of steps."""

    __slots__ = ("graph", "steps", "template", "input_slots", "output_slots", "spares")

    def __init__(self, graph, steps, template, input_slots, output_slots):
        self.graph, self.steps, self.template = graph, steps, template
        self.input_slots, self.output_slots = input_slots, output_slots
        self.spares = {}  # slot -> an array of an earlier run its node may write into


def compile_graph(graph, outputs=None):
    """Number every tensor, pre-fill constants, and list the steps in graph order."""
    outputs = graph.outputs if outputs is None else outputs
    slot = {}
    template = []
    for node in graph.nodes:
        for t in node.outputs:
            slot[id(t)] = len(template)
            template.append(node.attrs["value"] if node.op is Const else None)
    computed = [node for node in graph.nodes if node.op is not Const and node.op is not Placeholder]
    # The step after which each intermediate result is read no more: the executor drops
    # it there, so its memory goes back to NumPy for the next results (a smaller working
    # set). Graph outputs, inputs and constants are kept.
    last_read, kept = {}, {slot[id(t)] for t in outputs}
    for i, node in enumerate(computed):
        for t in node.inputs:
            if t.node.op is not Const and t.node.op is not Placeholder:
                last_read[slot[id(t)]] = i
    drops = [[] for _ in computed]
    for index, i in last_read.items():
        if index not in kept:
            drops[i].append(index)
    into = {slot[id(node.outputs[0])] for node in computed
            if node.op.accepts_out and node.op.num_outputs == 1}
    steps = []
    for node, drop in zip(computed, drops):
        ins = tuple(slot[id(t)] for t in node.inputs)
        outs = tuple(slot[id(t)] for t in node.outputs)
        single = outs[0] if node.op.num_outputs == 1 else None
        steps.append((node.op.forward, ins, node.attrs, single, outs, node,
                      tuple(i for i in drop if i not in into), single in into,
                      tuple(i for i in drop if i in into)))
    return Plan(graph, steps, template, [slot[id(t)] for t in graph.inputs],
                [slot[id(t)] for t in outputs])


def run(plan, arrays):
    """Execute `plan` on NumPy `arrays` (one per graph input); returns the output arrays."""
    values = list(plan.template)
    for index, array in zip(plan.input_slots, arrays):
        values[index] = array
    spares = plan.spares
    if context.default_device is not None:  # tf.debugging.set_log_device_placement(True)
        log_placement(plan.graph)
    token = quiet()  # no NumPy floating-point warnings from kernels, as in op.apply
    try:
        for forward, ins, attrs, single, outs, node, drop, into, recycle in plan.steps:
            try:
                if into:
                    result = forward(*[values[i] for i in ins], out=spares.pop(single, None),
                                     **attrs)
                else:
                    result = forward(*[values[i] for i in ins], **attrs)
            except (errors.OpError, ValueError, IndexError, TypeError, ArithmeticError,
                    np.linalg.LinAlgError) as exc:
                raise _located(node, [values[i] for i in ins], exc) from None
            except MemoryError as exc:
                error = out_of_memory(node.op, [t.dtype for t in node.inputs], node.attrs, exc)
                raise _located(node, [], error) from None
            if node.op.saves:
                result = result[0]
            if single is not None:
                values[single] = result
            else:
                for i, r in zip(outs, result):
                    values[i] = r
            if drop:
                for i in drop:
                    values[i] = None
            if recycle:
                for i in recycle:
                    array, values[i] = values[i], None
                    if _unshared(array):
                        spares[i] = array
    finally:
        restore(token)
    return [np.asarray(values[i]) for i in plan.output_slots]


def log_placement(graph):
    """Print where each node of a graph run is placed, in TF's format. Placement is
    recorded, not enforced: every node runs on the one CPU (framework/device.py)."""
    for node in graph.nodes:
        if node.op is not Placeholder:
            name = device.resolve(device.parse(node.device)) if node.device else DEFAULT_DEVICE
            print(f"{node.name}: ({node.op.name}): {name}")


SMALL = 1 << 16  # bytes: smaller arrays come cheaply from NumPy's and malloc's free lists


def _references(array):
    """How many references `array`, and the array owning its memory, have right now
    (the counts include those of this call; `_ALONE` says what "no other" looks like)."""
    base = array.base
    return sys.getrefcount(array), None if base is None else sys.getrefcount(base)


def _calibrate():
    array = np.empty(2)[:1]  # a view whose memory only it holds, named once by the caller
    return _references(array)


_ALONE = _calibrate()  # (references differ between Python versions: measured, not assumed)


def _unshared(array):
    """True when only the caller's name refers to `array` and to the memory it views,
    so overwriting it in a later run cannot change anything anybody can see."""
    if type(array) is not np.ndarray or array.nbytes < SMALL:
        return False
    mine, owner = _references(array)
    if mine > _ALONE[0] + 1:  # (+1: this function's own parameter)
        return False
    return owner is None or (type(array.base) is np.ndarray and array.base.base is None
                             and owner <= _ALONE[1])


def evaluate(tensor):
    """The value of a symbolic tensor that depends on no graph input (e.g. tf.random
    inside a traced function, used as a variable's initial value)."""
    needed, stack = set(), [tensor.node]
    while stack:
        node = stack.pop()
        if id(node) in needed:
            continue
        if node.op is Placeholder:
            raise ValueError(
                f"The initial value of a variable created inside tf.function ({tensor.name}) "
                "depends on the function's inputs; TF lifts initial values out of the graph, "
                "so compute it from constants, or create the variable outside.")
        needed.add(id(node))
        stack.extend(t.node for t in node.inputs)
    graph = tensor.graph
    plan = compile_graph(graph, [tensor])
    plan.steps = [step for step in plan.steps if id(step[5]) in needed]
    return EagerTensor(run(plan, [])[0])


def _located(node, arrays, exc):
    """The op's TF error, plus where in the user's code the failing op was traced."""
    if getattr(exc, "located", False):  # raised inside a sub-graph (control flow): keep
        return exc                      # the innermost location
    error = exc if isinstance(exc, errors.OpError) else explain_failure(
        node.op, [EagerTensor(np.asarray(a)) for a in arrays], node.attrs, exc)
    where = f" (traced at {node.source})" if node.source else ""
    located = type(error)(None, node.op.name, f"{error.message}{where}")
    located.located = True
    return located
