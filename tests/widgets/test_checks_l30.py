"""Lesson 30's exercise checks: unattempted, typical wrong answers, right answers."""
import json

import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l30, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l30.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


def todo(*args):
    ...


@pytest.mark.parametrize("check,answers", [
    (l30.check_ex1, [..., None, todo]),
    (l30.check_ex2, [..., None, todo]),
    (l30.check_ex3, [..., None, {key: ... for key in l30._EXPECTED_3}])])
def test_unattempted(check, answers, verdict):
    for answer in answers:
        assert verdict(check, answer) == NOT_ATTEMPTED + "\n"


# --- Exercise 1 ---------------------------------------------------------------------

@pytest.mark.parametrize("answer", [
    lambda strategy, per_replica: per_replica * strategy.num_replicas_in_sync,
    lambda strategy, per_replica: len(strategy.extended.worker_devices) * per_replica,
    lambda strategy, per_replica: np.int64(per_replica * strategy.num_replicas_in_sync),
])
def test_ex1_right(answer, verdict):
    assert verdict(l30.check_ex1, answer) == "✓ Exercise 1: correct.\n"


@pytest.mark.parametrize("answer,hint", [
    (lambda strategy, per_replica: per_replica, "one replica's batch"),
    (lambda strategy, per_replica: per_replica // strategy.num_replicas_in_sync, "Dividing"),
    (lambda strategy, per_replica: 2 * per_replica, "lesson's two replicas"),
    (lambda strategy, per_replica: 64, "The dataset's batch is the global batch"),  # hard-coded
])
def test_ex1_wrong(answer, hint, verdict):
    out = verdict(l30.check_ex1, answer)
    assert out.startswith("✗ Exercise 1:") and hint in out


def test_ex1_errors_and_non_functions(verdict):
    def broken(strategy, per_replica):
        return strategy.num_workers * per_replica
    assert "raised AttributeError" in verdict(l30.check_ex1, broken)
    assert "a function is expected" in verdict(l30.check_ex1, 64)

    def no_return(strategy, per_replica):
        per_replica * strategy.num_replicas_in_sync
    assert "`return` missing" in verdict(l30.check_ex1, no_return)


# --- Exercise 2 ---------------------------------------------------------------------

@pytest.mark.parametrize("answer", [
    lambda rows: json.dumps({"signature_name": "serving_default", "instances": rows}),
    lambda rows: json.dumps({"instances": rows}),
    lambda rows: json.dumps({"instances": np.asarray(rows).tolist()}).encode(),
    lambda rows: json.dumps({"instances": [list(map(float, r)) for r in rows]}, indent=2),
])
def test_ex2_right(answer, verdict):
    assert verdict(l30.check_ex2, answer) == "✓ Exercise 2: correct.\n"


@pytest.mark.parametrize("answer,hint", [
    (lambda rows: {"instances": rows}, "json.dumps"),
    (lambda rows: json.dumps({"instances": np.array(rows)}), ".tolist()"),
    (lambda rows: json.dumps({"inputs": rows}), "column form"),
    (lambda rows: json.dumps({"signature_name": "serve", "instances": rows}),
     "\"serve\" is the endpoint"),
    (lambda rows: json.dumps({"instances": rows[0]}), "The body is a JSON object"),
    (lambda rows: json.dumps({"instances": [[0.1, 0.2, 0.3]]}), "The body is a JSON object"),
    (lambda rows: json.dumps({"instance": rows}), "The body is a JSON object"),
])
def test_ex2_wrong(answer, hint, verdict):
    out = verdict(l30.check_ex2, answer)
    assert out.startswith("✗ Exercise 2:") and hint in out


def test_ex2_problems_are_named(verdict):
    assert "not valid JSON" in verdict(l30.check_ex2, lambda rows: "instances: rows")
    assert "both" in verdict(l30.check_ex2,
                             lambda rows: json.dumps({"instances": rows, "inputs": rows}))
    assert "raised ZeroDivisionError" in verdict(l30.check_ex2, lambda rows: 1 / 0)
    assert "a function is expected" in verdict(l30.check_ex2, '{"instances": []}')


# --- Exercise 3 ---------------------------------------------------------------------

def right(**changes):
    answer = dict(l30._EXPECTED_3)
    answer.update(changes)
    return answer


ONE, MULTI, TPU = list(l30._EXPECTED_3)


@pytest.mark.parametrize("answer", [
    right(),
    {ONE: tf.distribute.MirroredStrategy, MULTI: tf.distribute.MultiWorkerMirroredStrategy,
     TPU: tf.distribute.TPUStrategy},
    {ONE: "tf.distribute.MirroredStrategy", MULTI: " MultiWorkerMirroredStrategy",
     TPU: "tf.distribute.TPUStrategy()"},
])
def test_ex3_right(answer, verdict):
    assert verdict(l30.check_ex3, answer) == "✓ Exercise 3: correct.\n"


@pytest.mark.parametrize("answer,hint", [
    (right(**{MULTI: "MirroredStrategy"}), "eight machines"),
    (right(**{ONE: "MultiWorkerMirroredStrategy"}), "One machine is one worker"),
    (right(**{ONE: "OneDeviceStrategy"}), "three of the four GPUs"),
    (right(**{TPU: "MirroredStrategy"}), "Ask two questions"),
    (right(**{TPU: ...}), "Ask two questions"),
])
def test_ex3_wrong(answer, hint, verdict):
    out = verdict(l30.check_ex3, answer)
    assert out.startswith("✗ Exercise 3:") and hint in out


def test_ex3_shape_of_the_answer(verdict):
    assert "keep the dictionary" in verdict(l30.check_ex3, "MirroredStrategy")
    assert "has no key" in verdict(l30.check_ex3, {ONE: "MirroredStrategy"})
