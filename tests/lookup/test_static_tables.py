"""tf.lookup static tables: KeyValueTensorInitializer, TextFileInitializer, StaticHashTable,
StaticVocabularyTable - values, dtypes, errors, and use in tf.function and Dataset.map.
(test_tf_lookup_real_tf.py compares the same calls with real TF.)"""
import pytest

import minitf as tf

L = tf.lookup


def letters(values=(1, 2, 3), **kw):
    return L.KeyValueTensorInitializer(["a", "b", "c"], list(values), **kw)


def test_key_value_initializer_dtypes_follow_tf_constant_or_the_given_dtypes():
    init = letters()
    assert (init.key_dtype, init.value_dtype) == (tf.string, tf.int32)
    init = letters(key_dtype=tf.string, value_dtype=tf.int64)
    assert init.value_dtype == tf.int64
    assert letters(value_dtype=tf.float32).value_dtype == tf.float32
    with pytest.raises(ValueError, match="keys: Tensor conversion requested dtype int64"):
        L.KeyValueTensorInitializer(tf.constant([1]), [1], key_dtype=tf.int64)


def test_static_hash_table_lookup_getitem_size_export():
    table = L.StaticHashTable(letters(), default_value=-1)
    out = table.lookup(tf.constant(["a", "z", "c"]))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [1, -1, 3]
    assert table[tf.constant(["b"])].numpy().tolist() == [2]
    assert table.lookup(["c", "q"]).numpy().tolist() == [3, -1]  # a list is converted
    assert table.lookup(tf.constant("b")).shape == ()
    grid = table.lookup(tf.constant([["a", "b"], ["c", "q"]]))
    assert grid.numpy().tolist() == [[1, 2], [3, -1]]
    size = table.size()
    assert size.dtype == tf.int64 and int(size) == 3
    keys, values = table.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [
        (b"a", 1), (b"b", 2), (b"c", 3)]
    assert (table.key_dtype, table.value_dtype, table.name) == (tf.string, tf.int32, None)
    assert int(table.default_value) == -1 and table.default_value.dtype == tf.int32


def test_static_hash_table_sparse_ragged_and_other_value_dtypes():
    table = L.StaticHashTable(letters(), -1)
    sparse = table.lookup(tf.sparse.SparseTensor([[0, 0], [1, 1]], ["a", "q"], [2, 2]))
    assert isinstance(sparse, tf.SparseTensor)
    assert sparse.values.numpy().tolist() == [1, -1]
    assert sparse.indices.numpy().tolist() == [[0, 0], [1, 1]]
    ragged = table.lookup(tf.ragged.constant([["a"], ["b", "q"]]))
    assert ragged.to_list() == [[1], [2, -1]]
    inverse = L.StaticHashTable(L.KeyValueTensorInitializer(
        tf.constant([1, 2], tf.int64), ["one", "two"]), "?")
    assert inverse.lookup(tf.constant([2, 3], tf.int64)).numpy().tolist() == [b"two", b"?"]
    floats = L.StaticHashTable(L.KeyValueTensorInitializer([1, 2], [10.0, 20.0]), 0.0)
    assert floats.key_dtype == tf.int32
    assert floats.lookup(tf.constant([2, 5])).numpy().tolist() == [20.0, 0.0]
    flags = L.StaticHashTable(L.KeyValueTensorInitializer(["a"], [True]), False)
    assert flags.lookup(tf.constant(["a", "b"])).numpy().tolist() == [True, False]


def test_static_hash_table_errors():
    table = L.StaticHashTable(letters(), -1)
    with pytest.raises(TypeError, match=r"Dtype of argument `keys` must be <dtype: 'string'>, "
                                        r"received: <dtype: 'int32'>"):
        table.lookup(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="Cannot convert -1.5 to EagerTensor of dtype int32"):
        L.StaticHashTable(letters(), -1.5)
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(\) are not compatible"):
        L.StaticHashTable(letters(), [0, 1])
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="HashTable has different value for same key. Key a has 1 and "
                             "trying to add value 2"):
        L.StaticHashTable(L.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1)
    same = L.StaticHashTable(L.KeyValueTensorInitializer(["a", "a"], [1, 1]), -1)
    assert int(same.size()) == 1  # a repeated pair is no conflict
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected shape \[2\] for value, got \[1\]"):
        L.StaticHashTable(L.KeyValueTensorInitializer(["a", "b"], [1]), 0)
    with pytest.raises(tf.errors.NotFoundError, match="key_dtype in \\[DT_INT32\\]; "
                                                      "value_dtype in \\[DT_DOUBLE\\]"):
        L.StaticHashTable(L.KeyValueTensorInitializer([1.0], [1]), 0)


