"""Feature column constructors (reprs, names, sizes, argument errors) and the ids they make."""
import numpy as np
import pytest

import minitf as tf

fc = tf.feature_column


def ids(column, features):
    return column.get_ids(features).numpy().tolist()


def test_reprs_and_names_as_tensorflow(tmp_path):
    # verified against TF 2.21 (repr, .name, .num_buckets, .variable_shape)
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("red\ngreen\nblue\n")
    n = fc.numeric_column("age")
    assert repr(n) == ("NumericColumn(key='age', shape=(1,), default_value=None, "
                       "dtype=tf.float32, normalizer_fn=None)")
    assert n.name == "age" and n.variable_shape == tf.TensorShape([1])
    b = fc.bucketized_column(n, [18, 30, 50])
    assert repr(b) == f"BucketizedColumn(source_column={n!r}, boundaries=(18, 30, 50))"
    assert (b.name, b.num_buckets, b.variable_shape) == ("age_bucketized", 4,
                                                          tf.TensorShape([1, 4]))
    v = fc.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"],
                                                   num_oov_buckets=1)
    assert repr(v) == ("VocabularyListCategoricalColumn(key='color', vocabulary_list=('red', "
                       "'green', 'blue'), dtype=tf.string, default_value=-1, num_oov_buckets=1)")
    assert (v.name, v.num_buckets) == ("color", 4)
    vf = fc.categorical_column_with_vocabulary_file("color", str(vocab))
    assert repr(vf) == (f"VocabularyFileCategoricalColumn(key='color', vocabulary_file="
                        f"'{vocab}', vocabulary_size=3, num_oov_buckets=0, dtype=tf.string, "
                        "default_value=-1, file_format=None)")
    assert vf.num_buckets == 3
    h = fc.categorical_column_with_hash_bucket("city", 10)
    assert repr(h) == "HashedCategoricalColumn(key='city', hash_bucket_size=10, dtype=tf.string)"
    i = fc.categorical_column_with_identity("id", 4)
    assert repr(i) == "IdentityCategoricalColumn(key='id', number_buckets=4, default_value=None)"
    assert (i.name, i.num_buckets) == ("id", 4)
    ind = fc.indicator_column(v)
    assert repr(ind) == f"IndicatorColumn(categorical_column={v!r})"
    assert (ind.name, ind.variable_shape) == ("color_indicator", tf.TensorShape([1, 4]))
    e = fc.embedding_column(h, 3)
    assert repr(e).startswith(f"EmbeddingColumn(categorical_column={h!r}, dimension=3, "
                              "combiner='mean', initializer=")
    assert repr(e).endswith("ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None, "
                            "trainable=True, use_safe_embedding_lookup=True)")
    assert (e.name, e.variable_shape) == ("city_embedding", tf.TensorShape([3]))
    x = fc.crossed_column([b, "city"], 20)
    assert repr(x) == f"CrossedColumn(keys=({b!r}, 'city'), hash_bucket_size=20, hash_key=None)"
    assert (x.name, x.num_buckets) == ("age_bucketized_X_city", 20)


def test_constructor_errors_as_tensorflow():
    # verified against TF 2.21: ValueError with these texts
    n = fc.numeric_column("age")
    v = fc.categorical_column_with_vocabulary_list("color", ["red"])
    h = fc.categorical_column_with_hash_bucket("c", 5)
    cases = [
        (lambda: fc.bucketized_column(v, [1]),
         "source_column must be a column generated with numeric_column()"),
        (lambda: fc.bucketized_column(n, [3, 1]), "boundaries must be a sorted list"),
        (lambda: fc.numeric_column("a", dtype=tf.string), "dtype must be convertible to float"),
        (lambda: fc.embedding_column(h, 0), "Invalid dimension 0"),
        (lambda: fc.categorical_column_with_identity("id", 0),
         r"num_buckets 0 < 1, column_name id"),
        (lambda: fc.crossed_column(["a"], 10), "keys must be a list with length > 1"),
        (lambda: fc.categorical_column_with_vocabulary_list("c", ["a", "a"]),
         r"Duplicate keys in vocabulary_list \['a', 'a'\], column_name: c"),
        (lambda: fc.indicator_column(n),
         "Unsupported input type. Input must be a CategoricalColumn"),
        (lambda: fc.crossed_column([h, "b"], 10), "not supported for crossing"),
        (lambda: fc.categorical_column_with_hash_bucket("c", 0),
         "hash_bucket_size must be at least 1"),
    ]
    for make, message in cases:
        with pytest.raises(ValueError, match=message):
            make()
    with pytest.raises(tf.errors.NotFoundError, match="No such file"):
        fc.categorical_column_with_vocabulary_file("c", "/nonexistent/vocab.txt")


