"""Lesson 13 (AutoGraph): checks for the three exercises.

>>> check_ex1(4)
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import Exercise, outcome


def _top_level_muls():
    """Trace the exercise's `scale` and count Mul nodes in its top-level graph."""
    @tf.function
    def scale(x):
        for i in range(4):
            x = x * 1.5
        for i in tf.range(4):
            x = x * 1.5
        return x

    graph = scale.get_concrete_function(tf.constant(1.0)).graph
    return sum(node.type == "Mul" for node in graph.nodes)


ex1 = Exercise("Exercise 1", [
    "The two loops look alike but trace differently: which one runs in Python while tracing, "
    "and which one becomes a graph op?",
    "A Python range loop is unrolled: one Mul per iteration. A tf.range loop becomes one "
    "While node, whose body is a graph of its own.",
], mistakes=[
    (lambda a: a == 8, "The tf.range loop is not unrolled: it becomes one While node."),
    (lambda a: a == 5, "The tf.range loop's Mul lives in the loop's body graph, not in the "
                       "top-level graph."),
    (lambda a: a in (1, 2), "The Python range loop runs while tracing, so each of its "
                            "iterations adds a node."),
])


def check_ex1(answer):
    """The predicted number of Mul nodes in scale's top-level graph."""
    ex1.check(answer, _top_level_muls(), show_expected=False)


def _capped_reference(x):
    total = np.float32(0.0)
    for v in x.numpy():
        total += v
        if total >= 10.0:
            break
    return tf.constant(total, tf.float32)


_VECTORS = [[1.0, 2.0, 3.0], [4.0, 6.0, 1.0], [3.0, 5.0, 4.0, 7.0], [12.0, 1.0], [2.5]]


def _not_a_tf_function(function):
    return not hasattr(function, "get_concrete_function")


def _int_start(function):
    got = outcome(function, tf.constant([1.0, 2.0]))
    return isinstance(got, TypeError) and "int32" in str(got)


def _strict(function):
    return float(function(tf.constant([4.0, 6.0, 1.0]))) == 11.0


ex2 = Exercise("Exercise 2", [
    "Loop over x, add each element to a running total, and leave the loop once the total "
    "reaches 10. Which dtype should the total start with?",
    "Start from total = 0.0 (a float, so it stays float32); in `for v in x:` add v, then "
    "`if total >= 10.0: break`; decorate with @tf.function.",
], mistakes=[
    (_int_start, "total starts as the int 0, and the loop makes it float32: AutoGraph keeps "
                 "a loop variable's dtype. Start from 0.0."),
    (_strict, "A total of exactly 10 should stop the loop: 10 or more."),
])


def check_ex2(capped_sum):
    """capped_sum(x), a tf.function, on vectors the lesson never showed."""
    if callable(capped_sum) and _not_a_tf_function(capped_sum):
        ex2.verdict(capped_sum, "capped_sum is a plain Python function: decorate it with "
                                "@tf.function, so that AutoGraph converts the loop.")
        return
    ex2.check_function(capped_sum, _capped_reference,
                       [tf.constant(v) for v in _VECTORS])


def _fibonacci_reference(n):
    values = [0, 1]
    while len(values) < int(n):
        values.append(values[-1] + values[-2])
    return tf.constant(values[:int(n)], tf.int32)


def _python_list(function):
    got = outcome(function, tf.constant(5))
    return isinstance(got, Exception) and "out of scope" in str(got)


def _write_not_kept(function):
    got = outcome(function, tf.constant(5))
    return isinstance(got, Exception) and "Nothing was written" in str(got)


ex3 = Exercise("Exercise 3", [
    "A graph loop cannot grow a Python list. Which container collects one value per "
    "iteration, inside a graph?",
    "ta = tf.TensorArray(tf.int32, size=n); keep a, b as loop variables; each iteration "
    "writes a at position i; ta.stack() gives the tensor.",
], mistakes=[
    (_python_list, "A Python list cannot collect values inside a tf.range loop (the loop "
                   "runs as a graph op): use a tf.TensorArray."),
    (_write_not_kept, "write returns the updated TensorArray: keep it, ta = ta.write(i, a)."),
    (lambda f: int(f(tf.constant(3))[0]) == 1, "The sequence starts 0, 1, 1, 2."),
])


def check_ex3(fibonacci):
    """fibonacci(n), a tf.function, for values of n the lesson never showed."""
    if callable(fibonacci) and _not_a_tf_function(fibonacci):
        ex3.verdict(fibonacci, "fibonacci is a plain Python function: decorate it with "
                               "@tf.function.")
        return
    ex3.check_function(fibonacci, _fibonacci_reference,
                       [tf.constant(1), tf.constant(3), tf.constant(12)])


EXERCISES = [ex1, ex2, ex3]
