"""tf.random: TF's seed semantics, distributions, dtypes, shapes, gradients of the
affine parts, stateless ops, tf.random.Generator, and TF's errors.

What is checked here is which numbers repeat and which differ, as
`tf.random.set_seed` documents; tests/random/test_philox*.py check the numbers
themselves against TF's (Philox) streams.
"""
import subprocess
import sys

import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from strategies import arrays, broadcasting_pair

import minitf as tf
from minitf.framework import context
from minitf.ops import random_ops
from minitf.ops.random_ops import get_seed


@pytest.fixture(autouse=True)
def no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.numpy(), b.numpy())


# Every stateful op, called the same way each time (seed=None: the op seed is left to TF's rule).
STATEFUL = {
    "uniform": lambda seed=None: tf.random.uniform([6], seed=seed),
    "uniform_int": lambda seed=None: tf.random.uniform([6], 0, 1000, tf.int64, seed=seed),
    "normal": lambda seed=None: tf.random.normal([6], seed=seed),
    "truncated_normal": lambda seed=None: tf.random.truncated_normal([6], seed=seed),
    "shuffle": lambda seed=None: tf.random.shuffle(tf.range(20), seed=seed),
    "categorical": lambda seed=None: tf.random.categorical(tf.zeros([1, 50]), 6, seed=seed),
}


# --- seed semantics -------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(STATEFUL))
def test_global_seed_replays_the_program_and_successive_calls_differ(name):
    op = STATEFUL[name]
    tf.random.set_seed(1234)
    first, second = op(), op()
    tf.random.set_seed(1234)
    assert same(op(), first) and same(op(), second)
    assert not same(first, second)


@pytest.mark.parametrize("name", sorted(STATEFUL))
def test_op_seed_kernel_counts_its_calls_and_set_seed_resets_it(name):
    op = STATEFUL[name]
    tf.random.set_seed(7)
    first, second = op(seed=1), op(seed=1)
    assert not same(first, second)  # A1, A2: the kernel's counter moved on
    tf.random.set_seed(7)
    assert same(op(seed=1), first) and same(op(seed=1), second)


def test_op_seed_without_global_seed_repeats_after_a_reset():
    a1, a2 = tf.random.uniform([3], seed=5), tf.random.uniform([3], seed=5)
    tf.random.set_seed(None)  # clears the kernels, as a fresh program would start
    assert same(tf.random.uniform([3], seed=5), a1)
    assert same(tf.random.uniform([3], seed=5), a2)


def test_no_seed_at_all_gives_new_numbers_every_call():
    assert not same(tf.random.uniform([8]), tf.random.uniform([8]))


def test_global_and_op_seeds_both_select_the_sequence():
    tf.random.set_seed(1)
    a = tf.random.uniform([4], seed=3)
    tf.random.set_seed(2)
    b = tf.random.uniform([4], seed=3)
    tf.random.set_seed(1)
    c = tf.random.uniform([4], seed=4)
    assert not same(a, b) and not same(a, c)


def test_kernels_are_per_op_type():
    # uniform(seed=1) keeps its own counter: a normal(seed=1) in between does not disturb it.
    tf.random.set_seed(5)
    tf.random.uniform([2], seed=1)
    expected = tf.random.uniform([2], seed=1)
    tf.random.set_seed(5)
    tf.random.uniform([2], seed=1)
    tf.random.normal([2], seed=1)
    assert same(tf.random.uniform([2], seed=1), expected)


def test_with_only_a_global_seed_every_op_call_takes_the_next_op_seed():
    tf.random.set_seed(5)
    tf.random.uniform([2])
    expected = tf.random.uniform([2])
    tf.random.set_seed(5)
    tf.random.uniform([2])
    tf.random.normal([2])  # consumed an op seed
    assert not same(tf.random.uniform([2]), expected)


def test_one_off_kernels_keep_no_state():
    # With only a global seed every call gets a fresh op seed, so nothing needs counting:
    # a long training loop does not pile up kernels.
    tf.random.set_seed(1)
    for _ in range(50):
        tf.random.normal([2])
    assert random_ops._state.kernel_calls == {}


def test_get_seed_follows_tf_exactly():
    # Values printed by TensorFlow 2.21's random_seed.get_seed in the same situations.
    assert get_seed(None) == (None, None)
    assert get_seed(5) == (87654321, 5)
    assert get_seed(2**31 - 1 + 5) == (87654321, 5)
    tf.random.set_seed(1234)
    assert get_seed(None) == (1234, 1892932127)
    assert get_seed(None) == (1234, 501869158)
    assert get_seed(7) == (1234, 7)
    tf.random.set_seed(0)
    assert get_seed(0) == (0, 2**31 - 1)  # (0, 0) would mean "nondeterministic" to a kernel


