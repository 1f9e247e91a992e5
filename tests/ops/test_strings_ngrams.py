"""tf.strings.ngrams, dense and ragged: hand-derived cases (test_strings_real_tf.py
compares with real TF 2.21)."""
import pytest

import minitf as tf


def test_dense_ngrams_keep_the_leading_shape():
    assert tf.strings.ngrams(["a", "b", "c"], 2).numpy().tolist() == [b"a b", b"b c"]
    out = tf.strings.ngrams([["a", "b", "c"], ["d", "e", "f"]], 2, separator="_")
    assert out.shape == (2, 2) and out.numpy().tolist() == [[b"a_b", b"b_c"], [b"d_e", b"e_f"]]
    assert tf.strings.ngrams(["a", "b"], 3).shape == (0,)


def test_padding_and_several_widths():
    padded = tf.strings.ngrams(["a", "b"], 2, pad_values=("L", "R"))
    assert padded.numpy().tolist() == [b"L a", b"a b", b"b R"]
    assert tf.strings.ngrams(["a", "b"], 3, pad_values="P").numpy().tolist() == [
        b"P P a", b"P a b", b"a b P", b"b P P"]
    both = tf.strings.ngrams(["a", "b"], (1, 2), pad_values="P", padding_width=1)
    assert both.numpy().tolist() == [b"a", b"b", b"P a", b"a b", b"b P"]


def test_ragged_rows_and_short_sequences():
    rows = tf.ragged.constant([["a", "b", "c"], ["d"], []])
    assert tf.strings.ngrams(rows, 2).to_list() == [[b"a b", b"b c"], [], []]
    kept = tf.strings.ngrams(rows, 3, preserve_short_sequences=True)
    assert kept.to_list() == [[b"a b c"], [b"d"], []]


def test_bad_arguments():
    with pytest.raises(ValueError, match="Data must have rank>0"):
        tf.strings.ngrams("a", 2)
    with pytest.raises(ValueError, match="greater than 0. Got 0"):
        tf.strings.ngrams(["a"], 0)
    with pytest.raises(ValueError, match="pad_values must be a string"):
        tf.strings.ngrams(["a"], 2, pad_values=3)


def test_dense_ngrams_inside_tf_function():
    @tf.function
    def bigrams(words):
        return tf.strings.ngrams(words, 2)

    assert bigrams(tf.constant([["x", "y", "z"]])).numpy().tolist() == [[b"x y", b"y z"]]
