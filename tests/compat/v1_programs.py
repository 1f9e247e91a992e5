"""TF1 programs that run unchanged under minitf and under real TF 2.21 (`tf` is either).

Each program is source text run with `exec` in a namespace holding `tf` and `np`; it
leaves its findings in `result` (JSON-friendly). test_v1_real_tf.py runs all of them
in one real-TF subprocess and compares; the other test files run them on minitf.
"""
import json

LINEAR_REGRESSION = '''
v1 = tf.compat.v1
xs = np.array([[0.0], [1.0], [2.0], [3.0]], np.float32)
ys = np.array([[1.0], [3.2], [4.9], [7.1]], np.float32)
losses, weights = [], []
with tf.Graph().as_default():
    x = v1.placeholder(tf.float32, shape=[None, 1], name="x")
    y = v1.placeholder(tf.float32, shape=[None, 1], name="y")
    with v1.variable_scope("linear"):
        w = v1.get_variable("w", shape=[1, 1], initializer=v1.constant_initializer(0.5))
        b = v1.get_variable("b", shape=[1], initializer=v1.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    train_op = v1.train.GradientDescentOptimizer(0.05).minimize(loss)
    init = v1.global_variables_initializer()
    with v1.Session() as sess:
        sess.run(init)
        for step in range(5):
            _, value = sess.run([train_op, loss], feed_dict={x: xs, y: ys})
            losses.append(float(value))
            weights.append([float(sess.run(w)[0, 0]), float(sess.run(b)[0])])
result = {"losses": losses, "weights": weights,
          "names": [v.name for v in [w, b]], "init": [init.name, init.type],
          "train_op": [train_op.name, train_op.type]}
'''

OPTIMIZERS = '''
v1 = tf.compat.v1
result = {}
for label, make in [("adam", lambda: v1.train.AdamOptimizer(0.1)),
                    ("momentum", lambda: v1.train.MomentumOptimizer(0.1, 0.9)),
                    ("nesterov", lambda: v1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True))]:
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant([1.0, -2.0]))
        step = make().minimize(tf.reduce_sum(w * w * w))
        seen = []
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(3):
                sess.run(step)
                seen.append([float(t) for t in sess.run(w)])
        result[label] = {"values": seen,
                         "globals": [v.name for v in v1.global_variables()],
                         "trainable": [v.name for v in v1.trainable_variables()]}
'''

FETCHES_AND_ERRORS = '''
v1 = tf.compat.v1
result = {}
def error(f):
    try:
        f()
    except Exception as exc:
        return [type(exc).__name__, str(exc)]
    return None
result["placeholder_eager"] = error(lambda: v1.placeholder(tf.float32))
with tf.Graph().as_default() as g:
    result["eager_in_graph"] = [tf.executing_eagerly(), v1.executing_eagerly(),
                                v1.get_default_graph() is g]
    x = v1.placeholder(tf.float32, shape=[None, 3], name="x")
    s = v1.placeholder(tf.float32, name="s")
    result["placeholder_text"] = [str(x), repr(x), str(s)]
    y = x * 2.0
    total = tf.reduce_sum(y)
    sess = v1.Session()
    out = sess.run({"a": [y, (total,)], "b": y.op}, feed_dict={x: [[1, 2, 3]]})
    result["nested"] = {"a": [out["a"][0].tolist(), [float(out["a"][1][0])]], "b": out["b"]}
    result["scalar_type"] = type(sess.run(total, {x: [[1, 2, 3]]})).__name__
    result["fed_fetch"] = sess.run(x, {x: [[1, 2, 3]]}).tolist()
    result["feed_inner"] = float(sess.run(total, {y: [[1.0, 1.0, 1.0]]}))
    result["by_name"] = sess.run("x:0", {"x:0": [[4, 5, 6]]}).tolist()
    result["unfed"] = error(lambda: sess.run(y))
    result["unfed_unknown_shape"] = error(lambda: sess.run(s * 2.0))
    result["bad_shape"] = error(lambda: sess.run(y, {x: [1.0, 2.0, 3.0]}))
    result["bad_fetch"] = error(lambda: sess.run([1]))
    result["none_fetch"] = error(lambda: sess.run(None))
    result["bad_feed_key"] = error(lambda: sess.run(y, {1: 2}))
    result["unknown_name"] = error(lambda: sess.run(y, {"nope:0": 1}))
    (dx,) = v1.gradients(tf.reduce_sum(x * x), [x])
    result["gradient"] = sess.run(dx, {x: [[1, 2, 3]]}).tolist()
    result["reduce_keep_dims"] = sess.run(v1.reduce_sum(x, 1, keep_dims=True),
                                          {x: [[1, 2, 3]]}).tolist()
    sess.close()
    result["closed"] = error(lambda: sess.run(total, {x: [[1, 2, 3]]}))
    result["reset_nested"] = error(v1.reset_default_graph)
result["empty_graph"] = error(lambda: v1.Session(graph=tf.Graph()).run(tf.constant(1.0)))
result["eager_after"] = tf.executing_eagerly()
result["dimension"] = [repr(tf.compat.dimension_at_index(tf.TensorShape([3, None]), 0)),
                       repr(tf.compat.dimension_at_index(tf.TensorShape([3, None]), 1)),
                       repr(tf.compat.dimension_at_index(tf.TensorShape(None), 2))]
result["v2"] = tf.compat.v2.constant is tf.constant
'''

