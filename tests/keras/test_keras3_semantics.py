"""Keras 3 semantics where they differ from TF's own (tf.random) and from Keras 2.

Initializer seeding: a Keras 3 initializer made with `seed=None` takes
`random.randint(1, 10**9)` from Python's `random` when it is made, and draws
with the stateless ops on [seed, 0] (through Philox, TF's numbers). So
`tf.keras.utils.set_random_seed` fixes a model's weights and `tf.random.set_seed`
does not. All real-Keras comparisons of this file run in one TF subprocess.
"""
import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

# name -> code run in both (with `tf` and `keras`); its last value is compared
INIT_NAMES = ["RandomNormal", "RandomUniform", "TruncatedNormal", "GlorotNormal",
              "GlorotUniform", "HeNormal", "HeUniform", "LecunNormal", "LecunUniform",
              "Orthogonal"]
CASES = {f"init:{name}": f"keras.initializers.{name}(seed=5)((3, 4))" for name in INIT_NAMES}
CASES.update({
    "init:untruncated": "keras.initializers.VarianceScaling(2., 'fan_out', 'untruncated_normal',"
                        " seed=9)((2, 3, 4))",
    "init:unseeded": "keras.utils.set_random_seed(4) or keras.initializers.HeNormal()((5,))",
    "dense": "keras.utils.set_random_seed(0) or weights(keras.layers.Dense(2), (1, 3))",
    "conv2d": "keras.utils.set_random_seed(3) or weights(keras.layers.Conv2D(2, 3), (1, 5, 5, 1))",
    "embedding": "keras.utils.set_random_seed(3) or weights(keras.layers.Embedding(4, 2), (1, 3))",
    "lstm": "keras.utils.set_random_seed(8) or weights(keras.layers.LSTM(2), (1, 3, 2))",
    "sequential": "keras.utils.set_random_seed(1) or weights(keras.Sequential(["
                  "keras.Input((3,)), keras.layers.Dense(4, activation='relu'), "
                  "keras.layers.Dense(1)]), None)",
    "tf_set_seed_does_not_fix": "not_fixed_by_tf_set_seed()",
    "seed_generator": "seed_generator_draws()",
    "random_global": "keras.utils.set_random_seed(11) or [keras.random.normal((2,)), "
                     "keras.random.uniform((3,))]",
    "random_int_seed": "[keras.random.uniform((3,), seed=7), keras.random.truncated_normal("
                       "(4,), seed=2**33 + 1), keras.random.randint((3,), 0, 9, seed=4)]",
})
PRELUDE = '''
def weights(layer, input_shape):
    if input_shape is not None:
        layer(tf.ones(input_shape))
    return [w for w in layer.weights]

def not_fixed_by_tf_set_seed():
    tf.random.set_seed(1)
    a = keras.layers.Dense(2)
    a.build((None, 3))
    tf.random.set_seed(1)
    b = keras.layers.Dense(2)
    b.build((None, 3))
    return bool(np.array_equal(a.kernel.numpy(), b.kernel.numpy()))

def seed_generator_draws():
    gen = keras.random.SeedGenerator(42)
    draws = [keras.random.normal((3,), seed=gen), keras.random.normal((3,), seed=gen)]
    return draws + [gen.state.numpy()]
'''
TF_CODE = f'''
import json
import numpy as np
import tensorflow as tf
import keras
{PRELUDE}
def plain(v):
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, bool):
        return v
    v = tf.convert_to_tensor(v)
    return [v.dtype.name, v.numpy().tolist()]
out = {{}}
for name, expr in {CASES!r}.items():
    out[name] = plain(eval(expr))
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def keras_results():
    return run_tf_json(TF_CODE)


def _check(name, ours, theirs):
    if isinstance(theirs, bool):
        assert ours is theirs, name
        return
    if isinstance(theirs[0], list):
        assert len(ours) == len(theirs), name
        for o, t in zip(ours, theirs):
            _check(name, o, t)
        return
    ours = tf.convert_to_tensor(ours)
    assert ours.dtype.name == theirs[0], name
    want = np.asarray(theirs[1], ours.dtype.as_numpy_dtype)
    assert ours.shape == want.shape, name
    if ours.dtype.is_floating:  # normals: 2 ulp (C's logf/sinf); QR: a few more
        np.testing.assert_allclose(ours.numpy(), want, rtol=2e-6, atol=2e-7, err_msg=name)
    else:
        np.testing.assert_array_equal(ours.numpy(), want, err_msg=name)


def test_weights_and_draws_equal_keras(keras_results):
    namespace = {"tf": tf, "keras": tf.keras, "np": np}
    exec(PRELUDE, namespace)
    assert set(keras_results) == set(CASES)
    for name, expr in CASES.items():
        _check(name, eval(expr, namespace), keras_results[name])
    tf.random.set_seed(None)


# --- without TF ---------------------------------------------------------------------------------
def test_dense_kernel_is_the_one_keras_makes():
    """Printed by Keras 3.15 on TF 2.21 for this exact program."""
    tf.keras.utils.set_random_seed(0)
    layer = tf.keras.layers.Dense(2)
    layer(tf.ones((1, 3)))
    np.testing.assert_array_equal(layer.kernel.numpy(), np.float32(
        [[0.03436267375946045, -0.41832423210144043], [0.7425023317337036, -0.8618922233581543],
         [-0.23019659519195557, -0.686377227306366]]))
    tf.random.set_seed(None)


def test_unseeded_initializer_takes_its_seed_from_python_random_when_made():
    import random
    random.seed(3)
    expected = random.randint(1, 10**9)
    random.seed(3)
    init = tf.keras.initializers.RandomUniform()
    assert init.seed == expected and init.get_config()["seed"] is None
    same = tf.keras.initializers.RandomUniform(seed=expected)
    np.testing.assert_array_equal(init((4,)).numpy(), same((4,)).numpy())
    np.testing.assert_array_equal(init((4,)).numpy(), init((4,)).numpy())  # fixed per object


def test_tf_random_set_seed_does_not_fix_keras_weights_but_set_random_seed_does():
    def kernel(seed_fn):
        seed_fn(7)
        layer = tf.keras.layers.Dense(3)
        layer.build((None, 2))
        return layer.kernel.numpy()

    assert not np.array_equal(kernel(tf.random.set_seed), kernel(tf.random.set_seed))
    assert np.array_equal(kernel(tf.keras.utils.set_random_seed),
                          kernel(tf.keras.utils.set_random_seed))
    tf.random.set_seed(None)


def test_seed_generator_seed_draws_anew_each_call_and_serializes():
    gen = tf.keras.random.SeedGenerator(42)
    init = tf.keras.initializers.RandomNormal(seed=gen)
    first, second = init((3,)), init((3,))
    assert not np.array_equal(first.numpy(), second.numpy())
    assert gen.state.numpy().tolist() == [42, 2]
    config = init.get_config()["seed"]
    assert config["class_name"] == "SeedGenerator" and config["config"]["seed"] == 42
    with pytest.raises(ValueError, match="should be an instance of `keras.random.SeedGenerator"):
        tf.keras.initializers.RandomNormal(seed=1.5)
