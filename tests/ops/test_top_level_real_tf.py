"""The top-level tf.* names of the test_top_level_*.py files against real TF 2.21: every
expression in their CASES runs in minitf and, all in ONE TF subprocess (each file's SETUP
first), in real TF; values, dtypes, shapes and error classes must agree.
"""
import pytest

import minitf as tf
from minitf.ops.gradients_ops import _REGISTERED
from tests.ops import (test_top_level_array, test_top_level_edit_distance,
                       test_top_level_gradients, test_top_level_graph,
                       test_top_level_protos_specs, test_top_level_space_batch)
from tests.ops.top_level_compare import evaluate, real_tf_groups

GROUPS = {module.__name__.rsplit("_level_", 1)[1]: (module.CASES, module.SETUP)
          for module in (test_top_level_array, test_top_level_edit_distance,
                         test_top_level_gradients, test_top_level_graph,
                         test_top_level_protos_specs, test_top_level_space_batch)}
PAIRS = [(group, case) for group, (cases, _) in GROUPS.items() for case in cases]


@pytest.fixture(scope="module")
def real_tf_results():
    return real_tf_groups(GROUPS)


@pytest.mark.parametrize(("group", "case"), PAIRS)
def test_against_real_tf(real_tf_results, group, case):
    try:
        got = evaluate(tf, [case], GROUPS[group][1])[case]
    finally:
        _REGISTERED.pop("MyOtherOpXYZ", None)  # the gradient registry is per process
    assert got == real_tf_results[group][case], case
