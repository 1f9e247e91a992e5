"""`tf.keras.losses`: loss classes, the `Loss` base, reductions and `get`.

A loss class wraps a loss function (see `loss_functions.py`): calling it
computes one loss per example, multiplies by `sample_weight`, and reduces:

* "sum_over_batch_size" (default): sum of weighted losses / number of losses;
* "sum": the plain sum;  "mean_with_sample_weight": sum / sum of the weights;
* "none" (or None): no reduction, one loss per example.

Note that "sum_over_batch_size" divides by the number of losses, *not* by the
sum of the weights: weights of 0 still count in the denominator.

>>> import minitf as tf
>>> mse = tf.keras.losses.MeanSquaredError()
>>> mse([[0.0], [1.0]], [[1.0], [1.0]])
<tf.Tensor: shape=(), dtype=float32, numpy=0.5>
>>> mse([[0.0], [1.0]], [[1.0], [1.0]], sample_weight=[0.0, 1.0])
<tf.Tensor: shape=(), dtype=float32, numpy=0.0>
>>> tf.keras.losses.MeanSquaredError(reduction="none")([[0.0], [1.0]], [[1.0], [1.0]])
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 0.], dtype=float32)>
"""
import inspect
import re

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.array_ops import size, squeeze as _squeeze
from ..ops.clip_ops import divide_no_nan
from ..ops.math_ops import cast, logical_and, not_equal as _not_equal
from ..ops.reduction_ops import reduce_sum
from . import loss_functions as F
from .loss_functions import squeeze_or_expand_to_same_rank as _same_rank

_REDUCTIONS = ("sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight")


@tf_export("keras.losses.Reduction", "losses.Reduction")
class Reduction:
    """Classic tf.keras names for the reductions (kept for old code).

    `AUTO` means "sum_over_batch_size" (real TF 2.21 rejects "auto" in a loss).

    >>> tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.SUM).reduction
    'sum'
    """

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


def _standardize_reduction(reduction):
    if reduction == Reduction.AUTO:
        return "sum_over_batch_size"
    if reduction not in _REDUCTIONS:
        raise ValueError(
            "Invalid value for argument `reduction`. Expected one of "
            f"{set(_REDUCTIONS)}. Received: reduction={reduction}")
    return reduction


def _snake_case(name):
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def reduce_values(values, sample_weight=None, reduction="sum_over_batch_size"):
    """Sum the (weighted) losses, then divide as the reduction says."""
    if reduction in (None, "none") or values.shape.rank == 0 or values.shape == (0,):
        return values
    loss = reduce_sum(values)
    if reduction in ("sum_over_batch_size", "mean", "mean_with_sample_weight"):
        if reduction == "mean_with_sample_weight" and sample_weight is not None:
            divisor = cast(reduce_sum(sample_weight), loss.dtype)
        else:
            divisor = cast(size(values), loss.dtype)
        loss = divide_no_nan(loss, divisor)
    return loss


def reduce_weighted_values(values, sample_weight=None, mask=None,
                           reduction="sum_over_batch_size", dtype=None):
    """values * sample_weight (shapes aligned like Keras), then `reduce_values`.

    A boolean `mask` (e.g. from `ignore_class`) zeroes the masked losses; for the
    mean reductions the others are scaled up so the mean is over valid entries.
    """
    reduction = _standardize_reduction(reduction)
    values = convert_to_tensor(values, dtype=dtype)
    if sample_weight is not None:
        sample_weight = cast(convert_to_tensor(sample_weight), values.dtype)
    if mask is not None:
        float_mask = cast(mask, values.dtype)
        if reduction in ("mean", "sum_over_batch_size"):
            total = cast(size(float_mask), values.dtype)
            float_mask = float_mask * divide_no_nan(total, reduce_sum(float_mask))
        if sample_weight is not None:
            float_mask, sample_weight = _same_rank(float_mask,
                                                   sample_weight)
            sample_weight = sample_weight * float_mask
        else:
            sample_weight = float_mask
    if sample_weight is not None:
        values, sample_weight = _same_rank(values, sample_weight)
        values = values * sample_weight
    return reduce_values(values, sample_weight, reduction)


