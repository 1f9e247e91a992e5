"""tf.shape_n, identity_n, parallel_stack, is_tensor, is_symbolic_tensor, get_static_value,
control_dependencies, group, no_op, tuple, init_scope, inside_function,
get_current_name_scope, timestamp, fingerprint, clip_by_global_norm, linalg.global_norm:
eagerly and inside tf.function; CASES run against real TF in test_top_level_real_tf.py.
"""
import time

import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads


def test_shapes_identities_and_type_checks():
    assert [s.numpy().tolist() for s in tf.shape_n([[1, 2], [[1], [2], [3]]])] == [[2], [3, 1]]
    assert tf.shape_n([[1]], out_type=tf.int64)[0].dtype == tf.int64
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = tf.identity_n([x, x * 2.0])
        y = tf.reduce_sum(a + b)
    assert tape.gradient(y, x).numpy().tolist() == [3.0, 3.0]
    assert tf.is_tensor(x) and tf.is_tensor(tf.Variable(1.0)) and not tf.is_tensor(np.ones(2))
    assert tf.is_tensor(tf.SparseTensor([[0]], [1], [2]))
    assert tf.is_tensor(tf.ragged.constant([[1]]))
    assert not tf.is_symbolic_tensor(x) and not tf.is_symbolic_tensor(1.0)
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf.parallel_stack([x, x])


def test_get_static_value():
    assert tf.get_static_value(tf.constant([1, 2])).tolist() == [1, 2]
    assert tf.get_static_value([1, 2]) == [1, 2] and tf.get_static_value(tf.Variable(1)) is None
    seen = {}

    @tf.function
    def f(x):
        seen["x"] = tf.get_static_value(x)
        seen["shape"] = tf.get_static_value(tf.shape(x))
        seen["folded"] = tf.get_static_value(tf.constant(3) * 2)
        seen["symbolic"] = tf.is_symbolic_tensor(x)
        return x

    f(tf.constant([1.0, 2.0]))
    assert seen["x"] is None and seen["shape"].tolist() == [2] and int(seen["folded"]) == 6
    assert seen["symbolic"] is True


def test_ordering_helpers_eagerly_and_in_a_function():
    assert tf.no_op() is None and tf.group(tf.constant(1)) is None
    ran = []
    with tf.control_dependencies([lambda: ran.append(1)]):  # eager: callables are called
        pass
    assert ran == [1]
    assert tf.tuple([tf.constant(1), None])[1] is None
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        step = v.assign_add(1.0)
        with tf.control_dependencies([step]):
            y = tf.identity(x)
        done = tf.group(step, y)
        assert done.type == "NoOp" and tf.no_op().type == "NoOp"
        return tf.tuple([y + v, None])[0], tf.parallel_stack([x, x])

    out, stacked = f(tf.constant(1.0))
    assert float(out) == 3.0 and float(v) == 2.0 and stacked.numpy().tolist() == [1.0, 1.0]
    assert float(f(tf.constant(1.0))[0]) == 4.0  # the assignment runs on every call
    with pytest.raises(TypeError, match="Control input must be Operation or Tensor"):
        tf.function(lambda: tf.control_dependencies([3]))()


def test_init_scope_inside_function_and_name_scopes():
    assert not tf.inside_function() and tf.get_current_name_scope() == ""
    seen = {}

    @tf.function
    def f(x):
        seen["inside"] = tf.inside_function()
        with tf.init_scope():
            seen["lifted"] = (tf.executing_eagerly(), tf.inside_function())
            seen["eager_value"] = tf.constant(2.0).numpy()
        with tf.name_scope("block"):
            with tf.name_scope("inner"):
                seen["scope"] = tf.get_current_name_scope()
        return x

    f(tf.constant(1.0))
    assert seen == {"inside": True, "lifted": (True, True), "eager_value": 2.0,
                    "scope": "block/inner"}
    with tf.name_scope("outer"):
        assert tf.get_current_name_scope() == "outer"


def test_timestamp_runs_each_call():
    before = time.time()
    stamp = tf.timestamp()
    assert stamp.dtype == tf.float64 and before - 1 <= float(stamp) <= time.time() + 1
    f = tf.function(lambda: tf.timestamp())
    first = float(f())
    time.sleep(0.01)
    assert float(f()) > first


