"""Lesson 27 (Building models three ways): checks for the three exercises.

>>> check_ex2(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex2(40)
✓ Exercise 2: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, outcome, same, unattempted


# --- exercise 1: the Sequential model, written functionally ---------------------------

def _reference(seed):
    """The exercise's Sequential model, with weights drawn from `seed`."""
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(6,)),
        tf.keras.layers.Dense(5, activation="tanh"),
        tf.keras.layers.Dropout(0.2),
        tf.keras.layers.Dense(2, activation="softmax"),
    ])
    rng = np.random.default_rng(seed)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.weights])
    return model, tf.constant(rng.normal(size=(7, 6)).astype("float32"))


def _copied_outputs(model, seed, **call_kwargs):
    """`model`'s outputs with the reference model's weights, and the reference's outputs."""
    reference, x = _reference(seed)
    model.set_weights(reference.get_weights())
    return model(x, **call_kwargs), reference(x)


def _other_activation(model):
    """True when `model` has the right sizes but its first layer's activation is not tanh."""
    reference, x = _reference(2701)
    model.set_weights(reference.get_weights())
    return not same(model(x), reference(x), atol=1e-5) and any(
        getattr(layer, "activation", None) is not None
        and getattr(layer.activation, "__name__", "") != "tanh"
        and getattr(layer, "units", None) == 5 for layer in model.layers)


ex1 = Exercise("Exercise 1", [
    "Start from `inputs = tf.keras.Input(shape=(6,))`, call each layer on the previous "
    "result, and return `tf.keras.Model(inputs, outputs)`.",
    "Every layer of the Sequential list appears once, with the same arguments, in the same "
    "order (Dropout too: it has no weights, so it does not change the weight order).",
], mistakes=[
    (_other_activation, "The sizes are right; look at each Dense layer's `activation` "
                        "argument: the hidden layer uses tanh, the last one softmax."),
])


def _model_problem(model):
    """What is wrong with the returned object as a model (None when it is a functional model)."""
    if not isinstance(model, tf.keras.Model):
        return f"make_functional() returned a {type(model).__name__}, not a model."
    if isinstance(model, tf.keras.Sequential):
        return ("make_functional() returned a Sequential model; the exercise asks for the "
                "functional spelling, tf.keras.Model(inputs, outputs).")
    if not model.built or getattr(model, "inputs", None) is None:
        return "The model has no inputs yet: build it from a tf.keras.Input."
    expected = _reference(2701)[0].count_params()
    if model.count_params() != expected:
        return (f"The model has {model.count_params()} parameters; the Sequential model has "
                "another count, so a layer's size differs.")
    return None


def check_ex1(make_functional):
    """`make_functional()` returns a functional model equal to the exercise's Sequential."""
    if unattempted(make_functional):
        print(NOT_ATTEMPTED)
        return
    if not callable(make_functional):
        ex1.verdict(make_functional, "The answer should be the function make_functional.")
        return
    model = outcome(make_functional)
    if isinstance(model, Exception):
        ex1.verdict(None, f"make_functional() raised {type(model).__name__}: {model}")
        return
    if model is None:
        ex1.verdict(None, "make_functional() returned None: is its `return` missing?")
        return
    problem = _model_problem(model)
    if problem is None:
        for seed in (2701, 2702):
            got = outcome(_copied_outputs, model, seed)
            if isinstance(got, Exception):
                problem = f"Copying the weights and calling the model failed: {got}"
                break
            if not same(got[0], got[1], atol=1e-5):
                problem = "With the Sequential model's weights, the outputs differ."
                break
    ex1.verdict(model, problem)


# --- exercise 2: a two-input model's parameter count -------------------------------

def _ex2_model():
    """The exercise's two-input model, built by Keras itself."""
    a = tf.keras.Input(shape=(5,))
    b = tf.keras.Input(shape=(3,))
    a_features = tf.keras.layers.Dense(4)(a)
    joined = tf.keras.layers.Concatenate()([a_features, b])
    output = tf.keras.layers.Dense(2)(joined)
    return tf.keras.Model([a, b], output)


