"""keras.version, keras.device, keras.name_scope, keras.StatelessScope, keras.SymbolicScope.

One snippet runs under minitf and under real Keras 3.15 (one TF subprocess);
its results must be equal. The other tests need no TF.
"""
import os
import sys

import numpy as np
import pytest

import minitf as tf
from minitf.keras.scopes import in_symbolic_scope

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from real_tf import require_tf, run_tf_json  # noqa: E402

keras = tf.keras

SNIPPET = r'''
import json
keras.backend.clear_session()  # layer names from 'dense' on, whatever ran before in this process
out = {}

def error(f):
    try:
        f()
    except Exception as e:
        message = str(e).split("\x1b[1m")[-1]  # Keras's call-context wrapper off
        return [type(e).__name__, message[:75]]  # minitf may add a teaching sentence
    return None

out["version"] = keras.version()
out["device_errors"] = [error(lambda: keras.device(3).__enter__()),
                        error(lambda: keras.device("foo").__enter__())]
with keras.device("cpu:0"):
    out["device"] = tf.constant(1.0).device
with keras.name_scope("blk"):
    v = keras.Variable(1.0, name="v")
    d = keras.layers.Dense(2)
    d(tf.ones([1, 3]))
    with keras.name_scope("inner"):
        w = keras.Variable(1.0, name="w")
with keras.name_scope("a"):
    with keras.name_scope("b", override_parent="c"):
        q = keras.Variable(1.0, name="q")
paths = [v.path, d.kernel.path, d.bias.path, w.path, q.path, v.name]
o = object()
with keras.name_scope("s", caller=o):
    with keras.name_scope("s", caller=o):
        paths.append(keras.Variable(1.0, name="z").path)
    with keras.name_scope("s"):
        paths.append(keras.Variable(1.0, name="z").path)
    with keras.name_scope("s", caller=o, deduplicate=False):
        paths.append(keras.Variable(1.0, name="z").path)
paths.append(keras.Variable(1.0, name="z").path)
seq = keras.Sequential([keras.layers.LSTM(2)])
seq(tf.ones([1, 2, 3]))
paths += [x.path for x in seq.weights]
seq = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
paths += [x.path for x in seq.weights]
out["paths"] = paths
with keras.name_scope("ns") as s:
    out["scope"] = [s.name, s.caller, s.deduplicate, s.override_parent]
out["scope_errors"] = [error(lambda: keras.name_scope("a/b")),
                       error(lambda: keras.name_scope(3))]

v = keras.Variable(np.array([1.0, 2.0], "float32"), name="v")
u = keras.Variable(3, name="u")
with keras.StatelessScope([(v, [5.0, 6.0]), (u, 7)]) as scope:
    read = (v * 2.0).numpy().tolist()
    v.assign(v * 10.0)
    after_assign = np.array(v).tolist()
    u.assign_add(1)
    u_read = int(u)
out["stateless"] = [read, after_assign, scope.get_current_value(v).numpy().tolist(),
                    int(scope.get_current_value(u)), u_read, v.numpy().tolist(), int(u),
                    scope.get_current_value(keras.Variable(1.0)) is None, scope.losses,
                    scope.collect_losses, scope.initialize_variables]
plain = tf.Variable(1.0)

def create_inside():
    with keras.StatelessScope([(v, [1.0, 2.0])]):
        keras.Variable(1.0)

out["stateless_errors"] = [
    error(lambda: keras.StatelessScope([(plain, 1.0)])),
    error(lambda: keras.StatelessScope([(v, [1.0, 2.0, 3.0])])),
    error(create_inside),
]
f32 = keras.Variable(1.0)
out["stateless_cast"] = str(keras.StatelessScope([(f32, u)]).get_current_value(f32).dtype)

f = keras.remat(lambda x: tf.sin(x) * x)
x = tf.constant([0.5, 1.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = f(x)
out["remat"] = [y.numpy().tolist(), tape.gradient(y, x).numpy().tolist()]
with keras.RematScope(mode="larger_than", output_size_threshold=10, layer_names=["d"]) as r:
    out["remat_scope"] = [r.mode, r.output_size_threshold, r.layer_names]
out["remat_errors"] = [error(lambda: keras.RematScope(mode="some"))]
modes = []
for mode in ["full", "activations", "larger_than", "list_of_layers", None]:
    with keras.RematScope(mode=mode, layer_names=["d1"]):
        with keras.RematScope(mode="full") as inner:
            pass
        layer = keras.layers.Dense(2, activation="relu", name="d1")
    modes.append(list(layer._remat_mode))
modes.append(keras.layers.Dense(2)._remat_mode)
out["remat_modes"] = modes

class Square(keras.Operation):
    def call(self, x):
        return x * x

sq = Square(name="sq")
xin = keras.Input((2,), name="xin")
hidden = sq(xin)
yout = keras.layers.Dense(1, kernel_initializer="ones", name="head")(hidden)
fn = keras.Function(xin, {"y": yout, "h": hidden}, name="fn")
ops_info = [repr(sq), sq.name, isinstance(keras.layers.Dense(1), keras.Operation),
            list(hidden.shape), tf.as_dtype(hidden.dtype).name, sq(tf.constant([3.0])).numpy().tolist(),
            sq.input is xin, sq.output is hidden, sq.get_config(), fn.name,
            [op.name for op in fn.operations], len(fn.inputs), len(fn.outputs),
            {k: v.numpy().tolist() for k, v in fn(tf.constant([[1.0, 2.0]])).items()},
            {k: list(v) for k, v in fn.compute_output_shape((None, 2)).items()},
            isinstance(fn, keras.Operation)]
a = keras.Input((3,))
b = keras.Input((3,))
fn2 = keras.Function([a, b], sq(a) + b if False else keras.layers.Add()([sq(a), b]))
ops_info.append(fn2([tf.ones([1, 3]), tf.ones([1, 3]) * 2.0]).numpy().tolist())
out["operation"] = ops_info

bn = keras.layers.BatchNormalization(momentum=0.5)
data = tf.constant([[1.0, 2.0], [3.0, 6.0]])
bn(data)
dense = keras.layers.Dense(2, kernel_regularizer="l2")
dense(data)
kernel = np.array([[1.0, 0.0], [0.5, 2.0]], "float32")
outputs, new_nt, losses = dense.stateless_call([kernel, np.zeros(2, "float32")], [], data,
                                               return_losses=True)
bn_out, bn_nt = bn.stateless_call([np.ones(2, "float32") * 2, np.zeros(2, "float32")],
                                  [np.ones(2, "float32"), np.ones(2, "float32")], data,
                                  training=True)
out["stateless_call"] = [outputs.numpy().tolist(), new_nt, [float(x) for x in losses],
                         np.round(bn_out.numpy(), 4).tolist(),
                         [x.numpy().tolist() for x in bn_nt],
                         [x.numpy().tolist() for x in bn.non_trainable_variables],
                         error(lambda: dense.stateless_call([kernel], [], data)),
                         error(lambda: keras.layers.Dense(2).stateless_call([], [], data))]
out["function_errors"] = [
    error(lambda: keras.Function([], [yout])), error(lambda: keras.Function([xin], [])),
    error(lambda: fn([tf.ones([1, 2]), tf.ones([1, 2])])),
    error(lambda: fn(tf.ones([2]))), error(lambda: Square(name="a/b")),
    error(lambda: keras.Function(a, yout)), error(lambda: keras.Function(a, [sq(a), yout])),
]
'''


