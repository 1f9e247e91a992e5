"""Keras 3.15 metrics added late: F1Score/FBetaScore, R2Score, Pearson/Concordance
correlation and the rate-at-rate metrics (PrecisionAtRecall, RecallAtPrecision,
SensitivityAtSpecificity, SpecificityAtSensitivity).

Hand-derived values need no TF; `test_matches_real_tf` compares every metric with
real TF 2.21 (Keras 3.15) in one subprocess.
"""
import json
import warnings

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

M = tf.keras.metrics
f32 = np.float32
YT = np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], f32)
YP = np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], f32)


def _fbeta(tp, fp, fn, beta):
    p, r = tp / (tp + fp), tp / (tp + fn)
    return (1 + beta ** 2) * p * r / (beta ** 2 * p + r) if p + r else 0.0


def test_f1_per_class_by_hand():
    # threshold 0.5: predicted [[0,1,1],[0,1,1],[1,1,0]]; class 0: tp 1 fn 2; class 1: tp 2 fp 1;
    # class 2: tp 1 fp 1
    want = [_fbeta(1, 0, 2, 1), _fbeta(2, 1, 0, 1), _fbeta(1, 1, 0, 1)]
    np.testing.assert_allclose(M.F1Score(threshold=0.5)(YT, YP).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(M.FBetaScore(beta=2.0, threshold=0.5)(YT, YP).numpy(),
                               [_fbeta(1, 0, 2, 2), _fbeta(2, 1, 0, 2), _fbeta(1, 1, 0, 2)],
                               rtol=1e-6)


def test_f1_averages_by_hand():
    per_class = np.array([_fbeta(1, 0, 2, 1), _fbeta(2, 1, 0, 1), _fbeta(1, 1, 0, 1)])
    support = YT.sum(0)
    np.testing.assert_allclose(M.F1Score("macro", 0.5)(YT, YP), per_class.mean(), rtol=1e-6)
    np.testing.assert_allclose(M.F1Score("weighted", 0.5)(YT, YP),
                               (per_class * support).sum() / support.sum(), rtol=1e-6)
    np.testing.assert_allclose(M.F1Score("micro", 0.5)(YT, YP), _fbeta(4, 2, 2, 1), rtol=1e-6)


def test_f1_argmax_without_threshold_and_sample_weight():
    # arg-max of each row: [0,0,1], [0,1,1] (a tie: both), [0,1,0]
    m = M.F1Score()
    m.update_state(YT, YP, sample_weight=[1.0, 0.0, 2.0])
    # weights 1, 0, 2: class 0 tp 0; class 1 tp 2 (row 3), fn 1 (row 1) -> P 1, R 2/3;
    # class 2 tp 1 (row 1), its fp in row 2 weighs 0
    np.testing.assert_allclose(m.result(), [0.0, _fbeta(2, 0, 1, 1), 1.0], atol=1e-6)
    all_zero = M.F1Score(average="micro")
    assert float(all_zero([[1.0, 0.0]], [[0.0, 0.0]])) == 0.0   # a zero row predicts nothing


def test_f1_accumulates_and_resets():
    m = M.F1Score(threshold=0.5)
    m.update_state(YT[:2], YP[:2])
    m.update_state(YT[2:], YP[2:])
    np.testing.assert_allclose(m.result(), M.F1Score(threshold=0.5)(YT, YP), rtol=1e-6)
    m.reset_state()
    assert np.all(m.true_positives.numpy() == 0)


@pytest.mark.parametrize("kwargs, message", [
    ({"average": "mean"}, "Invalid `average`"), ({"beta": 2}, "Python float"),
    ({"beta": -1.0}, "should be > 0"), ({"threshold": 1}, "Python float"),
    ({"threshold": 1.5}, "0 < threshold <= 1")])
def test_fbeta_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        M.FBetaScore(**kwargs)


def test_fbeta_needs_2d_input():
    with pytest.raises(ValueError, match="expects 2D inputs"):
        M.F1Score()([1.0, 0.0], [0.3, 0.7])


def test_r2_by_hand():
    y, p = np.array([[1.0], [2.0], [3.0]], f32), np.array([[1.0], [2.0], [4.0]], f32)
    # residual 1, total variation 2
    np.testing.assert_allclose(M.R2Score()(y, p), 0.5, rtol=1e-6)
    y2 = np.array([[1.0, 0.0], [3.0, 2.0], [2.0, 7.0]], f32)
    p2 = np.array([[1.0, 1.0], [2.0, 2.0], [2.0, 5.0]], f32)
    tot = ((y2 - y2.mean(0)) ** 2).sum(0)
    raw = 1 - ((y2 - p2) ** 2).sum(0) / tot
    np.testing.assert_allclose(M.R2Score(class_aggregation=None)(y2, p2), raw, rtol=1e-5)
    np.testing.assert_allclose(M.R2Score()(y2, p2), raw.mean(), rtol=1e-5)
    np.testing.assert_allclose(M.R2Score("variance_weighted_average")(y2, p2),
                               (raw * tot).sum() / tot.sum(), rtol=1e-5)
    n, k = 6, 2   # adjusted R^2 counts every element of y_true as a sample, as Keras does
    np.testing.assert_allclose(M.R2Score(num_regressors=k)(y2, p2),
                               1 - (1 - raw.mean()) * (n - 1) / (n - k - 1), rtol=1e-5)


def test_r2_adjusted_falls_back_with_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = M.R2Score(num_regressors=5)([[1.0], [2.0], [3.0]], [[1.0], [2.0], [4.0]])
    assert float(r) == pytest.approx(0.5) and "More independent predictors" in str(
        caught[0].message)
    with pytest.raises(ValueError, match="class_aggregation"):
        M.R2Score(class_aggregation="mean")


def test_correlations_by_hand():
    t, p = np.array([[1.0, 2.0, 3.0]]), np.array([[2.0, 4.0, 7.0]])
    np.testing.assert_allclose(M.pearson_correlation(t, p), [np.corrcoef(t[0], p[0])[0, 1]],
                               rtol=1e-6)
    np.testing.assert_allclose(M.PearsonCorrelation()(t, p), np.corrcoef(t[0], p[0])[0, 1],
                               rtol=1e-6)
    # Keras's covariance term centres y_true on the prediction mean (kept for equal numbers)
    covar = ((t - p.mean()) * (p - p.mean())).mean()
    want = 2 * covar / (t.var() + p.var() + (t.mean() - p.mean()) ** 2 + 1e-7)
    np.testing.assert_allclose(M.concordance_correlation(t, p), [want], rtol=1e-6)
    np.testing.assert_allclose(M.ConcordanceCorrelation()(t, p), want, rtol=1e-6)
    assert M.PearsonCorrelation(axis=0).get_config() == {
        "name": "pearson_correlation", "dtype": "float32", "axis": 0}


RATE_T = np.array([0, 0, 0, 1, 1], f32)
RATE_P = np.array([0, 0.3, 0.8, 0.3, 0.8], f32)


@pytest.mark.parametrize("cls, value, want", [
    # at t <= 0.3 recall 1 with specificity 1/3 (or 0); at 0.3 < t <= 0.8: recall 0.5,
    # specificity 2/3, precision 0.5; above 0.8 nothing is predicted positive (precision 0,
    # and a prediction of 0 is never positive, so precision is 2/4 even at t = 0)
    (M.SensitivityAtSpecificity, 0.5, 0.5), (M.SensitivityAtSpecificity, 0.3, 1.0),
    (M.SpecificityAtSensitivity, 0.5, 2 / 3), (M.SpecificityAtSensitivity, 0.9, 1 / 3),
    (M.PrecisionAtRecall, 0.5, 0.5), (M.PrecisionAtRecall, 0.9, 0.5),
    (M.RecallAtPrecision, 0.5, 1.0), (M.RecallAtPrecision, 0.8, 0.0)])
def test_rate_at_rate_by_hand(cls, value, want):
    np.testing.assert_allclose(cls(value)(RATE_T, RATE_P), want, rtol=1e-6)


def test_rate_at_rate_class_id_config_and_errors():
    y = np.eye(2, dtype=f32)[RATE_T.astype(int)]
    p = np.stack([1 - RATE_P, RATE_P], 1)
    np.testing.assert_allclose(M.PrecisionAtRecall(0.5, class_id=1)(y, p), 0.5, rtol=1e-6)
    m = M.RecallAtPrecision(0.8, num_thresholds=11, class_id=1)
    assert m.name.startswith("recall_at_precision")       # unnamed: recall_at_precision_1, ...
    assert m.get_config() == {"name": m.name, "dtype": "float32",
                              "class_id": 1, "num_thresholds": 11, "precision": 0.8}
    assert len(m.thresholds) == 11 and m.thresholds[0] == 0.0 and m.thresholds[-1] == 1.0
    assert type(m).from_config(m.get_config()).get_config() == m.get_config()
    with pytest.raises(ValueError, match="`specificity` must be in the range"):
        M.SensitivityAtSpecificity(1.5)
    with pytest.raises(ValueError, match="num_thresholds"):
        M.PrecisionAtRecall(0.5, num_thresholds=0)


def _metrics():
    return [M.F1Score(average="macro"), M.FBetaScore(beta=2.0, threshold=0.4), M.R2Score(),
            M.PearsonCorrelation(), M.ConcordanceCorrelation(),
            M.PrecisionAtRecall(0.5, class_id=1, name="precision_at_recall"),
            M.SensitivityAtSpecificity(0.5, name="sensitivity_at_specificity")]


def test_fit_evaluate_and_keras_file(tmp_path):
    rng = np.random.default_rng(3)
    x = rng.random((24, 4)).astype(f32)
    y = np.eye(3, dtype=f32)[np.arange(24) % 3]
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, "softmax")])
    model.compile("adam", "categorical_crossentropy", metrics=_metrics())
    history = model.fit(x, y, epochs=1, batch_size=8, verbose=0)
    assert {"f1_score", "fbeta_score", "r2_score", "pearson_correlation",
            "concordance_correlation", "precision_at_recall",
            "sensitivity_at_specificity"} <= set(history.history)
    before = model.evaluate(x, y, verbose=0, return_dict=True)
    p = model.predict(x, verbose=0)
    np.testing.assert_allclose(before["f1_score"], M.F1Score(average="macro")(y, p), rtol=1e-5)
    np.testing.assert_allclose(before["r2_score"], M.R2Score()(y, p), rtol=1e-4)
    model.save(tmp_path / "m.keras")
    loaded = tf.keras.models.load_model(tmp_path / "m.keras")
    after = loaded.evaluate(x, y, verbose=0, return_dict=True)
    for key, value in before.items():
        np.testing.assert_allclose(after[key], value, rtol=1e-6)


