"""Lesson 21 (Layers I): checks for the four exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex1((2122, 128))
✓ Exercise 1: correct.
"""
import os
import tempfile

import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, as_tuple, outcome, unattempted


def _exercise_model():
    """The model of exercise 1, built by Keras itself."""
    return tf.keras.Sequential([
        tf.keras.Input(shape=(20,)),
        tf.keras.layers.Dense(64),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.Activation("relu"),
        tf.keras.layers.Dropout(0.3),
        tf.keras.layers.Dense(10, activation="softmax"),
    ])


def _counts():
    model = _exercise_model()
    trainable = sum(int(np.prod(w.shape)) for w in model.trainable_weights)
    return trainable, model.count_params() - trainable


def _pair(answer):
    return tuple(int(n) for n in as_tuple(answer))


ex1 = Exercise("Exercise 1", [
    "Go layer by layer: which layers have weights, and how many numbers does each weight "
    "hold? Then split them into trainable and not.",
    "Dense(units) on n features: n·units + units. BatchNormalization on f features: 4·f, of "
    "which gamma and beta are trainable.",
], mistakes=[
    (lambda a: _pair(a) == (_counts()[0] + _counts()[1], 0),
     "BatchNormalization's moving_mean and moving_variance are updated by the layer, not by "
     "the optimizer: they are not trainable."),
    (lambda a: _pair(a) == (_counts()[0] - 64 - 10, _counts()[1]),
     "Each Dense layer also has a bias: one number per unit."),
    (lambda a: _pair(a) == tuple(reversed(_counts())),
     "The pair is (trainable, non_trainable): the trainable count comes first."),
    (lambda a: _pair(a)[1] == _counts()[1] and _pair(a)[0] != _counts()[0],
     "The non-trainable part is right; recount the trainable one (Dropout and Activation "
     "have no weights)."),
])


def check_ex1(answer):
    """The predicted (trainable, non_trainable) parameter counts of the exercise's model."""
    if unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    pair = as_tuple(answer)
    if not isinstance(pair, tuple) or len(pair) != 2:
        ex1.verdict(answer, "The answer should be a pair (trainable, non_trainable) of two "
                            "whole numbers.")
        return
    ex1.check(pair, _counts(), show_expected=False)


def _trained_layer(seed, features):
    """A built BatchNormalization whose four weights hold values the lesson never showed."""
    rng = np.random.default_rng(seed)
    layer = tf.keras.layers.BatchNormalization(epsilon=0.01)
    layer.build((None, features))
    layer.gamma.assign(rng.uniform(0.5, 2.0, features).astype(np.float32))
    layer.beta.assign(rng.normal(size=features).astype(np.float32))
    layer.moving_mean.assign(rng.normal(3.0, 1.0, features).astype(np.float32))
    layer.moving_variance.assign(rng.uniform(0.01, 0.05, features).astype(np.float32))
    x = tf.constant(rng.normal(3.0, 0.3, (5, features)).astype(np.float32))
    return layer, x


def _bn_cases():
    return [_trained_layer(2121, 3), _trained_layer(2122, 4)]


def _formula(layer, x, mean, variance, epsilon):
    return layer.gamma * (x - mean) / tf.sqrt(variance + epsilon) + layer.beta


def _matches(function, reference):
    """True when `function` agrees with `reference` on every case (never raises)."""
    for layer, x in _bn_cases():
        got = outcome(function, layer, x)
        try:
            if not np.allclose(np.asarray(got), np.asarray(reference(layer, x)), atol=1e-4):
                return False
        except Exception:  # noqa: BLE001 - an answer that cannot be compared does not match
            return False
    return True


def _uses_batch_statistics(function):
    return _matches(function, lambda layer, x: layer(x, training=True))


def _no_epsilon(function):
    return _matches(function, lambda layer, x: _formula(
        layer, x, layer.moving_mean, layer.moving_variance, 0.0))


def _no_square_root(function):
    return _matches(function, lambda layer, x: layer.gamma * (x - layer.moving_mean) / (
        layer.moving_variance + layer.epsilon) + layer.beta)


def _no_gamma_beta(function):
    return _matches(function, lambda layer, x: (x - layer.moving_mean) / tf.sqrt(
        layer.moving_variance + layer.epsilon))


ex2 = Exercise("Exercise 2", [
    "At inference the layer standardizes with statistics it has stored, then scales and "
    "shifts. Which of its four weights does each step use?",
    "(x - moving_mean) / sqrt(moving_variance + epsilon), then times gamma plus beta.",
], mistakes=[
    (_uses_batch_statistics, "That is training mode: it standardizes with the batch's own "
                             "mean and variance. Inference uses the moving statistics."),
    (_no_epsilon, "Almost: the layer adds layer.epsilon to the variance before the square "
                  "root (it matters when a variance is small)."),
    (_no_square_root, "Divide by the standard deviation, the square root of the variance "
                      "(plus epsilon)."),
    (_no_gamma_beta, "The standardized values are then scaled by gamma and shifted by beta."),
])


