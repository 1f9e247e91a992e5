"""Focal cross-entropy losses (Keras 3.15): values, gradients, configs, names, saving.

Reference numbers: TF 2.21 (Keras 3.15.1) on the inputs below (made with
numpy.random.default_rng(24)); `test_random_inputs_match_real_tf` also compares
with real TF directly on fresh random inputs.
"""
import json
import zipfile

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import require_tf, run_tf_json

L = tf.keras.losses
f32 = np.float32

BT = np.array([[1, 0, 0], [0, 0, 0], [0, 1, 0], [0, 0, 0]], f32)
BP = np.array([[0.9340947, 0.04033015, 0.7968812], [0.60000765, 0.05030371, 0.3357514],
               [0.3807072, 0.18252443, 0.6397488], [0.44045606, 0.7114887, 0.37400833]], f32)
BL = np.array([[3.2899477, 0.81656325, 4.0695653], [-2.1313903, -6.283421, -4.1087704],
               [-0.72779095, 5.891519, 1.7154722], [3.9356208, -2.6332462, -1.5948519]], f32)
CT = np.eye(4, dtype=f32)[[0, 0, 1, 3, 2]]
CP = np.array([[0.16551282, 0.02717011, 0.16640183, 0.6409153],
               [0.20663093, 0.23425396, 0.48471275, 0.07440235],
               [0.41809908, 0.07626898, 0.20829019, 0.29734173],
               [0.5663011, 0.00755914, 0.38724178, 0.03889799],
               [0.12635332, 0.266327, 0.23448673, 0.37283295]], f32)
CL = np.array([[-1.5864656, -1.9276968, -2.5815554, 2.340115],
               [0.02117649, -0.4672381, -0.97899985, 0.7582563],
               [-1.0288634, 0.29900253, -1.5669035, 0.66284704],
               [-0.6542008, 1.0792738, -3.1962113, -1.6656313],
               [-2.55847, 3.045749, -1.3310112, -0.24675049]], f32)

CASES = {  # name: (call, TF 2.21's result)
    "bfce": (lambda: L.binary_focal_crossentropy(BT, BP),
             [0.33752057, 0.12537596, 0.54131347, 0.26913485]),
    "bfce_g0": (lambda: L.binary_focal_crossentropy(BT, BP, gamma=0.0),
                [0.5677692, 0.45900726, 1.0670007, 0.7640242]),
    "bfce_bal": (lambda: L.binary_focal_crossentropy(BT, BP, apply_class_balancing=True,
                                                     alpha=0.4, gamma=3.0),
                 [0.16132355, 0.04268421, 0.18264198, 0.10436326]),
    "bfce_logits": (lambda: L.binary_focal_crossentropy(BT, BL, from_logits=True, gamma=1.5),
                    [1.5557288e+00, 1.3027806e-03, 5.1361090e-01, 1.2852858e+00]),
    "bfce_smooth": (lambda: L.binary_focal_crossentropy(BT, BP, label_smoothing=0.2),
                    [0.26888987, 0.12208622, 0.44290844, 0.24093235]),
    "bfce_axis0": (lambda: L.binary_focal_crossentropy(BT, BP, axis=0),
                   [0.12806769, 0.44151747, 0.38542342]),
    "cfce": (lambda: L.categorical_focal_crossentropy(CT, CP),
             [0.31314084, 0.24812637, 0.548976, 0.7497841, 0.21248105]),
    "cfce_alpha": (lambda: L.categorical_focal_crossentropy(
        CT, CP, alpha=[0.1, 0.2, 0.3, 0.4], gamma=1.0),
        [0.15009977, 0.12510009, 0.47544232, 1.2482073, 0.3330801]),
    "cfce_logits": (lambda: L.categorical_focal_crossentropy(CT, CL, from_logits=True,
                                                             gamma=0.5),
                    [0.9822597, 0.30484855, 0.21173462, 0.72370386, 1.1005743]),
    "cfce_smooth": (lambda: L.categorical_focal_crossentropy(CT, CP, label_smoothing=0.1),
                    [0.31912968, 0.24995017, 0.51953685, 0.7265164, 0.21328975]),
    "cfce_axis0": (lambda: L.categorical_focal_crossentropy(CT, CP, axis=0),
                   [0.797598, 0.39873105, 0.3264392, 0.8516475]),
    "BFCE": (lambda: L.BinaryFocalCrossentropy()(BT, BP), 0.31833622),
    "BFCE_sw_sum": (lambda: L.BinaryFocalCrossentropy(apply_class_balancing=True,
                                                      reduction="sum")(
        BT, BP, sample_weight=[1., 0., 2., .5]), 0.78710854),
    "BFCE_none_logits": (lambda: L.BinaryFocalCrossentropy(from_logits=True,
                                                           reduction=None)(BT, BL),
                         [1.5063900e+00, 4.2209055e-04, 4.6429837e-01, 1.2701465e+00]),
    "CFCE": (lambda: L.CategoricalFocalCrossentropy()(CT, CP), 0.41450167),
    "CFCE_sw": (lambda: L.CategoricalFocalCrossentropy(from_logits=True, gamma=3.0)(
        CT, CL, sample_weight=[1., 2., 0., .5, 1.]), 0.5246235),
    # extreme logits: the binary loss uses the logits (exact 100); the categorical one
    # clips the softmax, so -log(1e-7) * alpha = 4.03
    "extreme_bfce": (lambda: L.binary_focal_crossentropy([[1.0, 0.0]], [[-100.0, 100.0]],
                                                         from_logits=True), [100.0]),
    "extreme_cfce": (lambda: L.categorical_focal_crossentropy([[1.0, 0.0]], [[-100.0, 100.0]],
                                                              from_logits=True), [4.029523]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_match_tf(name):
    call, expected = CASES[name]
    got = call()
    assert got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), expected, rtol=2e-6, atol=1e-7)


