"""Keras 3's files in minitf: `.keras` and `.weights.h5` written by real Keras 3.15 load
and predict the same numbers (tests/fixtures/keras, made by its make_fixtures.py), minitf's
own files round-trip with optimizer state, and every loader refuses hostile files."""
import io
import json
import os
import pickle
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import minitf as tf

pytest.importorskip("h5py")

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "keras")
sys.path.insert(0, FIXTURES)
import make_fixtures  # noqa: E402  (the architectures real Keras saved)

from minitf.keras.saving import h5_weights  # noqa: E402

EXPECTED = json.load(open(os.path.join(FIXTURES, "expected.json")))
Scale = make_fixtures.scale_class(tf.keras)  # registered as 'minitf_fixtures>Scale'


def inputs(name):
    arrays = [np.asarray(v) for v in EXPECTED[name]["inputs"]]
    arrays = [a.astype("int32" if a.dtype.kind == "i" else "float32") for a in arrays]
    return arrays if len(arrays) > 1 else arrays[0]


def fixture(name):
    return os.path.join(FIXTURES, name)


# --- files written by real Keras 3.15 ----------------------------------------------------------
@pytest.mark.parametrize("name", ["sequential", "functional", "custom"])
def test_keras_written_model_files_load_and_predict_the_same(name):
    model = tf.keras.models.load_model(fixture(f"{name}.keras"))
    np.testing.assert_allclose(model.predict(inputs(name), verbose=0),
                               EXPECTED[name]["outputs"], rtol=1e-5, atol=1e-6)


def test_keras_written_optimizer_state_and_weights_file():
    model = tf.keras.models.load_model(fixture("sequential.keras"))
    assert type(model.optimizer).__name__ == "Adam"
    assert int(model.optimizer.iterations.numpy()) == EXPECTED["sequential"]["iterations"] == 2
    assert any(np.any(v.numpy() != 0) for v in model.optimizer.variables[2:])  # slots restored
    rnn = make_fixtures.build_rnn_stack(tf.keras)
    rnn.load_weights(fixture("rnn_stack.weights.h5"))
    np.testing.assert_allclose(rnn.predict(inputs("rnn_stack"), verbose=0),
                               EXPECTED["rnn_stack"]["outputs"], rtol=1e-5, atol=1e-6)


# --- minitf's own files ------------------------------------------------------------------------
def test_minitf_files_have_keras_members_and_layout(tmp_path):
    import h5py
    model = make_fixtures.build_zoo(tf.keras)
    model.save(tmp_path / "zoo.keras")
    with zipfile.ZipFile(tmp_path / "zoo.keras") as archive:
        assert sorted(archive.namelist()) == ["config.json", "metadata.json",
                                              "model.weights.h5"]
        assert json.loads(archive.read("metadata.json"))["keras_version"] == "3.15.1"
    model.save_weights(tmp_path / "zoo.weights.h5")
    found = {}
    with h5py.File(tmp_path / "zoo.weights.h5") as f:
        f.visititems(lambda n, o: found.__setitem__(n, o.shape)
                     if isinstance(o, h5py.Dataset) else None)
    expected = {p: tuple(v.shape) for p, v in h5_weights.variables_by_path(model)}
    assert found == expected and len(found) == len(model.weights) == 29
    assert "layers/multi_head_attention/query_dense/vars/0" in found  # Keras's sublayer groups


OPTIMIZERS = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam",
              "Ftrl", "Lion"]


