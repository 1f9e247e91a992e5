"""Compare minitf layers with real Keras 3.15 (tf.keras of TF 2.21) in ONE subprocess per
test file.

A test file lists *cases*; `real_keras(cases, models, errors, folder)` runs them all in
real Keras and returns, per case: the output values and dtype, the config (without
`name`), the weights' names/shapes, the symbolic output shape for a batch of None,
and what Keras makes of minitf's serialized layer (its config and output, with the
same weights). `models` are Sequential stacks: real Keras loads the `.keras` file
minitf saved (and predicts), and saves its own copy, which the test then loads in
minitf. `errors` are constructor/call cases whose exception class and message are
returned.

A case: {"class": "Cropping2D", "kwargs": {...}, "x": nested list (or a list of
them for merge layers, with "multi": True), "dtype": "float32", "weights": [nested
lists] or None, "training": False, "serialized": minitf's serialize(layer)}.
"""
import json
import os

import numpy as np

import minitf as tf
from real_tf import run_tf_json

_SNIPPET = r'''
import json, os, sys
import numpy as np
import keras
L = keras._tf_keras.keras.layers   # tf.keras.layers: Keras 3's, plus tf.keras's legacy ones
folder = FOLDER
spec = json.load(open(os.path.join(folder, "cases.json")))

def inputs(case):
    dtype = case.get("dtype", "float32")
    if case.get("multi"):
        return [np.asarray(v, dtype) for v in case["x"]]
    return np.asarray(case["x"], dtype)

def symbolic_shape(case, x):
    if case.get("multi"):
        ins = [keras.Input(v.shape[1:], dtype=v.dtype) for v in x]
    else:
        ins = keras.Input(x.shape[1:], dtype=x.dtype)
    return list(L.deserialize(case["keras_serialized"])(ins, **case.get("call", {})).shape)

def make(case):
    kwargs = dict(case["kwargs"])
    if isinstance(kwargs.get("layer"), dict):  # a wrapper: its layer, serialized
        kwargs["layer"] = L.deserialize(kwargs["layer"])
    return getattr(L, case["class"])(**kwargs)

def run(layer, case, x):
    kwargs = dict(case.get("call", {}))
    if case.get("training"):
        kwargs["training"] = True
    if case.get("weights") is not None:
        layer(x, **kwargs)
        layer.set_weights([np.asarray(w, "float32") for w in case["weights"]])
    return np.asarray(layer(x, **kwargs))

out = {"cases": {}, "models": {}, "errors": {}}
for key, case in spec["cases"].items():
    x = inputs(case)
    layer = make(case)
    y = run(layer, case, x)
    config = layer.get_config()
    config.pop("name")
    case["keras_serialized"] = L.serialize(layer)
    theirs = L.deserialize(case["serialized"])
    y2 = run(theirs, case, x)
    config2 = theirs.get_config()
    config2.pop("name")
    out["cases"][key] = {
        "y": y.tolist(), "dtype": str(y.dtype), "config": json.loads(json.dumps(config)),
        "weights": [[w.path.split("/", 1)[1], list(w.shape), bool(w.trainable)]
                    for w in layer.weights],
        "symbolic_shape": symbolic_shape(case, x),
        "losses": [float(v) for v in layer.losses],
        "from_minitf_config": json.loads(json.dumps(config2)), "from_minitf_y": y2.tolist()}
for key, model in spec["models"].items():
    x = np.asarray(model["x"], "float32")
    mine = keras.models.load_model(os.path.join(folder, f"minitf_{key}.keras"))
    built = keras.Sequential([keras.Input(x.shape[1:])] +
                             [L.deserialize(s) for s in model["layers"]])
    built.set_weights([np.asarray(w, "float32") for w in model["weights"]])
    built.save(os.path.join(folder, f"keras_{key}.keras"))
    out["models"][key] = {"mine": np.asarray(mine.predict(x, verbose=0)).tolist(),
                          "theirs": np.asarray(built.predict(x, verbose=0)).tolist()}
for key, case in spec["errors"].items():
    try:
        layer = make(case)
        if case.get("x") is not None:
            layer(inputs(case))
        out["errors"][key] = None
    except Exception as e:
        out["errors"][key] = [type(e).__name__, str(e)]
exec(spec.get("extra", ""))  # a test file's own questions, answered into out["extra"]
print(json.dumps(out))
'''


