"""StringLookup and IntegerLookup without real TF: expectations derived by hand.

Index layout: [mask (int mode only, if set)] [num_oov_indices OOV] [tokens...].
Adapted tokens are ordered by count, ties by reverse sort order.
"""
import math

import numpy as np
import pytest

import minitf as tf

L = tf.keras.layers


def test_adapt_orders_by_count_then_reverse_sort_order():
    layer = L.StringLookup()
    layer.adapt([["a", "c", "d"], ["d", "z", "b"]])
    # d appears twice; the rest once each, larger strings first
    assert layer.get_vocabulary() == ["[UNK]", "d", "z", "c", "b", "a"]
    assert layer.get_vocabulary(include_special_tokens=False) == ["d", "z", "c", "b", "a"]
    assert layer.vocabulary_size() == 6
    out = layer(tf.constant([["a", "q"], ["d", "z"]]))
    assert out.dtype == tf.int64 and out.shape == (2, 2)
    np.testing.assert_array_equal(out.numpy(), [[5, 0], [1, 2]])


def test_vocabulary_items_are_numpy_scalars_as_in_keras():
    layer = L.StringLookup(vocabulary=["x"], mask_token="")
    vocab = layer.get_vocabulary()
    assert [type(v) for v in vocab] == [str, str, np.str_]
    ints = L.IntegerLookup(vocabulary=[4])
    assert [type(v) for v in ints.get_vocabulary()] == [int, np.int64]


def test_scalar_list_and_array_inputs():
    layer = L.StringLookup(vocabulary=["a", "b"])
    assert layer("b").shape == () and int(layer("b")) == 2
    np.testing.assert_array_equal(layer(["a", "zz"]).numpy(), [1, 0])
    np.testing.assert_array_equal(layer(np.array([["b"], ["a"]])).numpy(), [[2], [1]])


def test_mask_token_takes_index_zero_in_int_mode():
    layer = L.StringLookup(vocabulary=["x", "y"], mask_token="")
    assert layer.get_vocabulary() == ["", "[UNK]", "x", "y"]
    np.testing.assert_array_equal(layer([["x", ""], ["q", "y"]]).numpy(), [[2, 0], [1, 3]])


def test_mask_token_is_dropped_in_count_mode():
    layer = L.StringLookup(vocabulary=["x", "y"], mask_token="", output_mode="count")
    assert layer.get_vocabulary() == ["[UNK]", "x", "y"]  # no mask slot outside "int"
    np.testing.assert_array_equal(layer([["x", "x"], ["y", ""]]).numpy(), [[0, 2, 0], [0, 0, 1]])


def test_special_tokens_at_the_start_of_a_vocabulary_are_recognised():
    layer = L.StringLookup(vocabulary=["", "[UNK]", "a"], mask_token="")
    assert layer.get_vocabulary() == ["", "[UNK]", "a"]
    assert layer.vocabulary_size() == 3


def test_one_hot_multi_hot_count():
    vocab = ["x", "y"]
    one_hot = L.StringLookup(vocabulary=vocab, output_mode="one_hot")
    np.testing.assert_array_equal(one_hot(["x", "q", "y"]).numpy(),
                                  [[0, 1, 0], [1, 0, 0], [0, 0, 1]])
    assert one_hot([["x"], ["y"]]).shape == (2, 3)  # a last axis of 1 is encoded in place
    multi = L.StringLookup(vocabulary=vocab, output_mode="multi_hot")
    out = multi([["x", "x"], ["y", "q"]])
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [[0, 1, 0], [1, 0, 1]])
    np.testing.assert_array_equal(multi(["x", "y"]).numpy(), [0, 1, 1])  # one sample
    count = L.StringLookup(vocabulary=vocab, output_mode="count")
    np.testing.assert_array_equal(count([["x", "x", "y"]]).numpy(), [[0, 2, 1]])


