"""Muon, MultiOptimizer/OptimizerMap, use_ema (+ callbacks.SwapEMAWeights), CosineDecayRestarts
and optimizers.legacy, as Keras 3.15 has them; one real-TF subprocess checks the numbers."""
import json

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

K = tf.keras
O = K.optimizers
RNG_SEED = 0


# --- use_ema ---------------------------------------------------------------------------------
def test_ema_average_starts_at_the_weights_then_moves_with_momentum():
    w = tf.Variable([1.0, 2.0])
    opt = O.SGD(0.1, use_ema=True, ema_momentum=0.9)
    g = tf.constant([1.0, -1.0])
    opt.apply([g], [w])
    average = opt._model_variables_moving_average[0]
    np.testing.assert_allclose(average.numpy(), [0.9, 2.1])  # first step: the weights
    opt.apply([g], [w])
    np.testing.assert_allclose(w.numpy(), [0.8, 2.2], rtol=1e-6)
    np.testing.assert_allclose(average.numpy(), [0.9 * 0.9 + 0.1 * 0.8, 0.9 * 2.1 + 0.1 * 2.2],
                               rtol=1e-6)
    assert [v.name for v in opt.variables] == ["iteration:0", "learning_rate:0",
                                               "Variable_0_average:0"]


def test_ema_overwrite_frequency_copies_the_average_into_the_weights():
    w = tf.Variable([0.0])
    opt = O.SGD(1.0, use_ema=True, ema_momentum=0.5, ema_overwrite_frequency=2)
    step = tf.function(lambda g: opt.apply([g], [w]))  # traced: the overwrite is a cond
    step(tf.constant([1.0]))  # w = -1, average = -1
    step(tf.constant([1.0]))  # w = -2, average = -1.5; step 2: w = average
    np.testing.assert_allclose(w.numpy(), [-1.5])
    step(tf.constant([1.0]))  # w = -2.5, average = -2.0, no overwrite
    np.testing.assert_allclose(w.numpy(), [-2.5])


def test_ema_arguments_are_checked_as_keras_does():
    with pytest.raises(ValueError, match=r"`ema_momentum` must be in the range \[0, 1\]"):
        O.Adam(use_ema=True, ema_momentum=1.5)
    with pytest.raises(ValueError, match="`ema_overwrite_frequency` must be an integer >= 1"):
        O.Adam(use_ema=True, ema_overwrite_frequency=0.5)
    with pytest.raises(NotImplementedError, match="gradient_accumulation_steps"):
        O.Adam(gradient_accumulation_steps=2)
    assert O.Adam(use_ema=True).get_config()["use_ema"] is True


def _ema_model(use_ema=True):
    model = K.Sequential([K.Input((2,)), K.layers.Dense(1, kernel_initializer="ones")])
    model.compile(O.SGD(0.1, use_ema=use_ema, ema_momentum=0.5), "mse")
    return model


X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]], np.float32)
Y = np.array([[1.0], [2.0], [0.0], [1.0]], np.float32)


def test_fit_ends_with_the_averages_and_evaluate_swaps_them_in_and_out():
    model = _ema_model()
    swap = K.callbacks.SwapEMAWeights()
    model.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0, callbacks=[swap])
    averages = [a.numpy().copy() for a in model.optimizer._model_variables_moving_average]
    for weight, average in zip(model.trainable_weights, averages):  # finalize_variable_values
        np.testing.assert_allclose(weight.numpy(), average)
    kernel = model.trainable_weights[0]
    kernel.assign([[5.0], [5.0]])  # make the model's and the average's weights differ
    loss_with_average = float(np.mean((X @ averages[0] + averages[1] - Y) ** 2))
    assert model.evaluate(X, Y, verbose=0, callbacks=[swap]) == pytest.approx(
        loss_with_average, rel=1e-5)
    np.testing.assert_allclose(kernel.numpy(), [[5.0], [5.0]])  # swapped back


