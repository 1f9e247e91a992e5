"""tf.sparse against real TF 2.21: every expression in CASES runs in minitf and (in one TF
subprocess) in TensorFlow; values, dtypes, shapes, error classes - and, where marked, TF's
error text - must agree. Gradients are compared the same way (GRADS).

The no-TF tests of the same functions are in test_sparse_reorder_ops.py,
test_sparse_math_ops.py, test_sparse_matmul_ops.py and test_sparse_tensor_spec.py.
"""
import json
import re

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

SETUP = '''
import numpy as np
a = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, -2.0, 3.0], [2, 3])
b = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], [-1.0, 0.25, 4.0], [2, 3])
u = tf.SparseTensor([[1, 1], [0, 2], [0, 0]], [1.0, 2.0, 3.0], [2, 3])
neg = tf.SparseTensor([[0, 0], [1, 1]], [-1.0, -3.0], [2, 3])
ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [0, 3, 1], [2, 2])
m32 = tf.reshape(tf.range(6.0), [3, 2])
m23 = tf.reshape(tf.range(6.0), [2, 3])
data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
strs = tf.constant([["a", "b"], ["c", "d"]])
sx = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["x", "y", "z"], [2, 2])
e0 = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [2, 3])  # no entries


def text(v):
    return v.decode("latin-1") if isinstance(v, bytes) else v


def norm(r):
    if isinstance(r, tf.SparseTensor):
        return ["ST", norm(r.indices), norm(r.values), norm(r.dense_shape)]
    if isinstance(r, tf.IndexedSlices):
        return ["IS", norm(r.indices), norm(r.values)]
    if isinstance(r, (list, tuple)):
        return [norm(x) for x in r]
    if hasattr(r, "numpy"):
        v = r.numpy()
        flat = [text(x) for x in np.reshape(v, [-1]).tolist()]
        return [r.dtype.name, list(v.shape), flat]
    return repr(r)


def grad(fn, *xs):
    xs = [tf.constant(x, tf.float64) for x in xs]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = tf.reduce_sum(tf.sin(fn(*xs)))
    return tape.gradient(y, xs)


def run(expr):
    try:
        return ["ok", norm(eval(expr))]
    except Exception as e:
        return [type(e).__name__, str(e)]
'''