@tf_export("keras.losses.Loss", "keras.Loss", "losses.Loss")
class Loss:
    """Base class of losses: subclass it and define `call(y_true, y_pred)`.

    `__call__(y_true, y_pred, sample_weight=None)` converts both to `dtype`
    (float32), runs `call` for per-example losses, weights and reduces them.

    >>> class FourthPower(tf.keras.losses.Loss):
    ...     def call(self, y_true, y_pred):
    ...         return tf.reduce_mean((y_true - y_pred) ** 4, axis=-1)
    >>> FourthPower()([[0.0, 0.0]], [[1.0, 2.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=8.5>
    >>> FourthPower().name
    'fourth_power'
    """

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or _snake_case(type(self).__name__)
        self.reduction = _standardize_reduction(reduction)
        self._dtype = dtypes.as_dtype(dtype or "float32")

    @property
    def dtype(self):
        return self._dtype.name

    def __call__(self, y_true, y_pred, sample_weight=None):
        padding_mask = getattr(y_pred, "_keras_mask", None)  # a Keras mask on the outputs
        y_pred = convert_to_tensor(y_pred)
        y_pred = y_pred if y_pred.dtype is self._dtype else cast(y_pred, self._dtype)
        y_true = convert_to_tensor(y_true)
        y_true = y_true if y_true.dtype is self._dtype else cast(y_true, self._dtype)
        losses = self.call(y_true, y_pred)
        mask = self._mask(y_true)
        if padding_mask is not None:  # masked steps do not count (Keras 3's Loss.__call__)
            mask = padding_mask if mask is None else logical_and(padding_mask, mask)
        return reduce_weighted_values(losses, sample_weight, mask, self.reduction, self._dtype)

    def _mask(self, y_true):
        return None

    def call(self, y_true, y_pred):
        raise NotImplementedError(
            f"Loss {type(self).__name__} must define call(y_true, y_pred) returning one "
            "loss per example.")

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name!r} reduction={self.reduction!r}>"


class LossFunctionWrapper(Loss):
    """A `Loss` made from a loss function `fn(y_true, y_pred, **kwargs)`.

    Keras's `LossFunctionWrapper` (not public in TF 2.21's tf.keras.losses: minitf
    keeps it as `minitf.keras.losses._LossFunctionWrapper`).

    >>> from minitf.keras.losses import _LossFunctionWrapper
    >>> wrapped = _LossFunctionWrapper(tf.keras.losses.mae)
    >>> wrapped([[1.0, 2.0]], [[2.0, 2.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name or getattr(fn, "__name__", None), reduction=reduction,
                         dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        y_true, y_pred = _same_rank(y_true, y_pred)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = super().get_config()
        config.update({"fn": getattr(self.fn, "__name__", None)}, **self._fn_kwargs)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if isinstance(config.get("fn"), str):
            config["fn"] = get(config["fn"])
        return cls(**config)


def _wrapper_class(class_name, fn, default_name, doc, **fixed):
    """A LossFunctionWrapper subclass with Keras's signature (name, reduction, dtype)."""

    def __init__(self, reduction="sum_over_batch_size", name=default_name, dtype=None):
        _LossFunctionWrapper.__init__(self, fn, name=name, reduction=reduction, dtype=dtype,
                                      **fixed)

    def get_config(self):
        return Loss.get_config(self)

    return type(class_name, (LossFunctionWrapper,),
                {"__init__": __init__, "get_config": get_config, "__doc__": doc,
                 "__module__": __name__})


MeanSquaredError = tf_export("keras.losses.MeanSquaredError", "losses.MeanSquaredError")(
    _wrapper_class("MeanSquaredError", F.mean_squared_error, "mean_squared_error", """
    Mean of squared errors: `mean((y_true - y_pred) ** 2)`.

    >>> tf.keras.losses.MeanSquaredError()([[0.0, 1.0]], [[1.0, 3.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=2.5>
    """))