def test_while_tracing_op_seeds_count_per_graph():
    class Graph:  # stands in for a tf.function graph being traced
        pass

    tf.random.set_seed(9)
    first, second = Graph(), Graph()
    try:
        context.graph_stack.append(first)
        assert [get_seed(None) for _ in range(3)] == [(9, 0), (9, 1), (9, 2)]
        context.graph_stack.append(second)
        assert get_seed(None) == (9, 0)  # every traced function starts the same sequence
    finally:
        del context.graph_stack[-2:]


SCRIPT = """
import minitf as tf
print(tf.random.uniform([3]).numpy().tolist())
print([tf.random.uniform([3], seed=3).numpy().tolist() for _ in range(2)])
tf.random.set_seed(11)
print(tf.random.normal([3]).numpy().tolist(), tf.random.normal([3]).numpy().tolist())
"""


def test_reruns_of_a_program_repeat_seeded_numbers_only():
    runs = [subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                           check=True).stdout.splitlines() for _ in range(2)]
    unseeded, op_seeded, global_seeded = zip(*runs)
    assert unseeded[0] != unseeded[1]
    assert op_seeded[0] == op_seeded[1] and global_seeded[0] == global_seeded[1]


# --- values, dtypes, shapes -----------------------------------------------------------------
@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_uniform_floats_fill_zero_to_one(dtype):
    x = tf.random.uniform([20000], dtype=dtype, seed=1)
    assert x.dtype == dtype and x.shape == [20000]
    v = x.numpy().astype(np.float64)
    assert v.min() >= 0 and v.max() < 1
    assert abs(v.mean() - 0.5) < 0.01 and abs(v.var() - 1 / 12) < 0.003


def test_uniform_bounds_broadcast_and_scale():
    x = tf.random.uniform([1000, 3], minval=[0.0, 10.0, -5.0], maxval=[1.0, 20.0, -4.0], seed=2)
    v = x.numpy()
    assert np.all(v >= [0, 10, -5]) and np.all(v < [1, 20, -4])
    assert np.all(np.abs(v.mean(axis=0) - [0.5, 15, -4.5]) < [0.05, 0.5, 0.05])


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_uniform_integers_cover_minval_to_maxval_exclusive(dtype):
    x = tf.random.uniform([5000], minval=-3, maxval=4, dtype=dtype, seed=3)
    assert x.dtype == dtype
    assert sorted(set(x.numpy().tolist())) == list(range(-3, 4))


def test_uniform_shapes_scalars_tensors_and_empty():
    assert tf.random.uniform([]).shape == []
    assert tf.random.uniform(()).shape == []
    assert tf.random.uniform(tf.constant([2, 1])).shape == [2, 1]
    assert tf.random.uniform(tf.TensorShape([3])).shape == [3]
    assert tf.random.normal([2, 0]).shape == [2, 0]
    assert tf.random.uniform([2], dtype="float64").dtype == tf.float64


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_normal_moments(dtype):
    x = tf.random.normal([20000], mean=3.0, stddev=0.5, dtype=dtype, seed=4)
    assert x.dtype == dtype
    assert abs(x.numpy().mean() - 3.0) < 0.02 and abs(x.numpy().std() - 0.5) < 0.02


def test_normal_parameters_broadcast():
    x = tf.random.normal([3], mean=[1.0, 2.0, 3.0], stddev=0.0)
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0, 3.0])
    assert tf.random.normal([2, 2], mean=[1.0, 2.0], seed=1).shape == [2, 2]


def test_truncated_normal_redraws_beyond_two_stddev():
    x = tf.random.truncated_normal([20000], mean=1.0, stddev=2.0, seed=5).numpy()
    assert np.all(np.abs(x - 1.0) <= 4.0)
    # The standard normal cut at +-2 has standard deviation 0.8796.
    assert abs(x.std() / 2.0 - 0.8796) < 0.02 and abs(x.mean() - 1.0) < 0.05
    assert tf.random.truncated_normal([2], dtype=tf.float16).dtype == tf.float16


def test_shuffle_permutes_rows_only():
    x = tf.reshape(tf.range(20), [10, 2])
    y = tf.random.shuffle(x, seed=1)
    assert y.dtype == tf.int32 and y.shape == [10, 2]
    rows = sorted(map(tuple, y.numpy().tolist()))
    assert rows == [(2 * i, 2 * i + 1) for i in range(10)]
    orders = {tuple(tf.random.shuffle(tf.range(10)).numpy().tolist()) for _ in range(5)}
    assert len(orders) > 1