def test_static_vocabulary_table_hashes_oov_keys_like_tf():
    init = L.KeyValueTensorInitializer(["a", "b", "c"], tf.constant([0, 1, 2], tf.int64))
    table = L.StaticVocabularyTable(init, num_oov_buckets=3)
    out = table.lookup(tf.constant(["a", "b", "c", "d", "e", "zz", "hello"]))
    assert out.dtype == tf.int64
    assert out.numpy().tolist() == [0, 1, 2, 5, 4, 4, 4]  # real TF 2.21's ids
    assert int(table.size()) == 6
    assert (table.key_dtype, table.value_dtype) == (tf.string, tf.int64)
    ints = L.KeyValueTensorInitializer(tf.constant([10, 20], tf.int64),
                                       tf.constant([0, 1], tf.int64))
    keys = [10, 20, 7, 8, 9, 100, -3]
    expected = [0, 1, 2, 5, 3, 5, 5]  # an int key hashes as its decimal text (TF 2.21)
    assert L.StaticVocabularyTable(ints, 4).lookup(
        tf.constant(keys, tf.int64)).numpy().tolist() == expected
    narrow = L.StaticVocabularyTable(ints, 4, lookup_key_dtype=tf.int32)
    assert narrow.key_dtype == tf.int32
    assert narrow.lookup(tf.constant(keys)).numpy().tolist() == expected


def test_static_vocabulary_table_errors():
    init = L.KeyValueTensorInitializer(["a"], tf.constant([0], tf.int64))
    with pytest.raises(ValueError, match="`num_oov_buckets` must be > 0; use StaticHashTable."):
        L.StaticVocabularyTable(init, 0)
    with pytest.raises(TypeError, match="Invalid `value_dtype`, expected <dtype: 'int64'> but "
                                        "got <dtype: 'int32'>."):
        L.StaticVocabularyTable(L.KeyValueTensorInitializer(["a"], [0]), 1)
    with pytest.raises(TypeError, match=r"Invalid `key_dtype`, expected one of \(tf.int64, "
                                        r"tf.string\), but got <dtype: 'int32'>."):
        L.StaticVocabularyTable(L.KeyValueTensorInitializer(
            tf.constant([1]), tf.constant([0], tf.int64)), 1)
    with pytest.raises(TypeError, match="Dtype of argument `keys`"):
        L.StaticVocabularyTable(init, 2).lookup(tf.constant([1]))


@pytest.fixture
def vocab_dir(tmp_path):
    (tmp_path / "vocab.tsv").write_text("emerson\t10\nlake\t20\npalmer\t30\n")
    (tmp_path / "v.txt").write_text("a\nb\nc\n")
    (tmp_path / "blank.txt").write_text("a\nb\n\nc\n")
    (tmp_path / "dup.txt").write_text("a\nb\na\n")
    return tmp_path


