"""Lesson 20 (Activations): checks for the three exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex3("linear", "sigmoid", "softmax")
✓ Exercise 3: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, outcome

# --- exercise 1: derivative(f, x) with a tape ------------------------------------------------


def _ex1_cases():
    rng = np.random.default_rng(2020)
    points = tf.constant(rng.uniform(-3, 3, size=7), tf.float64)
    return [(tf.nn.softplus, points), (tf.nn.elu, points + 0.05),
            (lambda t: t * tf.nn.sigmoid(2.0 * t), tf.reshape(points[:6], [2, 3]))]


def _finite_difference(f, x, eps=1e-6):
    return (f(x + eps).numpy() - f(x - eps).numpy()) / (2 * eps)


def _derivative_verdict(function):
    for f, x in _ex1_cases():
        got = outcome(function, f, x)
        where = f"Called on {int(tf.size(x))} points"
        if isinstance(got, Exception):
            return f"{where}, your function raised {type(got).__name__}: {got}"[:400]
        if got is None:
            return f"{where}, your function returned None."
        if not hasattr(got, "numpy"):
            return f"{where}, your function returned a {type(got).__name__}, not a tensor."
        got = np.asarray(got.numpy())
        want = _finite_difference(f, x)
        if got.shape != want.shape:
            return f"{where}: the result has shape {got.shape}, but {want.shape} was expected."
        if np.allclose(got, f(x).numpy(), atol=1e-6) and not np.allclose(got, want, atol=1e-5):
            return f"{where}: these are the values f(x), not the derivative."
        if not np.allclose(got, want, rtol=1e-4, atol=1e-6):
            return f"{where}: the values are not f'(x)."
    return None


def _returns_none_unwatched(function):
    """The learner's function gives None for a plain tensor (no watch), a value for a
    Variable: the mistake of forgetting tape.watch."""
    return outcome(function, tf.nn.tanh, tf.constant([0.5])) is None and \
        outcome(function, tf.nn.tanh, tf.Variable([0.5])) is not None


ex1 = Exercise("Exercise 1", [
    "Record f(x) on a tape, then ask the tape for the gradient of the result with respect "
    "to x.",
    "A tape only follows Variables by itself; a tensor x needs tape.watch(x) before f(x).",
], mistakes=[
    (_returns_none_unwatched, "The tape returned None: x is a plain tensor, which a tape "
                              "does not follow unless you call tape.watch(x) first."),
    (lambda f: "values f(x)" in (_derivative_verdict(f) or ""),
     "Return tape.gradient(y, x), not y."),
])


def check_ex1(function):
    """derivative(f, x) is called on three functions and points the lesson never showed."""
    ex1.check_callable(function, _derivative_verdict)


# --- exercise 2: dead_fraction(layer, inputs) -----------------------------------------------


def _ex2_cases():
    rng = np.random.default_rng(2021)
    cases = []
    for units, shift in ((10, -1.5), (16, -2.5), (7, 0.0)):
        layer = tf.keras.layers.Dense(units, activation="relu")
        layer.build((None, 5))
        bias = rng.normal(size=units).astype(np.float32) + shift
        layer.set_weights([rng.normal(size=(5, units)).astype(np.float32), bias])
        cases.append((layer, tf.constant(rng.normal(size=(12, 5)), tf.float32)))
    return cases


def _dead(layer, inputs):
    return float(np.mean(np.all(layer(inputs).numpy() == 0, axis=0)))


def _dead_verdict(function):
    for layer, inputs in _ex2_cases():
        got = outcome(function, layer, inputs)
        where = f"For a layer of {layer.units} units"
        if isinstance(got, Exception):
            return f"{where}, your function raised {type(got).__name__}: {got}"[:400]
        if got is None:
            return f"{where}, your function returned None: is its `return` missing?"
        try:
            value = float(got)
        except (TypeError, ValueError):
            return f"{where}, your function returned a {type(got).__name__}, not a number."
        if not np.isclose(value, _dead(layer, inputs), atol=1e-6):
            return f"{where}, your function returned {value:.4f}, which is not right."
    return None


def _same_as(function, rule):
    return all(np.isclose(float(outcome(function, layer, inputs)), rule(layer, inputs))
               for layer, inputs in _ex2_cases())


def _zeros_fraction(layer, inputs):  # every zero output counted, not units
    return float(np.mean(layer(inputs).numpy() == 0))


def _dead_count(layer, inputs):
    return float(np.sum(np.all(layer(inputs).numpy() == 0, axis=0)))


def _dead_rows(layer, inputs):  # rows with all outputs zero: the wrong axis
    return float(np.mean(np.all(layer(inputs).numpy() == 0, axis=1)))


ex2 = Exercise("Exercise 2", [
    "A unit is a column of the layer's output. It is dead when its whole column is zero.",
    "tf.reduce_all(outputs == 0, axis=0) marks the dead units; the fraction is the mean of "
    "those marks as floats.",
], mistakes=[
    (lambda f: _same_as(f, _zeros_fraction), "That is the fraction of zero outputs; a unit "
                                             "counts as dead only if it is zero on every row."),
    (lambda f: _same_as(f, _dead_count), "That is the number of dead units; divide by the "
                                         "number of units."),
    (lambda f: _same_as(f, _dead_rows), "Rows are examples, columns are units: reduce over "
                                        "axis 0."),
])


def check_ex2(function):
    """dead_fraction(layer, inputs) is called on three layers the lesson never showed."""
    ex2.check_callable(function, _dead_verdict)


# --- exercise 3: output activations ---------------------------------------------------------


def _name(answer):
    if answer is None:
        return "linear"
    if callable(answer):
        answer = getattr(answer, "__name__", answer)
    return str(answer).strip().lower()


ex3 = Exercise("Exercise 3", [
    "For each model, ask what one output number means: any real number, a probability of "
    "its own, or a share of one total probability?",
    "A price is any real number; 20 tags are 20 separate yes/no questions; a digit is one of "
    "10 classes whose probabilities add up to 1.",
], mistakes=[
    (lambda a: _name(a[1]) == "softmax", "photo_tags: softmax makes the 20 probabilities "
                                         "sum to 1, so tags compete; several tags can apply "
                                         "at once."),
    (lambda a: _name(a[2]) == "sigmoid", "digit: with sigmoid, the 10 probabilities need not "
                                         "sum to 1, but exactly one digit is shown."),
    (lambda a: _name(a[0]) in ("relu", "sigmoid", "tanh", "softmax"),
     "house_price: a squashing or clipping activation limits what the model can predict; a "
     "regression output usually has none."),
])


def check_ex3(house_price, photo_tags, digit):
    """Names of output activations: None or "linear" both mean none for the price."""
    answers = (house_price, photo_tags, digit)
    if any(a is Ellipsis for a in answers):
        print(NOT_ATTEMPTED)
        return
    names = tuple(_name(a) for a in answers)
    problems = [label for label, got, want in zip(("house_price", "photo_tags", "digit"), names,
                                                  ("linear", "sigmoid", "softmax"))
                if got != want]
    problem = None if not problems else f"Not right yet: {', '.join(problems)}."
    ex3.verdict(answers, problem)


EXERCISES = [ex1, ex2, ex3]
