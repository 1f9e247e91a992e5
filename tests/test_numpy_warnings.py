"""Kernels keep NumPy's floating-point warnings inside the engine (issue 18): TF
returns inf and nan for log(0), 0/0 or overflow and prints nothing, so minitf's
ops must not leak NumPy's RuntimeWarnings -- eager, traced, or in a gradient.

Every row runs with `warnings.simplefilter("error")`, so a leaked warning fails
it; `test_same_values_as_real_tf` checks that the values are TF's.
"""
import json
import math
import warnings

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

INF = float("inf")
LOGITS = f"tf.constant([[{INF}, 0.0, -{INF}], [1.0, -{INF}, 2.0]])".replace("inf", "float('inf')")
LABELS = "tf.constant([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])"
ZERO = "tf.constant([0.0, 1.0, -1.0])"

CALLS = [
    f"tf.nn.softmax_cross_entropy_with_logits(labels={LABELS}, logits={LOGITS})",
    f"tf.nn.softmax({LOGITS})",
    f"tf.nn.log_softmax({LOGITS})",
    f"tf.math.log({ZERO})",
    f"tf.math.log1p(tf.constant([-1.0, -2.0]))",
    f"tf.math.sqrt({ZERO})",
    f"tf.math.rsqrt({ZERO})",
    f"tf.math.reciprocal({ZERO})",
    f"{ZERO} / tf.constant(0.0)",
    f"tf.math.divide({ZERO}, 0.0)",
    f"tf.math.floordiv({ZERO}, 0.0)",
    f"tf.math.floormod({ZERO}, 0.0)",
    "tf.math.exp(tf.constant([100.0, 1000.0]))",
    "tf.constant([3e38]) * 10.0",
    "tf.math.pow(tf.constant([0.0, -8.0]), tf.constant([-1.0, 0.5]))",
    "tf.math.sigmoid(tf.constant([-1e5, 1e5]))",
    "tf.reduce_mean(tf.zeros([0]))",
    "tf.reduce_max(tf.constant([float('nan'), 1.0]))",
    "tf.math.reduce_std(tf.zeros([0]))",
    "tf.math.xlogy(tf.constant([0.0, 1.0]), tf.constant([0.0, 0.0]))",
    "tf.cast(tf.constant([float('nan'), float('inf')]), tf.int32)",
    "tf.math.tan(tf.constant([float('inf')]))",
    "tf.math.acos(tf.constant([2.0]))",
    "tf.math.l2_normalize(tf.zeros([3]))",
    "tf.linalg.norm(tf.constant([1e30, 1e30]))",
]

GRADIENTS = [  # d/dx at x = 0: inf or nan, as in TF
    "tf.math.sqrt(x)",
    "tf.math.log(x)",
    "tf.math.pow(x, 0.5)",
    "tf.norm(tf.stack([x, x]))",
    "x / x",
]


def run(code, mode):
    scope = {"tf": tf, "np": np}
    if mode == "eager":
        return eval(code, scope)
    exec(f"@tf.function(autograph=False)\ndef f():\n    return {code}\n", scope)
    return scope["f"]()


def gradient(code, mode):
    def grad():
        x = tf.constant(0.0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = eval(code, {"tf": tf, "x": x})
        return tape.gradient(y, x)

    return grad() if mode == "eager" else tf.function(grad, autograph=False)()


def as_list(value):
    return np.asarray(value).tolist()


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("code", CALLS)
def test_no_numpy_warning_leaks(code, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run(code, mode)


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("code", GRADIENTS)
def test_no_numpy_warning_leaks_from_gradients(code, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gradient(code, mode)


ARGUMENT_CALLS = [  # traced with tensor arguments, so no constant folding runs them early
    lambda l, x: tf.nn.softmax_cross_entropy_with_logits(labels=l, logits=x),
    lambda l, x: tf.math.log(x * l) + x * 1e38 * 10.0,
    lambda l, x: tf.math.sqrt(x - l) / (l - l),
]


@pytest.mark.parametrize("index", range(len(ARGUMENT_CALLS)))
def test_no_numpy_warning_leaks_from_a_running_graph(index):
    f = tf.function(ARGUMENT_CALLS[index], autograph=False)
    labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    logits = eval(LOGITS, {"tf": tf})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f(labels, logits)


def test_numpy_settings_of_the_caller_are_kept():
    with np.errstate(divide="raise"):
        tf.math.log(tf.constant(0.0))  # quiet inside the kernel...
        with pytest.raises(FloatingPointError):
            np.log(np.float32(0.0))  # ...and the caller's own setting is back after it
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning):
            np.log(np.float32(0.0))


def same(a, b):
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b or abs(a - b) <= 1e-5 * max(1.0, abs(a))


REAL_TF = """
import json, numpy as np, tensorflow as tf
def run(code):
    return eval(code, {"tf": tf, "np": np})
def gradient(code):
    x = tf.constant(0.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = eval(code, {"tf": tf, "x": x})
    return tape.gradient(y, x)
def text(v):
    return json.dumps(np.asarray(v).tolist())  # NaN and Infinity as JSON allows
print(json.dumps([[text(run(c)) for c in CALLS], [text(gradient(c)) for c in GRADIENTS]]))
"""


def test_same_values_as_real_tf():
    require_tf()
    real = run_tf_json(f"CALLS = {CALLS!r}\nGRADIENTS = {GRADIENTS!r}\n" + REAL_TF)
    for code, value in zip(CALLS, real[0]):
        ours = as_list(run(code, "eager"))
        assert same(json.loads(value), ours), (code, value, ours)
    for code, value in zip(GRADIENTS, real[1]):
        ours = as_list(gradient(code, "eager"))
        assert same(json.loads(value), ours), (code, value, ours)
