"""Bad inputs TF 2.21 rejects (issue 18), eager and inside tf.function, and the
one-tensor `tf.concat` TF accepts: each call, its error class and TF's words.

The same table runs in real TF (`test_table_matches_real_tf`), so every row is
TF's own behaviour, not a guess.
"""
import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

X = "tf.constant([1, 0])"
Y = "tf.zeros([6])"
C = "tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])"

# (code, run eagerly or as the body of a tf.function, error class, TF's words: one
# fragment or a tuple of them -- node input names differ between TF and minitf)
TABLE = [
    (f"tf.one_hot({X}, depth=-1)", "eager", "InvalidArgumentError",
     "depth must be non-negative, got: -1"),
    (f"tf.one_hot({X}, depth=-1)", "graph", "ValueError",
     "Dimension size, given by scalar input 1, must be non-negative but is -1"),
    ("tf.ones([2.5])", "eager", "TypeError", "Cannot convert [2.5] to EagerTensor of dtype int32"),
    ("tf.ones([2.0])", "eager", "TypeError", "Cannot convert [2.0] to EagerTensor of dtype int32"),
    ("tf.zeros([2.5])", "eager", "TypeError", "Cannot convert [2.5] to EagerTensor of dtype int32"),
    ("tf.ones(2.5)", "eager", "TypeError", "Cannot convert 2.5 to EagerTensor of dtype int32"),
    ("tf.ones(2.5)", "graph", "TypeError", "Expected int32, but got 2.5 of type 'float'."),
    ("tf.ones([None])", "eager", "ValueError",
     "Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>)"),
    ("tf.fill([2.5], 1)", "eager", "InvalidArgumentError",
     "Value for attr 'index_type' of float is not in the list of allowed values: int32, int64"),
    ("tf.fill([2.5], 1)", "graph", "TypeError",
     "Value passed to parameter 'dims' has DataType float32 not in list of allowed values: "
     "int32, int64"),
    (f"tf.reshape({Y}, [[2, 3]])", "eager", "InvalidArgumentError",
     "sizes input must be 1-D, not [1,2]"),
    (f"tf.reshape({Y}, [[6]])", "eager", "InvalidArgumentError",
     "sizes input must be 1-D, not [1,1]"),
    (f"tf.reshape({Y}, np.array([[2, 3]]))", "eager", "InvalidArgumentError",
     "sizes input must be 1-D, not [1,2]"),
    (f"tf.reshape({Y}, [[2, 3]])", "graph", "ValueError",
     ("Shape must be rank 1 but is rank 2 for '{{node Reshape}} = Reshape[T=DT_FLOAT, "
      "Tshape=DT_INT32](", "with input shapes: [6], [1,2].")),
]

# (code, mode, the value TF returns): accepted calls that used to give a wrong result
VALUES = [
    ("tf.ones([2.5])", "graph", [1.0, 1.0]),  # TF's small-constant path truncates 2.5 to 2
    (f"tf.concat({C}, 0)", "eager", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    (f"tf.concat({C}, 0)", "graph", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    (f"tf.concat({C}, 1)", "eager", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    (f"tf.concat({C}[0], 5)", "eager", [1.0, 2.0, 3.0]),  # one tensor: axis is not checked
    ("tf.concat(np.ones([2, 1]), 0)", "eager", [[1.0], [1.0]]),
    (f"tf.reshape({Y}, 6)", "eager", [0.0] * 6),
    (f"tf.one_hot({X}, depth=0)", "eager", [[], []]),
]


def run(module, code, mode):
    """Evaluate `code` with `tf` bound to `module`, eagerly or inside a tf.function."""
    scope = {"tf": module, "np": np}
    if mode == "eager":
        return eval(code, scope)
    exec(f"@tf.function(autograph=False)\ndef f():\n    return {code}\n", scope)
    return scope["f"]()


def fragments(words):
    return words if isinstance(words, tuple) else (words,)


def ids(rows):
    return [f"{row[1]}:{row[0]}" for row in rows]


@pytest.mark.parametrize("code, mode, error, words", TABLE, ids=ids(TABLE))
def test_bad_input_raises_tf_error(code, mode, error, words):
    cls = getattr(tf.errors, error, None) or getattr(__builtins__, error, None) or eval(error)
    with pytest.raises(cls) as info:
        run(tf, code, mode)
    assert type(info.value).__name__ == error  # not a subclass standing in for it
    assert all(part in str(info.value) for part in fragments(words))


@pytest.mark.parametrize("code, mode, expected", VALUES, ids=ids(VALUES))
def test_accepted_input_gives_tf_value(code, mode, expected):
    result = run(tf, code, mode)
    np.testing.assert_array_equal(result.numpy(), np.array(expected, np.float32))
    assert result.shape == np.array(expected).shape


def test_one_tensor_concat_still_checks_axis():
    with pytest.raises(ValueError, match="must have rank 0"):
        tf.concat(tf.zeros([2]), [0, 1])


def test_table_matches_real_tf():
    require_tf()
    code = f"""
import json, numpy as np, tensorflow as tf
TABLE = {[(c, m) for c, m, *_ in TABLE + VALUES]!r}
def run(code, mode):
    scope = {{"tf": tf, "np": np}}
    if mode == "eager":
        return eval(code, scope)
    exec(f"@tf.function(autograph=False)\\ndef f():\\n    return {{code}}\\n", scope)
    return scope["f"]()
out = []
for code, mode in TABLE:
    try:
        out.append(["ok", run(code, mode).numpy().tolist()])
    except Exception as e:
        out.append([type(e).__name__, str(e)])
print(json.dumps(out))
"""
    results = run_tf_json(code)
    for (code, mode, error, words), (got, text) in zip(TABLE, results):
        found = all(part in text for part in fragments(words))
        assert (got, found) == (error, True), (mode, code, got, text)
    for (code, mode, expected), (got, value) in zip(VALUES, results[len(TABLE):]):
        assert (got, value) == ("ok", expected), (mode, code, got, value)