def _run_here():
    namespace = {"keras": keras, "tf": tf, "np": np}
    exec(SNIPPET, namespace)
    return namespace["out"]


@pytest.fixture(scope="module")
def keras_results():
    require_tf()
    return run_tf_json("import numpy as np, keras, tensorflow as tf\n" + SNIPPET
                       + "print(json.dumps(out))\n")


@pytest.mark.filterwarnings("ignore:AutoGraph could not transform")  # the snippet's classes
def test_same_results_as_keras(keras_results):
    ours = _run_here()
    for key, theirs in keras_results.items():
        if key == "remat":  # sin may differ in the last bit
            np.testing.assert_allclose(ours[key], theirs, rtol=1e-6)
        else:
            assert ours[key] == theirs, key


def test_version_and_device():
    assert keras.version() == "3.15.1"
    with keras.device("cpu:0"):
        assert tf.constant(1.0).device.endswith("CPU:0")
    with pytest.raises(ValueError, match="Expecting a string device name"):
        keras.device(3)


def test_name_scope_paths_and_dedup():
    with keras.name_scope("blk"):
        with keras.name_scope("inner"):
            assert keras.Variable(1.0, name="w").path == "blk/inner/w"
        layer = keras.layers.Dense(2)
        layer(tf.ones([1, 3]))
    assert layer.kernel.path == "blk/" + layer.name + "/kernel"
    owner = object()
    with keras.name_scope("s", caller=owner):
        with keras.name_scope("s", caller=owner):
            assert keras.Variable(1.0, name="z").path == "s/z"
        with keras.name_scope("s", caller=object()):
            assert keras.Variable(1.0, name="z").path == "s/s/z"
    with keras.name_scope("a"), keras.name_scope("b", override_parent="c/d"):
        assert keras.Variable(1.0, name="q").path == "c/d/b/q"
    assert keras.Variable(1.0, name="q").path == "q"
    with pytest.raises(ValueError, match="cannot contain character `/`"):
        keras.name_scope("x/y")


