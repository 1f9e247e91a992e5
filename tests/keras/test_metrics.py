"""Keras metrics: running state, sample weights, thresholds, AUC, lookup, tf.function.

Reference numbers: TF 2.21 (Keras 3.15), each case calling update_state once per entry
of its call list, then result().
"""
import numpy as np
import pytest

import minitf as tf

M = tf.keras.metrics

BIN_T = [[0.0], [1.0], [1.0], [0.0], [1.0], [0.0], [1.0], [1.0]]
BIN_P = [[0.1], [0.8], [0.45], [0.6], [0.95], [0.3], [0.5], [0.7]]
BIN_T2 = [[1.0], [0.0], [0.0], [1.0]]
BIN_P2 = [[0.2], [0.55], [0.05], [0.99]]
BIN_L2 = [[-1.5], [0.3], [-3.0], [4.0]]
SW2 = [1.0, 2.0, 0.5, 0.0]
CAT_T = [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
CAT_P = [[0.2, 0.7, 0.1], [0.3, 0.5, 0.2], [0.4, 0.35, 0.25], [0.1, 0.1, 0.8]]
CAT_L = [[1.0, 2.0, -1.0], [0.5, 0.3, 0.2], [-2.0, 1.0, 3.0], [0.0, 4.0, 1.0]]
SPARSE = [1, 0, 2, 2]
SPARSE_COL = [[1], [0], [2], [2]]
REG_T = [[1.0, 2.0], [0.5, -1.0], [3.0, 0.2]]
REG_P = [[1.5, 1.0], [0.5, 0.0], [2.0, 0.7]]
REG_T2 = [[2.0, 1.0]]
REG_P2 = [[2.5, 3.0]]
SW_REG = [1.0, 0.0, 3.0]
POS_P = [[1.5, 1.0], [0.5, 0.1], [2.0, 0.7]]
VALS = [1.0, 2.0, 3.0]
VALS2 = [[4.0, 6.0], [5.0, 7.0]]
SWV = [0.5, 2.0]

# name: (class name, ctor kwargs, list of update_state argument lists (+ sample weight))
CASES = {
    "mean": ("Mean", {}, [("VALS",), ("VALS2", "SWV")]),
    "sum": ("Sum", {}, [("VALS",), ("VALS2", "SWV")]),
    "mse": ("MeanSquaredError", {}, [("REG_T", "REG_P"), ("REG_T2", "REG_P2")]),
    "mse_sw": ("MeanSquaredError", {}, [("REG_T", "REG_P", "SW_REG")]),
    "mae": ("MeanAbsoluteError", {}, [("REG_T", "REG_P", "SW_REG"), ("REG_T2", "REG_P2")]),
    "rmse": ("RootMeanSquaredError", {}, [("REG_T", "REG_P", "SW_REG"), ("REG_T2", "REG_P2")]),
    "mape": ("MeanAbsolutePercentageError", {}, [("REG_T", "REG_P")]),
    "msle": ("MeanSquaredLogarithmicError", {}, [("REG_T", "POS_P")]),
    "logcosh": ("LogCoshError", {}, [("REG_T", "REG_P")]),
    "cosine": ("CosineSimilarity", {}, [("REG_T", "REG_P", "SW_REG")]),
    "accuracy": ("Accuracy", {}, [("SPARSE", "SPARSE_PRED")]),
    "binary_accuracy": ("BinaryAccuracy", {}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2", "SW2")]),
    "binary_accuracy_07": ("BinaryAccuracy", {"threshold": 0.7}, [("BIN_T", "BIN_P")]),
    "categorical_accuracy": ("CategoricalAccuracy", {}, [("CAT_T", "CAT_P"), ("CAT_T", "CAT_L", "SW2")]),
    "sparse_categorical_accuracy": ("SparseCategoricalAccuracy", {}, [("SPARSE", "CAT_P"), ("SPARSE_COL", "CAT_L")]),
    "top_k": ("TopKCategoricalAccuracy", {"k": 2}, [("CAT_T", "CAT_P"), ("CAT_T", "CAT_L")]),
    "sparse_top_k": ("SparseTopKCategoricalAccuracy", {"k": 2}, [("SPARSE", "CAT_P"), ("SPARSE", "CAT_L", "SW2")]),
    "precision": ("Precision", {}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2", "SW2")]),
    "precision_thresholds": ("Precision", {"thresholds": [0.2, 0.5, 0.9]}, [("BIN_T", "BIN_P")]),
    "precision_top_k": ("Precision", {"top_k": 2}, [("CAT_T", "CAT_P")]),
    "precision_class_id": ("Precision", {"class_id": 2}, [("CAT_T", "CAT_P")]),
    "recall": ("Recall", {}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2", "SW2")]),
    "recall_thresholds": ("Recall", {"thresholds": [0.0, 0.5, 1.0]}, [("BIN_T", "BIN_P")]),
    "recall_top_k": ("Recall", {"top_k": 1}, [("CAT_T", "CAT_P")]),
    "tp": ("TruePositives", {"thresholds": [0.3, 0.6]}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2", "SW2")]),
    "fp": ("FalsePositives", {}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2", "SW2")]),
    "tn": ("TrueNegatives", {}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2", "SW2")]),
    "fn": ("FalseNegatives", {"thresholds": [0.5, 0.75]}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2", "SW2")]),
    "auc": ("AUC", {}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2")]),
    "auc_sw": ("AUC", {}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2", "SW2")]),
    "auc_pr": ("AUC", {"curve": "PR"}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2")]),
    "auc_pr_majoring": ("AUC", {"curve": "PR", "summation_method": "majoring"}, [("BIN_T", "BIN_P")]),
    "auc_minoring": ("AUC", {"summation_method": "minoring"}, [("BIN_T", "BIN_P")]),
    "auc_10": ("AUC", {"num_thresholds": 10}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2")]),
    "auc_thresholds": ("AUC", {"thresholds": [0.25, 0.5, 0.75]}, [("BIN_T", "BIN_P")]),
    "auc_uneven": ("AUC", {"thresholds": [0.1, 0.5, 0.65]}, [("BIN_T", "BIN_P")]),
    "auc_logits": ("AUC", {"from_logits": True}, [("BIN_T2", "BIN_L2")]),
    "auc_prgain": ("AUC", {"curve": "PRGAIN"}, [("BIN_T", "BIN_P")]),
    "bce": ("BinaryCrossentropy", {}, [("BIN_T", "BIN_P"), ("BIN_T2", "BIN_P2", "SW2")]),
    "bce_logits": ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1}, [("BIN_T2", "BIN_L2")]),
    "cce": ("CategoricalCrossentropy", {}, [("CAT_T", "CAT_P", "SW2")]),
    "cce_logits": ("CategoricalCrossentropy", {"from_logits": True}, [("CAT_T", "CAT_L")]),
    "scce": ("SparseCategoricalCrossentropy", {}, [("SPARSE", "CAT_P")]),
    "scce_logits": ("SparseCategoricalCrossentropy", {"from_logits": True}, [("SPARSE", "CAT_L", "SW2")]),
    "hinge": ("Hinge", {}, [("BIN_T", "BIN_P")]),
    "squared_hinge": ("SquaredHinge", {}, [("BIN_T", "BIN_P")]),
    "categorical_hinge": ("CategoricalHinge", {}, [("CAT_T", "CAT_P")]),
    "kld": ("KLDivergence", {}, [("CAT_T", "CAT_P")]),
    "poisson": ("Poisson", {}, [("REG_T", "POS_P")]),
}
SPARSE_PRED = [1, 1, 2, 0]


# verified against TF 2.21
EXPECTED = {
    "mean": 3.7272727,
    "sum": 35.,
    "mse": 0.96875,
    "mse_sw": 0.625,
    "mae": 0.85,
    "rmse": 0.9617692,
    "mape": 80.55555,
    "msle": 0.071226254,
    "logcosh": 0.2569286,
    "cosine": 0.9398676,
    "accuracy": 0.5,
    "binary_accuracy": 0.47826087,
    "binary_accuracy_07": 0.625,
    "categorical_accuracy": 0.73333335,
    "sparse_categorical_accuracy": 0.625,
    "top_k": 0.875,
    "sparse_top_k": 0.8666667,
    "precision": 0.5,
    "precision_thresholds": [0.71428573, 0.75      , 1.        ],
    "precision_top_k": 0.375,
    "precision_class_id": 1.,
    "recall": 0.5,
    "recall_thresholds": [1. , 0.6, 0. ],
    "recall_top_k": 0.5,
    "tp": [5., 3.],
    "fp": 3.,
    "tn": 2.5,
    "fn": [3., 4.],
    "auc": 0.8,
    "auc_sw": 0.6969697,
    "auc_pr": 0.87265056,
    "auc_pr_majoring": 0.9266667,
    "auc_minoring": 0.8666667,
    "auc_10": 0.82857144,
    "auc_thresholds": 0.7666667,
    "auc_uneven": 0.8000001,
    "auc_logits": 0.75,
    "auc_prgain": 0.5601852,
    "bce": 0.58549505,
    "bce_logits": 0.7206265,
    "cce": 0.98793364,
    "cce_logits": 1.1218932,
    "scce": 0.7925214,
    "scce_logits": 0.65574205,
    "hinge": 0.70000005,
    "squared_hinge": 0.76812506,
    "categorical_hinge": 0.78749996,
    "kld": 0.7925185,
    "poisson": 0.23840289,

}


def run_case(name):
    cls, kwargs, calls = CASES[name]
    metric = getattr(M, cls)(**kwargs)
    for call in calls:
        args = [globals()[a] for a in call]
        if len(args) == 3:
            metric.update_state(args[0], args[1], sample_weight=args[2])
        elif cls in ("Mean", "Sum") and len(args) == 2:
            metric.update_state(args[0], sample_weight=args[1])
        else:
            metric.update_state(*args)
    return metric


@pytest.mark.parametrize("name", sorted(CASES))
def test_metrics_match_tf(name):
    metric = run_case(name)
    result = metric.result()
    assert result.dtype == tf.float32
    np.testing.assert_allclose(result.numpy(), EXPECTED[name], rtol=1e-5, atol=1e-6)
    metric.reset_state()
    np.testing.assert_array_equal(np.asarray(metric.result().numpy()) * 0,
                                  np.asarray(EXPECTED[name]) * 0)
    assert all(not np.any(v.numpy()) for v in metric.variables)


@pytest.mark.parametrize("name", ["mean", "rmse", "binary_accuracy", "sparse_top_k",
                                  "precision_thresholds", "auc_sw", "auc_pr", "scce_logits",
                                  "cosine"])
def test_metrics_update_inside_tf_function(name):
    cls, kwargs, calls = CASES[name]
    metric = getattr(M, cls)(**kwargs)

    @tf.function
    def update(*args):
        if len(args) == 3:
            metric.update_state(args[0], args[1], sample_weight=args[2])
        elif cls == "Mean" and len(args) == 2:
            metric.update_state(args[0], sample_weight=args[1])
        else:
            metric.update_state(*args)
        return metric.result()

    for call in calls:
        result = update(*[tf.constant(globals()[a]) for a in call])
    np.testing.assert_allclose(result.numpy(), EXPECTED[name], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(metric.result().numpy(), EXPECTED[name], rtol=1e-5, atol=1e-6)


def test_call_is_update_then_result_and_reset_state():
    m = M.Mean(name="loss")
    assert float(m([1.0, 3.0])) == 2.0
    assert float(m(8.0)) == 4.0
    assert m.name == "loss" and m.dtype == "float32"
    # Keras 3: plain names, the metric in `path`, on_read/sum state (checked in TF 2.21)
    assert [(v.name, v.path) for v in m.variables] == [("total", "loss/total"),
                                                      ("count", "loss/count")]
    on_read_sum = (tf.VariableSynchronization.ON_READ, tf.VariableAggregation.SUM)
    assert [(v.synchronization, v.aggregation) for v in m.variables] == [on_read_sum] * 2
    assert not any(v.trainable for v in m.variables)
    m.reset_state()
    assert float(m.result()) == 0.0


def test_reset_states_is_gone_as_in_keras_3_and_the_error_names_reset_state():
    m = M.Mean()
    with pytest.raises(AttributeError, match=r"'Mean' object has no attribute 'reset_states'"
                                             r".*call reset_state\(\)"):
        m.reset_states()
    with pytest.raises(AttributeError, match=r"^'Mean' object has no attribute 'other'$"):
        m.other
    assert not hasattr(m, "reset_states")


def test_custom_metric_with_add_weight():
    class BinaryTruePositives(M.Metric):
        def __init__(self, name="binary_true_positives", **kwargs):
            super().__init__(name=name, **kwargs)
            self.true_positives = self.add_weight(name="tp", initializer="zeros")

        def update_state(self, y_true, y_pred, sample_weight=None):
            y_true = tf.cast(y_true, tf.bool)
            y_pred = tf.cast(y_pred, tf.bool)
            values = tf.cast(tf.logical_and(y_true, y_pred), self.dtype)
            if sample_weight is not None:
                values = values * tf.cast(sample_weight, self.dtype)
            self.true_positives.assign_add(tf.reduce_sum(values))

        def result(self):
            return self.true_positives

    m = BinaryTruePositives()
    m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    assert float(m.result()) == 2.0
    traced = tf.function(lambda t, p: m(t, p))
    assert float(traced(tf.constant([1, 1]), tf.constant([1, 1]))) == 4.0
    assert [v.name for v in m.variables] == ["tp"]
    m.reset_state()
    assert float(m.result()) == 0.0
    assert m.get_config() == {"name": "binary_true_positives", "dtype": "float32"}

    class Forgot(M.Metric):
        def __init__(self):
            self.v = self.add_weight("v")

    with pytest.raises(RuntimeError, match="super"):
        Forgot()
    with pytest.raises(NotImplementedError):
        M.Metric().update_state()


def test_metric_holding_another_metric_tracks_its_variables():
    class Both(M.Metric):
        def __init__(self):
            super().__init__(name="both")
            self.mean = M.Mean()
            self.total = M.Sum()

        def update_state(self, x):
            self.mean.update_state(x)
            self.total.update_state(x)

        def result(self):
            return self.mean.result() + self.total.result()

    m = Both()
    assert float(m([1.0, 3.0])) == 6.0
    assert len(m.variables) == 3
    m.reset_state()
    assert float(m.result()) == 0.0


def test_sample_weight_shapes():
    m = M.Mean()
    m.update_state([[1.0, 2.0], [3.0, 4.0]], sample_weight=[[1.0], [0.0]])
    assert float(m.result()) == 1.5
    acc = M.BinaryAccuracy()
    acc.update_state([[1.0], [0.0]], [[0.9], [0.8]], sample_weight=[[3.0], [1.0]])
    assert float(acc.result()) == 0.75


def test_precision_recall_errors_and_threshold_checks():
    with pytest.raises(ValueError, match=r"Threshold values must be in \[0, 1\]"):
        M.Precision(thresholds=[0.5, 1.5])
    with pytest.raises(ValueError, match="class_id"):
        M.Recall(class_id=0).update_state([1.0, 0.0], [0.7, 0.2])
    with pytest.raises(ValueError, match="num_thresholds"):
        M.AUC(num_thresholds=1)
    with pytest.raises(ValueError, match="Invalid AUC curve"):
        M.AUC(curve="XY")
    with pytest.raises(ValueError, match="summation method"):
        M.AUC(summation_method="simpson")
    with pytest.raises(NotImplementedError, match="multi_label"):
        M.AUC(multi_label=True)


def test_auc_thresholds_match_tf():
    auc = M.AUC()
    # verified against TF 2.21: 200 thresholds, first/last pushed out by epsilon
    assert len(auc.thresholds) == 200
    np.testing.assert_allclose(auc.thresholds[:3], [-1e-7, 1 / 199, 2 / 199])
    assert auc.thresholds[-1] == 1.0 + 1e-7
    assert [v.name for v in auc.variables] == ["true_positives", "false_positives",
                                               "true_negatives", "false_negatives"]
    assert auc.get_config()["curve"] == "ROC"
    again = M.AUC.from_config(M.AUC(curve="PR", thresholds=[0.3, 0.6]).get_config())
    assert again.curve == "PR" and again.thresholds[1:-1] == [0.3, 0.6]


def test_perfect_and_useless_classifiers():
    auc = M.AUC()
    auc.update_state([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert float(auc.result()) == pytest.approx(1.0)
    auc.reset_state()
    auc.update_state([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])
    assert float(auc.result()) == pytest.approx(0.5)


def test_in_top_k_ties_and_non_finite():
    from minitf.keras.metrics.accuracy_metrics import in_top_k

    preds = tf.constant([[0.5, 0.5, 0.1], [np.inf, 0.2, 0.1], [0.3, 0.2, 0.1]])
    got = in_top_k(tf.constant([1, 0, 2]), preds, 1)
    np.testing.assert_array_equal(got.numpy(), [True, False, False])


def test_get_and_compile_accuracy_rule():
    from minitf.keras.metrics.lookup import get_metric

    assert isinstance(M.get("accuracy"), M.Accuracy)
    assert isinstance(M.get("mse"), M.MeanSquaredError)
    assert isinstance(M.get("AUC"), M.AUC)
    assert isinstance(M.get("sparse_categorical_accuracy"), M.SparseCategoricalAccuracy)
    assert isinstance(M.get("binary_crossentropy"), M.BinaryCrossentropy)
    assert M.get(M.binary_accuracy) is M.binary_accuracy
    with pytest.raises(ValueError, match="Could not interpret metric identifier: accurcy"):
        M.get("accurcy")
    cases = [((8,), (8, 10), M.SparseCategoricalAccuracy),
             ((8, 1), (8, 10), M.SparseCategoricalAccuracy),
             ((8, 10), (8, 10), M.CategoricalAccuracy),
             ((8, 1), (8, 1), M.BinaryAccuracy),
             ((8,), (8, 1), M.BinaryAccuracy)]
    for t_shape, p_shape, cls in cases:
        metric = get_metric("accuracy", tf.zeros(t_shape), tf.zeros(p_shape))
        assert type(metric) is cls and metric.name == "accuracy"
    assert get_metric("acc", tf.zeros([2]), tf.zeros([2, 3])).name == "acc"
    wrapped = get_metric(M.binary_accuracy, tf.zeros([2, 1]), tf.zeros([2, 1]))
    assert isinstance(wrapped, M.MeanMetricWrapper) and wrapped.name == "binary_accuracy"
    assert get_metric("mse", None, None).name == "mse"
    config = M.serialize(M.Precision(thresholds=[0.3], top_k=2))
    again = M.deserialize(config)
    assert again.thresholds == [0.3] and again.top_k == 2


def test_configs_match_tf():
    # verified against TF 2.21 (in a fresh session: unnamed Precision() counts up after that)
    tf.keras.backend.clear_session()
    assert M.BinaryAccuracy().get_config() == {"name": "binary_accuracy", "dtype": "float32",
                                               "threshold": 0.5}
    assert M.TopKCategoricalAccuracy().get_config() == {
        "name": "top_k_categorical_accuracy", "dtype": "float32", "k": 5}
    assert M.Precision().get_config() == {"name": "precision", "dtype": "float32",
                                          "thresholds": None, "top_k": None,
                                          "class_id": None}
    assert M.RootMeanSquaredError().name == "root_mean_squared_error"
    assert M.LogCoshError().name == "logcosh"
    assert M.TruePositives().name == "true_positives"


def test_public_paths():
    assert tf.metrics.AUC is M.AUC and tf.keras.Metric is M.Metric
    assert tf.metrics.get is M.get and tf.metrics.binary_accuracy is M.binary_accuracy


def test_unnamed_metrics_count_up_as_keras_3_auto_names_them():
    # TF 2.21: AUC() twice -> 'auc', 'auc_1'; Mean() keeps its default name 'mean'
    tf.keras.backend.clear_session()
    assert [M.AUC().name, M.AUC().name, M.AUC(name="x").name, M.AUC().name] == [
        "auc", "auc_1", "x", "auc_2"]
    assert [M.Precision().name, M.Precision().name] == ["precision", "precision_1"]
    assert [M.Mean().name, M.Mean().name] == ["mean", "mean"]
    wrapper = M.MeanMetricWrapper(tf.keras.losses.mae)
    assert wrapper.name == "mean_metric_wrapper"
    assert [v.path for v in wrapper.variables] == ["mean_metric_wrapper/total",
                                                   "mean_metric_wrapper/count"]
    tf.keras.backend.clear_session()
    assert M.AUC().name == "auc"
