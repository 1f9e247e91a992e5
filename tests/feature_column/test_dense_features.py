"""tf.keras.layers.DenseFeatures: a small table, errors, trainable embeddings, tf.function, fit."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf

fc = tf.feature_column
TABLE = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]


def table_initializer(shape, dtype=None):
    return tf.constant(TABLE)


def columns():
    age_buckets = fc.bucketized_column(fc.numeric_column("age"), [18, 30, 50])
    color = fc.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"],
                                                       num_oov_buckets=1)
    return [fc.numeric_column("age", normalizer_fn=lambda x: x / 10.0),
            fc.indicator_column(age_buckets),
            fc.indicator_column(fc.categorical_column_with_hash_bucket("city", 5)),
            fc.indicator_column(fc.categorical_column_with_identity("id", 4)),
            fc.indicator_column(fc.crossed_column([age_buckets, "city"], 7)),
            fc.embedding_column(color, 2, initializer=table_initializer)]


def features(**changes):
    feats = {"age": tf.constant([[12.0], [25.0], [60.0]]),
             "color": tf.constant([["red"], ["purple"], ["blue"]]),
             "city": tf.constant([["paris"], ["tokyo"], ["lima"]]),
             "id": tf.constant([[0], [3], [1]], tf.int64)}
    feats.update(changes)
    return feats


# verified against TF 2.21: tf.compat.v1.feature_column.input_layer(features(), columns())
# Columns in name order: age | age_bucketized_X_city_indicator (7) | age_bucketized_indicator
# (4) | city_indicator (5) | color_embedding (2) | id_indicator (4).
EXPECTED = [
    [1.2, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 1, 0, 0, 0],
    [2.5, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 7, 8, 0, 0, 0, 1],
    [6.0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 6, 0, 1, 0, 0]]


def test_small_table_matches_tensorflow():
    layer = tf.keras.layers.DenseFeatures(columns())
    out = layer(features())
    assert out.dtype == tf.float32 and out.shape == (3, 23)
    np.testing.assert_allclose(out.numpy(), EXPECTED, rtol=1e-6)
    # the column order given does not matter: DenseFeatures sorts by name
    reordered = tf.keras.layers.DenseFeatures(columns()[::-1])
    np.testing.assert_allclose(reordered(features()).numpy(), EXPECTED, rtol=1e-6)
    assert [w.name for w in layer.weights] == ["color_embedding/embedding_weights"]
    assert layer.weights[0].shape == (4, 2) and len(layer.trainable_weights) == 1


def test_errors_as_tensorflow():
    layer = tf.keras.layers.DenseFeatures(columns())
    # verified against TF 2.21: ValueError "Feature city is not in features dictionary."
    with pytest.raises(ValueError, match="Feature city is not in features dictionary"):
        layer({"age": tf.constant([[1.0]])})
    with pytest.raises(tf.errors.UnimplementedError, match="Cast string to float"):
        layer(features(age=tf.constant([["x"], ["y"], ["z"]])))
    # TF 2.21 reports this in the embedding gather: "indices[1] = 5 is not in [0, 4)"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[1\] = 4 is not in \[0, 4\)"):
        layer(features(id=tf.constant([[0], [4], [1]], tf.int64)))
    with pytest.raises(ValueError, match="Items of feature_columns must be a DenseColumn"):
        tf.keras.layers.DenseFeatures([fc.categorical_column_with_identity("id", 4)])


def test_gradients_flow_into_embedding_weights():
    layer = tf.keras.layers.DenseFeatures(columns())
    layer(features())
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(features()) ** 2)
    (grad,) = tape.gradient(loss, layer.trainable_weights)
    # d/dW of sum(out**2) = 2 * W[id] for each row's single id: rows use ids 0, 3 (OOV), 2
    np.testing.assert_allclose(grad.numpy(), [[2, 4], [0, 0], [10, 12], [14, 16]], rtol=1e-6)


def test_embedding_combiner_gradients_match_finite_differences():
    cat = fc.categorical_column_with_vocabulary_list("c", ["a", "b", "c"])
    feats = {"c": tf.constant([["a", "c", "a"], ["b", "", ""], ["z", "c", ""]])}
    for combiner in ("mean", "sqrtn", "sum"):
        col = fc.embedding_column(cat, 2, combiner=combiner)

        class State:
            def __init__(self, table):
                self.table = table

            def get_variable(self, column, name):
                return self.table

        def f(table, col=col):
            return col.get_dense_tensor(feats, State(table))

        check_grads(f, np.arange(6.0).reshape(3, 2) / 7)


def test_dense_features_in_tf_function():
    layer = tf.keras.layers.DenseFeatures(columns())
    graph_out = tf.function(lambda d: layer(d))(features())
    np.testing.assert_allclose(graph_out.numpy(), EXPECTED, rtol=1e-6)


def test_fit_trains_the_embedding():
    cols = [fc.numeric_column("x"),
            fc.embedding_column(fc.categorical_column_with_vocabulary_list("c", ["a", "b"]), 2)]

    class Model(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.features = tf.keras.layers.DenseFeatures(cols)
            self.out = tf.keras.layers.Dense(1)

        def call(self, inputs):
            return self.out(self.features(inputs))

    feats = {"x": tf.constant([1.0, 2.0, 3.0, 4.0]), "c": tf.constant(["a", "b", "a", "b"])}
    labels = tf.constant([[1.0], [0.0], [1.0], [0.0]])
    tf.random.set_seed(0)  # and a step size well inside SGD's stable range for x up to 4
    model = Model()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.02), loss="mse")
    model(feats)
    before = model.features.weights[0].numpy().copy()
    ds = tf.data.Dataset.from_tensor_slices((feats, labels)).batch(4)
    history = model.fit(ds, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert not np.allclose(model.features.weights[0].numpy(), before)


def test_functional_model_with_dict_inputs():
    cols = [fc.numeric_column("x"),
            fc.embedding_column(fc.categorical_column_with_vocabulary_list("c", ["a", "b"]), 2)]
    inputs = {"x": tf.keras.Input(shape=(1,), name="x"),
              "c": tf.keras.Input(shape=(1,), dtype="string", name="c")}
    hidden = tf.keras.layers.DenseFeatures(cols)(inputs)
    assert tuple(hidden.shape) == (None, 3)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(hidden))
    assert model.count_params() == 4 * 2 and len(model.trainable_weights) == 3
    out = model({"x": np.array([[1.0], [2.0]]), "c": np.array([["a"], ["b"]])})
    assert out.shape == (2, 1)


def test_end_to_end_csv_to_dense_features_fit(tmp_path):
    # make_csv_dataset -> (OrderedDict of columns, label) batches -> DenseFeatures -> fit
    rng = np.random.default_rng(0)
    rows = ["age,city,label"]
    for _ in range(64):
        age, city = int(rng.integers(18, 80)), str(rng.choice(["paris", "lima", "oslo"]))
        rows.append(f"{age},{city},{int(age > 45 or city == 'oslo')}")
    path = tmp_path / "people.csv"
    path.write_text("\n".join(rows) + "\n")
    ds = tf.data.experimental.make_csv_dataset(str(path), batch_size=16, label_name="label",
                                               num_epochs=1, shuffle_seed=1)
    city = fc.categorical_column_with_hash_bucket("city", 8)
    cols = [fc.numeric_column("age", normalizer_fn=lambda x: (x - 50.0) / 20.0),
            fc.indicator_column(fc.bucketized_column(fc.numeric_column("age"), [30, 45, 60])),
            fc.embedding_column(city, 3)]
    tf.random.set_seed(3)
    model = tf.keras.Sequential([tf.keras.layers.DenseFeatures(cols),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="binary_crossentropy",
                  metrics=["accuracy"])
    model(next(iter(ds))[0])  # build, to see the embedding table before training
    table = model.layers[0].weights[0]
    assert table.name == "city_embedding/embedding_weights" and table.shape == (8, 3)
    before = table.numpy().copy()
    history = model.fit(ds.map(lambda f, y: (f, tf.cast(y, tf.float32))), epochs=15,
                        verbose=0)
    assert history.history["loss"][-1] < 0.6 * history.history["loss"][0]
    assert history.history["accuracy"][-1] >= 0.9
    assert not np.allclose(table.numpy(), before)  # fit trained the embedding
