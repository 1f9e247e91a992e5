"""Lesson 25 (metrics and summaries): checks for the three exercises.

Each check runs the learner's code on data of its own (batches of other
sizes, other errors, another folder and curve), so a value copied from the
lesson fails.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
"""
import os
import tempfile

import numpy as np

import minitf as tf
from widgets.exercises import (MISSING_RETURN, NOT_ATTEMPTED, Exercise, outcome, same,
                               unattempted)

# --- Exercise 1: one metric over batches of different sizes --------------------------


def _accuracy_batches():
    rng = np.random.default_rng(2525)
    batches = []
    for size in (7, 2, 5, 1):
        y_true = (rng.random((size, 1)) < 0.5).astype(np.float32)
        y_pred = rng.random((size, 1)).astype(np.float32)
        batches.append((y_true, y_pred))
    return batches


def _correct(batch):
    y_true, y_pred = batch
    return ((y_pred > 0.5) == (y_true == 1)).astype(np.float32).ravel()


def _overall():
    return float(np.mean(np.concatenate([_correct(b) for b in _accuracy_batches()])))


def _mean_of_batch_means():
    return float(np.mean([np.mean(_correct(b)) for b in _accuracy_batches()]))


def _last_batch():
    return float(np.mean(_correct(_accuracy_batches()[-1])))


def _gives(value):
    return lambda f: same(outcome(f, _accuracy_batches()), value())


ex1 = Exercise("Exercise 1", [
    "Make one metric before the loop, give it every batch with update_state, and ask for "
    "the result once, after the loop.",
    "BinaryAccuracy keeps a running total and count: update_state(y_true, y_pred) for each "
    "batch, then result().",
], mistakes=[
    (_gives(_mean_of_batch_means), "That is the mean of the batch accuracies: batches of "
                                   "different sizes then weigh the same. Let one metric "
                                   "accumulate every batch instead."),
    (_gives(_last_batch), "That is the last batch's accuracy only: is the metric made (or "
                          "reset) inside the loop?"),
])


def check_ex1(epoch_accuracy):
    """epoch_accuracy(batches) must give the accuracy over all examples of fresh batches
    (four batches of 7, 2, 5 and 1 examples)."""
    if unattempted(epoch_accuracy):
        print(NOT_ATTEMPTED)
        return
    if not callable(epoch_accuracy):
        ex1.verdict(epoch_accuracy, f"The answer is a {type(epoch_accuracy).__name__}, but a "
                                    "function is expected.")
        return
    result = outcome(epoch_accuracy, _accuracy_batches())
    if isinstance(result, Exception):
        ex1.verdict(epoch_accuracy, f"Called with four batches, your function raised "
                                    f"{type(result).__name__}: {str(result)[:300]}")
    elif result is None or result is Ellipsis:
        ex1.verdict(epoch_accuracy, f"Your function returned {result}" + MISSING_RETURN)
    else:
        wrong = not same(result, _overall())
        ex1.verdict(epoch_accuracy,
                    f"The result {_shown(result)} is not right." if wrong else None)


def _shown(result):
    try:
        return f"{float(result):.4f}"
    except Exception:  # noqa: BLE001 - any answer may come back
        return repr(result)[:100]


# --- Exercise 2: a metric class with add_weight --------------------------------------

_ERROR_BATCHES = [([1.0, 2.0, 3.0], [1.5, 2.0, 2.0]),      # largest 1.0
                  ([0.0, 4.0], [0.25, 1.5]),               # largest 2.5
                  ([2.0], [1.5])]                          # largest 0.5


def _run_metric(metric_class):
    """[(result after each update), result after reset, number of variables]."""
    metric = metric_class()
    results = []
    for y_true, y_pred in _ERROR_BATCHES:
        metric.update_state(tf.constant(y_true), tf.constant(y_pred))
        results.append(float(metric.result()))
    metric.reset_state()
    return results, float(metric.result()), len(metric.variables)


def _expected_run():
    running, largest = [], 0.0
    for y_true, y_pred in _ERROR_BATCHES:
        largest = max(largest, float(np.max(np.abs(np.subtract(y_true, y_pred)))))
        running.append(largest)
    return running


def _describe(run):
    if isinstance(run, Exception):
        return f"Using the class raised {type(run).__name__}: {str(run)[:300]}"
    results, after_reset, n_variables = run
    expected = _expected_run()
    if not all(same(got, want) for got, want in zip(results, expected)):
        return (f"After three batches the results were {[round(r, 4) for r in results]}, "
                "which is not right.")
    if n_variables == 0:
        return "The metric has no state variables: make the state with add_weight."
    if not same(after_reset, 0.0):
        return f"After reset_state() the result is {after_reset}, not 0.0."
    return None


def _per_batch_only(metric_class):
    run = outcome(_run_metric, metric_class)
    if isinstance(run, Exception):
        return False
    largest_each = [float(np.max(np.abs(np.subtract(t, p)))) for t, p in _ERROR_BATCHES]
    return all(same(got, want) for got, want in zip(run[0], largest_each))