def test_fingerprint_and_global_norm():
    assert tf.fingerprint(["a"]).numpy().tolist() == [[227, 117, 223, 182, 101, 66, 69, 179]]
    assert tf.fingerprint(tf.zeros([0, 3])).shape == (0, 8)
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least one dimension"):
        tf.fingerprint(5)
    grads = [tf.constant([3.0, 4.0]), None, tf.constant([[12.0]])]
    assert float(tf.linalg.global_norm(grads)) == 13.0
    clipped, norm = tf.clip_by_global_norm(grads, 6.5)
    assert clipped[1] is None and np.allclose(clipped[0].numpy(), [1.5, 2.0])
    assert float(norm) == 13.0
    sliced = tf.IndexedSlices(tf.constant([[3.0, 4.0]]), tf.constant([1]), tf.constant([3, 2]))
    out, _ = tf.clip_by_global_norm([sliced], 1.0)
    assert isinstance(out[0], tf.IndexedSlices) and np.allclose(out[0].values.numpy(), [[0.6, 0.8]])
    with pytest.raises(TypeError, match="should be a sequence of tensors"):
        tf.clip_by_global_norm(tf.constant([1.0]), 1.0)
    check_grads(lambda a, b: tf.clip_by_global_norm([a, b], 1.0)[0][0], [3.0, 4.0], [1.0])
    f = tf.function(lambda a: tf.clip_by_global_norm([a], 1.0))
    assert np.allclose(f(tf.constant([3.0, 4.0]))[0][0].numpy(), [0.6, 0.8])


CASES = [
    "tf.shape_n([[1, 2], [[1], [2], [3]]])", "tf.shape_n([[1]], out_type=tf.int64)",
    "tf.identity_n([1, [2., 3]])", "tf.parallel_stack([[1, 2], [3, 4]])",
    "tf.is_tensor(1)", "tf.is_tensor(tf.constant(1))", "tf.is_tensor(tf.Variable(1))",
    "tf.is_tensor(tf.SparseTensor([[0]], [1], [2]))", "tf.is_tensor(np.ones(2))",
    "tf.is_tensor(tf.ragged.constant([[1], []]))",
    "tf.is_symbolic_tensor(tf.constant(1))", "tf.is_symbolic_tensor(1)",
    "tf.get_static_value(tf.constant([1, 2]))", "tf.get_static_value(1)",
    "tf.get_static_value([1, 2])", "tf.get_static_value(tf.Variable(1))",
    "tf.no_op()", "tf.group(tf.constant(1))", "tf.group()",
    "tf.tuple([tf.constant(1), tf.constant(2.)])", "tf.tuple([tf.constant(1), None])",
    "tf.tuple([])",
    "tf.inside_function()", "tf.get_current_name_scope()", "tf.timestamp().dtype.name",
    "traced(tf.constant([2., 3.]))",
    "tf.fingerprint(['a', 'b'])", "tf.fingerprint([[1, 2], [3, 4]])",
    "tf.fingerprint(tf.constant([1., 2.]))",
    "tf.fingerprint([1, 2], method='x')", "tf.fingerprint(5)", "tf.fingerprint([['a', 'b']])",
    "tf.fingerprint(tf.constant([[[1, 2], [3, 4]]], tf.int64))", "tf.fingerprint(tf.zeros([0, 3]))",
    "tf.linalg.global_norm([tf.constant([3., 4.]), None, tf.constant(12.)])",
    "tf.clip_by_global_norm([tf.constant([3., 4.]), None], 1.)",
    "tf.clip_by_global_norm([tf.constant([3., 4.])], 10.)",
    "tf.clip_by_global_norm(tf.constant([3., 4.]), 10.)",
    "tf.linalg.global_norm(tf.constant([3., 4.]))",
    "tf.clip_by_global_norm([tf.constant([3., np.inf])], 1.)",
    "tf.clip_by_global_norm([tf.constant([3., 4.])], 1., use_norm=tf.constant(10.))",
    "tf.linalg.global_norm([tf.constant([3, 4])])",
    "tf.linalg.global_norm([tf.IndexedSlices(tf.constant([[3., 4.]]), [0], tf.constant([3, 2]))])",
    "tf.clip_by_global_norm([tf.constant([3., 4.], tf.float64), tf.constant([1.])], 1.)",
    "tf.clip_by_global_norm([tf.constant([3., 4.], tf.float64)], 2.)",
]
SETUP = """
@tf.function(autograph=False)
def traced(x):
    out = [tf.inside_function(), tf.get_current_name_scope(), tf.is_symbolic_tensor(x),
           tf.get_static_value(x), tf.get_static_value(tf.shape(x)).tolist(),
           int(tf.get_static_value(tf.constant(3)))]
    with tf.name_scope("abc"):
        with tf.name_scope("d"):
            out.append(tf.get_current_name_scope())
    with tf.init_scope():
        out += [tf.inside_function(), tf.executing_eagerly()]
    out += [tf.no_op().type, tf.group(x).type, len(tf.tuple([x, x]))]
    return tf.constant(str(out))
"""
