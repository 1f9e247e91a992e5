"""Keras 3.15 losses added late: Dice, Tversky, Circle, CTC, CategoricalGeneralizedCrossEntropy
(classes and functions), plus the short aliases (MSE, KLD, logcosh, ...) of both
keras.losses and keras.metrics.

Hand-derived values and finite-difference gradients need no TF; `test_matches_real_tf`
compares values and configs with real TF 2.21 (Keras 3.15) in one subprocess.
"""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import require_tf, run_tf_json

L = tf.keras.losses
f32 = np.float32
YT = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0]], f32)
YP = np.array([[0.9, 0.6, 0.2, 0.0], [0.3, 0.8, 0.4, 0.1]], f32)
EMB = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9], [0.6, 0.8]], f32)
EMB = EMB / np.linalg.norm(EMB, axis=1, keepdims=True)
LABELS = np.array([0, 1, 0, 1, 1])


def test_dice_and_tversky_by_hand():
    inter, s_t, s_p = (YT * YP).sum(), YT.sum(), YP.sum()
    np.testing.assert_allclose(L.dice(YT, YP), 1 - 2 * inter / (s_t + s_p + 1e-7), rtol=1e-6)
    rows = 1 - 2 * (YT * YP).sum(1) / (YT.sum(1) + YP.sum(1) + 1e-7)
    np.testing.assert_allclose(L.dice(YT, YP, axis=1), rows, rtol=1e-6)
    np.testing.assert_allclose(L.Dice(axis=1)(YT, YP), rows.mean(), rtol=1e-6)
    fp, fn = ((1 - YP) * YT).sum(), (YP * (1 - YT)).sum()
    want = 1 - inter / (inter + 0.7 * fp + 0.3 * fn + 1e-7)
    np.testing.assert_allclose(L.tversky(YT, YP, alpha=0.7, beta=0.3), want, rtol=1e-6)
    np.testing.assert_allclose(L.Tversky(0.7, 0.3)(YT, YP), want, rtol=1e-6)
    # alpha = beta = 0.5 is the Dice loss
    np.testing.assert_allclose(L.tversky(YT, YP), L.dice(YT, YP), rtol=1e-6)


def test_generalized_cross_entropy_by_hand():
    probs = np.array([[0.2, 0.8], [0.36, 0.64], [0.5, 0.5]], f32)
    labels = np.array([1, 0, 1])
    p = probs[np.arange(3), labels]
    np.testing.assert_allclose(L.categorical_generalized_cross_entropy(labels, probs, q=0.3),
                               (1 - p ** 0.3) / 0.3, rtol=1e-6)
    np.testing.assert_allclose(L.CategoricalGeneralizedCrossEntropy(0.5)(labels, probs),
                               ((1 - p ** 0.5) / 0.5).mean(), rtol=1e-6)
    with pytest.raises(ValueError, match=r"q must be in the interval \(0, 1\)"):
        L.CategoricalGeneralizedCrossEntropy(q=1.0)


def _circle_by_hand(labels, emb, gamma, margin):
    d = np.maximum(1 - emb @ emb.T, 0)
    pos = (labels[:, None] == labels[None]) & ~np.eye(len(labels), dtype=bool)
    neg = labels[:, None] != labels[None]
    pos_t = -gamma * np.maximum(margin + d, 0) * (margin - d)
    neg_t = gamma * np.maximum(1 + margin - d, 0) * ((1 - margin) - d)

    def lse(t, mask):
        t = np.where(mask, t, -np.inf)
        top = t.max(1)
        return top + np.log(np.exp(t - top[:, None]).sum(1))

    return np.logaddexp(0, lse(pos_t, pos) + lse(neg_t, neg))


def test_circle_by_hand():
    want = _circle_by_hand(LABELS, EMB.astype(np.float64), 2.0, 0.3)
    np.testing.assert_allclose(L.circle(LABELS, EMB, gamma=2.0, margin=0.3), want, rtol=1e-5)
    # the class averages over the rows with a loss > 0 (Keras's mask on its output)
    np.testing.assert_allclose(L.Circle(gamma=2.0, margin=0.3)(LABELS, EMB), want.mean(),
                               rtol=1e-5)
    apart = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], f32)
    assert float(L.Circle()([0, 0, 1], apart)) < 1e-10      # nothing to learn: about 0
    losses = L.circle([0, 0, 1], apart, remove_diagonal=False)
    assert losses.shape == (3,)


