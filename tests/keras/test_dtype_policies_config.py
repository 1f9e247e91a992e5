"""tf.keras.config, tf.keras.dtype_policies and tf.keras.mixed_precision (Keras 3.15)."""
import io
import json
import logging
import warnings

import numpy as np
import pytest

import minitf as tf
from minitf.keras.saving import object_registration
from real_tf import run_tf_json

keras = tf.keras
# Run here and in real Keras; the `out` dicts must be equal.
PROBE = """
def outcome(f):
    try:
        r = f()
        return r if isinstance(r, (str, int, float, list, dict, bool, type(None))) else repr(r)
    except Exception as e:
        return f"{type(e).__name__}: {e}"
dp = keras.dtype_policies
out = {}
out["repr"] = outcome(lambda: [repr(dp.get(n)) for n in ("mixed_float16", "mixed_bfloat16", "float64", "int32")])
out["dtypes"] = outcome(lambda: [(p.compute_dtype, p.variable_dtype, p.name) for p in map(dp.get, ("mixed_float16", "bfloat16", "float16"))])
out["float_repr"] = outcome(lambda: repr(dp.FloatDTypePolicy("float16")))
out["eq"] = outcome(lambda: [dp.FloatDTypePolicy("float16") == dp.DTypePolicy("float16"), dp.DTypePolicy("float16") == "float16"])
out["bad_name"] = outcome(lambda: dp.DTypePolicy("float17"))
out["bad_type"] = outcome(lambda: dp.DTypePolicy(3))
out["get_bad"] = outcome(lambda: dp.get(3.5))
out["get_dtype"] = outcome(lambda: repr(dp.get(np.float16)))
out["serialize"] = outcome(lambda: dp.serialize(dp.DTypePolicy("mixed_float16")))
out["deserialize"] = outcome(lambda: repr(dp.deserialize({"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float64"}, "registered_name": None})))
out["deserialize_float"] = outcome(lambda: repr(dp.deserialize(dp.serialize(dp.FloatDTypePolicy("float16")))))
def pmap():
    m = dp.DTypePolicyMap(default_policy="float32")
    m["encoder/layer_0/dense"] = "bfloat16"
    m["encoder/.*"] = dp.DTypePolicy("float16")
    m["decoder"] = "bfloat16"
    r = [m["encoder/layer_0/dense"].name, m["encoder/attention/query"].name, m["decoder/attention"].name, m.name, m.compute_dtype, len(m), list(m), "decoder" in m]
    m["encoder/attention/.*"] = "bfloat16"
    r.append(outcome(lambda: m["encoder/attention/query"]))
    r.append(outcome(lambda: m.__setitem__("decoder", "float16")))
    r.append(m.get_config())
    r.append(dp.serialize(m))
    m2 = dp.DTypePolicyMap()
    m2["a"] = "float16"
    r.append(m2.get_config())
    r.append(m2.name)
    back = dp.deserialize(dp.serialize(m))
    r.append([back["decoder"].name, back.default_policy.name, type(back).__name__])
    r.append(outcome(lambda: dp.DTypePolicyMap(policy_map=[1])))
    r.append(outcome(lambda: m2.__setitem__("b", 3.5)))
    return r
out["map"] = outcome(pmap)
def glob():
    mp = keras.mixed_precision
    mp.set_global_policy("mixed_float16")
    r = [repr(mp.global_policy()), repr(keras.config.dtype_policy()), repr(mp.dtype_policy())]
    layer = keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")
    x = np.array([[0.1, 0.2, 0.3333]], "float32")
    y = layer(x)
    r += [str(y.dtype.name), layer.kernel.dtype if isinstance(layer.kernel.dtype, str) else layer.kernel.dtype.name, layer.compute_dtype, layer.variable_dtype, layer.dtype, np.asarray(y).astype(float).tolist()]
    r.append(layer.get_config()["dtype"])
    other = keras.layers.Dense(2, dtype="float32")
    r.append(repr(other.dtype_policy))
    inp = keras.Input((3,))
    h = keras.layers.Dense(4)(inp)
    o = keras.layers.Activation("linear", dtype="float32")(h)
    r.append([h.dtype if isinstance(h.dtype, str) else h.dtype.name, o.dtype if isinstance(o.dtype, str) else o.dtype.name])
    mp.set_global_policy("float32")
    r.append(outcome(lambda: keras.config.set_dtype_policy(None)))
    r.append(outcome(lambda: keras.config.set_dtype_policy(3)))
    r.append(repr(keras.config.dtype_policy()))
    return r
out["global"] = outcome(glob)
out["std"] = outcome(lambda: [keras.utils.standardize_dtype(d) for d in (None, int, float, bool, str, "int", complex, np.int32, np.dtype("float16"), "uint8")])
out["std_bad"] = outcome(lambda: keras.utils.standardize_dtype("float17"))
out["config"] = outcome(lambda: [keras.config.backend(), keras.config.max_epochs(), keras.config.max_steps_per_epoch(), keras.config.is_traceback_filtering_enabled(), keras.config.is_interactive_logging_enabled()])
"""


