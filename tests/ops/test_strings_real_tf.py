"""tf.strings and tf.compat against real TF 2.21: every call below runs in minitf and, all in
one TF subprocess, in real TF; their results must print the same. The hand-derived tests
that need no TF are in test_strings_{basic,reduce,unicode,ngrams}.py."""
import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

CASES = {
    # test_strings_basic.py
    "basic:split": 'tf.strings.split(["a b  c", " ", ""])',
    "basic:split_sep": 'tf.strings.split(["a,,b", "", ","], sep=",")',
    "basic:split_max": 'tf.strings.split([" a b c "], maxsplit=1)',
    "basic:split_2d": 'tf.strings.split([["a b"], ["c d e"]])',
    "basic:split_scalar": 'tf.strings.split("x  y")',
    "basic:bytes_split": 'tf.strings.bytes_split(["ab", "", "é"])',
    "basic:length": 'tf.strings.length(["héllo", b"\\xff"], unit="UTF8_CHAR")',
    "basic:lower": 'tf.strings.lower(["ÀB", b"\\xffA"], encoding="utf-8")',
    "basic:upper": 'tf.strings.upper(["straße"], encoding="utf-8")',
    "basic:to_number": 'tf.strings.to_number(["inf", "1e3", " 7 ", "-2.5"])',
    "basic:as_string": 'tf.strings.as_string([1.5, 1e10, 1e-5], shortest=True)',
    "basic:as_string_w": 'tf.strings.as_string([-3, 12], width=4, fill="0")',
    "basic:as_string_p": 'tf.strings.as_string([1.25, 2.0], precision=1, scientific=True)',
    "basic:join": 'tf.strings.join([["a", "b"], "x"], separator="-")',
    "basic:join_ragged": 'tf.strings.join([tf.ragged.constant([["Ab", "c"], ["D"]]), "!"])',
    "basic:compat": '[tf.compat.forward_compatible(2026, 1, d) for d in (15, 16)] + '
                    '[tf.compat.dimension_value(tf.TensorShape([3, None])[i]) for i in (0, 1)]',
    # test_strings_reduce.py
    "reduce:substr": 'tf.strings.substr(["hello", "héllo"], [-3, 1], [2, 3])',
    "reduce:substr_utf8": 'tf.strings.substr(["héllo", "ab"], -2, 5, unit="UTF8_CHAR")',
    "reduce:reduce_join": 'tf.strings.reduce_join([["a", "b", "c"], ["d", "e", "f"]], axis=[1, 0], '
                          'separator=",")',
    "reduce:reduce_join_keep": 'tf.strings.reduce_join([[["a"], ["b"]]], axis=1, keepdims=True)',
    "reduce:segment_join":
        'tf.strings.unsorted_segment_join(["x", "y", "z", "w"], [2, 0, 2, 2], 4, '
        'separator="+")',
    "reduce:format": 'tf.strings.format("a={} b={}", [tf.constant([[0.5, 1 / 3]]), tf.range(8)])',
    "reduce:hash": 'tf.strings.to_hash_bucket(["", "a", "abcdefgh", "abcdefghijklmnopq", "é"], 97)',
    # test_strings_unicode.py
    "unicode:decode":
        'tf.strings.unicode_decode(["héllo", b"a\\xe2\\x82b\\xed\\xa0\\x80", ""], "UTF-8")',
    "unicode:decode_offsets":
        'tf.strings.unicode_decode_with_offsets([b"a\\xffb\\x01", "€x"], "UTF-8", '
        'replace_control_characters=True, replacement_char=63)',
    "unicode:decode_ascii": 'tf.strings.unicode_decode(["hé"], "US-ASCII")',
    "unicode:decode_16": 'tf.strings.unicode_decode([b"\\x00a\\xd8\\x00\\x00b"], "UTF-16-BE")',
    "unicode:encode":
        'tf.strings.unicode_encode(tf.ragged.constant([[104, 233, 128512], [], [-5]]), '
        '"UTF-32-BE")',
    "unicode:split": 'tf.strings.unicode_split_with_offsets(["hé", b"\\xff!"], "UTF-8")',
    "unicode:split_16": 'tf.strings.unicode_split(["hé"], "UTF-16-BE")',
    "unicode:script": 'tf.strings.unicode_script(tf.concat([tf.range(0, 0x110000, 331), '
                      '[-1, 0x110000, 0x300, 0x661, 0x3042, 0x1F600]], 0))',
    "unicode:transcode": 'tf.strings.unicode_transcode([b"a\\xffb", "€"], "UTF-8", "UTF-16-BE")',
    # test_strings_ngrams.py
    "ngrams:dense": 'tf.strings.ngrams([["a", "b", "c", "d"]], (2, 3), separator="+")',
    "ngrams:pad": 'tf.strings.ngrams(["a", "b", "c"], (1, 3), pad_values=("<", ">"))',
    "ngrams:pad_width": 'tf.strings.ngrams(["a", "b", "c"], 3, pad_values="#", padding_width=1)',
    "ngrams:ragged": 'tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 2, '
                     'pad_values="_")',
    "ngrams:short": 'tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 4, '
                    'preserve_short_sequences=True)',
    "ngrams:short_pad":
        'tf.strings.ngrams(tf.ragged.constant([["a"], ["b", "c"]]), 5, pad_values="P", '
        'padding_width=1, preserve_short_sequences=True)',
    "ngrams:nested":
        'tf.strings.ngrams(tf.ragged.constant([[["a", "b", "c"]], [["d", "e"], []]]), 2)',
}

PLAIN = """
def plain(value):
    if isinstance(value, list):
        return repr(value)
    if isinstance(value, tuple):
        return repr([plain(v) for v in value])
    if hasattr(value, "to_list"):
        return repr(value.to_list())
    value = value.numpy()
    return repr(value.tolist() if isinstance(value, np.ndarray) else value)
"""
exec(PLAIN)


@pytest.fixture(scope="module")
def real():
    lines = "\n".join(f"out[{k!r}] = plain({v})" for k, v in CASES.items())
    return run_tf_json(f"""
import json, numpy as np, tensorflow as tf
{PLAIN}
out = {{}}
{lines}
print(json.dumps(out))
""")


@pytest.mark.parametrize("key", sorted(CASES))
def test_same_as_real_tf(real, key):
    assert plain(eval(CASES[key])) == real[key], CASES[key]
