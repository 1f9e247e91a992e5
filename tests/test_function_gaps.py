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

ds = tf.data.Dataset.from_tensor_slices({"a": [1., 2., 3., 4.],
                                         "b": [[1, 2], [3, 4], [5, 6], [7, 8]]})
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

@tf.py_function(Tout=tf.float32)
def py_double(x):
    return x * 2
@tf.numpy_function(Tout=tf.float32)
def np_double(x):
    return x * 2
traced_double = tf.function(lambda x: py_double(x) + np_double(x))
results["py_decorator"] = [float(py_double(tf.constant(3.0))), type(py_double).__name__,
                           py_double.__name__, float(traced_double(tf.constant(1.0)))]
def error_of(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the class and text are what is compared
        return [type(e).__name__, str(e)]
results["py_errors"] = [
    error_of(lambda: tf.py_function(lambda x: x, [1.0])),
    error_of(lambda: tf.py_function(inp=[1.0], Tout=tf.float32)),
    error_of(lambda: tf.numpy_function(lambda x: x, None, tf.float32)),
]

v = tf.Variable(1.0)
add = tf.function(lambda: v.assign_add(1.0))
first = add()
chained = tf.function(lambda: (v.assign(2.0).assign_add(3.0), v.read_value(), v))
results["assign_returns"] = [type(first).__name__, isinstance(first, tf.Variable), float(first),
                             float(add()), [float(t) for t in chained()],
                             [isinstance(t, tf.Variable) for t in chained()]]
results["dimension_value"] = [tf.compat.dimension_value(3), tf.compat.dimension_value(None),
                              tf.compat.dimension_value(tf.TensorShape([2, None])[1]),
                              tf.compat.dimension_value(tf.TensorShape([2, None])[0]),
                              tf.compat.dimension_value("a"), tf.compat.dimension_value(3.5)]

E = tf.types.experimental
ident = tf.function(lambda x: x)
objects = {"const": tf.constant(1.0), "var": tf.Variable(1.0), "np": np.float32(1), "int": 1,
           "list": [1], "none": None, "f": ident, "lambda": lambda: 0, "spec": tf.TensorSpec([]),
           "cf": ident.get_concrete_function(tf.TensorSpec([], tf.float32))}
kinds = ["TensorLike", "ConcreteFunction", "GenericFunction", "PolymorphicFunction", "Callable",
         "FunctionType", "TraceType", "AtomicFunction", "SupportsTracingProtocol"]
results["types"] = {name: [k for k in kinds
                           if isinstance(obj, getattr(tf.types.experimental, k))]
                    for name, obj in objects.items()}
@tf.function
def sig(x, y=2, *, z=None):
    return {"a": x * 2, "b": (x, x + x)}
c1 = sig.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="x"))
c2 = sig.get_concrete_function(tf.TensorSpec([], tf.int32), y=3)
none_cf = tf.function(lambda: None).get_concrete_function()
w = tf.Variable(1.0)
cap_cf = tf.function(lambda x: x * w).get_concrete_function(tf.constant([1.0, 2.0]))
results["printed"] = [str(c1), repr(c1).rsplit(" at 0x", 1)[0].rstrip(">"),
                      str(c1.function_type), repr(c1.function_type),
                      c1.pretty_printed_signature(), c1.pretty_printed_signature(verbose=False),
                      sig.pretty_printed_concrete_signatures(),
                      sig.pretty_printed_concrete_signatures(verbose=False), str(none_cf),
                      str(cap_cf).split("Captures:")[0], str(cap_cf).count("dtype=tf.resource"),
                      isinstance(c1.function_type, E.FunctionType)]
@tf.function
def affine(x, n):
    return x * 2.0 + 1.0, tf.cast(n, tf.float64) * np.array([1.5, 2.5])
graph_def = affine.get_concrete_function(tf.TensorSpec([None, 3], tf.float32),
                                         tf.TensorSpec([2], tf.int32)).graph.as_graph_def()
kept = [n for n in graph_def.node if n.op != "Identity"]
for n in kept:
    if "_user_specified_name" in n.attr:
        del n.attr["_user_specified_name"]
names = [n.name for n in kept]
results["graph_def"] = [[n.op for n in kept], [names.index(i) for i in kept[3].input],
                        ["".join(line + "\n" for line in str(n).splitlines()
                                 if not line.startswith(("name:", "input:"))) for n in kept[:4]]]