def test_lookup_by_name_and_serialize():
    for name, cls in [("f1_score", M.F1Score), ("F1Score", M.F1Score),
                      ("f_beta_score", M.FBetaScore), ("r2_score", M.R2Score),
                      ("pearson_correlation", M.PearsonCorrelation)]:
        assert isinstance(M.get(name), cls)
    r = M.deserialize({"class_name": "recall_at_precision", "config": {"precision": 0.7}})
    assert isinstance(r, M.RecallAtPrecision) and r.precision == 0.7
    m = M.deserialize(M.serialize(M.FBetaScore("weighted", 0.5, 0.3)))
    assert (m.average, m.beta, m.threshold) == ("weighted", 0.5, 0.3)


def test_matches_real_tf():
    require_tf()
    rng = np.random.default_rng(11)
    t = (rng.random((6, 3)) > 0.5).astype(f32)
    p = rng.random((6, 3)).astype(f32)
    r = rng.normal(size=(6, 3)).astype(f32)
    w = rng.uniform(0, 2, 6).astype(f32)
    calls = [("F1Score", {}, "t", "p"), ("F1Score", {"average": "micro", "threshold": 0.5},
                                          "t", "p"),
             ("FBetaScore", {"average": "weighted", "beta": 0.5, "threshold": 0.3}, "t", "p"),
             ("FBetaScore", {"average": "macro", "beta": 2.0}, "t", "p"),
             ("R2Score", {}, "r", "p"), ("R2Score", {"class_aggregation": None}, "r", "p"),
             ("R2Score", {"class_aggregation": "variance_weighted_average",
                          "num_regressors": 2}, "r", "p"),
             ("PearsonCorrelation", {}, "r", "p"), ("ConcordanceCorrelation", {"axis": 0},
                                                    "r", "p"),
             ("PrecisionAtRecall", {"recall": 0.6}, "t", "p"),
             ("RecallAtPrecision", {"precision": 0.5, "num_thresholds": 7}, "t", "p"),
             ("SensitivityAtSpecificity", {"specificity": 0.4, "class_id": 2}, "t", "p"),
             ("SpecificityAtSensitivity", {"sensitivity": 0.7}, "t", "p")]
    arrays = {"t": t, "p": p, "r": r}
    code = (f"import json, numpy as np, tensorflow as tf\nM = tf.keras.metrics\n"
            f"t = np.array({t.tolist()}, 'float32'); p = np.array({p.tolist()}, 'float32')\n"
            f"r = np.array({r.tolist()}, 'float32'); w = np.array({w.tolist()}, 'float32')\n"
            "out = []\n")
    ours = []
    for name, kwargs, a, b in calls:
        weight = None if kwargs.get("axis") == 0 else w  # per-column values: no row weights
        code += (f"m = M.{name}(**{kwargs!r}); m.update_state({a}, {b}); "
                 f"m.update_state({a}, {b}, sample_weight={'w' if weight is not None else None})\n"
                 "out.append([np.asarray(m.result()).tolist(), m.get_config()])\n")
        m = getattr(M, name)(**kwargs)
        m.update_state(arrays[a], arrays[b])
        m.update_state(arrays[a], arrays[b], sample_weight=weight)
        ours.append([m.result().numpy(), m.get_config()])
    theirs = run_tf_json(code + "print(json.dumps(out))")
    for (name, *_), (value, config), (real_value, real_config) in zip(calls, ours, theirs):
        np.testing.assert_allclose(value, real_value, rtol=2e-6, atol=1e-7, err_msg=name)
        config.pop("name"), real_config.pop("name")  # auto names count per process
        assert config == json.loads(json.dumps(real_config)), name