def test_shuffle_strings_scalars_and_empty():
    assert sorted(tf.random.shuffle(["a", "b", "c"]).numpy().tolist()) == [b"a", b"b", b"c"]
    assert tf.random.shuffle(5).numpy() == 5
    assert tf.random.shuffle(tf.zeros([0, 2])).shape == [0, 2]


def test_categorical_frequencies_follow_softmax():
    probs = np.array([0.1, 0.2, 0.7])
    draws = tf.random.categorical(tf.math.log([probs, probs[::-1]]), 20000, seed=6)
    assert draws.dtype == tf.int64 and draws.shape == [2, 20000]
    for row, expected in zip(draws.numpy(), (probs, probs[::-1])):
        np.testing.assert_allclose(np.bincount(row, minlength=3) / 20000, expected, atol=0.015)


def test_categorical_options_and_impossible_classes():
    draws = tf.random.categorical([[0.0, -np.inf, 0.0]], 500, dtype=tf.int32)
    assert draws.dtype == tf.int32 and 1 not in draws.numpy()
    assert tf.random.categorical([[0.0, 0.0]], 0).shape == [1, 0]
    assert tf.random.categorical(tf.zeros([0, 2]), 2).shape == [0, 2]
    assert tf.random.categorical([[0.0, 0.0]], tf.constant(3)).shape == [1, 3]
    assert tf.random.categorical(tf.zeros([1, 2], tf.float16), 2).shape == [1, 2]


# --- gradients: none through the draw, but mean/stddev/minval/maxval get theirs -------------
def seeded_normal(shape, dtype=tf.float64):
    def f(mean, stddev):
        tf.random.set_seed(3)  # the same draw on every call check_grads makes
        return tf.random.normal(shape, mean=mean, stddev=stddev, dtype=dtype)

    return f


@given(shapes=broadcasting_pair())
def test_normal_gradient_reaches_mean_and_stddev(shapes):
    out_shape = np.broadcast_shapes(*shapes)
    check_grads(seeded_normal(list(out_shape)), arrays(shapes[0], seed=1),
                arrays(shapes[1], 0.5, 2.0, seed=2))


def test_truncated_and_uniform_gradients_reach_their_parameters():
    def truncated(mean, stddev):
        return tf.random.stateless_truncated_normal([3], [4, 5], mean, stddev, tf.float64)

    def uniform(low, high):
        return tf.random.stateless_uniform([2, 3], [6, 7], low, high, tf.float64)

    check_grads(truncated, np.array(0.3), np.array([1.5, 0.7, 2.0]), order=2)
    check_grads(uniform, np.array([0.0, 1.0, 2.0]), np.array(5.0), order=2)


def test_reparameterization_gradient_values():
    mean, stddev = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.random.normal([5], mean=mean, stddev=stddev, seed=1)
    d_mean, d_stddev = tape.gradient(y, [mean, stddev])
    assert float(d_mean) == 5.0
    np.testing.assert_allclose(float(d_stddev), float(tf.reduce_sum((y - mean) / stddev)),
                               rtol=1e-5)


def test_shuffle_and_categorical_have_no_gradient():
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        shuffled = tf.random.shuffle(x)
        drawn = tf.random.categorical([x], 2)
    assert tape.gradient(shuffled, x) is None
    assert tape.gradient(drawn, x) is None


# --- stateless ops --------------------------------------------------------------------------
def test_stateless_ops_are_pure_functions_of_seed_and_shape():
    for fn in (tf.random.stateless_uniform, tf.random.stateless_normal,
               tf.random.stateless_truncated_normal):
        a = fn([4], seed=[1, 2])
        assert same(a, fn([4], seed=[1, 2]))
        assert same(a, fn([4], seed=tf.constant([1, 2], tf.int64)))
        assert not same(a, fn([4], seed=[2, 1]))
    tf.random.set_seed(3)  # the global seed plays no part
    assert same(tf.random.stateless_normal([4], [1, 2]), tf.random.stateless_normal([4], [1, 2]))


def test_stateless_integer_uniform():
    x = tf.random.stateless_uniform([3000], [1, 2], minval=2, maxval=5, dtype=tf.int64)
    assert x.dtype == tf.int64 and sorted(set(x.numpy().tolist())) == [2, 3, 4]
    full = tf.random.stateless_uniform([3000], [1, 2], minval=None, maxval=None, dtype=tf.uint32)
    assert full.dtype == tf.uint32 and full.numpy().max() > 2**31


