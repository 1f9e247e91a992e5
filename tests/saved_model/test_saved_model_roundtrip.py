"""tf.saved_model.save/load round trips of tf.Modules (no real TF needed)."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import numerical_gradient


class Dense(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = tf.Variable([[1.0], [2.0]], name="w")
        self.b = tf.Variable([0.5], name="b")
        self.step = tf.Variable(0, trainable=False, name="step")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        self.step.assign_add(1)
        return tf.matmul(x, self.w) + self.b


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense = Dense()
        self.blocks = [Dense(name="first"), Dense(name="second")]
        self.scale = tf.Variable(3.0)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def predict(self, x):
        return {"y": self.dense(x) * self.scale}

    @tf.function
    def branchy(self, x, times=2):
        if tf.reduce_sum(x) > 0:
            y = x * self.scale
        else:
            y = x - 1.0
        i = tf.constant(0)
        while i < times:
            y = y * 1.5
            i += 1
        return y, tf.reduce_sum(self.blocks[1](tf.reshape(y, [-1, 2])))


@pytest.fixture
def saved(tmp_path):
    net = Net()
    net.branchy(tf.constant([[1.0, -2.0]]))           # traced: these graphs are saved
    net.branchy(tf.constant([[1.0, 2.0], [3.0, 4.0]]), times=3)
    path = str(tmp_path / "net")
    tf.saved_model.save(net, path)
    return net, path


def test_directory_layout(saved):
    _, path = saved
    assert sorted(os.listdir(path)) == ["assets", "saved_model.json", "variables"]
    assert sorted(os.listdir(os.path.join(path, "variables"))) == [
        "variables.data-00000-of-00001", "variables.index"]
    with open(os.path.join(path, "saved_model.json")) as f:
        document = json.load(f)
    assert document["format"] == "minitf.saved_model"
    assert not any(name.startswith(".tmp") for name in os.listdir(os.path.dirname(path)))


def test_attributes_variables_and_values(saved):
    net, path = saved
    loaded = tf.saved_model.load(path)
    assert type(loaded).__name__ == "_UserObject"
    assert {a for a in dir(loaded) if not a.startswith("_")} == {
        "blocks", "branchy", "dense", "predict", "scale", "signatures"}
    assert not hasattr(loaded, "variables")  # as in TF: a restored tf.Module has no .variables
    assert loaded.dense.w.name == "w:0" and loaded.scale.name == "Variable:0"
    np.testing.assert_array_equal(loaded.dense.w.numpy(), net.dense.w.numpy())
    assert loaded.dense.step.trainable is False and loaded.dense.w.trainable is True
    assert loaded.dense.step.dtype == tf.int32
    assert len(loaded.blocks) == 2 and loaded.blocks[1].b.numpy().tolist() == [0.5]


def test_functions_give_the_original_results(saved):
    net, path = saved
    loaded = tf.saved_model.load(path)
    x = tf.constant([[1.0, 2.0], [-3.0, 0.5]])
    np.testing.assert_allclose(loaded.predict(x)["y"].numpy(), net.predict(x)["y"].numpy())
    for args in ([tf.constant([[1.0, -2.0]])], [tf.constant([[5.0, 2.0], [3.0, 4.0]]), 3],
                 [tf.constant([[-5.0, -2.0]])]):
        want, got = net.branchy(*args), loaded.branchy(*args)
        for a, b in zip(want, got):
            np.testing.assert_allclose(b.numpy(), a.numpy())
    np.testing.assert_allclose(loaded.dense(x).numpy(), net.dense(x).numpy())
    assert loaded.dense.step.numpy() > 0  # the saved graph assigns the restored variable


def test_untraced_arguments_and_wrong_shapes_raise_as_in_tf(saved):
    _, path = saved
    loaded = tf.saved_model.load(path)
    with pytest.raises(ValueError, match="Could not find matching concrete function to call "
                                         "loaded from the SavedModel"):
        loaded.branchy(tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="Option 2"):
        loaded.branchy(tf.constant([[1.0, 2.0]]), times=7)
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        loaded.predict(tf.constant([[1.0, 2.0, 3.0]]))


def test_signatures(saved):
    net, path = saved
    loaded = tf.saved_model.load(path)
    assert list(loaded.signatures) == ["serving_default"]
    serving = loaded.signatures["serving_default"]
    assert serving.structured_input_signature == (
        (), {"x": tf.TensorSpec([None, 2], tf.float32, "x")})
    assert serving.structured_outputs == {"y": tf.TensorSpec([None, 1], tf.float32, "y")}
    text = repr(loaded.signatures)
    assert text.startswith("_SignatureMap({'serving_default': <ConcreteFunction (*, x: "
                           "TensorSpec(shape=(None, 2), dtype=tf.float32, name='x')) -> "
                           "Dict[['y', TensorSpec(shape=(None, 1), dtype=tf.float32, "
                           "name='y')]] at 0x")
    x = tf.constant([[1.0, 2.0]])
    by_name, by_position = serving(x=x), serving(x)
    assert list(by_name) == ["y"]
    np.testing.assert_allclose(by_name["y"].numpy(), net.predict(x)["y"].numpy())
    np.testing.assert_allclose(by_position["y"].numpy(), by_name["y"].numpy())
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        serving(z=x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix size-incompatible"):
        serving(x=tf.constant([[1.0, 2.0, 3.0]]))  # as in TF: the graph's MatMul fails


def test_signature_choices(tmp_path):
    net = Net()
    tf.saved_model.save(net, str(tmp_path / "a"), signatures={
        "scores": net.predict, "double": net.dense.__call__.get_concrete_function()})
    loaded = tf.saved_model.load(str(tmp_path / "a"))
    assert sorted(loaded.signatures) == ["double", "scores"]
    assert list(loaded.signatures["double"](tf.ones([1, 2]))) == ["output_0"]
    with pytest.raises(ValueError, match="input_signature"):
        tf.saved_model.save(net, str(tmp_path / "b"), signatures=net.branchy)
    module = tf.Module()  # no function with an input_signature: no signature
    module.v = tf.Variable(1.0)
    tf.saved_model.save(module, str(tmp_path / "c"))
    assert len(tf.saved_model.load(str(tmp_path / "c")).signatures) == 0


def test_restored_function_inside_a_new_tf_function(saved):
    net, path = saved
    loaded = tf.saved_model.load(path)

    @tf.function
    def twice(x):
        return loaded.predict(x)["y"] * 2.0 + loaded.signatures["serving_default"](x=x)["y"]

    x = tf.constant([[1.0, 2.0]])
    np.testing.assert_allclose(twice(x).numpy(), 3 * net.predict(x)["y"].numpy())
    ops = {op.type for op in twice.get_concrete_function(x).graph.get_operations()}
    assert {"MatMul", "ReadVariableOp"} <= ops  # the saved ops joined the new graph


def test_gradients_of_restored_variables_match_finite_differences(tmp_path):
    module = tf.Module()
    module.w = tf.Variable(np.array([[0.3, -0.7], [1.1, 0.4]]))
    module.b = tf.Variable(np.array([0.2, -0.1]))
    module.f = tf.function(lambda x: tf.reduce_sum(tf.tanh(tf.matmul(x, module.w) + module.b)
                                                   ** 2), input_signature=[
        tf.TensorSpec([None, 2], tf.float64)])
    tf.saved_model.save(module, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    x = tf.constant([[0.5, -1.0], [2.0, 0.25]], tf.float64)
    with tf.GradientTape() as tape:
        y = loaded.f(x)
    grads = tape.gradient(y, [loaded.w, loaded.b])

    def value(arrays):
        loaded.w.assign(arrays[0])
        loaded.b.assign(arrays[1])
        return float(loaded.f(x).numpy())

    start = [loaded.w.numpy(), loaded.b.numpy()]
    for index, grad in enumerate(grads):
        numeric = numerical_gradient(value, start, index)
        np.testing.assert_allclose(grad.numpy(), numeric, rtol=1e-6, atol=1e-8)


def test_restored_variables_train(saved):
    _, path = saved
    loaded = tf.saved_model.load(path)
    x, target = tf.constant([[1.0, 2.0]]), tf.constant([[1.0]])
    optimizer = tf.keras.optimizers.SGD(0.001)
    losses = []
    for _ in range(5):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((loaded.predict(x)["y"] - target) ** 2)
        variables = [loaded.scale, loaded.dense.w, loaded.dense.b]
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        losses.append(float(loss))
    assert losses == sorted(losses, reverse=True) and losses[-1] < losses[0]


def test_a_loaded_object_saves_again(saved, tmp_path):
    net, path = saved
    loaded = tf.saved_model.load(path)
    loaded.scale.assign(10.0)
    tf.saved_model.save(loaded, str(tmp_path / "again"))
    again = tf.saved_model.load(str(tmp_path / "again"))
    x = tf.constant([[1.0, 2.0]])
    assert list(again.signatures) == ["serving_default"]
    np.testing.assert_allclose(again.predict(x)["y"].numpy(),
                               net.predict(x)["y"].numpy() / 3.0 * 10.0)
    want = loaded.branchy(tf.constant([[1.0, -2.0]]))[0].numpy()
    np.testing.assert_allclose(again.branchy(tf.constant([[1.0, -2.0]]))[0].numpy(), want)


def test_save_replaces_an_old_savedmodel_and_a_failed_save_keeps_it(tmp_path):
    path = str(tmp_path / "m")
    module = tf.Module()
    module.v = tf.Variable(1.0)
    tf.saved_model.save(module, path)
    module.v.assign(2.0)
    tf.saved_model.save(module, path)
    assert float(tf.saved_model.load(path).v) == 2.0
    bad = tf.Module()
    bad.v = tf.Variable(5.0)
    bad.f = tf.function(lambda x: tf.py_function(lambda a: a, [x], tf.float32))
    bad.f(tf.constant(1.0))
    with pytest.raises(ValueError, match="EagerPyFunc.*Python function"):
        tf.saved_model.save(bad, path)
    assert float(tf.saved_model.load(path).v) == 2.0
    assert sorted(os.listdir(tmp_path)) == ["m"]


def test_only_trackable_objects_can_be_saved(tmp_path):
    class Plain:
        pass

    for obj in (5, Plain(), [tf.Variable(1.0)]):
        with pytest.raises(ValueError, match="Expected an object of type `Trackable`"):
            tf.saved_model.save(obj, str(tmp_path / "m"))
    assert os.listdir(tmp_path) == []


def test_unsaveable_things_fail_at_save_time(tmp_path):
    hidden = tf.Variable(1.0)
    module = tf.Module()
    module.f = tf.function(lambda: hidden * 2.0)
    module.f()
    with pytest.raises(AssertionError, match="'untracked' resource"):
        tf.saved_model.save(module, str(tmp_path / "m"))
    assert not os.path.exists(tmp_path / "m")


def test_loading_in_a_fresh_process_without_the_class(saved, tmp_path):
    net, path = saved
    x = [[1.0, 2.0]]
    want = net.predict(tf.constant(x))["y"].numpy().tolist()
    code = textwrap.dedent(f"""
        import json, minitf as tf
        loaded = tf.saved_model.load({path!r})
        assert "Net" not in globals() and "Dense" not in globals()
        y = loaded.signatures["serving_default"](x=tf.constant({x!r}))["y"]
        z = loaded.predict(tf.constant({x!r}))["y"]
        print(json.dumps([y.numpy().tolist(), z.numpy().tolist()]))
    """)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=root), timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [want, want]
