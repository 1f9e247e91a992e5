"""tf.strings.regex_replace / regex_full_match: hand-derived cases, then real TF 2.21's."""
import json
import textwrap

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

PUNCTUATION = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'  # TextVectorization's


def test_replace_all_or_first_and_groups():
    assert tf.strings.regex_replace("aaa", "a", "b").numpy() == b"bbb"
    assert tf.strings.regex_replace("aaa", "a", "b", replace_global=False).numpy() == b"baa"
    out = tf.strings.regex_replace(["x=1, y=22"], r"(\w)=(\d+)", r"\2:\1")
    assert out.numpy().tolist() == [b"1:x, 22:y"]
    assert tf.strings.regex_replace("ab", "b", r"\\").numpy() == b"a\\"
    assert tf.strings.regex_replace("ab", "(a)", r"[\0]").numpy() == b"[a]b"


def test_dot_is_one_utf8_character_and_shape_is_kept():
    assert tf.strings.regex_replace("héllo", ".", "x").numpy() == b"xxxxx"
    out = tf.strings.regex_replace([["A.b"], ["c,d!"]], PUNCTUATION, "")
    assert out.shape == (2, 1) and out.numpy().tolist() == [[b"Ab"], [b"cd"]]


def test_full_match():
    out = tf.strings.regex_full_match([["ab", "abc"]], "ab|abcd")
    assert out.dtype == tf.bool
    np.testing.assert_array_equal(out.numpy(), [[True, False]])


def test_bad_patterns_and_rewrites_are_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid pattern: \\("):
        tf.strings.regex_replace("a", "(", "b")
    with pytest.raises(tf.errors.InvalidArgumentError, match="group 3"):
        tf.strings.regex_replace("ab", "(a)", r"\3")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid rewrite"):
        tf.strings.regex_replace("ab", "a", r"\q")


def test_inside_tf_function():
    f = tf.function(lambda s: tf.strings.regex_replace(tf.strings.lower(s), PUNCTUATION, ""))
    assert f(tf.constant(["Hi, There!"])).numpy().tolist() == [b"hi there"]


def test_same_as_real_tf():
    cases = [("Hello, W.orld! (it's) [me]_ok~", PUNCTUATION, "", True),
             ("aaa bab", "a(b)?", r"<\1\0>", True), ("aaa", "a", "b", False),
             ("héllo wörld", "[^a-z ]", "?", True), ("x  y\tz", r"\s+", " ", True),
             ("abc", "x*", "-", True)]
    code = textwrap.dedent(f"""
        import json, tensorflow as tf
        cases = {cases!r}
        out = [tf.strings.regex_replace(s, p, r, g).numpy().decode() for s, p, r, g in cases]
        out.append(tf.strings.regex_full_match(["ab", "a", "abab"], "(ab)+").numpy().tolist())
        print(json.dumps(out))
    """)
    expected = run_tf_json(code)
    mine = [tf.strings.regex_replace(s, p, r, g).numpy().decode() for s, p, r, g in cases]
    mine.append(tf.strings.regex_full_match(["ab", "a", "abab"], "(ab)+").numpy().tolist())
    assert mine == expected
