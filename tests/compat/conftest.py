"""Every test here starts and ends in eager mode: graph mode (disable_eager_execution, an
unclosed `as_default`) must never leak into the next test, which may be anyone's."""
import pytest

import minitf as tf
from minitf.framework import context


@pytest.fixture(autouse=True)
def eager_before_and_after():
    assert not context.graph_stack, "a graph was left on the stack before this test"
    yield
    leaked = list(context.graph_stack)
    tf.compat.v1.enable_eager_execution()
    context.graph_stack[:] = []
    assert not leaked, f"the test left graph mode on: {leaked}"
    assert tf.compat.v1.get_default_session() is None, "the test left a default session"
