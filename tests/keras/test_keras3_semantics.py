"""Keras 3 semantics where they differ from TF's own (tf.random) and from Keras 2.

Tracking and errors: a raw `tf.Variable` (or a `tf.Module`) assigned to a Layer
attribute is not a weight; a non-tensor positional argument and a positional
`add_weight` name raise Keras 3's ValueErrors; a `TensorShape` is a shape.

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
    # what a Layer tracks, the errors of Keras 3's Layer, and TensorShape as a shape
    "tracking": "tracking()",
    "error:int_positional": "error(lambda: TwoArgs()(tf.ones(2), 3))",
    "error:list_positional": "error(lambda: keras.layers.Dense(1)([[1., 2.]]))",
    "error:bool_positional": "error(lambda: TwoArgs()(tf.ones(2), True))",
    "ok:none_and_array_positional": "TwoArgs()(np.ones(2, np.float32), None)",
    "ok:string_lookup_list": "keras.layers.StringLookup(vocabulary=['a', 'b'])(['b', 'c'])",
    "error:add_weight_name": "error(lambda: keras.layers.Layer().add_weight('w', (2,)))",
    "shape:add_weight": "keras.layers.Layer().add_weight(tf.TensorShape([2, 3])).shape",
    "shape:input": "keras.Input(tf.TensorShape([3, 4])).shape",
    "shape:reshape": "keras.layers.Reshape(tf.TensorShape([2, 2]))(tf.ones((1, 4))).shape",
    "shape:build": "built_kernel_shape(tf.TensorShape([None, 3]))",
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

class Holder(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.raw = tf.Variable([1., 2.])          # a tf.Variable: not tracked by Keras 3
        self.raws = [tf.Variable(1.)]
        self.module = tf.Module()
        self.module.v = tf.Variable(5.)
        self.kept = keras.Variable([3., 4.])     # a keras.Variable: tracked
    def call(self, x):
        return x * self.raw[0]

def tracking():
    layer = Holder()
    model = keras.Sequential([keras.Input((2,)), layer])
    return [len(layer.weights), len(layer.trainable_variables), len(layer.variables),
            model.count_params(), len(model.trainable_weights)]

class TwoArgs(keras.layers.Layer):
    def call(self, x, y=None):
        return x

def error(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__ + ": " + str(e)
    return "no error"

def built_kernel_shape(shape):
    layer = keras.layers.Dense(2)
    layer.build(shape)
    return layer.kernel.shape

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
    if isinstance(v, list) and not all(isinstance(x, int) for x in v):
        return [plain(x) for x in v]
    if isinstance(v, (bool, str)):
        return v
    if isinstance(v, tuple) or type(v).__name__ == "TensorShape":
        return ["shape", list(v)]
    if isinstance(v, list) and all(isinstance(x, int) for x in v):
        return ["ints", v]
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
    if isinstance(theirs, (bool, str)):
        assert ours == theirs, name
        return
    if theirs[0] in ("shape", "ints"):
        assert list(ours) == theirs[1], name
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


def test_raw_tf_variables_and_modules_are_not_tracked_keras_variables_are():
    namespace = {"tf": tf, "keras": tf.keras, "np": np}
    exec(PRELUDE, namespace)
    layer = namespace["Holder"]()
    assert [w.name for w in layer.weights] == [layer.kept.name]
    assert layer.trainable_variables == [layer.kept] and layer.variables == [layer.kept]
    model = tf.keras.Sequential([tf.keras.Input((2,)), layer])
    assert model.count_params() == 2  # the kept (2,) variable only
    weight = layer.add_weight(shape=(3,), name="w")
    assert layer.weights == [layer.kept, weight]


def test_layer_call_takes_only_tensors_positionally():
    namespace = {"tf": tf, "keras": tf.keras, "np": np}
    exec(PRELUDE, namespace)
    two = namespace["TwoArgs"]()
    with pytest.raises(ValueError, match=r"^Only input tensors may be passed as positional "
                       r"arguments\. The following argument value should be passed as a "
                       r"keyword argument: 3 \(of type <class 'int'>\)$"):
        two(tf.ones(2), 3)
    with pytest.raises(ValueError, match="keyword argument: 1.0"):
        tf.keras.layers.Dense(1)([[1.0, 2.0]])   # a Python list is not a tensor in Keras 3
    assert two(np.ones(2), None).shape == [2]      # arrays become tensors; None is allowed
    assert two(tf.ones(2), y=3).shape == [2]       # non-tensors go by keyword
    assert tf.keras.layers.Rescaling(2.0)([1.0]).numpy().tolist() == [2.0]  # data layers
    assert tf.keras.layers.Dense(1)(tf.ones((1, 2)), training=True).shape == [1, 1]


def test_add_weight_name_goes_by_keyword():
    with pytest.raises(ValueError, match=r"^`name` must be passed as a keyword argument\. "
                       r"Received: add_weight\('w', \.\.\.\)\. Use: add_weight\(shape=\.\.\., "
                       r"name='w'\)\.$"):
        tf.keras.layers.Layer().add_weight("w", (2,))
    assert tf.keras.layers.Layer().add_weight((2,), "ones", name="w").numpy().tolist() == [1, 1]


def test_tensor_shape_is_accepted_as_a_shape():
    shape = tf.TensorShape
    assert tf.keras.layers.Layer().add_weight(shape([2, 3])).shape == [2, 3]
    assert tf.keras.Input(shape([3, 4])).shape == (None, 3, 4)
    assert tf.keras.layers.Reshape(shape([2, 2]))(tf.ones((1, 4))).shape == [1, 2, 2]
    dense = tf.keras.layers.Dense(2)
    dense.build(shape([None, 3]))
    assert dense.kernel.shape == [3, 2]
