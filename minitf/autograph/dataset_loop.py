"""`for x in dataset:` inside `tf.function`: a loop that runs in the graph.

Unrolling the loop while tracing would bake the elements into the graph as
constants - the same order every call, even for a shuffled dataset. As in
TensorFlow (which lowers the loop to `dataset.reduce`), the loop body is
traced once into a sub-graph and one `ReduceDataset` node runs it for every
element each time the function runs, carrying the loop variables:

>>> ds = tf.data.Dataset.range(5)
>>> @tf.function
... def total(ds):
...     s = tf.constant(0, tf.int64)
...     for x in ds:
...         s += x
...     return s
>>> total(ds)
<tf.Tensor: shape=(), dtype=int64, numpy=10>
>>> print(total.get_concrete_function(ds).graph)
graph total() {
  %0 = ReduceDataset[f=dataset_loop_body](0)
  return %0
}
  graph dataset_loop_body(x: int64[], s: int64[]) {
    %0 = AddV2(s, x)
    return %0
  }

Like every TF loop, a loop variable must keep its dtype from one iteration
to the next. `break` works: the body also computes whether to go on, and
the node stops pulling elements when it is False.

A dataset built inside the function from the function's tensors (say
`from_tensor_slices(x)` of an argument `x`) holds symbolic tensors: they
become extra inputs of the node, bound to their values each time it runs
(see minitf/data/graph_inputs.py).
"""
from ..framework import context, nest
from ..framework.function import TensorSpec
from ..framework.op import apply
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..ops import control_flow_ops as cf
from ..ops.dataset_loop_ops import ReduceDataset


def is_dataset(value):
    from ..data.dataset_ops import Dataset  # tf.data is built on the engine: import late
    return isinstance(value, Dataset)


def runs_in_graph(dataset):
    """Whether the loop can be a ReduceDataset node: plain tensor elements."""
    specs = nest.flatten(dataset.element_spec)
    return all(type(s) is TensorSpec for s in specs)


def dataset_for_stmt(dataset, extra_test, body, get_state, set_state, symbol_names, opts):
    """AutoGraph's `for_stmt` over a Dataset while tracing (TF's `_tf_dataset_for_stmt`)."""
    from . import control_flow as ag_cf  # imported late: control_flow imports this module

    init_vars = tuple(get_state())
    if not init_vars:  # a loop for its effects only: a dummy loop variable, as TF adds
        def dummy_body(element):
            body(element)
        return dataset_for_stmt(dataset, extra_test, dummy_body, lambda: (0,),
                                lambda values: None, ("<dummy>",), opts)
    element_spec = dataset.element_spec

    def probe_body():  # for _define_undefined: one iteration on stand-in elements
        graph = context.graph_stack[-1]
        body(nest.map_structure(lambda s: graph.placeholder(s.shape, s.dtype, "probe"),
                                element_spec))

    init_vars, invariants = ag_cf._define_undefined(probe_body, get_state, set_state,
                                                    init_vars, symbol_names, opts)
    init_vars = tuple(ag_cf._as_tensor_leaves(v) for v in init_vars)
    flat_init = [cf.local(t) for t in cf.flatten(init_vars)]
    for name, leaf in zip(symbol_names, flat_init):
        if not isinstance(leaf, Tensor):
            raise TypeError(f"'{name}' must be a {ag_cf.LEGAL_LOOP_TYPES} to be a loop "
                             f"variable of a loop over a dataset; got {type(leaf).__name__}")
    shapes = _loop_shapes(init_vars, invariants)

    def loop_body(element, *loop_vars):
        set_state(loop_vars)
        body(element)
        new_vars = tuple(get_state())
        ag_cf.verify_tf_loop_vars(init_vars, loop_vars, new_vars, symbol_names, invariants)
        outputs = tuple(ag_cf._as_tensor_leaves(v) for v in new_vars)
        if extra_test is not None:
            outputs += (ag_cf.verify_condition(extra_test(), "for loop"),)
        return outputs

    parent = context.graph_stack[-1]
    specs = ([(s.shape, s.dtype) for s in nest.flatten(element_spec)]
             + [(shape, t.dtype) for shape, t in zip(shapes, flat_init)])
    names = _element_names(element_spec) + _state_names(symbol_names, init_vars)
    template = [element_spec] + list(cf.pack(init_vars, flat_init))
    f, _ = cf.trace_function(loop_body, parent._unique("dataset_loop_body"), template, specs,
                             names)
    inputs = list(flat_init)
    if extra_test is not None:  # the test on the state before the first element
        set_state(init_vars)
        inputs.append(ag_cf.verify_condition(extra_test(), "for loop"))
    inputs += [outer for outer, _ in f.captures]
    from ..data.graph_inputs import symbolic_inputs  # the data package builds on the engine
    bound = symbolic_inputs(dataset)  # the pipeline's own symbolic tensors, bound at run time
    inputs += bound
    attrs = {"dataset": dataset, "f": f, "_n_vars": len(flat_init), "_n_bound": len(bound),
             "_keep_going": extra_test is not None, "_shapes": tuple(shapes),
             "_dtypes": tuple(t.dtype for t in flat_init)}
    outputs = apply(ReduceDataset, inputs, attrs) if flat_init else ()
    set_state(tuple(cf.pack(init_vars, list(outputs))))


def _loop_shapes(init_vars, invariants):
    shapes = []
    for value, invariant in zip(init_vars, invariants):
        for leaf in cf.flatten(value):
            shapes.append(leaf.shape if invariant is None else TensorShape(invariant))
    return shapes


def _element_names(element_spec):
    leaves = nest.flatten(element_spec)
    return ["x" if len(leaves) == 1 else f"x_{i}" for i in range(len(leaves))]


def _state_names(symbol_names, init_vars):
    names = []
    for name, value in zip(symbol_names, init_vars):
        leaves = cf.flatten(value)
        names += [name if len(leaves) == 1 else f"{name}_{i}" for i in range(len(leaves))]
    return names
