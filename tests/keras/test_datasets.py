"""tf.keras.datasets: shipped files (checksums, licence notes), load_data shapes and splits,
generators that are deterministic, and the data actually being learnable."""
import hashlib
import os

import numpy as np
import pytest

import minitf as tf
from minitf.keras.datasets import _shipped

DATA_DIR = _shipped.DATA_DIR
CHECKSUMS = {
    "digits.npz": "6f801551877abf69fbf3711373bb642a18dc933430a3385cd6febc235225ea6f",
    "iris.csv": "cdf459dcf51753a4f3f56e59a9c81d8c2aaf68889c0ce19ab347e46ff542e6f4",
    "wine.csv": "1c03cbe47141f544075233e4d94488e7d1ad327891d8c4e1b3619317fabd988a",
}


@pytest.mark.parametrize("filename", sorted(CHECKSUMS))
def test_shipped_file_checksum_and_readme_record_source_and_licence(filename):
    with open(os.path.join(DATA_DIR, filename), "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == CHECKSUMS[filename]
    with open(os.path.join(DATA_DIR, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert f"{CHECKSUMS[filename]}  {filename}" in readme
    assert f"## {filename}" in readme and "CC BY 4.0" in readme
    assert "archive.ics.uci.edu" in readme


def test_digits_load_data_shapes_dtypes_and_content():
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.digits.load_data()
    assert x_train.shape == (1437, 8, 8) and x_test.shape == (360, 8, 8)
    assert y_train.shape == (1437,) and y_test.shape == (360,)
    assert x_train.dtype == np.uint8 and y_train.dtype == np.uint8
    assert x_train.min() == 0 and x_train.max() == 16
    everything = np.concatenate([y_train, y_test])
    # The UCI optdigits test file: 1797 images, 174..183 per class.
    assert np.bincount(everything).tolist() == [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]


def test_digits_split_is_boston_housing_style_and_deterministic():
    with np.load(os.path.join(DATA_DIR, "digits.npz"), allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    indices = np.arange(len(x))
    np.random.RandomState(7).shuffle(indices)
    (x_train, _), (_, y_test) = tf.keras.datasets.digits.load_data(seed=7, test_split=0.25)
    cut = int(len(x) * 0.75)
    np.testing.assert_array_equal(x_train, x[indices[:cut]])
    np.testing.assert_array_equal(y_test, y[indices[cut:]])
    (other, _), _ = tf.keras.datasets.digits.load_data(seed=8, test_split=0.25)
    assert not np.array_equal(other, x_train)
    (all_x, _), (none_x, _) = tf.keras.datasets.digits.load_data(test_split=0.0)
    assert all_x.shape == (1797, 8, 8) and none_x.shape == (0, 8, 8)


@pytest.mark.parametrize("bad", [1.0, -0.1, 2])
def test_bad_test_split_is_a_value_error(bad):
    with pytest.raises(ValueError, match="Invalid `test_split` argument"):
        tf.keras.datasets.digits.load_data(test_split=bad)
    with pytest.raises(ValueError, match="between 0 and 1"):
        tf.keras.datasets.wine.load_data(test_split=bad)


def test_missing_file_error_says_how_to_restore_it():
    with pytest.raises(FileNotFoundError, match="reinstall minitf"):
        tf.keras.datasets.digits.load_data(path="no_such_file.npz")


@pytest.mark.parametrize("name, rows, features, counts", [
    ("wine", 178, 13, [59, 71, 48]), ("iris", 150, 4, [50, 50, 50])])
def test_tables_load_data_and_csv_path(name, rows, features, counts):
    module = getattr(tf.keras.datasets, name)
    (x_train, y_train), (x_test, y_test) = module.load_data()
    assert x_train.dtype == np.float64 and y_train.dtype == np.int64
    assert x_train.shape == (int(rows * 0.8), features)
    assert len(x_train) + len(x_test) == rows
    assert np.bincount(np.concatenate([y_train, y_test])).tolist() == counts
    with open(module.csv_path(), encoding="utf-8") as f:
        header = f.readline().strip().split(",")
    assert header == list(module.FEATURE_NAMES) + [module.LABEL_NAME]
    table = np.loadtxt(module.csv_path(), delimiter=",", skiprows=1)
    # Every training row is a row of the file (the split only reorders).
    assert {tuple(r) for r in x_train} <= {tuple(r) for r in table[:, :-1]}


def test_wine_and_iris_known_values():
    table = np.loadtxt(tf.keras.datasets.wine.csv_path(), delimiter=",", skiprows=1)
    np.testing.assert_allclose(table[0], [14.23, 1.71, 2.43, 15.6, 127, 2.8, 3.06, 0.28, 2.29,
                                          5.64, 1.04, 3.92, 1065, 0])
    iris = np.loadtxt(tf.keras.datasets.iris.csv_path(), delimiter=",", skiprows=1)
    np.testing.assert_allclose(iris[34], [4.9, 3.1, 1.5, 0.2, 0])   # Fisher's row 35
    np.testing.assert_allclose(iris.mean(axis=0)[:4], [5.843, 3.057, 3.758, 1.199], atol=1e-3)


def test_csv_table_reads_with_tf_data():
    dataset = tf.data.experimental.make_csv_dataset(
        tf.keras.datasets.iris.csv_path(), batch_size=150, label_name="species",
        num_epochs=1, shuffle=False)
    features, labels = next(iter(dataset))
    assert sorted(features) == sorted(tf.keras.datasets.iris.FEATURE_NAMES)
    assert labels.shape == (150,)


@pytest.mark.parametrize("make", ["moons", "spirals", "sine_waves"])
def test_generators_are_deterministic_and_seed_dependent(make):
    generator = getattr(tf.keras.datasets.synthetic, make)
    tf.random.set_seed(1)
    np.random.seed(1)
    first = generator(100, seed=3)
    tf.random.set_seed(2)
    np.random.seed(2)
    second = generator(100, seed=3)       # the global seeds do not matter
    other = generator(100, seed=4)
    for a, b in zip(first, second):
        for u, v in zip(a, b):
            np.testing.assert_array_equal(u, v)
    assert not np.array_equal(first[0][0], other[0][0])
    (x_train, _), (x_test, _) = first
    assert len(x_train) == 80 and len(x_test) == 20 and x_train.dtype == np.float32


def test_generator_geometry():
    (x, y), _ = tf.keras.datasets.synthetic.spirals(301, num_classes=3, noise=0.0, test_split=0)
    assert np.bincount(y).tolist() == [101, 100, 100]
    assert np.all(np.linalg.norm(x, axis=1) <= 1.0 + 1e-6)
    (x, y), _ = tf.keras.datasets.synthetic.sine_waves(20, timesteps=5, noise=0.0, test_split=0)
    # A noiseless sine obeys s(t+1) = 2 cos(w) s(t) - s(t-1): check y continues x.
    two_cos = (x[:, 2, 0] + x[:, 0, 0]) / x[:, 1, 0]
    np.testing.assert_allclose(y[:, 0], two_cos * x[:, 4, 0] - x[:, 3, 0], atol=1e-4)
    with pytest.raises(ValueError, match="num_classes"):
        tf.keras.datasets.synthetic.spirals(10, num_classes=1)
    with pytest.raises(ValueError, match="num_samples"):
        tf.keras.datasets.synthetic.moons(1)


def test_reviews_format_and_negation():
    (x_train, y_train), (x_test, _) = tf.keras.datasets.reviews.load_data(
        num_samples=200, test_split=0.25)
    assert len(x_train) == 150 and len(x_test) == 50 and set(y_train.tolist()) == {0, 1}
    index = tf.keras.datasets.reviews.get_word_index()
    words = {rank + 3: word for word, rank in index.items()}
    polarity = {"good": 1, "great": 1, "wonderful": 1, "funny": 1, "moving": 1,
                "brilliant": 1, "enjoyable": 1}
    for review, label in zip(x_train, y_train):
        assert review[0] == 1 and min(review[1:]) >= 3
        text = [words[i] for i in review[1:]]
        score, sign = 0, 1
        for word in text:
            if word == "not":
                sign = -1
                continue
            if word in polarity:
                score += sign
            elif word in ("bad", "boring", "awful", "dull", "weak", "terrible", "clumsy"):
                score -= sign
            sign = 1
        assert (score > 0) == bool(label)
    (short, _), _ = tf.keras.datasets.reviews.load_data(maxlen=10, num_samples=100)
    assert all(len(r) <= 10 for r in short)
    (capped, _), _ = tf.keras.datasets.reviews.load_data(num_words=10, skip_top=2, num_samples=50)
    assert all(i < 10 for r in capped for i in r[1:])
    assert 2 in np.concatenate(capped)           # words beyond the cap became oov_char


def test_digits_mlp_learns_offline():
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.digits.load_data()
    x_train = x_train.reshape(-1, 64).astype("float32") / 16.0
    x_test = x_test.reshape(-1, 64).astype("float32") / 16.0
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(32, "relu"),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(x_train, y_train, epochs=5, batch_size=64, verbose=0)
    _, accuracy = model.evaluate(x_test, y_test, verbose=0)
    assert accuracy > 0.9


# --- pad_sequences (values printed by TF 2.21's keras.utils.pad_sequences) ------------------------
def test_pad_sequences_like_tf():
    pad = tf.keras.utils.pad_sequences
    s = [[1, 2, 3], [4, 5], [6]]
    out = pad(s)
    assert out.dtype == np.int32 and out.tolist() == [[1, 2, 3], [0, 4, 5], [0, 0, 6]]
    assert pad(s, maxlen=2).tolist() == [[2, 3], [4, 5], [0, 6]]
    assert pad(s, maxlen=2, truncating="post").tolist() == [[1, 2], [4, 5], [0, 6]]
    assert pad(s, padding="post").tolist() == [[1, 2, 3], [4, 5, 0], [6, 0, 0]]
    floats = pad(s, value=-1.0, dtype="float32")
    assert floats.dtype == np.float32 and floats[2].tolist() == [-1.0, -1.0, 6.0]
    assert pad([[1, 2], []]).tolist() == [[1, 2], [0, 0]]
    assert pad([[[1, 2]], [[3, 4], [5, 6]]]).tolist() == [[[0, 0], [1, 2]], [[3, 4], [5, 6]]]
    assert tf.keras.preprocessing.sequence.pad_sequences is pad
    with pytest.raises(ValueError, match='Padding type "middle" not understood'):
        pad(s, padding="middle")
    with pytest.raises(ValueError, match='Truncating type "middle" not understood'):
        pad(s, truncating="middle", maxlen=1)
    with pytest.raises(ValueError, match="must be a list of iterables. Found non-iterable: 1"):
        pad([1, 2])
    with pytest.raises(ValueError, match=r"Shape of sample \(2,\) of sequence at position 1"):
        pad([[1], [[1, 2]]])


def _review_accuracy(layers, x_train, y_train, x_test, y_test):
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((25,)), tf.keras.layers.Embedding(45, 8)] +
                                layers + [tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="binary_crossentropy",
                  metrics=["accuracy"])
    model.fit(x_train, y_train, epochs=10, batch_size=50, verbose=0)
    return model.evaluate(x_test, y_test, verbose=0)[1]


def test_reviews_need_word_order_as_documented():
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.reviews.load_data(
        num_samples=600, test_split=0.25)
    data = (tf.keras.utils.pad_sequences(x_train, maxlen=25), y_train,
            tf.keras.utils.pad_sequences(x_test, maxlen=25), y_test)
    L = tf.keras.layers
    bag_of_words = _review_accuracy([L.GlobalAveragePooling1D()], *data)
    word_pairs = _review_accuracy([L.Conv1D(16, 2, activation="relu"),
                                   L.GlobalAveragePooling1D()], *data)
    assert word_pairs > 0.9                       # sees "not good" as one unit
    assert bag_of_words < word_pairs - 0.15       # cannot tell "not good" from "good"
