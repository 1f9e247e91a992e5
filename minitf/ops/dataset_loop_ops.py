"""`ReduceDataset`: a loop over a tf.data Dataset that runs when the graph runs.

AutoGraph turns `for x in dataset:` inside a `tf.function` into this one
node (TensorFlow lowers it to `dataset.reduce`, whose kernel is
`ReduceDataset`). The loop body is traced once into a sub-graph `f` taking
(the element's tensors, the loop variables, captured outer tensors) and
returning the new loop variables. Each time the graph runs, the node starts
a fresh pass over the dataset and runs `f` once per element: a shuffled
dataset gives a new order on every call, a generator new elements.

With `break` the body also returns "keep going"; the node stops pulling
elements as soon as it is False (so `break` works on an infinite dataset).
The node is stateful (it reads a dataset), so graph optimizations never
fold or drop it, and it has no gradient, as in TensorFlow. A dataset built
inside the function holds symbolic tensors; they are the node's last inputs,
bound to their values while the loop runs (minitf/data/graph_inputs.py).
"""
import numpy as np

from ..framework import nest
from ..framework.op import Op
from . import control_flow_ops as cf


def _reduce_dataset_forward(*inputs, dataset, f, _n_vars, _keep_going, _n_bound=0, **_):
    """Run `f` on each element of a fresh pass over `dataset`, carrying the state."""
    from ..data import graph_inputs  # tf.data is built on the engine: import late
    bound = list(inputs[len(inputs) - _n_bound:])  # the pipeline's symbolic tensors' values
    inputs = inputs[:len(inputs) - _n_bound]
    state, captures = list(inputs[:_n_vars]), list(inputs[_n_vars:])
    keep_going = True
    if _keep_going:  # the first input after the state is the test on the initial state
        keep_going, captures = bool(captures[0]), captures[1:]
    keys = [id(t) for t in graph_inputs.symbolic_inputs(dataset)] if _n_bound else []
    with graph_inputs.bound(dict(zip(keys, bound))):
        return _run_loop(dataset, f, state, captures, keep_going, _n_vars, _keep_going)


def _run_loop(dataset, f, state, captures, keep_going, _n_vars, _keep_going):
    elements = dataset._iterate()
    try:
        while keep_going:
            try:
                element = next(elements)
            except StopIteration:
                break
            leaves = [np.asarray(t._value) for t in nest.flatten(element)]
            outputs = cf.run_graph(f, leaves + state + captures)
            state = outputs[:_n_vars]
            if _keep_going:
                keep_going = bool(outputs[_n_vars])
    finally:
        elements.close()
    return tuple(state)


ReduceDataset = Op("ReduceDataset", _reduce_dataset_forward, typed=(), num_outputs=None,
                   stateful=True, shape=cf.from_attr("_shapes"), dtype=cf.from_attr("_dtypes"))
