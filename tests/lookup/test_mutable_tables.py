"""tf.lookup.experimental.MutableHashTable and DenseHashTable, and the tf.data.experimental
tables: insert/lookup/remove/export/size, vector values, errors, tf.function (captured,
inserting on every call), DenseHashTable's buckets as TF lays them out."""
import pytest

import minitf as tf

E = tf.lookup.experimental
experimental = tf.data.experimental


def i64(values):
    return tf.constant(values, tf.int64)


def test_mutable_hash_table_insert_lookup_remove_export():
    table = E.MutableHashTable(tf.string, tf.int64, -1)
    assert table.insert(["a", "b"], i64([1, 2])) is None
    out = table.lookup(tf.constant(["a", "x"]))
    assert out.dtype == tf.int64 and out.numpy().tolist() == [1, -1]
    assert int(table.size()) == 2
    keys, values = table.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"a", 1), (b"b", 2)]
    table.insert(["a"], [5])  # a Python list converts to the value dtype
    assert table[tf.constant(["a"])].numpy().tolist() == [5]
    assert table.remove(tf.constant(["a", "q"])) is None
    assert int(table.size()) == 1
    table.insert([["p", "q"]], i64([[1, 2]]))
    assert table.lookup([["p", "b", "a"]]).numpy().tolist() == [[1, 2, -1]]
    dynamic = table.lookup(tf.constant(["zz", "p"]), dynamic_default_values=i64([100, 200]))
    assert dynamic.numpy().tolist() == [100, 1]
    assert (table.key_dtype, table.value_dtype, table.name) == (tf.string, tf.int64, None)


def test_mutable_hash_table_vector_values():
    table = E.MutableHashTable(tf.string, tf.float32, [0.0, 0.0])
    table.insert(["a"], [[1.0, 2.0]])
    assert table.lookup(["a", "b"]).numpy().tolist() == [[1.0, 2.0], [0.0, 0.0]]
    keys, values = table.export()
    assert values.shape == (1, 2) and keys.numpy().tolist() == [b"a"]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected shape \[1,2\] for value, got \[1,3\]"):
        table.insert(["a"], [[1.0, 2.0, 3.0]])


