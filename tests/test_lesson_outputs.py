"""Stored lessons are tidy: no machine paths, no memory addresses (widgets/store_lessons.py)."""
import re
from pathlib import Path

import nbformat
import pytest

from widgets.store_lessons import tidy, tidy_text

LESSONS = sorted((Path(__file__).resolve().parents[1] / "lessons").glob("[0-9][0-9]_*.ipynb"))
UNTIDY = {
    "a path into a minitf checkout": re.compile(r"/[^\s\"'\\]+/minitf/[\w/]+\.py"),
    "a kernel's temporary cell file": re.compile(r"ipykernel_\d+/\d+\.py"),
    "a memory address": re.compile(r"0x[0-9a-f]{6,}"),
}


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_stored_outputs_do_not_depend_on_the_machine(lesson):
    nb = nbformat.read(lesson, as_version=4)
    text = "\n".join(str(cell.get("outputs", "")) for cell in nb.cells)
    found = [what for what, pattern in UNTIDY.items() if pattern.search(text)]
    if any("execution" in cell.metadata for cell in nb.cells):
        found.append("execution timestamps")
    assert not found, (f"{lesson.name} stores {found}: store it with "
                       f"`python -m widgets.store_lessons lessons/{lesson.name}`")


def test_tidy_rewrites_what_the_sanitizer_masks():
    root = "/srv/checkout"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1/0", outputs=[
        nbformat.v4.new_output("error", ename="E", evalue='File "/tmp/ipykernel_1/22.py"',
                               traceback=[f"File {root}/minitf/ops/math_ops.py:77, in add"]),
        nbformat.v4.new_output("display_data", data={"text/plain": "<Source at 0xdeadbeef99>"}),
    ])])
    nb.cells[0].metadata["execution"] = {"iopub.execute_input": "2026-11-26T00:52:50Z"}
    out = tidy(nb, root).cells[0].outputs
    assert "execution" not in nb.cells[0].metadata
    assert out[0]["evalue"] == 'File "<cell>"'
    assert out[0]["traceback"] == ["File minitf/ops/math_ops.py:77, in add"]
    assert out[1]["data"]["text/plain"] == "<Source at 0xADDRESS>"
    assert tidy_text("nothing to tidy", root) == "nothing to tidy"
