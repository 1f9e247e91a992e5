"""`tf.strings`: element-wise string ops (numbers, case, length, join, formatting).

A `tf.string` tensor holds bytes (str is encoded as UTF-8):

>>> import minitf as tf
>>> tf.strings.to_number(tf.constant(["1.5", "2"]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 2. ], dtype=float32)>
>>> tf.strings.length(["héllo"], unit="UTF8_CHAR").numpy()
array([5], dtype=int32)

The other families: `string_split_ops.py` (split, bytes_split, ngrams),
`unicode_ops.py` (unicode_*), `string_reduce_ops.py` (substr, reduce_join,
unsorted_segment_join, format, to_hash_bucket), `regex_ops.py`, `hash_ops.py`.
"""
import re

import numpy as np

from ..framework import dtypes, errors
from ..framework.compat import as_bytes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export

_STRING = {dtypes.string}
_NUMBER_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.uint32,
                 dtypes.uint64)
# What C's strtod / strtoll accept: no "_" separators, no hex (Python's int/float would).
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)",
                     re.IGNORECASE)


def _strings(x):
    return convert_to_tensor(x, dtype=dtypes.string)


def _map_bytes(fn, array, otype=object):
    out = np.empty(array.shape, dtype=otype)
    out.flat[:] = [fn(s) for s in array.flat]
    return out


def _invalid(op, message, hint=""):
    text = f"{message} [Op:{op}]" + (" " + hint if hint else "")
    return errors.InvalidArgumentError(None, op, text)


def check_unit(op, unit):
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise _invalid(op, f"Value for attr 'unit' of \"{unit}\" is not in the list of allowed "
                       "values: \"BYTE\", \"UTF8_CHAR\"")


def _to_number(x, out_type):
    info = np.iinfo(out_type._np) if out_type.is_integer else None

    def convert(s):
        text = s.decode("utf-8", "replace").strip()
        match = _NUMBER.fullmatch(text)
        if match and info is not None:
            value = int(text) if text.lstrip("+-").isdigit() else None
            match = value is not None and info.min <= value <= info.max
        if not match:
            raise _invalid("StringToNumber", "StringToNumberOp could not correctly convert "
                           f"string: {s.decode('utf-8', 'replace')}",
                           "Only text that is a number of "
                           f"{out_type.name} converts; filter or fix such values first.")
        return value if info is not None else float(text)
    return _map_bytes(convert, x).astype(out_type._np)


StringToNumber = Op("StringToNumber", _to_number, dtypes=_STRING, shape=lambda s, **_: s,
                    dtype=lambda d, out_type: out_type)


@tf_export("strings.to_number")
def to_number(string_tensor, out_type=dtypes.float32, name=None):
    """Parse each string as a number of `out_type` (float32 by default).

    Leading and trailing whitespace is allowed; anything else that is not a
    number (or does not fit `out_type`) is an InvalidArgumentError.

    >>> tf.strings.to_number("7", out_type=tf.int64)
    <tf.Tensor: shape=(), dtype=int64, numpy=7>
    """
    out_type = dtypes.as_dtype(out_type)
    if out_type not in _NUMBER_TYPES:
        raise _invalid("StringToNumber", f"Value for attr 'out_type' of {out_type.name} is not "
                       "in the list of allowed values: float, double, int32, int64, uint32, "
                       "uint64")
    return apply(StringToNumber, [_strings(string_tensor)], {"out_type": out_type})


def _case(name, byte_fn, text_fn):
    def forward(x, encoding):
        if encoding == "utf-8":
            return _map_bytes(lambda s: text_fn(s.decode("utf-8", "replace")).encode(), x)
        return _map_bytes(byte_fn, x)

    op = Op(name, forward, dtypes=_STRING, shape=lambda s, **_: s)

    def public(input, encoding="", name=None):
        if encoding not in ("", "utf-8"):
            raise _invalid(op.name, "only utf-8 or '' (no encoding) is supported, received "
                           f"{encoding}")
        return apply(op, [_strings(input)], {"encoding": encoding})
    return op, public


StringLower, lower = _case("StringLower", bytes.lower, str.lower)
StringUpper, upper = _case("StringUpper", bytes.upper, str.upper)
lower.__doc__ = """Lower-case: ASCII letters only, or every letter with `encoding="utf-8"`.

    >>> tf.strings.lower(["AbC", "ÀB"], encoding="utf-8").numpy()
    array([b'abc', b'\\xc3\\xa0b'], dtype=object)
    """
upper.__doc__ = """Upper-case: ASCII letters only, or every letter with `encoding="utf-8"`.

    >>> tf.strings.upper("straße", encoding="utf-8").numpy()
    b'STRASSE'
    """
tf_export("strings.lower")(lower)
tf_export("strings.upper")(upper)

StringStrip = Op("StringStrip", lambda x: _map_bytes(bytes.strip, x), dtypes=_STRING,
                 shape=lambda s: s)


@tf_export("strings.strip")
def strip(input, name=None):
    """Remove leading and trailing ASCII whitespace.

    >>> tf.strings.strip("  hi\\n").numpy()
    b'hi'
    """
    return apply(StringStrip, [_strings(input)])


def utf8_length(s):
    """Characters in UTF-8 bytes: every byte that does not continue a character (TF's rule)."""
    return sum(1 for b in s if b & 0xC0 != 0x80)


