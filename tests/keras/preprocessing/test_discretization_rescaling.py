"""keras.layers.Discretization (bins by hand, Keras's quantile summary) and Rescaling,
then against TF 2.21."""
import os
import tempfile

import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

L = tf.keras.layers


def test_bins_are_left_closed_and_ids_int32():
    layer = L.Discretization(bin_boundaries=[0., 1., 2.])
    out = layer(np.array([[-1.5, 1.0, 3.4, .5], [0.0, 3.0, 1.3, 2.0]]))
    np.testing.assert_array_equal(out.numpy(), [[0, 2, 3, 1], [1, 3, 2, 3]])
    assert out.dtype == tf.int32 and layer.weights == []


def test_adapt_finds_equal_count_bins():
    layer = L.Discretization(num_bins=4)
    layer.adapt(np.arange(1., 9.))  # cumulative fractions 1/8 .. 8/8: 1/4 at 2, 1/2 at 4
    assert layer.bin_boundaries == [2.0, 4.0, 6.0]
    np.testing.assert_array_equal(layer(np.array([1.9, 2., 7.])).numpy(), [0, 1, 3])


def test_adapt_over_a_dataset_merges_batch_summaries():
    x = np.random.RandomState(0).normal(size=(1000, 1)).astype("float32")
    whole, batched = L.Discretization(num_bins=4), L.Discretization(num_bins=4)
    whole.adapt(x)
    batched.adapt(tf.data.Dataset.from_tensor_slices(x).batch(64))
    np.testing.assert_allclose(whole.bin_boundaries, [-0.6745, 0., 0.6745], atol=0.08)
    np.testing.assert_allclose(batched.bin_boundaries, whole.bin_boundaries, atol=0.03)
    limited = L.Discretization(num_bins=2)
    limited.adapt(tf.data.Dataset.from_tensor_slices(np.arange(8.)).batch(2), steps=1)
    assert limited.bin_boundaries == [0.0]  # only the batch [0, 1] was read


def test_encoded_output_modes():
    layer = L.Discretization(bin_boundaries=[0., 1.], output_mode="count")
    np.testing.assert_array_equal(layer(np.array([[-1., 0.5, 2., 2.]])).numpy(), [[1, 1, 2]])
    one_hot = L.Discretization(bin_boundaries=[0.], output_mode="one_hot")
    assert one_hot(np.array([[3.], [-3.]])).numpy().tolist() == [[0, 1], [1, 0]]


def test_errors_as_keras():
    with pytest.raises(ValueError, match="set either `num_bins` or `bin_boundaries`"):
        L.Discretization()
    with pytest.raises(ValueError, match="should not be set"):
        L.Discretization(num_bins=2, bin_boundaries=[1.])
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        L.Discretization(num_bins=-1)
    with pytest.raises(ValueError, match="Unknown value for `output_mode`"):
        L.Discretization(num_bins=2, output_mode="foo")
    with pytest.raises(ValueError, match="call `adapt"):
        L.Discretization(num_bins=3)(np.array([1.]))
    with pytest.raises(ValueError, match="Cannot adapt"):
        L.Discretization(bin_boundaries=[1.]).adapt(np.array([1.]))


def test_adapted_boundaries_live_in_the_config_and_the_keras_file():
    layer = L.Discretization(num_bins=3)
    layer.adapt(np.arange(9.))
    again = L.Discretization.from_config(layer.get_config())
    assert again.bin_boundaries == layer.bin_boundaries and again.num_bins == 3
    inputs = tf.keras.Input((1,))
    model = tf.keras.Model(inputs, layer(inputs))
    path = os.path.join(tempfile.mkdtemp(), "d.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    x = np.array([[0.], [4.], [8.]], "float32")
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())
    ds = tf.data.Dataset.from_tensor_slices(x).batch(3).map(layer)
    np.testing.assert_array_equal(next(iter(ds)).numpy(), model(x).numpy())


