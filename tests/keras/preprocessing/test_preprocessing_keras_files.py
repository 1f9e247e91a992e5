"""A model of preprocessing layers saved by minitf loads in real Keras 3.15 with the same
outputs, and the file Keras writes back loads in minitf (adapted state included)."""
import os
import tempfile

import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

pytest.importorskip("h5py")
L = tf.keras.layers
X = [np.array([[1., 2.], [5., 3.]], "float32"), np.array([["a"], ["b"]]),
     np.array([[1.], [7.]], "float32")]


def _model():
    x, s, a = tf.keras.Input((2,)), tf.keras.Input((1,), dtype="string"), tf.keras.Input((1,))
    norm = L.Normalization()
    norm.adapt(np.array([[0., 10.], [2., 30.]]))
    disc = L.Discretization(num_bins=3)
    disc.adapt(np.arange(9.))
    features = L.Concatenate()([
        norm(x), L.CategoryEncoding(4, output_mode="one_hot")(disc(a)),
        L.Hashing(4, output_mode="one_hot")(s), L.Hashing(3, salt=7, output_mode="count")(s),
        L.Rescaling(0.5)(x)])
    return tf.keras.Model([x, s, a], L.Dense(1, kernel_initializer="ones")(features))


def test_round_trip_through_real_keras():
    folder = tempfile.mkdtemp()
    model = _model()
    model.save(os.path.join(folder, "mine.keras"))
    real = run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        x = [np.array([[1., 2.], [5., 3.]], "float32"), np.array([["a"], ["b"]]),
             np.array([[1.], [7.]], "float32")]
        m = tf.keras.models.load_model({os.path.join(folder, "mine.keras")!r})
        m.save({os.path.join(folder, "theirs.keras")!r})
        print(json.dumps(m(x).numpy().tolist()))
    """)
    np.testing.assert_allclose(model(X).numpy(), real, rtol=1e-6)
    theirs = tf.keras.models.load_model(os.path.join(folder, "theirs.keras"))
    np.testing.assert_allclose(theirs(X).numpy(), real, rtol=1e-6)


def test_saved_and_loaded_without_tf():
    path = os.path.join(tempfile.mkdtemp(), "m.keras")
    model = _model()
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_array_equal(loaded(X).numpy(), model(X).numpy())
    # 2 + 4 + 4 + 3 + 2 = 15: 2 normalized, 4 one-hot bins, 4 one-hot buckets, 3 counts, 2 rescaled
    assert loaded.layers[-1].kernel.shape == (15, 1)