def test_pad_to_max_tokens_widens_the_encoding():
    layer = L.StringLookup(vocabulary=["x"], output_mode="multi_hot", max_tokens=5,
                           pad_to_max_tokens=True)
    np.testing.assert_array_equal(layer([["x"]]).numpy(), [[0, 1, 0, 0, 0]])


def test_tf_idf_from_adapt():
    layer = L.StringLookup(output_mode="tf_idf")
    layer.adapt(tf.constant([["a", "b"], ["a", "c"], ["a", "a"]]))
    assert layer.get_vocabulary() == ["[UNK]", "a", "c", "b"]
    idf_a, idf_bc = math.log(1 + 3 / 4), math.log(1 + 3 / 2)  # 3 documents; a in all 3
    expected = [(idf_a + 2 * idf_bc) / 3, idf_a, idf_bc, idf_bc]  # OOV: the mean
    np.testing.assert_allclose(layer.idf_weights.numpy(), expected, rtol=1e-6)
    out = layer([["a", "a", "b"]])
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), [[0, 2 * idf_a, 0, idf_bc]], rtol=1e-6)
    assert layer.weights == []  # Keras does not track the idf variable


def test_tf_idf_with_given_weights():
    layer = L.StringLookup(vocabulary=["a", "b"], idf_weights=[0.5, 1.5], output_mode="tf_idf")
    np.testing.assert_allclose(layer.idf_weights.numpy(), [1.0, 0.5, 1.5])  # OOV: average
    np.testing.assert_allclose(layer([["b", "b", "z"]]).numpy(), [[1.0, 0.0, 3.0]])


def test_invert_maps_indices_back_to_tokens():
    layer = L.StringLookup(vocabulary=["x", "y"], invert=True)
    out = layer(tf.constant([0, 1, 2, 5]))
    assert out.dtype == tf.string
    assert out.numpy().tolist() == [b"[UNK]", b"x", b"y", b"[UNK]"]
    masked = L.StringLookup(vocabulary=["x"], mask_token="", invert=True)
    assert masked([0, 1, 2]).numpy().tolist() == [b"", b"[UNK]", b"x"]
    ints = L.IntegerLookup(vocabulary=[7, 8], invert=True)
    out = ints([0, 1, 2])
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [-1, 7, 8])


def test_several_oov_indices_hash_strings_with_fingerprint64():
    layer = L.StringLookup(num_oov_indices=2, vocabulary=["a"])
    assert layer.get_vocabulary() == ["[UNK]", "[UNK]", "a"]
    words = ["a", "hello", "world", "zz"]
    buckets = tf.strings.to_hash_bucket_fast(words[1:], 2).numpy().tolist()
    np.testing.assert_array_equal(layer(words).numpy(), [2] + buckets)


def test_several_oov_indices_floormod_for_integers():
    layer = L.IntegerLookup(num_oov_indices=3, vocabulary=[100])
    np.testing.assert_array_equal(layer([100, 7, 9, -1]).numpy(), [3, 1, 0, 2])
    farm = L.IntegerLookup(num_oov_indices=3, vocabulary=[100], oov_method="farmhash")
    expected = tf.strings.to_hash_bucket_fast(["7"], 3).numpy()[0]
    assert farm([7]).numpy()[0] == expected


def test_no_oov_index_makes_unknown_tokens_an_error():
    layer = L.StringLookup(num_oov_indices=0, vocabulary=["a"])
    np.testing.assert_array_equal(layer(["a"]).numpy(), [0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_oov_indices=0"):
        layer(["a", "b"])


def test_integer_lookup_adapt_and_int32_inputs():
    layer = L.IntegerLookup()
    layer.adapt([5, 3, 3, 9, 9, 1])
    assert layer.get_vocabulary() == [-1, 9, 3, 5, 1]
    out = layer(tf.constant([3, 7], tf.int32))
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [2, 0])
    assert layer.get_config()["vocabulary_dtype"] == "int64"


def test_max_tokens_caps_the_adapted_vocabulary():
    layer = L.StringLookup(max_tokens=3)
    layer.adapt(["a", "a", "a", "b", "b", "c"])
    assert layer.get_vocabulary() == ["[UNK]", "a", "b"]


def test_adapt_ignores_the_special_tokens():
    layer = L.StringLookup(mask_token="")
    layer.adapt(["", "", "[UNK]", "w"])
    assert layer.get_vocabulary() == ["", "[UNK]", "w"]


def test_adapt_dataset_each_batch_is_one_document_and_steps():
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "q", "a", "z", "z", "z"]).batch(2)
    layer = L.StringLookup()
    layer.adapt(ds, steps=2)  # "a", "b", "q", "a" only
    assert layer.get_vocabulary() == ["[UNK]", "a", "q", "b"]