def test_gamma_zero_is_plain_crossentropy_and_focus_shrinks_easy_examples():
    np.testing.assert_allclose(L.binary_focal_crossentropy(BT, BP, gamma=0.0).numpy(),
                               L.binary_crossentropy(BT, BP).numpy(), rtol=1e-6)
    np.testing.assert_allclose(
        L.categorical_focal_crossentropy(CT, CP, gamma=0.0, alpha=1.0).numpy(),
        L.categorical_crossentropy(CT, CP).numpy(), rtol=1e-6)
    easy = L.binary_focal_crossentropy([[1.0]], [[0.95]]) / L.binary_crossentropy([[1.0]],
                                                                                  [[0.95]])
    hard = L.binary_focal_crossentropy([[1.0]], [[0.05]]) / L.binary_crossentropy([[1.0]],
                                                                                  [[0.05]])
    np.testing.assert_allclose([float(easy[0]), float(hard[0])], [0.05 ** 2, 0.95 ** 2],
                               rtol=1e-5)


GT = np.array([[1.0, 0.0, 0.3], [0.0, 1.0, 0.8]])
GP = np.array([[0.7, 0.2, 0.4], [0.35, 0.6, 0.9]])
GL = np.array([[1.5, -0.5, 0.25], [-2.0, 0.75, 3.0]])
GRAD_CASES = [
    ("binary_focal_crossentropy", {}, GP),
    ("binary_focal_crossentropy", {"gamma": 1.5, "apply_class_balancing": True}, GP),
    ("binary_focal_crossentropy", {"from_logits": True, "label_smoothing": 0.1}, GL),
    ("categorical_focal_crossentropy", {}, GP),
    ("categorical_focal_crossentropy", {"alpha": [0.2, 0.3, 0.5], "gamma": 3.0}, GP),
    ("categorical_focal_crossentropy", {"from_logits": True, "label_smoothing": 0.2}, GL),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=[c[0] + str(c[1]) for c in GRAD_CASES])
def test_gradients_match_finite_differences(case):
    fn, kwargs, y_pred = case
    check_grads(lambda t, p: getattr(L, fn)(t, p, **kwargs), GT, y_pred, wrt=[1])


def test_class_gradient_with_sample_weights():
    weights = np.array([0.5, 2.0])
    check_grads(lambda p: L.BinaryFocalCrossentropy(dtype="float64")(GT, p, weights), GP)
    check_grads(lambda p: L.CategoricalFocalCrossentropy(from_logits=True, dtype="float64")(
        GT, p, weights), GL)