@pytest.fixture
def mixed():
    keras.mixed_precision.set_global_policy("mixed_float16")
    yield
    keras.mixed_precision.set_global_policy("float32")


def test_policy_names_split_into_compute_and_variable_dtypes():
    policy = keras.dtype_policies.get("mixed_float16")
    assert (policy.compute_dtype, policy.variable_dtype) == ("float16", "float32")
    assert repr(keras.mixed_precision.Policy("float64")) == '<DTypePolicy "float64">'
    assert keras.FloatDTypePolicy("float16") == keras.DTypePolicy("float16")
    with pytest.raises(ValueError, match="Cannot convert 'float17' to a mixed precision"):
        keras.DTypePolicy("float17")
    with pytest.raises(TypeError, match="'name' must be a string"):
        keras.DTypePolicy(3)


def test_serialize_deserialize_round_trip():
    config = keras.dtype_policies.serialize(keras.DTypePolicy("mixed_bfloat16"))
    assert config == {"module": "keras", "class_name": "DTypePolicy",
                      "config": {"name": "mixed_bfloat16"}, "registered_name": None}
    assert keras.dtype_policies.deserialize(config) == keras.DTypePolicy("mixed_bfloat16")
    with pytest.raises(TypeError, match="Could not locate class 'Nope'"):
        keras.dtype_policies.deserialize({"class_name": "Nope", "config": {}})


def test_dtype_policy_map_matches_exact_keys_then_regexes():
    policies = keras.dtype_policies.DTypePolicyMap(default_policy="float32")
    policies["encoder/.*"] = "float16"
    policies["encoder/dense"] = "bfloat16"
    assert [policies[k].name for k in ("encoder/dense", "encoder/attn", "decoder")] == [
        "bfloat16", "float16", "float32"]
    policies["encoder/a.*"] = "float16"
    with pytest.raises(ValueError, match="matches multiple dtype policy"):
        policies["encoder/attn"]
    back = keras.dtype_policies.deserialize(keras.dtype_policies.serialize(policies))
    assert back["encoder/dense"].name == "bfloat16" and back.name == "map_float32"


def test_mixed_float16_computes_in_float16_with_float32_variables(mixed):
    layer = keras.layers.Dense(2, kernel_initializer="ones")
    x = np.array([[0.1, 0.2, 0.3333]], "float32")
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_sum(tf.cast(y, "float32") ** 2)
    assert y.dtype == tf.float16 and layer.kernel.dtype == tf.float32
    expected = np.float16(x.astype(np.float16) @ np.ones((3, 2), np.float16))
    np.testing.assert_array_equal(y.numpy(), expected)
    grads = tape.gradient(loss, layer.trainable_variables)
    assert [g.dtype for g in grads] == [tf.float32, tf.float32]
    # d loss / d kernel[i, j] = 2 * y_j * x_i, with y computed in float16
    want = 2 * x.astype(np.float16).T.astype(np.float32) * expected.astype(np.float32)
    np.testing.assert_allclose(grads[0].numpy(), want, rtol=2e-3)


