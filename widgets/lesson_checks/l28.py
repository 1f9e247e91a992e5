"""Lesson 28 (Training three ways): checks for the two exercises.

>>> check_ex2(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex2((27, 312))
✓ Exercise 2: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, as_tuple, outcome, same, unattempted


# --- exercise 1: one training step, written by hand ------------------------------------

def _setup(seed):
    """A compiled model with weights and a batch drawn from `seed` (twice the same)."""
    rng = np.random.default_rng(seed)
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)),
                                 tf.keras.layers.Dense(2, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.weights])
    x = rng.normal(size=(6, 3)).astype("float32")
    y = rng.normal(size=(6, 1)).astype("float32")
    return model, x, y


def _learner_run(function, seed):
    """(weights after the learner's step, its result, weights before, the batch loss)."""
    model, x, y = _setup(seed)
    before = model.get_weights()
    loss = float(np.mean((model(x).numpy() - y) ** 2))
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
    result = function(model, optimizer, tf.keras.losses.MeanSquaredError(),
                      tf.constant(x), tf.constant(y))
    return model.get_weights(), result, before, loss


def _reference_weights(seed):
    model, x, y = _setup(seed)
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    model.train_on_batch(x, y)
    return model.get_weights()


def _weights_equal(a, b):
    return len(a) == len(b) and all(np.allclose(u, v, atol=1e-6) for u, v in zip(a, b))


ex1 = Exercise("Exercise 1", [
    "Three parts: the forward pass and the loss under `tf.GradientTape()`, "
    "`tape.gradient(...)`, then `optimizer.apply_gradients(...)`.",
    "apply_gradients takes pairs: `zip(gradients, model.trainable_variables)`; return the "
    "loss computed under the tape.",
])


def check_ex1(one_step):
    """`one_step` updates the weights as train_on_batch does and returns the batch's loss."""
    if unattempted(one_step):
        print(NOT_ATTEMPTED)
        return
    if not callable(one_step):
        ex1.verdict(one_step, "The answer should be the function one_step.")
        return
    for seed in (2801, 2802):
        run = outcome(_learner_run, one_step, seed)
        if isinstance(run, Exception):
            ex1.verdict(one_step, f"one_step raised {type(run).__name__}: {run}")
            return
        after, result, before, loss = run
        if _weights_equal(after, before):
            ex1.verdict(one_step, "The weights did not change: the step computes gradients "
                                  "but never applies them (optimizer.apply_gradients).")
            return
        if not _weights_equal(after, _reference_weights(seed)):
            ex1.verdict(one_step, "The weights changed, but not as train_on_batch changes "
                                  "them from the same start.")
            return
        if result is None:
            ex1.verdict(one_step, "The weights are right, but one_step returned None: "
                                  "return the loss.")
            return
        if not same(np.asarray(result, dtype="float64").reshape(()), np.float64(loss),
                    rtol=1e-4, atol=1e-5):
            ex1.verdict(one_step, "The weights are right, but the value returned is not the "
                                  "batch's loss before the update.")
            return
    ex1.verdict(one_step, None)


# --- exercise 2: what a frozen trunk leaves trainable -------------------------------

def _ex2_model():
    """The exercise's model, built by Keras itself."""
    trunk = tf.keras.Sequential([
        tf.keras.Input(shape=(10,)),
        tf.keras.layers.Dense(16, activation="relu"),
        tf.keras.layers.Dense(8, activation="relu"),
    ])
    trunk.trainable = False
    inputs = tf.keras.Input(shape=(10,))
    return tf.keras.Model(inputs, tf.keras.layers.Dense(3)(trunk(inputs)))


def _counts():
    model = _ex2_model()
    trainable = sum(int(np.prod(w.shape)) for w in model.trainable_weights)
    return trainable, model.count_params() - trainable


def _pair(answer):
    return tuple(int(n) for n in as_tuple(answer))


ex2 = Exercise("Exercise 2", [
    "Only the head's Dense layer is trained; every weight of the frozen trunk is fixed.",
    "Dense(units) on n features: n·units + units. The trunk has two Dense layers, the head "
    "one, on the trunk's last 8 features.",
], mistakes=[
    (lambda a: _pair(a) == (sum(_counts()), 0),
     "`trunk.trainable = False` freezes the trunk: its weights are not trainable any more."),
    (lambda a: _pair(a) == tuple(reversed(_counts())),
     "The pair is (trainable, non_trainable): the trainable count comes first."),
    (lambda a: _pair(a)[0] == 10 * 3 + 3,
     "The head does not see the 10 input features: it sees the trunk's output."),
    (lambda a: _pair(a) == (_counts()[0] - 3, _counts()[1] - 16 - 8),
     "Each Dense layer also has a bias: one number per unit."),
])


def check_ex2(answer):
    """The predicted (trainable, non_trainable) parameter counts of the exercise's model."""
    if unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    pair = as_tuple(answer)
    if not isinstance(pair, tuple) or len(pair) != 2:
        ex2.verdict(answer, "The answer should be a pair (trainable, non_trainable) of two "
                            "whole numbers.")
        return
    ex2.check(pair, _counts(), show_expected=False)


EXERCISES = [ex1, ex2]
