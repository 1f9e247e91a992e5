"""tf.summary writes real TensorBoard event files: read back here with TensorBoard's own
EventAccumulator (no TensorFlow needed)."""
import io
import os
import re
import socket
import wave

import numpy as np
import pytest
from summary_reader import read_logdir

import minitf as tf
from minitf.summary import plugin_data


def only_file(logdir):
    names = os.listdir(logdir)
    assert len(names) == 1, names
    return os.path.join(logdir, names[0])


def events(path):
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
    return list(EventFileLoader(path).Load())


def test_file_name_and_first_event_are_tensorflows(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    path = only_file(tmp_path)
    match = re.fullmatch(r"events\.out\.tfevents\.(\d{10})\.(.+)\.(\d+)\.(\d+)\.v2",
                         os.path.basename(path))
    assert match and match.group(2) == socket.gethostname()
    assert int(match.group(3)) == os.getpid()
    first = events(path)[0]
    assert first.file_version == "brain.Event:2"
    assert first.wall_time == int(match.group(1))  # whole seconds, as TF writes it
    writer.close()
    again = tf.summary.create_file_writer(str(tmp_path))
    numbers = sorted(int(n.split(".")[-2]) for n in os.listdir(tmp_path))
    assert numbers[1] > numbers[0]  # a second writer gets a new file, never the same one
    again.close()


def test_scalars_read_back_with_steps_and_metadata(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        for step in range(3):
            assert tf.summary.scalar("loss", 1.0 / (step + 1), step=step,
                                     description="the loss").numpy()
        with tf.name_scope("outer"):
            tf.summary.scalar("count", tf.constant(4), step=7)  # an int32: written as float32
    read = read_logdir(str(tmp_path))
    assert [e["step"] for e in read["loss"]] == [0, 1, 2]
    assert [e["value"] for e in read["loss"]] == [1.0, 0.5, float(np.float32(1 / 3))]
    assert {e["plugin"] for e in read["loss"]} == {"scalars"}
    assert read["outer/count"] == [{"step": 7, "plugin": "scalars", "dtype": 1, "shape": [],
                                    "value": 4.0}]
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    accumulator = EventAccumulator(str(tmp_path))
    accumulator.Reload()
    assert accumulator.summary_metadata["loss"].summary_description == "the loss"


def test_histogram_buckets_follow_tensorboards_rule():
    buckets = plugin_data.histogram_buckets(np.array([0.0, 1.0, 1.0, 3.0]), 3)
    np.testing.assert_array_equal(buckets, [[0, 1, 1], [1, 2, 2], [2, 3, 1]])
    data = np.random.RandomState(0).randn(1000)
    default = plugin_data.histogram_buckets(data)
    assert default.shape == (30, 3) and default[:, 2].sum() == 1000
    assert default[0, 0] == data.min() and default[-1, 1] == data.max()
    single = plugin_data.histogram_buckets(np.full(5, 2.5), 4)
    np.testing.assert_array_equal(single, [[2.5, 2.5, 0]] * 3 + [[2.5, 2.5, 5]])
    np.testing.assert_array_equal(plugin_data.histogram_buckets(np.zeros(0), 4), np.zeros((4, 3)))
    assert plugin_data.histogram_buckets(data, 0).shape == (0, 3)


def test_histogram_text_image_audio_read_back(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    images = np.random.RandomState(1).rand(4, 2, 3, 3).astype(np.float32)
    clip = np.linspace(-1.5, 1.5, 20, dtype=np.float32).reshape(1, 10, 2)
    with writer.as_default(step=2):
        tf.summary.histogram("weights", tf.constant([0.0, 1.0, 1.0, 3.0]), buckets=3)
        tf.summary.text("note", tf.constant(["*a*", "b"]))
        tf.summary.image("pictures", images, max_outputs=2)
        tf.summary.audio("sound", clip, sample_rate=8000)
    read = read_logdir(str(tmp_path))
    assert read["weights"][0]["value"] == [[0, 1, 1], [1, 2, 2], [2, 3, 1]]
    assert (read["weights"][0]["plugin"], read["weights"][0]["dtype"]) == ("histograms", 2)
    assert read["note"][0]["value"] == ["*a*", "b"] and read["note"][0]["plugin"] == "text"
    picture = read["pictures"][0]
    assert picture["plugin"] == "images" and picture["shape"] == [4]  # width, height, 2 PNGs
    assert picture["value"]["size"] == [3, 2]
    expected = np.clip(images[:2].astype(np.float64) * 255.5, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(picture["value"]["pixels"], expected)
    sound = read["sound"][0]
    assert sound["plugin"] == "audio" and sound["shape"] == [1, 2]
    (decoded,) = sound["value"]
    assert (decoded["rate"], decoded["channels"], decoded["label"]) == (8000, 2, "")
    expected = np.clip(np.round(clip.reshape(-1).astype(np.float64) * 32768), -32768, 32767)
    np.testing.assert_array_equal(decoded["samples"], expected)


def test_png_modes_follow_the_channel_count():
    from PIL import Image
    for channels, mode in [(1, "L"), (2, "LA"), (3, "RGB"), (4, "RGBA")]:
        pixels = np.arange(2 * 3 * channels, dtype=np.uint8).reshape(2, 3, channels)
        decoded = Image.open(io.BytesIO(plugin_data.png_bytes(pixels)))
        assert decoded.mode == mode
        np.testing.assert_array_equal(np.asarray(decoded).reshape(2, 3, channels), pixels)


def test_wav_is_16_bit_pcm():
    data = plugin_data.wav_bytes(np.array([[0.5], [-1.0]], np.float32), 16000)
    with wave.open(io.BytesIO(data)) as clip:
        assert (clip.getsampwidth(), clip.getframerate(), clip.getnframes()) == (2, 16000, 2)
        assert np.frombuffer(clip.readframes(2), "<i2").tolist() == [16384, -32768]


def test_integer_images_are_rescaled_like_convert_image_dtype():
    pixels = plugin_data.to_uint8_pixels(np.array([-5, 0, 2 ** 23, 2 ** 31 - 1], np.int32))
    assert pixels.tolist() == [0, 0, 1, 255]
    assert plugin_data.to_uint8_pixels(np.array([0, 127], np.int8)).tolist() == [0, 254]


def test_nothing_is_written_without_a_writer_or_when_record_if_says_no(tmp_path):
    assert not tf.summary.scalar("x", 1.0, step=0).numpy()
    with tf.summary.create_noop_writer().as_default(step=0):
        assert not tf.summary.scalar("x", 1.0).numpy()
        assert not tf.summary.should_record_summaries().numpy()
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=0):
        assert tf.summary.should_record_summaries().numpy()
        with tf.summary.record_if(False):
            assert not tf.summary.scalar("off", 1.0).numpy()
        with tf.summary.record_if(lambda: False):
            assert not tf.summary.should_record_summaries().numpy()
        with tf.summary.record_if(tf.constant(True)):
            assert tf.summary.scalar("on", 1.0).numpy()
    assert set(read_logdir(str(tmp_path))) == {"on"}


def test_default_step_is_read_when_the_summary_is_written(tmp_path):
    step = tf.Variable(0, dtype=tf.int64)
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.experimental.set_step(step)
    try:
        assert tf.summary.experimental.get_step() is step
        with writer.as_default():
            for _ in range(3):
                tf.summary.scalar("x", 1.0)
                step.assign_add(5)
    finally:
        tf.summary.experimental.set_step(None)
    assert [e["step"] for e in read_logdir(str(tmp_path))["x"]] == [0, 5, 10]


def test_as_default_restores_the_previous_writer_and_step_and_flushes(tmp_path):
    outer = tf.summary.create_file_writer(str(tmp_path / "outer"), max_queue=1000)
    inner = tf.summary.create_file_writer(str(tmp_path / "inner"), max_queue=1000)
    with outer.as_default(step=1):
        with inner.as_default(step=2):
            tf.summary.scalar("a", 1.0)
            assert "a" not in read_logdir(str(tmp_path / "inner"))  # still buffered
        assert read_logdir(str(tmp_path / "inner"))["a"][0]["step"] == 2  # flushed on exit
        assert tf.summary.experimental.get_step() == 1
        tf.summary.scalar("b", 1.0)
    assert tf.summary.experimental.get_step() is None
    assert read_logdir(str(tmp_path / "outer"))["b"][0]["step"] == 1


def test_flush_and_max_queue(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), max_queue=2)
    writer.set_as_default(step=0)
    try:
        tf.summary.scalar("a", 1.0)
        assert "a" not in read_logdir(str(tmp_path))
        tf.summary.scalar("b", 1.0)  # the second pending event flushes the queue
        assert {"a", "b"} <= set(read_logdir(str(tmp_path)))
        tf.summary.scalar("c", 1.0)
        tf.summary.flush()
        assert "c" in read_logdir(str(tmp_path))
    finally:
        writer.close()
        tf.summary.create_noop_writer().set_as_default()
        from minitf.summary.summary_writer import _state
        _state.writer, _state.step = None, None


def test_summaries_inside_tf_function_write_on_every_call(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    recording = tf.Variable(True)

    @tf.function
    def step_fn(x, step):
        loss = x * x
        tf.summary.scalar("loss", loss, step=step)
        tf.summary.histogram("x", tf.fill([3], x), step=step, buckets=2)
        return loss

    with writer.as_default(), tf.summary.record_if(lambda: recording.numpy()):
        for i in range(3):
            recording.assign(i != 1)
            step_fn(tf.constant(float(i)), tf.constant(i, tf.int64))
    assert step_fn.experimental_get_tracing_count() == 1
    read = read_logdir(str(tmp_path))
    assert [(e["step"], e["value"]) for e in read["loss"]] == [(0, 0.0), (2, 4.0)]
    assert read["x"][1]["value"] == [[2, 2, 0], [2, 2, 3]]
    step_fn(tf.constant(1.0), tf.constant(9, tf.int64))  # no default writer: nothing written
    assert [e["step"] for e in read_logdir(str(tmp_path))["loss"]] == [0, 2]


def test_bad_input_gets_tensorflows_errors(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("x", 1.0)
        with pytest.raises(ValueError, match=r"Expected scalar shape, saw shape: \(2,\)"):
            tf.summary.scalar("x", [1.0, 2.0], step=0)
        with pytest.raises(ValueError, match=r"must have rank 4.  Received rank 3"):
            tf.summary.image("x", np.zeros((2, 2, 3)), step=0)
        with pytest.raises(tf.errors.InvalidArgumentError, match="1, 2, 3, or 4 channels, got 5"):
            tf.summary.image("x", np.zeros((1, 2, 2, 5), np.float32), step=0)
        with pytest.raises(ValueError, match=r"must have rank 3.  Received rank 2"):
            tf.summary.audio("x", np.zeros((1, 2), np.float32), 8000, step=0)
        with pytest.raises(TypeError, match="tensor must be of type tf.string; got tf.int32"):
            tf.summary.text("x", 1, step=0)
    writer.close()
    with pytest.raises(RuntimeError, match="is already closed"):
        with writer.as_default():
            pass


def test_import_needs_no_tensorboard_and_writing_says_how_to_install(tmp_path):
    import subprocess
    import sys
    code = ("import sys; sys.modules['tensorboard'] = None\n"
            "import minitf as tf\n"
            "assert 'tensorboard' not in [m.split('.')[0] for m in sys.modules if sys.modules[m]]\n"
            "try:\n"
            f"    tf.summary.create_file_writer({str(tmp_path)!r})\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=os.path.dirname(os.path.dirname(tf.__path__[0])))
    assert done.returncode == 0, done.stderr
    assert "pip install 'tensorboard>=2.16'" in done.stdout


def test_write_takes_any_tensor_and_metadata(tmp_path):
    from tensorboard.compat.proto import summary_pb2
    metadata = summary_pb2.SummaryMetadata(
        plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="custom"))
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=4):
        assert tf.summary.write("raw", tf.constant([[1, 2], [3, 4]]), metadata=metadata).numpy()
        assert tf.summary.write("bytes_meta", 2.5, metadata=metadata.SerializeToString()).numpy()
    read = read_logdir(str(tmp_path))
    assert read["raw"] == [{"step": 4, "plugin": "custom", "dtype": 3, "shape": [2, 2],
                            "value": [[1, 2], [3, 4]]}]
    assert read["bytes_meta"][0]["value"] == 2.5 and read["bytes_meta"][0]["dtype"] == 1


def test_flush_step_and_recording_are_read_at_run_time_inside_tf_function(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), max_queue=1000)
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def log(x):
        tf.summary.scalar("x", x)
        tf.summary.flush()
        return tf.summary.should_record_summaries()

    tf.summary.experimental.set_step(step)
    try:
        with writer.as_default():
            assert log(tf.constant(1.0)).numpy()
            assert read_logdir(str(tmp_path))["x"][0]["step"] == 0  # flushed by the graph
            step.assign(7)
            with tf.summary.record_if(False):
                assert not log(tf.constant(2.0)).numpy()
            log(tf.constant(3.0))
    finally:
        tf.summary.experimental.set_step(None)
    assert not log(tf.constant(4.0)).numpy()  # no default writer now
    assert log.experimental_get_tracing_count() == 1
    assert [(e["step"], e["value"]) for e in read_logdir(str(tmp_path))["x"]] == [(0, 1.0),
                                                                                  (7, 3.0)]
