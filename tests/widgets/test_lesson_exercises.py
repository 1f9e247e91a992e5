"""Every lesson's exercises, as stored: no answer shows before the learner answers.

- a solution cell follows every exercise; it is collapsed, tagged, stored without outputs
  and not compared by nbval (widgets/store_lessons.py enforces this when it stores a lesson);
- an exercise cell's check call passes only names (`check_ex3(answer)`): no literal, no
  expected value built in the call, and its stored output shows no verdict of a right answer;
- the checks come from the lesson's own module, widgets/lesson_checks/lNN.py.
"""
import ast
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

LESSON_DIR = Path(__file__).resolve().parents[2] / "lessons"
LESSONS = sorted(LESSON_DIR.glob("[0-9][0-9]_*.ipynb"))
# Every lesson's exercises use its lesson-check module (widgets/lesson_checks/lNN.py).
WITH_CHECK_MODULES = [p.name[:2] for p in LESSONS]


def exercises(nb):
    """(number, exercise code cell, solution cell) for each **Exercise N.** of a lesson."""
    cells = nb.cells
    found = []
    for i, cell in enumerate(cells):
        match = re.search(r"\*\*Exercise (\d+)\.\*\*", cell.source)
        if cell.cell_type != "markdown" or not match:
            continue
        code = next((c for c in cells[i + 1:] if c.cell_type == "code"), None)
        later = cells[cells.index(code) + 1:] if code is not None else []
        solution = next((c for c in later if "solution" in c.metadata.get("tags", [])), None)
        found.append((int(match.group(1)), code, solution))
    return found


def check_calls(source):
    tree = ast.parse(source)
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name) and node.func.id.startswith("check")]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_every_exercise_has_a_hidden_solution_stored_without_outputs(lesson):
    nb = nbformat.read(lesson, as_version=4)
    found = exercises(nb)
    assert 2 <= len(found) <= 4, f"{lesson.name}: {len(found)} exercises"
    for number, code, solution in found:
        assert code is not None and "solution" not in code.metadata.get("tags", [])
        assert solution is not None, f"{lesson.name}: exercise {number} has no solution cell"
        assert solution.outputs == [], f"{lesson.name}: solution {number} stores outputs"
        assert solution.metadata.get("jupyter", {}).get("source_hidden") is True
        assert "nbval-ignore-output" in solution.metadata["tags"]


@pytest.mark.parametrize("number", WITH_CHECK_MODULES)
def test_check_calls_show_no_answer(number):
    lesson = next(p for p in LESSONS if p.name.startswith(number + "_"))
    nb = nbformat.read(lesson, as_version=4)
    assert f"from widgets.lesson_checks.l{number} import" in "".join(
        c.source for c in nb.cells if c.cell_type == "code")
    for n, code, _ in exercises(nb):
        calls = check_calls(code.source)
        assert [c.func.id for c in calls] == [f"check_ex{n}"], (lesson.name, n)
        for arg in calls[0].args + [k.value for k in calls[0].keywords]:
            assert isinstance(arg, (ast.Name, ast.Attribute)), (
                f"{lesson.name} exercise {n}: the check call passes {ast.unparse(arg)}")
        shown = "".join(o.get("text", "") for o in code.outputs)
        assert "✓" not in shown, f"{lesson.name} exercise {n} stores a right answer's verdict"


def test_the_scan_finds_a_literal_answer_in_a_check_call():
    calls = check_calls('answer = ...\ncheck_ex3(answer, (48, 24, 8))')
    assert not all(isinstance(a, ast.Name) for a in calls[0].args)


def test_store_lessons_stores_a_solution_hidden_and_without_outputs():
    from widgets.store_lessons import tidy

    solution = nbformat.v4.new_code_cell("answer = 42", execution_count=3, outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="✓ Exercise 1: correct.\n")])
    solution.metadata["tags"] = ["solution"]
    other = nbformat.v4.new_code_cell("print(1)", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="1\n")])
    nb = tidy(nbformat.v4.new_notebook(cells=[other, solution]))
    assert nb.cells[1].outputs == [] and nb.cells[1].execution_count == 3
    assert nb.cells[1].metadata["jupyter"]["source_hidden"] is True
    assert nb.cells[1].metadata["tags"] == ["solution", "nbval-ignore-output"]
    assert nb.cells[0].outputs[0]["text"] == "1\n"


def test_lesson_check_modules_docstring_examples_run():
    import doctest
    import importlib
    import pkgutil

    import widgets.lesson_checks as package

    names = [package.__name__] + [f"{package.__name__}.{m.name}"
                                  for m in pkgutil.iter_modules(package.__path__)]
    for name in names:
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted > 0 and result.failed == 0, name


ODD_ANSWERS = [None, 3, -1.5, "x", [1, 2], (), {}, object(), lambda: 1, lambda *a: None,
               lambda *a: 1 / 0, np.zeros((2, 2)), float("nan")]


@pytest.mark.parametrize("number", WITH_CHECK_MODULES)
def test_no_check_raises_on_any_answer(number, capsys):
    """Every check of every lesson, given odd answers (and odd companions for checks that
    take two arguments), prints one verdict and returns None."""
    import importlib
    import inspect

    import minitf as tf

    module = importlib.import_module(f"widgets.lesson_checks.l{number}")
    checks = [getattr(module, n) for n in dir(module) if re.fullmatch(r"check_ex\d", n)]
    assert len(checks) == len(module.EXERCISES) >= 2
    for check in checks:
        extra = len(inspect.signature(check).parameters) - 1
        for odd in ODD_ANSWERS + [tf.constant(1.0), tf.Variable([1.0, 2.0])]:
            for companion in ([None, 7, tf.Variable(0.0)] if extra else [None]):
                args = (odd,) + (companion,) * extra
                assert check(*args) is None, (check.__name__, odd)
                out = capsys.readouterr().out
                assert out.startswith(("✗", "…", "✓")), (check.__name__, odd, out)
        for exercise in module.EXERCISES:
            exercise.reset()
