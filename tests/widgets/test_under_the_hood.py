"""widgets.under_the_hood: showing minitf's source inside a lesson."""
import doctest
import inspect
import re

import pytest

import minitf as tf
from minitf.framework import op as op_module
from minitf.ops import math_ops, unary_ops
from widgets import under_the_hood
from widgets.under_the_hood import GUTTER, SourceView, show_source


def _start_of(function):
    return inspect.getsourcelines(function)[1]


def test_function_source_with_path_relative_to_the_package_and_line_numbers():
    view = show_source(tf.math.add)
    first = _start_of(math_ops.add)
    assert view.path == "minitf/ops/math_ops.py"
    assert view.first_line == first
    assert view.title == "add"
    assert view.code == inspect.getsource(math_ops.add).rstrip("\n")
    assert view.header == f"minitf/ops/math_ops.py, lines {first}-{view.last_line}: add"


def test_plain_text_has_a_header_and_a_numbered_gutter():
    view = show_source(tf.math.add)
    rows = repr(view).splitlines()
    assert rows[0] == view.header
    assert rows[1] == f"  {view.first_line} {GUTTER} @tf_export(\"math.add\", \"add\")"
    assert len(rows) == 1 + len(view.lines)


def test_markdown_has_a_fenced_python_block():
    markdown = show_source(tf.math.add)._repr_markdown_()
    assert markdown.startswith("**`minitf/ops/math_ops.py`**, lines ")
    assert "\n```python\n@tf_export" in markdown
    assert markdown.endswith("\n```")


def test_markdown_uses_tildes_when_the_code_contains_backticks():
    view = SourceView("minitf/x.py", [(1, 'doc = """```"""')], "doc")
    assert "~~~~python\n" in view.markdown()


def test_method_source_is_dedented_and_titled_by_qualified_name():
    view = show_source(tf.Variable.assign)
    assert view.title == "Variable.assign"
    assert view.lines[0][1].startswith("def assign(")


def test_property_shows_its_getter():
    view = show_source(tf.Variable.dtype)
    assert view.path == "minitf/framework/variables.py"
    assert any("def dtype" in text for _, text in view.lines)


def test_tf_function_shows_the_python_function():
    view = show_source(tf.function(_a_traced_function))
    assert view.title == "_a_traced_function"
    assert view.path.endswith("test_under_the_hood.py")
    assert view.code == "def _a_traced_function(x):\n    return x + 1"


def _a_traced_function(x):
    return x + 1


def test_module_slice_from_start_text_ends_with_its_statement():
    view = show_source(unary_ops, start="Exp = _unary(")
    assert view.code == 'Exp = _unary("Exp", silent(np.exp), INEXACT)'
    source = inspect.getsource(unary_ops).splitlines()
    assert source[view.first_line - 1] == view.code  # line numbers count from 1


def test_module_slice_by_dotted_name_keeps_a_whole_function():
    view = show_source("minitf.framework.op", start="def apply(")
    assert view.path == "minitf/framework/op.py"
    assert view.first_line == _start_of(op_module.apply)
    assert view.code == inspect.getsource(op_module.apply).rstrip("\n")


def test_start_and_stop_choose_a_slice_and_keep_decorators():
    view = show_source(tf.Tensor, start="def ndim", stop="def get_shape")
    assert view.code == "@property\ndef ndim(self):\n    return self.shape.rank"


def test_max_lines_truncates_with_a_note():
    full = show_source(tf.math.add)
    view = show_source(tf.math.add, max_lines=2)
    assert len(view.lines) == 2
    hidden = len(full.lines) - 2
    assert view.note == f"{hidden} more lines"
    assert repr(view).endswith(f"  ... {hidden} more lines")
    assert view._repr_markdown_().endswith(f"*... {hidden} more lines*")


def test_docstring_can_be_dropped():
    view = show_source(tf.math.add, docstring=False)
    assert view.title == "add (docstring omitted)"
    assert '"""' not in view.code
    assert "return apply(" in view.code
    assert view.first_line == _start_of(math_ops.add)


def test_dropping_a_missing_docstring_changes_nothing():
    view = show_source(_a_traced_function, docstring=False)
    assert view.title == "_a_traced_function"
    assert view.code == "def _a_traced_function(x):\n    return x + 1"


def test_whole_module_and_missing_text_are_refused_with_advice():
    with pytest.raises(ValueError, match="pass `start=`"):
        show_source(unary_ops)
    with pytest.raises(ValueError, match="contains 'no such line'"):
        show_source(unary_ops, start="no such line")
    with pytest.raises(ValueError, match="contains 'no such stop'"):
        show_source(unary_ops, start="Exp = _unary(", stop="no such stop")


def test_line_numbers_are_exactly_what_lessons_sanitize_cfg_masks():
    with open("lessons/sanitize.cfg", encoding="utf-8") as f:
        rules = re.findall(r"^regex: (.*)$\n^replace: (.*)$", f.read(), flags=re.MULTILINE)
    view = show_source(tf.math.add)

    def sanitize(text):
        for regex, replace in rules:
            text = re.sub(regex, replace, text)
        return text

    shifted = SourceView(view.path, [(n + 40, t) for n, t in view.lines], view.title)
    assert sanitize(repr(view)) == sanitize(repr(shifted))
    assert sanitize(view.markdown()) == sanitize(shifted.markdown())
    assert str(view.first_line) not in sanitize(repr(view))


def test_docstring_examples_run():
    result = doctest.testmod(under_the_hood)
    assert result.attempted > 0 and result.failed == 0
