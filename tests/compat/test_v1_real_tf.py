"""The TF1 programs of v1_programs.py give the same results under minitf as under real
TF 2.21's tf.compat.v1: numbers, names, fetch structures, error classes and texts
(TF wraps a run's error in "Graph execution error: ... Detected at node ..."; minitf's
first line must appear in TF's text). All programs run in ONE real-TF subprocess."""
import numpy as np
import pytest

import minitf as tf
import v1_programs
from real_tf import run_tf_json


@pytest.fixture(scope="module")
def real_tf_results():
    return run_tf_json(v1_programs.tf_source())


def _same(mine, theirs, where):
    if isinstance(theirs, dict):
        assert sorted(mine) == sorted(theirs), where
        for key in theirs:
            _same(mine[key], theirs[key], f"{where}.{key}")
    elif isinstance(theirs, list) and len(theirs) == 2 and isinstance(theirs[0], str) \
            and theirs[0].endswith(("Error", "Exception")):  # [error class, message]
        assert mine[0] == theirs[0], where
        first = mine[1].split("\n")[0]
        assert first in theirs[1] or theirs[1] in mine[1], (where, mine[1], theirs[1])
    elif isinstance(theirs, list):
        assert isinstance(mine, list) and len(mine) == len(theirs), (where, mine, theirs)
        for i, (a, b) in enumerate(zip(mine, theirs)):
            _same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, float):
        np.testing.assert_allclose(mine, theirs, rtol=2e-6, err_msg=where)
    else:
        assert mine == theirs, (where, mine, theirs)


@pytest.mark.parametrize("name", sorted(v1_programs.PROGRAMS))
def test_program_equals_real_tf(real_tf_results, name):
    _same(v1_programs.run(name, tf, np), real_tf_results[name], name)
