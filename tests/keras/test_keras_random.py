"""tf.keras.random (Keras 3.15) and keras.random.SeedGenerator: every expression below runs
in minitf and, all in one subprocess, in real TF 2.21's Keras. The draws cannot equal
Keras's (TF's Philox stream), so `meta(...)` compares dtype and shape; seed behaviour
(which calls repeat, how a SeedGenerator's state moves, set_random_seed) is compared as
booleans and values. The tests after CASES need no TF."""
import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

K = "tf.keras.random"
CASES = {
    "normal": f"meta({K}.normal((2, 3), seed=1))",
    "normal_f64": f"meta({K}.normal((2,), dtype='float64', seed=1))",
    "normal_f16": f"meta({K}.normal((2,), mean=1.0, stddev=0.1, dtype='float16', seed=1))",
    "uniform": f"meta({K}.uniform((4,), minval=-1, maxval=1, seed=1))",
    "uniform_int": f"{K}.uniform((4,), dtype='int32', seed=1)",
    "uniform_range": f"in_range({K}.uniform((200,), 2.0, 3.0, seed=4), 2.0, 3.0)",
    "truncated": f"meta({K}.truncated_normal((5,), seed=1))",
    "truncated_range": f"in_range({K}.truncated_normal((500,), seed=1), -2.0, 2.0)",
    "randint": f"meta({K}.randint((3,), 0, 10, seed=1))",
    "randint_i64": f"meta({K}.randint((3,), 0, 10, dtype='int64', seed=1))",
    "randint_u8": f"meta({K}.randint((3,), 0, 10, dtype='uint8', seed=1))",
    "randint_i16": f"meta({K}.randint((3,), -5, 5, dtype='int16', seed=1))",
    "randint_float": f"{K}.randint((3,), 0, 10, dtype='float32')",
    "randint_range": f"in_range({K}.randint((200,), 3, 6, seed=2), 3, 5)",
    "categorical": f"meta({K}.categorical([[0., 1., 2.]], 4, seed=1))",
    "categorical_i64": f"meta({K}.categorical([[0., 1.], [1., 0.]], 3, dtype='int64', seed=1))",
    "categorical_rank1": f"{K}.categorical([0., 1.], 3, seed=1)",
    "categorical_certain": f"{K}.categorical([[-1e9, 0., -1e9]], 3, seed=1)",
    "dropout": f"meta({K}.dropout(tf.ones((4, 3)), 0.5, seed=1))",
    "dropout_values": f"sorted(set({K}.dropout(tf.ones((400,)), 0.75, seed=1).numpy().tolist()))",
    "dropout_zero": f"{K}.dropout(tf.ones((2,)), 0.0)",
    "dropout_one": f"{K}.dropout(tf.ones((2,)), 1.0)",
    "dropout_noise_shape": f"columns_equal({K}.dropout(tf.ones((8, 3)), 0.5, noise_shape=(None, 1),"
                           " seed=3))",
    "shuffle": f"tf.sort({K}.shuffle(tf.range(6), seed=1))",
    "shuffle_axis": f"meta({K}.shuffle(tf.reshape(tf.range(6.), (2, 3)), axis=1, seed=1))",
    "gamma": f"meta({K}.gamma((3, 2), alpha=[1., 5.], seed=1))",
    "gamma_f64": f"meta({K}.gamma((3,), alpha=2., dtype='float64', seed=1))",
    "binomial": f"meta({K}.binomial((3,), counts=10, probabilities=0.5, seed=1))",
    "binomial_int": f"meta({K}.binomial((3,), counts=10, probabilities=0.5, dtype='int32', "
                    "seed=1))",
    "beta": f"meta({K}.beta((4,), alpha=2., beta=3., seed=1))",
    "beta_range": f"in_range({K}.beta((300,), alpha=0.5, beta=0.5, seed=1), 0.0, 1.0)",
    "bad_seed": f"{K}.normal((2,), seed=1.5)",
    "bad_seed_str": f"{K}.normal((2,), seed='a')",
    # seeds
    "int_seed_repeats": f"equal({K}.normal((3,), seed=5), {K}.normal((3,), seed=5))",
    "int_seeds_differ": f"equal({K}.normal((3,), seed=5), {K}.normal((3,), seed=6))",
    "generator_moves_on": "generator_moves_on()",
    "generator_state": f"{K}.SeedGenerator(42).state.numpy().tolist()",
    "generator_dtype": f"tf.as_dtype({K}.SeedGenerator(42).state.dtype).name",
    "generator_after_draw": "generator_after_draw()",
    "generator_trainable": f"{K}.SeedGenerator(1).state.trainable",
    "generator_config": f"{K}.SeedGenerator(7, name='g').get_config()",
    "generator_none_config": f"{K}.SeedGenerator(name='g').get_config()",
    "generator_bad_seed": f"{K}.SeedGenerator(1.5)",
    "generator_bad_kwarg": f"{K}.SeedGenerator(1, foo=2)",
    "same_generators_same_numbers": "same_generators()",
    "set_random_seed_repeats": "set_random_seed_repeats()",
    "unseeded_calls_differ": f"equal({K}.normal((3,)), {K}.normal((3,)))",
    "set_random_seed_bad": "tf.keras.utils.set_random_seed(1.5)",
}

