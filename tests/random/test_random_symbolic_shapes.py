"""Random ops inside tf.function whose shape is known only when the graph runs (issue 19).

With `input_signature=[tf.TensorSpec([None, 3])]`, `tf.random.uniform(tf.shape(x))`
is a node taking the shape as an input; its static shape is what constant folding
knows ((None, 3)); the numbers equal eager ones and real TF's for the same seeds.
One PROGRAM runs under minitf and (once, in one subprocess) under real TF 2.21.
"""
import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

PROGRAM = r'''
import numpy as np
SPEC = [tf.TensorSpec([None, 3])]
static = {}


def rec(name, t):
    static[name] = [str(t.shape), t.dtype.name]
    return t


g = tf.random.Generator.from_seed(7)


@tf.function(input_signature=SPEC, autograph=False)
def seeded(x):
    s = tf.shape(x)
    return {
        "uniform": rec("uniform", tf.random.uniform(s, seed=1)),
        "uniform_pack": rec("uniform_pack", tf.random.uniform([s[0], 2], seed=2)),
        "uniform_bounds": rec("uniform_bounds", tf.random.uniform(s, -2.0, 3.0, seed=3)),
        "uniform_int": rec("uniform_int", tf.random.uniform(s, 0, 10, tf.int32, seed=3)),
        "normal": rec("normal", tf.random.normal(s, 1.0, 2.0, seed=4)),
        "truncated": rec("truncated", tf.random.truncated_normal(s, seed=5)),
        "s_uniform": rec("s_uniform", tf.random.stateless_uniform(s, [1, 2])),
        "s_int": rec("s_int", tf.random.stateless_uniform(s, [1, 2], 0, 9, tf.int64)),
        "s_full_int": rec("s_full_int", tf.random.stateless_uniform(
            s, [7, 8], minval=None, maxval=None, dtype=tf.int32)),
        "s_normal": rec("s_normal", tf.random.stateless_normal(s, [3, 4])),
        "s_truncated": rec("s_truncated", tf.random.stateless_truncated_normal(s, [5, 6])),
        "dropout": rec("dropout", tf.nn.dropout(x, 0.5, seed=6)),
        "s_dropout": rec("s_dropout", tf.nn.experimental.stateless_dropout(x, 0.5, [1, 2])),
        "dropout_rows": rec("dropout_rows", tf.nn.dropout(x, 0.5, tf.stack([s[0], 1]), seed=7)),
        "g_normal": rec("g_normal", g.normal(s)),
        "g_uniform": rec("g_uniform", g.uniform(s)),
        "g_int": rec("g_int", g.uniform(s, 0, 5, tf.int32)),
    }


@tf.function(input_signature=SPEC, autograph=False)
def shaped(x):  # draws whose numbers are minitf's own (NumPy): shapes and dtypes only
    s = tf.shape(x)
    return {
        "gamma": rec("gamma", tf.random.gamma(s, [1.0, 2.0], seed=1)),
        "poisson": rec("poisson", tf.random.poisson(s, 3.0, tf.int32, seed=1)),
        "s_gamma": rec("s_gamma", tf.random.stateless_gamma(s, [1, 2], alpha=1.5)),
        "s_poisson": rec("s_poisson", tf.random.stateless_poisson(s, [1, 2], lam=3.0)),
        "s_binomial": rec("s_binomial", tf.random.stateless_binomial(s, [1, 2], 5.0, 0.5)),
        "s_ptn": rec("s_ptn", tf.random.stateless_parameterized_truncated_normal(s, [1, 2])),
        "g_truncated": rec("g_truncated", g.truncated_normal(s)),
        "shuffle": rec("shuffle", tf.random.shuffle(x, seed=1)),
        "categorical": rec("categorical", tf.random.categorical(x, 4, seed=1)),
        "categorical_n": rec("categorical_n", tf.random.categorical(x, s[0], seed=2)),
        "s_categorical": rec("s_categorical", tf.random.stateless_categorical(x, 4, [1, 2])),
        "k_normal": rec("k_normal", tf.keras.random.normal(s, seed=1)),
        "k_uniform": rec("k_uniform", tf.keras.random.uniform(s, seed=1)),
        "k_dropout": rec("k_dropout", tf.keras.random.dropout(x, 0.5, seed=1)),
    }


def errors():
    out = {}
    cases = {"float": lambda x: tf.random.uniform(tf.cast(tf.shape(x), tf.float32)),
             "matrix": lambda x: tf.random.normal(tf.reshape(tf.shape(x), [1, 2])),
             "negative": lambda x: tf.random.uniform(tf.shape(x) - 3),
             "s_negative": lambda x: tf.random.stateless_uniform(tf.shape(x) - 3, [1, 2])}
    for name, fn in cases.items():
        try:
            tf.function(fn, input_signature=SPEC, autograph=False)(tf.ones([2, 3]))
            out[name] = "no error"
        except Exception as e:
            out[name] = type(e).__name__
    return out


def values(d):
    return {k: np.asarray(v).tolist() for k, v in d.items()}


ones2, ones5 = tf.ones([2, 3]), tf.ones([5, 3])
out = {"call2": values(seeded(ones2)), "call5": values(seeded(ones5)),
       "again2": values(seeded(ones2))}
shapes = [{k: [list(v.shape), v.dtype.name] for k, v in shaped(t).items()}
          for t in (ones2, ones5)]
out.update(shapes=shapes, static=static, errors=errors(),
           traces=[seeded.experimental_get_tracing_count(),
                   shaped.experimental_get_tracing_count()])
'''


