"""Optimizer race: the trajectories are minitf's own optimizers, step by step."""
import doctest

import numpy as np
import pytest

import minitf as tf
from widgets import optimizer_race, surfaces
from widgets._view import cut_descriptions
from widgets.optimizer_race import (
    OPTIMIZERS,
    OptimizerRace,
    Race,
    make_optimizer,
    state_html,
)
from widgets.surfaces import SURFACES, get_surface

STEPS = 12


def by_hand(surface, name, learning_rate, start, steps):
    """The training loop a learner writes, with nothing recorded on the side."""
    opt = make_optimizer(name, learning_rate)
    point = tf.Variable(list(start), dtype=tf.float32)
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = surface(point)
        opt.apply_gradients([(tape.gradient(loss, point), point)])
    return opt, point


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_trajectories_equal_running_the_optimizer_by_hand(surface):
    race = Race(surface, steps=STEPS)
    s = get_surface(surface)
    for name in OPTIMIZERS:
        t = race.trajectories[name]
        assert t.diverged is None and t.steps == STEPS
        for k in (1, STEPS):
            opt, point = by_hand(s, name, race.learning_rates[name], race.start, k)
            np.testing.assert_array_equal(t.positions[k], point.numpy())
            for slot in opt.get_slot_names():  # the panel shows what get_slot holds
                np.testing.assert_array_equal(t.slots[slot][k], opt.get_slot(point, slot).numpy())
        assert t.slot_names == t.optimizer.get_slot_names()


def test_recorded_gradients_and_losses_are_the_tapes():
    race = Race("himmelblau", optimizers=["Adam"], steps=5)
    t = race.trajectories["Adam"]
    for k in range(6):
        point = tf.Variable(t.positions[k])
        with tf.GradientTape() as tape:
            loss = SURFACES["himmelblau"](point)
        np.testing.assert_allclose(t.gradients[k], tape.gradient(loss, point).numpy(), rtol=1e-6)
        assert t.losses[k] == pytest.approx(float(loss.numpy()), rel=1e-6)


def test_first_steps_equal_the_closed_forms():
    race = Race("quadratic", optimizers=["SGD", "momentum", "Adam"], steps=2,
                learning_rates={"SGD": 0.01, "momentum": 0.01, "Adam": 0.1})
    g0 = np.array([25.0 * -1.8, 2.5], np.float32)  # gradient of 0.5(25x² + y²) at the start
    start = np.array([-1.8, 2.5], np.float32)
    np.testing.assert_allclose(race.trajectories["SGD"].positions[1], start - 0.01 * g0, rtol=1e-6)
    np.testing.assert_allclose(race.trajectories["momentum"].slots["momentum"][1], -0.01 * g0,
                               rtol=1e-6)
    # Adam's first step moves each coordinate by the learning rate, against the gradient sign
    np.testing.assert_allclose(race.trajectories["Adam"].positions[1], start - 0.1 * np.sign(g0),
                               rtol=1e-5)


def test_slot_panel_shows_get_slot_values():
    race = Race("rosenbrock", optimizers=["Adadelta", "RMSprop", "SGD"], steps=4)
    t = race.trajectories["Adadelta"]
    rows = dict(race.state_rows("Adadelta", 3))
    for slot in ("accumulated_grad", "accumulated_delta_var"):
        expected = "[" + ", ".join(f"{v:.5g}" for v in t.slots[slot][3]) + "]"
        assert rows[f"get_slot(point, {slot!r})"] == expected
    opt, point = by_hand(SURFACES["rosenbrock"], "Adadelta", race.learning_rates["Adadelta"],
                         race.start, 4)
    np.testing.assert_array_equal(t.slots["accumulated_grad"][4],
                                  opt.get_slot(point, "accumulated_grad").numpy())
    assert "none: plain SGD keeps no state" in dict(race.state_rows("SGD", 2)).values()
    assert "get_slot(point, &#x27;velocity&#x27;)" not in state_html(race, "RMSprop", 1)
    assert "velocity" in state_html(race, "RMSprop", 1)


def test_changing_the_learning_rate_changes_the_trajectory():
    race = Race("beale", optimizers=["Adam", "SGD"], steps=6)
    before = race.trajectories["Adam"].positions.copy()
    other = race.trajectories["SGD"]
    race.set_learning_rate("Adam", 0.2)
    after = race.trajectories["Adam"]
    assert after.learning_rate == pytest.approx(0.2)
    np.testing.assert_array_equal(after.positions[0], before[0])
    assert not np.allclose(after.positions[1:], before[1:])
    assert race.trajectories["SGD"] is other  # the others are not re-run


def test_start_point_and_presets():
    race = Race("saddle", optimizers=["SGD", "Nadam"], steps=3)
    race.set_start(1.0, -1.0)
    assert race.trajectories["SGD"].positions[0].tolist() == [1.0, -1.0]
    race.use_preset("tf")
    assert race.learning_rates == {"SGD": 0.01, "Nadam": 0.001}
    assert race.trajectories["Nadam"].learning_rate == pytest.approx(0.001)


