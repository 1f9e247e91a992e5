"""keras.layers.Normalization: adapt over arrays, tensors, datasets and iterables; numbers
worked out by hand, then the same calls under real TF 2.21 (Keras 3.15)."""
import os
import tempfile

import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

L = tf.keras.layers
DATA = np.array([[0., 7., 4.], [2., 9., 6.], [0., 7., 4.], [2., 9., 6.]], "float32")


def test_adapt_on_an_array_gives_each_feature_mean_0_and_variance_1():
    layer = L.Normalization()
    layer.adapt(DATA)  # means 1, 8, 5; each feature is +-1 around its mean: variance 1
    np.testing.assert_array_equal(layer.adapt_mean.numpy(), [1., 8., 5.])
    np.testing.assert_array_equal(layer.adapt_variance.numpy(), [1., 1., 1.])
    np.testing.assert_array_equal(layer(DATA[:1]).numpy(), [[-1., -1., -1.]])
    assert [w.name for w in layer.weights] == ["mean", "variance", "count"]
    assert layer.count.dtype == tf.int64 and layer.count_params() == 7
    assert layer.trainable_weights == [] and layer.mean.shape == (1, 3)


def test_axis_none_uses_one_mean_and_variance_and_invert_undoes_it():
    layer = L.Normalization(axis=None)
    layer.adapt(np.array([1., 2., 3., 4., 5.]))  # mean 3, variance (4+1+0+1+4)/5 = 2
    out = layer(np.array([1., 3.])).numpy()
    np.testing.assert_allclose(out, [-2 / np.sqrt(2), 0.], rtol=1e-6)
    back = L.Normalization(axis=None, invert=True)
    back.adapt(np.array([1., 2., 3., 4., 5.]))
    np.testing.assert_allclose(back(out).numpy(), [1., 3.], rtol=1e-6)


def test_mean_and_variance_given_to_the_constructor_make_no_weights():
    layer = L.Normalization(mean=3., variance=2.)
    out = layer(np.array([[1.], [2.], [3.]]))
    np.testing.assert_allclose(out.numpy().ravel(), [-2 / np.sqrt(2), -1 / np.sqrt(2), 0.],
                               rtol=1e-6)
    assert layer.weights == [] and out.dtype == tf.float32
    per_feature = L.Normalization(mean=[1., 2.], variance=[4., 1.])
    np.testing.assert_allclose(per_feature(np.array([[3., 3.]])).numpy(), [[1., 1.]])


def test_a_dataset_is_read_batch_by_batch_with_the_same_result():
    data = np.arange(10, dtype="float32").reshape(5, 2)  # columns 0,2,..8 and 1,3,..9
    whole = L.Normalization()
    whole.adapt(data)
    streamed = L.Normalization()
    streamed.adapt(tf.data.Dataset.from_tensor_slices(data).batch(2))  # batches 2, 2, 1
    np.testing.assert_allclose(streamed.adapt_mean.numpy(), [4., 5.])
    np.testing.assert_allclose(streamed.adapt_variance.numpy(), [8., 8.])  # (16+4+0+4+16)/5
    np.testing.assert_allclose(streamed.adapt_mean.numpy(), whole.adapt_mean.numpy())
    listed = L.Normalization()
    listed.adapt([data[:3], tf.constant(data[3:])])
    np.testing.assert_allclose(listed.adapt_variance.numpy(), [8., 8.], rtol=1e-6)
    unbatched = L.Normalization(axis=None)  # a dataset of scalars: Keras batches it
    unbatched.adapt(tf.data.Dataset.from_tensor_slices(np.arange(5., dtype="float32")))
    assert float(unbatched.adapt_mean.numpy()) == 2.0


def test_adapting_again_replaces_the_statistics():
    layer = L.Normalization()
    layer.adapt(np.ones((2, 2)))
    layer.adapt(np.array([[0., 0.], [2., 4.]]))
    np.testing.assert_array_equal(layer.adapt_mean.numpy(), [1., 2.])


def test_works_before_adapt_as_keras_does():
    layer = L.Normalization()  # mean 0, variance 1: the identity until adapted
    np.testing.assert_array_equal(layer(np.array([[3, 4]])).numpy(), [[3., 4.]])


def test_bad_arguments_are_keras_errors():
    with pytest.raises(ValueError, match=r"in the range \[-ndim, ndim\)"):
        L.Normalization(axis=3).adapt(np.ones((2, 3)))
    with pytest.raises(ValueError, match="both `mean` and `variance` must be set"):
        L.Normalization(mean=1.)
    with pytest.raises(ValueError, match="must have the same shape"):
        L.Normalization(mean=[1., 2.], variance=1.)
    with pytest.raises(ValueError, match="incompatible shape"):
        layer = L.Normalization()
        layer.adapt(np.ones((2, 3)))
        layer.adapt(np.ones((2, 4)))
    with pytest.raises(ValueError, match="empty iterable"):
        L.Normalization().adapt([])
    with pytest.raises(TypeError, match="Unsupported data type"):
        L.Normalization().adapt(3.0)