def test_stateless_moments_and_bounds():
    u = tf.random.stateless_uniform([20000], [3, 4], minval=-2.0, maxval=2.0).numpy()
    n = tf.random.stateless_normal([20000], [3, 4], mean=1.0, stddev=3.0).numpy()
    t = tf.random.stateless_truncated_normal([20000], [3, 4]).numpy()
    assert u.min() >= -2 and u.max() < 2 and abs(u.mean()) < 0.05
    assert abs(n.mean() - 1) < 0.1 and abs(n.std() - 3) < 0.1
    assert np.abs(t).max() <= 2 and abs(t.std() - 0.8796) < 0.02


# --- tf.random.Generator ----------------------------------------------------------------
def test_generator_from_seed_replays_and_advances():
    g1, g2 = tf.random.Generator.from_seed(1), tf.random.Generator.from_seed(1)
    a = g1.normal([3])
    assert same(a, g2.normal([3]))
    assert not same(a, g1.normal([3]))
    assert not same(a, tf.random.Generator.from_seed(2).normal([3]))
    g1.reset_from_seed(1)
    assert same(g1.normal([3]), a)


def test_generator_state_is_a_non_trainable_int64_variable():
    g = tf.random.Generator.from_seed(5)
    assert isinstance(g.state, tf.Variable) and g.state.name == "StateVar:0"
    assert g.state.dtype == tf.int64 and g.state.shape == [3] and not g.state.trainable
    before = g.state.numpy().copy()
    g.uniform([4])
    # TF's reservation: the counter (word 0) moves 256 Philox blocks per value; the key stays
    assert g.state.numpy()[0] == before[0] + 4 * 256 and g.state.numpy()[2] == before[2]
    copy = tf.random.Generator(copy_from=g)
    assert same(copy.normal([2]), g.normal([2]))
    assert g.algorithm == 1 and int(g.key) == 0  # as TF: from_seed(5) is state [5, 0, 0]


def test_generator_draws():
    g = tf.random.Generator.from_seed(3)
    u = g.uniform([1000], minval=1.0, maxval=3.0).numpy()
    assert u.min() >= 1 and u.max() < 3
    ints = g.uniform([500], minval=0, maxval=3, dtype=tf.int32)
    assert ints.dtype == tf.int32 and set(ints.numpy().tolist()) == {0, 1, 2}
    assert g.uniform([2], minval=None, maxval=None, dtype=tf.int64).dtype == tf.int64
    assert g.uniform_full_int([2]).dtype == tf.uint64
    assert np.abs(g.truncated_normal([500]).numpy()).max() <= 2
    assert g.normal([2], dtype=tf.float64).dtype == tf.float64


def test_generator_seeds_for_stateless_ops_and_split():
    g = tf.random.Generator.from_seed(4)
    seeds = g.make_seeds(3)
    assert seeds.dtype == tf.int64 and seeds.shape == [2, 3]
    assert tf.random.stateless_uniform([2], seed=seeds[:, 0]).shape == [2]
    children = tf.random.Generator.from_seed(4).split(2)
    draws = [c.normal([3]) for c in children]
    assert not same(*draws)
    again = [c.normal([3]) for c in tf.random.Generator.from_seed(4).split(2)]
    assert all(same(a, b) for a, b in zip(draws, again))


def test_global_generator():
    g = tf.random.Generator.from_seed(8)
    tf.random.set_global_generator(g)
    assert tf.random.get_global_generator() is g
    assert tf.random.experimental.Generator is tf.random.Generator
    tf.random.set_global_generator(tf.random.Generator.from_non_deterministic_state())
    assert tf.random.get_global_generator() is not g


