"""tf.tensordot inside tf.function when a size is None (issue 19).

The free and contracted groups are flattened with sizes from tf.shape(x) computed when
the graph runs, and the static shape keeps the known free sizes, e.g. (None, 4), as TF.
One PROGRAM runs under minitf and (once, in one subprocess) under real TF 2.21.
"""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json

PROGRAM = r'''
import numpy as np
static = {}
W = tf.constant(np.arange(12.0).reshape(3, 4) / 7 - 0.5)
CASES = {  # name: (signature of a, axes, b)
    "matmul": ([None, 3], 1, W),
    "batch_axes": ([None, 2, 3], [[2], [0]], W),
    "flipped": ([None, 2, 3], [[1], [2]], tf.transpose(W)),
    "contract_none": ([3, None], [[0], [0]], W),
    "two_none": ([None, None, 3], [[2], [0]], W),
    "outer": ([None, 2], 0, tf.constant([1.0, -2.0], tf.float64)),
}
INPUTS = {"matmul": [2, 3], "batch_axes": [5, 2, 3], "flipped": [1, 2, 3],
          "contract_none": [3, 2], "two_none": [2, 1, 3], "outer": [3, 2]}


def make(name):
    spec, axes, b = CASES[name]

    @tf.function(input_signature=[tf.TensorSpec(spec, tf.float64)], autograph=False)
    def f(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.tensordot(a, b, axes) if name != "flipped" else tf.tensordot(b, a, axes)
            loss = tf.reduce_sum(y * y)
        static[name] = str(y.shape)
        return y, tape.gradient(loss, a)
    return f


out = {"values": {}, "grads": {}}
for name in CASES:
    size = int(np.prod(INPUTS[name]))
    a = tf.constant(np.sin(np.arange(size, dtype=np.float64)).reshape(INPUTS[name]))
    y, grad = make(name)(a)
    out["values"][name] = np.asarray(y).tolist()
    out["grads"][name] = np.asarray(grad).tolist()
out["static"] = static
'''


def run_program(module):
    scope = {"tf": module}
    exec(PROGRAM, scope)
    return scope["out"]


@pytest.fixture(scope="module")
def mine():
    return run_program(tf)


@pytest.fixture(scope="module")
def real():
    return run_tf_json("import json, tensorflow as tf\n" + PROGRAM
                       + "\nprint(json.dumps(out))", timeout=600)


# --- without real TF --------------------------------------------------------------------------
def test_static_shape_keeps_the_known_free_sizes(mine):
    assert mine["static"]["matmul"] == "(None, 4)"
    assert mine["static"]["batch_axes"] == "(None, 2, 4)"
    assert mine["static"]["flipped"] == "(4, None, 2)"
    assert mine["static"]["contract_none"] == "(None, 4)"


def test_values_equal_eager():
    w = np.arange(12.0).reshape(3, 4)
    f = tf.function(lambda a: tf.tensordot(a, w, [[2], [0]]),
                    input_signature=[tf.TensorSpec([None, 2, 3], tf.float64)])
    for batch in (1, 4):
        a = np.random.default_rng(batch).normal(size=(batch, 2, 3))
        np.testing.assert_allclose(f(a).numpy(), np.tensordot(a, w, [[2], [0]]))
    assert f.experimental_get_tracing_count() == 1


def test_gradients_match_finite_differences():
    spec = [tf.TensorSpec([None, 3], tf.float64), tf.TensorSpec([3, None], tf.float64)]
    f = tf.function(lambda a, b: tf.tensordot(a, b, 1), input_signature=spec)
    check_grads(f, np.arange(6.0).reshape(2, 3) / 5, np.cos(np.arange(12.0)).reshape(3, 4))
    g = tf.function(lambda a, b: tf.tensordot(a, b, [[0, 2], [1, 0]]),
                    input_signature=[tf.TensorSpec([None, 2, 3], tf.float64),
                                     tf.TensorSpec([3, None], tf.float64)])
    check_grads(g, np.sin(np.arange(12.0)).reshape(2, 2, 3), np.arange(6.0).reshape(3, 2))


# --- against real TF 2.21 ---------------------------------------------------------------------
def test_static_shapes_equal_real_tf(mine, real):
    assert mine["static"] == real["static"]


def test_values_and_gradients_equal_real_tf(mine, real):
    for part in ("values", "grads"):
        for name, theirs in real[part].items():
            np.testing.assert_allclose(mine[part][name], theirs, rtol=1e-12, atol=1e-12,
                                       err_msg=f"{part} of {name}")
