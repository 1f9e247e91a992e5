"""Lesson 15 (tf.Module): checks for the three exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, as_tuple, outcome, unattempted


def _trainable_names():
    """Build the exercise's Net and list its trainable variables' names."""
    class Norm(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            with self.name_scope:
                self.gamma = tf.Variable(1.0, name="gamma")
                self.beta = tf.Variable(0.0, name="beta")
                self.mean = tf.Variable(0.0, trainable=False, name="mean")

    class Net(tf.Module):
        def __init__(self):
            super().__init__()
            with self.name_scope:
                self.norms = [Norm(name="first"), Norm(name="second")]
                self.bias = tf.Variable(0.0, name="bias")

    return tuple(v.name for v in Net().trainable_variables)


def _names(answer):
    return [str(n) for n in as_tuple(answer)]


ex1 = Exercise("Exercise 1", [
    "Three questions: which variables are trainable, how is each named (scopes and a "
    "suffix), and in which order does a module walk its attributes?",
    "A name is the module scopes joined by /, then the variable's name and :0. The walk "
    "visits a module's attributes sorted by name, going into submodules as it meets them.",
], mistakes=[
    (lambda a: any("mean" in n for n in _names(a)), "mean was made with trainable=False."),
    (lambda a: any(not n.endswith(":0") for n in _names(a)), "A variable's name ends in :0 "
                                                             "(its first output)."),
    (lambda a: any(not n.startswith("net/") for n in _names(a)), "Every name starts with the "
                                                                 "scope of the module that "
                                                                 "made it, net/..."),
    (lambda a: sorted(_names(a)) == sorted(_trainable_names()), "The right names in another "
                                                                "order: attributes are "
                                                                "visited in name order "
                                                                "(bias before norms; beta "
                                                                "before gamma)."),
])


def check_ex1(answer):
    """The predicted [v.name for v in net.trainable_variables] (a list or a tuple)."""
    ex1.check(as_tuple(answer), _trainable_names(), show_expected=False)


def _standardize_cases():
    rng = np.random.default_rng(1515)
    return [tf.constant(rng.normal(size=(rows, 4)).astype(np.float32)) for rows in (3, 6)]


def _is_concrete(serving):
    return hasattr(serving, "structured_input_signature") and not hasattr(
        serving, "get_concrete_function")


ex2 = Exercise("Exercise 2", [
    "A concrete function is made for one input signature. Which dimension must stay open?",
    "get_concrete_function accepts a tf.TensorSpec instead of a tensor; None leaves the "
    "number of rows open.",
], mistakes=[
    (lambda s: hasattr(s, "get_concrete_function"), "That is the tf.function itself, which "
                                                    "traces on demand; export wants one "
                                                    "concrete function, from "
                                                    "get_concrete_function."),
    (lambda s: isinstance(outcome(s, _standardize_cases()[1]), Exception),
     "This concrete function only takes the shape it was traced with: trace it from a "
     "tf.TensorSpec whose number of rows is None."),
])


def check_ex2(serving, standardize):
    """serving must be a concrete function of standardize.__call__ taking any number of
    rows; it is called with 3 and 6 rows the lesson never showed."""
    if unattempted(serving):
        print(NOT_ATTEMPTED)
        return
    if not _is_concrete(serving):
        ex2.verdict(serving, f"serving is a {type(serving).__name__}, not a concrete function.")
        return
    ex2.check_function(serving, lambda x: (x - standardize.mean) / standardize.std,
                       _standardize_cases())


def _shares_variables(restored, trained):
    return bool({id(v) for v in restored.variables} & {id(v) for v in trained.variables})


ex3 = Exercise("Exercise 3", [
    "The new model starts with random weights: its variables have to take the trained "
    "values, one by one. What pairs a variable with its saved value?",
    "Loop over the new model's variables and assign each the value stored under its name in "
    "trained_state.",
], mistakes=[
    (lambda r: not hasattr(r, "variables"), "restored should be a model: make a new "
                                            "ServingMLP, then set its variables."),
])


def check_ex3(restored, trained):
    """restored must be a different model whose variables hold trained's values; both are
    called on inputs the lesson never showed."""
    if unattempted(restored):
        print(NOT_ATTEMPTED)
        return
    if restored is trained or (hasattr(restored, "variables")
                               and _shares_variables(restored, trained)):
        ex3.verdict(restored, "restored is trained itself (or shares its variables); the "
                              "exercise asks for a new ServingMLP set from trained_state.")
        return
    rng = np.random.default_rng(1516)
    cases = [tf.constant(rng.normal(size=(rows, 3)).astype(np.float32)) for rows in (1, 4)]
    ex3.check_function(restored, trained, cases)


EXERCISES = [ex1, ex2, ex3]
