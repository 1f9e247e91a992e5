"""Execution state the one door (`op.apply`) consults: the active tapes and,
once `tf.function` exists, the graph being traced.

Kept as plain module-level lists so the eager fast path is one truth test.
"""

# GradientTapes currently recording, innermost last.
tape_stack = []

# Graphs being traced by tf.function, innermost last (empty in eager mode).
graph_stack = []


def executing_eagerly():
    """True outside a `tf.function` trace, as `tf.executing_eagerly()`."""
    return not graph_stack