def test_set_vocabulary_replaces_and_checks():
    layer = L.StringLookup()
    layer.set_vocabulary(["p", "q"])
    np.testing.assert_array_equal(layer(["q"]).numpy(), [2])
    with pytest.raises(ValueError, match="repeated term"):
        layer.set_vocabulary(["p", "p"])
    with pytest.raises(ValueError, match="Cannot set an empty vocabulary"):
        layer.set_vocabulary([])
    with pytest.raises(ValueError, match="reserved mask token"):
        L.StringLookup(vocabulary=["a", ""], mask_token="")
    with pytest.raises(ValueError, match="larger than the maximum vocab size"):
        L.StringLookup(vocabulary=["a", "b", "c"], max_tokens=3)
    with pytest.raises(ValueError, match="Cannot adapt layer"):
        L.StringLookup(vocabulary=["a"]).adapt(["a"])


def test_vocabulary_from_a_file(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("cat\ndog\n", encoding="utf-8")
    layer = L.StringLookup(vocabulary=str(path))
    assert layer.get_vocabulary() == ["[UNK]", "cat", "dog"]
    np.testing.assert_array_equal(layer(["dog", "emu"]).numpy(), [2, 0])
    assert layer.get_config()["vocabulary"] is None  # the file's tokens go to the assets
    with pytest.raises(ValueError, match="does not exist"):
        L.StringLookup(vocabulary=str(tmp_path / "missing.txt"))


def test_constructor_errors_as_keras():
    with pytest.raises(ValueError, match="`max_tokens` must be greater than 1"):
        L.StringLookup(max_tokens=1)
    with pytest.raises(ValueError, match="Unknown value for `output_mode`"):
        L.StringLookup(output_mode="bag")
    with pytest.raises(ValueError, match="must be `'int'` when `invert` is true"):
        L.StringLookup(invert=True, output_mode="count")
    with pytest.raises(ValueError, match="`idf_weights` argument must also be provided"):
        L.StringLookup(vocabulary=["a"], output_mode="tf_idf")
    with pytest.raises(ValueError, match="pad_to_max_tokens is True, must set `max_tokens`"):
        L.StringLookup(pad_to_max_tokens=True)
    with pytest.raises(ValueError, match="Only `vocabulary_dtype='int64'`"):
        L.IntegerLookup(vocabulary_dtype="int32")


def test_encoding_before_a_vocabulary_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="must set the layer's vocabulary"):
        L.StringLookup(output_mode="multi_hot")(["a"])


def test_vocabulary_size_is_frozen_in_encoded_modes():
    layer = L.StringLookup(output_mode="multi_hot")
    layer.adapt(["a", "b"])
    with pytest.raises(RuntimeError, match="vocabulary size cannot be changed"):
        layer.adapt(["a", "b", "c"])


def test_wrong_input_dtype_is_a_clear_error():
    with pytest.raises(TypeError, match="looks up string values"):
        L.StringLookup(vocabulary=["a"])(tf.constant([1.5]))


def test_binary_and_tf_dash_idf_are_keras_aliases():
    assert L.StringLookup(output_mode="binary").output_mode == "multi_hot"
    assert L.StringLookup(output_mode="tf-idf").output_mode == "tf_idf"


