"""Lesson 23 (embeddings, recurrent layers, attention): checks for the three exercises.

Each check calls the learner's function on sizes and inputs of its own and
compares with what a Keras layer (or the formula, computed here) gives, so a
number or tensor copied from the lesson fails.

>>> check_ex1(lambda units, features: 3 * (features * units + units * units + 2 * units))
✓ Exercise 1: correct.
>>> check_ex3(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
"""
import numpy as np

import minitf as tf
from widgets.exercises import Exercise, outcome, same

# --- Exercise 1: GRU parameters from the weight shapes -------------------------------

_GRU_SIZES = [(16, 10), (5, 3), (1, 7), (32, 1)]  # (units, features): none is the lesson's


def _gru_count(units, features):
    """What Keras says: build a GRU and count."""
    layer = tf.keras.layers.GRU(units)
    layer.build((None, None, features))
    return layer.count_params()


def _gives(formula):
    """A mistake test: the learner's function agrees with `formula` on every size."""
    def test(function):
        return all(same(outcome(function, u, f), formula(u, f)) for u, f in _GRU_SIZES)
    return test


ex1 = Exercise("Exercise 1", [
    "List the GRU's three weights (kernel, recurrent kernel, bias) with their shapes, then "
    "add up their sizes.",
    "The GRU has three blocks side by side; each block has a kernel (features x units), a "
    "recurrent kernel (units x units) and bias. Print a built GRU's weight shapes to see "
    "the bias's shape.",
], mistakes=[
    (_gives(lambda u, f: 3 * (f * u + u * u + u)),
     "Almost: Keras's GRU uses reset_after=True by default, so its bias has two rows, "
     "shape (2, 3*units)."),
    (_gives(lambda u, f: 4 * (f * u + u * u + u)),
     "That is the LSTM's count (4 blocks). A GRU has 3 blocks: update, reset, candidate."),
    (_gives(lambda u, f: 3 * (f * u + 2 * u)),
     "The recurrent kernel (units x units per block) is missing: each step also multiplies "
     "the previous state."),
    (_gives(lambda u, f: f * u + u * u + 2 * u),
     "That counts one block; a GRU holds three blocks side by side (shapes (f, 3u), "
     "(u, 3u), (2, 3u))."),
])


def check_ex1(gru_param_count):
    """gru_param_count(units, features) must equal GRU(units)'s count_params() on sizes the
    lesson never used."""
    ex1.check_function(gru_param_count, _gru_count, _GRU_SIZES)


# --- Exercise 2: SimpleRNN by hand ---------------------------------------------------


def _rnn_cases():
    rng = np.random.default_rng(2323)
    cases = []
    for batch, steps, features, units in [(3, 6, 4, 5), (1, 2, 3, 2)]:
        x = tf.constant(rng.normal(size=(batch, steps, features)).astype(np.float32))
        weights = [tf.constant(rng.normal(scale=0.6, size=s).astype(np.float32))
                   for s in [(features, units), (units, units), (units,)]]
        cases.append((x, *weights))
    return cases


def _layer_last_state(x, kernel, recurrent_kernel, bias):
    layer = tf.keras.layers.SimpleRNN(kernel.shape[1])
    layer.build(x.shape)
    layer.set_weights([kernel.numpy(), recurrent_kernel.numpy(), bias.numpy()])
    return layer(x)


def _loop(x, kernel, recurrent_kernel, bias, activation=tf.tanh, reverse=False,
          steps=None):
    h = tf.zeros([x.shape[0], kernel.shape[1]])
    order = range(x.shape[1] if steps is None else steps)
    for t in (reversed(order) if reverse else order):
        h = activation(tf.matmul(x[:, t], kernel) + tf.matmul(h, recurrent_kernel) + bias)
    return h


def _matches_on_cases(variant):
    def test(function):
        return all(same(outcome(function, *case), variant(*case)) for case in _rnn_cases())
    return test


def _returns_every_step(function):
    result = outcome(function, *_rnn_cases()[0])
    return getattr(result, "shape", None) is not None and len(result.shape) == 3


ex2 = Exercise("Exercise 2", [
    "Start from h = zeros (batch, units) and update it once per step, using x[:, t].",
    "h = tanh(x_t @ kernel + h @ recurrent_kernel + bias), for t from the first step to the "
    "last; return h after the loop.",
], mistakes=[
    (_returns_every_step, "Only the final state is asked for, shape (batch, units), not "
                          "every step's output."),
    (_matches_on_cases(lambda *c: _loop(*c, activation=lambda z: z)),
     "The tanh is missing: each step squashes the sum with tanh."),
    (_matches_on_cases(lambda *c: _loop(*c, reverse=True)),
     "The steps run backwards: the state reads the sequence from t = 0 forwards."),
    (_matches_on_cases(lambda *c: _loop(*c, steps=1)),
     "Only the first step was used: loop over every step, feeding the state back in."),
])


def check_ex2(last_state):
    """last_state(x, kernel, recurrent_kernel, bias) must equal a SimpleRNN with those
    weights, on batches the lesson never showed."""
    ex2.check_function(last_state, _layer_last_state, _rnn_cases(), atol=1e-5)


# --- Exercise 3: scaled dot-product attention weights --------------------------------


def _attention_cases():
    rng = np.random.default_rng(2324)
    return [tuple(tf.constant(rng.normal(size=s).astype(np.float32)) for s in shapes)
            for shapes in [((1, 3, 4), (1, 6, 4)), ((2, 5, 9), (2, 2, 9))]]


def _weights(query, key, scale=None, axis=-1):
    q, k = query.numpy().astype(np.float64), key.numpy().astype(np.float64)
    scores = q @ np.swapaxes(k, -1, -2)
    scores = scores / (np.sqrt(q.shape[-1]) if scale is None else scale(q.shape[-1]))
    scores = np.exp(scores - scores.max(axis=axis, keepdims=True))
    return tf.constant((scores / scores.sum(axis=axis, keepdims=True)).astype(np.float32))


def _attention_matches(**variant):
    def test(function):
        return all(same(outcome(function, *case), _weights(*case, **variant), atol=1e-5)
                   for case in _attention_cases())
    return test


ex3 = Exercise("Exercise 3", [
    "Three steps: the scores Q Kᵀ (one row per query), the scaling, then a softmax that "
    "makes each row sum to 1.",
    "tf.matmul(query, key, transpose_b=True) gives (batch, queries, keys); divide by the "
    "square root of the last dimension d; tf.nn.softmax over axis=-1.",
], mistakes=[
    (_attention_matches(scale=lambda d: 1.0), "The scaling is missing: divide the scores by "
                                              "√d before the softmax."),
    (_attention_matches(scale=lambda d: d), "Scale by the square root of d, not by d."),
    (_attention_matches(axis=-2), "The softmax runs over the queries; each query's row "
                                  "(over the keys, axis=-1) must sum to 1."),
    (_attention_matches(scale=lambda d: 1.0 / np.sqrt(d)), "The scores are multiplied by "
                                                           "√d; divide instead."),
])


def check_ex3(scaled_attention_weights):
    """scaled_attention_weights(query, key) must equal softmax(Q Kᵀ / √d) on inputs the
    lesson never showed."""
    ex3.check_function(scaled_attention_weights, _weights, _attention_cases(), atol=1e-5)


EXERCISES = [ex1, ex2, ex3]
