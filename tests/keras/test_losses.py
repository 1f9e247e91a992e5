"""Keras losses: functions, classes, reductions, sample weights, gradients, lookup.

Reference numbers: TF 2.21 (Keras 3.15) on the inputs below.
"""
import warnings

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads

L = tf.keras.losses

REG_T = np.array([[1.31, 0.613, 0.178, 0.131], [1.645, 1.834, 1.253, 1.486],
                  [1.133, 1.877, 1.65, 0.105]], np.float32)
REG_P = np.array([[2.001, -0.882, 1.554, -0.385], [2.021, 0.895, 0.049, 0.479],
                  [-0.901, -0.565, 1.347, 1.265]], np.float32)
PROB_T = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1], [0.2, 0.3, 0.5]], np.float32)
PROB_P = np.array([[0.1, 0.7, 0.2], [0.0, 0.5, 0.5], [0.3, 0.3, 0.4], [0.25, 0.25, 0.5]], np.float32)
LOGITS = np.array([[2.0, -1.0, 0.5], [-3.0, 4.0, 0.0], [0.1, 0.2, 0.3], [10.0, -10.0, 0.0]], np.float32)
SPARSE = np.array([1, 0, 2, 2], np.int32)
BIN_T = np.array([[0, 1], [1, 1], [0, 0]], np.float32)
BIN_P = np.array([[0.2, 0.9], [1.0, 0.6], [0.0, 0.3]], np.float32)
HINGE_T = np.array([[-1, 1, 1], [1, -1, -1]], np.float32)
HINGE_P = np.array([[0.3, 0.8, -0.2], [1.5, 0.1, -2.0]], np.float32)
SW3 = np.array([1.0, 0.5, 2.0], np.float32)
SW4 = np.array([1.0, 0.0, 2.0, 0.5], np.float32)

FUNCTION_CASES = [  # (name, function name, kwargs, y_true, y_pred)
    ("mse", "mean_squared_error", {}, "REG_T", "REG_P"),
    ("mae", "mean_absolute_error", {}, "REG_T", "REG_P"),
    ("mape", "mean_absolute_percentage_error", {}, "REG_T", "REG_P"),
    ("msle", "mean_squared_logarithmic_error", {}, "REG_T", "REG_P"),
    ("cosine", "cosine_similarity", {}, "REG_T", "REG_P"),
    ("cosine_axis0", "cosine_similarity", {"axis": 0}, "REG_T", "REG_P"),
    ("huber", "huber", {}, "REG_T", "REG_P"),
    ("huber_delta", "huber", {"delta": 0.5}, "REG_T", "REG_P"),
    ("log_cosh", "log_cosh", {}, "REG_T", "REG_P"),
    ("hinge_pm1", "hinge", {}, "HINGE_T", "HINGE_P"),
    ("hinge_01", "hinge", {}, "BIN_T", "BIN_P"),
    ("squared_hinge", "squared_hinge", {}, "HINGE_T", "HINGE_P"),
    ("categorical_hinge", "categorical_hinge", {}, "PROB_T", "PROB_P"),
    ("kld", "kl_divergence", {}, "PROB_T", "PROB_P"),
    ("poisson", "poisson", {}, "REG_T", "POS_P"),
    ("bce", "binary_crossentropy", {}, "BIN_T", "BIN_P"),
    ("bce_smooth", "binary_crossentropy", {"label_smoothing": 0.2}, "BIN_T", "BIN_P"),
    ("bce_logits", "binary_crossentropy", {"from_logits": True}, "BIN_T", "HINGE_P3"),
    ("cce", "categorical_crossentropy", {}, "PROB_T", "PROB_P"),
    ("cce_smooth", "categorical_crossentropy", {"label_smoothing": 0.1}, "PROB_T", "PROB_P"),
    ("cce_logits", "categorical_crossentropy", {"from_logits": True}, "PROB_T", "LOGITS"),
    ("cce_axis0", "categorical_crossentropy", {"axis": 0}, "PROB_T", "PROB_P"),
    ("scce", "sparse_categorical_crossentropy", {}, "SPARSE", "PROB_P"),
    ("scce_logits", "sparse_categorical_crossentropy", {"from_logits": True}, "SPARSE", "LOGITS"),
    ("scce_ignore", "sparse_categorical_crossentropy", {"ignore_class": 2}, "SPARSE", "PROB_P"),
]
HINGE_P3 = np.array([[0.3, 0.8], [1.5, -20.0], [-2.0, 30.0]], np.float32)

