"""Lesson 24 (Losses and regularization): checks for the three exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex1(lambda losses, weights: tf.reduce_mean(losses * weights))
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, unattempted


def _agrees(function, cases, formula, atol=1e-5):
    """True when `function` matches `formula` on every case (never raises)."""
    try:
        for case in cases:
            got = np.asarray(function(*case), dtype=np.float64)
            want = np.asarray(formula(*case), dtype=np.float64)
            if got.shape != want.shape or not np.allclose(got, want, rtol=1e-4, atol=atol):
                return False
        return True
    except Exception:  # noqa: BLE001 - an answer that cannot be compared does not match
        return False


# --- exercise 1: the default reduction ----------------------------------------------------
def _reduction_cases():
    """(losses, sample_weight) pairs the lesson never showed, zero weights included."""
    rng = np.random.default_rng(2401)
    cases = []
    for n in (5, 3, 7):
        losses = rng.uniform(0.1, 3.0, n).astype(np.float32)
        weights = rng.uniform(0.0, 2.0, n).astype(np.float32)
        weights[0] = 0.0
        cases.append((tf.constant(losses), tf.constant(weights)))
    return cases


def _np(x):
    return np.asarray(x, dtype=np.float64)


ex1 = Exercise("Exercise 1", [
    "Two steps: weight each loss, then reduce. What does 'sum over batch size' divide by?",
    "Multiply losses by sample_weight, sum, and divide by the number of losses "
    "(tf.size), zero weights included.",
], mistakes=[
    (lambda f: _agrees(f, _reduction_cases(), lambda l, w: _np(l * w).sum() / _np(w).sum()),
     "That divides by the sum of the weights (Keras's 'mean_with_sample_weight'). The "
     "default divides by the number of losses: a weight of 0 still counts there."),
    (lambda f: _agrees(f, _reduction_cases(), lambda l, w: _np(l).mean()),
     "The weights are missing: multiply each loss by its sample_weight first."),
    (lambda f: _agrees(f, _reduction_cases(), lambda l, w: _np(l * w).sum()),
     "That is the 'sum' reduction. 'sum_over_batch_size' then divides by the number of "
     "losses."),
    (lambda f: _agrees(f, _reduction_cases(), lambda l, w: _np(l).sum() / _np(w).sum()),
     "Weight each loss before summing, and divide by the number of losses."),
])


def check_ex1(function):
    """reduce_loss(losses, sample_weight) on losses and weights the lesson never showed."""
    if unattempted(function):
        print(NOT_ATTEMPTED)
        return
    reference = tf.keras.losses.MeanSquaredError()  # its reduction, applied to given losses
    ex1.check_function(function,  # a NumPy reference: tensors, arrays and floats all pass
                       lambda losses, weights: _reduce(reference, losses, weights).numpy(),
                       _reduction_cases(), rtol=1e-5, atol=1e-5)


def _reduce(loss, losses, weights):
    """What `loss`'s reduction makes of per-example `losses` (Keras's own code path)."""
    from minitf.keras.losses import reduce_weighted_values
    return reduce_weighted_values(losses, weights, reduction=loss.reduction)


# --- exercise 2: binary cross-entropy from logits -----------------------------------------
def _logit_cases():
    """(y_true, logits) pairs with moderate and extreme logits, hard and soft labels."""
    rng = np.random.default_rng(2402)
    logits = np.array([[500.0, -500.0, 0.0, 2.5], [-500.0, 500.0, -1.5, 40.0]], np.float32)
    labels = np.array([[1.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0]], np.float32)
    soft = rng.uniform(0, 1, (3, 5)).astype(np.float32)
    moderate = rng.normal(0, 3, (3, 5)).astype(np.float32)
    return [(tf.constant(labels), tf.constant(logits)),
            (tf.constant(soft), tf.constant(moderate))]


def _exact_bce(y, z):
    return tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z)


def _naive(y, z):
    y, z = _np(y), _np(z)
    with np.errstate(all="ignore"):
        p = 1.0 / (1.0 + np.exp(-z))
        return -(y * np.log(p) + (1 - y) * np.log(1 - p))


def _clips(function):
    """True when the extreme case's losses stay near -log(1e-7) ~ 16 where they are 500."""
    try:
        labels, logits = _logit_cases()[0]
        got = np.asarray(function(labels, logits), dtype=np.float64)
        return bool(np.all(np.isfinite(got)) and 14.0 < got.max() < 17.0)
    except Exception:  # noqa: BLE001
        return False


def _not_finite(function):
    try:
        return not all(np.all(np.isfinite(np.asarray(function(*case), dtype=np.float64)))
                       for case in _logit_cases())
    except Exception:  # noqa: BLE001
        return False


def _moderate_only(function, formula):
    return _agrees(function, _logit_cases()[1:], formula)


