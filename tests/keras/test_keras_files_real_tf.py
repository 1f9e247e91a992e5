"""minitf's Keras files in real Keras 3.15 (the other direction of test_keras_files.py).

One real-TF subprocess for the module: it loads every file minitf wrote, predicts, and
saves the same architectures with real Keras so the HDF5 layouts can be compared
dataset by dataset. Skips without real TF (fails under MINITF_REQUIRE_TF=1).
"""
import json
import os
import sys

import numpy as np
import pytest

import minitf as tf

from real_tf import require_tf, run_tf_json

pytest.importorskip("h5py")
FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "keras")
sys.path.insert(0, FIXTURES)
import make_fixtures  # noqa: E402

from minitf.keras.saving import h5_weights  # noqa: E402

OPTIMIZERS = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam",
              "Ftrl", "Lion"]

TF_SIDE = """
import json, sys
import numpy as np, h5py, keras
folder, fixtures = sys.argv[1], sys.argv[2]
sys.path.insert(0, fixtures)
import make_fixtures as mf
Scale = mf.scale_class(keras)
inputs = json.load(open(folder + "/inputs.json"))

def args(name):
    a = [np.asarray(v, "int32" if np.asarray(v).dtype.kind == "i" else "float32")
         for v in inputs[name]]
    return a if len(a) > 1 else a[0]

def layout(path):
    found = {}
    with h5py.File(path) as f:
        f.visititems(lambda n, o: found.__setitem__(n, list(o.shape))
                     if isinstance(o, h5py.Dataset) else None)
    return found

out = {"predictions": {}, "layouts": {}, "optimizer_layouts": {}}
for name in ("sequential", "functional", "custom", "zoo"):
    model = keras.models.load_model(f"{folder}/{name}.keras")
    out["predictions"][name] = np.asarray(model(args(name), training=False)).tolist()
    if name == "sequential":
        out["iterations"] = int(model.optimizer.iterations)
@keras.saving.register_keras_serializable(package="minitf_real_tf")
def double(t):
    return t * 2.0
@keras.saving.register_keras_serializable(package="minitf_real_tf")
class SubModel(keras.Model):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.d1 = keras.layers.Dense(units)

    def call(self, x):
        return self.d1(x)

    def get_config(self):
        return {**super().get_config(), "units": self.units}
sub = keras.models.load_model(f"{folder}/sub.keras")
out["sub"] = np.asarray(sub(np.ones((1, 4), "float32"))).tolist()
lam = keras.models.load_model(f"{folder}/lambda.keras")  # a registered function, by name
out["lambda"] = np.asarray(lam(np.ones((1, 3), "float32"))).tolist()
rnn = mf.build_rnn_stack(keras)
rnn.load_weights(f"{folder}/rnn_stack.weights.h5")
out["predictions"]["rnn_stack"] = np.asarray(rnn(args("rnn_stack"))).tolist()
for name, build in (("zoo", mf.build_zoo), ("rnn_stack", mf.build_rnn_stack),
                    ("functional", mf.build_functional)):
    build(keras).save_weights(f"{folder}/keras_{name}.weights.h5")
    out["layouts"][name] = layout(f"{folder}/keras_{name}.weights.h5")
for opt in OPTIMIZERS:
    model = mf.build_sequential(keras)
    model.compile(optimizer=getattr(keras.optimizers, opt)(), loss="mse")
    model.optimizer.build(model.trainable_variables)  # its slots, without a slow fit
    model.save_weights(f"{folder}/opt.weights.h5")
    out["optimizer_layouts"][opt] = {k: v for k, v in layout(f"{folder}/opt.weights.h5").items()
                                     if k.startswith("optimizer/")}
print(json.dumps(out))
"""


@tf.keras.saving.register_keras_serializable(package="minitf_real_tf")
def double(t):
    return t * 2.0


@tf.keras.saving.register_keras_serializable(package="minitf_real_tf")
class SubModel(tf.keras.Model):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.d1 = tf.keras.layers.Dense(units)

    def call(self, x):
        return self.d1(x)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def layout(model):
    return {path: list(v.shape) for path, v in h5_weights.variables_by_path(model)}


