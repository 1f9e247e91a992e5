"""Read a log directory back with real TensorBoard's EventAccumulator, into plain data.

The same source runs in the test process (on minitf's files) and, as text, in
real TensorFlow's environment (on TF's files), so both sides are read alike.
"""
READER = r'''
import io, os, wave
import numpy as np
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from tensorboard.util import tensor_util


def _decoded(plugin, array):
    if plugin == "images":
        from PIL import Image
        return {"size": [int(array[0]), int(array[1])],
                "pixels": [np.asarray(Image.open(io.BytesIO(png))).tolist() for png in array[2:]]}
    if plugin == "audio":
        clips = []
        for wav, label in array:
            with wave.open(io.BytesIO(wav)) as clip:
                frames = np.frombuffer(clip.readframes(clip.getnframes()), "<i2")
                clips.append({"rate": clip.getframerate(), "channels": clip.getnchannels(),
                              "samples": frames.tolist(), "label": label.decode()})
        return clips
    if array.dtype == object:
        return np.vectorize(lambda b: b.decode())(array).tolist() if array.size else []
    return array.tolist()


def read_logdir(logdir):
    """{tag: [{"step", "plugin", "dtype", "shape", "value"}, ...]} plus "graph" node list."""
    accumulator = EventAccumulator(logdir, size_guidance={"tensors": 0})
    accumulator.Reload()
    result = {}
    for tag in accumulator.Tags()["tensors"]:
        plugin = accumulator.summary_metadata[tag].plugin_data.plugin_name
        if plugin == "graph_run_metadata_graph":  # trace_export's graphs: read separately
            continue
        result[tag] = [{"step": event.step, "plugin": plugin,
                        "dtype": int(event.tensor_proto.dtype),
                        "shape": list(tensor_util.make_ndarray(event.tensor_proto).shape),
                        "value": _decoded(plugin, tensor_util.make_ndarray(event.tensor_proto))}
                       for event in accumulator.Tensors(tag)]
    if accumulator.Tags()["graph"]:
        result["graph"] = [{"op": node.op, "input_count": len(node.input),
                            "output_shapes": [[d.size for d in s.dim]
                                              for s in node.attr["_output_shapes"].list.shape]}
                           for node in accumulator.Graph().node]
    return result
'''

namespace = {}
exec(READER, namespace)  # noqa: S102 - our own source text, shared with the TF side
read_logdir = namespace["read_logdir"]
