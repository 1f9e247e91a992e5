"""tf.debugging.Assert: eager and graph messages, TF's SummarizeValue printing, and that the
Assert node survives graph optimizations (it is stateful) and runs every call."""
import numpy as np
import pytest

import minitf as tf
from minitf.grappler import prune
from minitf.ops.assert_ops import summarize_value

pytestmark = pytest.mark.usefixtures("default_grappler_options")
IAE = tf.errors.InvalidArgumentError


def ran(message):
    """The Assert kernel's text, without minitf's "(traced at file:line)" note."""
    return str(message).split(" (traced at")[0]


# --- names -----------------------------------------------------------------------------------
def test_assert_is_exported_top_level_and_in_debugging():
    assert tf.Assert is tf.debugging.Assert


def test_top_level_names_are_tf2s_exactly():
    for name in ("assert_equal", "assert_less", "assert_greater", "assert_rank", "ensure_shape",
                 "broadcast_static_shape", "broadcast_dynamic_shape", "Assert"):
        assert callable(getattr(tf, name)), name
    for v1_only in ("assert_positive", "assert_none_equal", "assert_less_equal", "check_numerics",
                    "assert_near", "assert_type", "is_non_decreasing"):
        assert not hasattr(tf, v1_only), v1_only
    assert not hasattr(tf.debugging, "is_non_decreasing")  # TF 2: tf.math only
    assert callable(tf.math.is_non_decreasing) and callable(tf.math.is_strictly_increasing)


# --- eager ---------------------------------------------------------------------------------
def test_eager_true_condition_returns_none():
    assert tf.debugging.Assert(tf.constant(True), ["unused", tf.constant([1, 2])]) is None
    assert tf.debugging.Assert(True, []) is None


def test_eager_false_condition_raises_tf_python_text():
    with pytest.raises(IAE) as info:
        tf.debugging.Assert(tf.constant(False), ["x is", tf.constant([1.5, 2.0, 3.0, 4.0])])
    assert str(info.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                               "Summarized data: b'x is'\n1.5, 2.0, 3.0, ...")


def test_eager_summarize_counts_and_negative_means_all():
    with pytest.raises(IAE, match=r"Summarized data: 0, 1, 2, 3, 4$"):
        tf.debugging.Assert(False, [tf.range(5)], summarize=-1)
    with pytest.raises(IAE, match=r"Summarized data: 0, \.\.\.$"):
        tf.debugging.Assert(False, [tf.range(5)], summarize=1)
    with pytest.raises(IAE, match=r"Expected 'False' to be true. Summarized data: 7$"):
        tf.debugging.Assert(False, [tf.constant(7)])


# --- graph: the Assert node ---------------------------------------------------------------------
def test_graph_failure_raises_when_the_graph_runs_with_kernel_text():
    traced = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(x):
        traced.append(True)
        tf.debugging.Assert(tf.reduce_all(x > 0), ["x must be positive:", x])
        return x * 2

    np.testing.assert_array_equal(f(tf.constant([1, 2])).numpy(), [2, 4])
    with pytest.raises(IAE) as info:
        f(tf.constant([1, -2, 3, 4, 5]))
    assert ran(info.value) == "assertion failed: [x must be positive:] [1 -2 3...]"
    assert "traced at test_assert_ops.py" in str(info.value)
    assert len(traced) == 1  # one trace, checked on every call


def test_unused_assert_is_not_pruned_and_runs():
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def f(x):
        tf.Assert(x < 10.0, [x])  # result unused: only its effect matters
        return x + 1.0

    assert float(f(tf.constant(1.0))) == 2.0
    with pytest.raises(IAE, match=r"^assertion failed: \[12\]"):
        f(tf.constant(12.0))
    graph = f.get_concrete_function().graph
    optimized, _ = tf.grappler.optimize(graph)
    assert [n.op.name for n in optimized.nodes].count("Assert") == 1
    pruned, report = prune(graph)
    assert "Assert" in [n.op.name for n in pruned.nodes]
    assert not any("Assert" in line for line in report)


def test_two_identical_asserts_are_not_merged_or_folded():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def f(x):
        tf.Assert(tf.constant(True), ["a"])
        tf.Assert(tf.constant(True), ["a"])
        return x

    optimized, _ = tf.grappler.optimize(f.get_concrete_function().graph)
    assert [n.op.name for n in optimized.nodes].count("Assert") == 2


def test_graph_summarize_attribute():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def show_all(x):
        tf.debugging.Assert(tf.constant(False), [x], summarize=-1)
        return x

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def show_one(x):
        tf.debugging.Assert(tf.constant(False), [x], summarize=1)
        return x

    with pytest.raises(IAE) as info:
        show_all(tf.range(5))
    assert ran(info.value) == "assertion failed: [0 1 2 3 4]"
    with pytest.raises(IAE) as info:
        show_one(tf.range(5))
    assert ran(info.value) == "assertion failed: [0...]"


def test_graph_condition_must_be_a_bool_scalar():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.bool)])
    def vector(c):
        tf.debugging.Assert(c, ["c"])
        return c

    with pytest.raises(IAE, match=r"In\[0\] should be a scalar: \[2\]"):
        vector(tf.constant([True, True]))

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def integer(c):
        tf.debugging.Assert(c, ["c"])
        return c

    with pytest.raises(TypeError, match="Input 'condition' of 'Assert' Op has type int32"):
        integer.get_concrete_function()


def test_assert_still_checks_when_the_function_runs_under_a_tape():
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def f(x):
        tf.debugging.Assert(x > 0.0, ["x =", x])
        return x * x

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x)) == 6.0
    x = tf.constant(-3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(IAE, match=r"assertion failed: \[x =\] \[-3\]"):
            f(x)


def test_assert_inside_a_cond_branch_runs_only_on_that_branch():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def f(x):
        def check():
            tf.debugging.Assert(x < 100, ["too big:", x])
            return x + 1

        return tf.cond(x > 0, check, lambda: x - 1)

    assert int(f(tf.constant(-500))) == -501
    assert int(f(tf.constant(5))) == 6
    with pytest.raises(IAE, match=r"assertion failed: \[too big:\] \[500\]"):
        f(tf.constant(500))


# --- how the kernel prints tensors (Tensor::SummarizeValue) ----------------------------------
@pytest.mark.parametrize("value, limit, text", [
    (np.arange(5), 3, "0 1 2..."),
    (np.arange(3), 3, "0 1 2"),
    (np.arange(3), -1, "0 1 2"),
    (np.array([[1, 2], [3, 4]]), 3, "[1 2][3...]..."),
    (np.array([[1, 2], [3, 4]]), 4, "[1 2][3 4]"),
    (np.arange(8).reshape(2, 2, 2), 3, "[[0 1][2...]]..."),
    (np.array(7), 3, "7"),
    (np.array(7), 0, "..."),
    (np.zeros((2, 0)), 3, ""),
    (np.array([True, False]), 3, "1 0"),
    (np.array([1.5, 1e-7, 123456789.0, np.inf, np.nan], np.float32), -1,
     "1.5 1e-07 1.23457e+08 inf nan"),
    (np.array([b"it's", b'a "b"\n'], dtype=object), 3, "it\\'s a \\\"b\\\"\\n"),
    (np.array([1 + 2j, 3j]), 3, " ? ?"),
])
def test_summarize_value_matches_tensorflow_printing(value, limit, text):
    assert summarize_value(value, limit) == text
