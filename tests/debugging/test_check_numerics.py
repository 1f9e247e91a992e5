"""tf.debugging.enable_check_numerics / disable_check_numerics, eager and in tf.function,
and tf.debugging's other switches (traceback filtering, log device placement).

Messages and switches are compared with real TF 2.21's in one subprocess (TF's text carries a
"{{function_node ...}}" prefix and a " name: " suffix around the same body).
"""
import threading

import numpy as np
import pytest

import minitf as tf
from minitf.framework import context
from minitf.ops.check_numerics_callback import bad_values, limit_string_length
from tests.real_tf import run_tf_json

INF, NAN = np.inf, np.nan

# name -> (expression over tf and np, as code both libraries run)
EAGER_CASES = {
    "log": "tf.math.log(tf.constant([1.0, 0.0, -1.0]))",
    "div": "tf.constant([1.0, 2.0]) / tf.constant([0.0, 0.0])",
    "all_three": "tf.constant([-np.inf, np.inf, np.nan]) * 1.0",
    "neg_pos": "tf.constant([-np.inf, np.inf]) * 1.0",
    "pos_nan": "tf.constant([np.inf, np.nan]) * 1.0",
    "half": "tf.constant([60000.0], tf.float16) * 2",
    "double": "tf.constant([[1e308]], tf.float64) * 10",
    "sqrt": "tf.sqrt(tf.constant(-4.0))",
}
# These never fail: safe ops only move values, integers and complex are not checked.
PASSING_CASES = {
    "maximum": "tf.maximum(tf.constant([np.nan]), 1.0)",
    "reshape": "tf.reshape(tf.constant([np.nan]), [1, 1])",
    "identity": "tf.identity(tf.constant([np.nan]))",
    "complex": "tf.complex(tf.constant([np.inf]), tf.constant([0.0]))",
    "finite": "tf.constant([1.0, 2.0]) * 3.0",
}

