"""GroupQueryAttention (GroupedQueryAttention): values and attention scores with every kind of
mask, the gate, weights (names, paths, shapes), gradients against finite differences,
configs, errors and a .keras file both ways -- the same as real Keras 3.15 (one TF
subprocess for the file)."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from layer_compare import check_weight_grads, plain
from real_tf import run_tf_json

L = tf.keras.layers


def ramp(*shape, phase=0.0):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.7 + phase)).reshape(shape).astype("float32")


Q, V, K = ramp(2, 3, 4), ramp(2, 5, 4, phase=1.0), ramp(2, 5, 3, phase=2.0)
VALUE_MASK = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)

SETTINGS = {  # key -> (constructor kwargs, call kwargs (names of arrays), uses key)
    "plain": ({"head_dim": 2, "num_query_heads": 4, "num_key_value_heads": 2}, {}, False),
    "mqa_key": ({"head_dim": 3, "num_query_heads": 2, "num_key_value_heads": 1}, {}, True),
    "causal": ({"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 2},
               {"use_causal_mask": True}, False),
    "masked": ({"head_dim": 2, "num_query_heads": 4, "num_key_value_heads": 1},
               {"value_mask": "VALUE_MASK"}, False),
    "window_gate": ({"head_dim": 2, "num_query_heads": 4, "num_key_value_heads": 2,
                     "sliding_window": 2, "use_gate": True, "use_bias": False}, {}, False),
}


def weights_for(layer):
    return [ramp(*w.shape, phase=i) * 0.5 for i, w in enumerate(layer.weights)]


def run_mine(key):
    kwargs, call, uses_key = SETTINGS[key]
    layer = L.GroupQueryAttention(**kwargs)
    call = {k: VALUE_MASK if v == "VALUE_MASK" else v for k, v in call.items()}
    args = (Q, V, K) if uses_key else (Q, V)
    layer(*args, **call)
    layer.set_weights(weights_for(layer))
    out, scores = layer(*args, return_attention_scores=True, **call)
    return layer, out.numpy(), scores.numpy()


TF_SIDE = """
import json, os
import numpy as np
import keras
L = keras._tf_keras.keras.layers
spec = json.load(open(os.path.join(FOLDER, "spec.json")))
Q, V, K = (np.asarray(spec[n], "float32") for n in ("Q", "V", "K"))
VALUE_MASK = np.asarray(spec["VALUE_MASK"], bool)
out = {"cases": {}, "errors": {}}
for key, (kwargs, call, uses_key) in spec["settings"].items():
    call = {k: VALUE_MASK if v == "VALUE_MASK" else v for k, v in call.items()}
    layer = L.GroupQueryAttention(**kwargs)
    args = (Q, V, K) if uses_key else (Q, V)
    layer(*args, **call)
    layer.set_weights([np.asarray(w, "float32") for w in spec["weights"][key]])
    y, scores = layer(*args, return_attention_scores=True, **call)
    config = layer.get_config()
    config.pop("name")
    again = L.deserialize(spec["serialized"][key])
    out["cases"][key] = {"y": np.asarray(y).tolist(), "scores": np.asarray(scores).tolist(),
                         "config": config, "from_minitf": again.get_config(),
                         "weights": [[w.path, list(w.shape)] for w in layer.weights]}
q, v = keras.Input((3, 4)), keras.Input((5, 4))
y, s = L.GroupQueryAttention(2, 4, 2)(q, v, return_attention_scores=True)
out["symbolic"] = [list(y.shape), list(s.shape)]
mine = keras.models.load_model(os.path.join(FOLDER, "minitf.keras"))
out["mine"] = np.asarray(mine.predict([Q, V], verbose=0)).tolist()
model = keras.Model([q, v], L.GroupQueryAttention(2, 4, 2, name="gqa")(q, v))
model.set_weights([np.asarray(w, "float32") for w in spec["model_weights"]])
model.save(os.path.join(FOLDER, "keras.keras"))
out["theirs"] = np.asarray(model.predict([Q, V], verbose=0)).tolist()
for key, kwargs in spec["errors"].items():
    try:
        L.GroupQueryAttention(**kwargs)
        out["errors"][key] = None
    except Exception as e:
        out["errors"][key] = [type(e).__name__, str(e)]
