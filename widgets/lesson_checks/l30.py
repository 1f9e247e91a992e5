"""Lesson 30 (devices and deployment): checks for the three exercises.

Exercise 1 calls the learner's function with strategies of other sizes than
the lesson's; exercise 2 reads the learner's request body as a model server
would (TF Serving's REST API), for rows of its own; exercise 3 compares
strategy names.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex3({"a Cloud TPU": ...})
… Not attempted yet: replace the `...` with your answer and run the cell again.
"""
import json
import types

import numpy as np

import minitf as tf
from widgets.exercises import (MISSING_RETURN, NOT_ATTEMPTED, Exercise, outcome, same,
                               unattempted)

# --- Exercise 1: the global batch for a per-replica batch ----------------------------


class _Strategy:
    """Stands in for a strategy with `replicas` replicas (what the exercise may read)."""

    def __init__(self, replicas):
        self.num_replicas_in_sync = replicas
        devices = tuple(f"/job:localhost/replica:0/task:0/device:GPU:{i}" for i in range(replicas))
        self.extended = types.SimpleNamespace(worker_devices=devices)

    def __repr__(self):
        return f"<a strategy with {self.num_replicas_in_sync} replicas>"


_CASES_1 = [(3, 32), (4, 10), (1, 64), (8, 6)]


def _gives(rule):
    def test(function):
        return all(same(outcome(function, _Strategy(n), rows), rule(n, rows))
                   for n, rows in _CASES_1 if rule(n, rows) != n * rows)
    return test


