"""tf.function gaps: iterators read inside a traced function advance on every call,
`for x in it` drains what an iterator has left; compared with real TF in one subprocess."""
import json
import runpy

import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

# Runs under both engines (`tf` is minitf or TensorFlow); fills `results`.
SNIPPET = r'''
results = {}
it = iter(tf.data.Dataset.range(5))
step = tf.function(lambda it: next(it))
results["next"] = [int(step(it)) for _ in range(3)]
double = tf.function(lambda it: it.get_next() * 2)
results["get_next_shared"] = [int(double(it)) for _ in range(2)]
try:
    double(it)
    results["end"] = None
except tf.errors.OutOfRangeError as e:
    results["end"] = type(e).__name__

ds = tf.data.Dataset.from_tensor_slices({"a": [1., 2., 3., 4.], "b": [[1, 2], [3, 4], [5, 6], [7, 8]]})
it = iter(ds)
@tf.function
def two(it):
    e, e2 = next(it), next(it)
    return e["a"] + e2["a"], e["b"]
results["dict"] = [[float(a), b.numpy().tolist()] for a, b in (two(it), two(it))]

@tf.function
def inner():
    i = iter(tf.data.Dataset.range(3))
    return next(i)
results["made_inside"] = [int(inner()) for _ in range(3)]

it = iter(tf.data.Dataset.range(6))
@tf.function
def total(it):
    s = tf.constant(0, tf.int64)
    for x in it:
        s += x
        if x >= 2:
            break
    return s
results["for_break"] = [int(total(it)), int(total(it)), int(total(it))]
'''


@pytest.fixture(scope="module")
def snippet_file(tmp_path_factory):
    """The snippet as a file: AutoGraph (both engines) reads a function's source."""
    path = tmp_path_factory.mktemp("function_gaps") / "snippet.py"
    path.write_text(SNIPPET)
    return str(path)


def test_iterator_advances_on_every_call():
    it = iter(tf.data.Dataset.range(5))
    step = tf.function(lambda it: next(it))
    assert [int(step(it)) for _ in range(3)] == [0, 1, 2]
    assert step.experimental_get_tracing_count() == 1
    ops = [op.type for op in step.get_concrete_function(it).graph.get_operations()]
    assert ops == ["IteratorGetNext"]


def test_iterator_end_is_out_of_range_when_the_graph_runs():
    it = iter(tf.data.Dataset.range(1))
    step = tf.function(lambda it: it.get_next())
    assert int(step(it)) == 0
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        step(it)


def test_iterator_under_a_tape_and_with_structures():
    v = tf.Variable(2.0)
    it = iter(tf.data.Dataset.range(1, 4).map(lambda x: tf.cast(x, tf.float32)))

    @tf.function
    def h(it):
        return v * it.get_next()
    with tf.GradientTape(persistent=True) as tape:
        ys = [h(it) for _ in range(3)]  # the taped call replays the node: it advances too
    assert [float(y) for y in ys] == [2.0, 4.0, 6.0]
    assert [float(tape.gradient(y, v)) for y in ys] == [1.0, 2.0, 3.0]
    it = iter(tf.data.Dataset.from_tensor_slices((np.arange(3.0), np.arange(3))))
    pair = tf.function(lambda it: next(it))
    a, b = pair(it)
    a2, b2 = pair(it)
    assert (float(a), int(b), float(a2), int(b2)) == (0.0, 0, 1.0, 1)
    assert a.dtype == tf.float64 and b.dtype == tf.int64


def test_for_loop_over_an_iterator_drains_it():
    it = iter(tf.data.Dataset.range(4))
    total = tf.function(lambda it: sum_all(it))
    assert int(total(it)) == 6
    assert int(total(it)) == 0  # nothing left: the loop runs no body
    with pytest.raises(StopIteration):
        next(it)


@tf.function
def _sum(it):
    s = tf.constant(0, tf.int64)
    for x in it:
        s += x
    return s


def sum_all(it):
    return _sum.python_function(it)


def test_iterator_of_ragged_elements_is_a_clear_error():
    rt = tf.ragged.constant([[1, 2], [3]])
    it = iter(tf.data.Dataset.from_tensors(rt))
    with pytest.raises(TypeError, match="plain tensors"):
        tf.function(lambda it: it.get_next())(it)


def test_same_as_real_tf(snippet_file):
    mine = runpy.run_path(snippet_file, {"tf": tf})["results"]
    theirs = run_tf_json(f"""
        import json, runpy
        import tensorflow as tf
        print(json.dumps(runpy.run_path({snippet_file!r}, {{"tf": tf}})["results"]))""")
    assert json.loads(json.dumps(mine)) == theirs