CLASS_CASES = [  # (name, class, ctor kwargs, y_true, y_pred, sample_weight)
    ("MSE", "MeanSquaredError", {}, "REG_T", "REG_P", None),
    ("MSE_sw", "MeanSquaredError", {}, "REG_T", "REG_P", "SW3"),
    ("MSE_sum", "MeanSquaredError", {"reduction": "sum"}, "REG_T", "REG_P", "SW3"),
    ("MSE_none", "MeanSquaredError", {"reduction": None}, "REG_T", "REG_P", "SW3"),
    ("MSE_mws", "MeanSquaredError", {"reduction": "mean_with_sample_weight"}, "REG_T", "REG_P", "SW3"),
    ("MAE_sw", "MeanAbsoluteError", {}, "REG_T", "REG_P", "SW3"),
    ("MAPE", "MeanAbsolutePercentageError", {}, "REG_T", "REG_P", None),
    ("MSLE", "MeanSquaredLogarithmicError", {}, "REG_T", "REG_P", None),
    ("Cosine", "CosineSimilarity", {}, "REG_T", "REG_P", "SW3"),
    ("Huber", "Huber", {"delta": 0.5}, "REG_T", "REG_P", None),
    ("LogCosh", "LogCosh", {}, "REG_T", "REG_P", None),
    ("Hinge", "Hinge", {}, "HINGE_T", "HINGE_P", None),
    ("SquaredHinge", "SquaredHinge", {}, "HINGE_T", "HINGE_P", None),
    ("CategoricalHinge", "CategoricalHinge", {}, "PROB_T", "PROB_P", None),
    ("KLD", "KLDivergence", {}, "PROB_T", "PROB_P", "SW4"),
    ("Poisson", "Poisson", {}, "REG_T", "POS_P", "SW3"),
    ("BCE", "BinaryCrossentropy", {}, "BIN_T", "BIN_P", None),
    ("BCE_logits_sw", "BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1}, "BIN_T", "HINGE_P3", "SW3"),
    ("CCE", "CategoricalCrossentropy", {}, "PROB_T", "PROB_P", "SW4"),
    ("CCE_logits", "CategoricalCrossentropy", {"from_logits": True}, "PROB_T", "LOGITS", None),
    ("SCCE", "SparseCategoricalCrossentropy", {}, "SPARSE", "PROB_P", "SW4"),
    ("SCCE_logits", "SparseCategoricalCrossentropy", {"from_logits": True}, "SPARSE", "LOGITS", None),
    ("SCCE_ignore", "SparseCategoricalCrossentropy", {"ignore_class": 2}, "SPARSE", "PROB_P", None),
    ("SCCE_ignore_sw", "SparseCategoricalCrossentropy", {"ignore_class": 2}, "SPARSE", "PROB_P", "SW4"),
    ("SCCE_col", "SparseCategoricalCrossentropy", {}, "SPARSE_COL", "PROB_P", None),
    ("MSE_rank1", "MeanSquaredError", {}, "SPARSE_F", "SPARSE_F2", None),
    ("MSE_col_vs_flat", "MeanSquaredError", {}, "SPARSE_COLF", "SPARSE_F2", None),
]
SPARSE_COL = SPARSE.reshape(4, 1)
SPARSE_F = SPARSE.astype(np.float32)
SPARSE_F2 = np.array([0.5, 0.0, 3.0, 1.0], np.float32)
SPARSE_COLF = SPARSE_F.reshape(4, 1)
POS_P = np.abs(REG_P) + np.float32(0.1)


# verified against TF 2.21: the function cases give per-example losses, the class cases
# the reduced loss (or per-example losses for reduction=None).
EXPECTED = {
    "mse": [1.2180344, 0.8716905, 2.8844821],
    "mae": [1.0194999, 0.8815   , 1.4847499],
    "mape": [365.88937 ,  59.477974, 358.18753 ],
    "msle": [0.22776198, 0.25841922, 0.55511135],
    "cosine": [-0.58175045, -0.80846024, -0.04680746],
    "cosine_axis0": [-0.6911119  , -0.010843098, -0.59858173 , -0.377613   ],
    "huber": [0.5607171 , 0.43063712, 1.0454761 ],
    "huber_delta": [0.38475   , 0.31767198, 0.62222606],
    "log_cosh": [0.4862706 , 0.37334013, 0.93000543],
    "hinge_pm1": [0.90000004, 0.36666667],
    "hinge_01": [0.65000004, 0.19999999, 1.15      ],
    "squared_hinge": [1.0566666 , 0.40333334],
    "categorical_hinge": [0.5  , 1.5  , 0.9  , 0.875],
    "kld": [3.5667217e-01, 1.6118092e+01, 9.1628778e-01, 1.0067776e-02],
    "poisson": [1.0664492, 1.4534595, 1.1500723],
    "bce": [0.16425204, 0.25541285, 0.17833754],
    "bce_smooth": [0.34342793, 1.072805  , 1.0266073 ],
    "bce_logits": [ 0.612728, 10.100707, 15.063464],
    "cce": [ 0.35667497, 16.118095  ,  0.9162907 ,  1.0397208 ],
    "cce_smooth": [ 0.46329743, 15.089766  ,  0.9354695 ,  1.0512732 ],
    "cce_logits": [ 3.2413113,  7.019045 ,  1.0019429, 11.000046 ],
    "cce_axis0": [16.309198 ,  1.5000639,  1.9678698],
    "scce": [ 0.35667488, 16.118095  ,  0.91629076,  0.6931472 ],
    "scce_logits": [ 3.2413113,  7.019045 ,  1.0019429, 10.000046 ],
    "scce_ignore": [ 0.35667488, 16.118095  ,  0.        ,  0.        ],
    "MSE": 1.658069,
    "MSE_sw": 2.4742813,
    "MSE_sum": 7.422844,
    "MSE_none": [1.2180344 , 0.43584526, 5.7689643 ],
    "MSE_mws": 2.1208127,
    "MAE_sw": 1.4765831,
    "MAPE": 261.18497,
    "MSLE": 0.34709752,
    "Cosine": -0.35986516,
    "Huber": 0.4415494,
    "LogCosh": 0.5965387,
    "Hinge": 0.6333333,
    "SquaredHinge": 0.72999996,
    "CategoricalHinge": 0.94375,
    "KLD": 0.5485704,
    "Poisson": 1.3644413,
    "BCE": 0.19933414,
    "BCE_logits_sw": 11.39042,
    "CCE": 0.67727923,
    "CCE_logits": 5.565586,
    "SCCE": 0.6339575,
    "SCCE_logits": 5.315586,
    "SCCE_ignore": 8.237385,
    "SCCE_ignore_sw": 0.17833744,
    "SCCE_col": 4.521052,
    "MSE_rank1": 0.5625,
    "MSE_col_vs_flat": 0.5625,

}


@pytest.mark.parametrize("case", FUNCTION_CASES, ids=[c[0] for c in FUNCTION_CASES])
def test_loss_functions_match_tf(case):
    name, fn, kwargs, y_true, y_pred = case
    got = getattr(L, fn)(tf.constant(globals()[y_true]), tf.constant(globals()[y_pred]),
                         **kwargs)
    assert got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), EXPECTED[name], rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("case", CLASS_CASES, ids=[c[0] for c in CLASS_CASES])
