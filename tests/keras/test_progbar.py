"""The progress bar: Keras's line format, one line per epoch off a terminal, verbose."""
import io
import re

import numpy as np

import minitf as tf

LINE = re.compile(r"^(\d+)/(\d+) (━{20}) (\d+)s (\d+)(us|ms|s)/step(.*)$")


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def _fit(capsys, verbose, epochs=2, **kwargs):
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    x = np.ones((40, 1), "float32")
    model.fit(x, x, batch_size=8, epochs=epochs, verbose=verbose, **kwargs)
    return capsys.readouterr().out


def test_fit_prints_one_line_per_epoch_off_a_terminal(capsys):
    out = _fit(capsys, verbose=1)
    lines = out.splitlines()
    assert "\r" not in out and "\x1b" not in out
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2" and len(lines) == 4
    match = LINE.match(lines[1])
    assert match, lines[1]
    assert match.group(1) == match.group(2) == "5"
    assert re.fullmatch(r" - loss: \d\.\d{4} - mae: \d\.\d{4}", match.group(7))


def test_auto_verbose_is_1_and_single_epoch_has_no_epoch_header(capsys):
    lines = _fit(capsys, verbose="auto", epochs=1).splitlines()
    assert len(lines) == 1 and LINE.match(lines[0])


def test_validation_values_are_on_the_epoch_line(capsys):
    x = np.ones((8, 1), "float32")
    line = _fit(capsys, verbose=1, epochs=1, validation_data=(x, x)).splitlines()[0]
    assert re.search(r" - loss: \S+ - mae: \S+ - val_loss: \S+ - val_mae: \S+$", line)


def test_verbose_2_and_0(capsys):
    lines = _fit(capsys, verbose=2).splitlines()
    assert lines[0] == "Epoch 1/2" and len(lines) == 4
    assert re.fullmatch(r"5/5 - \d+s - \d+(us|ms|s)/step - loss: \S+ - mae: \S+", lines[1])
    assert _fit(capsys, verbose=0) == ""


def test_evaluate_and_predict_bars(capsys):
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    model.compile(loss="mse")
    x = np.ones((10, 1), "float32")
    model.evaluate(x, x, batch_size=4)
    model.predict(x, batch_size=4)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert LINE.match(lines[0]).group(7).startswith(" - loss: ")
    assert LINE.match(lines[1]).group(1) == "3" and LINE.match(lines[1]).group(7) == ""


def test_terminal_redraws_in_place_with_colours():
    out = FakeTerminal()
    bar = tf.keras.utils.Progbar(4, interval=0.0, stream=out)
    for step in range(1, 5):
        bar.update(step, [("loss", float(step))])
    text = out.getvalue()
    assert text.count("\r") == 4 and text.endswith("\n") and text.count("\n") == 1
    assert "\x1b[1m1/4\x1b[0m \x1b[32m━━━━━\x1b[0m\x1b[37m" + "━" * 15 in text
    assert text.rstrip().endswith("- loss: 4.0000")  # fit's metrics are running values


def test_progbar_averages_non_stateful_values_and_formats_small_numbers():
    out = io.StringIO()
    bar = tf.keras.utils.Progbar(2, stateful_metrics=["acc"], stream=out)
    bar.update(1, [("loss", 1.0), ("acc", 0.5), ("tiny", 1e-5)])
    assert out.getvalue() == ""  # nothing until the line is finished (not a terminal)
    bar.update(2, [("loss", 3.0), ("acc", 0.75), ("tiny", 1e-5)])
    assert out.getvalue().rstrip().endswith("- loss: 2.0000 - acc: 0.7500 - tiny: 1.0000e-05")
    unknown = tf.keras.utils.Progbar(None, stream=out)
    unknown.update(3, finalize=True)
    assert out.getvalue().splitlines()[-1].startswith("      3/Unknown ")


def test_add_and_verbose_2_line():
    out = io.StringIO()
    bar = tf.keras.utils.Progbar(10, verbose=2, stream=out)
    bar.add(4)
    bar.add(6, values=[("loss", 0.5)])
    assert re.fullmatch(r"10/10 - \d+s - \d+(us|ms|s)/step - loss: 0.5000\n", out.getvalue())