results["types_names"] = [sorted(n for n in dir(tf.types) if not n.startswith("_")),
                          sorted(n for n in dir(E) if not n.startswith("_")),
                          sorted(n for n in dir(tf.types.experimental.distributed)
                                 if not n.startswith("_"))]
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


def test_iterator_of_ragged_elements_reads_them_in_a_function():
    rt = tf.ragged.constant([[1, 2], [3]])
    it = iter(tf.data.Dataset.from_tensors(rt))
    assert tf.function(lambda it: it.get_next())(it).to_list() == [[1, 2], [3]]
    windows = iter(tf.data.Dataset.range(2).window(1))
    with pytest.raises(TypeError, match="elements are tensors"):
        tf.function(lambda it: it.get_next())(windows)


def test_same_as_real_tf(snippet_file):
    mine = runpy.run_path(snippet_file, {"tf": tf, "np": np})["results"]
    theirs = run_tf_json(f"""
        import json, runpy
        import numpy as np
        import tensorflow as tf
        print(json.dumps(runpy.run_path({snippet_file!r}, {{"tf": tf, "np": np}})["results"]))""")
    assert json.loads(json.dumps(mine)) == theirs


def test_py_function_as_a_decorator():
    @tf.py_function(Tout=[tf.float32, tf.int32])
    def both(x, n):
        return x + 1.0, n * 2
    a, b = both(tf.constant(1.0), tf.constant(4))
    assert (float(a), int(b), both.__name__) == (2.0, 8, "both")
    with pytest.raises(TypeError, match="as a decorator"):
        tf.py_function(inp=[1.0], Tout=tf.float32)
    with pytest.raises(TypeError, match="Missing argument `inp`"):
        tf.numpy_function(lambda x: x, None, tf.float32)


def test_variable_returned_from_a_function_is_its_value():
    v = tf.Variable([1.0, 2.0])
    step = tf.function(lambda: v.assign_add([1.0, 1.0]))
    out = step()
    assert type(out) is not tf.Variable and out.numpy().tolist() == [2.0, 3.0]
    assert step().numpy().tolist() == [3.0, 4.0]
    v.assign([0.0, 0.0])
    assert tf.function(lambda: v)().numpy().tolist() == [0.0, 0.0]  # read when it runs
    assert isinstance(v.assign_add([1.0, 1.0]), tf.Variable)  # eagerly TF's too


def test_dimension_value():
    class Dimension:  # what tf.compat.v1.Dimension holds, by TF's duck-typed name
        value = 7
    assert tf.compat.dimension_value(Dimension()) == 7
    assert tf.compat.dimension_value(tf.TensorShape([None])[0]) is None
    v = tf.Variable(1.0)
    assert tf.compat.dimension_value(v) is v  # no `.value` lookup on other objects


def test_tf_types_is_minitfs_own_module():
    import types as stdlib_types
    assert tf.types is not stdlib_types and tf.types.__name__ == "minitf.types"
    E = tf.types.experimental
    assert isinstance(tf.Variable(1.0), E.TensorLike) and not isinstance(None, E.TensorLike)
    assert isinstance(tf.function(lambda: 1.0), E.Callable)
    assert not isinstance(lambda: 0, E.Callable)
    assert isinstance(tf.TensorSpec([2]), E.TraceType)
    assert not isinstance(tf.constant(1.0), E.TraceType)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        mirrored = tf.Variable(1.0)
    assert isinstance(mirrored, E.distributed.Mirrored)
    assert not isinstance(tf.Variable(1.0), E.distributed.Mirrored)
    assert not isinstance(mirrored, E.distributed.PerReplica)


def test_as_graph_def():
    @tf.function
    def f(x):
        return tf.reshape(x, [-1]) + tf.constant([1, 2], tf.int64)
    graph_def = f.get_concrete_function(tf.TensorSpec([2, 1], tf.int64)).graph.as_graph_def()
    assert [n.op for n in graph_def.node] == ["Placeholder", "Reshape", "Const", "AddV2"]
    assert graph_def.node[3].input == ["Reshape", "Const"]
    text = str(graph_def)
    assert text.count("node {") == 4 and 'op: "Reshape"' in text
    assert "int_val: 1\n" in text and "int_val: 2\n" in text and "type: DT_INT64" in text
    assert "dim {\n          size: 2" in text  # the placeholder's shape, nested as TF
