"""Any nesting of modules, lists, tuples and dicts of variables round-trips: generated
structures are written, rebuilt with other values, read back, and compared."""
import os
import tempfile

import numpy as np
from hypothesis import given, strategies as st

import minitf as tf

NAMES = st.sampled_from(["a", "b", "layers", "w", "_private", "x.y", "p/q"])
SHAPES = st.sampled_from([(), (1,), (2, 3)])
DTYPES = st.sampled_from(["float32", "float64", "int32", "int64", "bool"])

leaf = st.tuples(st.just("var"), SHAPES, DTYPES)
tree = st.recursive(
    leaf,
    lambda children: st.one_of(
        st.tuples(st.just("list"), st.lists(children, min_size=1, max_size=3)),
        st.tuples(st.just("tuple"), st.lists(children, min_size=1, max_size=2)),
        st.tuples(st.just("dict"), st.dictionaries(NAMES, children, min_size=1, max_size=3)),
        st.tuples(st.just("module"), st.dictionaries(
            NAMES.filter(lambda n: "/" not in n and "." not in n), children,
            min_size=1, max_size=3))),
    max_leaves=8)


def build(spec, rng):
    kind = spec[0]
    if kind == "var":
        _, shape, dtype = spec
        value = rng.integers(-50, 50, size=shape)
        return tf.Variable(value.astype(dtype) if dtype != "bool" else value > 0)
    if kind == "list":
        return [build(s, rng) for s in spec[1]]
    if kind == "tuple":
        return tuple(build(s, rng) for s in spec[1])
    if kind == "dict":
        return {k: build(s, rng) for k, s in spec[1].items()}
    module = tf.Module()
    for name, s in spec[1].items():
        setattr(module, name, build(s, rng))
    return module


def variables(obj):
    if isinstance(obj, tf.Variable):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [v for o in obj for v in variables(o)]
    if isinstance(obj, dict):
        return [v for k in obj for v in variables(obj[k])]
    return [v for k in vars(obj) if not k.startswith("_name") and not k.startswith("_scope")
            for v in variables(getattr(obj, k))]


@given(tree)
def test_any_structure_round_trips(spec):
    source, target = build(spec, np.random.default_rng(1)), build(spec, np.random.default_rng(2))
    with tempfile.TemporaryDirectory() as directory:
        path = tf.train.Checkpoint(root=tf.Module(), item=source).write(
            os.path.join(directory, "p"))
        tf.train.Checkpoint(root=tf.Module(), item=target).read(path).assert_consumed()
        keys = [k for k, _ in tf.train.list_variables(path)]
    saved, restored = variables(source), variables(target)
    assert len(keys) == 1 + len(saved)  # each variable once, plus the object graph
    for a, b in zip(saved, restored):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.numpy(), b.numpy())