# (expression, whether TF's error text must appear in minitf's message)
CASES = [
    ("tf.sparse.reorder(u)", 0), ("tf.sparse.reshape(a, [3, -1])", 0),
    ("tf.sparse.reshape(u, [3, 2])", 0), ("tf.sparse.reshape(a, [4, -1])", 1),
    ("tf.sparse.reshape(a, [-1, -1])", 1), ("tf.sparse.reshape(a, [7])", 1),
    ("tf.sparse.reset_shape(a)", 0), ("tf.sparse.reset_shape(a, [3, 4])", 0),
    ("tf.sparse.reset_shape(a, [1, 4])", 1), ("tf.sparse.reset_shape(a, [3, 4, 5])", 1),
    ("tf.sparse.expand_dims(a)", 0), ("tf.sparse.expand_dims(a, 1)", 0),
    ("tf.sparse.expand_dims(a, 3)", 0), ("tf.sparse.transpose(a)", 0),
    ("tf.sparse.transpose(tf.SparseTensor([[0, 1, 2], [1, 0, 0]], [1, 2], [2, 3, 4]), [2, 0, 1])",
     0),
    ("tf.sparse.from_dense([[0, 1], [2, 0]])", 0), ("tf.sparse.from_dense([b'', b'x'])", 0),
    ("tf.sparse.from_dense([True, False])", 0), ("tf.sparse.from_dense(tf.constant(3.0))", 1),
    ("tf.sparse.eye(3, 2)", 0), ("tf.sparse.eye(2, 3, dtype=tf.int32)", 0),
    ("tf.sparse.retain(a, [True, False, True])", 0), ("tf.sparse.retain(a, [True, False])", 1),
    ("tf.sparse.to_indicator(ids, 4)", 0), ("tf.sparse.to_indicator(ids, 3)", 1),
    ("tf.sparse.fill_empty_rows(tf.SparseTensor([[1, 0], [3, 2]], [1.0, 2.0], [5, 3]), -1.0)",
     0),
    ("tf.sparse.fill_empty_rows(tf.SparseTensor([[1, 0]], [b'a'], [3, 3]), 'x')", 0),
    ("tf.sparse.map_values(tf.math.add, a, 1.0)", 0), ("tf.sparse.map_values(tf.ones_like, a)", 0),
    ("tf.sparse.map_values(tf.math.add, a, b)", 0), ("tf.sparse.map_values(tf.add, 1.0, 2.0)", 1),
    ("tf.sparse.mask(tf.IndexedSlices(data, tf.constant([12, 26, 37]), tf.constant([40, 2])), "
     "[12, 37])", 0),
    ("tf.sparse.concat(1, [u, a])", 0), ("tf.sparse.concat(0, [u, a])", 0),
    ("tf.sparse.concat(1, [a, tf.SparseTensor([[0, 0]], [5.0], [3, 1])])", 1),
    ("tf.sparse.concat(1, [a, tf.SparseTensor([[0, 0]], [5.0], [3, 1])], "
     "expand_nonconcat_dims=True)", 0),
    ("tf.sparse.concat(2, [a, a])", 1),
    ("tf.sparse.concat(1, [a, tf.SparseTensor([[0, 0]], [5], [2, 1])])", 1),
    ("tf.sparse.split(sp_input=u, num_split=2, axis=1)", 0),
    ("tf.sparse.split(sp_input=u, num_split=2, axis=0)", 0),
    ("tf.sparse.split(sp_input=a, num_split=3, axis=0)", 1),
    ("tf.sparse.split(sp_input=a, num_split=2, axis=2)", 1), ("tf.sparse.split(a, 2)", 1),
    ("tf.sparse.slice(a, [0, 1], [2, 2])", 0), ("tf.sparse.slice(a, [1, 0], [5, 5])", 0),
    ("tf.sparse.slice(a, [5, 0], [1, 1])", 0), ("tf.sparse.slice(u, [0, 0], [2, 2])", 0),
    ("tf.sparse.slice(a, [0], [1])", 1),
    ("tf.sparse.add(a, b)", 0), ("tf.sparse.add(a, b, threshold=0.5)", 0),
    ("tf.sparse.add(u, a)", 0), ("tf.sparse.add(a, tf.ones([2, 3]))", 0),
    ("tf.sparse.add(tf.ones([2, 3]), a)", 0),
    ("tf.sparse.add(a, tf.SparseTensor([[0, 0]], [1.0], [3, 3]))", 1),
    ("tf.sparse.add(a, tf.SparseTensor([[0, 0]], [1], [2, 3]))", 1),
    ("tf.sparse.add(a, tf.ones([3, 3]))", 1), ("tf.sparse.add(a, tf.ones([3]))", 1),
    ("tf.sparse.add(tf.ones([2, 3]), tf.ones([2, 3]))", 1), ("tf.sparse.reorder(tf.ones([2]))", 1),
    ("tf.sparse.to_indicator(tf.SparseTensor([[0, 0]], [1.0], [1, 1]), 3)", 0),
    ("tf.sparse.maximum(a, b)", 0), ("tf.sparse.minimum(a, b)", 0),
    ("tf.sparse.maximum(a, neg)", 0),
    ("tf.sparse.maximum(a, tf.SparseTensor([[0, 0]], [1.0], [3, 3]))", 1),
    ("tf.sparse.reduce_sum(a)", 0), ("tf.sparse.reduce_sum(a, 1, keepdims=True)", 0),
    ("tf.sparse.reduce_sum(a, [0, 1])", 0), ("tf.sparse.reduce_sum(u, 1)", 0),
    ("tf.sparse.reduce_sum(a, 0, output_is_sparse=True)", 0),
    ("tf.sparse.reduce_sum(a, None, output_is_sparse=True)", 0),
    ("tf.sparse.reduce_sum(a, 2)", 1),
    ("tf.sparse.reduce_max(neg, 1)", 0), ("tf.sparse.reduce_max(neg, 0)", 0),
    ("tf.sparse.reduce_max(neg, 0, output_is_sparse=True)", 0), ("tf.sparse.reduce_max(neg)", 0),
    ("tf.sparse.reduce_max(neg, 1, keepdims=True)", 0),
    ("tf.sparse.softmax(tf.SparseTensor([[0, 0], [0, 2], [1, 1], [1, 2]], [1.0, 2.0, 3.0, 3.0], "
     "[2, 3]))", 0),
    ("tf.sparse.softmax(tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 1, 1]], [1.0, 2.0, 3.0], "
     "[2, 2, 3]))", 0),
    ("tf.sparse.softmax(tf.SparseTensor([[0], [1]], [1.0, 2.0], [3]))", 1),
    ("a * tf.constant([[1.0], [2.0]])", 0), ("a * 2.0", 0),
    ("a / tf.constant([[1.0, 2.0, 4.0]])", 0),
    ("tf.SparseTensor([[0, 0]], [1], [2, 2]) / 2", 0), ("a * tf.constant([[[1.0]]])", 1),
    ("a / tf.constant(0.0)", 1),
    ("tf.abs(a)", 0), ("tf.math.negative(a)", 0), ("tf.math.sign(a)", 0), ("tf.math.square(a)", 0),
    ("tf.math.tanh(a)", 0), ("tf.math.sin(a)", 0), ("tf.math.erf(a)", 0),
    ("tf.cast(a, tf.int32)", 0), ("tf.identity(a)", 0),
    ("tf.sparse.sparse_dense_matmul(a, m32)", 0),
    ("tf.sparse.sparse_dense_matmul(a, m23, adjoint_a=True)", 0),
    ("tf.sparse.sparse_dense_matmul(a, m23, adjoint_b=True)", 0),
    ("tf.sparse.sparse_dense_matmul(a, m32, adjoint_a=True, adjoint_b=True)", 1),
    ("tf.sparse.sparse_dense_matmul(tf.reshape(tf.range(4.0), [2, 2]), a)", 0),
    ("tf.sparse.sparse_dense_matmul(m23, a, adjoint_b=True)", 0),
    ("tf.sparse.sparse_dense_matmul(m32, a, adjoint_a=True, adjoint_b=True)", 0),
    ("tf.sparse.sparse_dense_matmul(a, tf.ones([2, 2]))", 1),
    ("tf.sparse.sparse_dense_matmul(a, tf.ones([3, 2], tf.float64))", 1),
    ("tf.sparse.sampled_addmm([[0, 0], [1, 1]], [1.0, 2.0], [2, 2], tf.ones([2, 3]), "
     "tf.ones([3, 2]), beta=0.5, alpha=2.0)", 0),
    ("tf.sparse.segment_sum(data, [0, 1, 2], [0, 0, 1])", 0),
    ("tf.sparse.segment_sum(data, [0, 2], [0, 2], num_segments=4)", 0),
    ("tf.sparse.segment_mean(data, [0, 1, 2], [0, 0, 2])", 0),
    ("tf.sparse.segment_sqrt_n(data, [0, 1, 2], [0, 0, 1])", 0),
    ("tf.sparse.segment_sum(tf.constant([1, 2, 3]), [0, 1, 2], [0, 0, 1])", 0),
    ("tf.sparse.segment_sum(data, [0, 1, 2], [1, 0, 0])", 1),
    ("tf.sparse.segment_sum(data, [0, 1, 5], [0, 0, 1])", 1),
    ("tf.sparse.segment_mean(tf.constant([1, 2, 3]), [0, 1, 2], [0, 0, 1])", 0),
    ("tf.sparse.bincount(tf.constant([1, 1, 3]))", 0),
    ("tf.sparse.bincount(tf.constant([[1, 1, 3], [2, 2, 0]]), axis=-1)", 0),
    ("tf.sparse.bincount(tf.constant([[1, 1, 3], [2, 2, 0]]))", 0),
    ("tf.sparse.bincount(tf.constant([1, 1, 3]), weights=[0.5, 1.0, 2.0])", 0),
    ("tf.sparse.bincount(tf.constant([1, 1, 3]), minlength=6)", 0),
    ("tf.sparse.bincount(tf.constant([1, 1, 3]), maxlength=2)", 0),
    ("tf.sparse.bincount(tf.constant([1, 1, 3]), binary_output=True)", 0),
    ("tf.sparse.bincount(tf.SparseTensor([[0, 0], [0, 1], [1, 1]], [2, 2, 5], [2, 3]), axis=-1)",
     0),
    ("tf.sparse.bincount(tf.SparseTensor([[0, 0], [0, 1], [1, 1]], [2, 2, 5], [2, 3]))", 0),
    ("tf.sparse.bincount(tf.constant([1, 1, 3], tf.int64))", 0),
    ("tf.sparse.bincount(tf.constant([1, -1, 3]))", 1),
    ("tf.sparse.bincount(tf.constant([[1, 1, 3]]), axis=1)", 1),
    ("tf.sparse.cross([strs, sx])", 0), ("tf.sparse.cross([strs, tf.constant([[1], [2]])], "
                                          "separator='-')", 0),
    ("tf.sparse.cross_hashed([strs, tf.constant([[1], [2]])], num_buckets=10)", 0),
    ("tf.sparse.cross_hashed([strs, sx], num_buckets=0)", 0),
    ("tf.sparse.cross_hashed([strs, sx], num_buckets=7, hash_key=5)", 0),
    ("tf.io.serialize_sparse(a)", 0), ("tf.io.serialize_many_sparse(a)", 0),
    ("tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(u), tf.float32)", 0),
    ("[tf.SparseTensorSpec([None, 3]).is_compatible_with(x) for x in [a, tf.SparseTensor([[0]], "
     "[1.0], [3]), tf.SparseTensorSpec([2, 3]), tf.SparseTensorSpec([2, 3], tf.int32), "
     "tf.TensorSpec([2, 3])]]", 0),
    ("repr(tf.SparseTensorSpec.from_value(a))", 0), ("repr(tf.SparseTensorSpec())", 0),
    ("str(a)", 0), ("repr(a)", 0),
    # no entries at all
    ("tf.sparse.reorder(e0)", 0), ("tf.sparse.add(e0, a)", 0), ("tf.sparse.concat(0, [e0, a])", 0),
    ("tf.sparse.reduce_sum(e0, 1)", 0), ("tf.sparse.softmax(e0)", 0),
    ("tf.sparse.sparse_dense_matmul(e0, tf.ones([3, 2]))", 0),
    ("tf.sparse.fill_empty_rows(e0, 5.0)", 0), ("tf.sparse.from_dense(tf.zeros([2, 2]))", 0),
    ("tf.sparse.bincount(tf.zeros([0], tf.int32))", 0), ("tf.sparse.slice(e0, [0, 0], [1, 1])", 0),
    ("tf.sparse.split(sp_input=e0, num_split=2, axis=0)", 0), ("tf.sparse.reshape(e0, [-1])", 0),
    ("tf.sparse.maximum(e0, a)", 0), ("tf.sparse.reduce_max(e0, 1, output_is_sparse=True)", 0),
    ("tf.sparse.reset_shape(e0)", 0),
    ("tf.sparse.segment_sum(tf.ones([2, 2]), tf.zeros([0], tf.int32), tf.zeros([0], tf.int32))",
     0),
    ("tf.sparse.reduce_sum(tf.SparseTensor([[0, 1, 1]], [2.0], [2, 2, 2]), [0, 2], "
     "output_is_sparse=True, keepdims=True)", 0),
]