def test_inside_dataset_map_and_tf_function():
    layer = L.StringLookup(vocabulary=["a", "b"])
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "q"]).batch(2).map(layer)
    assert [t.numpy().tolist() for t in ds] == [[1, 2], [0]]
    counted = L.IntegerLookup(vocabulary=[10, 20], output_mode="count")
    f = tf.function(lambda x: counted(x))
    np.testing.assert_array_equal(f(tf.constant([[10, 10, 20]], tf.int64)).numpy(), [[0, 2, 1]])


def test_in_a_functional_model_with_keras_output_specs():
    inp = tf.keras.Input(shape=(2,), dtype="string")
    ids = L.StringLookup(vocabulary=["a", "b"])(inp)
    assert ids.dtype == "int64" and tuple(ids.shape) == (None, 2)
    hot = L.StringLookup(vocabulary=["a", "b"], output_mode="multi_hot")(inp)
    assert hot.dtype == "float32" and tuple(hot.shape) == (None, 3)  # Keras declares float32
    model = tf.keras.Model(inp, [ids, hot])
    out_ids, out_hot = model(tf.constant([["a", "q"]]))
    np.testing.assert_array_equal(out_ids.numpy(), [[1, 0]])
    np.testing.assert_array_equal(out_hot.numpy(), [[1, 1, 0]])


def test_config_round_trip():
    layer = L.StringLookup(vocabulary=["a", "b"], mask_token="", num_oov_indices=2,
                           name="words")
    config = layer.get_config()
    assert config["vocabulary"] == ["a", "b"] and config["vocabulary_size"] == 5
    assert "vocabulary_dtype" not in config and config["encoding"] == "utf-8"
    clone = L.StringLookup.from_config(config)
    assert clone.get_vocabulary() == layer.get_vocabulary() and clone.name == "words"
    ints = L.IntegerLookup(vocabulary=np.array([3, 4]), mask_token=0)
    config = ints.get_config()
    assert config["vocabulary"] == [3, 4] and config["mask_token"] == 0
    assert L.IntegerLookup.from_config(config).get_vocabulary() == [0, -1, 3, 4]


def test_sparse_output():
    layer = L.StringLookup(vocabulary=["a", "b"], output_mode="count", sparse=True)
    out = layer([["a", "a"], ["b", "q"]])
    assert isinstance(out, tf.SparseTensor)
    np.testing.assert_array_equal(tf.sparse.to_dense(out).numpy(), [[0, 2, 0], [1, 0, 1]])
    with pytest.raises(ValueError, match="`sparse` may only be true"):
        L.StringLookup(sparse=True)


def _saved_model(tmp_path):
    words = tf.keras.Input(shape=(2,), dtype="string")
    adapted = L.StringLookup(output_mode="tf_idf")
    adapted.adapt([["a", "b"], ["a", "c"]])
    model = tf.keras.Model(words, adapted(words))
    path = str(tmp_path / "m.keras")
    model.save(path)
    return model, path


def test_keras_file_keeps_the_adapted_vocabulary_and_idf(tmp_path):
    import zipfile
    model, path = _saved_model(tmp_path)
    with zipfile.ZipFile(path) as z:
        assert z.read("assets/layers/string_lookup/vocabulary.txt") == b"[UNK]\na\nc\nb"
    loaded = tf.keras.models.load_model(path)
    x = tf.constant([["a", "c"], ["b", "q"]])
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())
    assert loaded.layers[1].get_vocabulary() == ["[UNK]", "a", "c", "b"]


def test_keras_file_without_its_vocabulary_is_refused(tmp_path):
    import zipfile
    _, path = _saved_model(tmp_path)
    broken = str(tmp_path / "broken.keras")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(broken, "w") as dst:
        for name in src.namelist():
            if not name.startswith("assets/"):
                dst.writestr(name, src.read(name))
    with pytest.raises(ValueError, match="assets of layer"):
        tf.keras.models.load_model(broken)