def _python_state(metric_class):
    run = outcome(_run_metric, metric_class)
    return not isinstance(run, Exception) and run[2] == 0


ex2 = Exercise("Exercise 2", [
    "Three methods: __init__ (call super().__init__, then make the state), update_state, "
    "result.",
    "self.largest = self.add_weight(name=..., initializer='zeros'); in update_state, assign "
    "it tf.maximum of itself and this batch's largest error; result returns it.",
], mistakes=[
    (_per_batch_only, "Each result is only its batch's largest error: combine it with the "
                      "state (tf.maximum of the old and the new)."),
    (_python_state, "The state is not a variable made with add_weight, so Keras cannot reset "
                    "or save it."),
])


def check_ex2(metric_class):
    """MaxAbsoluteError must track the largest error over fresh batches, and reset to 0."""
    if unattempted(metric_class):
        print(NOT_ATTEMPTED)
        return
    if not isinstance(metric_class, type):
        ex2.verdict(metric_class, f"The answer is a {type(metric_class).__name__}; the class "
                                  "itself (MaxAbsoluteError, not an instance) is expected.")
        return
    if "update_state" not in vars(metric_class) and "result" not in vars(metric_class):
        print(NOT_ATTEMPTED)
        return
    ex2.verdict(metric_class, _describe(outcome(_run_metric, metric_class)))


# --- Exercise 3: a scalar curve in a log ---------------------------------------------


def _curve():
    rng = np.random.default_rng(2526)
    return [round(float(v), 3) for v in np.sort(rng.random(6))[::-1]]


def _logged(log_curve, values):
    """(what log_curve raised or returned, the curves read back from its folder)."""
    from widgets.tensorboard_reader import read_scalars
    with tempfile.TemporaryDirectory() as folder:
        logdir = os.path.join(folder, "run")
        os.makedirs(logdir)
        returned = outcome(log_curve, logdir, values)
        curves = outcome(read_scalars, logdir)
    return returned, curves


def _verdict_on_log(returned, curves, values):
    if isinstance(returned, ValueError) and "step" in str(returned):
        return "hint:step", f"Writing raised ValueError: {str(returned)[:200]}"
    if isinstance(returned, Exception):
        return None, f"Your function raised {type(returned).__name__}: {str(returned)[:300]}"
    if isinstance(curves, Exception):
        return None, f"The log could not be read: {type(curves).__name__}: {curves}"
    found = {tag: curve for run in curves.values() for tag, curve in run.items()}
    if not found:
        return "hint:writer", "Nothing was written to the folder."
    if "loss" not in found:
        return None, f"The log has the tags {sorted(found)}, but no 'loss'."
    steps, logged = found["loss"]
    if steps == list(range(1, len(values) + 1)):
        return "hint:from_one", f"The steps are {steps}: they should start at 0."
    if steps != list(range(len(values))) or not same(logged, values, rtol=1e-6):
        return None, (f"The log holds {len(steps)} points at steps {steps}, not the "
                      f"{len(values)} values at steps 0, 1, ....")
    return None, None


def _category(log_curve):
    """The targeted mistake a log_curve makes ("step", "writer", "from_one") or None."""
    logged = outcome(_logged, log_curve, _curve())
    if isinstance(logged, Exception):
        return None
    return _verdict_on_log(*logged, _curve())[0]


ex3 = Exercise("Exercise 3", [
    "Make a writer for logdir, make it the default, and write each value with its step.",
    "tf.summary.create_file_writer(logdir); inside `with writer.as_default():` loop with "
    "enumerate(values) and call tf.summary.scalar('loss', value, step=step).",
], mistakes=[
    (lambda f: _category(f) == "hint:step",
     "Every summary needs a step: pass step= to tf.summary.scalar (or "
     "writer.as_default(step=...))."),
    (lambda f: _category(f) == "hint:writer",
     "Summaries are written only inside `with writer.as_default():`, for a writer made "
     "with tf.summary.create_file_writer(logdir)."),
    (lambda f: _category(f) == "hint:from_one",
     "enumerate(values) counts from 0, as the exercise asks."),
])


def check_ex3(log_curve):
    """log_curve(logdir, values) must log fresh values at steps 0, 1, ... in a fresh
    folder."""
    if unattempted(log_curve):
        print(NOT_ATTEMPTED)
        return
    if not callable(log_curve):
        ex3.verdict(log_curve, f"The answer is a {type(log_curve).__name__}, but a function "
                               "is expected.")
        return
    values = _curve()
    logged = outcome(_logged, log_curve, values)
    if isinstance(logged, Exception):
        problem = f"The log could not be checked: {type(logged).__name__}: {logged}"
    else:
        problem = _verdict_on_log(*logged, values)[1]
    ex3.verdict(log_curve, problem)


EXERCISES = [ex1, ex2, ex3]