def test_swap_on_epoch_shows_later_callbacks_the_ema_weights():
    model = _ema_model()
    seen = []
    record = K.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(
        (model.trainable_weights[0].numpy().copy(),
         model.optimizer._model_variables_moving_average[0].numpy().copy())))
    model.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0,
              callbacks=[K.callbacks.SwapEMAWeights(swap_on_epoch=True), record])
    kernel_in_model, stored = seen[0]
    assert not np.allclose(kernel_in_model, stored)  # epoch 0: model holds the EMA weights
    np.testing.assert_allclose(seen[1][0], seen[1][1])  # last epoch: finalized, equal


def test_swap_ema_weights_requires_use_ema():
    model = _ema_model(use_ema=False)
    with pytest.raises(ValueError, match="`use_ema=True` is set on the optimizer"):
        model.fit(X, Y, epochs=1, verbose=0, validation_data=(X, Y),
                  callbacks=[K.callbacks.SwapEMAWeights()])


# --- CosineDecayRestarts -----------------------------------------------------------------------
def test_cosine_decay_restarts_follows_its_cycles():
    s = O.schedules.CosineDecayRestarts(2.0, 10, t_mul=2.0, m_mul=0.5, alpha=0.1)
    values = [float(s(step)) for step in (0, 5, 10, 20, 30, 70)]
    # cycle 0: steps 0-10 from 2.0; cycle 1: 10-30 from 1.0; cycle 2: 30-70 from 0.5
    expected = [2.0, 2.0 * (0.9 * 0.5 + 0.1), 2.0 * (0.9 * 0.5 + 0.1),
                2.0 * (0.9 * 0.25 + 0.1), 2.0 * (0.9 * 0.25 + 0.1), 2.0 * (0.9 * 0.125 + 0.1)]
    np.testing.assert_allclose(values, expected, rtol=1e-5)
    again = O.schedules.deserialize(O.schedules.serialize(s))
    assert again.get_config() == s.get_config() == {
        "initial_learning_rate": 2.0, "first_decay_steps": 10, "t_mul": 2.0, "m_mul": 0.5,
        "alpha": 0.1, "name": "SGDRDecay"}
    with pytest.raises(ValueError, match="`first_decay_steps` must be > 0"):
        O.schedules.CosineDecayRestarts(1.0, 0)


# --- Muon --------------------------------------------------------------------------------------
def test_newton_schulz_pushes_singular_values_towards_one():
    g = np.random.default_rng(1).normal(size=(6, 3)).astype(np.float32)  # tall: transposed
    x = O.Muon().zeropower_via_newtonschulz5(tf.constant(g), 5).numpy()
    assert x.shape == (6, 3)
    u, s, vt = np.linalg.svd(g, full_matrices=False)
    d = u.T @ x @ vt.T  # x = U p(S) V^T: g's singular vectors, new singular values
    np.testing.assert_allclose(d - np.diag(np.diag(d)), 0, atol=1e-5)
    assert s.max() / s.min() > 2.5  # g's spread; the iteration squeezes it towards 1
    assert np.diag(d).min() > 0.6 and np.diag(d).max() < 1.25
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        O.Muon().zeropower_via_newtonschulz5(tf.constant([1.0, 2.0]), 5)


def test_muon_chooses_adamw_for_vectors_embeddings_and_excluded_layers():
    emb = K.layers.Embedding(5, 2, name="embedding")
    emb.build((None,))
    dense = K.layers.Dense(2, name="head")
    dense.build((None, 2))
    opt = O.Muon(exclude_layers=["head"])
    use_adamw = {v.path: opt._should_use_adamw(v) for v in emb.weights + dense.weights}
    assert use_adamw == {"embedding/embeddings": True, "head/kernel": True, "head/bias": True}
    assert O.Muon(exclude_embeddings=False)._should_use_adamw(emb.weights[0]) is False
    opt.build(emb.weights + dense.weights)
    slots = [v.name.rsplit("_", 1)[1] for v in opt.variables[2:]]
    assert slots == ["momentum:0", "velocity:0"] * 3
    muon = O.Muon()
    muon.build(dense.weights)  # Muon's kernel: a momentum and no velocity
    assert [v.name.rsplit("_", 1)[1] for v in muon.variables[2:]] == [
        "momentum:0", "momentum:0", "velocity:0"]


