"""Lesson 14 (the rules of AutoGraph): checks for the three exercises.

>>> check_ex1((1, 5))
✓ Exercise 1: correct.
"""
import inspect

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, as_tuple, outcome, unattempted


def _count_lines():
    """Run the exercise's count_down with counters in place of its prints: a Python counter
    where it calls print (runs while tracing), a variable where it calls tf.print (an op)."""
    python_lines = []
    graph_lines = tf.Variable(0)

    @tf.function
    def count_down(n):
        while n > 0:
            python_lines.append(1)          # print("python:", n)
            graph_lines.assign_add(1)       # tf.print("graph:", n)
            n -= 1
        return n

    count_down(tf.constant(3))
    count_down(tf.constant(2))
    return (len(python_lines), int(graph_lines.numpy()))


ex1 = Exercise("Exercise 1", [
    "print runs when Python runs the function's body; tf.print runs when the graph runs. How "
    "often does each happen here?",
    "Python runs the body once per trace (and the while loop's body once, when it is "
    "converted); the graph runs every iteration of every call.",
], mistakes=[
    (lambda a: as_tuple(a)[0] == 2, "Both calls pass an int32 scalar: the same trace key, so "
                                    "the body is traced once."),
    (lambda a: as_tuple(a)[0] == 5, "print does not run on every iteration: it runs while "
                                    "tracing, and the loop body is traced once."),
    (lambda a: as_tuple(a)[1] in (1, 2), "tf.print is an op inside the loop: it runs on every "
                                         "iteration of every call."),
])


def check_ex1(answer):
    """The predicted (python_lines, tf_print_lines); a tuple or a list."""
    ex1.check(as_tuple(answer), _count_lines(), show_expected=False)


def _uses_cumprod(function):
    source = inspect.getsource(getattr(function, "python_function", function))
    return "cumprod" in source


def _int_start(function):
    got = outcome(function, tf.constant([2.0, 3.0]))
    return isinstance(got, TypeError) and "int32" in str(got)


def _python_list(function):
    got = outcome(function, tf.constant([2.0, 3.0]))
    return isinstance(got, Exception) and "out of scope" in str(got)


ex2 = Exercise("Exercise 2", [
    "The first attempt breaks two rules: look at the dtype product starts with, and at what "
    "collects the results.",
    "Rule 3: start from product = 1.0 (float32). Rule 5: collect into a "
    "tf.TensorArray(tf.float32, size=tf.size(values)) with out = out.write(i, product).",
], mistakes=[
    (_int_start, "Rule 3: product starts as the int 1 and becomes float32 in the loop; start "
                 "from 1.0."),
    (_python_list, "Rule 5: a Python list cannot collect values inside a tf.range loop; use a "
                   "tf.TensorArray."),
])


def check_ex2(cumulative_products):
    """cumulative_products(values) on vectors the lesson never showed (without cumprod)."""
    if callable(cumulative_products) and outcome(_uses_cumprod, cumulative_products) is True:
        ex2.verdict(cumulative_products, "It uses tf.math.cumprod; the exercise asks for the "
                                         "loop written out.")
        return
    ex2.check_function(cumulative_products, tf.math.cumprod,
                       [tf.constant([1.5, -2.0, 4.0, 0.5]), tf.constant([3.0]),
                        tf.constant([2.0, 2.0, 2.0, 2.0, 2.0, 0.0])])


def _counts(counter_class):
    """Three calls on each of two fresh counters: [[1, 2, 3], [1, 2, 3]] when right."""
    counts = []
    for _ in range(2):
        counter = counter_class()
        counts.append([int(counter()) for _ in range(3)])
    return counts


def _problem(counter_class):
    if not isinstance(counter_class, type):
        return (f"The answer is a {type(counter_class).__name__}; pass the class StepCounter "
                "itself.")
    got = outcome(_counts, counter_class)
    if isinstance(got, Exception):
        return f"Calling a fresh StepCounter raised {type(got).__name__}: {got}"
    if got != [[1, 2, 3], [1, 2, 3]]:
        return f"Two fresh counters called three times each returned {got}, not [1, 2, 3] each."
    return None


ex3 = Exercise("Exercise 3", [
    "The variable has to exist before it is used, and be created only once. What is true on "
    "the first trace only?",
    "Guard the creation with a Python test, `if self.steps is None:`; then add 1 with "
    "assign_add (an op, so it runs on every call) and return the value.",
], mistakes=[
    (lambda c: "singleton" in (_problem(c) or ""), "Rule 4: the variable is created on every "
                                                   "trace. Create it only when self.steps is "
                                                   "None."),
    (lambda c: (_problem(c) or "").startswith("Two fresh counters") and "[1, 1, 1]" in
     _problem(c), "Each call returns 1: the count must be kept in the variable, changed with "
                  "assign_add."),
])


def check_ex3(counter_class):
    """Make fresh counters from the learner's class and call each three times."""
    if unattempted(counter_class):
        print(NOT_ATTEMPTED)
        return
    if isinstance(counter_class, type) and _handed_out(counter_class):
        print(NOT_ATTEMPTED)
        return
    ex3.verdict(counter_class, _problem(counter_class))


def _handed_out(counter_class):
    call = getattr(counter_class.__call__, "python_function", counter_class.__call__)
    return unattempted(call)


EXERCISES = [ex1, ex2, ex3]