@pytest.mark.parametrize("optimizer", OPTIMIZERS)
def test_save_load_round_trip_resumes_every_optimizer(tmp_path, optimizer):
    x = np.random.default_rng(1).normal(size=(8, 4)).astype("float32")
    layers = tf.keras.layers  # no Dropout: both runs must be deterministic
    model = tf.keras.Sequential([tf.keras.Input((4,)), layers.Dense(3, activation="relu"),
                                 layers.BatchNormalization(), layers.Dense(2)])
    model.compile(optimizer=getattr(tf.keras.optimizers, optimizer)(), loss="mse")
    model.fit(x, x[:, :2], epochs=1, batch_size=4, verbose=0)
    model.save(tmp_path / "m.keras")
    restored = tf.keras.models.load_model(tmp_path / "m.keras")
    for a, b in zip(restored.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    more = dict(epochs=1, batch_size=4, verbose=0, shuffle=False)
    assert restored.fit(x, x[:, :2], **more).history == model.fit(x, x[:, :2], **more).history


def test_weights_file_round_trip_and_keras_error_messages(tmp_path):
    model = make_fixtures.build_rnn_stack(tf.keras)
    path = tmp_path / "r.weights.h5"
    model.save_weights(path)
    clone = make_fixtures.build_rnn_stack(tf.keras)
    clone.load_weights(path)
    for a, b in zip(model.get_weights(), clone.get_weights()):
        np.testing.assert_array_equal(a, b)
    clone.load_weights(tmp_path / "r.weights.h5")  # os.PathLike too
    with pytest.raises(ValueError, match=r"must end in `.weights.h5`. Received: filepath=.*m.h5"):
        model.save_weights(tmp_path / "m.h5")
    with pytest.raises(ValueError, match="File format not supported"):
        model.load_weights(tmp_path / "m.npz")
    with pytest.raises(ValueError, match="has not yet been built"):
        tf.keras.Sequential([tf.keras.layers.Dense(2)]).save_weights(tmp_path / "u.weights.h5")
    with pytest.raises(FileExistsError):
        model.save_weights(path, overwrite=False)
    other = tf.keras.Sequential([tf.keras.Input((3, 2)), tf.keras.layers.GRU(4)])
    with pytest.raises(ValueError, match=r"(?s)could not be loaded from .*r.weights.h5.*"
                                         r"must match. variable.shape=\(2, 12\)"):
        other.load_weights(path)
    bigger = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="Layer 'dense.*' expected 2 variables, but received 0"):
        bigger.load_weights(path)


# --- registration ------------------------------------------------------------------------------
def test_registration_names_and_scopes():
    saving = tf.keras.saving
    assert saving.get_registered_name(Scale) == "minitf_fixtures>Scale"
    assert saving.get_registered_object("minitf_fixtures>Scale") is Scale
    assert saving.get_registered_name(tf.keras.layers.Dense) == "Dense"
    assert saving.get_registered_object("Nothing") is None
    with saving.custom_object_scope({"Nothing": Scale}):
        assert saving.get_registered_object("Nothing") is Scale
    assert saving.get_registered_object("Nothing") is None
    with pytest.raises(ValueError, match="does not have a get_config"):
        saving.register_keras_serializable()(type("NoConfig", (), {}))
    config = tf.keras.layers.serialize(Scale(3.0, name="s"))
    assert (config["module"], config["registered_name"]) == ("make_fixtures",
                                                             "minitf_fixtures>Scale")


class Plain(tf.keras.layers.Layer):  # not registered
    def call(self, x):
        return x


def test_unregistered_classes_need_custom_objects_or_a_scope(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((2,)), Plain(name="plain")])
    model.save(tmp_path / "p.keras")
    with pytest.raises(TypeError, match="Could not locate class 'Plain'"):
        tf.keras.models.load_model(tmp_path / "p.keras")
    loaded = tf.keras.models.load_model(tmp_path / "p.keras", custom_objects={"Plain": Plain})
    assert type(loaded.layers[0]) is Plain
    with tf.keras.saving.CustomObjectScope({"Plain": Plain}):
        assert type(tf.keras.models.model_from_json(model.to_json()).layers[0]) is Plain


