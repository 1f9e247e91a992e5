"""tf.strings split / bytes_split / element-wise ops and tf.compat text helpers:
hand-derived cases (test_strings_real_tf.py compares with real TF 2.21)."""
import pathlib

import numpy as np
import pytest

import minitf as tf


def test_split_batch_is_ragged_and_scalar_is_dense():
    out = tf.strings.split(["a b  c", " ", ""])
    assert isinstance(out, tf.RaggedTensor) and out.dtype == tf.string
    assert out.to_list() == [[b"a", b"b", b"c"], [], []]
    assert tf.strings.split(["a,,b", "", ","], sep=",").to_list() == [
        [b"a", b"", b"b"], [b""], [b"", b""]]
    dense = tf.strings.split("x y")
    assert isinstance(dense, tf.Tensor) and dense.numpy().tolist() == [b"x", b"y"]


def test_split_maxsplit_empty_sep_and_nested_inputs():
    assert tf.strings.split([" a b c "], maxsplit=1).to_list() == [[b"a", b"b c "]]
    assert tf.strings.split(["a,b,c"], sep=",", maxsplit=0).to_list() == [[b"a,b,c"]]
    assert tf.strings.split(["a b"], sep="").to_list() == [[b"a", b"b"]]
    # only ASCII whitespace separates (not U+3000 or U+00A0)
    assert tf.strings.split(["a\u3000b\tc"]).to_list() == [["a\u3000b".encode(), b"c"]]
    nested = tf.strings.split([["a b"], ["c d e"]])
    assert nested.shape.as_list() == [2, 1, None]
    assert nested.to_list() == [[[b"a", b"b"]], [[b"c", b"d", b"e"]]]
    ragged = tf.strings.split(tf.ragged.constant([["a b"], ["c"]]))
    assert ragged.to_list() == [[[b"a", b"b"]], [[b"c"]]]


def test_bytes_split():
    assert tf.strings.bytes_split(["ab", ""]).to_list() == [[b"a", b"b"], []]
    assert tf.strings.bytes_split("é").numpy().tolist() == [b"\xc3", b"\xa9"]


def test_split_of_one_string_inside_tf_function():
    @tf.function
    def count_letters(line):
        return tf.strings.length(tf.strings.split(line, sep=","))

    assert count_letters(tf.constant("ab,c,")).numpy().tolist() == [2, 1, 0]


def test_length_units_and_case_encodings():
    assert tf.strings.length(["héllo", b"\xff"], unit="UTF8_CHAR").numpy().tolist() == [5, 1]
    assert tf.strings.length(["héllo"]).numpy().tolist() == [6]
    with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values"):
        tf.strings.length("a", unit="CHAR")
    assert tf.strings.lower("ÀB").numpy() == "Àb".encode()
    assert tf.strings.lower("ÀB", encoding="utf-8").numpy() == "àb".encode()
    assert tf.strings.upper("straße", encoding="utf-8").numpy() == b"STRASSE"
    with pytest.raises(tf.errors.InvalidArgumentError, match="only utf-8"):
        tf.strings.upper("a", encoding="latin1")
    assert tf.strings.strip([" \t a\n\x0b"]).numpy().tolist() == [b"a"]


def test_to_number_follows_strtod():
    out = tf.strings.to_number(["inf", "-Inf", "1e3", " 7 "]).numpy()
    np.testing.assert_array_equal(out, [np.inf, -np.inf, 1000.0, 7.0])
    assert tf.strings.to_number("+5", tf.int32).numpy() == 5
    for text, dtype in [("1_0", tf.float32), ("0x10", tf.int32), ("3000000000", tf.int32),
                        ("1.5", tf.int64), ("", tf.float32)]:
        with pytest.raises(tf.errors.InvalidArgumentError, match="could not correctly convert"):
            tf.strings.to_number(text, dtype)
    with pytest.raises(tf.errors.InvalidArgumentError, match="out_type"):
        tf.strings.to_number("1", tf.string)


def test_as_string_formats():
    f = tf.strings.as_string
    assert f([1.5, 2.25], precision=1).numpy().tolist() == [b"1.5", b"2.2"]
    assert f(1.5, scientific=True).numpy() == b"1.500000e+00"
    assert f([1.5, 1e10], shortest=True).numpy().tolist() == [b"1.5", b"1e+10"]
    assert f(-3, width=4, fill="0").numpy() == b"-003"
    assert f("a", width=3).numpy() == b"  a"
    assert f(1 + 2j).numpy() == b"(1.000000,2.000000)"
    assert f([True, False]).numpy().tolist() == [b"true", b"false"]
    for kwargs, message in [({"precision": 2}, "precision not supported"),
                            ({"fill": "x"}, "Fill argument"), ({"fill": "00"}, "one or fewer"),
                            ({"scientific": True}, "not supported for datatype int32")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            f(3, **kwargs)


def test_join_broadcasts_and_takes_ragged_rows():
    assert tf.strings.join([["a", "b"], "x"], separator="-").numpy().tolist() == [b"a-x", b"b-x"]
    rows = tf.ragged.constant([["Ab", "c"], ["D"]])
    assert tf.strings.join([rows, "-", rows]).to_list() == [[b"Ab-Ab", b"c-c"], [b"D-D"]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="incompatible row_splits"):
        tf.strings.join([rows, tf.ragged.constant([["a"], ["b", "c"]])])


def test_compat_text_helpers():
    assert tf.compat.as_bytes("hé") == "hé".encode()
    assert tf.compat.as_bytes(bytearray(b"a")) == b"a"
    assert tf.compat.as_str(b"h\xc3\xa9") == "hé" and tf.compat.as_text("x") == "x"
    assert tf.compat.as_str_any(5) == "5" and tf.compat.as_str_any(b"x") == "x"
    assert tf.compat.path_to_str(pathlib.Path("a") / "b") == "a/b"
    assert tf.compat.path_to_str(5) == 5
    for fn in (tf.compat.as_bytes, tf.compat.as_str):
        with pytest.raises(TypeError, match="Expected binary or unicode string, got 1"):
            fn(1)


def test_compat_types_dimensions_and_horizon(monkeypatch):
    assert tf.compat.bytes_or_text_types == (bytes, str)
    assert isinstance(np.int8(1), tf.compat.integral_types)
    assert not isinstance(1.5, tf.compat.integral_types)
    assert isinstance(np.float16(1), tf.compat.real_types)
    assert isinstance(1j, tf.compat.complex_types) and not isinstance(1j, tf.compat.real_types)
    assert tf.compat.dimension_value(tf.TensorShape([3, None])[0]) == 3
    assert tf.compat.dimension_value(None) is None
    assert tf.compat.forward_compatible(2026, 1, 15)  # TF 2.21's horizon is 2026-01-16
    assert not tf.compat.forward_compatible(2026, 1, 16)
    with tf.compat.forward_compatibility_horizon(2040, 1, 1):
        assert tf.compat.forward_compatible(2030, 1, 1)
    assert not tf.compat.forward_compatible(2030, 1, 1)
    monkeypatch.setenv("TF_FORWARD_COMPATIBILITY_DELTA_DAYS", "1")
    assert tf.compat.forward_compatible(2026, 1, 16)
