"""TextVectorization without real TF: expectations derived by hand.

Vocabulary layout: "" (mask/padding, 0), "[UNK]" (1), then tokens by count, ties in
reverse sort order. The default standardization lower-cases and strips punctuation.
"""
import math
import zipfile

import numpy as np
import pytest

import minitf as tf

L = tf.keras.layers


def adapted(**kwargs):
    layer = L.TextVectorization(**kwargs)
    layer.adapt(["The cat sat.", "the dog, the CAT!", "a b"])
    return layer


def test_adapt_standardizes_splits_and_counts():
    layer = adapted()
    # the x3, cat x2, then sat/dog/b/a once each in reverse order
    assert layer.get_vocabulary() == ["", "[UNK]", "the", "cat", "sat", "dog", "b", "a"]
    assert layer.get_vocabulary(include_special_tokens=False)[0] == "the"
    assert layer.vocabulary_size() == 8


def test_int_rows_are_padded_at_the_end_to_the_longest():
    out = adapted()(["the cat", "dog a x y z", ""])
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [[2, 3, 0, 0, 0], [5, 7, 1, 1, 1],
                                                [0, 0, 0, 0, 0]])


def test_output_sequence_length_cuts_and_pads():
    layer = adapted(output_sequence_length=3)
    np.testing.assert_array_equal(layer(["the cat sat dog", "a"]).numpy(),
                                  [[2, 3, 4], [7, 0, 0]])
    assert layer(["x"]).shape == (1, 3)


def test_inputs_of_shape_batch_by_one_and_scalars():
    layer = adapted()
    np.testing.assert_array_equal(layer([["the cat"], ["dog"]]).numpy(), [[2, 3], [5, 0]])
    np.testing.assert_array_equal(layer("the").numpy(), [2])
    with pytest.raises(ValueError, match="last shape dimension must be 1"):
        layer([["a", "b"]])


def test_standardize_options():
    text = ["Hi, THERE!"]
    vocab = ["hi", "there", "Hi", "THERE", "hi,", "there!", "Hi,", "THERE!"]
    expect = {"lower_and_strip_punctuation": [2, 3], "lower": [6, 7],
              "strip_punctuation": [4, 5], None: [8, 9]}
    for standardize, ids in expect.items():
        layer = L.TextVectorization(standardize=standardize, vocabulary=vocab)
        np.testing.assert_array_equal(layer(text).numpy(), [ids], err_msg=str(standardize))
    custom = L.TextVectorization(standardize=lambda s: tf.strings.regex_replace(s, "i", "e"),
                                 vocabulary=["He,"])
    np.testing.assert_array_equal(custom(["Hi,"]).numpy(), [[2]])


def test_character_split_and_callable_split():
    chars = L.TextVectorization(split="character", standardize=None, vocabulary=["a", "é"])
    np.testing.assert_array_equal(chars(["aéb", "é"]).numpy(), [[2, 3, 1], [3, 0, 0]])
    comma = L.TextVectorization(split=lambda s: tf.strings.split(s, sep=","),
                                vocabulary=["x", "y"], standardize=None)
    np.testing.assert_array_equal(comma("y,x,y").numpy(), [3, 2, 3])


def test_ngrams_follow_the_unigrams():
    layer = L.TextVectorization(ngrams=2, vocabulary=["a", "b", "a b", "c"])
    # a b c a b -> unigrams a b c a b, then bigrams "a b" "b c" "c a" "a b"
    np.testing.assert_array_equal(layer(["a b c a b"]).numpy(),
                                  [[2, 3, 5, 2, 3, 4, 1, 1, 4]])
    only_bigrams = L.TextVectorization(ngrams=(2,), vocabulary=["a b"])
    np.testing.assert_array_equal(only_bigrams(["a b c"]).numpy(), [[2, 1]])
    with pytest.raises(ValueError, match="`ngrams` must be None, an integer"):
        L.TextVectorization(ngrams="2")