def test_inside_dataset_map_a_model_and_a_keras_file():
    layer = L.Normalization()
    layer.adapt(np.array([[0., 10.], [2., 30.]]))  # means 1, 20; std 1, 10
    ds = tf.data.Dataset.from_tensor_slices(np.array([[1., 40.], [3., 0.]])).batch(2)
    mapped = ds.map(layer)
    assert mapped.element_spec.shape.as_list() == [None, 2]
    np.testing.assert_allclose(next(iter(mapped)).numpy(), [[0., 2.], [2., -2.]])
    inputs = tf.keras.Input((2,))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(layer(inputs)))
    path = os.path.join(tempfile.mkdtemp(), "m.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_array_equal(loaded.layers[1].adapt_mean.numpy(), [1., 20.])
    x = np.array([[5., 5.]], "float32")
    np.testing.assert_allclose(loaded(x).numpy(), model(x).numpy(), rtol=1e-6)


def test_config_round_trip():
    layer = L.Normalization(axis=(1, 2), invert=True)
    config = layer.get_config()
    assert config["axis"] == (1, 2) and config["mean"] is None and config["invert"] is True
    again = L.Normalization.from_config(config)
    assert again.axis == (1, 2) and again.invert
    fixed = L.Normalization.from_config(L.Normalization(mean=[1., 2.], variance=[1., 4.])
                                        .get_config())
    np.testing.assert_allclose(fixed(np.array([[2., 4.]])).numpy(), [[1., 1.]])


REAL_TF = """
import json, numpy as np, tensorflow as tf
L = tf.keras.layers
data = np.random.RandomState(0).normal(3, 2, size=(37, 4, 3)).astype("float32")
out = {}
for name, axis in (("last", -1), ("none", None), ("two", (1, 2)), ("first", 1)):
    layer = L.Normalization(axis=axis)
    layer.adapt(tf.data.Dataset.from_tensor_slices(data).batch(8))
    y = layer(data[:2])
    out[name] = {"mean": layer.adapt_mean.numpy().tolist(),
                 "var": layer.adapt_variance.numpy().tolist(),
                 "y": y.numpy().tolist(), "dtype": y.dtype.name, "params": layer.count_params(),
                 "config": {k: v for k, v in layer.get_config().items() if k != "name"}}
inv = L.Normalization(mean=[1., 2., 3.], variance=[4., 0., 9.], invert=True)
out["inv"] = inv(np.ones((1, 3))).numpy().tolist()
ints = L.Normalization(axis=None); ints.adapt(np.arange(6).reshape(2, 3))
out["ints"] = ints(np.array([[0, 5]])).numpy().tolist()
print(json.dumps(out))
"""


def test_same_numbers_as_real_tf():
    real = run_tf_json(REAL_TF)
    data = np.random.RandomState(0).normal(3, 2, size=(37, 4, 3)).astype("float32")
    for name, axis in (("last", -1), ("none", None), ("two", (1, 2)), ("first", 1)):
        layer = L.Normalization(axis=axis)
        layer.adapt(tf.data.Dataset.from_tensor_slices(data).batch(8))
        y = layer(data[:2])
        np.testing.assert_allclose(layer.adapt_mean.numpy(), real[name]["mean"], rtol=1e-5)
        np.testing.assert_allclose(layer.adapt_variance.numpy(), real[name]["var"], rtol=1e-5)
        np.testing.assert_allclose(y.numpy(), real[name]["y"], rtol=1e-5, atol=1e-6)
        assert y.dtype.name == real[name]["dtype"]
        assert layer.count_params() == real[name]["params"]
        config = {k: v for k, v in layer.get_config().items() if k != "name"}
        config["axis"] = list(config["axis"])
        real[name]["config"]["axis"] = list(real[name]["config"]["axis"])
        assert config == real[name]["config"]
    inv = L.Normalization(mean=[1., 2., 3.], variance=[4., 0., 9.], invert=True)
    np.testing.assert_allclose(inv(np.ones((1, 3))).numpy(), real["inv"], rtol=1e-6)
    ints = L.Normalization(axis=None)
    ints.adapt(np.arange(6).reshape(2, 3))
    np.testing.assert_allclose(ints(np.array([[0, 5]])).numpy(), real["ints"], rtol=1e-6)
