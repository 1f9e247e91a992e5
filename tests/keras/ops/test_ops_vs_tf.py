"""`tf.keras.ops` against real TF 2.21's: ~480 calls, one TF subprocess, same dtype/shape/values.

The table is `op_cases.py`: each entry is an expression over fixed NumPy inputs.
It runs once under real TensorFlow (tests/real_tf.py) and once under minitf;
every entry must succeed in TF (so the table only holds meaningful calls) and
give the same dtype, shape and values (to float32 rounding) in minitf.
"""
import math

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

import op_cases

TF_CODE = ("import tensorflow as tf\nops = tf.keras.ops\n" + op_cases.SETUP
           + f"\nTABLE = {op_cases.TABLE!r}\n" + op_cases.EVALUATOR)


@pytest.fixture(scope="module")
def real_results():
    require_tf()
    return run_tf_json(TF_CODE)


@pytest.fixture(scope="module")
def minitf_results():
    scope = {"ops": tf.keras.ops, "TABLE": op_cases.TABLE}
    exec(op_cases.SETUP, scope)
    printed = []
    scope["print"] = printed.append
    exec(op_cases.EVALUATOR, scope)
    import json
    return json.loads(printed[-1])


def _tolerance(dtype):
    return {"float16": (2e-3, 2e-3), "float64": (1e-9, 1e-12)}.get(dtype, (2e-5, 2e-6))


def assert_same(got, want, where):
    assert set(got) == set(want), f"{where}: minitf gave {got}, TF gave {want}"
    if "items" in want:
        assert len(got["items"]) == len(want["items"]), where
        for k, (a, b) in enumerate(zip(got["items"], want["items"])):
            assert_same(a, b, f"{where}[{k}]")
    elif "python" in want or "str" in want:
        assert got == want, where
    else:
        assert got["dtype"] == want["dtype"], f"{where}: dtype {got['dtype']} != {want['dtype']}"
        assert got["shape"] == want["shape"], f"{where}: shape {got['shape']} != {want['shape']}"
        rtol, atol = _tolerance(want["dtype"])
        np.testing.assert_allclose(np.array(got["value"], dtype=np.float64),
                                   np.array(want["value"], dtype=np.float64),
                                   rtol=rtol, atol=atol, err_msg=where)


@pytest.mark.parametrize("expr", op_cases.TABLE)
def test_same_as_real_tf(expr, real_results, minitf_results):
    want = real_results[expr]
    assert "error" not in want, f"the table holds a call real TF refuses: {want['error']}"
    got = minitf_results[expr]
    assert "error" not in got, f"minitf failed: {got['error']}"
    assert_same(got, want, expr)


def test_table_covers_most_names():
    """Every name the table calls is a real `keras.ops` name, and it calls most of minitf's."""
    called = {name for expr in op_cases.TABLE for name in _names_in(expr)}
    ours = {n for n in dir(tf.keras.ops) if not n.startswith("_")}
    untested = sorted(n for n in ours - called if callable(getattr(tf.keras.ops, n))
                      and not _is_module_name(n))
    assert len(untested) < 0.1 * len(ours), f"names no table entry calls: {untested}"


def _names_in(expr):
    import re
    return re.findall(r"([a-z_][a-z0-9_]*)\(", expr)


def _is_module_name(name):
    return isinstance(getattr(tf.keras.ops, name), type(math))