def test_a_diverging_run_is_flagged_and_cut():
    race = Race("quadratic", optimizers=["SGD"], steps=50, learning_rates={"SGD": 0.5})
    t = race.trajectories["SGD"]  # 1 - 0.5·25 = -11.5: each step multiplies x by -11.5
    assert t.diverged is not None and t.steps == t.diverged - 1
    assert np.all(np.isfinite(t.positions)) and np.all(np.abs(t.positions) < 50)
    assert "DIVERGED" in race.summary(50)[0]
    assert t.at(40) == t.steps


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_each_surface_has_zero_gradient_at_its_minima(surface):
    s = SURFACES[surface]
    for m in s.minima:
        point = tf.Variable(np.array(m, np.float64))
        with tf.GradientTape() as tape:
            loss = s(point)
        np.testing.assert_allclose(tape.gradient(loss, point).numpy(), 0.0, atol=1e-4)
    x, y, z = s.value_grid(30)
    assert z.shape == (30, 30) and np.all(np.isfinite(z))
    assert z[0, 0] == pytest.approx(float(s(tf.constant([x[0, 0], y[0, 0]]))), rel=1e-5)


def test_unknown_names_teach():
    with pytest.raises(ValueError, match="Known surfaces"):
        get_surface("bowl")
    with pytest.raises(ValueError, match="Known:"):
        Race("beale", optimizers=["Lamb"])


# --- the view ----------------------------------------------------------------------------------
def test_view_controls():
    view = OptimizerRace("quadratic", optimizers=["SGD", "momentum", "Adam"], steps=10)
    first = view.image.value
    view.slider.value = 3
    assert view.step == 3 and view.image.value != first
    assert "after step 3" in view.state.value and "get_slot(point, &#x27;momentum" not in \
        view.state.value
    view.selected.value = "momentum"
    assert view.rate.value == pytest.approx(view.race.learning_rates["momentum"])
    assert "momentum" in view.state.value
    before = view.race.trajectories["momentum"].positions.copy()
    view.rate.value = 0.001
    assert not np.allclose(view.race.trajectories["momentum"].positions[1:], before[1:])
    shown = view.image.value
    view.boxes["momentum"].value = False
    assert view.visible() == ["SGD", "Adam"] and view.image.value != shown
    view.defaults.click()
    assert "barely move" in view.summary.value
    view.demo.click()
    assert "barely move" not in view.summary.value
    view.x0.value = 1.0
    assert view.race.start[0] == 1.0 and view.error.value == ""


def test_static_picture_is_deterministic():
    make = lambda: OptimizerRace("himmelblau", ["momentum", "RMSprop"], steps=8,
                                 step=5)
    view = make()
    first, second = view.static(), make().static()
    assert first.png == second.png and first.png.startswith(b"\x89PNG")
    assert view._repr_mimebundle_()["text/plain"] == first.text
    view.set_step(6)
    assert view.static().png != first.png


def test_errors_in_a_callback_are_shown():
    view = OptimizerRace("beale", optimizers=["SGD"], steps=3)
    view.race.names.append("Lamb")  # a name the race does not know
    view.x0.value = 0.5
    assert "KeyError" in view.error.value


@pytest.mark.parametrize("module", [optimizer_race, surfaces], ids=lambda m: m.__name__)
def test_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_effective_learning_rate_per_axis():
    race = Race("quadratic", optimizers=["SGD", "Adagrad"], steps=3,
                learning_rates={"SGD": 0.01, "Adagrad": 0.5})
    sgd = dict(race.state_rows("SGD", 2))
    assert sgd["effective lr per axis Δ/(-grad)"] == "[0.01, 0.01]"  # SGD: the rate itself
    ada = race.trajectories["Adagrad"]
    acc = ada.slots["accumulator"][1]  # Adagrad: lr / sqrt(accumulator + epsilon) per axis
    expected = 0.5 / np.sqrt(acc + 1e-7)
    shown = dict(race.state_rows("Adagrad", 1))["effective lr per axis Δ/(-grad)"]
    np.testing.assert_allclose([float(v) for v in shown.strip("[]").split(", ")], expected,
                               rtol=1e-3)
    assert "last step" not in str(race.state_rows("SGD", 0))


# verified against TF 2.21: the same 10-step loop on Rosenbrock from (-1.5, 2) with
# tf.keras.optimizers (Keras 3) ends at exactly these float32 positions.
TF_AFTER_10_STEPS = {
    "SGD": [-1.4222145080566406, 2.0014164447784424],
    "momentum": [-1.3012011051177979, 1.9105674028396606],
    "nesterov": [-0.8615056276321411, 0.7358077764511108],
    "Adagrad": [-1.4274165630340576, 2.0437333583831787],
    "RMSprop": [-1.4289501905441284, 2.024015188217163],
    "Adadelta": [-1.4750564098358154, 2.0249311923980713],
    "Adam": [-1.3883960247039795, 2.045511484146118],
    "Nadam": [-1.4208250045776367, 2.027144432067871],
}