MeanAbsoluteError = tf_export("keras.losses.MeanAbsoluteError", "losses.MeanAbsoluteError")(
    _wrapper_class("MeanAbsoluteError", F.mean_absolute_error, "mean_absolute_error", """
    Mean of absolute errors: `mean(|y_true - y_pred|)`.

    >>> tf.keras.losses.MeanAbsoluteError()([[0.0, 1.0]], [[1.0, 3.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.5>
    """))
MeanAbsolutePercentageError = tf_export(
    "keras.losses.MeanAbsolutePercentageError", "losses.MeanAbsolutePercentageError")(
    _wrapper_class("MeanAbsolutePercentageError", F.mean_absolute_percentage_error,
                   "mean_absolute_percentage_error", """
    `100 * mean(|(y_true - y_pred) / y_true|)`.

    >>> tf.keras.losses.MeanAbsolutePercentageError()([[2.0, 4.0]], [[1.0, 4.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=25.0>
    """))
MeanSquaredLogarithmicError = tf_export(
    "keras.losses.MeanSquaredLogarithmicError", "losses.MeanSquaredLogarithmicError")(
    _wrapper_class("MeanSquaredLogarithmicError", F.mean_squared_logarithmic_error,
                   "mean_squared_logarithmic_error", """
    `mean((log(1 + y_pred) - log(1 + y_true)) ** 2)`.

    >>> tf.keras.losses.MeanSquaredLogarithmicError()([[0.0]], [[0.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.0>
    """))
LogCosh = tf_export("keras.losses.LogCosh", "losses.LogCosh")(
    _wrapper_class("LogCosh", F.log_cosh, "log_cosh", """
    `mean(log(cosh(y_pred - y_true)))`: like MSE for small errors, like MAE for large.

    >>> tf.keras.losses.LogCosh()([[0.0]], [[0.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.0>
    """))
Hinge = tf_export("keras.losses.Hinge", "losses.Hinge")(
    _wrapper_class("Hinge", F.hinge, "hinge", """
    `mean(max(1 - y_true * y_pred, 0))` with labels -1/+1 (0/1 are converted).

    >>> tf.keras.losses.Hinge()([[1.0, 0.0]], [[0.5, -2.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.25>
    """))
SquaredHinge = tf_export("keras.losses.SquaredHinge", "losses.SquaredHinge")(
    _wrapper_class("SquaredHinge", F.squared_hinge, "squared_hinge", """
    `mean(max(1 - y_true * y_pred, 0) ** 2)` with labels -1/+1 (0/1 are converted).

    >>> tf.keras.losses.SquaredHinge()([[1.0, 0.0]], [[0.5, -2.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.125>
    """))
CategoricalHinge = tf_export("keras.losses.CategoricalHinge", "losses.CategoricalHinge")(
    _wrapper_class("CategoricalHinge", F.categorical_hinge, "categorical_hinge", """
    `max(max_wrong - correct + 1, 0)` for one-hot labels.

    >>> tf.keras.losses.CategoricalHinge()([[0.0, 1.0]], [[0.5, 2.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.0>
    """))
KLDivergence = tf_export("keras.losses.KLDivergence", "losses.KLDivergence")(
    _wrapper_class("KLDivergence", F.kl_divergence, "kl_divergence", """
    Kullback-Leibler divergence `sum(y_true * log(y_true / y_pred))`.

    >>> tf.keras.losses.KLDivergence()([[0.5, 0.5]], [[0.5, 0.5]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.0>
    """))
Poisson = tf_export("keras.losses.Poisson", "losses.Poisson")(
    _wrapper_class("Poisson", F.poisson, "poisson", """
    `mean(y_pred - y_true * log(y_pred))`, for count data.

    >>> tf.keras.losses.Poisson()([[0.0]], [[2.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """))


