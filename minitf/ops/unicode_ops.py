"""`tf.strings.unicode_decode`, `unicode_encode`, `unicode_split`, `unicode_transcode`.

A string is bytes; decoding turns it into Unicode code points (int32), one
per character, encoding turns code points back into bytes:

>>> import minitf as tf
>>> tf.strings.unicode_decode(["hé", "A"], "UTF-8")
<tf.RaggedTensor [[104, 233], [65]]>
>>> tf.strings.unicode_encode([[104, 233]], "UTF-8").numpy()
array([b'h\\xc3\\xa9'], dtype=object)

Bytes that are not valid in the input encoding become `replacement_char`
(U+FFFD by default, errors="replace"), are dropped ("ignore"), or raise
("strict") - one replacement per maximal invalid sequence, as ICU does.
"""
import codecs

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import array_ops
from .string_split_ops import ragged_apply, ragged_shape, rows_to_arrays, strings_or_ragged

_OUTPUT_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")
_ERRORS = ("strict", "replace", "ignore")


def _mark_invalid(error):
    # A lone surrogate never comes out of a valid decode: it marks a bad span and
    # carries the span's length in bytes, so offsets stay exact.
    return chr(0xDC00 + error.end - error.start), error.end


codecs.register_error("minitf_mark", _mark_invalid)


def _invalid(op, message, hint=""):
    return errors.InvalidArgumentError(None, op, f"{message} [Op:{op}]" + hint)


def _codec(op, encoding, which="input"):
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise _invalid(op, f"Could not create converter for {which} encoding: {encoding}",
                       " Use an encoding name such as 'UTF-8', 'UTF-16-BE' or 'latin1'.") \
            from None


def _decode_one(s, codec, errors_, replacement, control, op):
    """(code points, byte offsets) of one string."""
    points, offsets, at = [], [], 0
    text = s.decode(codec, "minitf_mark")
    for ch in text:
        code = ord(ch)
        bad = 0xDC00 <= code <= 0xDC0F
        size = code - 0xDC00 if bad else len(ch.encode(codec))
        if bad:
            if errors_ == "strict":
                raise _invalid(op, "Invalid formatting on input string",
                               " Pass errors='replace' (or 'ignore') to decode such bytes.")
            code = None if errors_ == "ignore" else replacement
        elif control and code < 0x20:
            code = replacement
        if code is not None:
            points.append(code)
            offsets.append(at)
        at += size
    return points, offsets


def _decode(flat, input_encoding, errors, replacement_char, replace_control_characters):
    pairs = [_decode_one(s, input_encoding, errors, replacement_char,
                         replace_control_characters, "UnicodeDecode") for s in flat]
    values, splits = rows_to_arrays([p for p, _ in pairs], np.int32)
    offsets, _ = rows_to_arrays([o for _, o in pairs], np.int64)
    return values, offsets, splits


UnicodeDecodeWithOffsets = Op(
    "UnicodeDecodeWithOffsets", lambda x, **a: _decode(x.reshape(-1), **a),
    dtypes={dtypes.string}, num_outputs=3,
    shape=lambda s, **_: (lambda v, splits: (v, v, splits))(*ragged_shape(s)),
    dtype=lambda d, **_: (dtypes.int32, dtypes.int64, dtypes.int64))


def _check(op, errors_, encoding=None):
    if errors_ not in _ERRORS:
        raise _invalid(op, f"Value for attr 'errors' of \"{errors_}\" is not in the list of "
                       "allowed values: \"strict\", \"replace\", \"ignore\"")
    if encoding is not None and encoding not in _OUTPUT_ENCODINGS:
        raise _invalid(op, f"Value for attr 'output_encoding' of \"{encoding}\" is not in the "
                       "list of allowed values: \"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\"")


def _decode_apply(input, input_encoding, errors, replacement_char, replace_control_characters):
    _check("UnicodeDecode", errors)
    attrs = {"input_encoding": _codec("UnicodeDecode", input_encoding), "errors": errors,
             "replacement_char": int(replacement_char),
             "replace_control_characters": bool(replace_control_characters)}
    return ragged_apply(UnicodeDecodeWithOffsets, strings_or_ragged(input), attrs, outputs=2)