def test_numeric_column_values():
    col = fc.numeric_column("h", shape=(2,), normalizer_fn=lambda x: x * 2.0)
    out = col.get_dense_tensor({"h": tf.constant([[1, 2], [3, 4]])})
    assert out.dtype == tf.float32 and out.numpy().tolist() == [[2, 4], [6, 8]]
    out = fc.numeric_column("a").get_dense_tensor({"a": [1, 2]})  # rank 1 -> [batch, 1]
    assert out.numpy().tolist() == [[1.0], [2.0]]


def test_bucketized_ids_and_one_hot():
    # verified against TF 2.21: ids offset per element, one-hot [batch, 2, 3]
    b2 = fc.bucketized_column(fc.numeric_column("p", shape=(2,)), [0.0, 1.0])
    feats = {"p": tf.constant([[-1.0, 0.5], [2.0, 1.0]])}
    assert ids(b2, feats) == [[0, 4], [2, 5]]
    assert b2.get_dense_tensor(feats).numpy().tolist() == [
        [[1, 0, 0], [0, 1, 0]], [[0, 0, 1], [0, 0, 1]]]


def test_vocabulary_ids():
    # verified against TF 2.21 (OOV buckets use Fingerprint64 of the value's text)
    v = fc.categorical_column_with_vocabulary_list("c", ["red", "green"], num_oov_buckets=3)
    feats = {"c": tf.constant([["red"], ["pink"], ["teal"], ["gray"], ["green"], [""]])}
    assert ids(v, feats) == [[0], [4], [3], [4], [1], [-1]]
    vi = fc.categorical_column_with_vocabulary_list("c", [10, 20], num_oov_buckets=3)
    assert ids(vi, {"c": tf.constant([[10], [7], [99], [20]], tf.int64)}) == [[0], [3], [2], [1]]
    vd = fc.categorical_column_with_vocabulary_list("c", ["red", "green"], default_value=5)
    assert ids(vd, {"c": tf.constant([["red"], ["pink"]])}) == [[0], [5]]


