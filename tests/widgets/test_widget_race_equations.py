"""The race's update equations: the rule each optimizer applied, with that step's numbers.

The equation is evaluated from the slots the race read with `get_slot`; the point it
arrives at must be the one the real optimizer produced, for every optimizer."""
import doctest

import numpy as np
import pytest

import minitf as tf
from widgets import _race_equations
from widgets._race_equations import update_equation
from widgets.optimizer_race import OPTIMIZERS, OptimizerRace, Race, state_html
from widgets.surfaces import quadratic_surface


@pytest.mark.parametrize("surface", ["rosenbrock", "booth", "himmelblau"])
def test_each_equation_arrives_where_the_optimizer_went(surface):
    race = Race(surface, steps=6)
    for name in OPTIMIZERS:
        t = race.trajectories[name]
        for k in range(1, 7):
            lines, new_x = update_equation(t, k)
            # the step taken, to float32's precision (the optimizer computes in float32)
            np.testing.assert_allclose(new_x - t.positions[k - 1],
                                       t.positions[k] - t.positions[k - 1], rtol=1e-4,
                                       atol=1e-6, err_msg=f"{name}, step {k}")
            assert lines[-1].endswith(
                "[" + ", ".join(f"{v:.5g}" for v in new_x) + "]"), (name, lines[-1])


def test_step_zero_has_no_equation_and_a_diverged_run_shows_its_last_step():
    race = Race("quadratic", optimizers=["SGD"], steps=20, learning_rates={"SGD": 0.2})
    t = race.trajectories["SGD"]
    assert update_equation(t, 0) == ([], None)
    assert t.diverged is not None
    lines, new_x = update_equation(t, 20)  # past the divergence: the last recorded step
    np.testing.assert_allclose(new_x, t.positions[t.steps], rtol=1e-5)


def test_the_numbers_are_the_hyperparameters_the_optimizer_had():
    race = Race("booth", optimizers=["SGD"], steps=2, learning_rates={"SGD": 0.004})
    lines, _ = update_equation(race.trajectories["SGD"], 1)
    assert lines[0] == "x ← x − lr·g" and "− 0.004·" in lines[1]
    t = Race("booth", optimizers=["nesterov"], steps=2).trajectories["nesterov"]
    t.optimizer.momentum = 0.5  # edited after the run: the equation shows it...
    lines, new_x = update_equation(t, 2)
    assert lines[0] == "m ← 0.5·m − lr·g"
    assert not np.allclose(new_x, t.positions[2])  # ...and no longer matches the run


def test_state_panel_shows_the_equation_of_the_current_step():
    race = Race("rosenbrock", optimizers=["Adam"], steps=5)
    html = state_html(race, "Adam", 3)
    assert "the update of this step" in html and "t = 3" in html and "α =" in html
    assert "the update of this step" not in state_html(race, "Adam", 0)


def test_doctests():
    assert doctest.testmod(_race_equations).failed == 0


# --- the condition number and the step-length panel ------------------------------------------
def test_quadratic_surface_has_the_curvatures_it_promises():
    s = quadratic_surface(40.0)
    point = tf.Variable([0.3, -0.7])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            loss = s(point)
        grad = inner.gradient(loss, point)
    hessian = outer.jacobian(grad, point).numpy()
    np.testing.assert_allclose(hessian, [[40.0, 0.0], [0.0, 1.0]], atol=1e-5)
    assert s.sgd_lr < 2 / 40.0  # the demo rate converges along x
    with pytest.raises(ValueError, match="at least 1"):
        quadratic_surface(0.5)


def test_condition_number_slider_reshapes_the_bowl_and_reruns():
    view = OptimizerRace("quadratic", optimizers=["SGD", "Adam"], steps=30)
    assert view.condition.layout.display is None and view.condition.value == 25.0
    before = view.image.value
    view.condition.value = 200.0  # what the learner's slider does
    view.finish()
    assert "condition number 200" in view.race.surface.note
    assert view.race.learning_rates["SGD"] == pytest.approx(0.75 / 200)
    np.testing.assert_array_equal(
        view.race.trajectories["SGD"].positions,
        Race(quadratic_surface(200.0), ["SGD"], 30).trajectories["SGD"].positions)
    assert view.image.value != before and view.error.value == ""


def test_condition_number_belongs_to_the_quadratic_only():
    view = OptimizerRace("booth", optimizers=["SGD"], steps=3)
    assert view.condition.layout.display == "none"
    with pytest.raises(ValueError, match="'quadratic' surface"):
        view.set_condition_number(3.0)


def test_step_lengths_are_drawn_per_step():
    view = OptimizerRace("booth", optimizers=["SGD", "Adagrad"], steps=10)
    for name, line in view.figure.step_lines.items():
        t = view.race.trajectories[name]
        expected = np.linalg.norm(t.positions[1:] - t.positions[:-1], axis=1)
        np.testing.assert_allclose(t.step_lengths, expected)
        np.testing.assert_array_equal(line.get_xdata(), np.arange(1, 11))
        np.testing.assert_allclose(line.get_ydata(), expected)
    low, high = view.figure.step_ax.get_ylim()
    assert low <= min(t.step_lengths.min() for t in view.race.trajectories.values())
