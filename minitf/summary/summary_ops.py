"""`tf.summary.scalar`, `histogram`, `text`, `image`, `audio` and `write`.

Each summary is one stateful op, `WriteSummary`, like `tf.print`: inside a
`tf.function` it becomes a node of the graph and writes on every call, not
just while tracing. When the op runs it asks for the default writer, the
step and the `record_if` condition, then turns the data into the tensor its
TensorBoard plugin reads (`plugin_data.py`) and appends one event.

>>> import tempfile
>>> writer = tf.summary.create_file_writer(tempfile.mkdtemp())
>>> @tf.function
... def train_step(x):
...     loss = x * x
...     tf.summary.scalar("loss", loss)
...     return loss
>>> with writer.as_default(step=1):
...     train_step(tf.constant(3.0))
<tf.Tensor: shape=(), dtype=float32, numpy=9.0>

Without a default writer a summary writes nothing and returns False.

Where minitf differs from TensorFlow: TF captures the default writer when it
traces a function (a function traced under one writer keeps writing there);
minitf reads the writer, the default step and `record_if` each time the op
runs. TF makes graph tags unique (`loss`, `loss_1`) when one name is used twice
in one traced function; minitf keeps the name.
"""
import numpy as np

from ..framework import context, dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import plugin_data
from .protos import tensorboard
from .summary_writer import _state, get_step, recording_writer

_NO_STEP = ("No step set. Please specify one either through the `step` argument or "
            "through tf.summary.experimental.set_step()")


def _step_value(step):
    """The int64 step of `step` (a number, tensor or Variable) at the time of writing."""
    if isinstance(step, Tensor) or hasattr(step, "_is_variable"):
        step = step.numpy()
    return int(np.asarray(step).reshape(()))


def _write_forward(data, *step, tag, metadata, encode, dtype):
    writer = recording_writer()
    if writer is None:
        return np.bool_(False)
    if step:
        step_value = step[0]
    else:
        step_value = get_step()
        if step_value is None:
            raise errors.InvalidArgumentError(
                None, None, _NO_STEP + " - the summary ran with no step.")
    writer.write_summary(tag, encode(data) if encode else np.asarray(data), dtype,
                         _step_value(step_value), metadata)
    return np.bool_(True)


WriteSummary = Op("WriteSummary", _write_forward, typed=(), stateful=True,
                  shape=lambda *shapes, **attrs: TensorShape([]), dtype=dtypes.bool)


def write_summary(tag, data, step, metadata, encode=None, dtype=None):
    """Add the WriteSummary op: `data` becomes the plugin's tensor via `encode` when it runs.

    metadata: a `SummaryMetadata` proto; dtype: the dtype of the written tensor
    (default: `data`'s). Returns a boolean tensor: was anything written?
    """
    if context.executing_eagerly() and recording_writer() is None:
        return convert_to_tensor(False)  # TF's shortcut: no writer, no work
    if step is None and get_step() is None and _state.writer is not None:
        raise ValueError(_NO_STEP + ". Give `step=` (e.g. the epoch) or wrap the code in "
                         "`with writer.as_default(step=...)`.")
    inputs = [data] if step is None else [data, _as_step_tensor(step)]
    return apply(WriteSummary, inputs, {
        "tag": context.current_name_scope() + tag, "metadata": metadata.SerializeToString(),
        "encode": encode, "dtype": dtype or data.dtype})


def _as_step_tensor(step):
    if isinstance(step, Tensor):
        return step
    if hasattr(step, "_is_variable"):
        return step.read_value()
    return convert_to_tensor(np.int64(step))


def _metadata(plugin, description, **kwargs):
    return tensorboard(f"plugins.{plugin}.metadata").create_summary_metadata(
        display_name=None, description=description, **kwargs)