def test_name_scope_opens_a_tf_name_scope():
    with keras.name_scope("outer"):
        assert tf.Variable(1.0, name="t").name == "outer/t:0"
    assert tf.Variable(1.0, name="t").name == "t:0"


def test_stateless_scope_reads_and_collects():
    v = keras.Variable([1.0, 2.0], name="v")
    plain = tf.Variable(4.0)
    with keras.StatelessScope([(v, [3.0, 4.0])]) as scope:
        np.testing.assert_array_equal((v + 1.0).numpy(), [4.0, 5.0])
        v.assign_sub([1.0, 1.0])
        np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])
        plain.assign(5.0)  # a tf.Variable does not look at the scope
    np.testing.assert_array_equal(scope.get_current_value(v).numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    assert float(plain) == 5.0
    with pytest.raises(ValueError, match="shape of the target|Shape mismatch|incompatible"):
        with keras.StatelessScope([(v, [3.0, 4.0])]):
            v.assign([1.0, 2.0, 3.0])


def test_stateless_scope_with_a_layer_and_gradients():
    layer = keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")
    x = tf.constant([[1.0, 2.0]])
    layer(x)
    kernel = tf.constant([[2.0], [3.0]])
    with tf.GradientTape() as tape:
        tape.watch(kernel)
        with keras.StatelessScope([(layer.kernel, kernel)]):
            y = layer(x)
    assert float(y[0, 0]) == 8.0
    np.testing.assert_array_equal(tape.gradient(y, kernel).numpy(), [[1.0], [2.0]])
    assert float(layer(x)[0, 0]) == 3.0


def test_symbolic_scope():
    assert not in_symbolic_scope()
    with keras.SymbolicScope() as outer:
        assert in_symbolic_scope()
        with keras.SymbolicScope():
            assert in_symbolic_scope()
        assert in_symbolic_scope() and outer.original_scope is None
    assert not in_symbolic_scope()


class Counting(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = 0

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")

    def call(self, x):
        self.calls += 1
        return tf.sin(x * self.w) * x


def _gradients(layer, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(layer(x))
    return tape.gradient(y, [x, layer.w])


@pytest.mark.parametrize("mode, names, recomputed", [
    ("full", None, True), ("list_of_layers", ["c"], True), ("list_of_layers", ["other"], False),
    ("larger_than", None, False), (None, None, False)])
def test_remat_scope_recomputes_with_equal_gradients(mode, names, recomputed):
    x = tf.constant([[0.5, 1.0, 2.0]])
    plain = Counting(name="c")
    with keras.RematScope(mode=mode, layer_names=names):
        remat_layer = Counting(name="c")
    expected = _gradients(plain, x)
    got = _gradients(remat_layer, x)
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    extra = 1 if mode == "larger_than" else 0  # the output spec is traced once
    assert remat_layer.calls == plain.calls + extra + (1 if recomputed else 0)


def test_remat_scope_larger_than_threshold():
    x = tf.ones([4, 8])
    with keras.RematScope(mode="larger_than", output_size_threshold=16):
        big = Counting()
    with keras.RematScope(mode="larger_than", output_size_threshold=32):
        small = Counting()
    big(x), small(x)
    calls = big.calls, small.calls
    _gradients(big, x), _gradients(small, x)
    assert (big.calls - calls[0], small.calls - calls[1]) == (3, 2)  # spec, forward, (recompute)


def test_remat_activations_wraps_only_the_activation():
    seen = []

    def activation(x):
        seen.append(1)
        return tf.nn.relu(x)

    with keras.RematScope(mode="activations"):
        dense = keras.layers.Dense(2, activation=activation, kernel_initializer="ones")
    x = tf.constant([[1.0, -3.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(dense(x))
    assert dense.activation is activation  # restored after the call
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [[0.0, 0.0]])
    assert len(seen) == 2  # forward, then recomputed for the gradient


def test_remat_function_and_errors():
    counted = []

    def f(x):
        counted.append(1)
        return x * x

    g = keras.remat(f)
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = g(x)
    assert float(tape.gradient(y, x)) == 6.0 and len(counted) == 2
    with pytest.raises(ValueError, match="Invalid mode 'x'"):
        keras.RematScope(mode="x")


class Scale(keras.Operation):
    def __init__(self, factor, name=None):
        super().__init__(name=name)
        self.factor = factor

    def call(self, x):
        return x * self.factor


def test_operation_eager_symbolic_and_config():
    op = Scale(3.0, name="triple")
    assert float(op(tf.constant(2.0))) == 6.0
    x = keras.Input((4,), dtype="float32")
    y = op(x)
    assert isinstance(y, keras.KerasTensor) and tuple(y.shape) == (None, 4)
    assert op.input is x and op.output is y and repr(op) == "<Operation name=triple>"
    assert isinstance(keras.layers.Dense(1), keras.Operation)
    assert not isinstance(tf.Module(), keras.Operation)
    with pytest.raises(NotImplementedError):
        keras.Operation()(tf.constant(1.0))
    with pytest.raises(AttributeError, match="never been called"):
        Scale(1.0).output


def test_function_runs_the_graph_with_gradients_and_in_tf_function():
    a = keras.Input((2,), name="a")
    dense = keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")
    out = dense(Scale(2.0)(a))
    fn = keras.Function([a], [out, a])
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, same = fn([x])
    assert float(y[0, 0]) == 6.0 and same is x
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [[2.0, 2.0]])
    traced = tf.function(lambda v: fn([v])[0])
    assert float(traced(x)[0, 0]) == 6.0
    spec = fn.compute_output_spec([keras.Input((2,))])
    assert [tuple(s.shape) for s in spec] == [(None, 1), (None, 2)]
    with pytest.raises(ValueError, match="not connected to `inputs`"):
        keras.Function(keras.Input((2,)), out)
    with pytest.raises(ValueError, match="must be KerasTensors"):
        keras.Function([a], [x])


def test_symbolic_scope_is_open_while_output_specs_are_traced():
    seen = []

    class Probe(keras.layers.Layer):
        def call(self, x):
            seen.append(in_symbolic_scope())
            return x

    probe = Probe()
    probe(keras.Input((2,)))
    probe(tf.ones([1, 2]))
    assert seen == [True, False]