def test_vocabulary_file_ids(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("red\ngreen\nblue\n")
    col = fc.categorical_column_with_vocabulary_file("c", str(path), num_oov_buckets=3)
    # the OOV hash of "pink" is the one verified in test_vocabulary_ids, now after 3 words
    assert ids(col, {"c": ["blue", "pink", "red"]}) == [[2], [5], [0]]


def test_hash_and_identity_ids():
    # verified against TF 2.21
    h = fc.categorical_column_with_hash_bucket("city", 10)
    assert ids(h, {"city": ["paris", "lima", "paris"]}) == [[7], [3], [7]]
    hi = fc.categorical_column_with_hash_bucket("n", 10, dtype=tf.int64)
    assert ids(hi, {"n": tf.constant([[7], [123], [-1]], tf.int64)}) == [[8], [1], [-1]]
    idc = fc.categorical_column_with_identity("d", 4, default_value=0)
    assert ids(idc, {"d": tf.constant([[1], [9], [-3]], tf.int64)}) == [[1], [0], [0]]


def test_crossed_ids():
    # verified against TF 2.21 (tf.feature_column + FeatureTransformationCache)
    age = fc.bucketized_column(fc.numeric_column("age"), [30])
    cross = fc.crossed_column([age, "city"], hash_bucket_size=7)
    assert ids(cross, {"age": [[12.0], [40.0]], "city": [["paris"], ["paris"]]}) == [[0], [4]]
    cross3 = fc.crossed_column(["a", "b", "n"], 1000)
    feats = {"a": [["x"], ["y"]], "b": [["u"], ["v"]], "n": tf.constant([[3], [-5]], tf.int64)}
    assert ids(cross3, feats) == [[947], [425]]
    cross2 = fc.crossed_column(["a", "b"], 50, hash_key=123)  # raw '' is crossed too, as in TF
    assert ids(cross2, {"a": [["x", "y"], ["z", ""]], "b": [["u"], ["v"]]}) == [[22, 38], [4, 49]]


def test_indicator_counts_and_missing():
    # verified against TF 2.21
    ind = fc.indicator_column(fc.categorical_column_with_vocabulary_list("c", ["a", "b", "c"]))
    out = ind.get_dense_tensor({"c": tf.constant([["a", "c"], ["b", "b"], ["", ""]])})
    assert out.numpy().tolist() == [[1, 0, 1], [0, 2, 0], [0, 0, 0]]


def test_input_errors():
    h = fc.categorical_column_with_hash_bucket("n", 10, dtype=tf.int64)
    with pytest.raises(ValueError, match="Column dtype and SparseTensors dtype must be compatible"):
        h.get_ids({"n": ["7"]})  # verified against TF 2.21
    ident = fc.categorical_column_with_identity("id", 4)
    with pytest.raises(ValueError, match="Invalid input, not integer. key: id"):
        ident.get_ids({"id": ["7"]})  # verified against TF 2.21
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[1\] = 5 is not in \[0, 4\)"):
        ident.get_ids({"id": tf.constant([[0], [5]], tf.int64)})  # TF: in the embedding gather
    with pytest.raises(ValueError, match="Feature idx is not in features dictionary"):
        fc.categorical_column_with_identity("idx", 4).get_ids({"id": [1]})
    with pytest.raises(tf.errors.UnimplementedError, match="Cast string to float is not supported"):
        fc.numeric_column("age").get_dense_tensor({"age": ["x"]})  # verified against TF 2.21
    b = fc.bucketized_column(fc.numeric_column("age"), [1.0])
    with pytest.raises(tf.errors.UnimplementedError, match="Cast string to float"):
        b.get_dense_tensor({"age": ["x"]})


def test_embedding_combiners():
    table = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)

    class State:
        def get_variable(self, column, name):
            return tf.Variable(table)

    cat = fc.categorical_column_with_vocabulary_list("c", ["a", "b", "c"])
    feats = {"c": tf.constant([["a", "c"], ["b", ""], ["z", ""]])}
    # sum, mean = sum / n, sqrtn = sum / sqrt(n); a row with no ids gives zeros
    # verified against TF 2.21 (EmbeddingColumn.get_dense_tensor with this table)
    expected = {"sum": [[6, 8], [3, 4], [0, 0]], "mean": [[3, 4], [3, 4], [0, 0]],
                "sqrtn": [[6 / 2**0.5, 8 / 2**0.5], [3, 4], [0, 0]]}
    for combiner, want in expected.items():
        col = fc.embedding_column(cat, 2, combiner=combiner)
        np.testing.assert_allclose(col.get_dense_tensor(feats, State()).numpy(), want, rtol=1e-6)


def test_crossed_key_order_as_tensorflow():
    # verified against TF 2.21 (tf.compat.v1.feature_column.input_layer, argmax of the
    # indicator): TF crosses the categorical columns' ids first, then the raw features,
    # so ["w", b, "n"] hashes like [b, "w", "n"], and a raw int like an identity id.
    feats = {"w": tf.constant([["apple"], ["kiwi"], ["zz"], ["mango"]]),
             "n": tf.constant([[3], [1], [2], [0]], tf.int64),
             "a": tf.constant([[5.0], [25.0], [45.0], [65.0]])}
    b = fc.bucketized_column(fc.numeric_column("a"), [10, 30, 50])
    v = fc.categorical_column_with_vocabulary_list("w", ["kiwi", "apple"], num_oov_buckets=2)
    i = fc.categorical_column_with_identity("n", 4)
    expected = [(["w", b, "n"], [62, 590, 867, 507]), ([v, i], [651, 963, 891, 441]),
                ([i, v, b], [985, 975, 503, 461]), (["n", v], [651, 963, 891, 441]),
                ([b, "w"], [1, 632, 723, 63]), (["w", b], [1, 632, 723, 63])]
    for keys, want in expected:
        assert np.ravel(ids(fc.crossed_column(keys, 1000), feats)).tolist() == want, keys


def test_duplicate_column_names_in_dense_features():
    # verified against TF 2.21: ValueError "Duplicate feature column name found for columns"
    h = fc.indicator_column(fc.categorical_column_with_hash_bucket("w", 13))
    v = fc.indicator_column(fc.categorical_column_with_vocabulary_list("w", ["a"]))
    with pytest.raises(ValueError, match="Duplicate feature column name found for columns"):
        tf.keras.layers.DenseFeatures([h, v])
