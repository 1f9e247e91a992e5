"""`tf.strings.regex_replace` and `tf.strings.regex_full_match`.

TensorFlow matches with Google's RE2 on UTF-8 text, so `.` is one character
(not one byte). minitf decodes each string as UTF-8 and uses Python's `re`,
whose syntax agrees with RE2's for the common cases (classes, `*+?{}`, groups,
`|`, anchors); RE2 has no look-around and no backreferences in patterns, Python
does, so a pattern using them works here but fails in TensorFlow. In the
rewrite, `\\1`..`\\9` insert a group and `\\0` the whole match, as in RE2.

>>> import minitf as tf
>>> tf.strings.regex_replace(["Hello, World!"], r"[!,]", "").numpy()
array([b'Hello World'], dtype=object)
>>> tf.strings.regex_replace("aaa bab", "a(b)?", r"<\\1\\0>").numpy()
b'<a><a><a> b<bab>'
>>> tf.strings.regex_full_match(["ab", "abc"], "ab").numpy()
array([ True, False])
"""
import re

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export

_STRING = {dtypes.string}


def _compile(pattern, op_name):
    try:
        return re.compile(pattern)
    except re.error as e:
        raise errors.InvalidArgumentError(
            None, op_name, f"Invalid pattern: {pattern}, error: {e} [Op:{op_name}] The "
            "pattern is a regular expression (RE2 syntax): escape characters such as ( [ "
            "* + ? with a backslash to match them literally.") from None


def _rewrite_parts(rewrite, op_name):
    r"""RE2's rewrite string as [literal text or group number]: `\N` a group, `\\` a \."""
    parts, i = [], 0
    while i < len(rewrite):
        char = rewrite[i]
        if char == "\\":
            nxt = rewrite[i + 1:i + 2]
            if nxt.isdigit():
                parts.append(int(nxt))
            elif nxt == "\\":
                parts.append("\\")
            else:
                raise errors.InvalidArgumentError(  # TF logs it and changes nothing
                    None, op_name, f"Invalid rewrite pattern: {rewrite} [Op:{op_name}] In "
                    r"a rewrite, a backslash starts \0-\9 (a group) or \\ (a backslash).")
            i += 2
        else:
            parts.append(char)
            i += 1
    return parts


def _text(value):
    return value.decode("utf-8", errors="surrogateescape")


def _regex_replace(x, pattern, rewrite, replace_global):
    regex = _compile(pattern, "StaticRegexReplace")
    parts = _rewrite_parts(rewrite, "StaticRegexReplace")
    missing = [p for p in parts if isinstance(p, int) and p > regex.groups]
    if missing:  # TF logs RE2's complaint and leaves the strings unchanged; minitf raises
        raise errors.InvalidArgumentError(
            None, "StaticRegexReplace", f"Rewrite schema error: '\\{missing[0]}' asks for "
            f"group {missing[0]}, but the pattern has {regex.groups} capturing groups "
            "[Op:StaticRegexReplace]")

    def expand(match):
        return "".join(match.group(p) or "" if isinstance(p, int) else p for p in parts)

    count = 0 if replace_global else 1
    out = np.empty(x.shape, dtype=object)
    out.flat[:] = [regex.sub(expand, _text(s), count=count).encode(
        "utf-8", errors="surrogateescape") for s in x.flat]
    return out


StaticRegexReplace = Op("StaticRegexReplace", _regex_replace, dtypes=_STRING,
                        shape=lambda s, **_: s)


@tf_export("strings.regex_replace")
def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    """Replace the matches of `pattern` in each string by `rewrite` (all of them, or only
    the first with `replace_global=False`)."""
    pattern = pattern.decode() if isinstance(pattern, bytes) else str(pattern)
    rewrite = rewrite.decode() if isinstance(rewrite, bytes) else str(rewrite)
    return apply(StaticRegexReplace, [convert_to_tensor(input, dtype=dtypes.string)],
                 {"pattern": pattern, "rewrite": rewrite, "replace_global": bool(replace_global)})


def _full_match(x, pattern):
    regex = _compile(pattern, "StaticRegexFullMatch")
    return np.array([regex.fullmatch(_text(s)) is not None for s in x.flat],
                    dtype=bool).reshape(x.shape)


StaticRegexFullMatch = Op("StaticRegexFullMatch", _full_match, dtypes=_STRING,
                          shape=lambda s, **_: s, dtype=dtypes.bool)


@tf_export("strings.regex_full_match")
def regex_full_match(input, pattern, name=None):
    """True where the whole string matches `pattern`."""
    pattern = pattern.decode() if isinstance(pattern, bytes) else str(pattern)
    return apply(StaticRegexFullMatch, [convert_to_tensor(input, dtype=dtypes.string)],
                 {"pattern": pattern})