def test_integer_lookup_vocabulary_given_as_a_list_lives_in_the_config(tmp_path):
    import zipfile
    ids = tf.keras.Input(shape=(2,), dtype="int64")
    model = tf.keras.Model(ids, L.IntegerLookup(vocabulary=[5, 6], mask_token=0)(ids))
    path = str(tmp_path / "ints.keras")
    model.save(path)
    with zipfile.ZipFile(path) as z:
        assert not [n for n in z.namelist() if n.startswith("assets/")]
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_array_equal(loaded(tf.constant([[6, 0]], tf.int64)).numpy(), [[3, 0]])


def test_one_hot_lookups_feed_dense_and_concatenate_as_in_keras():
    # Keras 3's Dense (ops.matmul) and Concatenate (ops.concatenate) promote the int64
    # one-hots to float32; TF 2.21 gives [[1.]] and [[0., 1., 0., 1.]] here
    words = tf.keras.Input(shape=(1,), dtype="string")
    number = tf.keras.Input(shape=(1,))
    hot = L.StringLookup(vocabulary=["a", "b"], output_mode="one_hot")(words)
    model = tf.keras.Model([words, number], [L.Dense(1, kernel_initializer="ones")(hot),
                                             L.Concatenate()([hot, number])])
    dense, joined = model([tf.constant([["a"]]), tf.constant([[1.0]])])
    assert dense.dtype == tf.float32 and joined.dtype == tf.float32
    np.testing.assert_array_equal(dense.numpy(), [[1.0]])
    np.testing.assert_array_equal(joined.numpy(), [[0.0, 1.0, 0.0, 1.0]])


def test_salt_hashes_oov_tokens_with_siphash():
    layer = L.StringLookup(num_oov_indices=3, vocabulary=["a"], salt=7)
    assert layer.get_config()["salt"] == [7, 7]
    words = ["hello", "world", "zz", "q"]
    buckets = tf.strings.to_hash_bucket_strong(words, 3, key=[7, 7]).numpy().tolist()
    np.testing.assert_array_equal(layer(["a"] + words).numpy(), [3] + buckets)
    ints = L.IntegerLookup(num_oov_indices=3, vocabulary=[1], salt=(1, 2), oov_method="farmhash")
    expected = tf.strings.to_hash_bucket_strong(["5", "77"], 3, key=[1, 2]).numpy().tolist()
    np.testing.assert_array_equal(ints([1, 5, 77]).numpy(), [3] + expected)
    with pytest.raises(ValueError, match="only be used when `oov_method='farmhash'`"):
        L.IntegerLookup(salt=1)
    with pytest.raises(ValueError, match="tuple of 2 integers, or a single integer"):
        L.StringLookup(salt=(1, 2, 3))


def test_repeated_tokens_are_refused_before_the_mask_check(tmp_path):
    with pytest.raises(ValueError, match=r"repeated terms are: \[np.str_\(''\)\]"):
        L.StringLookup(vocabulary=["a", "", "", "b"], mask_token="")
    path = tmp_path / "dup.txt"
    path.write_text("a\nb\na\n", encoding="utf-8")
    with pytest.raises(tf.errors.FailedPreconditionError, match="Key a has 1 and trying to add "
                                                                  "value 3"):
        L.StringLookup(vocabulary=str(path))


def test_a_vocabulary_file_is_saved_as_an_asset(tmp_path):
    import zipfile
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("cat\ndog\n", encoding="utf-8")
    words = tf.keras.Input(shape=(2,), dtype="string")
    model = tf.keras.Model(words, L.StringLookup(vocabulary=str(vocab))(words))
    path = str(tmp_path / "file_vocab.keras")
    model.save(path)
    vocab.unlink()  # the model no longer needs the file
    with zipfile.ZipFile(path) as z:
        assert z.read("assets/layers/string_lookup/vocabulary.txt") == b"[UNK]\ncat\ndog"
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_array_equal(loaded(tf.constant([["dog", "emu"]])).numpy(), [[2, 0]])