def test_muon_config_round_trip_and_get():
    opt = O.Muon(learning_rate=0.02, exclude_layers=["out"], rms_rate=None, nesterov=False)
    again = O.deserialize(O.serialize(opt))
    assert type(again) is O.Muon and again.get_config() == opt.get_config()
    assert opt.get_config()["exclude_layers"] == ["out"]
    assert type(O.get("muon")) is O.Muon and O.get("muon").name.startswith("muon")


# --- MultiOptimizer / OptimizerMap -------------------------------------------------------------
def test_optimizer_map_lookup_rules():
    sgd, adam, rms = O.SGD(), O.Adam(), O.RMSprop()
    m = O.OptimizerMap(rms)
    m["encoder/layer_0/dense"] = adam
    m["encoder/.*"] = sgd
    assert m["encoder/layer_0/dense"] is adam and m["encoder/x/q"] is sgd
    assert m["decoder"] is rms and len(m) == 2 and list(m) == ["encoder/layer_0/dense",
                                                               "encoder/.*"]
    m["enc.*"] = adam
    with pytest.raises(ValueError, match="Multiple optimizers assigned to variable encoder/q"):
        m["encoder/q"]
    with pytest.raises(ValueError, match="already exists in the OptimizerMap"):
        m["enc.*"] = sgd
    with pytest.raises(ValueError, match="cannot be LossScaleOptimizer"):
        m["x"] = O.LossScaleOptimizer(O.SGD())
    with pytest.raises(TypeError, match="default_optimizer must be a Keras Optimizer"):
        O.OptimizerMap("sgd")


def test_multi_optimizer_trains_each_group_with_its_optimizer():
    model = K.Sequential([K.Input((2,)), K.layers.Dense(3, name="enc"),
                          K.layers.Dense(1, name="head")])
    adam = O.Adam(0.01, use_ema=True)
    opt = O.MultiOptimizer(O.OptimizerMap(O.SGD(0.1), {".*enc/.*": adam}))
    model.compile(opt, "mse")
    model.fit(X, Y, epochs=2, batch_size=2, verbose=0)
    assert int(opt.iterations.numpy()) == 4
    assert [o.name for o in opt.optimizers] == [adam.name, opt.optimizers[1].name]
    assert [int(o.iterations.numpy()) for o in opt.optimizers] == [4, 4]
    assert adam.get_slot(model.layers[0].kernel, "m").shape == (2, 3)
    for weight, average in zip(model.layers[0].trainable_weights,
                               adam._model_variables_moving_average):  # finalized
        np.testing.assert_allclose(weight.numpy(), average.numpy())
    with pytest.raises(AttributeError, match="cannot be accessed on a MultiOptimizer"):
        opt.learning_rate
    again = O.deserialize(json.loads(json.dumps(O.serialize(opt))))
    assert [type(o).__name__ for o in again.optimizers] == ["Adam", "SGD"]


def test_multi_optimizer_with_a_function_and_loss_scale_factor():
    a, b = tf.Variable([1.0], name="a"), tf.Variable([1.0], name="b")
    fast, slow = O.SGD(1.0), O.SGD(0.1)
    opt = O.MultiOptimizer(lambda v: fast if v.name.startswith("a") else slow,
                           loss_scale_factor=2.0)
    opt.apply([tf.constant([2.0]), tf.constant([2.0])], [a, b])  # gradients / 2
    np.testing.assert_allclose([a.numpy()[0], b.numpy()[0]], [0.0, 0.9], rtol=1e-6)
    assert fast.loss_scale_factor == 2.0 and opt.optimizers == [fast, slow]
    with pytest.raises(ValueError, match="Gradients must match trainable variables"):
        opt.apply([tf.constant([1.0])])
    with pytest.raises(ValueError, match="Could not locate function"):
        O.deserialize(O.serialize(opt))


def test_legacy_names_raise_import_error():
    assert K.optimizers.legacy.Adam is K.optimizers.legacy.Optimizer
    with pytest.raises(ImportError, match="`keras.optimizers.legacy` is not supported"):
        K.optimizers.legacy.SGD(0.1)
    assert O.AdamW().name.startswith("adam_w") and O.RMSprop().name.startswith("rm_sprop")