def test_multi_hot_count_and_tf_idf():
    vocab = ["a", "b"]
    multi = L.TextVectorization(output_mode="multi_hot", vocabulary=vocab)
    np.testing.assert_array_equal(multi(["a a q", "b"]).numpy(), [[1, 1, 0], [0, 0, 1]])
    count = L.TextVectorization(output_mode="count", vocabulary=vocab)
    np.testing.assert_array_equal(count(["a a q", "b"]).numpy(), [[1, 2, 0], [0, 0, 1]])
    tfidf = L.TextVectorization(output_mode="tf_idf")
    tfidf.adapt(["x y y", "y z", "w"])
    assert tfidf.get_vocabulary() == ["[UNK]", "y", "z", "x", "w"]  # no "" outside "int"
    idf_y, idf_1 = math.log(1 + 3 / 3), math.log(1 + 3 / 2)  # y in 2 of 3 documents
    np.testing.assert_allclose(tfidf(["y y x q"]).numpy(),
                               [[(idf_y + 3 * idf_1) / 4, 2 * idf_y, 0, idf_1, 0]], rtol=1e-6)


def test_max_tokens_counts_the_special_tokens():
    layer = L.TextVectorization(max_tokens=4)
    layer.adapt(["a a a b b c d"])
    assert layer.get_vocabulary() == ["", "[UNK]", "a", "b"]


def test_ragged_output_eagerly():
    layer = L.TextVectorization(ragged=True, vocabulary=["a", "b"])
    out = layer(["a b a", "b"])
    assert isinstance(out, tf.RaggedTensor)
    assert out.to_list() == [[2, 3, 2], [3]]
    cut = L.TextVectorization(ragged=True, vocabulary=["a"], output_sequence_length=2)
    assert cut(["a a a", "a"]).to_list() == [[2, 2], [2]]
    with pytest.raises(ValueError, match="`ragged` must not be true"):
        L.TextVectorization(ragged=True, output_mode="count")


def test_ragged_inside_dataset_map_is_a_clear_error():
    layer = L.TextVectorization(ragged=True, vocabulary=["a"])
    with pytest.raises(ValueError, match="cannot yet leave a tf.function"):
        tf.data.Dataset.from_tensor_slices(["a"]).batch(1).map(layer)


def test_constructor_errors_as_keras():
    with pytest.raises(ValueError, match="Unknown value for `standardize`"):
        L.TextVectorization(standardize="upper")
    with pytest.raises(ValueError, match="Unknown value for `split`"):
        L.TextVectorization(split="comma")
    with pytest.raises(ValueError, match="must not be set if `output_mode` is not 'int'"):
        L.TextVectorization(output_mode="count", output_sequence_length=3)


def test_adapt_on_a_dataset_and_use_inside_map():
    layer = L.TextVectorization(output_sequence_length=3)
    layer.adapt(tf.data.Dataset.from_tensor_slices(["the cat sat", "the dog", "a cat"]).batch(2))
    assert layer.get_vocabulary() == ["", "[UNK]", "the", "cat", "sat", "dog", "a"]
    ds = tf.data.Dataset.from_tensor_slices(["the cat sat on", "dog"]).batch(2).map(layer)
    np.testing.assert_array_equal(next(iter(ds)).numpy(), [[2, 3, 4], [5, 0, 0]])


def _text_model():
    vectorize = L.TextVectorization(output_mode="tf_idf", name="vectorize")
    vectorize.adapt(["good movie", "bad movie", "good good fun", "bad plot"])
    text = tf.keras.Input(shape=(1,), dtype="string")
    features = vectorize(text)
    assert tuple(features.shape) == (None, 1, 6)  # as Keras 3 declares it ([UNK] + 5 words)
    return tf.keras.Model(text, features), vectorize