StringLength = Op("StringLength", lambda x, unit: _map_bytes(
    len if unit == "BYTE" else utf8_length, x, np.int32), dtypes=_STRING,
    shape=lambda s, **_: s, dtype=dtypes.int32)


@tf_export("strings.length")
def length(input, unit="BYTE", name=None):
    """The length of each string: bytes, or characters with `unit="UTF8_CHAR"`.

    >>> tf.strings.length(["ab", "é"]).numpy()
    array([2, 2], dtype=int32)
    >>> tf.strings.length(["ab", "é"], unit="UTF8_CHAR").numpy()
    array([2, 1], dtype=int32)
    """
    check_unit("StringLength", unit)
    return apply(StringLength, [_strings(input)], {"unit": unit})


def _join(*arrays, separator):
    parts = np.broadcast_arrays(*arrays)
    out = np.empty(parts[0].shape, dtype=object)
    out.flat[:] = [separator.join(items) for items in zip(*[p.flat for p in parts])]
    return out


StringJoin = Op("StringJoin", _join, dtypes=_STRING,
                shape=lambda *shapes, separator: max(shapes, key=lambda s: s.rank or 0))


@tf_export("strings.join")
def join(inputs, separator="", name=None):
    """Join strings element-wise (scalars broadcast): `join(["a", "b"], "-")` is b'a-b'.

    >>> tf.strings.join([["a", "b"], "x"], separator="-").numpy()
    array([b'a-x', b'b-x'], dtype=object)
    """
    ragged = [x for x in inputs if hasattr(x, "flat_values")]
    if ragged:
        return _ragged_join(inputs, ragged[0], separator)
    return apply(StringJoin, [_strings(x) for x in inputs], {"separator": as_bytes(separator)})


def _ragged_join(inputs, first, separator):
    """Join RaggedTensors of one row structure (and scalars) through their flat values."""
    splits = [s.numpy().tolist() for s in first.nested_row_splits]
    flat = []
    for x in inputs:
        if hasattr(x, "flat_values"):
            if [s.numpy().tolist() for s in x.nested_row_splits] != splits:
                raise errors.InvalidArgumentError(
                    None, "StringJoin", "partitions have incompatible row_splits: "
                    "tf.strings.join of RaggedTensors needs the same row lengths in each input.")
            flat.append(x.flat_values)
        else:
            flat.append(x)
    return first.with_flat_values(join(flat, separator))


def _float_format(precision, scientific, shortest, width, fill):
    spec = "%" + fill + (str(width) if width > -1 else "")
    spec += f".{precision}" if precision > -1 else ""
    return spec + ("e" if scientific else "g" if shortest else "f")


def _as_string(x, precision, scientific, shortest, width, fill):
    kind = x.dtype.kind
    if kind in "fc":
        spec = _float_format(precision, scientific, shortest, width, fill)
        if kind == "c":
            return _map_bytes(lambda v: f"({spec % v.real},{spec % v.imag})".encode(), x)
        return _map_bytes(lambda v: (spec % float(v)).encode(), x)
    if kind == "b":
        return _map_bytes(lambda v: b"true" if v else b"false", x)
    if kind == "O":
        spec = "%" + (str(width) if width > -1 else "") + "s"
        return _map_bytes(lambda v: (spec % v.decode("utf-8", "replace")).encode(), x)
    spec = "%" + fill + (str(width) if width > -1 else "") + "d"
    return _map_bytes(lambda v: (spec % int(v)).encode(), x)


AsString = Op("AsString", _as_string, shape=lambda s, **_: s, dtype=dtypes.string)


def _check_as_string(dtype, precision, scientific, shortest, fill):
    if len(fill) > 1:
        raise _invalid("AsString", "Fill string must be one or fewer characters")
    if fill not in ("", "0", " ", "-", "+", "#"):
        raise _invalid("AsString", f'Fill argument not supported: "{fill}"')
    if scientific and shortest:
        raise _invalid("AsString", "Cannot select both scientific and shortest notation")
    if not (dtype.is_floating or dtype.is_complex):
        if precision > -1:
            raise _invalid("AsString", f"precision not supported for datatype {dtype.name}")
        if scientific or shortest:
            raise _invalid("AsString", "scientific and shortest format not supported for "
                           f"datatype {dtype.name}")


@tf_export("strings.as_string", "as_string")
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",
              name=None):
    """Numbers as strings, as C's printf writes them.

    Floats get 6 decimals (`%f`) unless `precision`, `scientific` (`%e`) or
    `shortest` (`%g`) say otherwise; `width` pads on the left with spaces, or
    with zeros when `fill="0"`.

    >>> tf.strings.as_string(tf.constant([1, 20])).numpy()
    array([b'1', b'20'], dtype=object)
    >>> tf.strings.as_string([3.14159], precision=2).numpy()
    array([b'3.14'], dtype=object)
    >>> tf.strings.as_string([7], width=3, fill="0").numpy()
    array([b'007'], dtype=object)
    """
    x = convert_to_tensor(input)
    _check_as_string(x.dtype, precision, scientific, shortest, fill)
    return apply(AsString, [x], {"precision": int(precision), "scientific": bool(scientific),
                                 "shortest": bool(shortest), "width": int(width),
                                 "fill": fill})
