"""tf.keras.preprocessing.sequence (TimeseriesGenerator, make_sampling_table, skipgrams) and
tf.keras.preprocessing.text (Tokenizer, text_to_word_sequence, one_hot, hashing_trick,
tokenizer_from_json), Keras 3.15's legacy helpers; one real-TF subprocess compares outputs."""
import json
import random

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

S = tf.keras.preprocessing.sequence
T = tf.keras.preprocessing.text


@pytest.fixture(autouse=True)
def _keep_python_random_state():
    """skipgrams reseeds Python's `random` (as Keras does) and so do these tests; Keras's
    default initializers draw their seeds from it, so later tests must not see the change."""
    state, np_state = random.getstate(), np.random.get_state()
    yield
    random.setstate(state)
    np.random.set_state(np_state)


def test_timeseries_generator_windows_targets_and_options():
    data = np.arange(20).reshape(10, 2)
    gen = S.TimeseriesGenerator(data, np.arange(10), length=4, sampling_rate=2, stride=3,
                                batch_size=2, reverse=True)
    assert len(gen) == 1  # rows 4 and 7 (then 10 is past end_index 9)
    x, y = gen[0]
    np.testing.assert_array_equal(y, [4, 7])
    np.testing.assert_array_equal(x[0], [[4, 5], [0, 1]])  # rows 0 and 2, reversed
    assert isinstance(gen, tf.keras.utils.PyDataset)
    np.random.seed(0)
    shuffled = S.TimeseriesGenerator(data, np.arange(10), length=2, shuffle=True,
                                     batch_size=5)
    assert shuffled[0][1].shape == (5,) and set(shuffled[0][1]) <= set(range(2, 10))
    with pytest.raises(ValueError, match="Data and targets have to be of same length"):
        S.TimeseriesGenerator(data, np.arange(9), length=2)
    with pytest.raises(ValueError, match=r"`start_index\+length=12 > end_index=9`"):
        S.TimeseriesGenerator(data, np.arange(10), length=12)


