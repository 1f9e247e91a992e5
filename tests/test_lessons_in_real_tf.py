"""Every lesson, run under real TensorFlow 2.21, differs from minitf only where it says so.

`widgets/check_with_tf.py` runs each lesson's cells under minitf and under
real TF. A cell that differs carries the tag `differs-in-tf`, and the
lesson's "In real TensorFlow" section names it; cells that show minitf's
own code carry `minitf-internals` and are not run under TF. The first tests
check the tags and sections without TF; the last runs every lesson in one
minitf process and one TF process (a module-scoped fixture).
"""
import re
from pathlib import Path

import pytest

from real_tf import require_tf
from widgets import check_with_tf as cw

LESSONS = sorted((Path(__file__).resolve().parents[1] / "lessons").glob("[0-9][0-9]_*.ipynb"))
# Code that can only run with minitf: its internals, its extras, and widgets built on them.
MINITF_ONLY = re.compile(r"show_source\(|from minitf[. ]|import minitf\.|tf\.grappler\b|"
                         r"from widgets\.(broadcast|tape|graph|optimizer_race) import")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_each_tagged_difference_is_named_in_the_section(lesson):
    cells, markdown = cw.read_lesson(lesson)
    section = cw.tf_section(markdown)
    assert section, f"{lesson.name} has no '{cw.TF_SECTION}' section"
    assert cw.unnamed_in_section(cells, section) == []
    for cell in cells:
        both = {cw.DIFFERS_TAG, cw.INTERNALS_TAG} <= set(cell["tags"])
        assert not both, f"{lesson.name} cell {cell['id']}: not run under TF, so it cannot differ"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_cells_that_need_minitf_itself_are_tagged(lesson):
    cells, _ = cw.read_lesson(lesson)
    untagged = [c["id"] for c in cells[1:]  # (the first cell imports; it must run in both)
                if MINITF_ONLY.search(c["source"]) and cw.INTERNALS_TAG not in c["tags"]]
    assert untagged == [], (f"{lesson.name}: cells {untagged} use minitf's internals: "
                            f"tag them {cw.INTERNALS_TAG!r}")
    assert not MINITF_ONLY.search(cells[0]["source"]), \
        f"{lesson.name}: the import cell must run under real TF too (import widgets where used)"


@pytest.fixture(scope="module")
def report():
    python = require_tf()
    return {Path(path).name: entry for path, *entry in cw.compare([str(p) for p in LESSONS],
                                                                   python)}


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_no_unexplained_difference_under_real_tf(report, lesson):
    cells, kinds, mine, theirs, problems = report[lesson.name]
    if problems:
        table = cw.format_lesson(str(lesson), cells, kinds, mine, theirs, problems)
        pytest.fail(f"{lesson.name} differs under real TF where it does not say so "
                    f"(python -m widgets.check_with_tf lessons/{lesson.name}):\n{table}")
