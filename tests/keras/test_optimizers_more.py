"""Lamb, Adafactor and LossScaleOptimizer (Keras 3.15): update rules, loss scaling, configs."""
import json

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

keras = tf.keras
O = keras.optimizers


def test_lamb_step_is_adams_step_scaled_by_the_trust_ratio():
    w0, g = np.array([3.0, 4.0], np.float32), np.array([0.5, -1.0], np.float32)
    w = tf.Variable(w0)
    O.Lamb(learning_rate=0.1).apply([tf.constant(g)], [w])
    m, v = 0.1 * g, 0.001 * g ** 2
    update = (m / 0.1) / (np.sqrt(v / 0.001) + 1e-7)
    ratio = np.linalg.norm(w0) / np.linalg.norm(update)
    np.testing.assert_allclose(w.numpy(), w0 - 0.1 * ratio * update, rtol=1e-6)


def test_lamb_zero_weights_use_ratio_one():
    w = tf.Variable([0.0, 0.0])
    O.Lamb(learning_rate=0.1).apply([tf.constant([1.0, -2.0])], [w])
    np.testing.assert_allclose(w.numpy(), [-0.1, 0.1], rtol=1e-5)


def test_adafactor_factors_matrices_into_rows_and_columns():
    w = tf.Variable(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    b = tf.Variable([1.0, 2.0])
    opt = O.Adafactor(learning_rate=0.1)
    opt.apply([tf.ones((2, 3, 4)), tf.ones((2,))], [w, b])
    assert [tuple(v.shape) for v in opt.variables[2:]] == [(2, 3), (2, 4), (2, 3, 4), (2,)]
    # first step: beta_2 = 1 - 1 ** -0.8 = 0, so v = g ** 2 + eps; u = 1; rms(u) = 1
    alpha = max(1e-3, np.sqrt(np.mean(np.arange(24.0) ** 2))) * min(0.1, 1.0)
    np.testing.assert_allclose(w.numpy(), np.arange(24).reshape(2, 3, 4) - alpha, rtol=1e-5)


def test_loss_scale_optimizer_unscales_skips_and_grows():
    w = tf.Variable([1.0, 2.0])
    opt = O.LossScaleOptimizer(O.SGD(0.5), initial_scale=4.0, dynamic_growth_steps=2)
    assert float(opt.scale_loss(tf.constant(3.0))) == 12.0  # before build: initial_scale
    opt.apply([tf.constant([4.0, 8.0])], [w])
    np.testing.assert_allclose(w.numpy(), [0.5, 1.0])  # gradient 4 / 4 = 1, 8 / 4 = 2
    opt.apply([tf.constant([np.nan, 8.0])], [w])
    np.testing.assert_allclose(w.numpy(), [0.5, 1.0])
    assert (float(opt.dynamic_scale.numpy()), int(opt.iterations.numpy())) == (2.0, 1)
    for _ in range(2):
        opt.apply([tf.constant([0.0, 0.0])], [w])
    assert float(opt.dynamic_scale.numpy()) == 4.0 and int(opt.step_counter.numpy()) == 0
    opt.learning_rate = 0.25
    assert float(opt.inner_optimizer.learning_rate.numpy()) == 0.25


def test_loss_scale_optimizer_inside_tf_function_skips_non_finite_steps():
    w = tf.Variable([1.0])
    opt = O.LossScaleOptimizer(O.Adam(0.1), initial_scale=2.0)
    step = tf.function(lambda g: opt.apply([g], [w]))
    step(tf.constant([2.0]))
    after_one = w.numpy().copy()
    step(tf.constant([np.inf]))
    np.testing.assert_array_equal(w.numpy(), after_one)
    assert int(opt.iterations.numpy()) == 1 and float(opt.dynamic_scale.numpy()) == 1.0


def test_compile_wraps_the_optimizer_under_mixed_float16():
    keras.utils.set_random_seed(0)  # Keras's initializers seed from Python's `random`
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        inputs = keras.Input((2,))
        outputs = keras.layers.Dense(1, dtype="float32")(keras.layers.Dense(4)(inputs))
        model = keras.Model(inputs, outputs)
        model.compile(O.SGD(0.05), "mse")
        assert isinstance(model.optimizer, O.LossScaleOptimizer)
        assert model.optimizer.name == "loss_scale_optimizer"
        # small inputs: no scaled float16 gradient overflows, whatever the starting weights
        # (with inputs in [0, 1) some starting weights overflow once and the scale halves)
        x = np.random.default_rng(1).random((32, 2)).astype("float32") * 0.25
        history = model.fit(x, x.sum(axis=1), epochs=4, batch_size=8, verbose=0)
        assert history.history["loss"][-1] < history.history["loss"][0]
        assert float(model.optimizer.dynamic_scale.numpy()) == 2.0 ** 15
        model.compile(O.SGD(0.05), "mse", auto_scale_loss=False)
        assert isinstance(model.optimizer, O.SGD)
    finally:
        keras.mixed_precision.set_global_policy("float32")


def test_fit_differentiates_the_scaled_loss_with_loss_scale_factor():
    weights = []
    for factor in (None, 1024.0):
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, "linear",
                                                                        kernel_initializer="ones")])
        model.compile(O.SGD(0.1, loss_scale_factor=factor), "mse")
        model.fit(np.ones((2, 1)), np.zeros((2, 1)), verbose=0)
        weights.append(model.get_weights())
    for a, b in zip(*weights):
        np.testing.assert_allclose(a, b)
    np.testing.assert_allclose(weights[0][0], [[0.8]])


