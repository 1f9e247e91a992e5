"""widgets/end_to_end.py: the digit split and the reviews read without minitf, and the figures."""
import doctest
import hashlib
import os
import subprocess
import sys

import matplotlib
import numpy as np
import pytest

import minitf as tf
from widgets import end_to_end

matplotlib.use("Agg")

REVIEWS_SHA256 = "ca3c93d9b301dcfafec975b26e218ce42cfd51be31209a80008cedead5e808bc"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_examples():
    result = doctest.testmod(end_to_end, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("test_split,seed", [(0.2, 113), (0.5, 3)])
def test_digit_split_is_the_datasets_split(test_split, seed):
    ours = end_to_end.digit_split(test_split, seed)
    theirs = tf.keras.datasets.digits.load_data(test_split=test_split, seed=seed)
    for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("bad", [0, 1, -0.1, 1.5])
def test_digit_split_refuses_a_bad_fraction(bad):
    with pytest.raises(ValueError, match="between 0 and 1"):
        end_to_end.digit_split(bad)


def test_reviews_file_is_the_committed_one():
    with open(end_to_end.REVIEWS, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == REVIEWS_SHA256


def test_reviews_script_writes_the_same_file(tmp_path):
    path = tmp_path / "reviews.csv"
    code = ("import sys; sys.path.insert(0, 'minitf/keras/datasets/data'); "
            f"import make_reviews_csv as m; m.main({str(path)!r})")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == REVIEWS_SHA256


def test_reviews_are_the_generated_reviews_as_text():
    texts, labels = end_to_end.review_texts()
    (x, y), _ = tf.keras.datasets.reviews.load_data(num_samples=600, test_split=0.0)
    words = {rank + 3: word for word, rank in tf.keras.datasets.reviews.get_word_index().items()}
    assert texts == [" ".join(words[i] for i in review[1:]) for review in x]
    assert np.array_equal(labels, y) and set(labels.tolist()) == {0, 1}


def test_review_labels_follow_the_rule():
    """Sentiment words add up to the label; 'not' flips the word after it."""
    index = tf.keras.datasets.reviews.get_word_index()
    positive = {w for w in index if w in ("good", "great", "wonderful", "funny", "moving",
                                          "brilliant", "enjoyable")}
    negative = {w for w in index if w in ("bad", "boring", "awful", "dull", "weak",
                                          "terrible", "clumsy")}
    texts, labels = end_to_end.review_texts()
    for text, label in zip(texts, labels):
        words, score = text.split(), 0
        for i, word in enumerate(words):
            sign = (word in positive) - (word in negative)
            score += -sign if i > 0 and words[i - 1] == "not" else sign
        assert score != 0 and int(score > 0) == label


@pytest.mark.parametrize("content,message", [
    ("words,label\nok,1\n", "header"),
    ("text,label\ngood film,2\n", "line 2"),
    ("text,label\ngood film\n", "line 2"),
    ("text,label\n" + "a" * 10_001 + ",1\n", "line 2"),
])
def test_review_texts_refuses_a_bad_file(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        end_to_end.review_texts(str(path))


def test_confusion_figure_writes_every_count():
    matrix = np.array([[7, 1, 0], [2, 5, 0], [0, 0, 9]])
    fig = end_to_end.plot_confusion_matrix(matrix, ["a", "b", "c"])
    ax = fig.axes[0]
    assert sorted(t.get_text() for t in ax.texts) == sorted(str(v) for v in matrix.ravel())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert ax.get_ylabel() == "true"
    assert np.array_equal(ax.images[0].get_array(), matrix)


def test_history_figure_draws_validation_only_when_present():
    fig = end_to_end.plot_history({"loss": [3, 2, 1], "accuracy": [0.1, 0.5, 0.9]})
    assert [len(ax.lines) for ax in fig.axes] == [1, 1]
    assert list(fig.axes[0].lines[0].get_ydata()) == [3, 2, 1]
    fig = end_to_end.plot_history({"loss": [3, 2], "val_loss": [4, 3]}, metrics=("loss",))
    assert [len(ax.lines) for ax in fig.axes] == [2]


def test_images_figure_shows_each_image():
    images = np.arange(2 * 64).reshape(2, 8, 8)
    fig = end_to_end.show_images(images, ["x", "y"])
    assert [np.array_equal(ax.images[0].get_array(), image)
            for ax, image in zip(fig.axes, images)] == [True, True]
