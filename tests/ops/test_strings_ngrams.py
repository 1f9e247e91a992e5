"""tf.strings.ngrams, dense and ragged: hand-derived cases, then one batch of the same
calls under real TF 2.21."""
import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json


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


CASES = {
    "dense": 'tf.strings.ngrams([["a", "b", "c", "d"]], (2, 3), separator="+")',
    "pad": 'tf.strings.ngrams(["a", "b", "c"], (1, 3), pad_values=("<", ">"))',
    "pad_width": 'tf.strings.ngrams(["a", "b", "c"], 3, pad_values="#", padding_width=1)',
    "ragged": 'tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 2, '
              'pad_values="_")',
    "short": 'tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 4, '
             'preserve_short_sequences=True)',
    "short_pad": 'tf.strings.ngrams(tf.ragged.constant([["a"], ["b", "c"]]), 5, pad_values="P", '
                 'padding_width=1, preserve_short_sequences=True)',
    "nested": 'tf.strings.ngrams(tf.ragged.constant([[["a", "b", "c"]], [["d", "e"], []]]), 2)',
}


def _plain(value):
    if hasattr(value, "to_list"):
        return repr(value.to_list())
    return repr(value.numpy().tolist())


@pytest.fixture(scope="module")
def real():
    lines = "\n".join(f"out[{k!r}] = plain({v})" for k, v in CASES.items())
    return run_tf_json(f"""
import json, tensorflow as tf
def plain(value):
    if hasattr(value, "to_list"):
        return repr(value.to_list())
    return repr(value.numpy().tolist())
out = {{}}
{lines}
print(json.dumps(out))
""")


@pytest.mark.parametrize("key", sorted(CASES))
def test_same_as_real_tf(real, key):
    assert _plain(eval(CASES[key])) == real[key], CASES[key]