def test_text_file_initializer_columns_whole_lines_and_line_numbers(vocab_dir):
    init = L.TextFileInitializer(str(vocab_dir / "vocab.tsv"), tf.string, 0, tf.int64, 1)
    assert (init.key_dtype, init.value_dtype) == (tf.string, tf.int64)
    table = L.StaticHashTable(init, -1)
    assert table.lookup(tf.constant(["lake", "x", "palmer"])).numpy().tolist() == [20, -1, 30]
    v = str(vocab_dir / "v.txt")
    whole, number = L.TextFileIndex.WHOLE_LINE, L.TextFileIndex.LINE_NUMBER
    assert (whole, number) == (-2, -1)
    ids = L.StaticHashTable(L.TextFileInitializer(v, tf.string, whole, tf.int64, number), -1)
    assert ids.lookup(tf.constant(["a", "c", "q"])).numpy().tolist() == [0, 2, -1]
    words = L.StaticHashTable(L.TextFileInitializer(v, tf.int64, number, tf.string, whole), "UNK")
    assert words.lookup(tf.constant([0, 2, 5], tf.int64)).numpy().tolist() == [b"a", b"c", b"UNK"]
    offset = L.StaticHashTable(L.TextFileInitializer(v, tf.string, -2, tf.int64, -1,
                                                     value_index_offset=10), -1)
    assert offset.lookup(tf.constant(["a", "c"])).numpy().tolist() == [10, 12]
    first_two = L.StaticHashTable(L.TextFileInitializer(v, tf.string, -2, tf.int64, -1,
                                                        vocab_size=2), -1)
    assert first_two.lookup(tf.constant(["a", "c"])).numpy().tolist() == [0, -1]
    by_number = L.StaticHashTable(L.TextFileInitializer(str(vocab_dir / "vocab.tsv"), tf.int64,
                                                        1, tf.string, 0), "?")
    assert by_number.lookup(tf.constant([20, 5], tf.int64)).numpy().tolist() == [b"lake", b"?"]
    oov = L.StaticVocabularyTable(L.TextFileInitializer(v, tf.string, -2, tf.int64, -1), 2)
    assert oov.lookup(tf.constant(["a", "c", "zz", "d"])).numpy().tolist() == [0, 2, 3, 4]


def test_text_file_initializer_errors(vocab_dir):
    v = str(vocab_dir / "v.txt")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Invalid vocab_size in .*v.txt: expected 5 but got 3"):
        L.StaticHashTable(L.TextFileInitializer(v, tf.string, -2, tf.int64, -1, vocab_size=5), -1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="empty line found at position 5"):
        L.StaticHashTable(L.TextFileInitializer(str(vocab_dir / "blank.txt"), tf.string, -2,
                                                tf.int64, -1), -1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Invalid number of columns in .*vocab.tsv line 0 \(emerson\t10\) : "
                             "expected at least 6 got 2"):
        L.StaticHashTable(L.TextFileInitializer(str(vocab_dir / "vocab.tsv"), tf.string, 0,
                                                tf.int64, 5), -1)
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="Key a has 0 and trying to add value 2"):
        L.StaticHashTable(L.TextFileInitializer(str(vocab_dir / "dup.txt"), tf.string, -2,
                                                tf.int64, -1), -1)
    with pytest.raises(tf.errors.NotFoundError, match="nope.txt; No such file or directory"):
        L.StaticHashTable(L.TextFileInitializer(str(vocab_dir / "nope.txt"), tf.string, -2,
                                                tf.int64, -1), -1)
    with pytest.raises(ValueError, match="`key_dtype` must be int64 if `key_index` is -1, "
                                         "received: <dtype: 'string'>"):
        L.TextFileInitializer(v, tf.string, -1, tf.int64, -2)
    with pytest.raises(ValueError, match="`filename` argument required"):
        L.TextFileInitializer("", tf.string, -2, tf.int64, -1)
    with pytest.raises(ValueError, match="`key_index` should be >= -2, received: -3."):
        L.TextFileInitializer(v, tf.string, -3, tf.int64, -1)


def test_static_tables_in_tf_function_and_dataset_map():
    table = L.StaticHashTable(L.KeyValueTensorInitializer(
        ["a", "b"], tf.constant([1, 2], tf.int64)), -1)

    @tf.function
    def find(x):
        return table.lookup(x)

    assert find(tf.constant(["b", "q"])).numpy().tolist() == [2, -1]
    graph = find.get_concrete_function(tf.constant(["b"])).graph
    assert "LookupTableFindV2" in str(graph)
    mapped = tf.data.Dataset.from_tensor_slices(["a", "b", "z"]).map(table.lookup)
    assert [int(v) for v in mapped.as_numpy_iterator()] == [1, 2, -1]
    vocab = L.StaticVocabularyTable(L.KeyValueTensorInitializer(
        ["a", "b", "c"], tf.constant([0, 1, 2], tf.int64)), 3)
    assert tf.function(vocab.lookup)(tf.constant(["c", "zz"])).numpy().tolist() == [2, 4]

    @tf.function
    def build_inside():
        inner = L.StaticHashTable(L.KeyValueTensorInitializer(["a"], [1]), -1)
        return inner.lookup(tf.constant("a"))

    assert int(build_inside()) == 1