def test_rosenbrock_race_matches_tensorflow():
    race = Race("rosenbrock", steps=10)
    assert race.start == (-1.5, 2.0)
    for name, expected in TF_AFTER_10_STEPS.items():
        np.testing.assert_allclose(race.trajectories[name].positions[10], expected, rtol=1e-6)


# --- progressive re-runs (what the controls do) ---------------------------------------------
def test_runner_advanced_in_slices_equals_one_run():
    whole = Race("himmelblau", optimizers=["Nadam"], steps=9).trajectories["Nadam"]
    runner = optimizer_race.Runner("himmelblau", make_optimizer("Nadam", 0.1), (-0.5, 0.0), 9)
    for count in (1, 3, 2, 50):
        runner.advance(count)
    t = runner.trajectory()
    assert runner.done and t.steps == 9 and t.complete
    np.testing.assert_array_equal(t.positions, whole.positions)
    np.testing.assert_array_equal(t.slots["velocity"], whole.slots["velocity"])


def test_controls_draw_first_steps_then_finish_in_scheduled_slices():
    view = OptimizerRace("rosenbrock", optimizers=["SGD", "Adam", "RMSprop"], steps=40)
    later = []
    view.schedule = lambda callback, *args: later.append((callback, args))
    view.FIRST_SLICE = view.SLICE = 0.0  # one chunk per slice: many slices
    view.x0.value = -1.0  # the slider's callback: progressive
    assert view.race.pending and later and "computing…" in view.summary.value
    partial = {n: t.steps for n, t in view.race.trajectories.items()}
    assert all(k < 40 for k in partial.values()) and max(partial.values()) >= 1
    while later:
        callback, args = later.pop(0)
        callback(*args)
    assert not view.race.pending and "computing" not in view.summary.value
    expected = Race("rosenbrock", optimizers=["SGD", "Adam", "RMSprop"], steps=40,
                    start=(-1.0, 2.0))
    for n in expected.names:  # the same numbers as computing everything at once
        np.testing.assert_array_equal(view.race.trajectories[n].positions,
                                      expected.trajectories[n].positions)


def test_a_newer_change_cancels_the_older_slices():
    view = OptimizerRace("quadratic", optimizers=["SGD", "Adam"], steps=30)
    later = []
    view.schedule = lambda callback, *args: later.append((callback, args))
    view.FIRST_SLICE = view.SLICE = 0.0
    view.set_start(1.0, 1.0, progressive=True)
    stale = later.pop(0)
    view.set_learning_rate(0.05, progressive=True)  # restarts the selected optimizer
    stale[0](*stale[1])  # the old slice does nothing now
    assert later and view.race.pending
    view.finish()
    assert not view.race.pending
    assert view.race.trajectories["Adam"].learning_rate == pytest.approx(0.05)
    assert view.race.trajectories["SGD"].positions[0].tolist() == [1.0, 1.0]


def test_code_calls_compute_everything_and_errors_in_slices_are_shown():
    view = OptimizerRace("beale", optimizers=["SGD", "Adam"], steps=20)
    view.set_start(0.5, 0.5)
    assert not view.race.pending and view.race.trajectories["Adam"].steps == 20
    later = []
    view.schedule = lambda callback, *args: later.append((view.guard(callback), args))
    view.FIRST_SLICE = view.SLICE = 0.0
    view.set_start(0.0, 0.5, progressive=True)
    for runner in view.race.runners.values():
        runner.surface = None  # broken on purpose
    callback, args = later.pop(0)
    callback(*args)
    assert "TypeError" in view.error.value


def test_loss_axis_limits_are_decades_and_only_grow():
    class T:
        def __init__(self, losses):
            self.losses = np.array(losses)

    first = optimizer_race.loss_axis_limits([T([3.0, 0.02])])
    assert first == ("log", (0.01, 10.0))
    assert optimizer_race.loss_axis_limits([T([5.0, 0.05])], first) == first  # fits: kept
    assert optimizer_race.loss_axis_limits([T([50.0, 0.05])], first) == ("log", (0.01, 100.0))
    scale, (low, high) = optimizer_race.loss_axis_limits([T([0.5, -0.9])])
    assert scale == "symlog" and low <= -0.9 and high >= 0.5


def test_moving_the_start_point_redraws_only_the_moving_parts():
    view = OptimizerRace("rosenbrock", optimizers=["SGD", "Adam"], steps=20)
    drawn = view.figure.full_draws
    view.set_start(-1.45, 2.0)  # nearby: the losses stay inside the loss axis
    assert view.figure.full_draws == drawn
    assert list(view.figure.start_marker.get_xdata()) == [-1.45]


def test_no_description_is_cut_short():
    # Lesson 11 showed "learning r…": a slider's description gets 80 px unless told otherwise.
    view = OptimizerRace("quadratic", optimizers=["SGD", "Adam"], steps=3)
    assert cut_descriptions(view) == []
    assert view.rate.description == "learning rate"
    assert view.condition.style.description_width == "initial"