print(json.dumps(out))
"""

ERRORS = {
    "not_divisible": {"head_dim": 2, "num_query_heads": 3, "num_key_value_heads": 2},
    "window_zero": {"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1,
                    "sliding_window": 0},
}


def gqa_model():
    q, v = tf.keras.Input((3, 4)), tf.keras.Input((5, 4))
    model = tf.keras.Model([q, v], L.GroupQueryAttention(2, 4, 2, name="gqa")(q, v))
    model.set_weights([w * 0 + ramp(*w.shape, phase=i) * 0.5
                       for i, w in enumerate(model.get_weights())])
    return model


@pytest.fixture(scope="module")
def keras(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gqa")
    model = gqa_model()
    model.save(str(folder / "minitf.keras"))
    layers = {key: run_mine(key)[0] for key in SETTINGS}
    spec = {"Q": Q.tolist(), "V": V.tolist(), "K": K.tolist(),
            "VALUE_MASK": VALUE_MASK.tolist(), "settings": SETTINGS,
            "weights": {k: [w.tolist() for w in weights_for(layer)]
                        for k, layer in layers.items()},
            "serialized": {k: L.serialize(layer) for k, layer in layers.items()},
            "model_weights": [w.tolist() for w in model.get_weights()], "errors": ERRORS}
    (folder / "spec.json").write_text(json.dumps(spec))
    return run_tf_json(f"FOLDER = {str(folder)!r}\n" + TF_SIDE), model, folder


@pytest.mark.parametrize("key", sorted(SETTINGS))
def test_outputs_scores_weights_configs_equal_real_keras(keras, key):
    theirs = keras[0]["cases"][key]
    layer, out, scores = run_mine(key)
    np.testing.assert_allclose(out, theirs["y"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(scores, theirs["scores"], rtol=1e-5, atol=1e-6)
    assert [[w.path, list(w.shape)] for w in layer.weights] == \
        [[p.replace(p.split("/")[0], layer.name, 1), s] for p, s in theirs["weights"]]
    config = plain(layer.get_config())
    config.pop("name")
    assert config == theirs["config"]
    theirs["from_minitf"].pop("name")
    assert theirs["from_minitf"] == theirs["config"]


def test_symbolic_call_matches_keras(keras):
    q, v = tf.keras.Input((3, 4)), tf.keras.Input((5, 4))
    y, s = L.GroupQueryAttention(2, 4, 2)(q, v, return_attention_scores=True)
    assert [list(y.shape), list(s.shape)] == keras[0]["symbolic"]


def test_keras_file_both_ways(keras):
    theirs, model, folder = keras
    mine = model.predict([Q, V], verbose=0)
    np.testing.assert_allclose(theirs["mine"], mine, rtol=1e-5, atol=1e-6)
    loaded = tf.keras.models.load_model(str(folder / "keras.keras"))
    np.testing.assert_allclose(loaded.predict([Q, V], verbose=0), theirs["theirs"], rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(loaded.predict([Q, V], verbose=0), mine, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_bad_arguments_raise_keras_error(keras, key):
    name, message = keras[0]["errors"][key]
    with pytest.raises(Exception) as raised:
        L.GroupQueryAttention(**ERRORS[key])
    assert type(raised.value).__name__ == name and str(raised.value).startswith(message[:40])


# ---- without real TF ------------------------------------------------------------------------

def test_query_heads_share_key_value_heads():
    layer = L.GroupQueryAttention(head_dim=2, num_query_heads=4, num_key_value_heads=2)
    out, scores = layer(Q, V, return_attention_scores=True)
    scores = scores.numpy()
    np.testing.assert_allclose(scores.sum(-1), 1.0, rtol=1e-6)
    # by hand: projections, each kv head repeated twice, softmax(q k^T / sqrt(2)) v, output
    qk, qb, kk, kb, vk, vb, ok, ob = [w.numpy() for w in layer.weights]
    q = np.einsum("bqm,muh->bquh", Q, qk) + qb
    k = np.repeat(np.einsum("bkm,mvh->bkvh", V, kk) + kb, 2, axis=2)
    v = np.repeat(np.einsum("bkm,mvh->bkvh", V, vk) + vb, 2, axis=2)
    logits = np.einsum("bquh,bkuh->buqk", q / np.sqrt(2.0), k)
    weights = np.exp(logits - logits.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    np.testing.assert_allclose(scores, weights, rtol=1e-5, atol=1e-6)
    expected = np.einsum("bquh,uhm->bqm", np.einsum("buqk,bkuh->bquh", weights, v), ok) + ob
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)
    assert layer.count_params() == (4 * 4 * 2 + 4 * 2) + 2 * (4 * 2 * 2 + 2 * 2) + (4 * 2 * 4 + 4)


def test_masks_zero_the_hidden_positions():
    layer = L.GroupQueryAttention(2, 2, 1, sliding_window=2)
    _, scores = layer(Q, Q, return_attention_scores=True, use_causal_mask=True)
    band = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 1]], bool)  # causal and |i - j| < 2
    assert (scores.numpy()[:, :, ~band] == 0).all() and (scores.numpy()[:, :, band] > 0).all()
    _, scores = layer(Q, V, value_mask=VALUE_MASK, return_attention_scores=True)
    assert (scores.numpy()[0, :, :, 3:] == 0).all()


def test_gradients_match_finite_differences():
    layer = L.GroupQueryAttention(2, 2, 1, use_gate=True, dtype="float64")
    q, v = ramp(1, 2, 3).astype("float64"), ramp(1, 3, 3, phase=1.0).astype("float64")
    check_weight_grads(layer, q, v)
    check_grads(lambda a, b: layer(a, b), q, v)


def test_dropout_acts_in_training_only():
    layer = L.GroupQueryAttention(2, 2, 1, dropout=0.5, seed=1)
    _, eval_scores = layer(Q, V, return_attention_scores=True)
    y1 = layer(Q, V, training=True).numpy()
    np.testing.assert_allclose(layer(Q, V).numpy(), layer(Q, V).numpy())
    assert not np.allclose(y1, layer(Q, V).numpy())
    np.testing.assert_allclose(eval_scores.numpy().sum(-1), 1.0, rtol=1e-6)


def test_config_round_trip_and_alias():
    assert L.GroupQueryAttention.__name__ == "GroupedQueryAttention"  # Keras's class name
    layer = L.GroupQueryAttention(4, 4, 2, dropout=0.1, use_bias=False, sliding_window=3,
                                  kernel_regularizer="l2", use_gate=True, seed=3)
    config = json.loads(json.dumps(L.serialize(layer)))
    assert config["class_name"] == "GroupQueryAttention"  # as Keras writes it
    again = L.deserialize(config)
    assert plain(again.get_config()) == plain(layer.get_config())


def test_errors_teach():
    with pytest.raises(ValueError, match="Each key/value head serves"):
        L.GroupQueryAttention(2, 3, 2)
    with pytest.raises(NotImplementedError, match="no flash attention"):
        L.GroupQueryAttention(2, 2, 1, flash_attention=True)
    with pytest.raises(ValueError, match="must be equal"):
        L.GroupQueryAttention(2, 2, 1)(tf.keras.Input((3, 4)), tf.keras.Input((5, 6)))