def test_a_class_named_like_a_builtin_does_not_shadow_it():
    class Dense(tf.keras.layers.Layer):  # defined in the process, never registered
        def call(self, x):
            raise AssertionError("the impostor ran")

    model = tf.keras.models.load_model(fixture("sequential.keras"))
    assert type(model.layers[0]) is tf.keras.layers.Dense
    assert Dense.__name__ == "Dense"


# --- hostile and broken files ------------------------------------------------------------------
def rewrite(source, target, **members):
    """Copy a .keras file, replacing (or adding) members by name."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for name in old.namelist():
            if name not in members:
                new.writestr(name, old.read(name))
        for name, data in members.items():
            new.writestr(name, data)
    return target


class Boom:
    def __reduce__(self):
        return (os.system, (f"touch {os.environ.get('BOOM_FILE', '/tmp/minitf-boom')}",))


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_hostile_keras_files_are_refused(tmp_path, monkeypatch):
    seq = fixture("sequential.keras")
    config = json.loads(zipfile.ZipFile(seq).read("config.json"))
    boom = tmp_path / "boom"
    monkeypatch.setenv("BOOM_FILE", str(boom))
    huge = json.loads(json.dumps(config))
    huge["config"]["layers"][1]["config"]["units"] = 10 ** 9
    lam = json.loads(json.dumps(config))
    lam["config"]["layers"][1] = json.loads(zipfile.ZipFile(fixture("lambda.keras")).read(
        "config.json"))["config"]["layers"][1]
    cases = {  # name: (file, error class, message)
        "pickle": (rewrite(seq, tmp_path / "a.keras", **{"model.weights.h5": pickle.dumps(Boom())}),
                   ValueError, "not a readable HDF5 weights file"),
        "traversal": (rewrite(seq, tmp_path / "b.keras", **{"../evil.txt": b"x"}), ValueError,
                      "a path outside the archive"),
        "unregistered": (rewrite(seq, tmp_path / "c.keras", **{"config.json": json.dumps(
            config).replace('"Dense"', '"Scale2"')}), TypeError, "Could not locate class"),
        "huge shape": (rewrite(seq, tmp_path / "d.keras", **{"config.json": json.dumps(huge)}),
                       ValueError, r"asks for weight dense/kernel of shape \(4, 1000000000\)"),
        "zip bomb": (rewrite(seq, tmp_path / "e.keras"), ValueError, "zip bomb"),
        "not json": (rewrite(seq, tmp_path / "f.keras", **{"config.json": b"{nope"}), ValueError,
                     "'config.json' is not valid JSON"),
        "lambda": (rewrite(seq, tmp_path / "g.keras", **{"config.json": json.dumps(lam)}),
                   ValueError, "deserialization of a `Lambda` layer"),
        "no weights": (tmp_path / "h.keras", ValueError, "has no 'model.weights.h5'"),
    }
    with zipfile.ZipFile(cases["zip bomb"][0], "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("model.weights.h5", b"\0" * (64 << 20))  # a second, 64 MiB member
    with zipfile.ZipFile(cases["no weights"][0], "w") as archive:
        archive.writestr("config.json", json.dumps(config))
    before = set(os.listdir(tmp_path.parent))
    for name, (path, error, message) in cases.items():
        with pytest.raises(error, match=message) as raised:
            tf.keras.models.load_model(path)
        if error is ValueError and name not in ("lambda",):
            assert os.path.basename(path) in str(raised.value), name  # names the file
    assert not boom.exists()  # the pickle never ran
    assert set(os.listdir(tmp_path.parent)) == before  # nothing written outside
    with pytest.raises(ValueError, match="never runs code from a file"):
        tf.keras.models.load_model(cases["lambda"][0], safe_mode=False)
    with pytest.raises(ValueError, match="deserialization of a `Lambda` layer"):
        tf.keras.models.load_model(fixture("lambda.keras"))


def test_huge_config_without_a_file_is_bounded_too():
    config = json.loads(zipfile.ZipFile(fixture("sequential.keras")).read("config.json"))
    config["config"]["layers"][1]["config"]["units"] = 10 ** 9
    with pytest.raises(ValueError, match="asks for weight dense/kernel"):
        tf.keras.models.model_from_json(json.dumps(config))
    with pytest.raises(ValueError, match="needs the JSON text"):
        tf.keras.models.model_from_json("{broken")


def test_truncated_and_bit_flipped_files(tmp_path):
    data = open(fixture("sequential.keras"), "rb").read()
    (tmp_path / "t.keras").write_bytes(data[: len(data) // 2])
    flipped = bytearray(data)
    start = data.index(b"HDF")  # inside the stored weights member: its CRC no longer matches
    flipped[start + 2000] ^= 0xFF
    (tmp_path / "f.keras").write_bytes(bytes(flipped))
    for name, message in (("t.keras", "not a `.keras` zip file"), ("f.keras", "corrupt")):
        with pytest.raises(ValueError, match=message) as raised:
            tf.keras.models.load_model(tmp_path / name)
        assert name in str(raised.value)
    weights = open(fixture("rnn_stack.weights.h5"), "rb").read()
    model = make_fixtures.build_rnn_stack(tf.keras)
    for name, blob in (("t.weights.h5", weights[:3000]),
                       ("f.weights.h5", b"\x00" * 8 + weights[8:])):
        (tmp_path / name).write_bytes(blob)
        with pytest.raises(ValueError, match=f"{name}.*(truncated|corrupt)"):
            model.load_weights(tmp_path / name)


def test_a_failure_in_the_middle_of_a_save_keeps_the_old_file(tmp_path, monkeypatch):
    model = make_fixtures.build_sequential(tf.keras)
    model.save(tmp_path / "m.keras")
    model.save_weights(tmp_path / "m.weights.h5")
    good = {name: (tmp_path / name).read_bytes() for name in ("m.keras", "m.weights.h5")}
    real = h5_weights.write_weights

    def dies_halfway(model, file):
        real(model, file)
        raise OSError("disk full")

    monkeypatch.setattr(h5_weights, "write_weights", dies_halfway)
    ckpt = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "m.weights.h5"),
                                              save_weights_only=True)
    ckpt.set_model(model)
    for save in (lambda: model.save(tmp_path / "m.keras"),
                 lambda: model.save_weights(tmp_path / "m.weights.h5"),
                 lambda: ckpt.on_epoch_end(0, {})):
        with pytest.raises(OSError, match="disk full"):
            save()
    assert sorted(os.listdir(tmp_path)) == ["m.keras", "m.weights.h5"]  # no temp file left
    for name, data in good.items():
        assert (tmp_path / name).read_bytes() == data


def test_h5py_is_imported_only_when_needed(monkeypatch):
    code = "import minitf, sys; print('h5py' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
    monkeypatch.setitem(sys.modules, "h5py", None)
    model = make_fixtures.build_sequential(tf.keras)
    with pytest.raises(ImportError, match=r"pip install 'h5py>=3.8'"):
        model.save_weights("never-written.weights.h5")
    assert not os.path.exists("never-written.weights.h5")


def test_saving_benchmark_runs_and_reports_both_formats():
    script = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "saving.py")
    out = subprocess.run([sys.executable, script, "--repeats", "1"], capture_output=True,
                         text=True, check=True).stdout
    lines = [line for line in out.splitlines() if "<= 1 s each way" in line]
    assert all(" ms   load " in line for line in lines), out
    assert [line.split("  ")[0] for line in lines[:2]] == [  # (colleagues' formats follow)
        "model.save / load_model (.keras)", "save_weights / load_weights (.weights.h5)"], out
    # (the 1 s goal itself is read off the output: a shared CI machine may be slower)


def test_serialize_and_deserialize_keras_object_and_their_spellings(tmp_path):
    utils, saving = tf.keras.utils, tf.keras.saving
    assert utils.serialize_keras_object is saving.serialize_keras_object  # TF 2.21: utils
    assert utils.register_keras_serializable is saving.register_keras_serializable
    for obj in (tf.keras.layers.Dense(2, name="d"), tf.keras.optimizers.Adam(0.25),
                tf.keras.losses.MeanSquaredError(), tf.keras.initializers.HeNormal(seed=3)):
        config = json.loads(json.dumps(utils.serialize_keras_object(obj)))
        back = utils.deserialize_keras_object(config)
        assert type(back) is type(obj) and back.get_config() == obj.get_config()
    assert utils.deserialize_keras_object(utils.serialize_keras_object(
        tf.keras.activations.relu)) is tf.keras.activations.relu
    with pytest.raises(TypeError, match="Could not locate class 'Plain'"):
        utils.deserialize_keras_object({"module": "x", "class_name": "Plain", "config": {}})
    model = make_fixtures.build_sequential(tf.keras)
    saving.save_weights(model, tmp_path / "m.weights.h5")  # Keras 3's function spellings
    saving.load_weights(model, tmp_path / "m.weights.h5")


# --- the other loaders: dataset files ----------------------------------------------------------
def test_dataset_npz_loader_is_bounded_and_never_unpickles(tmp_path, monkeypatch):
    load = tf.keras.datasets.digits.load_data
    boom = tmp_path / "boom"
    monkeypatch.setenv("BOOM_FILE", str(boom))
    x, y = np.zeros((4, 8, 8), "uint8"), np.arange(4, dtype="uint8")
    np.savez(tmp_path / "ok.npz", x=x, y=y)
    (x_train, _), _ = load(str(tmp_path / "ok.npz"), test_split=0.5)
    assert x_train.shape == (2, 8, 8)
    np.savez(tmp_path / "pickled.npz", x=np.array([Boom()], dtype=object), y=y)
    header = np.lib.format.header_data_from_array_1_0(x)
    header["shape"] = (10 ** 6, 8, 8)  # declares 64 MB, holds 256 bytes
    lie = io.BytesIO()
    np.lib.format.write_array_header_1_0(lie, header)
    with zipfile.ZipFile(tmp_path / "lie.npz", "w") as archive:
        archive.writestr("x.npy", lie.getvalue() + x.tobytes())
        archive.writestr("y.npy", b"")
    (tmp_path / "text.npz").write_text("not a zip")
    np.savez(tmp_path / "nox.npz", y=y)
    for name, message in (("pickled.npz", "Python objects"), ("lie.npz", "declares shape"),
                          ("text.npz", "not a readable .npz"), ("nox.npz", "no array 'x'")):
        with pytest.raises(ValueError, match=message) as raised:
            load(str(tmp_path / name))
        assert name in str(raised.value)
    assert not boom.exists()


def test_from_config_and_layers_deserialize_are_bounded():
    config = tf.keras.layers.serialize(tf.keras.layers.Dense(3))
    config["config"]["units"] = 10 ** 9
    config["build_config"] = {"input_shape": [None, 4]}
    with pytest.raises(ValueError, match="asks for weight dense.*/kernel"):
        tf.keras.layers.deserialize(config)
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)])
    seq = model.get_config()
    seq["layers"][1]["config"]["units"] = 10 ** 9
    with pytest.raises(ValueError, match="asks for weight"):
        tf.keras.Sequential.from_config(seq)


def test_load_weights_from_a_keras_file_skip_mismatch_and_no_shards(tmp_path):
    model = tf.keras.models.load_model(fixture("sequential.keras"))
    fresh = make_fixtures.build_sequential(tf.keras)
    fresh.load_weights(fixture("sequential.keras"))  # the weights member of a .keras file
    for a, b in zip(fresh.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)
    wider = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(5),
                                 tf.keras.layers.BatchNormalization()])
    before = wider.layers[0].get_weights()
    wider.load_weights(fixture("sequential.keras"), skip_mismatch=True)  # Dense skipped
    np.testing.assert_array_equal(wider.layers[0].get_weights()[0], before[0])
    with pytest.raises(NotImplementedError, match="max_shard_size"):
        model.save_weights(tmp_path / "m.weights.h5", max_shard_size=1)


@tf.keras.saving.register_keras_serializable(package="minitf_tests")
def double(t):
    return t * 2.0


def test_a_lambda_of_a_registered_function_is_saved_by_name(tmp_path):
    x = tf.keras.Input((3,))
    model = tf.keras.Model(x, tf.keras.layers.Lambda(double, name="twice")(x))
    model.save(tmp_path / "l.keras")
    config = json.loads(zipfile.ZipFile(tmp_path / "l.keras").read("config.json"))
    function = config["config"]["layers"][1]["config"]["function"]
    assert function == {"module": "builtins", "class_name": "function",  # as Keras 3.15
                        "config": "minitf_tests>double", "registered_name": "function"}
    restored = tf.keras.models.load_model(tmp_path / "l.keras")
    assert restored.get_layer("twice").function is double
    np.testing.assert_allclose(restored(np.ones((1, 3), "float32")).numpy(), 2.0)
    text = json.dumps(config).replace("minitf_tests>double", "nowhere>f")
    with pytest.raises(ValueError, match="Could not locate the function 'nowhere>f'"):
        tf.keras.models.model_from_json(text)


@tf.keras.saving.register_keras_serializable(package="minitf_tests")
class Halves(tf.keras.initializers.Initializer):
    def __call__(self, shape, dtype=None, **kwargs):
        return tf.fill(shape, 0.5)

    def get_config(self):
        return {}


def test_registered_initializers_inside_layer_configs(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(2, kernel_initializer=Halves())])
    config = json.loads(model.to_json())
    assert config["config"]["layers"][1]["config"]["kernel_initializer"][
        "registered_name"] == "minitf_tests>Halves"
    clone = tf.keras.models.model_from_json(model.to_json())
    assert type(clone.layers[0].kernel_initializer) is Halves
    np.testing.assert_array_equal(clone.layers[0].kernel.numpy(), 0.5)
    with pytest.raises(ValueError, match="Could not interpret initializer identifier"):
        tf.keras.models.model_from_json(model.to_json().replace("minitf_tests>Halves", "x>y")
                                        .replace('"Halves"', '"Nope"'))


def test_subclassed_model_layout_follows_attributes():
    class Sub(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.d1 = tf.keras.layers.Dense(2)
            self.blocks = [tf.keras.layers.Dense(2), tf.keras.layers.Dense(3)]

        def call(self, x):
            return self.blocks[1](self.blocks[0](self.d1(x)))

    model = Sub()
    model(tf.ones((1, 3)))
    # the paths and shapes real Keras 3.15 writes for this class (seen with h5py)
    assert {p: tuple(v.shape) for p, v in h5_weights.variables_by_path(model)} == {
        "blocks/dense/vars/0": (2, 2), "blocks/dense/vars/1": (2,),
        "blocks/dense_1/vars/0": (2, 3), "blocks/dense_1/vars/1": (3,),
        "d1/vars/0": (3, 2), "d1/vars/1": (2,)}


@tf.keras.saving.register_keras_serializable(package="minitf_tests")
class SubModel(tf.keras.Model):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.d1 = tf.keras.layers.Dense(units)

    def call(self, x):
        return self.d1(x)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def test_a_registered_subclassed_model_round_trips(tmp_path):
    model = SubModel(3)
    x = np.random.default_rng(2).normal(size=(2, 4)).astype("float32")
    model(x)
    model.compile(optimizer="adam", loss="mse")
    model.save(tmp_path / "sub.keras")
    restored = tf.keras.models.load_model(tmp_path / "sub.keras")
    assert type(restored) is SubModel and restored.units == 3
    np.testing.assert_array_equal(restored(x).numpy(), model(x).numpy())
