"""The TensorBoard reader returns the curves the summaries wrote, and plots one panel per tag."""
import numpy as np
import pytest

import minitf as tf
from widgets.tensorboard_reader import find_runs, panels, plot_scalars, read_scalars


def test_reads_what_the_keras_callback_wrote(tmp_path):
    x = np.random.RandomState(0).rand(8, 2).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    history = model.fit(x, x[:, :1], epochs=3, verbose=0, validation_data=(x, x[:, :1]),
                        callbacks=[tf.keras.callbacks.TensorBoard(str(tmp_path),
                                                                  histogram_freq=1)])
    curves = read_scalars(str(tmp_path))
    assert find_runs(str(tmp_path)) == ["train", "validation"]
    steps, values = curves["train"]["epoch_loss"]
    assert steps == [0, 1, 2]
    np.testing.assert_allclose(values, history.history["loss"], rtol=1e-6)
    np.testing.assert_allclose(curves["validation"]["epoch_mae"][1], history.history["val_mae"],
                               rtol=1e-6)
    assert not [tag for tag in curves["train"] if tag.endswith("/histogram")]  # scalars only
    assert ("epoch_loss", ["train", "validation"]) in panels(curves)


def test_simple_values_and_out_of_order_steps(tmp_path):
    from tensorboard.compat.proto import event_pb2, summary_pb2
    writer = tf.summary.create_file_writer(str(tmp_path))
    for step, value in [(5, 0.5), (1, 0.1)]:  # a TF 1 style scalar, steps out of order
        writer.write_event(event_pb2.Event(step=step, summary=summary_pb2.Summary(
            value=[summary_pb2.Summary.Value(tag="old_style", simple_value=value)])))
    writer.close()
    steps, values = read_scalars(str(tmp_path))["."]["old_style"]
    assert steps == [1, 5] and values == pytest.approx([0.1, 0.5])


def test_long_curves_are_bounded(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        for step in range(50):
            tf.summary.scalar("loss", float(step), step=step)
    steps, values = read_scalars(str(tmp_path), max_points=10)["."]["loss"]
    assert len(steps) == 10 and steps[-1] == 49 and values == [float(s) for s in steps]


def test_plot_draws_one_panel_per_tag_and_one_line_per_run(tmp_path):
    for run, scale in [("train", 1.0), ("validation", 2.0)]:
        with tf.summary.create_file_writer(str(tmp_path / run)).as_default():
            for step in range(4):
                tf.summary.scalar("loss", scale / (step + 1), step=step)
                if run == "train":
                    tf.summary.scalar("accuracy", step / 4, step=step)
    figure = plot_scalars(str(tmp_path))
    titles = {axes.get_title(): axes for axes in figure.axes}
    assert set(titles) == {"accuracy", "loss"}
    lines = titles["loss"].get_lines()
    assert [line.get_label() for line in lines] == ["train", "validation"]
    np.testing.assert_allclose(lines[1].get_ydata(), [2.0, 1.0, 2 / 3, 0.5], rtol=1e-6)
    assert len(plot_scalars(str(tmp_path), tags=["loss"]).axes) == 1


def test_clear_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="No log directory"):
        read_scalars(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="No scalar summaries"):
        plot_scalars(str(tmp_path))


def test_read_tensors_returns_histograms_and_text_by_run_and_step(tmp_path):
    from widgets.tensorboard_reader import read_tensors
    with tf.summary.create_file_writer(str(tmp_path / "train")).as_default():
        for step in (2, 0, 1):  # out of order on purpose
            tf.summary.histogram("weights", np.arange(10.0) + step, step=step, buckets=4)
            tf.summary.scalar("loss", 1.0, step=step)
        tf.summary.text("note", "hello", step=3)
    histograms = read_tensors(str(tmp_path), "histograms")
    assert list(histograms) == ["train"] and list(histograms["train"]) == ["weights"]
    steps, arrays = histograms["train"]["weights"]
    assert steps == [0, 1, 2]
    assert arrays[2].shape == (4, 3) and arrays[2][:, 2].sum() == 10
    assert arrays[2][0, 0] == 2.0 and arrays[2][-1, 1] == 11.0  # left and right edges
    steps, texts = read_tensors(str(tmp_path), "text")["train"]["note"]
    assert steps == [3] and texts[0].item() == b"hello"
    assert read_tensors(str(tmp_path), "images") == {}
    with pytest.raises(FileNotFoundError, match="No log directory"):
        read_tensors(str(tmp_path / "missing"), "text")
