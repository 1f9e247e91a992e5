"""Lesson 07 (variables): checks for the three exercises.

>>> import minitf as tf
>>> def halve(variable):
...     variable.assign(variable / 2)
>>> check_ex2(halve)
✓ Exercise 2: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, outcome, same

_COUNTS = [3, 7, 0]  # how far the check counts: not the lesson's 5


def _not_a_variable(count_to):
    got = count_to(3)
    return got is not None and not isinstance(got, tf.Variable)


ex1 = Exercise("Exercise 1", [
    "A counter that changes in place is a tf.Variable; which method adds to it?",
    "Make tf.Variable(0) inside the function, call its assign_add(1) n times, return the "
    "variable.",
], mistakes=[
    (_not_a_variable, "The function returns a tensor: `counter + 1` makes a new tensor each "
                      "time. Return the variable itself, changed with assign_add."),
    (lambda f: f(3).dtype == tf.float32, "0.0 starts a float32 variable; a Python int (0) "
                                         "gives int32."),
    (lambda f: same(f(3), tf.constant(5)), "The count is always 5: count n times."),
    (lambda f: int(f(3)) != 3 and int(f(3)) != int(f(3)), "The count grows from call to call: "
                                                          "make a new variable on every call."),
])


def check_ex1(count_to):
    """count_to(n): a new int32 variable, started at 0, after n assign_add(1) calls."""
    if callable(count_to):
        got = outcome(count_to, 1)
        if got is not None and not isinstance(got, (Exception, tf.Variable)):
            ex1.verdict(count_to, f"count_to(1) returned a {type(got).__name__}, not a "
                                  "tf.Variable.")
            return
    ex1.check_function(count_to, tf.constant, _COUNTS)


def _halved(halve):
    """Problems with halve, tried on variables the lesson never showed; None if it works."""
    for start in [8.0, -3.0, [2.0, 6.0]]:
        variable = tf.Variable(start)
        try:
            halve(variable)
        except Exception as exc:  # noqa: BLE001 - reported as a wrong answer, never raised
            return f"halve raised {type(exc).__name__}: {exc}"
        want = np.asarray(start, np.float32) / 2
        if not np.allclose(variable.numpy(), want):
            return (f"A variable holding {start} holds {variable.numpy()} after halve(...); "
                    f"it should hold {want}.")
    return None


def _unchanged(halve):
    variable = tf.Variable(8.0)
    halve(variable)
    return float(variable.numpy()) == 8.0


ex2 = Exercise("Exercise 2", [
    "After the call the variable is unchanged: what does `variable = ...` do to the object "
    "passed in?",
    "`variable = ...` only rebinds the local name; a variable changes in place with its "
    "assign method.",
], mistakes=[
    (_unchanged, "The variable passed in is unchanged: `variable = ...` only rebinds a local "
                 "name inside the function."),
])


def check_ex2(halve):
    """halve(variable) must halve a variable in place (tried on fresh variables)."""
    if halve is ... or halve is None:
        print(NOT_ATTEMPTED)
    elif not callable(halve):
        ex2.verdict(halve, f"The answer is a {type(halve).__name__}, but a function is "
                           "expected.")
    elif _as_handed_out(halve):
        print(HANDED_OUT)
    else:
        ex2.verdict(halve, _halved(halve))


HANDED_OUT = ("… This is halve as handed out: v still holds 8.0. Fix the marked line and "
              "run the cell again.")


def _handed_out_halve(variable):
    variable = variable / 2  # noqa: F841 - the bug the exercise asks to fix


def _as_handed_out(function):
    code, given = getattr(function, "__code__", None), _handed_out_halve.__code__
    return code is not None and (code.co_code, code.co_consts) == (given.co_code,
                                                                  given.co_consts)


def _layers():
    """Built layers the lesson never showed."""
    layers = []
    for units, features, bias in [(3, 6, True), (2, 4, False), (6, 1, True)]:
        layer = tf.keras.layers.Dense(units, use_bias=bias)
        layer(tf.ones([1, features]))
        layers.append(layer)
    return layers


def _parameters(layer):
    return int(sum(np.prod(v.shape) for v in layer.variables))


ex3 = Exercise("Exercise 3", [
    "Each variable holds a whole array of numbers: count the numbers in each one and add up.",
    "tf.size(v) (or the product of v.shape) is how many numbers v holds; sum that over "
    "layer.variables.",
], mistakes=[
    (lambda f: f(_layers()[0]) == len(_layers()[0].variables), "That counts the variables; "
                                                               "count the numbers each holds."),
    (lambda f: f(_layers()[0]) == sum(sum(v.shape) for v in _layers()[0].variables),
     "A (6, 3) kernel holds 6 × 3 numbers, not 6 + 3."),
    (lambda f: f(_layers()[0]) == 18, "The bias counts too: every variable of the layer."),
])


def check_ex3(count_parameters):
    """count_parameters(layer) on Dense layers the lesson never showed."""
    ex3.check_function(count_parameters, _parameters, _layers())


EXERCISES = [ex1, ex2, ex3]
