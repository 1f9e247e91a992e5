"""Shared by the tests/ops/test_top_level_*.py files: evaluate expressions under minitf and,
in ONE subprocess for all of them (test_top_level_real_tf.py), under real TF 2.21, reduced
to plain JSON.

A tensor becomes [dtype name, flat values (floats rounded to 6 significant digits), shape];
a list or tuple of results a list of those; None stays None; an exception its class name.
"""
from tests.real_tf import run_tf_json

EVAL = """
import json, numpy as np
def plain(r):
    if r is None or isinstance(r, (bool, int, str)):
        return r
    if isinstance(r, (list, tuple)):
        return [plain(x) for x in r]
    if hasattr(r, "dtype") and hasattr(r, "numpy"):
        v = np.asarray(r.numpy())
        flat = v.reshape(-1).tolist()
        if v.dtype.kind in "fc":
            flat = [("nan" if x != x else float(f"{x:.6g}")) if isinstance(x, float) else str(x)
                    for x in flat]
        flat = [x.decode() if isinstance(x, bytes) else x for x in flat]
        return [r.dtype.name, flat, list(v.shape)]
    return repr(r)
def evaluate(tf, cases, setup=""):
    scope = {"tf": tf, "np": np}
    exec(setup, scope)
    out = {}
    for case in cases:
        try:
            out[case] = plain(eval(case, scope))
        except Exception as e:
            out[case] = type(e).__name__
    return out
"""


def evaluate(tf, cases, setup=""):
    scope = {}
    exec(EVAL, scope)
    return scope["evaluate"](tf, cases, setup)


def real_tf_groups(groups):
    """Every group's cases under real TF, all in ONE subprocess (each group runs its own
    setup first): {group: {case: plain result}}. groups: {name: (cases, setup)}."""
    return run_tf_json("import tensorflow as tf\n" + EVAL
                       + f"\ngroups = {groups!r}\n"
                       + "print(json.dumps({g: evaluate(tf, c, s) for g, (c, s) in "
                         "groups.items()}))")
