"""Test-wide settings, and a cross-check of every op's shape rule.

Graph tracing (tf.function) relies on each op's declared shape and dtype
rules, while eager mode lets NumPy decide. So during the test session every
op's forward is wrapped: each eager call also asks both rules and fails the
test if they disagree with what NumPy produced. Every test that runs an op
thereby checks its rules.
"""
import gc

import pytest
from hypothesis import HealthCheck, settings

import numpy as np

import minitf  # noqa: F401 - registers every op
# `import minitf` leaves these for first use; their ops' rules are checked too.
import minitf.data, minitf.feature_column, minitf.keras, minitf.summary  # noqa: E401,F401
from minitf.framework import dtypes
from minitf.framework.op import Op
from minitf.framework.tensor_shape import TensorShape

# Gradient checks are slow-ish per example; keep runs short and deterministic.
settings.register_profile("minitf", max_examples=15, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("minitf")

# Ops whose output shape is data-dependent cannot be predicted from shapes alone.
DATA_DEPENDENT = {"Where", "BooleanMask", "Unique", "CustomGradient"}


def all_ops():
    return [o for o in gc.get_objects() if isinstance(o, Op)]


def _checked(op, forward):
    def forward_with_shape_check(*arrays, **attrs):
        result = forward(*arrays, **attrs)
        attrs.pop("out", None)  # (the executor's spare array, not an attribute of the op)
        produced = result[0] if op.saves else result
        outputs = produced if isinstance(produced, tuple) else (produced,)
        expected = op.shape(*[TensorShape(getattr(a, "shape", ())) for a in arrays], **attrs)
        expected = expected if isinstance(expected, tuple) else (expected,)
        got = tuple(TensorShape(getattr(o, "shape", ())) for o in outputs)
        assert len(expected) == len(got) and all(
            e.is_compatible_with(g) for e, g in zip(expected, got)), (
            f"{op.name}: shape rule says {expected}, NumPy produced {got}")
        in_dtypes = [dtypes.from_numpy(np.asarray(a).dtype) for a in arrays]
        predicted = op.output_dtypes(in_dtypes, attrs, len(outputs))
        actual = tuple(dtypes.from_numpy(np.asarray(o).dtype) for o in outputs)
        assert predicted == actual, (
            f"{op.name}: dtype rule says {predicted}, NumPy produced {actual}")
        return result

    return forward_with_shape_check


@pytest.fixture(autouse=True, scope="session")
def shape_rules_agree_with_numpy():
    wrapped = []
    for op in all_ops():
        if op.shape is not None and op.forward is not None and op.name not in DATA_DEPENDENT:
            wrapped.append((op, op.forward))
            op.forward = _checked(op, op.forward)
    yield
    for op, forward in wrapped:
        op.forward = forward


@pytest.fixture
def default_grappler_options():
    """Every graph optimization at its default for the test, then the caller's options back."""
    saved = dict(minitf.grappler.config._options)
    minitf.grappler.config._options.clear()
    yield
    minitf.grappler.config._options.clear()
    minitf.grappler.config._options.update(saved)