# gradients (float64, of sum(sin(f(x)))), compared value for value
GRADS = [
    "grad(lambda v, m: tf.sparse.sparse_dense_matmul(tf.SparseTensor(a.indices, v, a.dense_shape),"
    " m), [1.0, -2.0, 3.0], np.arange(6.0).reshape(3, 2) / 4)",
    "grad(lambda v, m: tf.sparse.sparse_dense_matmul(tf.SparseTensor(a.indices, v, a.dense_shape),"
    " m, adjoint_a=True, adjoint_b=True), [1.0, -2.0, 3.0], np.arange(6.0).reshape(3, 2) / 4)",
    "grad(lambda v, w: tf.sparse.add(tf.SparseTensor(a.indices, v, a.dense_shape), "
    "tf.SparseTensor(b.indices, w, b.dense_shape), threshold=0.1).values, [1.0, -2.0, 3.0], "
    "[-1.0, 0.25, 4.0])",
    "grad(lambda v, d: tf.sparse.add(tf.SparseTensor(a.indices, v, a.dense_shape), d), "
    "[1.0, -2.0, 3.0], np.ones([2, 3]))",
    "grad(lambda v: tf.sparse.reduce_sum(tf.SparseTensor(a.indices, v, a.dense_shape), 1), "
    "[1.0, -2.0, 3.0])",
    "grad(lambda v: tf.sparse.softmax(tf.SparseTensor([[0, 0], [0, 2], [1, 1], [1, 2]], v, "
    "[2, 3])).values, [0.5, -1.0, 2.0, 0.3])",
    "grad(lambda d: tf.sparse.segment_mean(d, [0, 2, 2, 1], [0, 0, 1, 3]), "
    "np.arange(6.0).reshape(3, 2))",
    "grad(lambda d: tf.sparse.segment_sqrt_n(d, [0, 2, 2, 1], [0, 0, 1, 3]), "
    "np.arange(6.0).reshape(3, 2))",
    "grad(lambda v: tf.sparse.to_dense(tf.sparse.slice(tf.SparseTensor(a.indices, v, "
    "a.dense_shape), [0, 1], [2, 2])), [1.0, -2.0, 3.0])",
    "grad(lambda v: tf.sparse.reorder(tf.SparseTensor(u.indices, v, u.dense_shape)).values, "
    "[1.0, -2.0, 3.0])",
    "grad(lambda v, d: (tf.SparseTensor(a.indices, v, a.dense_shape) * d).values, "
    "[1.0, -2.0, 3.0], [[1.5], [2.0]])",
    "grad(lambda v, d: (tf.SparseTensor(a.indices, v, a.dense_shape) / d).values, "
    "[1.0, -2.0, 3.0], [1.5, 2.0, 3.0])",
    "grad(lambda x: tf.sparse.from_dense(x).values, [[0.5, 0.0], [2.0, -1.0]])",
    "grad(lambda v: tf.sparse.to_dense(tf.sparse.transpose(tf.SparseTensor(a.indices, v, "
    "a.dense_shape))), [1.0, -2.0, 3.0])",
]