@pytest.fixture(scope="module")
def real_keras(tmp_path_factory):
    require_tf()
    folder = tmp_path_factory.mktemp("keras_files")
    scale = make_fixtures.scale_class(tf.keras)
    rng = np.random.default_rng(3)
    models = {"sequential": make_fixtures.build_sequential(tf.keras),
              "functional": make_fixtures.build_functional(tf.keras),
              "custom": make_fixtures.build_custom(tf.keras, scale),
              "zoo": make_fixtures.build_zoo(tf.keras),
              "rnn_stack": make_fixtures.build_rnn_stack(tf.keras)}
    x = make_fixtures.inputs()
    x["zoo"] = [rng.normal(size=(2, 8, 8, 2))]
    mine = {}
    for name, model in models.items():
        args = [np.asarray(v, "int32" if v.dtype.kind == "i" else "float32") for v in x[name]]
        args = args if len(args) > 1 else args[0]
        if name in ("sequential", "functional"):
            model.compile(optimizer="adam", loss="sparse_categorical_crossentropy"
                          if name == "functional" else "mse")
            y = np.array([0, 1]) if name == "functional" else np.ones((2, 2))
            model.fit(args, y, epochs=3, verbose=0)
        mine[name] = np.asarray(model.predict(args, verbose=0))
        if name == "rnn_stack":
            model.save_weights(folder / "rnn_stack.weights.h5")
        else:
            model.save(folder / f"{name}.keras")
    x_in = tf.keras.Input((3,))
    tf.keras.Model(x_in, tf.keras.layers.Lambda(double)(x_in)).save(folder / "lambda.keras")
    sub = SubModel(3)
    mine["sub"] = sub(np.ones((1, 4), "float32")).numpy()
    sub.save(folder / "sub.keras")
    (folder / "inputs.json").write_text(json.dumps({k: [np.asarray(a).tolist() for a in v]
                                                    for k, v in x.items()}))
    code = f"OPTIMIZERS = {OPTIMIZERS!r}\n" + TF_SIDE
    theirs = run_tf_json(f"import sys; sys.argv = ['-', {str(folder)!r}, {FIXTURES!r}]\n"
                         + code)
    return mine, theirs


@pytest.mark.parametrize("name", ["sequential", "functional", "custom", "zoo", "rnn_stack"])
def test_real_keras_loads_minitf_files_and_predicts_the_same(real_keras, name):
    mine, theirs = real_keras
    np.testing.assert_allclose(theirs["predictions"][name], mine[name], rtol=1e-4, atol=1e-5)


def test_real_keras_restores_minitf_optimizer_state(real_keras):
    assert real_keras[1]["iterations"] == 3


@pytest.mark.parametrize("name", ["zoo", "rnn_stack", "functional"])
def test_weights_layout_is_keras_layout(real_keras, name):
    build = getattr(make_fixtures, f"build_{name}")
    assert layout(build(tf.keras)) == real_keras[1]["layouts"][name]


@pytest.mark.parametrize("optimizer", OPTIMIZERS)
def test_optimizer_variables_layout_is_keras_layout(real_keras, optimizer):
    model = make_fixtures.build_sequential(tf.keras)
    model.compile(optimizer=getattr(tf.keras.optimizers, optimizer)(), loss="mse")
    model.optimizer.build(model.trainable_variables)
    mine = {p: s for p, s in layout(model).items() if p.startswith("optimizer/")}
    assert mine == real_keras[1]["optimizer_layouts"][optimizer]


def test_real_keras_loads_a_lambda_of_a_registered_function(real_keras):
    assert real_keras[1]["lambda"] == [[2.0, 2.0, 2.0]]


def test_real_keras_loads_a_registered_subclassed_model(real_keras):
    mine, theirs = real_keras
    np.testing.assert_allclose(theirs["sub"], mine["sub"], rtol=1e-5)