def _count():
    return _ex2_model().count_params()


ex2 = Exercise("Exercise 2", [
    "Only the Dense layers have weights. For each: how many features come in, how many "
    "units go out?",
    "Dense(units) on n features holds n·units + units numbers; Concatenate puts its inputs' "
    "features side by side.",
], mistakes=[
    (lambda a: a == 5 * 4 + (5 + 3) * 2 + 2 + 4,
     "The second Dense layer does not see `a`'s 5 features: it sees what Concatenate joins, "
     "the first Dense layer's 4 outputs and `b`'s 3 features."),
    (lambda a: a == 5 * 4 + 7 * 2,
     "Each Dense layer also has a bias: one number per unit."),
    (lambda a: a == 7 * 2 + 2,
     "That is the last layer only: the first Dense layer has weights too."),
    (lambda a: a == 5 * 4 + 4 + 3 * 2 + 2,
     "The second Dense layer takes all the joined features, not only `b`'s."),
])


def check_ex2(answer):
    """The predicted total parameter count of the exercise's two-input model."""
    if unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    if isinstance(answer, bool) or not isinstance(answer, (int, np.integer, float, np.floating)):
        ex2.verdict(answer, f"The answer should be a whole number, not a "
                            f"{type(answer).__name__}.")
        return
    ex2.check(answer, _count(), show_expected=False)


# --- exercise 3: a subclassed residual block ----------------------------------------

def _ex3_cases():
    """(units, batch) pairs the lesson never showed."""
    rng = np.random.default_rng(2703)
    return [(units, tf.constant(rng.normal(size=(3, units)).astype("float32")))
            for units in (4, 7)]


def _formula(model, x, kind):
    inner = model.second(model.first(x))
    return {"right": tf.nn.relu(x + inner), "no_skip": tf.nn.relu(inner),
            "no_relu": x + inner, "relu_first": x + tf.nn.relu(inner)}[kind]


def _matches(cls, kind):
    """True when `cls(units)(x)` equals the formula `kind` on every case (never raises)."""
    try:
        for units, x in _ex3_cases():
            model = cls(units)
            got = model(x)
            if not same(got, _formula(model, x, kind), atol=1e-5):
                return False
        return True
    except Exception:  # noqa: BLE001 - an answer that cannot run does not match
        return False


ex3 = Exercise("Exercise 3", [
    "Compute the block first, `self.second(self.first(x))`; then add the input and apply "
    "ReLU.",
    "The skip connection is the `x + ...`; `tf.nn.relu` comes last, after the addition.",
], mistakes=[
    (lambda cls: _matches(cls, "no_skip"),
     "The input never reaches the output: a residual block adds `x` to the block's result."),
    (lambda cls: _matches(cls, "no_relu"),
     "The sum is right; a residual block then applies ReLU to it."),
    (lambda cls: _matches(cls, "relu_first"),
     "ReLU comes after the addition, not before it."),
])


def check_ex3(cls):
    """`cls(units)` computes relu(x + second(first(x))) (tried on sizes of the check's own)."""
    if cls is None or cls is Ellipsis:
        print(NOT_ATTEMPTED)
        return
    if not (isinstance(cls, type) and issubclass(cls, tf.keras.Model)):
        ex3.verdict(cls, "The answer should be the class ResidualMLP itself (a tf.keras.Model "
                         "subclass), not an instance or another object.")
        return
    try:
        for units, x in _ex3_cases():
            model = cls(units)
            got = model(x)
            if got is None:
                print(NOT_ATTEMPTED)
                return
            if not same(got, _formula(model, x, "right"), atol=1e-5):
                ex3.verdict(cls, f"For units={units} the output is not relu(x + "
                                 "second(first(x))).")
                return
    except Exception as exc:  # noqa: BLE001 - the learner's code may raise anything
        ex3.verdict(cls, f"Calling the model raised {type(exc).__name__}: {exc}")
        return
    ex3.verdict(cls, None)


EXERCISES = [ex1, ex2, ex3]
