"""Tapes, traced graphs and name scopes belong to one thread, as in TensorFlow.

A tf.data worker thread running eager ops while the main thread traces a
tf.function must not add nodes to that graph, nor be recorded by its tapes.
"""
import threading

import minitf as tf
from minitf.framework import context


def _in_thread(fn):
    result = []
    thread = threading.Thread(target=lambda: result.append(fn()))
    thread.start()
    thread.join(10)
    return result[0]


def test_eager_ops_in_another_thread_while_tracing():
    seen = {}

    @tf.function
    def f(x):
        seen["worker"] = _in_thread(lambda: (tf.executing_eagerly(),
                                             (tf.constant(2.0) * 3.0).numpy()))
        seen["main"] = tf.executing_eagerly()
        return x + 1.0

    assert f(tf.constant(1.0)).numpy() == 2.0
    assert seen == {"worker": (True, 6.0), "main": False}
    graph = f.get_concrete_function(tf.constant(1.0)).graph
    ops = [node.op.name for node in graph.nodes if node.op.name != "Placeholder"]
    assert ops == ["Const", "AddV2"]  # x + 1.0 only: nothing from the worker


def test_tape_does_not_record_other_threads():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * x
        worker_ops = _in_thread(lambda: (x * 10.0).numpy())
        assert len(tape.recorded_operations()) == 2  # the read and the Mul of this thread
    assert worker_ops == 30.0
    assert tape.gradient(y, x).numpy() == 6.0


def test_tape_in_a_worker_thread_records_its_own_ops():
    def worker():
        v = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            y = v * v * v
        return tape.gradient(y, v).numpy()

    assert _in_thread(worker) == 12.0


def test_stacks_are_empty_in_a_new_thread_and_the_count_returns_to_zero():
    with tf.GradientTape():
        assert len(context.tape_stack) == 1
        assert _in_thread(lambda: (len(context.tape_stack), len(context.graph_stack))) == (0, 0)
        assert context.active >= 1
    assert context.active == 0


def test_stack_view_supports_list_operations():
    stack = context.graph_stack
    stack.append("g1")
    stack.append("g2")
    assert list(stack) == ["g1", "g2"] and stack[-1] == "g2" and "g1" in stack
    saved = list(stack)
    stack[:] = []
    assert not stack and context.active == 0
    stack[:] = saved
    assert context.active == 2
    del stack[-2:]
    assert len(stack) == 0 and context.active == 0
