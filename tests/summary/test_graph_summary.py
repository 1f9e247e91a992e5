"""tf.summary.graph and trace_on/trace_export write GraphDefs TensorBoard's graph plugin reads."""
import numpy as np
import pytest
from summary_reader import read_logdir

import minitf as tf
from minitf.summary.graph_summary import graph_def


def traced_graphs(logdir, tag):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from tensorboard.compat.proto import config_pb2
    accumulator = EventAccumulator(logdir, size_guidance={"tensors": 0})
    accumulator.Reload()
    (event,) = accumulator.Tensors(tag)
    assert accumulator.summary_metadata[tag].plugin_data.plugin_name == \
        "graph_run_metadata_graph"
    run_metadata = config_pb2.RunMetadata.FromString(event.tensor_proto.string_val[0])
    return event.step, [g.pre_optimization_graph for g in run_metadata.function_graphs]


def test_graph_def_has_names_types_inputs_and_shapes():
    @tf.function
    def f(x, w):
        return tf.nn.relu(tf.matmul(x, w) + 1.0)

    graph = f.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([3, 2])).graph
    nodes = {n.name: n for n in graph_def(graph).node}
    assert [n.type for n in graph.get_operations()] == [n.op for n in graph_def(graph).node]
    matmul = next(n for n in nodes.values() if n.op == "MatMul")
    assert list(matmul.input) == ["x", "w"]
    assert [d.size for d in matmul.attr["_output_shapes"].list.shape[0].dim] == [-1, 2]
    assert matmul.attr["T"].type == 1  # DT_FLOAT
    assert nodes["x"].attr["dtype"].type == 1
    const = next(n for n in nodes.values() if n.op == "Const")
    assert const.attr["value"].tensor.tensor_content == np.float32(1.0).tobytes()


def test_summary_graph_is_read_by_event_accumulator(tmp_path):
    graph = tf.function(lambda x: x * 2.0).get_concrete_function(
        tf.TensorSpec([2], tf.float32)).graph
    assert not tf.summary.graph(graph).numpy()  # no default writer
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert tf.summary.graph(graph).numpy()
    read = read_logdir(str(tmp_path))
    assert read["graph"] == [
        {"op": "Placeholder", "input_count": 0, "output_shapes": [[2]]},
        {"op": "Const", "input_count": 0, "output_shapes": [[]]},
        {"op": "Mul", "input_count": 2, "output_shapes": [[2]]}]


def test_trace_export_writes_the_graphs_traced_while_tracing(tmp_path):
    @tf.function
    def before(x):
        return x + 1.0

    @tf.function
    def during(x):
        return tf.reduce_sum(x * x)

    before(tf.constant(1.0))
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True)
    before(tf.constant(2.0))  # traced earlier: not collected again (as in TF)
    during(tf.ones([4]))
    with writer.as_default():
        tf.summary.trace_export("my_trace", step=3)
    step, graphs = traced_graphs(str(tmp_path), "my_trace")
    assert step == 3 and len(graphs) == 1
    assert [n.op for n in graphs[0].node] == ["Placeholder", "Mul", "Sum"]
    with pytest.raises(ValueError, match="Must enable trace before export"):
        tf.summary.trace_export("again", step=4)  # trace_export turned tracing off


def test_trace_off_discards_and_errors_are_clear():
    tf.summary.trace_on()
    tf.function(lambda: tf.constant(1.0))()
    tf.summary.trace_off()
    with pytest.raises(ValueError, match="Must enable trace before export"):
        tf.summary.trace_export("x", step=0)
    with pytest.raises(tf.errors.UnimplementedError, match="minitf has no profiler"):
        tf.summary.trace_on(profiler=True)
    with pytest.raises(TypeError, match="must be a tf.Graph or a GraphDef"):
        from minitf.summary.graph_summary import _as_graph_def
        _as_graph_def(42)
