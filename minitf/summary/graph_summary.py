"""`tf.summary.graph` and `trace_on` / `trace_export`: traced graphs for TensorBoard.

TensorBoard's Graphs tab draws a `GraphDef`: one `NodeDef` per op, with its
name, op type, inputs (`"node"` or `"node:1"`) and attributes, among them
`_output_shapes`, which the drawing shows on the edges. `graph_def` builds
one from a minitf graph, node by node:

>>> f = tf.function(lambda x: x * 2.0)
>>> graph = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
>>> [(n.name, n.op, list(n.input)) for n in graph_def(graph).node]
[('x', 'Placeholder', []), ('Const', 'Const', []), ('Mul', 'Mul', ['x', 'Const'])]

`trace_on()` collects the graph of every `tf.function` traced until
`trace_export(name, step)` writes them, as TF 2.21 does: a function traced
before `trace_on` is not collected again when it is called.

Where minitf differs: node names are minitf's (`Mul`, `AddV2_1`; TF names
nodes in lower case, `mul`), branches and loop bodies (`If`/`While` subgraphs)
are drawn as one node each, and TF's Const `value` attribute is written only
for constants of up to 100 elements.
"""
import time

import numpy as np

from ..framework import context, function
from ..framework.tf_export import tf_export
from .protos import dtype_enum, shape_proto, tensor_proto, tensorboard
from .summary_ops import write_summary
from .summary_writer import recording_writer

_CONST_VALUE_LIMIT = 100


def graph_def(graph):
    """A minitf `Graph` as a TensorBoard `GraphDef` protocol buffer."""
    graph_pb2 = tensorboard("compat.proto.graph_pb2")
    result = graph_pb2.GraphDef()
    for node in graph.nodes:
        result.node.append(_node_def(node))
    return result


def _node_def(node):
    node_def_pb2 = tensorboard("compat.proto.node_def_pb2")
    attr_value_pb2 = tensorboard("compat.proto.attr_value_pb2")
    proto = node_def_pb2.NodeDef(name=node.name, op=node.type,
                                 input=[_input_name(t) for t in node.inputs])
    attr = proto.attr
    attr["_output_shapes"].list.shape.extend(shape_proto(t.shape) for t in node.outputs)
    if node.outputs:
        kind = "dtype" if node.type in ("Placeholder", "Const") else "T"
        attr[kind].type = dtype_enum(node.outputs[0].dtype)
    if node.type == "Placeholder":
        attr["shape"].shape.CopyFrom(shape_proto(node.outputs[0].shape))
    value = node.attrs.get("value")
    if node.type == "Const" and np.size(value) <= _CONST_VALUE_LIMIT:
        attr["value"].tensor.CopyFrom(tensor_proto(np.asarray(value), node.outputs[0].dtype))
    for key, item in node.attrs.items():  # simple attributes TensorBoard can list
        if key in attr or key == "value":
            continue
        if isinstance(item, bool):
            attr[key].CopyFrom(attr_value_pb2.AttrValue(b=item))
        elif isinstance(item, (int, np.integer)):
            attr[key].CopyFrom(attr_value_pb2.AttrValue(i=int(item)))
        elif isinstance(item, (float, np.floating)):
            attr[key].CopyFrom(attr_value_pb2.AttrValue(f=float(item)))
        elif isinstance(item, str):
            attr[key].CopyFrom(attr_value_pb2.AttrValue(s=item.encode()))
    return proto


def _input_name(tensor):
    return tensor.node.name if tensor.index == 0 else f"{tensor.node.name}:{tensor.index}"


def _as_graph_def(graph_data):
    graph_pb2 = tensorboard("compat.proto.graph_pb2")
    if isinstance(graph_data, graph_pb2.GraphDef):
        return graph_data
    graph = getattr(graph_data, "graph", graph_data)  # a ConcreteFunction or a Graph
    if not hasattr(graph, "nodes"):
        raise TypeError(f"graph_data must be a tf.Graph or a GraphDef, got {graph_data!r}. "
                        "Pass f.get_concrete_function(...).graph for a tf.function f.")
    return graph_def(graph)


@tf_export("summary.graph")
def graph(graph_data):
    """Write a graph (a minitf `Graph`, a ConcreteFunction or a `GraphDef`) to the
    default writer; TensorBoard's Graphs tab shows it. Eager only, as in TF."""
    from ..framework.tensor import convert_to_tensor
    if not context.executing_eagerly():
        raise ValueError("graph() cannot be invoked inside a graph context. Call "
                         "tf.summary.graph outside the tf.function.")
    writer = recording_writer()
    if writer is None:
        return convert_to_tensor(False)
    event_pb2 = tensorboard("compat.proto.event_pb2")
    writer.write_event(event_pb2.Event(
        wall_time=time.time(), step=0, graph_def=_as_graph_def(graph_data).SerializeToString()))
    return convert_to_tensor(True)


class _Trace:
    """The graphs traced since `trace_on`, or None when tracing is off."""

    graphs = None

    @classmethod
    def observe(cls, concrete):
        if cls.graphs is not None:
            cls.graphs.append(concrete.graph)


@tf_export("summary.trace_on")
def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Start collecting the graphs of the `tf.function`s traced from now on.

    minitf has no profiler: `profiler=True` raises an UnimplementedError.
    """
    from ..framework import errors
    if profiler:
        raise errors.UnimplementedError(
            None, None, "minitf has no profiler: trace_on(profiler=True) is TensorFlow's "
            "device profiler. Time Python code with cProfile instead (lesson 16).")
    if not context.executing_eagerly():
        raise ValueError("Must enable trace in eager mode. Call tf.summary.trace_on "
                         "outside the tf.function.")
    _Trace.graphs = [] if graph else None
    if _Trace.observe not in function.trace_observers:
        function.trace_observers.append(_Trace.observe)


@tf_export("summary.trace_off")
def trace_off():
    """Stop collecting graphs and forget the ones collected."""
    _Trace.graphs = None
    if _Trace.observe in function.trace_observers:
        function.trace_observers.remove(_Trace.observe)


@tf_export("summary.trace_export")
def trace_export(name, step=None, profiler_outdir=None):
    """Write the collected graphs under tag `name` and stop tracing.

    The summary is TF's: a string tensor holding a `RunMetadata` whose
    `function_graphs` each carry one traced graph (`pre_optimization_graph`),
    with plugin name `graph_run_metadata_graph`.
    """
    if _Trace.graphs is None:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    config_pb2 = tensorboard("compat.proto.config_pb2")
    run_metadata = config_pb2.RunMetadata()
    for traced in _Trace.graphs:
        run_metadata.function_graphs.add().pre_optimization_graph.CopyFrom(graph_def(traced))
    trace_off()
    if recording_writer() is None:
        return None
    from ..framework.tensor import convert_to_tensor
    summary_pb2 = tensorboard("compat.proto.summary_pb2")
    metadata = summary_pb2.SummaryMetadata(plugin_data=summary_pb2.SummaryMetadata.PluginData(
        plugin_name=tensorboard("plugins.graph.metadata").PLUGIN_NAME_RUN_METADATA_WITH_GRAPH,
        content=b"1"))
    write_summary(name, convert_to_tensor(np.array(run_metadata.SerializeToString(),
                                                   dtype=object)), step, metadata)
    return None