HELPERS = """
def plain(value):
    if value is None or isinstance(value, (bool, int, float, str, dict)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    array = np.asarray(value.numpy())
    return {"dtype": value.dtype.name, "shape": list(array.shape), "values": array.tolist()}


def meta(value):
    return {"dtype": value.dtype.name, "shape": list(value.shape)}


def in_range(x, lo, hi):
    x = np.asarray(x)
    return bool(x.min() >= lo and x.max() <= hi)


def equal(a, b):
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def columns_equal(x):
    x = np.asarray(x)
    return bool((x == x[:, :1]).all())


def generator_moves_on():
    gen = tf.keras.random.SeedGenerator(3)
    return equal(tf.keras.random.uniform((4,), seed=gen), tf.keras.random.uniform((4,), seed=gen))


def generator_after_draw():
    gen = tf.keras.random.SeedGenerator(42)
    tf.keras.random.normal((2,), seed=gen)
    tf.keras.random.randint((2,), 0, 3, seed=gen)
    return gen.state.numpy().tolist()


def same_generators():
    a, b = tf.keras.random.SeedGenerator(9), tf.keras.random.SeedGenerator(9)
    tf.keras.random.normal((2,), seed=a)
    tf.keras.random.normal((2,), seed=b)
    return equal(tf.keras.random.normal((3,), seed=a), tf.keras.random.normal((3,), seed=b))


def set_random_seed_repeats():
    tf.keras.utils.set_random_seed(11)
    a = [tf.keras.random.normal((3,)), tf.keras.random.uniform((3,)),
         tf.keras.random.dropout(tf.ones((6,)), 0.5)]
    tf.keras.utils.set_random_seed(11)
    b = [tf.keras.random.normal((3,)), tf.keras.random.uniform((3,)),
         tf.keras.random.dropout(tf.ones((6,)), 0.5)]
    return [equal(x, y) for x, y in zip(a, b)]


def run(code):
    try:
        return plain(eval(code))
    except Exception as exc:  # the error class is part of the behaviour compared
        return {"error": type(exc).__name__}
"""
exec(HELPERS)


@pytest.fixture(scope="module")
def real():
    lines = "\n".join(f"out[{k!r}] = run({v!r})" for k, v in CASES.items())
    return run_tf_json(f"""
import json, numpy as np, tensorflow as tf
{HELPERS}
out = {{}}
{lines}
print(json.dumps(out))
""", timeout=600)


@pytest.mark.parametrize("key", sorted(CASES))
def test_same_as_real_keras(real, key):
    mine = run(CASES[key])
    assert mine == real[key], (CASES[key], mine, real[key])


def test_comparison_can_fail():
    assert run("meta(tf.keras.random.normal((2,), seed=1))") != \
        run("meta(tf.keras.random.normal((3,), seed=1))")
    assert run("tf.keras.random.uniform((2,), dtype='int32')") != run("tf.zeros((2,))")


# --- without TF ----------------------------------------------------------------------------------
def test_int_seed_is_the_stateless_pair_seed_zero():
    # Keras's TF backend: seed s -> [s, 0] as int64, taken mod 2**31 - 2 and cast to int32
    x = tf.keras.random.normal((3,), seed=5)
    same = tf.random.stateless_normal((3,), seed=tf.constant([5, 0], tf.int32))
    assert np.array_equal(x.numpy(), same.numpy())


def test_seed_generator_counter_and_unordered_scramble():
    from minitf.keras.random.seed_generator import SeedGenerator
    gen = SeedGenerator(10)
    assert gen.next().numpy().tolist() == [10, 0]
    assert gen.next().numpy().tolist() == [10, 1]
    gen.next(ordered=False)
    assert gen.state.numpy().tolist() == [(10 + 1) * 5387 % 933199, (2 + 1) * 5387 % 933199]


def test_distributions_have_their_moments():
    x = tf.keras.random.normal((20000,), mean=2.0, stddev=3.0, seed=1).numpy()
    assert abs(x.mean() - 2.0) < 0.1 and abs(x.std() - 3.0) < 0.1
    b = tf.keras.random.beta((20000,), alpha=2.0, beta=3.0, seed=1).numpy()
    assert abs(b.mean() - 0.4) < 0.01
    g = tf.keras.random.gamma((20000,), alpha=3.0, seed=1).numpy()
    assert abs(g.mean() - 3.0) < 0.1
    n = tf.keras.random.binomial((20000,), counts=10, probabilities=0.3, seed=1).numpy()
    assert abs(n.mean() - 3.0) < 0.05
    d = tf.keras.random.dropout(tf.ones((20000,)), 0.3, seed=1).numpy()
    assert abs((d == 0).mean() - 0.3) < 0.015 and abs(d.mean() - 1.0) < 0.03


def test_random_ops_in_a_tf_function_with_a_seed_generator():
    gen = tf.keras.random.SeedGenerator(4)

    @tf.function
    def draw():
        return tf.keras.random.uniform((3,), seed=gen)

    a, b = draw(), draw()
    assert not np.array_equal(a.numpy(), b.numpy())  # the state variable moved on inside
    assert gen.state.numpy().tolist() == [4, 2]


def test_shuffle_keeps_rows_and_is_seeded():
    x = tf.reshape(tf.range(12), (4, 3))
    s = tf.keras.random.shuffle(x, seed=3)
    assert sorted(map(tuple, s.numpy().tolist())) == sorted(map(tuple, x.numpy().tolist()))
    assert np.array_equal(s.numpy(), tf.keras.random.shuffle(x, seed=3).numpy())