CTC_LABELS = np.array([[1, 2, 2, 0], [3, 0, 0, 0], [2, 3, 1, 1]], np.int32)
CTC_LOGITS = np.random.default_rng(2).normal(size=(3, 7, 4)).astype(f32)


def _ctc_by_enumeration(label, logits):
    """-log of the summed probability of every path that collapses to `label`."""
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    total = 0.0
    for path in np.ndindex(*[logits.shape[1]] * logits.shape[0]):
        merged = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
        if [c for c in merged if c != 0] == list(label):
            total += np.prod(probs[np.arange(len(path)), path])
    return -np.log(total)


def test_ctc_by_enumerating_paths():
    logits = np.random.default_rng(4).normal(size=(2, 4, 3))
    labels = np.array([[1, 1], [2, 0]])
    want = [_ctc_by_enumeration([1, 1], logits[0]), _ctc_by_enumeration([2], logits[1])]
    np.testing.assert_allclose(L.ctc(labels, logits.astype(f32)), want, rtol=1e-5)
    np.testing.assert_allclose(L.CTC()(labels, logits.astype(f32)), np.mean(want), rtol=1e-5)
    np.testing.assert_allclose(L.ctc([[1]], np.zeros((1, 2, 2), f32)), [-np.log(0.75)],
                               rtol=1e-6)
    with pytest.raises(ValueError, match=r"\(batch_size, max_length\)` in integer format"):
        L.ctc([1, 2], CTC_LOGITS)
    with pytest.raises(ValueError, match="max_length, num_classes"):
        L.ctc(CTC_LABELS, CTC_LOGITS[0])
    assert L.CTC().get_config() == {"name": "ctc", "reduction": "sum_over_batch_size"}
    assert L.get("ctc") is L.ctc and isinstance(L.get("CTC"), L.CTC)