def test_ragged_inputs_are_looked_up_row_by_row():
    rt = tf.ragged.constant([["a", "b", "a"], ["c"]])
    assert L.StringLookup(vocabulary=["a", "b"])(rt).to_list() == [[1, 2, 1], [0]]
    counts = L.StringLookup(vocabulary=["a", "b"], output_mode="count")(rt)
    np.testing.assert_array_equal(counts.numpy(), [[0, 2, 1], [1, 0, 0]])
    hot = L.StringLookup(vocabulary=["a", "b"], output_mode="one_hot")(rt)
    assert hot.to_list() == [[[0, 1, 0], [0, 0, 1], [0, 1, 0]], [[1, 0, 0]]]
    adapted = L.IntegerLookup(output_mode="tf_idf")
    adapted.adapt(tf.ragged.constant([[1, 2, 2], [3]]))  # two documents of different lengths
    assert adapted.get_vocabulary() == [-1, 2, 3, 1]
    np.testing.assert_allclose(adapted.idf_weights.numpy(), [math.log(2)] * 4, rtol=1e-6)


def test_sparse_tf_idf_is_the_dense_result_sparsified():
    layer = L.StringLookup(output_mode="tf_idf", sparse=True, vocabulary=["a", "b"],
                           idf_weights=[0.5, 2.0])  # OOV weight: the mean, 1.25
    out = layer([["a", "a"], ["b", "q"]])
    assert isinstance(out, tf.SparseTensor) and out.values.dtype == tf.float32
    np.testing.assert_allclose(tf.sparse.to_dense(out).numpy(), [[0, 1.0, 0], [1.25, 0, 2.0]])


def test_integer_lookup_and_invert_inside_dataset_map():
    ids = L.IntegerLookup(vocabulary=[12, 36, 1138], mask_token=0)
    back = L.IntegerLookup(vocabulary=[12, 36, 1138], mask_token=0, invert=True)
    ds = tf.data.Dataset.from_tensor_slices(tf.constant([[12, 0], [7, 1138]], tf.int64))
    ds = ds.batch(2).map(lambda x: (ids(x), back(ids(x))))
    indices, restored = next(iter(ds))
    np.testing.assert_array_equal(indices.numpy(), [[2, 0], [1, 4]])
    np.testing.assert_array_equal(restored.numpy(), [[12, 0], [-1, 1138]])
    words = L.StringLookup(vocabulary=["a", "b"], invert=True)
    f = tf.function(lambda i: words(i))
    assert f(tf.constant([2, 0], tf.int64)).numpy().tolist() == [b"b", b"[UNK]"]


def test_integer_lookup_casts_whole_float_ids_and_refuses_fractions():
    layer = L.IntegerLookup(vocabulary=[1, 2])
    out = layer(tf.constant([1.0, 2.0, 5.0]))  # ids read as floats (a CSV column), as Keras
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [1, 2, 0])
    with pytest.raises(ValueError, match="non-integer ids"):
        layer(tf.constant([1.0, 2.7]))  # Keras would silently look up 2


def test_lookups_train_end_to_end_in_a_model():
    heating = np.array([["gas"], ["electric"], ["gas"], ["district"], ["electric"], ["gas"]])
    rooms = np.array([[3], [5], [3], [7], [5], [4]], dtype=np.int64)
    label = np.array([[1.0], [0.0], [1.0], [0.0], [0.0], [1.0]], dtype=np.float32)
    words = tf.keras.Input(shape=(1,), dtype="string")
    counts = tf.keras.Input(shape=(1,), dtype="int64")
    word_lookup = L.StringLookup(output_mode="one_hot")
    word_lookup.adapt(heating)
    room_lookup = L.IntegerLookup(output_mode="one_hot")
    room_lookup.adapt(rooms)
    features = L.Concatenate()([word_lookup(words), room_lookup(counts)])
    model = tf.keras.Model([words, counts], L.Dense(1, activation="sigmoid")(features))
    model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="binary_crossentropy")
    history = model.fit([heating, rooms], label, epochs=20, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert model.count_params() == 4 + 5 + 1  # one-hot widths 4 ([UNK] + 3) and 5, plus bias
