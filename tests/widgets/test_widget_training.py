"""Training monitor: it records what History records, and its throttle bounds the drawing."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitf as tf
from widgets.training import Throttle, TrainingLog, TrainingMonitor


def small_model():
    tf.random.set_seed(1)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, "relu"),
                                 tf.keras.layers.Dense(1, "sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    return model


def data(n=40):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x[:, :1] > 0).astype("float32")


def test_monitor_records_exactly_what_history_records():
    x, y = data()
    monitor = TrainingMonitor(display=False)
    history = small_model().fit(x, y, epochs=3, batch_size=16, validation_split=0.25,
                                verbose=0, callbacks=[monitor], shuffle=False)
    assert monitor.history == history.history and monitor.log.epoch == history.epoch
    assert set(history.history) == {"loss", "accuracy", "val_loss", "val_accuracy"}
    assert monitor.log.panels() == [("loss", ["loss", "val_loss"]),
                                    ("accuracy", ["accuracy", "val_accuracy"])]
    xs, ys = monitor.log.epoch_curve("val_loss")
    assert xs.tolist() == [1, 2, 3] and ys.tolist() == history.history["val_loss"]
    # the final picture is drawn at train end, whatever the throttle said
    assert monitor.view.png.startswith(b"\x89PNG") and "done: epoch 3" in \
        monitor.view.status.value
    assert monitor.static().png == monitor.view.png
    lines = monitor.view.figure.lines
    assert list(lines["val_accuracy"].get_ydata()) == history.history["val_accuracy"]


def test_monitor_leaves_fits_per_batch_shortcut_alone():
    # fit turns each batch's metrics into Python numbers only if a callback looks at
    # them; the monitor does not, so it does not slow every step
    callbacks = tf.keras.callbacks.CallbackList([TrainingMonitor(display=False)])
    assert not callbacks.overrides("on_train_batch_end")
    assert callbacks.overrides("on_epoch_end")


def test_a_second_fit_continues_the_curves_like_history():
    x, y = data()
    model, monitor = small_model(), TrainingMonitor(display=False)
    model.fit(x, y, epochs=2, verbose=0, callbacks=[monitor])
    second = model.fit(x, y, epochs=3, verbose=0, callbacks=[monitor])
    assert monitor.log.epoch == second.epoch == [0, 1, 2]
    assert len(monitor.history["loss"]) == 5  # History (a new one per fit) holds 3
    assert monitor.history["loss"][2:] == second.history["loss"]
    assert monitor.log.epoch_curve("loss")[0].tolist() == [1, 2, 3, 4, 5]
    assert monitor.log.epochs == 5  # the x axis spans both fits


def test_log_scale_toggle_redraws_and_errors_are_shown():
    x, y = data()
    monitor = TrainingMonitor(display=False)
    small_model().fit(x, y, epochs=2, verbose=0, callbacks=[monitor])
    before = monitor.view.png
    monitor.view.scale.value = "log"
    assert monitor.view.png != before and monitor.view.figure.log_scale
    assert all(ax.get_yscale() == "log" for ax in monitor.view.figure.fig.axes)
    monitor.view.figures["linear"].log = None  # broken on purpose: the error is shown
    monitor.view.scale.value = "linear"
    assert "AttributeError" in monitor.view.error.value


def test_the_other_scale_is_prepared_so_the_toggle_only_blits():
    x, y = data()
    monitor = TrainingMonitor(display=False)
    small_model().fit(x, y, epochs=2, verbose=0, callbacks=[monitor])
    log_figure = monitor.view.figures["log"]
    assert log_figure.full_draws == 0
    monitor.view.prepare_other()  # what the kernel's loop runs after fit
    assert log_figure.full_draws == 1
    monitor.view.set_scale("log")
    assert log_figure.full_draws == 1 and monitor.view.png.startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="'linear' or 'log'"):
        monitor.view.set_scale("symlog")


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 0.2), st.floats(0.001, 0.3), st.integers(1, 400),
       st.floats(0.01, 0.5))
def test_throttle_keeps_drawing_under_its_share(share, draw_seconds, batches, batch_seconds):
    clock = FakeClock()
    throttle = Throttle(share=share, min_interval=0.0, first_estimate=draw_seconds,
                        clock=clock)
    throttle.start()
    for _ in range(batches):
        clock.now += batch_seconds  # a training step
        if throttle.ready():
            clock.now += draw_seconds
            throttle.drew(draw_seconds)
        # drawing never exceeds its share of the time so far
        assert throttle.spent <= share * clock.now + 1e-9
    training = batches * batch_seconds
    # ...and it is not idle: when it last said no, one more drawing would have gone
    # over the share, so it drew about as often as the share allows (or every batch)
    assert throttle.draws >= min(batches, share * training / draw_seconds - 1) - 1e-9


def test_throttle_limits_redraws_during_fit():
    x, y = data()
    clock = FakeClock()

    class Ticking(tf.keras.callbacks.Callback):  # every epoch takes 0.1 s of fake time
        def on_epoch_end(self, epoch, logs=None):
            clock.now += 0.1

    monitor = TrainingMonitor(share=0.05, display=False, clock=clock)
    monitor.throttle.min_interval, monitor.throttle.first_estimate = 0.25, 0.15
    drawn = []
    original = monitor.view.refresh

    def refresh(status=None):
        drawn.append(clock.now)
        original(status)
        clock.now += 0.02  # each drawing takes 20 ms of fake time

    monitor.view.refresh = refresh
    small_model().fit(x, y, epochs=40, batch_size=20, verbose=0,
                      callbacks=[Ticking(), monitor])
    # 40 epochs, 4 s of training. The first drawing is guessed to take 0.15 s, so it
    # waits until 0.15 s is 5% of the time (3 s); later ones take 20 ms and come at
    # most every 0.25 s (every third epoch); then the final drawing.
    assert 3.0 <= drawn[0] <= 3.11
    assert all(b - a >= 0.25 for a, b in itertools.pairwise(drawn[:-1]))
    assert 3 <= len(drawn) <= 6 and drawn[-1] == pytest.approx(4.0 + 0.02 * (len(drawn) - 1))
    assert monitor.throttle.spent - 0.02 <= 0.05 * clock.now
    assert monitor.throttle.draws == len(drawn)


def test_throttle_refuses_a_share_outside_0_to_1():
    with pytest.raises(ValueError, match="between 0 and 1"):
        Throttle(share=1.5)


def test_log_leaves_out_non_scalar_values():
    log = TrainingLog()
    log.on_train_begin({"epochs": 1, "steps": 1})
    log.record_epoch(0, {"loss": 1.0, "confusion": np.eye(2)})
    assert log.panels() == [("loss", ["loss"])]
    assert "loss=1" in log.summary() and "confusion" not in log.summary()


def test_axis_limits_hold_still_while_the_curves_fit():
    log = TrainingLog()
    log.on_train_begin({"epochs": 10})
    log.record_epoch(0, {"loss": 2.0, "val_loss": 2.5})
    monitor_figure = TrainingMonitor(display=False).view.figures["linear"]
    monitor_figure.log = log
    monitor_figure.draw()
    (xlim, ylim), = monitor_figure.limits
    assert xlim == (0, 10.5) and ylim[0] == 0.0 and ylim[1] >= 2.5
    for epoch, loss in enumerate([1.5, 1.0, 0.5], start=1):  # falling: no full redraw
        log.record_epoch(epoch, {"loss": loss, "val_loss": loss + 0.2})
        monitor_figure.draw()
    assert monitor_figure.full_draws == 1
    log.record_epoch(4, {"loss": 9.0, "val_loss": 9.0})  # a jump out of the axis
    monitor_figure.draw()
    assert monitor_figure.full_draws == 2 and monitor_figure.limits[0][1][1] >= 9.0
    log_figure = TrainingMonitor(display=False).view.figures["log"]
    log_figure.log = log
    log_figure.draw()
    assert log_figure.limits[0][1] == (0.1, 10.0)
    assert log_figure.fig.axes[0].get_yscale() == "log"