# --- TF's errors ----------------------------------------------------------------------
ERRORS = [
    (lambda: tf.random.uniform([2], dtype=tf.int32), ValueError,
     "Must specify maxval for integer dtype tf.int32"),
    (lambda: tf.random.uniform([2], dtype=tf.int8, maxval=3), ValueError,
     r"Argument `dtype` got invalid value <dtype: 'int8'>. Accepted dtypes are \(tf.float16"),
    (lambda: tf.random.uniform([2], dtype=tf.bool), ValueError, "Accepted dtypes"),
    (lambda: tf.random.uniform([2], 5, 5, dtype=tf.int32), tf.errors.InvalidArgumentError,
     "Need minval < maxval, got 5 >= 5"),
    (lambda: tf.random.uniform([2], [0, 1], 3, dtype=tf.int32), tf.errors.InvalidArgumentError,
     r"minval must be 0-D, got shape \[2\]"),
    (lambda: tf.random.uniform([-1]), tf.errors.InvalidArgumentError,
     "Dimension -1 must be >= 0"),
    (lambda: tf.random.normal(3), tf.errors.InvalidArgumentError,
     r"shape must be a vector of \{int32,int64\}, got shape \[\]"),
    (lambda: tf.random.uniform([2.5]), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.random.uniform([2], minval=tf.constant(0.0, tf.float64)), ValueError,
     "Tensor conversion requested dtype float32 for Tensor with dtype float64"),
    (lambda: tf.random.uniform([2], 1, 3.0, dtype=tf.int32), TypeError,
     "Cannot convert 3.0 to EagerTensor of dtype int32"),
    (lambda: tf.random.normal([2], dtype=tf.int32), TypeError,
     "Cannot convert 0.0 to EagerTensor of dtype int32"),
    (lambda: tf.random.normal([2], mean=[1.0, 2.0, 3.0]), tf.errors.InvalidArgumentError,
     r"Incompatible shapes: \[2\] vs. \[3\]"),
    (lambda: tf.random.truncated_normal([2], dtype=tf.int32), TypeError, "Cannot convert 0.0"),
    (lambda: tf.random.categorical([0.0, 0.0], 5), tf.errors.InvalidArgumentError,
     r"logits should be a matrix, got shape \[2\]"),
    (lambda: tf.random.categorical([[0.0, 0.0]], -1), tf.errors.InvalidArgumentError,
     "num_samples should be non-negative, got -1"),
    (lambda: tf.random.categorical(tf.zeros([2, 0]), 2), tf.errors.InvalidArgumentError,
     "num_classes should be positive, got 0"),
    (lambda: tf.random.categorical([[0, 0]], 2), tf.errors.NotFoundError,
     r"Could not find device for node: \{\{node Multinomial\}\}"),
    (lambda: tf.random.categorical([[0.0, 0.0]], 2, dtype=tf.int16), ValueError,
     r"Accepted dtypes are \(tf.int32, tf.int64\)"),
    (lambda: tf.random.categorical([[0.0, 0.0]], 2.5), TypeError,
     "Cannot convert 2.5 to EagerTensor of dtype int32"),
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2, 3]), tf.errors.InvalidArgumentError,
     r"seed must have shape \[2\], not \[3\] \[Op:StatelessRandomGetKeyCounter\]"),
    (lambda: tf.random.stateless_normal([2], seed=1), tf.errors.InvalidArgumentError,
     r"seed must have shape \[2\], not \[\]"),
    (lambda: tf.random.stateless_uniform([2], seed=[[1, 2]]), tf.errors.InvalidArgumentError,
     r"not \[1,2\]"),
    (lambda: tf.random.stateless_uniform([2], seed=[1.5, 2.0]), tf.errors.InvalidArgumentError,
     "Value for attr 'Tseed' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32), ValueError,
     "argument `minval` and `maxval` must be both None or not None"),
    (lambda: tf.random.stateless_uniform([2], [1, 2], maxval=3, dtype=tf.uint32), ValueError,
     "Please don't use unsigned integers in this case"),
    (lambda: tf.random.stateless_uniform([2], [1, 2], 5, 5, dtype=tf.int32),
     tf.errors.InvalidArgumentError, r"Need minval < maxval, got 5 >= 5 \[Op:StatelessRandom"),
    (lambda: tf.random.stateless_uniform([2], [1, 2], maxval=3, dtype=tf.int8), ValueError,
     "Accepted dtypes are"),
    (lambda: tf.random.Generator.from_seed(1).uniform([2], dtype=tf.int32), ValueError,
     "minval and maxval must be both `None` or both non-`None`; got minval=0 and maxval=None"),
    (lambda: tf.random.Generator.from_seed(1).uniform([2], 0, 3, dtype=tf.int8),
     tf.errors.InvalidArgumentError,
     "Value for attr 'dtype' of int8 is not in the list of allowed values: int32, int64"),
    (lambda: tf.random.Generator.from_seed(1, alg="foo"), ValueError,
     "Argument `alg` got unsupported value foo"),
    (lambda: tf.random.Generator(), ValueError, "from_seed"),
    (lambda: tf.random.Generator.from_state([1, 2], alg=1), ValueError,
     r"Shapes \(2,\) and \[3\] are incompatible"),
]


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_errors_name_the_op_and_teach():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.random.uniform([2], 3, 1, dtype=tf.int64)
    assert "[Op:RandomUniformInt]" in str(info.value) and "[minval, maxval)" in str(info.value)


def test_module_docstring_examples_run():
    import doctest

    for module in (random_ops, sys.modules["minitf.ops.stateful_random_ops"]):
        result = doctest.testmod(module, extraglobs={"tf": tf}, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0 and result.attempted > 0