def _calls_the_layer(function):
    """True when `function` gets its result by calling the layer (never raises)."""
    layer, x = _trained_layer(2123, 2)
    calls = []
    original = layer.call

    def recording_call(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    layer.call = recording_call
    try:
        outcome(function, layer, x)
    finally:
        del layer.call
    return bool(calls)


def check_ex2(function):
    """batch_norm_inference(layer, x) must equal layer(x, training=False) on fresh layers,
    computed from the weights (a function that calls the layer is told so)."""
    if unattempted(function):
        print(NOT_ATTEMPTED)
        return
    if callable(function) and _calls_the_layer(function):
        ex2.verdict(function, "Your function calls the layer; the exercise is to compute the "
                              "result from its weights.")
        return
    cases = _bn_cases()
    references = {id(layer): layer(x, training=False) for layer, x in cases}
    ex2.check_function(function, lambda layer, x: references[id(layer)], cases, atol=1e-4)


def _round_trip(layer_class, limit):
    """Save a model holding layer_class(limit=limit) and load it: (model, loaded) or an error
    message."""
    inputs = tf.keras.Input(shape=(4,))
    outputs = layer_class(limit=limit, name="clip")(inputs)
    model = tf.keras.Model(inputs, outputs)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "clip.keras")
        model.save(path)
        loaded = tf.keras.models.load_model(path)
    return model, loaded


def _config(layer_class, limit=0.25):
    return outcome(lambda: layer_class(limit=limit, name="clip").get_config())


ex3 = Exercise("Exercise 3", [
    "A loader re-creates the layer as Clip(**config): which constructor arguments must the "
    "config hold?",
    "Start from super().get_config() (name, trainable, dtype) and add the layer's own "
    "argument, limit.",
], mistakes=[
    (lambda c: isinstance(_config(c), dict) and "limit" not in _config(c),
     "The config has no 'limit', so the loaded layer gets the default limit=1.0. Add it."),
    (lambda c: isinstance(_config(c), dict) and "name" not in _config(c),
     "Start from super().get_config(): it holds the base layer's entries."),
    (lambda c: isinstance(_config(c, 3.0), dict) and _config(c, 3.0).get("limit") != 3.0,
     "Put the layer's own value, self.limit, in the config, not a fixed number."),
])


def check_ex3(layer_class):
    """Clip must round-trip through a .keras file with a limit the lesson never showed."""
    if unattempted(layer_class) or unattempted(getattr(layer_class, "get_config", None)):
        print(NOT_ATTEMPTED)
        return
    config = _config(layer_class)
    if not isinstance(config, dict):
        what = (f"raised {type(config).__name__}: {config}" if isinstance(config, Exception)
                else f"returned {type(config).__name__}, not a dict")
        ex3.verdict(layer_class, f"get_config {what}. End it with `return config`."
                    if config is None else f"get_config {what}.")
        return
    if "name" not in config or "trainable" not in config:
        ex3.verdict(layer_class, "The config lacks the base layer's entries (name, trainable, "
                                 "dtype), so a loaded layer would not get its name back.")
        return
    other = outcome(lambda: _config(layer_class, 3.0).get("limit"))
    if other != 3.0 and "limit" in config:
        ex3.verdict(layer_class, f"Clip(limit=3.0).get_config() says limit={other!r}: the "
                                 "config should hold the layer's own limit.")
        return
    result = outcome(_round_trip, layer_class, 0.25)
    if isinstance(result, Exception):
        ex3.verdict(layer_class, "Saving or loading a model with your Clip raised "
                                 f"{type(result).__name__}: {str(result)[:200]}")
        return
    model, loaded = result
    x = tf.constant([[-2.0, -0.1, 0.1, 2.0]])
    problem = None
    if getattr(loaded.get_layer("clip"), "limit", None) != 0.25:
        problem = (f"The loaded layer has limit={getattr(loaded.get_layer('clip'), 'limit', None)!r}"
                   ", but the saved one had 0.25.")
    elif not np.allclose(model(x), loaded(x)):
        problem = "The loaded model computes something else than the saved one."
    ex3.verdict(layer_class, problem)


def _dropout_cases():
    """(x, keep_mask, rate) triples the lesson never showed."""
    rng = np.random.default_rng(2124)
    cases = []
    for rate, shape in [(0.25, (2, 5)), (0.6, (3, 4)), (0.1, (1, 6))]:
        x = tf.constant(rng.normal(size=shape).astype(np.float32))
        keep = tf.constant((rng.uniform(size=shape) >= rate).astype(np.float32))
        cases.append((x, keep, rate))
    return cases


def _inverted_dropout(x, keep_mask, rate):
    return x * keep_mask / (1.0 - rate)


def _dropout_agrees(function, formula):
    try:
        return all(np.allclose(np.asarray(function(*case)), np.asarray(formula(*case)),
                               atol=1e-5) for case in _dropout_cases())
    except Exception:  # noqa: BLE001 - an answer that cannot be compared does not match
        return False


ex4 = Exercise("Exercise 4", [
    "Two steps: zero the dropped values, then make up for them so that the expected value "
    "of each output equals its input.",
    "A value survives with probability 1 - rate; divide the survivors by that.",
], mistakes=[
    (lambda f: _dropout_agrees(f, lambda x, m, r: x * m),
     "The dropped values are zeroed, but the survivors are not scaled up: the outputs are "
     "smaller on average than at inference."),
    (lambda f: _dropout_agrees(f, lambda x, m, r: x * m * (1.0 - r)),
     "That scales the survivors down; they must grow, by 1 / (1 - rate)."),
    (lambda f: _dropout_agrees(f, lambda x, m, r: x * m / r),
     "Divide by the probability of keeping a value, 1 - rate, not by rate."),
    (lambda f: _dropout_agrees(f, lambda x, m, r: x * (1.0 - m) / (1.0 - r)),
     "keep_mask is 1 where a value is kept: multiply by it as it is."),
])


def check_ex4(function):
    """inverted_dropout(x, keep_mask, rate) on inputs, masks and rates the lesson never
    showed."""
    if unattempted(function):
        print(NOT_ATTEMPTED)
        return
    ex4.check_function(function, _inverted_dropout, _dropout_cases())


EXERCISES = [ex1, ex2, ex3, ex4]