def test_timeseries_generator_trains_a_model():
    series = np.sin(np.arange(60) / 5).astype("float32")[:, None]
    gen = S.TimeseriesGenerator(series, series, length=5, batch_size=8)
    model = tf.keras.Sequential([tf.keras.Input((5, 1)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(1)])
    model.compile(tf.keras.optimizers.Adam(0.05), "mse")
    history = model.fit(gen, epochs=4, verbose=0, shuffle=False)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_make_sampling_table_is_word2vec_on_zipf_frequencies():
    table = S.make_sampling_table(6, sampling_factor=1e-3)
    rank = np.array([1, 1, 2, 3, 4, 5.0])
    f = 1e-3 * (rank * (np.log(rank) + 0.577) + 0.5 - 1 / (12 * rank))
    np.testing.assert_allclose(table, np.minimum(1, np.sqrt(f)))
    assert np.all(np.diff(table) >= 0)  # rarer (higher rank) words are kept more often


def test_skipgrams_pairs_labels_and_sampling():
    couples, labels = S.skipgrams([1, 2, 0, 3], 4, window_size=2, negative_samples=0,
                                  shuffle=False, categorical=True)
    assert couples == [[1, 2], [2, 1], [2, 3], [3, 2]]  # 0 is not a word
    assert labels == [[0, 1]] * 4
    random.seed(5)
    couples, labels = S.skipgrams([1, 2, 3], 10, window_size=1, negative_samples=2.0, seed=1)
    assert len(couples) == 12 and labels.count(1) == 4 and labels.count(0) == 8
    positives = {tuple(c) for c, label in zip(couples, labels) if label == 1}
    assert positives == {(1, 2), (2, 1), (2, 3), (3, 2)}
    assert all(1 <= c[1] < 10 for c, label in zip(couples, labels) if label == 0)
    never = S.skipgrams([1, 2, 3], 4, sampling_table=np.zeros(4), negative_samples=0)
    assert never == ([], [])


def test_text_to_word_sequence_and_hashing():
    assert T.text_to_word_sequence("A\tb;C", lower=False, split=";") == ["A", "b", "C"]
    assert T.hashing_trick("x y", 3, hash_function=len) == [2, 2]  # len % 2 + 1
    assert T.hashing_trick("Ab aB", 7, analyzer=str.split, hash_function="md5") == \
        T.hashing_trick("Ab aB", 7, analyzer=str.split, hash_function="md5")
    indices = T.one_hot("the cat the", 5)
    assert indices[0] == indices[2] and all(1 <= i < 5 for i in indices)


def test_tokenizer_vocabulary_sequences_and_matrices():
    tok = T.Tokenizer(num_words=3, oov_token="?")
    tok.fit_on_texts(["b a b", "c b"])
    assert tok.word_index == {"?": 1, "b": 2, "a": 3, "c": 4}
    assert tok.texts_to_sequences(["a b z"]) == [[1, 2, 1]]  # a: index 3 >= num_words
    assert tok.sequences_to_texts([[2, 4, 9]]) == ["b ? ?"]
    assert dict(tok.word_docs) == {"b": 2, "a": 1, "c": 1}
    np.testing.assert_array_equal(tok.texts_to_matrix(["b b"], mode="freq"), [[0, 0, 1.0]])
    chars = T.Tokenizer(char_level=True)
    chars.fit_on_texts(["aab"])
    assert chars.word_index == {"a": 1, "b": 2}
    with pytest.raises(ValueError, match="Fit the Tokenizer on some data before using tfidf"):
        T.Tokenizer(num_words=3).sequences_to_matrix([[1]], mode="tfidf")
    with pytest.raises(ValueError, match="Specify a dimension"):
        T.Tokenizer().sequences_to_matrix([[1]])
    with pytest.raises(TypeError, match="Unrecognized keyword arguments"):
        T.Tokenizer(words=3)
    with pytest.warns(UserWarning, match="renamed `num_words`"):
        assert T.Tokenizer(nb_words=5).num_words == 5


def test_tokenizer_json_round_trip():
    tok = T.Tokenizer(oov_token="<unk>")
    tok.fit_on_texts(["one two two", "three"])
    again = T.tokenizer_from_json(tok.to_json())
    assert again.word_index == tok.word_index and again.index_word == tok.index_word
    assert again.texts_to_sequences(["two four"]) == tok.texts_to_sequences(["two four"])
    assert json.loads(tok.to_json())["class_name"] == "Tokenizer"


# --- the same calls in real Keras 3.15 ----------------------------------------------------------
COMMON = """
import json, random
import numpy as np

def run(keras):
    S, T = keras.preprocessing.sequence, keras.preprocessing.text
    out = {}
    gen = S.TimeseriesGenerator(np.arange(30).reshape(15, 2), np.arange(15) * 10, length=3,
                                sampling_rate=2, stride=2, start_index=1, end_index=13,
                                batch_size=3)
    out["ts"] = [len(gen)] + [[x.tolist(), y.tolist()] for x, y in (gen[i] for i in
                                                                      range(len(gen)))]
    out["table"] = S.make_sampling_table(8, sampling_factor=1e-4).tolist()
    random.seed(11)
    out["skip"] = S.skipgrams([3, 1, 4, 1, 5, 0, 2, 6], 7, window_size=2, seed=4)
    random.seed(3)
    out["skip_table"] = S.skipgrams([1, 2, 3, 4, 5], 6, window_size=1, negative_samples=0.5,
                                    sampling_table=[0.0, 0.9, 0.2, 0.9, 0.5, 1.0],
                                    categorical=True, seed=2)
    texts = ["The cat sat on the mat.", "The dog ate my homework!", "cat\\tdog: cat"]
    out["words"] = [T.text_to_word_sequence(t) for t in texts]
    out["md5"] = [T.hashing_trick(t, 17, hash_function="md5") for t in texts]
    tok = T.Tokenizer(num_words=6, oov_token="<oov>")
    tok.fit_on_texts(texts)
    tok.fit_on_sequences([[1, 2], [2, 2, 3]])
    out["index"] = tok.word_index
    out["seqs"] = tok.texts_to_sequences(texts + ["an unknown cat"])
    out["texts"] = tok.sequences_to_texts([[2, 3, 9, 5]])
    out["matrices"] = {m: tok.texts_to_matrix(texts, mode=m).tolist()
                       for m in ("binary", "count", "freq", "tfidf")}
    config = json.loads(tok.to_json())["config"]  # JSON fields: word_docs' order is set order
    out["config"] = {k: json.loads(v) if k.startswith(("word_", "index_")) else v
                     for k, v in config.items()}
    return out
"""


@pytest.fixture(scope="module")
def keras_results():
    return run_tf_json(COMMON + """
import tensorflow as tf
print(json.dumps(run(tf.keras)))
""")


def test_outputs_equal_keras_3_15(keras_results):
    namespace = {}
    exec(COMMON, namespace)
    ours = json.loads(json.dumps(namespace["run"](tf.keras)))
    for key in ours:
        if key == "table":
            np.testing.assert_allclose(ours[key], keras_results[key], rtol=1e-12)
        elif key == "matrices":
            for mode in ours[key]:
                np.testing.assert_allclose(ours[key][mode], keras_results[key][mode],
                                           rtol=1e-12, err_msg=mode)
        else:
            assert ours[key] == keras_results[key], key
    assert ours.keys() == keras_results.keys()