def test_configs_are_keras_configs_and_round_trip():
    # verified against TF 2.21: keys, order and values
    binary = L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.5, gamma=1.0,
                                       label_smoothing=0.1, name="f")
    assert list(binary.get_config().items()) == [
        ("name", "f"), ("reduction", "sum_over_batch_size"), ("from_logits", False),
        ("label_smoothing", 0.1), ("axis", -1), ("apply_class_balancing", True),
        ("alpha", 0.5), ("gamma", 1.0)]
    categorical = L.CategoricalFocalCrossentropy(alpha=0.5, gamma=1.0, from_logits=True,
                                                 axis=1, reduction="sum")
    assert list(categorical.get_config().items()) == [
        ("name", "categorical_focal_crossentropy"), ("reduction", "sum"),
        ("from_logits", True), ("label_smoothing", 0.0), ("axis", 1), ("alpha", 0.5),
        ("gamma", 1.0)]
    for loss in (binary, categorical):
        again = type(loss).from_config(loss.get_config())
        assert again.get_config() == loss.get_config()
        np.testing.assert_allclose(again(GT, GP).numpy(), loss(GT, GP).numpy())
        config = L.serialize(loss)
        assert config["class_name"] == type(loss).__name__
        assert L.deserialize(config).get_config() == loss.get_config()
    assert L.BinaryFocalCrossentropy().name == "binary_focal_crossentropy"
    assert L.CategoricalFocalCrossentropy().name == "categorical_focal_crossentropy"


def test_names_and_public_paths():
    assert L.get("binary_focal_crossentropy") is L.binary_focal_crossentropy
    assert L.get("categorical_focal_crossentropy") is L.categorical_focal_crossentropy
    assert isinstance(L.get("BinaryFocalCrossentropy"), L.BinaryFocalCrossentropy)
    assert isinstance(L.get("CategoricalFocalCrossentropy"), L.CategoricalFocalCrossentropy)
    assert tf.losses.BinaryFocalCrossentropy is L.BinaryFocalCrossentropy
    assert tf.losses.CategoricalFocalCrossentropy is L.CategoricalFocalCrossentropy
    assert tf.keras.metrics.binary_focal_crossentropy is L.binary_focal_crossentropy
    assert tf.metrics.categorical_focal_crossentropy is L.categorical_focal_crossentropy


def test_bad_input_teaches():
    with pytest.raises(ValueError, match="same rank"):
        L.binary_focal_crossentropy([1.0, 0.0], [[0.2, 0.3]])
    with pytest.raises(ValueError, match="`axis` must be of type `int`"):
        L.categorical_focal_crossentropy(CT, CP, axis=True)
    with pytest.warns(SyntaxWarning, match="binary_crossentropy"):
        L.categorical_focal_crossentropy([[1.0]], [[0.5]])


def test_inside_tf_function():
    f = tf.function(lambda t, p: L.BinaryFocalCrossentropy(from_logits=True,
                                                           reduction=None)(t, p))
    np.testing.assert_allclose(f(tf.constant(BT), tf.constant(BL)).numpy(),
                               CASES["BFCE_none_logits"][1], rtol=2e-6)
    g = tf.function(lambda t, p: L.categorical_focal_crossentropy(t, p))
    np.testing.assert_allclose(g(tf.constant(CT), tf.constant(CP)).numpy(),
                               CASES["cfce"][1], rtol=2e-6)


def _model(loss):
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer="sgd", loss=loss)
    return model


@pytest.mark.parametrize("loss", ["binary_focal_crossentropy", "BinaryFocalCrossentropy",
                                  "categorical_focal_crossentropy"])
def test_compile_by_name_and_fit(loss):
    model = _model(loss)
    x = np.linspace(-1, 1, 12, dtype=f32).reshape(4, 3)
    y = np.eye(3, dtype=f32)[[0, 1, 2, 0]]
    history = model.fit(x, y, epochs=3, batch_size=4, verbose=0).history["loss"]
    assert history[-1] < history[0]
    fn = getattr(L, loss) if loss[0].islower() else L.BinaryFocalCrossentropy()
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0),
                               float(tf.reduce_mean(fn(y, model.predict(x, verbose=0)))),
                               rtol=1e-5)