def test_trains_in_a_model_and_saves_with_its_vocabulary(tmp_path):
    vectorize = L.TextVectorization(output_sequence_length=4)
    texts = ["good movie", "bad movie", "good good fun", "bad plot"]
    vectorize.adapt(texts)
    ds = tf.data.Dataset.from_tensor_slices((texts, [1.0, 0.0, 1.0, 0.0])).batch(2)
    ds = ds.map(lambda x, y: (vectorize(x), y))
    ids = tf.keras.Input(shape=(4,), dtype="int64")
    pooled = L.GlobalAveragePooling1D()(L.Embedding(vectorize.vocabulary_size(), 3)(ids))
    classifier = tf.keras.Model(ids, L.Dense(1, activation="sigmoid")(pooled))
    classifier.compile("adam", "binary_crossentropy")
    history = classifier.fit(ds, epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    raw = tf.keras.Input(shape=(1,), dtype="string")
    end_to_end = tf.keras.Model(raw, classifier(vectorize(raw)))
    path = str(tmp_path / "text.keras")
    end_to_end.save(path)
    with zipfile.ZipFile(path) as z:
        assert z.read("assets/layers/text_vectorization/vocabulary.txt").decode() == \
            "\n".join(["", "[UNK]", "good", "movie", "bad", "plot", "fun"])  # movie, bad: 2 each
    loaded = tf.keras.models.load_model(path)
    x = tf.constant([["good fun"], ["bad bad plot"]])
    np.testing.assert_allclose(loaded(x).numpy(), end_to_end(x).numpy(), rtol=1e-6)


def test_tf_idf_model_saves_its_weights(tmp_path):
    model, vectorize = _text_model()
    path = str(tmp_path / "tfidf.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    x = tf.constant([["good plot"], ["movie movie"]])
    np.testing.assert_allclose(loaded(x).numpy(), model(x).numpy(), rtol=1e-6)
    assert loaded.get_layer("vectorize").get_vocabulary() == vectorize.get_vocabulary()


def test_config_round_trip():
    layer = L.TextVectorization(max_tokens=10, ngrams=2, output_sequence_length=5,
                                vocabulary=["a", "b"], split="character", name="tv")
    config = layer.get_config()
    assert config["ngrams"] == 2 and config["vocabulary"] == ["a", "b"]
    assert config["vocabulary_size"] == 4 and config["split"] == "character"
    clone = L.TextVectorization.from_config(config)
    np.testing.assert_array_equal(clone(["ab"]).numpy(), layer(["ab"]).numpy())
    tupled = L.TextVectorization.from_config({**config, "ngrams": [1, 2]})
    assert tupled.get_config()["ngrams"] == (1, 2)


@tf.keras.utils.register_keras_serializable(package="p2_tests")
def shout(strings):
    return tf.strings.upper(strings)


def test_a_registered_standardize_function_saves_and_loads(tmp_path):
    import json
    layer = L.TextVectorization(standardize=shout, vocabulary=["HI"])
    text = tf.keras.Input(shape=(1,), dtype="string")
    model = tf.keras.Model(text, layer(text))
    path = str(tmp_path / "shout.keras")
    model.save(path)
    with zipfile.ZipFile(path) as z:
        config = json.loads(z.read("config.json"))["config"]["layers"][1]["config"]
    assert config["standardize"] == {"module": "builtins", "class_name": "function",
                                     "config": "p2_tests>shout", "registered_name": "function"}
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_array_equal(loaded(tf.constant([["hi"], ["yo"]])).numpy(), [[2], [1]])
    config["standardize"]["config"] = "p2_tests>whisper"
    with pytest.raises(ValueError, match="not registered here"):
        L.TextVectorization.from_config(config)


def test_ngrams_and_counts_inside_tf_function():
    layer = L.TextVectorization(output_mode="count", ngrams=2, vocabulary=["a", "b", "a b"])
    f = tf.function(lambda s: layer(s))
    np.testing.assert_array_equal(f(tf.constant(["a b a b", "b"])).numpy(),
                                  [[1, 2, 2, 2], [0, 0, 1, 0]])  # "b a" is OOV
