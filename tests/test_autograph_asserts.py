"""`assert` inside tf.function, as in TF 2.21: Python's assert unless the function asks
AutoGraph to convert it (experimental_autograph_options=Feature.ASSERT_STATEMENTS)."""
import pytest

import minitf as tf
from real_tf import run_tf_json

Feature = tf.autograph.experimental.Feature

CASES = '''
import json
import tensorflow as tf
Feature = tf.autograph.experimental.Feature

def outcome(f, *args):
    try:
        return ["ok", float(f(*args))]
    except Exception as e:
        return [type(e).__name__, str(e)]

def positive(x):
    assert x > 0, "x must be positive"
    return x

def calls_positive(x):
    return positive(x)

def python_check(x, n):
    assert n > 0
    return x * n

out = {
    "features": [f.name for f in Feature],
    "plain": outcome(tf.function(positive), tf.constant(1.0)),
    "python": outcome(tf.function(python_check), tf.constant(1.0), -2),
    "converted": outcome(tf.function(positive, experimental_autograph_options=(
        Feature.ASSERT_STATEMENTS,)), tf.constant(-1.0)),
    "all": outcome(tf.function(positive, experimental_autograph_options=Feature.ALL),
                   tf.constant(2.0)),
    "lists": outcome(tf.function(positive, experimental_autograph_options=Feature.LISTS),
                     tf.constant(2.0)),
    "nested": outcome(tf.function(calls_positive,
        experimental_autograph_options=Feature.ASSERT_STATEMENTS), tf.constant(-3.0)),
}
print(json.dumps(out))
'''


def positive(x):
    assert x > 0, "x must be positive"
    return x


def calls_positive(x):
    return positive(x)


def python_check(x, n):
    assert n > 0
    return x * n


def outcome(f, *args):
    try:
        return ["ok", float(f(*args))]
    except Exception as e:  # noqa: BLE001 - the class and text are what we compare
        return [type(e).__name__, str(e)]


def minitf_outcomes():
    return {
        "features": [f.name for f in Feature],
        "plain": outcome(tf.function(positive), tf.constant(1.0)),
        "python": outcome(tf.function(python_check), tf.constant(1.0), -2),
        "converted": outcome(tf.function(positive, experimental_autograph_options=(
            Feature.ASSERT_STATEMENTS,)), tf.constant(-1.0)),
        "all": outcome(tf.function(positive, experimental_autograph_options=Feature.ALL),
                       tf.constant(2.0)),
        "lists": outcome(tf.function(positive, experimental_autograph_options=Feature.LISTS),
                         tf.constant(2.0)),
        "nested": outcome(tf.function(calls_positive,
                          experimental_autograph_options=Feature.ASSERT_STATEMENTS),
                          tf.constant(-3.0)),
    }


def test_a_plain_assert_on_a_tensor_fails_while_tracing():
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="as a Python `bool`"):
        tf.function(positive)(tf.constant(1.0))
    assert "assert x > 0, 'x must be positive'" in tf.autograph.to_code(positive)


def test_assert_statements_makes_a_check_that_runs_with_the_graph():
    checked = tf.function(positive, experimental_autograph_options=Feature.ASSERT_STATEMENTS)
    assert float(checked(tf.constant(2.0))) == 2.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be positive"):
        checked(tf.constant(-2.0))
    assert checked.experimental_get_tracing_count() == 1
    code = tf.autograph.to_code(positive, experimental_optional_features=Feature.ASSERT_STATEMENTS)
    assert "ag__.assert_stmt(x > 0, lambda: 'x must be positive')" in code


def test_the_option_reaches_called_functions_and_methods():
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be positive"):
        tf.function(calls_positive,
                    experimental_autograph_options=Feature.ASSERT_STATEMENTS)(tf.constant(-1.0))
    assert "Feature.ASSERT_STATEMENTS)" in tf.autograph.to_code(
        calls_positive, experimental_optional_features=Feature.ALL)

    class Checked(tf.Module):
        # (TF 2.21 loses the option on a method and fails like a plain assert; minitf keeps it)
        @tf.function(experimental_autograph_options=Feature.ASSERT_STATEMENTS)
        def __call__(self, x):
            assert x > 0, "x must be positive"
            return x

    assert float(Checked()(tf.constant(3.0))) == 3.0


def test_other_features_leave_asserts_alone_and_nonsense_is_refused():
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(positive, experimental_autograph_options=Feature.LISTS)(tf.constant(1.0))
    with pytest.raises(TypeError, match="Feature.ASSERT_STATEMENTS"):
        tf.function(positive, experimental_autograph_options="ASSERT_STATEMENTS")(
            tf.constant(1.0))


def test_the_same_as_real_tf(tmp_path):
    script = tmp_path / "cases.py"  # AutoGraph reads the functions' source from a file
    script.write_text(CASES)
    theirs = run_tf_json(f"exec(compile(open({str(script)!r}).read(), {str(script)!r}, 'exec'))")
    mine = minitf_outcomes()
    assert mine["features"] == theirs["features"]
    for key in ("plain", "python", "converted", "all", "lists", "nested"):
        assert mine[key][0] == theirs[key][0], (key, mine[key], theirs[key])
    assert theirs["python"][1].endswith("AssertionError: \n") and \
        mine["python"][1].endswith("AssertionError: \n")
    assert "x must be positive" in mine["converted"][1] and \
        "x must be positive" in theirs["converted"][1]