def test_mutable_hash_table_errors():
    table = E.MutableHashTable(tf.string, tf.int64, -1)
    with pytest.raises(ValueError, match="values: Tensor conversion requested dtype int64 for "
                                         "Tensor with dtype float32"):
        table.insert(["a"], tf.constant([1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected shape \[2\] for value, got \[1\]"):
        table.insert(["a", "b"], i64([1]))
    with pytest.raises(ValueError, match="keys: Tensor conversion requested dtype string"):
        table.lookup(tf.constant([1]))
    with pytest.raises(TypeError, match="Dtype of argument `keys` must be <dtype: 'string'>"):
        table.remove(tf.constant([1]))
    with pytest.raises(TypeError, match="Cannot convert 'x' to EagerTensor of dtype int64"):
        E.MutableHashTable(tf.string, tf.int64, "x")
    with pytest.raises(tf.errors.NotFoundError, match="MutableHashTableV2.*key_dtype=DT_FLOAT"):
        E.MutableHashTable(tf.float32, tf.int64, -1)
    with pytest.raises(tf.errors.NotFoundError, match="value_dtype=DT_STRING"):
        E.MutableHashTable(tf.string, tf.string, "")


def test_mutable_hash_table_in_tf_function_changes_the_same_table():
    counts = E.MutableHashTable(tf.string, tf.int64, 0)

    @tf.function
    def bump(word):
        counts.insert(word, counts.lookup(word) + 1)
        return counts.size()

    sizes = [int(bump(tf.constant(w))) for w in ["to", "be", "or", "to", "to"]]
    assert sizes == [1, 2, 3, 3, 3]
    assert bump.experimental_get_tracing_count() == 1
    assert counts.lookup(tf.constant(["to", "be", "zz"])).numpy().tolist() == [3, 1, 0]
    graph = str(bump.get_concrete_function(tf.constant("a")).graph)
    assert "LookupTableInsertV2" in graph and "LookupTableFindV2" in graph


def test_dense_hash_table_buckets_follow_tf():
    table = E.DenseHashTable(tf.int64, tf.int64, -1, empty_key=-1, deleted_key=-2,
                             initial_num_buckets=8)
    table.insert(i64([5, 13, 21, 3]), i64([50, 130, 210, 30]))
    keys, values = table.export()
    assert keys.shape == (8, 1) and values.shape == (8, 1)
    # real TF 2.21: 13 and 21 collide with 5 and probe on (+1, then +2)
    assert keys.numpy().ravel().tolist() == [21, -1, -1, 3, -1, 5, 13, -1]
    assert values.numpy().ravel().tolist() == [210, 0, 0, 30, 0, 50, 130, 0]
    table.remove(i64([13]))
    assert table.export()[0].numpy().ravel().tolist() == [21, -1, -1, 3, -1, 5, -2, -1]
    table.insert(i64([29]), i64([290]))  # reuses the deleted bucket
    assert table.export()[0].numpy().ravel().tolist() == [21, -1, -1, 3, -1, 5, 29, -1]
    assert table.lookup(i64([21, 29, 13])).numpy().tolist() == [210, 290, -1]
    table.insert_or_assign(i64([1, 2, 7]), i64([1, 2, 7]))  # 7 entries > 0.8 * 8: doubles
    assert table.export()[0].shape == (16, 1) and int(table.size()) == 7
    table.erase(i64([7]))
    assert int(table.size()) == 6


def test_dense_hash_table_errors_and_defaults():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Empty and deleted keys cannot be equal"):
        E.DenseHashTable(tf.int64, tf.int64, -1, 0, 0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Number of buckets must be at least 4 and a power of 2, got: 6"):
        E.DenseHashTable(tf.int64, tf.int64, -1, -1, -2, initial_num_buckets=6)
    table = E.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=-1)
    assert table.export()[0].shape == (131072, 1)
    for bad, what in ((0, "empty_key"), (-1, "deleted_key")):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f"Using the {what} as a table key is not allowed"):
            table.insert(i64([bad]), i64([1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="empty_key"):
        table.lookup(i64([0]))
    with pytest.raises(tf.errors.NotFoundError, match="MutableDenseHashTableV2"):
        E.DenseHashTable(tf.int32, tf.int64, -1, 0, -1)
    words = E.DenseHashTable(tf.string, tf.float32, [0.0, 0.0], "", "$", initial_num_buckets=4)
    words.insert(["hi"], [[1.0, 2.0]])
    assert words.lookup(["hi", "yo"]).numpy().tolist() == [[1.0, 2.0], [0.0, 0.0]]
    assert [t.shape for t in words.export()] == [(4, 1), (4, 2)]


def test_tables_from_datasets():
    source = tf.data.Dataset.from_tensor_slices
    index = experimental.index_table_from_dataset(source(["x", "y"]), num_oov_buckets=1)
    assert index.lookup(tf.constant(["y", "z"])).numpy().tolist() == [1, 2]
    plain = experimental.index_table_from_dataset(source(["x", "y"]))
    assert plain.lookup(tf.constant(["y", "z"])).numpy().tolist() == [1, -1]
    pairs = source((["x", "y"], [5, 6]))
    table = experimental.table_from_dataset(pairs, default_value=-1)
    out = table.lookup(tf.constant(["y", "z"]))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [6, -1]
    wide = source((["x", "y"], i64([5, 6])))
    assert experimental.table_from_dataset(wide, num_oov_buckets=2).lookup(
        tf.constant(["y", "z"])).numpy().tolist() == [6, 3]
    assert experimental.table_from_dataset(wide, vocab_size=1, default_value=-1).lookup(
        tf.constant(["y", "x"])).numpy().tolist() == [-1, 5]
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="expected to contain 3 elements but contained only 2 elements"):
        experimental.table_from_dataset(wide, vocab_size=3, default_value=-1)
    ints = experimental.table_from_dataset(source((i64([3, 4]), i64([5, 6]))), default_value=-1,
                                 key_dtype=tf.int64)
    assert ints.lookup(i64([4, 9])).numpy().tolist() == [6, -1]
    init = experimental.DatasetInitializer(pairs)
    assert (init.key_dtype, init.value_dtype) == (tf.string, tf.int32)
    assert tf.lookup.StaticHashTable(init, -1).lookup(
        tf.constant(["x", "q"])).numpy().tolist() == [5, -1]
    with pytest.raises(TypeError, match=r"\(key, value\) pairs"):
        experimental.DatasetInitializer(source(["x", "y"]))