def test_schedule_free_adamw_first_step_and_warmup():
    w = tf.Variable([1.0, -2.0])
    O.ScheduleFreeAdamW(learning_rate=0.1).apply([tf.constant([2.0, -4.0])], [w])
    np.testing.assert_allclose(w.numpy(), [0.9, -1.9], rtol=1e-6)  # first step: Adam's sign step
    w = tf.Variable([1.0])
    opt = O.ScheduleFreeAdamW(learning_rate=0.1, warmup_steps=4)
    opt.apply([tf.constant([3.0])], [w])
    np.testing.assert_allclose(w.numpy(), [1.0 - 0.025], rtol=1e-5)  # lr * 1/4 at step 1
    assert opt.get_config()["warmup_steps"] == 4


def test_distributed_fit_scales_the_loss_too():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    weights = []
    for factor in (None, 64.0):
        with strategy.scope():
            model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(
                1, kernel_initializer="ones")])
            model.compile(O.SGD(0.1, loss_scale_factor=factor), "mse")
        model.fit(np.ones((4, 1)), np.zeros((4, 1)), batch_size=4, verbose=0)
        weights.append(model.get_weights())
    for a, b in zip(*weights):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    np.testing.assert_allclose(weights[0][0], [[0.8]])


def test_lookup_and_round_trip():
    assert type(O.get("scheduleFreeAdamW")).__name__ == "ScheduleFreeAdamW"
    assert type(O.get("adafactor")).__name__ == "Adafactor"
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: lamb"):
        O.get("lamb")  # as in Keras 3.15
    back = O.deserialize(O.serialize(O.Lamb(learning_rate=0.01, beta_2=0.99)))
    assert type(back).__name__ == "Lamb" and back.get_config()["beta_2"] == 0.99
    with pytest.raises(ValueError, match="does not support `clipnorm`"):
        O.LossScaleOptimizer(O.SGD(), clipnorm=1.0)