def test_rescaling():
    out = L.Rescaling(1 / 127.5, offset=-1)(np.array([[0, 255]]))
    np.testing.assert_allclose(out.numpy(), [[-1., 1.]])
    assert out.dtype == tf.float32
    per_channel = L.Rescaling(np.array([1., 10.]))
    np.testing.assert_allclose(per_channel(np.ones((1, 2))).numpy(), [[1., 10.]])
    config = per_channel.get_config()
    assert config["scale"] == {"class_name": "__numpy__",
                               "config": {"value": [1.0, 10.0], "dtype": "float64"}}
    again = L.Rescaling.from_config(config)
    np.testing.assert_allclose(again(np.ones((1, 2))).numpy(), [[1., 10.]])
    inputs = tf.keras.Input((2,), dtype="int32")
    assert L.Rescaling(2.)(inputs).dtype == tf.float32


REAL_TF = """
import json, numpy as np, tensorflow as tf
L = tf.keras.layers
rng = np.random.RandomState(1)
out = {}
for name, data, bins, eps in (("normal", rng.normal(size=(500, 3)), 5, 0.01),
                              ("coarse", rng.exponential(size=(300,)), 4, 0.1),
                              ("ints", np.arange(20).reshape(10, 2), 3, 0.01)):
    d = L.Discretization(num_bins=bins, epsilon=eps)
    d.adapt(tf.data.Dataset.from_tensor_slices(data.astype("float32")).batch(32))
    a = L.Discretization(num_bins=bins, epsilon=eps)
    a.adapt(data)
    out[name] = [d.bin_boundaries, a.bin_boundaries, d(data[:4]).numpy().tolist()]
d = L.Discretization(bin_boundaries=[0.1, 0.2], output_mode="multi_hot")
out["edges"] = d(np.array([[0.1, 0.2, 0.15]], "float32")).numpy().tolist()
out["float64"] = L.Discretization(bin_boundaries=[0.1])(np.array([0.1, 0.10000000149])).numpy().tolist()
out["config"] = L.Discretization(bin_boundaries=[1.0]).get_config()
r = L.Rescaling(0.5, offset=2.)
out["rescaling"] = [r(np.array([[1, 2]])).numpy().tolist(), r.get_config()]
print(json.dumps(out))
"""


def test_same_as_real_tf():
    real = run_tf_json(REAL_TF)
    rng = np.random.RandomState(1)
    for name, data, bins, eps in (("normal", rng.normal(size=(500, 3)), 5, 0.01),
                                  ("coarse", rng.exponential(size=(300,)), 4, 0.1),
                                  ("ints", np.arange(20).reshape(10, 2), 3, 0.01)):
        d = L.Discretization(num_bins=bins, epsilon=eps)
        d.adapt(tf.data.Dataset.from_tensor_slices(data.astype("float32")).batch(32))
        a = L.Discretization(num_bins=bins, epsilon=eps)
        a.adapt(data)
        assert [d.bin_boundaries, a.bin_boundaries, d(data[:4]).numpy().tolist()] == real[name]
    d = L.Discretization(bin_boundaries=[0.1, 0.2], output_mode="multi_hot")
    assert d(np.array([[0.1, 0.2, 0.15]], "float32")).numpy().tolist() == real["edges"]
    # float64 inputs are cast to float32 first, so both equal the float32 boundary 0.1
    assert L.Discretization(bin_boundaries=[0.1])(np.array([0.1, 0.10000000149])).numpy() \
        .tolist() == real["float64"] == [1, 1]
    config = L.Discretization(bin_boundaries=[1.0]).get_config()
    assert {k: v for k, v in config.items() if k != "name"} == \
        {k: v for k, v in real["config"].items() if k != "name"}
    r = L.Rescaling(0.5, offset=2.)
    config = r.get_config()
    assert r(np.array([[1, 2]])).numpy().tolist() == real["rescaling"][0]
    assert {k: v for k, v in config.items() if k != "name"} == \
        {k: v for k, v in real["rescaling"][1].items() if k != "name"}


def test_rescaling_in_dataset_map_and_tf_function():
    layer = L.Rescaling(0.5, offset=1.)
    ds = tf.data.Dataset.from_tensor_slices(np.array([[2, 4]])).batch(1).map(layer)
    assert ds.element_spec.dtype == tf.float32
    np.testing.assert_array_equal(next(iter(ds)).numpy(), [[2., 3.]])
    traced = tf.function(lambda x: layer(x))
    np.testing.assert_array_equal(traced(tf.constant([[0.]])).numpy(), [[1.]])