ex1 = Exercise("Exercise 1", [
    "The dataset's batch is the global batch; the strategy cuts it into one shard per "
    "replica.",
    "strategy.num_replicas_in_sync is the number of replicas: every one of them gets "
    "per_replica rows.",
], mistakes=[
    (_gives(lambda n, rows: rows), "That is one replica's batch: the global batch feeds all "
                                   "the replicas together."),
    (_gives(lambda n, rows: rows // n), "Dividing gives each replica's share of a global "
                                        "batch; here the share is known and the global "
                                        "batch is asked."),
    (_gives(lambda n, rows: 2 * rows), "That is right for the lesson's two replicas only: "
                                       "read the number from the strategy."),
])


def check_ex1(global_batch_size):
    """global_batch_size(strategy, per_replica) must be per_replica times the replicas, for
    strategies of 3, 4, 1 and 8 replicas."""
    ex1.check_callable(global_batch_size, _first_wrong_case)


def _first_wrong_case(function):
    for replicas, rows in _CASES_1:
        strategy = _Strategy(replicas)
        got = outcome(function, strategy, rows)
        call = f"global_batch_size({strategy}, {rows})"
        if isinstance(got, Exception):
            return f"{call} raised {type(got).__name__}: {str(got)[:300]}"
        if got is None:
            return f"{call} returned None" + MISSING_RETURN
        if not same(got, replicas * rows) or isinstance(got, bool):
            return f"{call} returned {str(got)[:100]}, which is not right."
    return None


# --- Exercise 2: the body of a predict request -----------------------------------------


def _rows():
    rng = np.random.default_rng(3030)
    return np.round(rng.normal(size=(4, 3)), 2).tolist()


def _parsed(predict_body):
    body = predict_body(_rows())
    if isinstance(body, bytes):
        body = body.decode("utf-8")
    return json.loads(body)


ex2 = Exercise("Exercise 2", [
    "The body is a JSON object; in the row form its key is \"instances\", with one entry "
    "per example.",
    "json.dumps turns a dict into JSON text: {\"signature_name\": \"serving_default\", "
    "\"instances\": rows}.",
], mistakes=[
    (lambda f: isinstance(outcome(f, _rows()), dict),
     "That is a Python dict: the request body is text. Turn it into JSON with json.dumps."),
    (lambda f: "not JSON serializable" in str(outcome(f, _rows())),
     "json.dumps cannot write a NumPy array or tensor: turn it into lists with .tolist() "
     "first."),
    (lambda f: "inputs" in _parsed(f),
     "\"inputs\" is the column form; the exercise asks for the row form."),
    (lambda f: _parsed(f).get("signature_name", "serving_default") != "serving_default",
     "The signature is named \"serving_default\" (\"serve\" is the endpoint you call in "
     "Python, not a signature)."),
])


def check_ex2(predict_body):
    """predict_body(rows) must give JSON text with the rows under "instances" (and, if
    named, the signature serving_default), for rows the lesson never showed."""
    ex2.check_callable(predict_body, lambda f: _body_problem(outcome(f, _rows())))


def _body_problem(body):
    if isinstance(body, Exception):
        return f"Called with four rows, your function raised {type(body).__name__}: " \
               f"{str(body)[:300]}"
    if body is None:
        return "Your function returned None" + MISSING_RETURN
    if isinstance(body, bytes):
        body = outcome(bytes.decode, body, "utf-8")
    if not isinstance(body, str):
        return f"The body is a {type(body).__name__}, but JSON text (a str) is expected."
    parsed = outcome(json.loads, body)
    if isinstance(parsed, Exception):
        return f"The body is not valid JSON: {str(parsed)[:200]}"
    if not isinstance(parsed, dict) or "instances" not in parsed:
        return f"The body {body[:120]!r} has no \"instances\" key."
    if "inputs" in parsed:
        return "The body has both \"instances\" and \"inputs\": a server refuses it."
    name = parsed.get("signature_name", "serving_default")
    if name != "serving_default":
        return f"A server would look for a signature named {name!r}, which the model lacks."
    instances = parsed["instances"]
    if not isinstance(instances, list) or not same(instances, _rows()):
        return (f"\"instances\" holds {json.dumps(instances)[:120]}, not the "
                f"{len(_rows())} rows the check passed, one entry per row.")
    return None


# --- Exercise 3: which strategy for which hardware -------------------------------------

_EXPECTED_3 = {
    "one machine with 4 GPUs": "MirroredStrategy",
    "8 machines with 2 GPUs each, training together": "MultiWorkerMirroredStrategy",
    "a Cloud TPU": "TPUStrategy",
}


def _name(value):
    """A strategy's class name from a string ("tf.distribute.X" allowed) or the class."""
    if isinstance(value, str):
        return value.strip().rsplit(".", 1)[-1].removesuffix("()")
    if isinstance(value, type):
        return value.__name__
    return type(value).__name__


def _picked(answer, setup, name):
    return isinstance(answer, dict) and _name(answer.get(setup)) == name


ex3 = Exercise("Exercise 3", [
    "Ask two questions of each setup: how many machines, and which kind of device?",
    "One machine, several devices: MirroredStrategy. Several machines: its multi-worker "
    "version. TPUs have a strategy of their own.",
], mistakes=[
    (lambda a: _picked(a, "8 machines with 2 GPUs each, training together",
                       "MirroredStrategy"),
     "MirroredStrategy only sees the devices of the machine it runs on; eight machines "
     "need the multi-worker version."),
    (lambda a: _picked(a, "one machine with 4 GPUs", "MultiWorkerMirroredStrategy"),
     "One machine is one worker: MirroredStrategy is enough, and needs no TF_CONFIG."),
    (lambda a: _picked(a, "one machine with 4 GPUs", "OneDeviceStrategy"),
     "OneDeviceStrategy uses a single device: three of the four GPUs would sit idle."),
])


def check_ex3(answer):
    """answer maps each of the three setups to a strategy's class name (or the class)."""
    if unattempted(answer) or (isinstance(answer, dict) and answer
                               and all(v is Ellipsis for v in answer.values())):
        print(NOT_ATTEMPTED)
        return
    if not isinstance(answer, dict):
        ex3.verdict(answer, f"The answer is a {type(answer).__name__}; keep the dictionary "
                            "and fill in its values.")
        return
    missing = [setup for setup in _EXPECTED_3 if setup not in answer]
    if missing:
        ex3.verdict(answer, f"The dictionary has no key {missing[0]!r}: keep the three keys "
                            "as given.")
        return
    wrong = [setup for setup, name in _EXPECTED_3.items() if _name(answer[setup]) != name]
    ex3.verdict(answer, f"{len(wrong)} of the 3 setups have the wrong strategy (first: "
                        f"{wrong[0]!r})." if wrong else None)


EXERCISES = [ex1, ex2, ex3]