def _make(layer_class, kwargs):
    kwargs = dict(kwargs)
    if isinstance(kwargs.get("layer"), dict):  # a wrapper: its layer, serialized
        kwargs["layer"] = tf.keras.layers.deserialize(kwargs["layer"])
    return getattr(tf.keras.layers, layer_class)(**kwargs)


def case(layer_class, kwargs, x, weights=None, training=False, dtype="float32", call=None):
    """One case: the minitf layer's serialized form is stored with it."""
    layer = _make(layer_class, kwargs)
    multi = isinstance(x, (list, tuple))
    return {"class": layer_class, "kwargs": kwargs, "multi": multi, "dtype": dtype,
            "call": call or {},
            "x": [np.asarray(v).tolist() for v in x] if multi else np.asarray(x).tolist(),
            "weights": None if weights is None else [np.asarray(w).tolist() for w in weights],
            "training": training, "serialized": tf.keras.layers.serialize(layer)}


def run_case(c, layer=None):
    """Run a case in minitf: (layer, output array)."""
    layer = layer or _make(c["class"], c["kwargs"])
    x = [np.asarray(v, c["dtype"]) for v in c["x"]] if c["multi"] else \
        np.asarray(c["x"], c["dtype"])
    kwargs = dict(c["call"], **({"training": True} if c["training"] else {}))
    if c["weights"] is not None:
        layer(x, **kwargs)
        layer.set_weights([np.asarray(w, "float32") for w in c["weights"]])
    return layer, np.asarray(layer(x, **kwargs))


def model_spec(layers_list, x):
    """A Sequential of `layers_list` (built on x, saved by the caller) for the round trip."""
    model = tf.keras.Sequential([tf.keras.Input(np.asarray(x).shape[1:])] + layers_list)
    return model, {"x": np.asarray(x).tolist(),
                   "layers": [tf.keras.layers.serialize(layer) for layer in layers_list],
                   "weights": [w.tolist() for w in model.get_weights()]}


def real_keras(cases, models, errors, folder, extra=""):
    """Run everything in real Keras; `models` maps key -> (minitf model, spec); `extra` is
    code run last in the TF process (it may fill `out["extra"]`)."""
    for key, (model, _) in models.items():
        model.save(os.path.join(folder, f"minitf_{key}.keras"))
    spec = {"cases": cases, "models": {k: s for k, (_, s) in models.items()},
            "errors": errors, "extra": extra}
    with open(os.path.join(folder, "cases.json"), "w") as f:
        json.dump(spec, f)
    return run_tf_json(f"FOLDER = {str(folder)!r}\n" + _SNIPPET)


def plain(config):
    """A config as JSON sees it (tuples become lists), for comparing with Keras's."""
    return json.loads(json.dumps(config))


def check_weight_grads(layer, *inputs, eps=1e-6, rtol=1e-5, atol=1e-7, weights=None):
    """The tape gradient of sum(layer(inputs) * r) with respect to each weight of a float64
    layer (default: all its trainable weights) equals central differences (each weight entry
    moved by +-eps)."""
    inputs = [tf.constant(np.asarray(x, "float64")) for x in inputs]
    call = lambda: layer(*inputs)  # noqa: E731 - several inputs: positional (query, value)
    shape = call().shape  # (builds the layer)
    weights = list(layer.trainable_weights) if weights is None else weights
    r = tf.constant(np.random.default_rng(3).uniform(0.5, 1.5, size=shape.as_list()))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(call() * r)
    grads = tape.gradient(loss, weights)
    assert grads and all(g is not None for g in grads), [w.name for w in weights]
    for weight, grad in zip(weights, grads):
        start = weight.numpy()
        numeric = np.zeros_like(start)
        for i in range(start.size):
            values = []
            for step in (eps, -eps):
                moved = start.copy()
                moved.reshape(-1)[i] += step
                weight.assign(moved)
                values.append(float(tf.reduce_sum(call() * r)))
            numeric.reshape(-1)[i] = (values[0] - values[1]) / (2 * eps)
        weight.assign(start)
        np.testing.assert_allclose(np.asarray(grad), numeric, rtol=rtol, atol=atol,
                                   err_msg=weight.name)
