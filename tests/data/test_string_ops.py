"""tf.strings: to_number, split, strip, length, lower/upper, join, as_string."""
import pytest

import minitf as tf


def test_to_number():
    # verified against TF 2.21
    assert tf.strings.to_number("1.5").numpy() == 1.5
    assert tf.strings.to_number("1e3").numpy() == 1000.0
    assert tf.strings.to_number(" 7 ").numpy() == 7.0
    seven = tf.strings.to_number("7", out_type=tf.int64)
    assert seven.dtype == tf.int64 and seven.numpy() == 7
    assert tf.strings.to_number(["1", "2"], out_type=tf.int32).numpy().tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="StringToNumberOp could not correctly convert string: 3.5"):
        tf.strings.to_number("3.5", out_type=tf.int32)


def test_split_and_friends():
    # verified against TF 2.21
    assert tf.strings.split("a b  c").numpy().tolist() == [b"a", b"b", b"c"]
    assert tf.strings.split("a,b,,c", sep=",").numpy().tolist() == [b"a", b"b", b"", b"c"]
    assert tf.strings.split(["a b", "c"]).to_list() == [[b"a", b"b"], [b"c"]]
    assert tf.strings.strip("  x ").numpy() == b"x"
    assert tf.strings.lower("AbC").numpy() == b"abc" and tf.strings.upper("a").numpy() == b"A"
    assert tf.strings.length(["ab", ""]).numpy().tolist() == [2, 0]
    assert tf.strings.join(["a", "b"], separator="-").numpy() == b"a-b"
    assert tf.strings.as_string(1.5).numpy() == b"1.500000"
    assert tf.strings.as_string(True).numpy() == b"true"


def test_string_ops_trace_inside_functions():
    @tf.function
    def words(line):
        return tf.strings.length(tf.strings.split(line))

    assert words(tf.constant("one three")).numpy().tolist() == [3, 5]
    ds = tf.data.Dataset.from_tensor_slices(["1,2", "3,4"]).map(
        lambda s: tf.strings.to_number(tf.strings.split(s, ",")))
    assert ds.element_spec.shape.as_list() == [None]
    assert [v.tolist() for v in ds.as_numpy_iterator()] == [[1.0, 2.0], [3.0, 4.0]]