@tf_export("summary.write")
def write(tag, tensor, step=None, metadata=None, name=None):
    """Write `tensor` under `tag` as it is (the general op the others are built on).

    metadata: a `SummaryMetadata` proto or its serialized bytes (None: no plugin).
    """
    summary_pb2 = tensorboard("compat.proto.summary_pb2")
    if not isinstance(metadata, summary_pb2.SummaryMetadata):
        metadata = summary_pb2.SummaryMetadata.FromString(metadata or b"")
    return write_summary(tag, convert_to_tensor(tensor), step, metadata)


@tf_export("summary.scalar")
def scalar(name, data, step=None, description=None):
    """Write a scalar (cast to float32) for the `scalars` plugin: one point of a curve."""
    from ..ops.math_ops import cast
    data = convert_to_tensor(data)
    if data.shape.rank is not None and data.shape.rank != 0:
        raise ValueError(f"Expected scalar shape, saw shape: {_shape_text(data.shape)}. "
                         "A scalar summary is one number per step: reduce the tensor first "
                         "(e.g. tf.reduce_mean).")
    return write_summary(name, cast(data, dtypes.float32), step,
                         _metadata("scalar", description))


@tf_export("summary.histogram")
def histogram(name, data, step=None, buckets=None, description=None):
    """Write the distribution of `data` for the `histograms` plugin: a float64 `[k, 3]`
    tensor of `[left_edge, right_edge, count]` rows (k = `buckets`, default 30)."""
    from ..ops.math_ops import cast
    data = cast(convert_to_tensor(data), dtypes.float64)
    count = plugin_data.DEFAULT_BUCKET_COUNT if buckets is None else int(buckets)
    return write_summary(name, data, step, _metadata("histogram", description),
                         encode=lambda array: plugin_data.histogram_buckets(array, count))


@tf_export("summary.text")
def text(name, data, step=None, description=None):
    """Write a string tensor (Markdown) for the `text` plugin."""
    data = convert_to_tensor(data)
    if data.dtype is not dtypes.string:
        raise TypeError(f"tensor must be of type tf.string; got tf.{data.dtype.name}. "
                        "Format numbers as text first, e.g. tf.strings.as_string or an f-string.")
    return write_summary(name, data, step, _metadata("text", description))


@tf_export("summary.image")
def image(name, data, step=None, max_outputs=3, description=None):
    """Write up to `max_outputs` images `[k, h, w, c]` (floats in [0, 1] or uint8) as PNG
    files for the `images` plugin. PNGs are encoded with Pillow: the pixels equal TF's,
    the compressed bytes may differ."""
    data = convert_to_tensor(data)
    _check_rank(data, 4)
    return write_summary(name, data, step, _metadata("image", description),
                         encode=lambda a: plugin_data.image_strings(a, int(max_outputs)),
                         dtype=dtypes.string)


@tf_export("summary.audio")
def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """Write up to `max_outputs` clips `[k, t, c]` (floats in [-1, 1]) as 16-bit WAV files
    for the `audio` plugin."""
    if encoding is None:
        encoding = "wav"
    if encoding != "wav":
        raise ValueError(f"Unknown encoding: {encoding!r}. Only 'wav' is supported.")
    data = convert_to_tensor(data)
    _check_rank(data, 3)
    meta = tensorboard("plugins.audio.metadata")
    rate = int(sample_rate.numpy() if isinstance(sample_rate, Tensor) else sample_rate)
    return write_summary(
        name, data, step, _metadata("audio", description, encoding=meta.Encoding.Value("WAV")),
        encode=lambda a: plugin_data.audio_strings(a, rate, int(max_outputs)),
        dtype=dtypes.string)


def _check_rank(data, rank):
    if data.shape.rank is not None and data.shape.rank != rank:
        raise ValueError(
            f"Tensor  must have rank {rank}.  Received rank {data.shape.rank}, shape "
            f"{_shape_text(data.shape)}. Images are [k, height, width, channels] and audio "
            "clips [k, frames, channels]: add the batch axis k even for one item.")


def _shape_text(shape):
    return str(tuple(shape.as_list()))