# Run here and in real Keras: 5 steps of each optimizer on fixed gradients.
PROBE = """
rng = np.random.default_rng(0)
shapes = [(3,), (2, 3), (2, 2, 3)]
inits = [rng.normal(size=s).astype("float32") for s in shapes]
steps = [[rng.normal(size=s).astype("float32") for s in shapes] for _ in range(5)]
def run(make, grads=steps):
    opt = make()
    vs = [keras.Variable(v.copy()) for v in inits]
    for g in grads:
        opt.apply([keras.ops.convert_to_tensor(x) for x in g], vs)
    return [np.asarray(v).tolist() for v in vs], opt
O = keras.optimizers
out = {}
out["lamb"] = run(lambda: O.Lamb(learning_rate=0.05))[0]
out["lamb_wd"] = run(lambda: O.Lamb(learning_rate=0.05, weight_decay=0.1, beta_1=0.8))[0]
out["adafactor"] = run(lambda: O.Adafactor(learning_rate=0.05))[0]
out["sf_adamw"] = run(lambda: O.ScheduleFreeAdamW(learning_rate=0.05))[0]
out["sf_adamw_warm"] = run(lambda: O.ScheduleFreeAdamW(0.1, beta_1=0.8, warmup_steps=3))[0]
out["adafactor_abs"] = run(lambda: O.Adafactor(learning_rate=0.5, relative_step=False,
                                                clip_threshold=0.5))[0]
bad = [list(s) for s in steps]
bad[2][1] = bad[2][1].copy(); bad[2][1][0, 0] = np.inf
vals, lso = run(lambda: O.LossScaleOptimizer(O.Adam(0.1), initial_scale=4.0,
                                             dynamic_growth_steps=2), bad)
out["lso"] = [vals, float(np.asarray(lso.dynamic_scale)), int(np.asarray(lso.step_counter)),
              int(np.asarray(lso.iterations)), float(np.asarray(lso.scale_loss(2.0)))]
out["configs"] = [O.Lamb(learning_rate=0.01, name="l").get_config(),
                  O.Adafactor(name="a").get_config(),
                  O.LossScaleOptimizer(O.SGD(0.5, name="s"), initial_scale=8.0,
                                       name="lso").get_config()]
back = O.deserialize(O.serialize(O.LossScaleOptimizer(O.SGD(0.5), dynamic_growth_steps=7)))
out["back"] = [type(back).__name__, type(back.inner_optimizer).__name__,
               back.dynamic_growth_steps, float(np.asarray(back.learning_rate))]
def err(f):
    try:
        f(); return None
    except Exception as e:
        return f"{type(e).__name__}: {e}"
out["errors"] = [err(lambda: O.LossScaleOptimizer(O.SGD(), dynamic=False)),
                 err(lambda: O.LossScaleOptimizer(O.SGD(), clipnorm=1.0)),
                 err(lambda: O.LossScaleOptimizer(O.SGD(), foo=1)),
                 err(lambda: O.get("lamb"))[:48], type(O.get("adafactor")).__name__]
"""


def test_same_numbers_as_real_keras():
    theirs = run_tf_json("import json, numpy as np, keras\n" + PROBE + "print(json.dumps(out))")
    scope = {"np": np, "keras": keras}
    exec(PROBE, scope)
    ours = json.loads(json.dumps(scope["out"]))
    for key in ("configs", "back", "errors"):
        assert ours[key] == theirs[key], key
    assert ours["lso"][1:] == theirs["lso"][1:]
    for key in ("lamb", "lamb_wd", "adafactor", "adafactor_abs", "sf_adamw", "sf_adamw_warm"):
        for mine, real in zip(ours[key], theirs[key]):
            np.testing.assert_allclose(mine, real, rtol=1e-6, atol=1e-6, err_msg=key)
    for mine, real in zip(ours["lso"][0], theirs["lso"][0]):
        np.testing.assert_allclose(mine, real, rtol=1e-6, atol=1e-6)


def test_tf_optimizers_is_keras_optimizers():
    """In TF 2.21 `tf.optimizers` re-exports `tf.keras.optimizers`: the same classes and functions."""
    keras_names = {n for n in dir(tf.keras.optimizers)  # classes and the three functions
                   if n[0].isupper() or n in ("get", "serialize", "deserialize")}
    assert {"Lamb", "Adafactor", "ScheduleFreeAdamW", "LossScaleOptimizer"} <= keras_names
    for name in keras_names:
        assert getattr(tf.optimizers, name) is getattr(tf.keras.optimizers, name), name