@tf_export("keras.losses.CosineSimilarity", "losses.CosineSimilarity")
class CosineSimilarity(LossFunctionWrapper):
    """The negative cosine similarity along `axis` (-1: same direction, +1: opposite).

    >>> tf.keras.losses.CosineSimilarity()([[0.0, 1.0]], [[0.0, 5.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=-1.0>
    """

    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity",
                 dtype=None):
        super().__init__(F.cosine_similarity, name=name, reduction=reduction, dtype=dtype,
                         axis=axis)

    def get_config(self):
        return Loss.get_config(self)


@tf_export("keras.losses.Huber", "losses.Huber")
class Huber(LossFunctionWrapper):
    """Huber loss: squared error below `delta`, absolute error (linear) above.

    >>> tf.keras.losses.Huber()([[0.0, 0.0]], [[0.5, 3.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.3125>
    """

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss",
                 dtype=None):
        super().__init__(F.huber, name=name, reduction=reduction, dtype=dtype, delta=delta)

    def get_config(self):
        return Loss.get_config(self)


@tf_export("keras.losses.BinaryCrossentropy", "losses.BinaryCrossentropy")
class BinaryCrossentropy(LossFunctionWrapper):
    """Cross-entropy for 0/1 labels and probabilities (or logits with from_logits=True).

    >>> bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    >>> print(bce([[0.0, 1.0]], [[0.0, 0.0]]).numpy())
    0.6931472
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy", dtype=None):
        super().__init__(F.binary_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"from_logits": self.from_logits,
                       "label_smoothing": self.label_smoothing, "axis": self.axis})
        return config


@tf_export("keras.losses.CategoricalCrossentropy", "losses.CategoricalCrossentropy")
class CategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy for one-hot labels and class probabilities (or logits).

    >>> cce = tf.keras.losses.CategoricalCrossentropy()
    >>> print(cce([[0.0, 1.0], [1.0, 0.0]], [[0.5, 0.5], [0.5, 0.5]]).numpy())
    0.6931472
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_crossentropy", dtype=None):
        super().__init__(F.categorical_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"from_logits": self.from_logits,
                       "label_smoothing": self.label_smoothing, "axis": self.axis})
        return config


@tf_export("keras.losses.SparseCategoricalCrossentropy",
           "losses.SparseCategoricalCrossentropy")
class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy for integer class labels; `ignore_class` drops examples from the mean.

    >>> scce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    >>> print(scce([0, 1], [[0.0, 0.0], [0.0, 0.0]]).numpy())
    0.6931472
    """

    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size",
                 axis=-1, name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(F.sparse_categorical_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, from_logits=from_logits, ignore_class=ignore_class,
                         axis=axis)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    def call(self, y_true, y_pred):  # labels keep their rank: [batch] vs [batch, classes]
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def _mask(self, y_true):
        if self.ignore_class is None:
            return None
        if y_true.shape.rank and y_true.shape[-1] == 1:
            y_true = _squeeze(y_true, -1)
        return _not_equal(y_true, cast(self.ignore_class, y_true.dtype))

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"from_logits": self.from_logits, "ignore_class": self.ignore_class})
        return config


# focal_losses.py adds BinaryFocalCrossentropy, CategoricalFocalCrossentropy and their functions
_ALL_OBJECTS = {c.__name__: c for c in (
    Loss, LossFunctionWrapper, KLDivergence, Poisson, BinaryCrossentropy,
    CategoricalCrossentropy, SparseCategoricalCrossentropy, MeanSquaredError,
    MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
    CosineSimilarity, LogCosh, Huber, Hinge, SquaredHinge, CategoricalHinge,
    F.kl_divergence, F.poisson, F.binary_crossentropy, F.categorical_crossentropy,
    F.sparse_categorical_crossentropy, F.mean_squared_error, F.mean_absolute_error,
    F.mean_absolute_percentage_error, F.mean_squared_logarithmic_error,
    F.cosine_similarity, F.log_cosh, F.huber, F.hinge, F.squared_hinge,
    F.categorical_hinge)}
