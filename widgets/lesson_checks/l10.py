"""Lesson 10 (minimizing a function): checks for the three exercises.

>>> check_ex2(0.2)
✓ Exercise 2: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, outcome, same, unattempted

_STEPS = [(2.0, 0.05), (-1.0, 0.1), (0.5, 0.2)]  # (start, learning rate): not the lesson's


def _stepped(descent_step):
    """Run the learner's step on a fresh variable; the variable's value afterwards."""
    def run(start, learning_rate):
        w = tf.Variable(start)
        descent_step(w, learning_rate)
        return w.read_value()
    return run


def _after(stepped):
    """Where the learner's step (run by `_stepped`, as the mistake tests receive it) takes
    w = 2.0 with learning rate 0.05."""
    return float(stepped(2.0, 0.05))


ex1 = Exercise("Exercise 1", [
    "Three parts: the slope of w⁴ from a tape, a step against it, scaled by the learning "
    "rate, and a change to w itself.",
    "grad = tape.gradient(w ** 4, w); then w.assign_sub(learning_rate * grad) moves w in "
    "place.",
], mistakes=[
    (lambda f: _after(f) == 2.0, "w did not move: change the variable in place with "
                                 "assign_sub (a new tensor leaves w as it was)."),
    (lambda f: np.isclose(_after(f), 2.0 + 0.05 * 32.0), "w moved uphill: a descent step goes "
                                                         "against the gradient."),
    (lambda f: np.isclose(_after(f), 2.0 - 32.0), "The step is the whole gradient: scale it by "
                                                  "the learning rate."),
])


def check_ex1(descent_step):
    """descent_step(w, learning_rate): one gradient-descent step on w⁴, in place, tried on
    fresh variables and learning rates."""
    if unattempted(descent_step):
        print(NOT_ATTEMPTED)
        return
    ex1.check_function(_stepped(descent_step) if callable(descent_step) else descent_step,
                       lambda start, lr: tf.constant(start - lr * 4.0 * start ** 3),
                       _STEPS)


def _largest_stable_rate():
    """2 / (largest curvature), with the curvatures read off the Hessian by a tape."""
    w = tf.Variable([0.3, -0.7])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            f = 5.0 * w[0] ** 2 + 0.5 * w[1] ** 2
        g = inner.gradient(f, w)
    hessian = outer.jacobian(g, w)
    return float(2.0 / tf.reduce_max(tf.linalg.eigvalsh(hessian)))


ex2 = Exercise("Exercise 2", [
    "Each direction has its own curvature; the steepest one limits the step.",
    "The curvatures are the second derivatives of f; plain gradient descent converges while "
    "the learning rate stays below 2 / (the largest).",
], mistakes=[
    (lambda a: np.isclose(float(a), 0.1), "At 1 / curvature the steep direction lands on its "
                                          "minimum in one step; the limit is twice that."),
    (lambda a: np.isclose(float(a), 2.0), "That suits the flat direction only; the steep one "
                                          "would blow up."),
    (lambda a: np.isclose(float(a), 0.4), "The curvature is the second derivative: 5 w0² "
                                          "curves by 10, not 5."),
])


def check_ex2(answer):
    """The largest learning rate for which gradient descent converges on 5 w0² + 0.5 w1²."""
    ex2.check(answer, _largest_stable_rate(), show_expected=False)


def _lines():
    rng = np.random.default_rng(1010)
    cases = []
    for n, (a, c) in [(5, (-0.7, 2.5)), (8, (3.0, -1.0))]:
        x = np.sort(rng.uniform(-3, 3, n)).astype(np.float32)
        y = (a * x + c + rng.normal(0, 0.1, n)).astype(np.float32)
        cases.append((tf.constant(x), tf.constant(y)))
    return cases


def _least_squares(x, y):
    X = np.stack([x.numpy(), np.ones(x.shape[0], np.float32)], axis=1).astype(np.float64)
    p = np.linalg.solve(X.T @ X, X.T @ y.numpy().astype(np.float64))
    return tf.constant(p.astype(np.float32))


def _swapped(fit_line):
    x, y = _lines()[0]
    return same(fit_line(x, y), tf.reverse(_least_squares(x, y), [0]), rtol=1e-3, atol=1e-4)


def _column(fit_line):
    x, y = _lines()[0]
    return tuple(fit_line(x, y).shape) == (2, 1)


def _untransposed(fit_line):
    got = outcome(fit_line, *_lines()[0])
    return isinstance(got, Exception) and "Matrix size-incompatible" in str(got)


ex3 = Exercise("Exercise 3", [
    "Build X with two columns, x and ones; then solve the 2 × 2 system Xᵀ X p = Xᵀ y.",
    "tf.stack([...], axis=1) makes X; tf.linalg.solve(A, B) wants B as a column, so give "
    "it Xᵀ y of shape (2, 1) and take column 0 of the result.",
], mistakes=[
    (_swapped, "[c, a]: the order of p follows the columns of X, x first."),
    (_column, "The right numbers as a column (2, 1); the answer has shape (2,)."),
    (_untransposed, "X has one row per point, so X X does not fit: the normal equations "
                    "use Xᵀ X."),
])


def check_ex3(fit_line):
    """fit_line(x, y) -> [a, c] by the normal equations, on points the lesson never showed."""
    ex3.check_function(fit_line, _least_squares, _lines(), rtol=1e-3, atol=1e-4)


EXERCISES = [ex1, ex2, ex3]
