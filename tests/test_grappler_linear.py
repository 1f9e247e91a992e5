"""Tracing and optimizing grow linearly with the graph (issue 18): checked by counting
work, not by timing, so a quadratic step fails here on any machine.

Two counts: grappler's own `WORK` counter (graphs built, nodes copied, shared and
visited) and the number of Python function calls (a `sys.setprofile` hook) made by
tracing, optimizing and planning a chain; doubling the chain may at most (about)
double them. Times are in benchmarks/first_call.py.
"""
import sys

import numpy as np
import pytest

import minitf as tf
from minitf import grappler
from minitf.framework.executor import compile_graph, run
from minitf.grappler.common_subexpression import eliminate_common_subexpressions
from minitf.grappler.constant_folding import fold_constants
from minitf.grappler.rewrite import WORK

SPEC = tf.TensorSpec([4, 4], tf.float32)
W = np.linspace(-0.5, 0.5, 16, dtype=np.float32).reshape(4, 4)


def elementwise(n):
    def chain(x):
        for _ in range(n):
            x = x * 1.0001 + 0.5
        return x
    return chain


def mixed(n):
    def chain(x):
        for _ in range(n):  # every pass has work: remapping, reshapes, folding, fusion
            y = tf.nn.relu(tf.matmul(x, W) + tf.constant([0.1, -0.1, 0.2, 0.0]))
            y = tf.reshape(tf.reshape(y, [16]), [4, 4])
            s = tf.reduce_sum(y)
            x = y * (tf.constant(2.0) * 0.25) + s * 0.001
        return x
    return chain


def gradient(n):
    def chain(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(n):
                y = tf.tanh(y * 1.0001 + 0.5)
            total = tf.reduce_sum(y)
        return tape.gradient(total, x)
    return chain


def conditional(n):
    def chain(x):
        for _ in range(n):  # a tf.cond per link: two branch graphs each, optimized too
            x = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 0.5, lambda: x + 1.0)
        return x
    return chain


CHAINS = {"elementwise": elementwise, "mixed": mixed, "gradient": gradient}


def trace(make, n):
    return tf.function(make(n)).get_concrete_function(SPEC).graph


def work(graph):
    WORK.clear()
    grappler.optimize(graph)
    return dict(WORK)


@pytest.mark.parametrize("kind", sorted(CHAINS))
def test_grappler_work_is_linear(kind):
    small, big = trace(CHAINS[kind], 60), trace(CHAINS[kind], 120)
    assert len(big.nodes) > 1.9 * len(small.nodes)
    a, b = work(small), work(big)
    assert a["graphs"] == b["graphs"]  # as many passes at any size
    for key in ("copied", "shared", "visited"):
        assert b.get(key, 0) <= 2.2 * a.get(key, 0) + 4, (key, a, b)
    # A pass copies only what it changes and what reads it: far fewer copies than
    # passes x nodes (each pass used to copy the whole graph).
    assert a["copied"] <= 4 * len(small.nodes) < a["graphs"] * len(small.nodes), a


def test_a_pass_that_changes_nothing_copies_nothing():
    graph = trace(elementwise, 3)
    merged, _ = eliminate_common_subexpressions(graph)  # merges the repeated constants
    WORK.clear()
    folded, report = fold_constants(merged)  # nothing to fold
    assert report == [] and WORK["copied"] == 0 and WORK["shared"] == len(merged.nodes)
    assert folded is not merged and all(a is b for a, b in zip(folded.nodes, merged.nodes))
    assert str(folded) == str(merged)


def test_rewired_nodes_are_copied_with_their_device():
    @tf.function
    def f(x):
        with tf.device("/CPU:0"):
            return (x + 1.0) * 2.0 + (x + 1.0)

    graph = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    merged, report = eliminate_common_subexpressions(graph)
    assert report[-1] == "merged AddV2_1 into AddV2: both are AddV2(x, 1.0)"
    old = {n.name: n for n in graph.nodes}
    last = merged.nodes[-1]  # the final AddV2 now reads the first AddV2: a copy
    assert last is not old[last.name] and last.inputs[1] is old["AddV2"].outputs[0]
    assert all(n.device == old[n.name].device for n in merged.nodes)
    assert last.device.endswith("CPU:0")
    x = np.array([1.0, -2.0], np.float32)
    np.testing.assert_array_equal(run(compile_graph(merged), [x])[0], (x + 1) * 2 + (x + 1))


def count_calls(fn):
    """How many Python function calls `fn()` makes (generator resumptions included)."""
    calls = [0]

    def profile(frame, event, arg):
        if event == "call":
            calls[0] += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls[0]


def first_call_work(make, n):
    """Trace, optimize and plan, as a tf.function's first call does."""
    function = tf.function(make(n))

    def first():
        graph = function.get_concrete_function(SPEC).graph
        compile_graph(grappler.optimize(graph)[0])

    return count_calls(first)


@pytest.mark.parametrize("kind", sorted(CHAINS) + ["conditional"])
def test_first_call_python_calls_grow_linearly(kind):
    make = CHAINS.get(kind, conditional)
    first_call_work(make, 2)  # imports, AutoGraph and caches warmed
    small, big = first_call_work(make, 100), first_call_work(make, 200)
    assert big <= 2.1 * small, (small, big)