_ALL_OBJECTS.update({
    "bce": F.binary_crossentropy, "BCE": F.binary_crossentropy, "kld": F.kl_divergence,
    "KLD": F.kl_divergence, "mae": F.mean_absolute_error, "MAE": F.mean_absolute_error,
    "mse": F.mean_squared_error, "MSE": F.mean_squared_error,
    "mape": F.mean_absolute_percentage_error, "MAPE": F.mean_absolute_percentage_error,
    "msle": F.mean_squared_logarithmic_error, "MSLE": F.mean_squared_logarithmic_error,
    # classic tf.keras spellings (real TF 2.21's `get` rejects these two)
    "logcosh": F.log_cosh, "kullback_leibler_divergence": F.kl_divergence,
})


@tf_export("keras.losses.serialize", "losses.serialize")
def serialize(loss):
    """A loss as a dict (a `Loss` instance) or its name (a loss function).

    >>> tf.keras.losses.serialize(tf.keras.losses.Huber())["class_name"]
    'Huber'
    >>> tf.keras.losses.serialize(tf.keras.losses.mse)
    'mean_squared_error'
    """
    if isinstance(loss, Loss):
        return {"module": "keras.losses", "class_name": type(loss).__name__,
                "config": loss.get_config(), "registered_name": None}
    return loss.__name__


@tf_export("keras.losses.deserialize", "losses.deserialize")
def deserialize(name, custom_objects=None):
    """The loss function or `Loss` instance a `serialize` result describes.

    >>> tf.keras.losses.deserialize("mse").__name__
    'mean_squared_error'
    """
    known = dict(_ALL_OBJECTS, **(custom_objects or {}))
    if isinstance(name, dict):
        cls = known.get(name["class_name"])
        if cls is None:
            raise ValueError(f"Could not interpret loss identifier: {name['class_name']}")
        return cls.from_config(name.get("config", {}))
    if name not in known:
        raise ValueError(f"Could not interpret loss identifier: {name}")
    return known[name]


@tf_export("keras.losses.get", "losses.get")
def get(identifier):
    """A loss function or `Loss` instance from a name, a config dict, a class or itself.

    >>> tf.keras.losses.get("mse").__name__
    'mean_squared_error'
    >>> tf.keras.losses.get("CategoricalCrossentropy").name
    'categorical_crossentropy'
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = _ALL_OBJECTS.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj() if inspect.isclass(obj) else obj
    names = sorted(k for k in _ALL_OBJECTS if k[0].islower())
    raise ValueError(f"Could not interpret loss identifier: {identifier} Use a loss class, "
                     f"a function, or one of the names {names}.")


def _get_loss(identifier, y_true, y_pred):
    """The `Loss` object `compile(loss=identifier)` uses (for `compile` to call).

    Like Keras, the strings "crossentropy"/"ce" pick binary, sparse or categorical
    cross-entropy from the shapes (the rule is `metrics.lookup.
    is_binary_or_sparse_categorical`); plain functions are wrapped in a
    `LossFunctionWrapper` named after the identifier.

    >>> _get_loss("crossentropy", tf.zeros([4]), tf.zeros([4, 3])).fn.__name__
    'sparse_categorical_crossentropy'
    >>> _get_loss("mse", None, None).name
    'mse'
    """
    if identifier is None:
        return None
    if str(identifier).lower() not in ("crossentropy", "ce"):
        loss = get(identifier)
    else:
        from .metrics.lookup import is_binary_or_sparse_categorical

        is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
        loss = F.binary_crossentropy if is_binary else \
            F.sparse_categorical_crossentropy if is_sparse else F.categorical_crossentropy
    if not isinstance(loss, Loss):
        name = identifier if isinstance(identifier, str) else getattr(loss, "__name__", None)
        loss = _LossFunctionWrapper(loss, name=name)
    return loss


# Implementation names: TF's namespace does not show them.
_LossFunctionWrapper = LossFunctionWrapper
del tf_export, LossFunctionWrapper