def test_ctc_fit_and_keras_file(tmp_path):
    x = np.random.default_rng(1).random((8, 5, 3)).astype(f32)
    y = np.array([[1, 2, 0]] * 4 + [[2, 0, 0]] * 4)
    model = tf.keras.Sequential([tf.keras.Input((5, 3)), tf.keras.layers.Dense(4)])
    model.compile(tf.keras.optimizers.SGD(0.5), tf.keras.losses.CTC())
    history = model.fit(x, y, epochs=3, batch_size=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    model.save(tmp_path / "ctc.keras")
    loaded = tf.keras.models.load_model(tmp_path / "ctc.keras")
    assert isinstance(loaded.loss, L.CTC)
    np.testing.assert_allclose(loaded.evaluate(x, y, verbose=0), model.evaluate(x, y, verbose=0),
                               rtol=1e-6)


def test_gradients_match_finite_differences():
    check_grads(lambda z: L.ctc(CTC_LABELS[:2], z), CTC_LOGITS[:2, :5].astype(np.float64),
                rtol=1e-4, atol=1e-5)
    t, p = YT.astype(np.float64), YP.astype(np.float64)
    check_grads(lambda y: L.dice(t, y, axis=1), p)
    check_grads(lambda y: L.tversky(t, y, alpha=0.8, beta=0.2), p)
    probs = np.array([[0.2, 0.8], [0.36, 0.64]])
    check_grads(lambda y: L.categorical_generalized_cross_entropy([1, 0], y, q=0.4), probs)
    check_grads(lambda e: L.circle(LABELS, e, gamma=2.0), EMB.astype(np.float64),
                rtol=1e-4, atol=1e-5)
    lonely = np.array([0, 0, 1, 2])   # classes 1 and 2 have no positive pair: finite, checked
    check_grads(lambda e: L.circle(lonely, e, gamma=2.0), EMB[:4].astype(np.float64),
                rtol=1e-4, atol=1e-5)


def test_names_configs_and_lookup():
    for obj, config in [
            (L.Dice(), {"name": "dice", "reduction": "sum_over_batch_size", "axis": None}),
            (L.Tversky(axis=1), {"name": "tversky", "reduction": "sum_over_batch_size",
                                 "alpha": 0.5, "beta": 0.5, "axis": 1}),
            (L.Circle(gamma=4.0), {"name": "circle", "reduction": "sum_over_batch_size",
                                   "gamma": 4.0, "margin": 0.4, "remove_diagonal": True}),
            (L.CategoricalGeneralizedCrossEntropy(), {
                "name": "categorical_generalized_cross_entropy",
                "reduction": "sum_over_batch_size", "q": 0.5})]:
        assert obj.get_config() == config
        again = L.deserialize(L.serialize(obj))
        assert type(again) is type(obj) and again.get_config() == config
    for name, fn in [("dice", L.dice), ("tversky", L.tversky), ("circle", L.circle),
                     ("categorical_generalized_cross_entropy",
                      L.categorical_generalized_cross_entropy)]:
        assert L.get(name) is fn
    assert isinstance(L.get("Dice"), L.Dice)


def _check_aliases(aliases):
    y, p = np.array([[0.0, 1.0]], f32), np.array([[1.0, 1.0]], f32)
    assert float(aliases["MSE"](y, p)[0]) == 0.5 and float(aliases["MAE"](y, p)[0]) == 0.5
    assert aliases["MAPE"](np.array([[2.0]]), np.array([[1.0]]))[0] == 50.0
    np.testing.assert_allclose(aliases["MSLE"](y, p), [np.log(2) ** 2 / 2], rtol=1e-6)
    kld = [0.5 * np.log(2) + 0.5 * np.log(2 / 3)]
    np.testing.assert_allclose(aliases["KLD"]([[0.5, 0.5]], [[0.25, 0.75]]), kld, rtol=1e-6)
    np.testing.assert_allclose(aliases["kullback_leibler_divergence"](
        [[0.5, 0.5]], [[0.25, 0.75]]), kld, rtol=1e-6)
    np.testing.assert_allclose(aliases["logcosh"](y, p), [np.log(np.cosh(1.0)) / 2], rtol=1e-6)


def test_short_aliases_of_losses_and_metrics():
    losses, metrics = tf.keras.losses, tf.keras.metrics
    assert losses.MSE is losses.mean_squared_error and metrics.MAE is losses.mean_absolute_error
    _check_aliases({"MSE": losses.MSE, "MAE": losses.MAE, "MAPE": losses.MAPE,
                    "MSLE": losses.MSLE, "KLD": losses.KLD, "logcosh": losses.logcosh,
                    "kullback_leibler_divergence": losses.kullback_leibler_divergence})
    _check_aliases({"MSE": metrics.MSE, "MAE": metrics.MAE, "MAPE": metrics.MAPE,
                    "MSLE": metrics.MSLE, "KLD": metrics.KLD, "logcosh": metrics.logcosh,
                    "kullback_leibler_divergence": metrics.kullback_leibler_divergence})
    counts = [metrics.TruePositives(), metrics.FalsePositives(), metrics.TrueNegatives(),
              metrics.FalseNegatives()]
    got = [float(c([0, 1, 1, 0, 1], [0.9, 0.8, 0.2, 0.1, 0.7])) for c in counts]
    assert got == [2.0, 1.0, 1.0, 1.0]


def test_fit_and_keras_file(tmp_path):
    rng = np.random.default_rng(5)
    x = rng.random((16, 3)).astype(f32)
    y = (x[:, :2] > 0.5).astype(f32)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, "sigmoid")])
    model.compile(tf.keras.optimizers.SGD(0.5), loss=L.Tversky(alpha=0.7, beta=0.3))
    history = model.fit(x, y, epochs=3, batch_size=16, verbose=0)   # full-batch descent
    assert history.history["loss"][-1] < history.history["loss"][0]
    before = model.evaluate(x, y, verbose=0, return_dict=True)
    model.save(tmp_path / "m.keras")
    loaded = tf.keras.models.load_model(tmp_path / "m.keras")
    assert isinstance(loaded.loss, L.Tversky) and loaded.loss.alpha == 0.7
    after = loaded.evaluate(x, y, verbose=0, return_dict=True)
    np.testing.assert_allclose(after["loss"], before["loss"], rtol=1e-6)
    emb = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4),
                               tf.keras.layers.Lambda(lambda e: tf.math.l2_normalize(e, 1))])
    emb.compile("sgd", loss=L.Circle(gamma=4.0))
    history = emb.fit(x, (x[:, 0] > 0.5).astype("int32"), epochs=1, batch_size=8, verbose=0)
    assert np.isfinite(history.history["loss"][0]) and history.history["loss"][0] > 0


