"""An error in the middle of a pipeline: every element produced before it arrives first.

The input (midstream_cases.py) yields 10 good elements and then raises. Whatever sits
between it and you - a parallel map, prefetch, a parallel interleave - you get those 10
(transformed), in order, and then the error, as in TF 2.21: the last test runs the same
pipelines under real TF and compares.
"""
import json
import os

import pytest

import midstream_cases
import minitf as tf
from real_tf import run_tf

PARALLELISM = [1, 2, 4, -1]  # -1 is tf.data.AUTOTUNE
BOOM = "InvalidArgumentError"  # TF's class for the generator's ValueError


def _run(ds):
    return tuple(midstream_cases.consume(ds))


def _pipelines(n):
    return midstream_cases.pipelines(tf, n)


@pytest.mark.parametrize("n", PARALLELISM)
def test_parallel_map_delivers_every_element_before_the_input_error(n):
    # before the fix: num_parallel_calls=4 delivered 7 of the 10, then the error
    got, error, names_it = _run(_pipelines(n)["map"])
    assert got == [2 * i for i in range(10)]
    assert (error, names_it) == (BOOM, True)


@pytest.mark.parametrize("n", PARALLELISM)
def test_prefetch_delivers_every_element_before_the_input_error(n):
    assert _run(_pipelines(n)["prefetch"]) == (list(range(10)), BOOM, True)
    assert _run(_pipelines(n)["map_then_prefetch"]) == (list(range(1, 11)), BOOM, True)


@pytest.mark.parametrize("n", PARALLELISM)
def test_interleave_of_failing_datasets_keeps_the_cycle_order(n):
    want = [v for i in range(10) for v in (i, 100 + i)]
    assert _run(_pipelines(n)["interleave_inner"]) == (want, BOOM, True)


@pytest.mark.parametrize("n", PARALLELISM)
def test_parallel_interleave_raises_an_input_error_where_the_cycle_reaches_it(n):
    # before the fix: opening ahead met the input's error early and lost 5 elements
    want = [0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 4, 5, 6, 7,
            8, 8, 9, 9]
    assert _run(_pipelines(n)["interleave_outer"]) == (want, BOOM, True)
    assert _run(_pipelines(n)["interleave_outer_sequential"]) == (want, BOOM, True)


@pytest.mark.parametrize("n", PARALLELISM)
def test_map_function_failing_at_element_5_delivers_0_to_4_then_its_error(n):
    for name in ("map_fn_assert", "map_fn_py_function"):
        got, error, _ = _run(_pipelines(n)[name])
        assert (got, error) == ([0, 1, 2, 3, 4], BOOM), name


def test_from_generator_reports_the_generator_error_as_tf_does():
    # TF 2.21 runs the generator in a PyFunc op: ValueError/TypeError become
    # InvalidArgumentError, NotImplementedError UnimplementedError, MemoryError
    # ResourceExhaustedError, anything else UnknownError; the message starts with the
    # Python exception.
    cases = [(ValueError("v"), tf.errors.InvalidArgumentError, "ValueError: v"),
             (TypeError("t"), tf.errors.InvalidArgumentError, "TypeError: t"),
             (IndexError("i"), tf.errors.UnknownError, "IndexError: i"),
             (KeyError("k"), tf.errors.UnknownError, "KeyError: 'k'"),
             (NotImplementedError("n"), tf.errors.UnimplementedError, "NotImplementedError: n"),
             (MemoryError("m"), tf.errors.ResourceExhaustedError, "MemoryError: m")]
    for raised, cls, start in cases:
        def gen(raised=raised):
            yield 1
            raise raised
        ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))
        it = iter(ds)
        assert int(next(it)) == 1
        with pytest.raises(cls) as info:
            next(it)
        assert info.value.message.startswith(start + " [Op:IteratorGetNext]")
        assert "after yielding 1 element(s)" in info.value.message
        assert info.value.__cause__ is raised  # the traceback shows the generator's line


@pytest.mark.parametrize("n", [None, 1, 4, -1])
def test_tf_function_loop_sees_every_element_before_the_error(n):
    total = tf.Variable(tf.constant(0, tf.int64))
    count = tf.Variable(tf.constant(0, tf.int64))

    @tf.function
    def loop(ds):
        for x in ds:
            total.assign_add(x)
            count.assign_add(1)

    ds = midstream_cases.source(tf)
    ds = ds if n is None else ds.map(tf.identity, num_parallel_calls=n)
    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: boom"):
        loop(ds)
    assert (int(total.numpy()), int(count.numpy())) == (45, 10)


def test_every_case_matches_real_tensorflow():
    path = os.path.join(os.path.dirname(__file__), "midstream_cases.py")
    real = json.loads(run_tf(open(path).read()).strip().splitlines()[-1])
    mine = midstream_cases.results(tf)
    assert set(mine) == set(real)
    for key in sorted(real):
        assert mine[key] == real[key], key
