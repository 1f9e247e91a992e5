"""Lesson 16 (eager vs graph): checks for the three exercises.

>>> check_ex1(["constant_folding", "elementwise_fusion", "pruning"])
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, unattempted


def _passes(graph, options=None):
    return sorted({name for name, _, _ in tf.grappler.optimize(graph, options)[1].steps})


def _shifted_tanh_passes():
    @tf.function
    def shifted_tanh(t):
        unused = tf.exp(t)  # noqa: F841 - dead on purpose: the exercise's pruning
        half = tf.constant(3.0) / 2.0
        return tf.tanh(t * half) + 1.0

    return _passes(shifted_tanh.get_concrete_function(tf.TensorSpec([5], tf.float32)).graph)


def _as_sorted(answer):
    if isinstance(answer, (list, tuple, set, frozenset)):
        return sorted(str(name) for name in answer)
    return answer


def _missing(name):
    return lambda a: name in _shifted_tanh_passes() and name not in _as_sorted(a)


def _extra(name):
    return lambda a: name not in _shifted_tanh_passes() and name in _as_sorted(a)


ex1 = Exercise("Exercise 1", [
    "Ask of each pass: is there something in this graph it can remove, compute ahead, or "
    "merge?",
    "Look for a result nobody uses, an op whose inputs are all constants, and a chain of "
    "element-wise ops; a MatMul or an x * 1 would call for other passes.",
], mistakes=[
    (_missing("pruning"), "`unused` is computed and never returned: a pass removes it."),
    (_missing("constant_folding"), "3.0 / 2.0 has only constant inputs: a pass computes it "
                                   "once, before the graph runs."),
    (_missing("elementwise_fusion"), "Mul, Tanh and AddV2 form a chain of element-wise ops."),
    (_extra("remapping"), "Remapping fuses MatMul with what follows; there is no MatMul here."),
    (_extra("common_subgraph_elimination"), "No computation appears twice here."),
    (_extra("arithmetic_optimization"), "There is no x * 1, x + 0 or similar to simplify."),
])


def check_ex1(answer):
    """The predicted passes that change shifted_tanh's graph, in any order."""
    ex1.check(_as_sorted(answer), _shifted_tanh_passes(), show_expected=False)


ex2 = Exercise("Exercise 2", [
    "Which passes fuse ops? Those are the ones to switch off; the others may stay on.",
    "The options dict maps a pass's name to False to switch it off: the MatMul fusion is "
    "remapping, and the element-wise one elementwise_fusion.",
], mistakes=[
    (lambda o: isinstance(o, dict) and o.get("remapping", True), "_FusedMatMul comes from "
                                                                 "remapping: switch it off."),
    (lambda o: isinstance(o, dict) and o.get("elementwise_fusion", True),
     "The fused element-wise nodes come from elementwise_fusion: switch it off."),
    (lambda o: isinstance(o, dict) and (o.get("disable_model_pruning") is True
                                        or o.get("constant_folding") is False),
     "Pruning and constant folding should still change the graph: leave them on."),
])


def check_ex2(options, score_graph):
    """Run the optimizer on score's graph with the learner's options (without changing the
    global settings): only pruning and constant folding may change it."""
    if unattempted(options):
        print(NOT_ATTEMPTED)
        return
    if not isinstance(options, dict):
        ex2.verdict(options, f"The answer is a {type(options).__name__}, but a dict of option "
                             "names to True/False is expected.")
        return
    try:
        changed = _passes(score_graph, options)
    except Exception as exc:  # noqa: BLE001 - an unknown option name, for one
        ex2.verdict(options, f"The optimizer refused these options: {type(exc).__name__}: {exc}")
        return
    want = ["constant_folding", "pruning"]
    ex2.verdict(options, None if changed == want else
                f"With these options the passes that change the graph are {changed}.")


def _scale_reference(batch):
    values = batch.numpy()
    low, high = values.min(axis=0), values.max(axis=0)
    return tf.constant((values - low) / (high - low))


def _batches():
    rng = np.random.default_rng(1616)
    return [tf.constant((rng.normal(size=(5, 3)) * [1.0, 10.0, 100.0]).astype(np.float32)),
            tf.constant([[0.0, 10.0], [4.0, 20.0], [1.0, 30.0]], tf.float32)]


ex3 = Exercise("Exercise 3", [
    "Print the shapes of low and high inside the function (eagerly): one value per row, or "
    "one per column?",
    "Per column means reducing over the rows, axis 0; keepdims=True (or not) both broadcast "
    "against the batch.",
], mistakes=[
    (lambda f: tuple(f(_batches()[1]).numpy()[:, 0]) == (0.0, 0.0, 0.0), "Still per row: "
                                                                         "axis=1 reduces each "
                                                                         "row."),
])


def check_ex3(fixed_scale_columns):
    """fixed_scale_columns(batch), a tf.function, on batches the lesson never showed."""
    if callable(fixed_scale_columns) and not hasattr(fixed_scale_columns,
                                                     "get_concrete_function"):
        ex3.verdict(fixed_scale_columns, "fixed_scale_columns is a plain Python function: "
                                         "decorate it with @tf.function.")
        return
    ex3.check_function(fixed_scale_columns, _scale_reference, _batches())


EXERCISES = [ex1, ex2, ex3]