def test_matches_real_tf():
    require_tf()
    arrays = {"YT": YT, "YP": YP, "EMB": EMB, "LABELS": LABELS.astype(f32),
              "PROBS": np.array([[0.2, 0.8], [0.36, 0.64], [0.9, 0.1]], f32),
              "INT": np.array([1, 0, 1], f32), "W": np.array([1.0, 2.0], f32)}
    calls = [("dice", {}, "YT", "YP"), ("dice", {"axis": 1}, "YT", "YP"),
             ("tversky", {"alpha": 0.2, "beta": 0.8, "axis": -1}, "YT", "YP"),
             ("circle", {"gamma": 3.0, "margin": 0.25}, "LABELS", "EMB"),
             ("circle", {"remove_diagonal": False}, "LABELS", "EMB"),
             ("categorical_generalized_cross_entropy", {"q": 0.7}, "INT", "PROBS"),
             ("Dice", {"axis": 1}, "YT", "YP"), ("Tversky", {"alpha": 0.9, "axis": 1}, "YT", "YP"),
             ("Circle", {"gamma": 2.0}, "LABELS", "EMB"),
             ("CategoricalGeneralizedCrossEntropy", {"q": 0.2}, "INT", "PROBS")]
    code = "import json, numpy as np, tensorflow as tf\nL = tf.keras.losses\nout = []\n"
    code += "".join(f"{k} = tf.constant(np.array({v.tolist()}, 'float32'))\n"
                    for k, v in arrays.items())
    code += "LABELS = tf.cast(LABELS, 'int32'); INT = tf.cast(INT, 'int32')\n"
    ours = []
    for name, kwargs, a, b in calls:
        if name[0].isupper():
            weight = ", sample_weight=W" if a == "YT" else ""
            code += (f"obj = L.{name}(**{kwargs!r}); out.append([np.asarray(obj({a}, {b}"
                     f"{weight})).tolist(), obj.get_config()])\n")
            obj = getattr(L, name)(**kwargs)
            value = obj(arrays[a], arrays[b], sample_weight=arrays["W"] if weight else None)
            ours.append([value.numpy(), obj.get_config()])
        else:
            code += f"out.append([np.asarray(L.{name}({a}, {b}, **{kwargs!r})).tolist(), None])\n"
            ours.append([getattr(L, name)(arrays[a], arrays[b], **kwargs).numpy(), None])
    # a row alone in its class has no positive pair: its gradient is 0, not NaN
    code += ("e = tf.Variable(EMB[:3])\nwith tf.GradientTape() as tape:\n"
             "    loss = L.Circle(gamma=4.0)(tf.constant([0, 0, 1]), e)\n"
             "out.append([tape.gradient(loss, e).numpy().tolist(), None])\n")
    e = tf.Variable(EMB[:3])
    with tf.GradientTape() as tape:
        loss = L.Circle(gamma=4.0)(tf.constant([0, 0, 1]), e)
    ours.append([tape.gradient(loss, e).numpy(), None])
    calls.append(("Circle gradient", {}, None, None))
    code += (f"x = tf.Variable(np.array({CTC_LOGITS.tolist()}, 'float32'))\n"
             f"y = tf.constant({CTC_LABELS.tolist()})\nwith tf.GradientTape() as tape:\n"
             "    per_example = L.ctc(y, x); loss = L.CTC()(y, x)\n"
             "out.append([per_example.numpy().tolist(), None])\n"
             "out.append([tape.gradient(loss, x).numpy().tolist(), None])\n")
    x = tf.Variable(CTC_LOGITS)
    with tf.GradientTape() as tape:
        per_example, loss = L.ctc(CTC_LABELS, x), L.CTC()(CTC_LABELS, x)
    ours += [[per_example.numpy(), None], [tape.gradient(loss, x).numpy(), None]]
    calls += [("ctc", {}, None, None), ("CTC gradient", {}, None, None)]
    theirs = run_tf_json(code + "print(json.dumps(out))")
    assert np.all(np.isfinite(ours[-1][0]))
    for (name, *_), (value, config), (real_value, real_config) in zip(calls, ours, theirs):
        np.testing.assert_allclose(value, real_value, rtol=2e-6, atol=1e-6, err_msg=name)
        assert config == real_config, name