def test_loss_classes_match_tf(case):
    name, cls, kwargs, y_true, y_pred, sample_weight = case
    loss = getattr(L, cls)(**kwargs)
    weights = None if sample_weight is None else globals()[sample_weight]
    got = loss(globals()[y_true], globals()[y_pred], sample_weight=weights)
    np.testing.assert_allclose(got.numpy(), EXPECTED[name], rtol=2e-6, atol=1e-6)


def test_crossentropy_clips_probabilities_at_1e_7():
    # -log(1e-7) = 16.118: a confident wrong probability costs a finite amount
    np.testing.assert_allclose(L.binary_crossentropy([[1.0]], [[0.0]]).numpy(), [16.118095],
                               rtol=1e-6)
    np.testing.assert_allclose(L.categorical_crossentropy([[1.0, 0.0]], [[0.0, 1.0]]).numpy(),
                               [16.118095], rtol=1e-6)
    np.testing.assert_allclose(L.sparse_categorical_crossentropy([0], [[0.0, 1.0]]).numpy(),
                               [16.118095], rtol=1e-6)
    # outside [1e-7, 1 - 1e-7] the clip is flat: no gradient reaches the prediction
    p = tf.Variable([[0.0, 1.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(L.binary_crossentropy([[1.0, 0.0]], p))
    np.testing.assert_array_equal(tape.gradient(loss, p).numpy(), [[0.0, 0.0]])
    # logits never need clipping: huge logits give exact, finite losses
    np.testing.assert_allclose(
        L.categorical_crossentropy([[1.0, 0.0]], [[-1000.0, 1000.0]], from_logits=True),
        [2000.0])
    np.testing.assert_allclose(
        L.binary_crossentropy([[1.0]], [[-1000.0]], from_logits=True), [1000.0])


SMOOTH_T = np.array([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]])
SMOOTH_P = np.array([[0.3, 0.5, 0.2], [0.1, 0.6, 0.3]])
SMOOTH_L = np.array([[1.5, -0.5, 0.25], [-2.0, 0.75, 3.0]])
GRAD_CASES = [
    ("mean_squared_error", {}, REG_T, REG_P),
    ("mean_absolute_error", {}, REG_T, REG_P),
    ("mean_absolute_percentage_error", {}, REG_T, REG_P),
    ("mean_squared_logarithmic_error", {}, REG_T, POS_P),
    ("cosine_similarity", {}, REG_T, REG_P),
    ("huber", {"delta": 0.5}, REG_T, REG_P),
    ("log_cosh", {}, REG_T, REG_P),
    ("hinge", {}, HINGE_T, HINGE_P),
    ("squared_hinge", {}, HINGE_T, HINGE_P),
    ("categorical_hinge", {}, SMOOTH_T, SMOOTH_P),
    ("kl_divergence", {}, SMOOTH_T, SMOOTH_P),
    ("poisson", {}, REG_T, POS_P),
    ("binary_crossentropy", {}, SMOOTH_T, SMOOTH_P),
    ("binary_crossentropy", {"from_logits": True, "label_smoothing": 0.1}, SMOOTH_T, SMOOTH_L),
    ("categorical_crossentropy", {}, SMOOTH_T, SMOOTH_P),
    ("categorical_crossentropy", {"from_logits": True, "label_smoothing": 0.2}, SMOOTH_T,
     SMOOTH_L),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=[c[0] + str(c[1]) for c in GRAD_CASES])
def test_gradients_match_finite_differences(case):
    fn, kwargs, y_true, y_pred = case
    check_grads(lambda t, p: getattr(L, fn)(t, p, **kwargs), y_true, y_pred, wrt=[1])


def test_sparse_crossentropy_gradients():
    labels = np.array([2, 0])
    check_grads(lambda p: L.sparse_categorical_crossentropy(labels, p), SMOOTH_P)
    check_grads(lambda p: L.sparse_categorical_crossentropy(labels, p, from_logits=True),
                SMOOTH_L)


def test_loss_class_gradient_with_weights():
    weights = np.array([0.5, 2.0])
    check_grads(lambda p: L.CategoricalCrossentropy(dtype="float64")(SMOOTH_T, p, weights),
                SMOOTH_P)
    check_grads(lambda p: L.Huber(reduction="sum", dtype="float64")(SMOOTH_T, p), SMOOTH_L)


def test_reduction_names_and_classic_aliases():
    y_true, y_pred = [[1.0], [3.0]], [[0.0], [0.0]]
    assert float(L.MeanSquaredError()(y_true, y_pred)) == 5.0
    assert float(L.MeanSquaredError(reduction=L.Reduction.SUM)(y_true, y_pred)) == 10.0
    assert float(L.MeanSquaredError(reduction=L.Reduction.AUTO)(y_true, y_pred)) == 5.0
    assert L.MeanSquaredError(reduction=L.Reduction.AUTO).reduction == "sum_over_batch_size"
    none = L.MeanSquaredError(reduction=L.Reduction.NONE)(y_true, y_pred)
    np.testing.assert_array_equal(none.numpy(), [1.0, 9.0])
    assert float(L.MeanSquaredError(reduction="mean")(y_true, y_pred)) == 5.0
    assert L.Reduction.all() == ("auto", "none", "sum", "sum_over_batch_size")
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        L.MeanSquaredError(reduction="average")
    with pytest.raises(ValueError, match="Invalid Reduction Key"):
        L.Reduction.validate("average")


def test_sample_weight_shapes():
    y_true, y_pred = np.zeros((2, 3), np.float32), np.ones((2, 3), np.float32)
    mse = L.MeanSquaredError()
    assert float(mse(y_true, y_pred, sample_weight=2.0)) == 2.0  # a scalar weight
    assert float(mse(y_true, y_pred, sample_weight=[[1.0], [0.0]])) == 0.5  # [batch, 1]
    # zero weights still count in "sum_over_batch_size"'s denominator
    assert float(mse(y_true, y_pred, sample_weight=[0.0, 1.0])) == 0.5
    per_element = L.MeanSquaredError(reduction="none")(
        np.zeros((2, 3, 1)), np.ones((2, 3, 1)), sample_weight=[[1.0, 0.0, 2.0], [1, 1, 1]])
    np.testing.assert_array_equal(per_element.numpy(), [[1.0, 0.0, 2.0], [1.0, 1.0, 1.0]])


def test_inputs_are_converted_to_the_loss_dtype():
    got = L.MeanSquaredError()(np.array([[1.0, 2.0]]), np.array([[1, 4]]))
    assert got.dtype == tf.float32 and float(got) == 2.0
    assert L.MeanSquaredError(dtype="float64")([[1.0]], [[2.0]]).dtype == tf.float64
    assert L.MeanSquaredError().dtype == "float32"
    # the functions keep float64 inputs as float64 (like Keras ops)
    assert L.mse(np.array([1.0, 2.0]), np.array([1.0, 3.0])).dtype == tf.float64


def test_mismatched_label_shapes_raise():
    with pytest.raises(ValueError, match="must have the same shape"):
        L.categorical_crossentropy(np.zeros((4, 3)), np.ones((4, 2)) / 2)
    with pytest.raises(ValueError, match="must have the same rank"):
        L.binary_crossentropy(np.zeros((4,)), np.ones((4, 2)) / 2)
    with pytest.raises(ValueError, match=r"rank \(ndim\) `target.ndim - 1`"):
        L.sparse_categorical_crossentropy(np.zeros((4, 3)), np.ones((4, 3)) / 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        L.MeanSquaredError()(np.zeros((3, 4)), np.zeros((3, 5)))
    with pytest.raises(ValueError, match="`axis` must be of type `int`"):
        L.categorical_crossentropy([[1.0, 0.0]], [[0.5, 0.5]], axis=True)
    with pytest.raises(ValueError, match="Only axis=-1"):
        L.sparse_categorical_crossentropy([[1]], np.ones((1, 2, 2)) / 2, axis=1)
    with pytest.warns(SyntaxWarning, match="binary_crossentropy"):
        L.categorical_crossentropy([[1.0]], [[0.5]])


def test_custom_loss_subclass_and_function():
    class FocalLoss(L.Loss):
        def __init__(self, gamma=2.0, **kwargs):
            super().__init__(**kwargs)
            self.gamma = gamma

        def call(self, y_true, y_pred):
            p_t = y_true * y_pred + (1 - y_true) * (1 - y_pred)
            return tf.reduce_mean(-((1 - p_t) ** self.gamma) * tf.math.log(p_t), axis=-1)

    focal = FocalLoss(reduction="sum")
    assert focal.name == "focal_loss"
    got = focal([[1.0, 0.0]], [[0.5, 0.5]])
    np.testing.assert_allclose(got.numpy(), 0.25 * np.log(2.0), rtol=1e-6)
    assert focal.get_config() == {"name": "focal_loss", "reduction": "sum"}

    def l4(y_true, y_pred):
        return tf.reduce_mean((y_true - y_pred) ** 4, axis=-1)

    wrapped = L._LossFunctionWrapper(l4, reduction="sum")
    assert wrapped.name == "l4" and float(wrapped([[0.0], [0.0]], [[1.0], [2.0]])) == 17.0
    with pytest.raises(NotImplementedError, match="must define call"):
        L.Loss()([[1.0]], [[1.0]])


def test_losses_inside_tf_function():
    cce = L.SparseCategoricalCrossentropy(from_logits=True)
    f = tf.function(lambda y, p: cce(y, p))
    np.testing.assert_allclose(f(tf.constant(SPARSE), tf.constant(LOGITS)).numpy(),
                               EXPECTED["SCCE_logits"], rtol=1e-6)
    hinge = tf.function(lambda y, p: L.hinge(y, p))
    np.testing.assert_allclose(hinge(tf.constant(BIN_T), tf.constant(BIN_P)).numpy(),
                               EXPECTED["hinge_01"], rtol=1e-6)
    cos = tf.function(lambda y, p: L.CosineSimilarity()(y, p, sample_weight=SW3))
    np.testing.assert_allclose(cos(tf.constant(REG_T), tf.constant(REG_P)).numpy(),
                               EXPECTED["Cosine"], rtol=1e-6)


def test_cosine_similarity_sign_convention():
    same = L.cosine_similarity([[1.0, 2.0]], [[2.0, 4.0]]).numpy()
    opposite = L.cosine_similarity([[1.0, 2.0]], [[-1.0, -2.0]]).numpy()
    np.testing.assert_allclose(same, [-1.0], rtol=1e-6)
    np.testing.assert_allclose(opposite, [1.0], rtol=1e-6)
    assert float(L.cosine_similarity([[0.0, 0.0]], [[1.0, 0.0]])[0]) == 0.0  # zero vector


def test_get_serialize_deserialize():
    assert L.get("mse") is L.mean_squared_error is L.mse is L.MSE
    assert L.get("mean_squared_error") is L.mse
    assert L.get("bce") is L.binary_crossentropy
    assert L.get("logcosh") is L.log_cosh and L.get("kld") is L.kl_divergence
    assert isinstance(L.get("CategoricalCrossentropy"), L.CategoricalCrossentropy)
    assert L.get(L.Huber) is not L.Huber and isinstance(L.get(L.Huber), L.Huber)
    assert L.get(None) is None
    config = L.serialize(L.BinaryCrossentropy(from_logits=True, label_smoothing=0.1))
    # verified against TF 2.21: the config keys
    assert config["config"] == {"name": "binary_crossentropy",
                                "reduction": "sum_over_batch_size", "from_logits": True,
                                "label_smoothing": 0.1, "axis": -1}
    again = L.get(config)
    assert again.from_logits and again.label_smoothing == 0.1
    assert L.SparseCategoricalCrossentropy().get_config() == {
        "name": "sparse_categorical_crossentropy", "reduction": "sum_over_batch_size",
        "from_logits": False, "ignore_class": None}
    assert L.MeanSquaredError.from_config(L.MeanSquaredError(name="m").get_config()).name == "m"
    assert L.deserialize("mse") is L.mse
    with pytest.raises(ValueError, match="Could not interpret loss identifier: msee"):
        L.get("msee")
    with pytest.raises(ValueError, match="Could not interpret loss identifier"):
        L.deserialize({"class_name": "Nope", "config": {}})


def test_default_names_match_tf():
    # verified against TF 2.21
    assert L.MeanSquaredError().name == "mean_squared_error"
    assert L.Huber().name == "huber_loss"
    assert L.LogCosh().name == "log_cosh"
    assert L.KLDivergence().name == "kl_divergence"
    assert L.CosineSimilarity().name == "cosine_similarity"


def test_public_paths():
    assert tf.losses.MeanSquaredError is L.MeanSquaredError
    assert tf.losses.mse is L.mse and tf.losses.Reduction is L.Reduction
    assert tf.keras.metrics.mse is L.mse and tf.metrics.binary_crossentropy is \
        L.binary_crossentropy
    assert tf.keras.Loss is L.Loss


def test_get_loss_for_compile():
    from minitf.keras.losses import _get_loss as get_loss

    assert get_loss("ce", tf.zeros([4, 1]), tf.zeros([4, 1])).fn is L.binary_crossentropy
    assert get_loss("crossentropy", tf.zeros([4, 3]), tf.zeros([4, 3])).fn is \
        L.categorical_crossentropy
    loss = get_loss("mse", None, None)
    assert isinstance(loss, L._LossFunctionWrapper) and loss.name == "mse"
    assert float(loss([[1.0]], [[3.0]])) == 4.0
    huber = L.Huber()
    assert get_loss(huber, None, None) is huber
    assert get_loss(None, None, None) is None