# --- the same calls in real Keras 3.15 ----------------------------------------------------------
COMMON = """
import json, numpy as np
rng = np.random.default_rng(0)
K_ = np.array(rng.normal(size=(3, 4)), np.float32)
T_ = np.array(rng.normal(size=(5, 2)), np.float32)
B_ = np.array(rng.normal(size=(4,)), np.float32)
G_ = [[np.array(rng.normal(size=s), np.float32) for s in ((3, 4), (5, 2), (4,))]
      for _ in range(3)]
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]], np.float32)
Y = np.array([[1.0], [2.0], [0.0], [1.0]], np.float32)

def run(keras, variable, constant):
    O = keras.optimizers
    out = {}
    for exclude in (None, ["tall"]):
        vs = [variable(K_, "kernel"), variable(T_, "tall"), variable(B_, "bias")]
        opt = O.Muon(learning_rate=0.05, exclude_layers=exclude)
        for gs in G_:
            opt.apply([constant(g) for g in gs], vs)
        out["muon_%s" % exclude] = [np.asarray(v.numpy()).tolist() for v in vs]
    vs = [variable(K_, "kernel")]
    opt = O.Adam(0.1, use_ema=True, ema_momentum=0.8, ema_overwrite_frequency=2)
    for gs in G_:
        opt.apply([constant(gs[0])], vs)
    out["adam_ema"] = np.asarray(vs[0].numpy()).tolist()
    out["ema_average"] = np.asarray(opt.variables[2].numpy()).tolist()
    s = O.schedules.CosineDecayRestarts(0.5, 3, t_mul=1.5, m_mul=0.8, alpha=0.05)
    out["restarts"] = [float(s(i)) for i in range(0, 20, 2)]
    s = O.schedules.CosineDecayRestarts(0.5, 3, t_mul=1.0, m_mul=0.8)
    out["restarts_equal"] = [float(s(i)) for i in range(0, 12, 2)]
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="enc"),
                              keras.layers.Dense(1, name="head")])
    model.set_weights([np.array([[0.5], [-0.5]], np.float32), np.array([0.1], np.float32),
                       np.array([[2.0]], np.float32), np.array([0.0], np.float32)])
    opt = O.MultiOptimizer(O.OptimizerMap(O.SGD(0.05, use_ema=True, ema_momentum=0.5),
                                          {".*enc/.*": O.Adam(0.02)}))
    model.compile(opt, "mse")
    h = model.fit(X, Y, batch_size=2, epochs=3, shuffle=False, verbose=0,
                  validation_data=(X, Y), callbacks=[keras.callbacks.SwapEMAWeights()])
    out["multi_history"] = h.history
    out["multi_weights"] = [np.asarray(w).tolist() for w in model.get_weights()]
    out["multi_names"] = [o.name.rstrip("0123456789_") for o in opt.optimizers]
    out["multi_iterations"] = [int(o.iterations.numpy()) for o in opt.optimizers + [opt]]
    out["names"] = [o.name.rstrip("0123456789_") for o in (O.AdamW(), O.RMSprop())]
    return out
"""


@pytest.fixture(scope="module")
def keras_results():
    return run_tf_json(COMMON + """
import keras
print(json.dumps(run(keras, lambda a, n: keras.Variable(a, name=n),
                     keras.ops.convert_to_tensor)))
""")


def test_numbers_equal_keras_3_15(keras_results):
    namespace = {}
    exec(COMMON, namespace)
    ours = namespace["run"](K, lambda a, n: tf.Variable(a, name=n), tf.constant)
    assert ours.keys() == keras_results.keys()
    for key in ours:
        if key in ("multi_names", "names", "multi_iterations"):
            assert ours[key] == keras_results[key], key
        elif key == "multi_history":
            assert ours[key].keys() == keras_results[key].keys()
            for name in ours[key]:
                np.testing.assert_allclose(ours[key][name], keras_results[key][name],
                                           rtol=1e-5, err_msg=name)
        else:
            for mine, theirs in zip(ours[key], keras_results[key]):
                np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6, err_msg=key)