@tf_export("strings.unicode_decode")
def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,
                   replace_control_characters=False, name=None):
    """The code points (int32) of each string; a batch gives a RaggedTensor.

    >>> tf.strings.unicode_decode([b"a\\xffb"], "UTF-8")
    <tf.RaggedTensor [[97, 65533, 98]]>
    """
    return _decode_apply(input, input_encoding, errors, replacement_char,
                         replace_control_characters)[0]


@tf_export("strings.unicode_decode_with_offsets")
def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,
                                replace_control_characters=False, name=None):
    """Code points and the byte offset (int64) where each character starts.

    >>> codes, starts = tf.strings.unicode_decode_with_offsets(["hé!"], "UTF-8")
    >>> starts
    <tf.RaggedTensor [[0, 1, 3]]>
    """
    return _decode_apply(input, input_encoding, errors, replacement_char,
                         replace_control_characters)


# --- encode -------------------------------------------------------------------------------
def _encode_points(points, encoding, errors_, replacement, op):
    chars = []
    for code in points:
        if code < 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            if errors_ == "strict":
                raise _invalid(op, "Code point is out of range for Unicode, or is a surrogate.",
                               " Pass errors='replace' (or 'ignore') to skip such values.")
            if errors_ == "ignore":
                continue
            code = replacement
        chars.append(chr(code))
    return "".join(chars).encode(encoding)


def _encode(values, splits, output_encoding, errors, replacement_char):
    out = np.empty(len(splits) - 1, dtype=object)
    out[:] = [_encode_points(values[a:b].tolist(), output_encoding, errors, replacement_char,
                             "UnicodeEncode") for a, b in zip(splits[:-1], splits[1:])]
    return out


UnicodeEncode = Op("UnicodeEncode", _encode, typed=(0,), dtypes={dtypes.int32},
                   shape=lambda v, s, **_: TensorShape([None if s[0] is None else s[0] - 1]),
                   dtype=dtypes.string)


@tf_export("strings.unicode_encode")
def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):
    """Code points (int32, last axis = characters) into strings; the last axis goes away.

    >>> tf.strings.unicode_encode(tf.ragged.constant([[104, 105], [33]]), "UTF-8").numpy()
    array([b'hi', b'!'], dtype=object)
    """
    from ..ragged.ragged_tensor import RaggedTensor
    _check("UnicodeEncode", errors, output_encoding)
    attrs = {"output_encoding": output_encoding, "errors": errors,
             "replacement_char": int(replacement_char)}
    if not isinstance(input, RaggedTensor):
        input = convert_to_tensor(input, dtype=dtypes.int32)
        if input.shape.rank == 0:
            raise ValueError("input_tensor's rank must be at least 1.")
        outer = input.shape.as_list()[:-1]
        rows = RaggedTensor.from_tensor(array_ops.reshape(input, [-1, input.shape[-1]]))
        return array_ops.reshape(unicode_encode(rows, output_encoding, errors,
                                                replacement_char), outer)
    if input.ragged_rank > 1:
        return input.with_values(unicode_encode(input.values, output_encoding, errors,
                                                replacement_char))
    values = convert_to_tensor(input.values, dtype=dtypes.int32)
    return apply(UnicodeEncode, [values, input.row_splits], attrs)


# --- split and transcode ------------------------------------------------------------------
@tf_export("strings.unicode_split")
def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):
    """Each string cut into its characters (each re-encoded in `input_encoding`).

    >>> tf.strings.unicode_split(["hé"], "UTF-8")
    <tf.RaggedTensor [[b'h', b'\\xc3\\xa9']]>
    """
    return unicode_split_with_offsets(input, input_encoding, errors, replacement_char)[0]


@tf_export("strings.unicode_split_with_offsets")
def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,
                               name=None):
    """The characters of each string and the byte offset where each starts.

    >>> chars, starts = tf.strings.unicode_split_with_offsets("hé!", "UTF-8")
    >>> starts.numpy()
    array([0, 1, 3])
    """
    codes, offsets = unicode_decode_with_offsets(input, input_encoding, errors,
                                                 replacement_char)
    encoding = _codec("UnicodeEncode", input_encoding)
    return _map_codes(codes, encoding), offsets