VARIABLES = '''
v1 = tf.compat.v1
result = {}
def error(f):
    try:
        f()
    except Exception as exc:
        return [type(exc).__name__, str(exc)]
    return None
with tf.Graph().as_default():
    with v1.variable_scope("lin"):
        w = v1.get_variable("w", shape=[2], initializer=v1.ones_initializer())
        result["exists"] = error(lambda: v1.get_variable("w", shape=[2]))
        plain = tf.Variable(1.0, name="plain")
    with v1.variable_scope("lin", reuse=True):
        result["reused"] = v1.get_variable("w") is w
        result["missing"] = error(lambda: v1.get_variable("q", shape=[1]))
    with v1.variable_scope("lin", reuse=v1.AUTO_REUSE):
        result["auto"] = [v1.get_variable("w") is w,
                          v1.get_variable("fresh", shape=[1], trainable=False).name]
    with v1.variable_scope("outer", initializer=v1.constant_initializer(3.0)):
        with v1.variable_scope("inner") as inner:
            k = v1.get_variable("k", shape=[2])
    result["scopes"] = [inner.name, k.name, plain.name]
    with v1.variable_scope(None, default_name="dense") as a:
        pass
    with v1.variable_scope(None, default_name="dense") as b:
        pass
    result["default_names"] = [a.name, b.name]
    result["constant_with_shape"] = error(
        lambda: v1.get_variable("c", [2], initializer=tf.constant([1.0, 2.0])))
    result["no_shape"] = error(lambda: v1.get_variable("noshape"))
    result["globals"] = [v.name for v in v1.global_variables()]
    result["trainable"] = [v.name for v in v1.trainable_variables()]
    result["scoped"] = [v.name for v in v1.global_variables(scope="outer")]
    v1.add_to_collection("mine", 7)
    result["collection"] = v1.get_collection("mine")
    sess = v1.Session()
    uninit = error(lambda: sess.run(w))
    result["uninitialized"] = [uninit[0], uninit[1].split(". This")[0]]
    sess.run(v1.variables_initializer([w]))
    result["w"] = sess.run(w).tolist()
    other = v1.Session()
    result["other_session"] = error(lambda: other.run(w))[0]
    sess.run(v1.global_variables_initializer())
    result["k"] = sess.run(k).tolist()
    add = v1.assign_add(w, [1.0, 2.0])
    sess.run(add)
    result["after_add"] = sess.run(w).tolist()
    result["after_add_other"] = [error(lambda: other.run(w))[0]]
    step = v1.train.get_or_create_global_step()
    result["global_step"] = [step.name, step.dtype.name]
result["eager_globals"] = v1.global_variables()
with tf.Graph().as_default():
    x = v1.placeholder(tf.float32, [], name="x")
    names = [tf.Variable(1.0).name, tf.Variable(1.0).name, tf.Variable(1.0, name="x").name]
    with v1.Session():
        names.append(float((x * 2.0).eval({x: 2.0})))
    result["unique_and_eval"] = names
'''

PROGRAMS = {"linear_regression": LINEAR_REGRESSION, "optimizers": OPTIMIZERS,
            "fetches_and_errors": FETCHES_AND_ERRORS, "variables": VARIABLES}


def run(name, tf, np):
    """Run program `name` with this `tf` and return its `result` through JSON (as real
    TF's comes back), so both sides compare as the same plain types."""
    namespace = {"tf": tf, "np": np}
    exec(PROGRAMS[name], namespace)  # noqa: S102 - the test's own program text
    return json.loads(json.dumps(namespace["result"]))


def tf_source():
    """One script for real TF: every program's result, printed as one JSON line."""
    lines = ["import json", "import numpy as np", "import tensorflow as tf", "out = {}"]
    for name, text in PROGRAMS.items():
        lines += ["namespace = {'tf': tf, 'np': np}", f"exec({text!r}, namespace)",
                  f"out[{name!r}] = namespace['result']"]
    lines.append("print(json.dumps(out))")
    return "\n".join(lines)
