"""tf.distribute against real TF 2.21 / Keras 3: one TF subprocess runs the same
MirroredStrategy calls (and a two-replica fit) and minitf must print the same."""
import json

import numpy as np
import pytest

import minitf as tf
from minitf.framework import device
from real_tf import run_tf_json

COMMON = r'''
cpu = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpu[0], [tf.config.LogicalDeviceConfiguration()] * 2)
s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
out = {"devices": list(s.extended.worker_devices), "n": s.num_replicas_in_sync}
with s.scope():
    v = tf.Variable([1.0, 2.0], name="w")
    out["scope"] = [tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context(),
                    tf.distribute.get_replica_context() is None]
out["var"] = [repr(v), type(v).__name__, [c.device for c in v.values]]
def fn(x):
    ctx = tf.distribute.get_replica_context()
    k = tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
    return x * k, ctx.all_reduce("SUM", k), ctx.replica_id_in_sync_group.dtype.name
r, total, id_dtype = s.run(fn, args=(tf.constant([1.0, 2.0]),))
out["per_replica"] = [repr(r), str(r), [t.device for t in r.values]]
out["all_reduce"] = [float(t) for t in total.values]
out["id_dtype"] = id_dtype.values[0] if hasattr(id_dtype, "values") else id_dtype
out["reduce"] = [s.reduce("SUM", r, axis=None).numpy().tolist(),
                 s.reduce("MEAN", r, axis=None).numpy().tolist(),
                 float(s.reduce("SUM", r, axis=0)), float(s.reduce("MEAN", r, axis=0))]
try:
    s.reduce("SUM", tf.constant(3.0), axis=None)
except ValueError as e:
    out["reduce_plain"] = str(e)
s.run(lambda: v.assign_add([1.0, 1.0]))
out["assign_add"] = [c.numpy().tolist() for c in v.values]
shards = {}
for size in (7, 5, 1, 4):
    (batch,) = list(s.experimental_distribute_dataset(tf.data.Dataset.range(size).batch(size)))
    shards[str(size)] = [t.numpy().tolist() for t in s.experimental_local_results(batch)]
out["shards"] = shards
rng = np.random.default_rng(0)
x = rng.normal(size=(16, 3)).astype("float32"); y = rng.normal(size=(16, 2)).astype("float32")
w = [rng.normal(size=(3, 4)).astype("float32") * 0.5, np.zeros(4, "float32"),
     rng.normal(size=(4, 2)).astype("float32") * 0.5, np.zeros(2, "float32")]
with s.scope():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                              keras.layers.Dense(2)])
    model.set_weights(w)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    kernel = model.layers[0].kernel  # Keras 3 wraps a tf.Variable (`.value`); minitf's is one
    out["keras_var"] = type(kernel if callable(kernel.value) else kernel.value).__name__
h = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
out["fit"] = [[a.tolist() for a in model.get_weights()], h.history["loss"]]
with s.scope():  # 9 rows in batches of 8: the last batch gives replica 1 nothing
    model = keras.Sequential([keras.Input((3,)),
                              keras.layers.Dense(2, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
h = model.fit(x[:9], y[:9], batch_size=8, epochs=1, shuffle=False, verbose=0)
out["uneven_fit"] = [[a.tolist() for a in model.get_weights()], h.history["loss"]]
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def real():
    return run_tf_json("import json, numpy as np, tensorflow as tf, keras\n" + COMMON)


@pytest.fixture(scope="module")
def mine():
    device._reset()
    scope = {"tf": tf, "keras": tf.keras, "np": np, "json": json}
    import contextlib
    import io
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(COMMON, scope)  # the very same code, on minitf
    device._reset()
    return json.loads(printed.getvalue().strip().splitlines()[-1])


@pytest.mark.parametrize("key", ["devices", "n", "scope", "var", "per_replica", "all_reduce",
                                 "id_dtype", "reduce", "reduce_plain", "assign_add", "shards",
                                 "keras_var"])
def test_same_as_real_tf(real, mine, key):
    expected = real[key]
    if key == "reduce_plain":  # minitf adds a sentence on what to do
        assert mine[key].startswith(expected)
    else:
        assert mine[key] == expected


@pytest.mark.parametrize("key", ["fit", "uneven_fit"])
def test_two_replica_fit_same_as_real_keras(real, mine, key):
    (weights, loss), (weights_tf, loss_tf) = mine[key], real[key]
    for a, b in zip(weights, weights_tf):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(loss, loss_tf, rtol=1e-5)
