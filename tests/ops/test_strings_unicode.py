"""tf.strings.unicode_decode/encode/split/transcode (and *_with_offsets): hand-derived
cases (test_strings_real_tf.py compares with real TF 2.21)."""
import pytest

import minitf as tf


def test_decode_batch_is_ragged_scalar_dense():
    out = tf.strings.unicode_decode(["héllo", "A"], "UTF-8")
    assert isinstance(out, tf.RaggedTensor) and out.dtype == tf.int32
    assert out.to_list() == [[104, 233, 108, 108, 111], [65]]
    assert tf.strings.unicode_decode("hé", "UTF-8").numpy().tolist() == [104, 233]
    assert tf.strings.unicode_decode([["ab"], ["c"]], "UTF-8").to_list() == [[[97, 98]], [[99]]]


def test_decode_errors_and_offsets():
    bad = [b"a\xe2\x82b\xed\xa0\x80c"]  # a truncated sequence: one U+FFFD; a surrogate: three
    codes, starts = tf.strings.unicode_decode_with_offsets(bad, "UTF-8")
    assert codes.to_list() == [[97, 65533, 98, 65533, 65533, 65533, 99]]
    assert starts.to_list() == [[0, 1, 3, 4, 5, 6, 7]] and starts.dtype == tf.int64
    assert tf.strings.unicode_decode([b"a\xffb"], "UTF-8", errors="ignore").to_list() == [[97, 98]]
    assert tf.strings.unicode_decode([b"a\xffb"], "UTF-8", replacement_char=63).to_list() == [
        [97, 63, 98]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid formatting"):
        tf.strings.unicode_decode([b"a\xffb"], "UTF-8", errors="strict")
    controls = tf.strings.unicode_decode(["a\x01\x7fb"], "UTF-8", replace_control_characters=True)
    assert controls.to_list() == [[97, 65533, 127, 98]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not create converter"):
        tf.strings.unicode_decode("a", "FOO")
    with pytest.raises(tf.errors.InvalidArgumentError, match="'errors' of \"bogus\""):
        tf.strings.unicode_decode("a", "UTF-8", errors="bogus")


def test_utf16_offsets_count_bytes():
    codes, starts = tf.strings.unicode_decode_with_offsets(
        [b"\x00a\xd8\x3d\xde\x00\x00b"], "UTF-16-BE")
    assert codes.to_list() == [[97, 128512, 98]] and starts.to_list() == [[0, 2, 6]]


def test_encode_drops_the_last_axis():
    assert tf.strings.unicode_encode([[104, 233]], "UTF-8").numpy().tolist() == ["hé".encode()]
    ragged = tf.ragged.constant([[104, 233], [65]])
    assert tf.strings.unicode_encode(ragged, "UTF-16-BE").numpy().tolist() == [
        b"\x00h\x00\xe9", b"\x00A"]
    assert tf.strings.unicode_encode([[[97, 98]], [[99, 100]]], "UTF-8").shape == (2, 1)
    assert tf.strings.unicode_encode([104, 0x110000], "UTF-8").numpy() == b"h\xef\xbf\xbd"
    assert tf.strings.unicode_encode([[97, -1, 0xD800]], "UTF-8", errors="ignore").numpy() == [b"a"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range for Unicode"):
        tf.strings.unicode_encode([-1], "UTF-8", errors="strict")
    with pytest.raises(tf.errors.InvalidArgumentError, match="output_encoding"):
        tf.strings.unicode_encode([97], "latin1")
    with pytest.raises(ValueError, match="rank must be at least 1"):
        tf.strings.unicode_encode(97, "UTF-8")


def test_split_and_transcode():
    assert tf.strings.unicode_split(["hé"], "UTF-8").to_list() == [[b"h", "é".encode()]]
    chars, starts = tf.strings.unicode_split_with_offsets([b"a\xffb"], "UTF-8")
    assert chars.to_list() == [[b"a", b"\xef\xbf\xbd", b"b"]] and starts.to_list() == [[0, 1, 2]]
    assert tf.strings.unicode_transcode("hé", "UTF-8", "UTF-16-BE").numpy() == b"\x00h\x00\xe9"
    assert tf.strings.unicode_transcode([b"\xe9"], "latin1", "UTF-8").numpy().tolist() == [
        "é".encode()]
    rows = tf.strings.unicode_transcode(tf.ragged.constant([["a", "é"], []]), "UTF-8", "UTF-32-BE")
    assert rows.to_list() == [[b"\x00\x00\x00a", b"\x00\x00\x00\xe9"], []]


def test_unicode_script_codes():
    out = tf.strings.unicode_script([65, 1041, 0x4E00, 48, -1, 0x110000, 0x10FFFF])
    assert out.dtype == tf.int32 and out.numpy().tolist() == [25, 8, 17, 0, -1, -1, 103]
    per_char = tf.strings.unicode_script(tf.strings.unicode_decode(["Aб", "中"], "UTF-8"))
    assert per_char.to_list() == [[25, 8], [17]]


def test_round_trip_inside_tf_function():
    @tf.function
    def shout(line):
        return tf.strings.unicode_transcode(tf.strings.upper(line, encoding="utf-8"),
                                            "UTF-8", "UTF-16-BE")

    assert shout(tf.constant("é")).numpy() == "É".encode("utf-16-be")