ex2 = Exercise("Exercise 2", [
    "Avoid computing a probability at all: write -[y log σ(z) + (1-y) log(1-σ(z))] in terms "
    "of z, and keep every exp's argument at or below 0.",
    "max(z, 0) - z·y + log(1 + exp(-|z|)).",
], mistakes=[
    (_not_finite,
     "Your function gives inf or nan for logits of ±500: exp overflows, or the sigmoid "
     "rounds to exactly 0 or 1 and its log is -inf. Rewrite it so no exp grows."),
    (_clips,
     "That is the clipped probability path: for a logit of -500 with label 1 it gives "
     "16.12 instead of 500. Work with the logits directly."),
    (lambda f: _moderate_only(f, lambda y, z: _np(_exact_bce(y, z)))
     and not _agrees(f, _logit_cases()[:1], lambda y, z: _np(_exact_bce(y, z))),
     "Right for moderate logits but not for ±500: a probability is rounded somewhere. "
     "Work with the logits directly."),
    (lambda f: _moderate_only(f, lambda y, z: _np(_exact_bce(y, -z))),
     "The sign is flipped: a large positive logit should make the loss small when y = 1."),
    (lambda f: _moderate_only(f, lambda y, z: -_np(z) * _np(y)
                              + np.log1p(np.exp(-np.abs(_np(z))))),
     "The max(z, 0) term is missing."),
])


def check_ex2(function):
    """bce_from_logits(y_true, logits) on labels and logits (±500 too) the lesson never
    showed."""
    if unattempted(function):
        print(NOT_ATTEMPTED)
        return
    ex2.check_function(function, lambda y, z: _exact_bce(y, z).numpy(), _logit_cases(),
                       rtol=1e-4, atol=1e-4)


# --- exercise 3: the loss fit minimizes -----------------------------------------------------
def _regularized_model(seed):
    tf.keras.utils.set_random_seed(seed)
    return tf.keras.Sequential([
        tf.keras.Input(shape=(4,)),
        tf.keras.layers.Dense(3, activation="tanh",
                              kernel_regularizer=tf.keras.regularizers.L2(0.05),
                              activity_regularizer=tf.keras.regularizers.L1(0.02)),
        tf.keras.layers.Dense(1, kernel_regularizer=tf.keras.regularizers.L1(0.03)),
    ])


def _model_cases():
    """(model, x, y): models that last saw *another* batch, so stale penalties show."""
    cases = []
    for seed in (2403, 2404):
        rng = np.random.default_rng(seed)
        model = _regularized_model(seed)
        model(tf.constant(rng.normal(0, 5, (2, 4)).astype(np.float32)))  # another batch
        x = tf.constant(rng.normal(size=(6, 4)).astype(np.float32))
        y = tf.constant(rng.normal(size=(6, 1)).astype(np.float32))
        cases.append((model, x, y))
    return cases


def _mse(model, x, y):
    return tf.keras.losses.MeanSquaredError()(y, model(x))


def _total(model, x, y):
    data = _mse(model, x, y)
    return data + tf.add_n(model.losses)


def _stale(model, x, y):
    penalties = tf.add_n(model.losses)  # from the previous batch
    return _mse(model, x, y) + penalties


def _matches_on_fresh(function, formula):
    """Compare on fresh cases: `function` and `formula` each get their own models."""
    try:
        got = [np.asarray(function(*case), dtype=np.float64) for case in _model_cases()]
        want = [np.asarray(formula(*case), dtype=np.float64) for case in _model_cases()]
        return all(g.shape == w.shape and np.allclose(g, w, rtol=1e-4, atol=1e-6)
                   for g, w in zip(got, want))
    except Exception:  # noqa: BLE001
        return False


ex3 = Exercise("Exercise 3", [
    "Two parts: the compiled loss on the model's predictions, and what the layers add.",
    "MeanSquaredError()(y, model(x)) + the sum of model.losses, read after the call.",
], mistakes=[
    (lambda f: _matches_on_fresh(f, _mse),
     "That is the data loss only. fit also adds the regularization penalties: "
     "tf.add_n(model.losses)."),
    (lambda f: _matches_on_fresh(f, _stale),
     "model.losses was read before calling the model on x: the activity penalty then "
     "belongs to the previous batch. Call the model first."),
    (lambda f: _matches_on_fresh(f, lambda m, x, y: tf.add_n(
        [tf.reduce_sum(tf.square(y - m(x)))] + list(m.losses))),
     "The data loss is a mean over the batch (sum_over_batch_size), not a sum."),
    (lambda f: _matches_on_fresh(f, lambda m, x, y: tf.add_n(
        (m(x), list(m.losses))[1])),
     "Only the penalties: add the mean squared error of the predictions."),
])


def check_ex3(function):
    """total_loss(model, x, y) on regularized models the lesson never showed."""
    if unattempted(function):
        print(NOT_ATTEMPTED)
        return
    ex3.check_function(function, lambda *case: _total(*case).numpy(), _model_cases(),
                       rtol=1e-4, atol=1e-6)


EXERCISES = [ex1, ex2, ex3]