RUNNER = '''
import json
print(json.dumps([run(e) for e in EXPRESSIONS]))
'''


def _program(header):
    expressions = [e for e, _ in CASES] + GRADS
    return header + SETUP + f"EXPRESSIONS = {json.dumps(expressions)}\n" + RUNNER


def _minitf_results():
    scope = {"tf": tf}
    exec(SETUP, scope)
    return [json.loads(json.dumps(scope["run"](e))) for e in [e for e, _ in CASES] + GRADS]


@pytest.fixture(scope="module")
def results():
    require_tf()
    real = run_tf_json(_program("import tensorflow as tf\n"))
    return real, _minitf_results()


def _core(message):
    """TF's message without its function-node prefix and [Op:...] suffix."""
    message = re.sub(r"^\{\{function_node [^}]*\}\} ", "", message)
    return message.split(" [Op:")[0].strip()


def _same_value(x, y):
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        return all(_same_value(p, q) for p, q in zip(x, y))
    if isinstance(x, float) or isinstance(y, float):
        return isinstance(x, (int, float)) and isinstance(y, (int, float)) and \
            bool(np.isclose(x, y, rtol=2e-6, atol=1e-7))
    return x == y


@pytest.mark.parametrize("i", range(len(CASES) + len(GRADS)))
def test_same_as_real_tf(results, i):
    real, mine = results[0][i], results[1][i]
    expr, check_text = CASES[i] if i < len(CASES) else (GRADS[i - len(CASES)], 0)
    assert mine[0] == real[0], (expr, mine, real)
    if real[0] == "ok":
        assert _same_value(mine[1], real[1]), (expr, mine[1], real[1])
    elif check_text:
        assert _core(real[1]) in mine[1], (expr, mine[1], real[1])
