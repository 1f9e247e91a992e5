"""Show minitf's own source next to the lesson that uses it.

`show_source(obj)` reads the source of a function, class, method or property
from the *installed* package (so a lesson never shows stale code), and
returns a `SourceView` that Jupyter renders as a highlighted Python block
under a header naming the file, relative to the package, and the lines:

>>> import minitf as tf
>>> view = show_source(tf.math.add)
>>> print(view.header)  # doctest: +ELLIPSIS
minitf/ops/math_ops.py, lines ...: add

A slice of a module is chosen by text, not by line numbers, so it stays
right when the file around it changes:

>>> from minitf.ops import unary_ops
>>> print(show_source(unary_ops, start="Exp = ").code)
Exp = _unary("Exp", silent(np.exp), INEXACT)

Line numbers appear in the header ("lines 74-77") and in the gutter of the
plain-text rendering ("   74 │ ..."); lessons/sanitize.cfg masks exactly these
two forms, so stored lesson outputs compare the code itself, and do not
break when unrelated lines above it move.
"""
import ast
import importlib
import inspect
import os
import sys
import textwrap

GUTTER = "\u2502"  # the box-drawing bar between line number and code


class SourceView:
    """Source lines of one object: plain text (`repr`) and Markdown for Jupyter.

    path:  the file, relative to the directory that holds the top-level package
           ("minitf/ops/math_ops.py").
    lines: `(line_number, text)` pairs, already dedented.
    title: what was shown ("add", "EagerTensor.__repr__", "Exp = Op(...").
    note:  an optional remark after the code ("5 more lines ...").
    """

    def __init__(self, path, lines, title, note=None):
        self.path = path
        self.lines = lines
        self.title = title
        self.note = note

    @property
    def first_line(self):
        return self.lines[0][0]

    @property
    def last_line(self):
        return self.lines[-1][0]

    @property
    def header(self):
        return f"{self.path}, lines {self.first_line}-{self.last_line}: {self.title}"

    @property
    def code(self):
        """The shown source, without line numbers."""
        return "\n".join(text for _, text in self.lines)

    def text(self):
        """Header, then each line as `  123 │ code`, then the note if any."""
        width = len(str(self.last_line))
        rows = [self.header]
        rows += [f"  {number:>{width}} {GUTTER} {text}".rstrip() for number, text in self.lines]
        if self.note:
            rows.append(f"  ... {self.note}")
        return "\n".join(rows)

    def markdown(self):
        """A bold header and a fenced Python block: JupyterLab highlights it."""
        fence = "~~~~" if "```" in self.code else "```"
        parts = [f"**`{self.path}`**, lines {self.first_line}-{self.last_line}: `{self.title}`",
                 "", f"{fence}python", self.code, fence]
        if self.note:
            parts += ["", f"*... {self.note}*"]
        return "\n".join(parts)

    def __repr__(self):
        return self.text()

    def _repr_markdown_(self):
        return self.markdown()


def show_source(obj, start=None, stop=None, *, max_lines=None, docstring=True):
    """The source of `obj` (or a slice of it) as a `SourceView`.

    obj:       a function, class, method, property, or a module (or its dotted name).
    start:     text on the first line to show (the first line containing it; a
               `def` or `class` found this way keeps its decorators).
    stop:      text on the line *after* the last one to show; without it, a
               module slice ends with the top-level statement where it starts.
    max_lines: show at most this many lines, noting how many were left out.
    docstring: False drops the docstring of a function or class.

    >>> import minitf as tf
    >>> view = show_source(tf.Tensor, start="def ndim", stop="def get_shape")
    >>> print(view.code)
    @property
    def ndim(self):
        return self.shape.rank
    """
    obj = _resolve(obj)
    source_lines, first = inspect.getsourcelines(obj)
    first = max(first, 1)  # a module's lines are numbered from 0 by inspect
    lines = [(first + i, text.rstrip("\n")) for i, text in enumerate(source_lines)]
    is_module = inspect.ismodule(obj)
    if is_module and start is None:
        raise ValueError("Showing a whole module is too long for a lesson: pass `start=` "
                         "(text on the first line to show), and optionally `stop=`.")
    title = _title(obj)
    if not docstring and not is_module:
        lines, dropped = _drop_docstring(lines)
        title += " (docstring omitted)" if dropped else ""
    if start is not None:
        lines = _slice(lines, start, stop, is_module, obj)
        title = title if not is_module else _shorten(lines[0][1].strip())
    lines = _dedent(lines)
    while lines and not lines[-1][1].strip():
        lines.pop()
    note = None
    if max_lines is not None and len(lines) > max_lines:
        hidden = len(lines) - max_lines
        lines = lines[:max_lines]
        note = f"{hidden} more line{'s' if hidden != 1 else ''}"
    return SourceView(_relative_path(obj), lines, title, note)


def _resolve(obj):
    if isinstance(obj, str):
        return importlib.import_module(obj)
    if isinstance(obj, property):
        return obj.fget
    for attribute in ("__wrapped__", "python_function"):  # decorated or tf.function
        inner = getattr(obj, attribute, None)
        if callable(inner) and not inspect.isclass(obj):
            return _resolve(inner)
    return obj


def _title(obj):
    if inspect.ismodule(obj):
        return obj.__name__
    return getattr(obj, "__qualname__", getattr(obj, "__name__", type(obj).__name__))


def _shorten(text, limit=60):
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _slice(lines, start, stop, is_module, obj):
    begin = next((i for i, (_, text) in enumerate(lines) if start in text), None)
    if begin is None:
        raise ValueError(f"No line of {_title(obj)} contains {start!r}.")
    while begin > 0 and lines[begin - 1][1].lstrip().startswith("@"):
        begin -= 1  # a def's decorators belong to it
    if stop is not None:
        end = next((i for i in range(begin + 1, len(lines)) if stop in lines[i][1]), None)
        if end is None:
            raise ValueError(f"No line after {start!r} in {_title(obj)} contains {stop!r}.")
        return lines[begin:end]
    if is_module:
        last = _statement_end(obj, lines[begin][0])
        return [(n, t) for n, t in lines[begin:] if n <= last]
    return lines[begin:]


def _statement_end(module, line_number):
    """The last line of the top-level statement that contains `line_number`."""
    tree = ast.parse(inspect.getsource(module))
    for node in tree.body:
        if node.lineno <= line_number <= node.end_lineno:
            return node.end_lineno
        decorators = getattr(node, "decorator_list", [])
        if decorators and decorators[0].lineno <= line_number <= node.end_lineno:
            return node.end_lineno
    return line_number


def _drop_docstring(lines):
    code = textwrap.dedent("\n".join(text for _, text in lines))
    body = ast.parse(code).body
    node = body[0] if body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return lines, False
    first = node.body[0]
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return lines, False
    skip = range(first.lineno - 1, first.end_lineno)  # 0-based indices within `lines`
    return [line for i, line in enumerate(lines) if i not in skip], True


def _dedent(lines):
    indents = [len(t) - len(t.lstrip()) for _, t in lines if t.strip()]
    cut = min(indents, default=0)
    return [(n, t[cut:]) for n, t in lines]


def _relative_path(obj):
    """The source file relative to the folder holding its top-level package."""
    filename = inspect.getsourcefile(obj)
    module_name = obj.__name__ if inspect.ismodule(obj) else obj.__module__
    top = sys.modules[module_name.split(".")[0]]
    root = os.path.dirname(os.path.dirname(os.path.abspath(top.__file__)))
    return os.path.relpath(os.path.abspath(filename), root).replace(os.sep, "/")
