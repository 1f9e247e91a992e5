"""Every case of backend_cases.py in minitf and in real TF 2.21 (one subprocess).

Same values, dtypes and shapes; an error in TF fails the case.
"""
import json
import os
import sys

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

sys.path.insert(0, os.path.dirname(__file__))
from backend_cases import CASES  # noqa: E402

backend = tf.keras.backend

TF_SCRIPT = """
import json, numpy as np, tensorflow as tf
backend = tf.keras.backend
def describe(v):
    if isinstance(v, (list, tuple)):
        return [describe(e) for e in v]
    if hasattr(v, "numpy"):
        v = v.numpy()
    a = np.asarray(v)
    return {"value": a.astype(float).tolist() if a.dtype != object else str(a),
            "dtype": a.dtype.name, "shape": list(a.shape)}
out = {}
for name, code in json.loads(%r).items():
    try:
        out[name] = describe(eval(code))
    except Exception as e:
        out[name] = {"error": type(e).__name__}
print(json.dumps(out))
"""


def describe(v):
    if isinstance(v, (list, tuple)):
        return [describe(e) for e in v]
    if hasattr(v, "numpy"):
        v = v.numpy()
    a = np.asarray(v)
    return {"value": a.astype(float).tolist(), "dtype": a.dtype.name, "shape": list(a.shape)}


@pytest.fixture(scope="module")
def real():
    require_tf()
    return run_tf_json(TF_SCRIPT % json.dumps(CASES))


def assert_same(ours, theirs, name):
    if isinstance(theirs, list):
        assert len(ours) == len(theirs), name
        for o, t in zip(ours, theirs):
            assert_same(o, t, name)
        return
    assert "error" not in theirs, (name, theirs)
    assert ours["dtype"] == theirs["dtype"], (name, ours["dtype"], theirs["dtype"])
    assert ours["shape"] == theirs["shape"], (name, ours["shape"], theirs["shape"])
    np.testing.assert_allclose(ours["value"], theirs["value"], rtol=1e-5, atol=1e-6,
                               err_msg=name)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_real_tf(name, real):
    ours = describe(eval(CASES[name], {"backend": backend, "tf": tf, "np": np}))
    assert_same(ours, real[name], name)
