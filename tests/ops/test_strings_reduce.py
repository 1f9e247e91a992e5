"""tf.strings substr / reduce_join / unsorted_segment_join / format / to_hash_bucket:
hand-derived cases (test_strings_real_tf.py compares with real TF 2.21)."""
import pytest

import minitf as tf


def test_substr_bytes_chars_negative_and_broadcast():
    assert tf.strings.substr(["hello", "world"], 1, 3).numpy().tolist() == [b"ell", b"orl"]
    assert tf.strings.substr("hello", -3, 2).numpy() == b"ll"
    assert tf.strings.substr("hello", 5, 2).numpy() == b""
    assert tf.strings.substr("hello", 1, -1).numpy() == b"ello"  # negative len: to the end
    assert tf.strings.substr("héllo", 1, 2, unit="UTF8_CHAR").numpy() == "él".encode()
    assert tf.strings.substr("héllo", -2, 1, unit="UTF8_CHAR").numpy() == b"l"
    assert tf.strings.substr("hello", [1, 2], [1, 1]).numpy().tolist() == [b"e", b"l"]
    out = tf.strings.substr([["abc", "def"]], [0, 1], [1, 2])
    assert out.numpy().tolist() == [[b"a", b"ef"]]


def test_substr_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="pos -6 out of range for string b'hello' at index 0"):
        tf.strings.substr(["hello"], -6, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="pos 5 out of range for string at"):
        tf.strings.substr(["hé"], 5, 1, unit="UTF8_CHAR")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs"):
        tf.strings.substr(["ab", "cd"], [1, 2, 0], [1, 1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values"):
        tf.strings.substr("ab", 0, 1, unit="CHAR")


def test_reduce_join_axes_keepdims_and_ragged():
    x = [["a", "b"], ["c", "d"]]
    assert tf.strings.reduce_join(x).numpy() == b"abcd"
    assert tf.strings.reduce_join(x, axis=-1, separator="-").numpy().tolist() == [b"a-b", b"c-d"]
    kept = tf.strings.reduce_join(x, axis=0, keepdims=True)
    assert kept.shape == (1, 2) and kept.numpy().tolist() == [[b"ac", b"bd"]]
    # the first listed axis varies fastest
    assert tf.strings.reduce_join(x, axis=[0, 1], separator="-").numpy() == b"a-c-b-d"
    assert tf.strings.reduce_join(x, axis=[1, 0], separator="-").numpy() == b"a-b-c-d"
    rows = tf.strings.reduce_join(tf.ragged.constant([["a", "b"], ["c"]]), axis=1)
    assert rows.numpy().tolist() == [b"ab", b"c"]
    with pytest.raises(tf.errors.OutOfRangeError, match="Invalid reduction dimension 2"):
        tf.strings.reduce_join(x, axis=2)


def test_unsorted_segment_join():
    out = tf.strings.unsorted_segment_join(["a", "b", "c"], [1, 0, 1], 3, separator=":")
    assert out.numpy().tolist() == [b"b", b"a:c", b""]
    rows = tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"]], [1, 0], 2)
    assert rows.numpy().tolist() == [[b"c", b"d"], [b"a", b"b"]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not allowed to exceed"):
        tf.strings.unsorted_segment_join(["a"], [5], 3)
    with pytest.raises(tf.errors.OutOfRangeError, match="Invalid segment_id rank 2"):
        tf.strings.unsorted_segment_join(["a"], [[0]], 2)


def test_format():
    out = tf.strings.format("{}|{}", [tf.range(10), 2.5], summarize=2)
    assert out.numpy() == b"[0 1 ... 8 9]|2.5"
    assert tf.strings.format("{}", tf.constant(["a", "b"])).numpy() == b'["a" "b"]'
    assert tf.strings.format("<>", [True], placeholder="<>").numpy() == b"1"
    with pytest.raises(ValueError, match="expects 2 tensors, but the inputs only has 1"):
        tf.strings.format("{} {}", [1])


def test_to_hash_bucket_is_legacy_hash64():
    out = tf.strings.to_hash_bucket(["hello", "", "abcdefghij"], 1000000007)
    assert out.dtype == tf.int64 and out.numpy().tolist() == [302950538, 727638525, 454826156]
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least minimum 1"):
        tf.strings.to_hash_bucket("a", 0)


def test_ops_trace_inside_tf_function():
    @tf.function
    def initials(words):
        return tf.strings.reduce_join(tf.strings.substr(words, 0, 1), separator=".")

    assert initials(tf.constant(["ab", "cd"])).numpy() == b"a.c"
