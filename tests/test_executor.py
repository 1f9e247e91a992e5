"""The executor's plan: steps in graph order, and intermediates dropped after their last use."""
import weakref

import numpy as np

import minitf as tf
from minitf.framework.executor import compile_graph, run


def test_intermediates_are_released_after_their_last_reader():
    @tf.function
    def f(x):
        a = x * 2.0
        b = a + 1.0
        return b * a, b

    graph = f.get_concrete_function(tf.TensorSpec([3], tf.float32)).graph
    plan = compile_graph(graph)
    slot_of = {step[5].name: step[4][0] for step in plan.steps}
    drops = {step[5].name: step[6] for step in plan.steps}
    # `a` (Mul) is read last by Mul_1; `b` (AddV2) is returned, so it is never dropped.
    assert drops == {"Mul": (), "AddV2": (), "Mul_1": (slot_of["Mul"],)}
    assert all(slot_of["AddV2"] not in d for d in drops.values())
    out = run(plan, [np.array([1.0, 2.0, 3.0], np.float32)])
    np.testing.assert_array_equal(out[0], [6.0, 20.0, 42.0])
    np.testing.assert_array_equal(out[1], [3.0, 5.0, 7.0])


def test_a_dropped_array_is_freed_during_the_run():
    made = []

    def make(x):
        result = x * 2.0
        made.append(weakref.ref(result))
        return result

    def alive(y):
        return np.array(made[-1]() is not None)  # is `a`'s array still held?

    @tf.function
    def f(x):
        a = tf.numpy_function(make, [x], tf.float32)
        b = a + 1.0  # the last reader of `a`
        return tf.numpy_function(alive, [b], tf.bool), b

    held, b = f(tf.constant([1.0, 2.0]))
    assert not held.numpy()  # dropped before the graph's next step ran
    np.testing.assert_array_equal(b.numpy(), [3.0, 5.0])