TF_CODE = """
import json, re, threading, numpy as np, tensorflow as tf
tf.debugging.enable_check_numerics()
def message(fn):
    try:
        fn()
    except tf.errors.InvalidArgumentError as e:
        text = str(e)
        text = re.sub(r"^\\{\\{function_node [^}]*\\}\\} ", "", text)
        return text.split(" [Op:")[0]
    return None
out = {name: message(lambda: eval(code)) for name, code in EAGER.items()}
out.update({name: message(lambda: eval(code)) for name, code in PASSING.items()})
@tf.function
def f(x):
    y = x * 2.0
    return tf.math.log(y)
graph = message(lambda: f(tf.constant([1.0, 0.0])))
out["graph"] = graph.split("Detected at node")[0] if graph else None
out["graph_body"] = graph[graph.index("!!!"):graph.index("  Stack trace")] if graph else None
out["graph_status"] = graph[graph.rindex(" : Tensor had"):].split("\\n")[0] if graph else None
x = tf.Variable(0.0)
with tf.GradientTape() as tape:
    y = tf.sqrt(x)
out["grad"] = message(lambda: tape.gradient(y, x)) is not None
tf.debugging.disable_check_numerics()
tf.debugging.disable_check_numerics()
out["after_disable"] = float(tf.math.log(tf.constant(0.0)).numpy())
# tf.debugging's other switches, in the same TF process
out["filtering"] = [tf.debugging.is_traceback_filtering_enabled()]
tf.debugging.disable_traceback_filtering()
out["filtering"].append(tf.debugging.is_traceback_filtering_enabled())
seen = []
t = threading.Thread(target=lambda: seen.append(tf.debugging.is_traceback_filtering_enabled()))
t.start(); t.join()
out["filtering"].append(seen[0])
out["filtering"].append(tf.debugging.enable_traceback_filtering())
out["filtering"].append(tf.debugging.is_traceback_filtering_enabled())
placement = [tf.debugging.get_log_device_placement()]
tf.debugging.set_log_device_placement(1)
placement.append(tf.debugging.get_log_device_placement())
tf.debugging.set_log_device_placement(False)
placement.append(tf.debugging.get_log_device_placement())
out["placement"] = placement
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def real_tf():
    code = f"EAGER = {EAGER_CASES!r}\nPASSING = {PASSING_CASES!r}\n" + TF_CODE
    return run_tf_json(code)


@pytest.fixture
def checking():
    tf.debugging.enable_check_numerics()
    yield
    tf.debugging.disable_check_numerics()


def message(fn):
    try:
        fn()
    except tf.errors.InvalidArgumentError as e:
        return str(e).split(" [Op:")[0]
    return None


def test_eager_messages(checking):
    got = message(lambda: tf.math.log(tf.constant([1.0, 0.0, -1.0])))
    assert got == (
        '\n\n!!! Detected Infinity or NaN in output 0 of eagerly-executing op "Log" '
        "(# of outputs: 1) !!!\n  dtype: <dtype: 'float32'>\n  shape: (3,)\n"
        "  # of -Inf elements: 1\n  # of +NaN elements: 1\n\n"
        "  Input tensor: tf.Tensor([ 1.  0. -1.], shape=(3,), dtype=float32)\n\n"
        " : Tensor had -Inf and NaN values")
    two = message(lambda: tf.constant([1.0, 2.0]) / tf.constant([0.0, 0.0]))
    assert "Input tensors (2):\n         0: tf.Tensor([1. 2.]" in two
    assert two.endswith(" : Tensor had +Inf values")


def test_eager_messages_equal_real_tf(checking, real_tf):
    for name, code in EAGER_CASES.items():
        got = message(lambda: eval(code))
        assert got is not None and got == real_tf[name], name
    for name, code in PASSING_CASES.items():
        assert message(lambda: eval(code)) is None and real_tf[name] is None, name


def test_function_graph_is_checked(checking, real_tf):
    @tf.function
    def f(x):
        y = x * 2.0
        return tf.math.log(y)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([1.0, 0.0]))
    text = str(info.value)
    body = text[text.index("!!!"):text.index("  Stack trace")]
    # TF names its node "mul:0" (lower case) where minitf says "Mul:0".
    assert body == real_tf["graph_body"].replace('"mul:0"', '"Mul:0"')
    assert real_tf["graph_status"] in text
    stack = text[text.index("  Stack trace"):]
    assert " -> |   return tf.math.log(y)" in stack  # the user's line, marked
    assert f(tf.constant([1.0, 2.0])).shape == (2,)  # finite values pass
    graph = f.get_concrete_function(tf.constant([1.0, 2.0])).graph
    assert [n.op.name for n in graph.nodes].count("CheckNumericsV2") == 2  # Mul and Log


def test_gradient_nan_is_caught(checking, real_tf):
    x = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.sqrt(x)
    assert message(lambda: tape.gradient(y, x)) is not None and real_tf["grad"]


def test_disable_turns_it_off_and_costs_nothing_after(real_tf):
    before = context.active
    tf.debugging.enable_check_numerics()
    tf.debugging.enable_check_numerics()  # idempotent
    assert context.active == before + 1
    tf.debugging.disable_check_numerics()
    tf.debugging.disable_check_numerics()  # idempotent, as in TF
    assert context.active == before  # plain eager ops are back on the fast path
    assert float(tf.math.log(tf.constant(0.0))) == real_tf["after_disable"] == -INF


def test_only_this_thread_checks(checking):
    seen = []

    def other():
        seen.append(message(lambda: tf.math.log(tf.constant(0.0))))

    worker = threading.Thread(target=other)
    worker.start()
    worker.join()
    assert seen == [None]
    assert message(lambda: tf.math.log(tf.constant(0.0))) is not None


def test_helpers():
    assert bad_values(np.array([NAN])) == "NaN"
    assert bad_values(np.array([-INF, INF, NAN])) == "-Inf, +Inf, and NaN"
    assert bad_values(np.array([INF, -INF])) == "-Inf and +Inf"
    assert limit_string_length("abc", 5) == "abc"
    assert limit_string_length("abcdef", 3) == "...def"
    assert limit_string_length("abcdef", None) == "abcdef"


def test_stack_height_limit():
    tf.debugging.enable_check_numerics(stack_height_limit=2, path_length_limit=10)
    try:
        @tf.function
        def g(x):
            return tf.math.log(x)

        text = message(lambda: g(tf.constant(0.0)))
    finally:
        tf.debugging.disable_check_numerics()
    stack = text[text.index("  Stack trace"):text.index(" : Tensor had")].strip("\n").splitlines()
    assert stack[1].startswith("    + ... (Omitted ") and len(stack) == 2 + 2 * 2
    assert all(len(line.split(" (L")[0]) <= len("    + ...") + 10 for line in stack[2::2])


def test_traceback_filtering_switch_matches_real_tf(real_tf):
    got = [tf.debugging.is_traceback_filtering_enabled()]
    tf.debugging.disable_traceback_filtering()
    try:
        got.append(tf.debugging.is_traceback_filtering_enabled())
        seen = []
        t = threading.Thread(
            target=lambda: seen.append(tf.debugging.is_traceback_filtering_enabled()))
        t.start()
        t.join()
        got.append(seen[0])
    finally:
        got.append(tf.debugging.enable_traceback_filtering())
    got.append(tf.debugging.is_traceback_filtering_enabled())
    assert got == real_tf["filtering"] == [True, False, True, None, True]


def test_get_log_device_placement_matches_real_tf(real_tf, capsys):
    got = [tf.debugging.get_log_device_placement()]
    tf.debugging.set_log_device_placement(1)
    try:
        got.append(tf.debugging.get_log_device_placement())
        _ = tf.constant(1.0) * 2.0
    finally:
        tf.debugging.set_log_device_placement(False)
    got.append(tf.debugging.get_log_device_placement())
    assert got == real_tf["placement"] == [False, True, False]
    assert "Mul: (Mul): /job:localhost/replica:0/task:0/device:CPU:0" in capsys.readouterr().out