def test_keras_file_round_trip(tmp_path):
    loss = L.CategoricalFocalCrossentropy(alpha=0.5, gamma=3.0, from_logits=True)
    model = _model(loss)
    path = tmp_path / "focal.keras"
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        compile_config = json.loads(archive.read("config.json"))["compile_config"]
    assert compile_config["loss"]["class_name"] == "CategoricalFocalCrossentropy"
    restored = tf.keras.models.load_model(path)
    assert isinstance(restored.loss, L.CategoricalFocalCrossentropy)
    assert restored.loss.get_config() == loss.get_config()


def test_random_inputs_match_real_tf():
    rng = np.random.default_rng(7)
    t = (rng.random((6, 5)) < 0.5).astype(f32)
    p = rng.uniform(0.001, 0.999, (6, 5)).astype(f32)
    z = rng.normal(0, 4, (6, 5)).astype(f32)
    onehot = np.eye(5, dtype=f32)[rng.integers(0, 5, 6)]
    sw = rng.uniform(0, 2, 6).astype(f32)
    calls = [  # (function or class, kwargs, y_true, y_pred, sample_weight)
        ("binary_focal_crossentropy", {"gamma": 2.5, "apply_class_balancing": True}, t, p),
        ("binary_focal_crossentropy", {"from_logits": True, "alpha": 0.7}, t, z),
        ("categorical_focal_crossentropy", {"gamma": 1.0}, onehot, p),
        ("categorical_focal_crossentropy", {"from_logits": True, "label_smoothing": 0.3},
         onehot, z),
        ("BinaryFocalCrossentropy", {"from_logits": True, "gamma": 4.0}, t, z),
        ("CategoricalFocalCrossentropy", {"alpha": 0.9}, onehot, p),
    ]
    code = "import json, numpy as np, tensorflow as tf\nL = tf.keras.losses\nout = []\n"
    ours = []
    for name, kwargs, y_true, y_pred in calls:
        args = f"np.array({y_true.tolist()}, 'float32'), np.array({y_pred.tolist()}, 'float32')"
        if name[0].isupper():
            code += (f"out.append(L.{name}(**{kwargs!r})({args}, sample_weight="
                     f"np.array({sw.tolist()}, 'float32')).numpy().tolist())\n")
            ours.append(getattr(L, name)(**kwargs)(y_true, y_pred, sample_weight=sw))
        else:
            code += f"out.append(L.{name}({args}, **{kwargs!r}).numpy().tolist())\n"
            ours.append(getattr(L, name)(y_true, y_pred, **kwargs))
    theirs = run_tf_json(code + "print(json.dumps(out))")
    for mine, real in zip(ours, theirs):
        np.testing.assert_allclose(mine.numpy(), real, rtol=2e-6, atol=1e-7)


def test_real_keras_loads_a_minitf_file_with_a_focal_loss(tmp_path):
    require_tf()
    loss = L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.4, gamma=3.0)
    model = _model(loss)
    path = tmp_path / "focal.keras"
    model.save(path)
    # plain arrays of probabilities: Keras's softmax outputs carry their logits, which its
    # cross-entropies then use (minitf does not), so a model's own outputs are not compared
    p = np.array([[0.1, 0.7, 0.2], [0.3, 0.3, 0.4], [0.05, 0.9, 0.05]], f32)
    y = np.eye(3, dtype=f32)[[1, 2, 0]]
    theirs = run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        model = tf.keras.models.load_model({str(path)!r})
        p = np.array({p.tolist()}, 'float32'); y = np.array({y.tolist()}, 'float32')
        print(json.dumps([type(model.loss).__name__, model.loss.get_config(),
                          float(model.loss(y, p))]))""")
    assert theirs[:2] == ["BinaryFocalCrossentropy", loss.get_config()]
    np.testing.assert_allclose(theirs[2], float(loss(y, p)), rtol=1e-6)
