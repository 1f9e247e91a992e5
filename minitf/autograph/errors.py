"""AutoGraph's errors, and errors of converted code shown at *your* line.

Converted code is compiled with your file name and line numbers, so a
Python traceback already points into your source. On top of that, an error
raised while a converted function runs is re-raised with TensorFlow's
"in user code" header, naming the function and the line:

    ValueError: in user code:

        File "model.py", line 10, in f  *
            if x > 0:

        ValueError: 'y' must also be initialized in the else branch

(The `*` marks functions AutoGraph converted.) The error keeps its class,
so `except ValueError` still catches it.

In TensorFlow these are `pyct/errors.py`, `impl/api.py` and `pyct/error_utils.py`.
"""
import linecache
import os
import sysconfig

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LIBRARY_DIRS = tuple({os.path.abspath(sysconfig.get_paths()[k]) for k in
                       ("stdlib", "platstdlib", "purelib", "platlib")})


class PyCTError(Exception):
    """Base class of the errors of the converter itself."""


class UnsupportedLanguageElementError(PyCTError, NotImplementedError):
    """Python that AutoGraph does not convert (the function then runs as it is)."""

    def __init__(self, message, lineno=None):
        super().__init__(message)
        self.lineno = lineno


class InaccessibleSourceCodeError(PyCTError, ValueError):
    """The function's source code cannot be found (REPL, `exec`, builtins)."""


class AutoGraphError(PyCTError):
    """Base class of AutoGraph's API errors."""


class ConversionError(AutoGraphError):
    """`tf.autograph.to_code`/`to_graph` could not convert the function."""


# Code objects of converted functions -> the name of the user function they came from.
CONVERTED_CODE = {}


def register_code(code, user_name, generated_names):
    """Remember `code` (and the functions nested in it) as converted code of `user_name`."""
    stack = [(code, user_name)]
    while stack:
        c, owner = stack.pop()
        if c.co_name.startswith("tf__"):
            owner = c.co_name[len("tf__"):]
        elif c.co_name not in generated_names and not c.co_name.startswith("<"):
            owner = c.co_name  # a function nested in yours: its own name
        CONVERTED_CODE[c] = owner
        stack.extend((k, owner) for k in c.co_consts if hasattr(k, "co_code"))


def _is_user_frame(code):
    if code in CONVERTED_CODE:
        return True
    path = os.path.abspath(code.co_filename)
    return not path.startswith(_PACKAGE_DIR) and not path.startswith(_LIBRARY_DIRS) and \
        not code.co_filename.startswith("<frozen")


def user_frames(traceback):
    """(file, line, function, converted) of each frame of user code, outermost first."""
    frames = []
    while traceback is not None:
        code = traceback.tb_frame.f_code
        if _is_user_frame(code):
            name = CONVERTED_CODE.get(code, code.co_name)
            entry = (code.co_filename, traceback.tb_lineno, name, code in CONVERTED_CODE)
            if not frames or frames[-1][:2] != entry[:2]:
                frames.append(entry)
        traceback = traceback.tb_next
    return frames


def in_user_code(error, note=None):
    """`error` re-created with TF's "in user code:" header (and `note` under it), or None
    if that is not possible."""
    if getattr(error, "ag_error_metadata", False):
        return None  # an inner converted function already added the header
    frames = user_frames(error.__traceback__)
    if not frames:
        return None
    lines = ["in user code:", ""]
    for filename, lineno, name, converted in frames:
        lines.append(f'    File "{filename}", line {lineno}, in {name}{"  *" if converted else ""}')
        source = linecache.getline(filename, lineno).strip()
        if source:
            lines.append(f"        {source}")
        lines.append("")
    original = str(error).replace("\n", "\n    ")
    lines.append(f"    {type(error).__name__}: {original}")
    if note:
        lines.append(f"    {note}")
    lines.append("")
    rebuilt = _same_class(error, "\n".join(lines))
    if rebuilt is not None:
        rebuilt.ag_error_metadata = True
    return rebuilt


def _same_class(error, message):
    cls = type(error)
    try:
        if hasattr(error, "node_def") and hasattr(error, "op"):  # tf.errors.OpError
            rebuilt = cls(error.node_def, error.op, message)
        else:
            rebuilt = cls(message)
    except Exception:  # noqa: BLE001 - an exception class with an unusual constructor
        return None
    return rebuilt if str(rebuilt) == message else None