def test_a_mixed_model_trains_and_keeps_float32_weights(mixed):
    inputs = keras.Input((3,))
    hidden = keras.layers.Dense(8, activation="relu")(inputs)
    outputs = keras.layers.Dense(1, dtype="float32")(hidden)
    model = keras.Model(inputs, outputs)
    assert (hidden.dtype, outputs.dtype) == (tf.float16, tf.float32)
    model.compile(keras.optimizers.SGD(0.1), "mse")
    x = np.random.default_rng(0).random((64, 3)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    losses = model.fit(x, y, epochs=5, batch_size=16, verbose=0).history["loss"]
    assert losses[-1] < losses[0] / 2
    assert {w.dtype for w in model.weights} == {tf.float32}


def test_layer_dtype_argument_overrides_the_global_policy(mixed):
    assert keras.layers.Dense(1).dtype_policy.name == "mixed_float16"
    assert keras.layers.Dense(1, dtype="float64").compute_dtype == "float64"
    with pytest.raises(ValueError, match="Invalid `policy` argument"):
        keras.config.set_dtype_policy(None)


def test_max_epochs_and_max_steps_per_epoch_cap_fit():
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    keras.config.set_max_epochs(2)
    keras.config.set_max_steps_per_epoch(3)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            history = model.fit(np.ones((64, 1)), np.ones((64, 1)), batch_size=4, epochs=5,
                                verbose=0)
        assert (keras.config.max_epochs(), keras.config.max_steps_per_epoch()) == (2, 3)
    finally:
        keras.config.set_max_epochs(None)
        keras.config.set_max_steps_per_epoch(None)
    assert len(history.history["loss"]) == 2 and int(model.optimizer.iterations.numpy()) == 6
    assert {str(w.message) for w in caught} >= {"Limiting epochs to 2",
                                                "Limiting steps_per_epoch to 3"}


def test_interactive_logging_off_sends_progress_to_the_absl_logger(capsys):
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    buffer, logger = io.StringIO(), logging.getLogger("absl")
    handler, level = logging.StreamHandler(buffer), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    keras.utils.disable_interactive_logging()
    try:
        assert not keras.config.is_interactive_logging_enabled()
        model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=1)
    finally:
        keras.config.enable_interactive_logging()
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert capsys.readouterr().out == ""
    assert buffer.getvalue().startswith("Epoch 1/2\n1/1 ")
    assert keras.utils.is_interactive_logging_enabled()


def test_backend_traceback_flags_and_unsafe_deserialization():
    assert keras.config.backend() == "tensorflow"
    keras.config.set_backend("tensorflow")
    with pytest.raises(NotImplementedError, match="only the 'tensorflow' backend"):
        keras.config.set_backend("jax")
    with pytest.raises(ValueError, match="Unable to import backend : mxnet"):
        keras.config.set_backend("mxnet")
    keras.config.disable_traceback_filtering()
    assert not keras.config.is_traceback_filtering_enabled()
    keras.config.enable_traceback_filtering()
    assert keras.config.is_traceback_filtering_enabled()
    try:
        with object_registration.SafeModeScope(True):
            assert object_registration.in_safe_mode()
            keras.config.enable_unsafe_deserialization()
            assert not object_registration.in_safe_mode()
    finally:
        object_registration._UNSAFE_EVERYWHERE[0] = False


def test_float_settings_round_trip():
    keras.config.set_floatx("float64")
    keras.config.set_epsilon(1e-5)
    keras.config.set_image_data_format("channels_first")
    try:
        assert keras.config.floatx() == "float64" and keras.config.epsilon() == 1e-5
        assert keras.config.image_data_format() == "channels_first"
    finally:
        keras.config.set_floatx("float32")
        keras.config.set_epsilon(1e-7)
        keras.config.set_image_data_format("channels_last")
    with pytest.raises(ValueError, match="data_format"):
        keras.config.set_image_data_format("nhwc")


def test_same_policies_configs_and_errors_as_real_keras():
    theirs = run_tf_json("import json, numpy as np, keras\n" + PROBE + "print(json.dumps(out))")
    scope = {"np": np, "keras": keras}
    exec(PROBE, scope)
    assert json.loads(json.dumps(scope["out"])) == theirs