def run_program(module):
    module.random.set_seed(None)  # as a fresh TF process: no global seed (xdist shares one)
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


SEEDED = ["uniform", "uniform_pack", "uniform_bounds", "uniform_int", "normal", "truncated",
          "s_uniform", "s_int", "s_full_int", "s_normal", "s_truncated", "dropout",
          "s_dropout", "dropout_rows", "g_normal", "g_uniform", "g_int"]


def close(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and np.allclose(a, b, rtol=2e-6, atol=1e-6)


# --- without real TF --------------------------------------------------------------------------
def test_static_shapes_keep_what_is_known(mine):
    assert mine["static"]["uniform"] == ["(None, 3)", "float32"]
    assert mine["static"]["uniform_pack"] == ["(None, 2)", "float32"]
    assert mine["static"]["gamma"] == ["(None, 3, 2)", "float32"]
    assert mine["static"]["categorical"] == ["(None, 4)", "int64"]
    assert mine["static"]["categorical_n"] == ["(None, None)", "int64"]
    assert mine["shapes"][1]["categorical_n"] == [[5, 5], "int64"]
    assert mine["traces"] == [1, 1]


def test_graph_numbers_follow_the_run_time_shape_and_equal_eager(mine):
    assert np.shape(mine["call2"]["uniform"]) == (2, 3)
    assert np.shape(mine["call5"]["uniform_pack"]) == (5, 2)
    assert mine["shapes"][1]["gamma"] == [[5, 3, 2], "float32"]
    # stateless draws are pure functions of (shape, seed): eager gives the same numbers
    eager = tf.random.stateless_normal([5, 3], [3, 4]).numpy()
    assert close(mine["call5"]["s_normal"], eager)
    assert not close(mine["call2"]["s_normal"], eager[:1])
    # a stateful kernel moves on: the third call differs from the first
    assert not close(mine["call2"]["uniform"], mine["again2"]["uniform"])


def test_graph_kernel_draws_the_eager_kernels_numbers():
    tf.random.set_seed(None)
    spec = [tf.TensorSpec([None, 3])]
    f = tf.function(lambda x: tf.random.uniform(tf.shape(x), seed=11), input_signature=spec)
    traced = f(tf.ones([2, 3])).numpy()
    tf.random.set_seed(None)
    assert close(traced, tf.random.uniform([2, 3], seed=11).numpy())


def test_bad_shape_tensors_raise_tf_errors(mine):
    assert mine["errors"] == {"float": "TypeError", "matrix": "ValueError",
                              "negative": "InvalidArgumentError",
                              "s_negative": "InvalidArgumentError"}


def test_keras_noise_layers_trace_once_with_a_none_batch():
    drop = tf.keras.layers.Dropout(0.5, seed=1)
    noise = tf.keras.layers.GaussianNoise(0.1, seed=2)
    flip = tf.keras.layers.RandomFlip("horizontal", seed=3)

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        images = tf.reshape(x, [-1, 1, 3, 1])
        return (drop(x, training=True), noise(x, training=True),
                tf.reshape(flip(images, training=True), [-1, 3]))

    static = f.get_concrete_function().structured_outputs
    assert [str(t.shape) for t in static] == ["(None, 3)"] * 3
    for batch in (2, 5):
        x = tf.reshape(tf.range(batch * 3, dtype=tf.float32) + 1, [batch, 3])
        dropped, noisy, flipped = (t.numpy() for t in f(x))
        assert dropped.shape == noisy.shape == flipped.shape == (batch, 3)
        assert np.all((dropped == 0) | (dropped == 2 * x.numpy()))
        assert 0 < np.abs(noisy - x.numpy()).max() < 1
        rows = [r.tolist() in (o.tolist(), o[::-1].tolist()) for r, o in zip(flipped, x.numpy())]
        assert all(rows)
    assert f.experimental_get_tracing_count() == 1


def test_spatial_dropout_drops_whole_channels_with_a_none_batch():
    layer = tf.keras.layers.SpatialDropout1D(0.5, seed=4)
    f = tf.function(lambda x: layer(x, training=True),
                    input_signature=[tf.TensorSpec([None, 3, 4])])
    for batch in (2, 5):
        y = f(tf.ones([batch, 3, 4])).numpy()
        assert y.shape == (batch, 3, 4) and set(np.unique(y)) <= {0.0, 2.0}
        assert np.all(y == y[:, :1, :])  # one decision per (example, channel)
    assert f.experimental_get_tracing_count() == 1


# --- against real TF 2.21 ---------------------------------------------------------------------
def test_static_shapes_and_dtypes_equal_real_tf(mine, real):
    assert mine["static"] == real["static"]
    assert mine["traces"] == real["traces"]


@pytest.mark.parametrize("call", ["call2", "call5", "again2"])
def test_seeded_graph_numbers_equal_real_tf(mine, real, call):
    wrong = [k for k in SEEDED if not close(mine[call][k], real[call][k])]
    assert not wrong, wrong


def test_run_shapes_and_errors_equal_real_tf(mine, real):
    assert mine["shapes"] == real["shapes"]
    assert mine["errors"] == real["errors"]