def _one_char_strings(values, encoding):
    out = np.empty(values.shape, dtype=object)
    out.flat[:] = [chr(c).encode(encoding, "surrogatepass") for c in values.flat]
    return out


CodesToChars = Op("UnicodeEncodeEachCodePoint", _one_char_strings, dtypes={dtypes.int32},
                  shape=lambda s, **_: s, dtype=dtypes.string)


def _map_codes(codes, encoding):
    from ..ragged.ragged_tensor import RaggedTensor
    if isinstance(codes, RaggedTensor):
        return codes.with_flat_values(_map_codes(codes.flat_values, encoding))
    return apply(CodesToChars, [codes], {"encoding": encoding})


def _transcode(x, input_encoding, output_encoding, errors, replacement_char,
               replace_control_characters):
    def one(s):
        points, _ = _decode_one(s, input_encoding, errors, replacement_char,
                                replace_control_characters, "UnicodeTranscode")
        return _encode_points(points, output_encoding, "replace", replacement_char,
                              "UnicodeTranscode")
    out = np.empty(x.shape, dtype=object)
    out.flat[:] = [one(s) for s in x.flat]
    return out


UnicodeTranscode = Op("UnicodeTranscode", _transcode, dtypes={dtypes.string},
                      shape=lambda s, **_: s)


@tf_export("strings.unicode_transcode")
def unicode_transcode(input, input_encoding, output_encoding, errors="replace",
                      replacement_char=65533, replace_control_characters=False, name=None):
    """Re-encode each string from `input_encoding` to `output_encoding` (shape kept).

    >>> tf.strings.unicode_transcode("hé", "UTF-8", "UTF-16-BE").numpy()
    b'\\x00h\\x00\\xe9'
    """
    _check("UnicodeTranscode", errors, output_encoding)
    if hasattr(input, "flat_values"):  # a RaggedTensor: transcode its strings, keep its rows
        return input.with_flat_values(unicode_transcode(
            input.flat_values, input_encoding, output_encoding, errors, replacement_char,
            replace_control_characters))
    attrs = {"input_encoding": _codec("UnicodeTranscode", input_encoding),
             "output_encoding": output_encoding, "errors": errors,
             "replacement_char": int(replacement_char),
             "replace_control_characters": bool(replace_control_characters)}
    return apply(UnicodeTranscode, [convert_to_tensor(input, dtype=dtypes.string)], attrs)


# --- unicode_script -----------------------------------------------------------------------
_script_runs = []  # [(run starts, codes)], filled on first use


def _script_table():
    if not _script_runs:
        import base64
        import zlib

        from .unicode_script_table import PACKED, RUNS
        raw = zlib.decompress(base64.b64decode("".join(PACKED.split())))
        starts = np.frombuffer(raw[:4 * RUNS], dtype="<u4").astype(np.int64)
        _script_runs.append((starts, np.frombuffer(raw[4 * RUNS:], dtype=np.uint8)))
    return _script_runs[0]


def _unicode_script(x):
    starts, codes = _script_table()
    valid = (x >= 0) & (x <= 0x10FFFF)
    runs = np.searchsorted(starts, np.where(valid, x, 0), side="right") - 1
    return np.where(valid, codes[runs].astype(np.int32), np.int32(-1))


UnicodeScript = Op("UnicodeScript", _unicode_script, dtypes={dtypes.int32},
                   shape=lambda s: s)


@tf_export("strings.unicode_script")
def unicode_script(input, name=None):
    """ICU's script code (int32) of each code point; -1 outside Unicode's range.

    0 is Common (digits, punctuation), 8 Cyrillic, 17 Han, 25 Latin; the table
    comes from real TF 2.21's ICU (`unicode_script_table.py`).

    >>> tf.strings.unicode_script([65, 1041, 0x4E00, 48, -1]).numpy()
    array([25,  8, 17,  0, -1], dtype=int32)
    """
    from ..ragged.ragged_tensor import RaggedTensor
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(unicode_script(input.flat_values))
    return apply(UnicodeScript, [convert_to_tensor(input, dtype=dtypes.int32)])
