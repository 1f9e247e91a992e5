"""The TensorBoard package, imported only when a summary is written or read.

minitf writes real TensorBoard event files through the `tensorboard`
package's own protocol buffers (`tensorboard.compat.proto`: `Event`,
`Summary`, `TensorProto`, `GraphDef`, `RunMetadata`) and its TFRecord
`RecordWriter` (length, masked CRC32C, data, masked CRC32C). Those are the
very classes TensorFlow itself uses through TensorBoard, and they work
without TensorFlow installed. (tensorboardX would be a second, independent
implementation of the same files; the `tensorboard` package is the reader
the files are for, so writing with its own protos cannot drift from it.)
`import minitf` never needs them.

>>> event_pb2 = tensorboard("compat.proto.event_pb2")
>>> event_pb2.Event(file_version="brain.Event:2").file_version
'brain.Event:2'
"""
import importlib

import numpy as np

INSTALL_HINT = ("TensorBoard is not installed, so minitf cannot write or read summaries. "
                "Install it with: pip install 'tensorboard>=2.16' (or pip install "
                "'minitf[lab]', which includes it).")


def tensorboard(module):
    """`tensorboard.<module>`, or an ImportError that says how to install TensorBoard.

    In TensorFlow the same situation raises `TBNotInstalledError` ("TensorBoard
    is not installed, missing implementation for tf.summary.scalar"); minitf
    raises a plain ImportError with the install command.
    """
    try:
        return importlib.import_module(f"tensorboard.{module}")
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc


def dtype_enum(dtype):
    """TF's DataType number (DT_FLOAT = 1, ...) of a minitf DType, for the protos."""
    return dtype.as_datatype_enum


def tensor_proto(array, dtype):
    """A NumPy array as a `TensorProto`, laid out as TensorFlow writes it: numbers as
    little-endian `tensor_content` bytes, strings as `string_val` entries."""
    tensor_pb2 = tensorboard("compat.proto.tensor_pb2")
    proto = tensor_pb2.TensorProto(dtype=dtype_enum(dtype), tensor_shape=shape_proto(array.shape))
    if dtype.name == "string":
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode("utf-8")
                                for v in array.reshape(-1))
    else:
        little_endian = np.dtype(dtype.as_numpy_dtype).newbyteorder("<")
        proto.tensor_content = np.ascontiguousarray(array, dtype=little_endian).tobytes()
    return proto


def shape_proto(shape):
    """A shape (tuple, TensorShape, None dims allowed) as a `TensorShapeProto`."""
    tensor_shape_pb2 = tensorboard("compat.proto.tensor_shape_pb2")
    dims = getattr(shape, "dims", shape)
    if dims is None:
        return tensor_shape_pb2.TensorShapeProto(unknown_rank=True)
    return tensor_shape_pb2.TensorShapeProto(dim=[
        tensor_shape_pb2.TensorShapeProto.Dim(size=-1 if d is None else int(d)) for d in dims])

