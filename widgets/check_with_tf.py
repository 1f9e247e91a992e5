"""Run a lesson under minitf and under real TensorFlow, and compare cell by cell.

    python -m widgets.check_with_tf lessons/07_variables.ipynb [...] [--tf-python PATH]

Each lesson's code cells run twice from a fresh state: once with minitf,
once in real TensorFlow's Python with `import minitf as tf` resolved to
`tensorflow` (`widgets/_cell_runner.py` does the running; `--tf-python`
defaults to `$MINITF_TF_PYTHON`). A cell "shows" what it prints (stdout and
stderr) and the repr of its last expression. The table says, per cell:

    same                 the same text
    close                the same text, numbers equal within float tolerance
    DIFFERS              different text (both shown)
    TF ERROR             an error only under TensorFlow
    MINITF ERROR         an error only under minitf
    error, same class    a cell tagged `raises-exception` fails in both, same class
    ERROR CLASS DIFFERS  ... fails in both, with different classes
    internals            tagged `minitf-internals`: shows minitf's own code, not run under TF
    varies               tagged `nbval-ignore-output` (timings): only errors compared

Upper-case kinds are differences. A lesson explains each one: the cell
carries the tag `differs-in-tf`, and the lesson's "In real TensorFlow"
section names it (see `unexplained`). The exit status is 1 if any
difference is unexplained.

>>> classify({"source": "", "tags": []}, {"output": "1.0000001\\n", "error": None, "ran": True},
...          {"output": "1.0\\n", "error": None, "ran": True})
'close'
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

SAME, CLOSE, DIFFERS = "same", "close", "DIFFERS"
TF_ERROR, MINITF_ERROR = "TF ERROR", "MINITF ERROR"
ERROR_SAME, ERROR_OTHER = "error, same class", "ERROR CLASS DIFFERS"
INTERNALS, VARIES = "internals", "varies"
DIFFERENCES = (DIFFERS, TF_ERROR, MINITF_ERROR, ERROR_OTHER)

INTERNALS_TAG, DIFFERS_TAG = "minitf-internals", "differs-in-tf"
TF_SECTION = "## In real TensorFlow"

_RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_cell_runner.py")
_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def read_lesson(path):
    """The lesson's code cells: [{"id", "source", "tags"}], and its markdown text."""
    with open(path, encoding="utf-8") as handle:
        notebook = json.load(handle)
    cells, markdown = [], []
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code":
            tags = list(cell.get("metadata", {}).get("tags", []))
            cells.append({"id": cell.get("id", ""), "source": source, "tags": tags})
        elif cell["cell_type"] == "markdown":
            markdown.append(source)
    return cells, markdown


def tf_section(markdown):
    """The text of the lesson's "In real TensorFlow" section ('' if none)."""
    text = "\n\n".join(markdown)
    start = text.find(TF_SECTION)
    if start < 0:
        return ""
    end = text.find("\n## ", start + len(TF_SECTION))
    return text[start:] if end < 0 else text[start:end]


def same_within_tolerance(a, b, rtol=1e-5, atol=1e-6):
    """True if `a` and `b` read the same once numbers compare within tolerance."""
    numbers_a, numbers_b = _NUMBER.findall(a), _NUMBER.findall(b)
    if len(numbers_a) != len(numbers_b):
        return False
    words_a = "".join(_NUMBER.sub("#", a).split())  # NumPy pads columns to the widest number
    words_b = "".join(_NUMBER.sub("#", b).split())
    if words_a != words_b:
        return False
    for x, y in zip(numbers_a, numbers_b):
        x, y = float(x), float(y)
        if x != y and not abs(x - y) <= atol + rtol * abs(y):
            return False
    return True


def classify(cell, mine, theirs):
    """The kind of one cell: `mine` ran under minitf, `theirs` under TF."""
    if INTERNALS_TAG in cell["tags"]:
        return INTERNALS
    if mine["error"] or theirs["error"]:
        if mine["error"] and theirs["error"]:
            if "raises-exception" not in cell["tags"]:
                return MINITF_ERROR
            return ERROR_SAME if mine["error"][0] == theirs["error"][0] else ERROR_OTHER
        return MINITF_ERROR if mine["error"] else TF_ERROR
    if "nbval-ignore-output" in cell["tags"]:
        return VARIES
    a, b = _ADDRESS.sub("0x…", mine["output"]), _ADDRESS.sub("0x…", theirs["output"])
    if a == b:
        return SAME
    return CLOSE if same_within_tolerance(a, b) else DIFFERS


def unexplained(cells, kinds, section):
    """Problems with how a lesson explains its differences (a list of sentences).

    Every difference needs the tag `differs-in-tf`; every tagged cell must
    differ (a stale tag misleads) and share a `code span` of at least six
    characters with the "In real TensorFlow" section, which names it.
    """
    problems = []
    for number, (cell, kind) in enumerate(zip(cells, kinds)):
        tagged = DIFFERS_TAG in cell["tags"]
        where = f"code cell {number} (id {cell['id']}, {_first_line(cell['source'])!r})"
        if kind in DIFFERENCES and not tagged:
            problems.append(f"{where}: {kind} under real TF, but not tagged {DIFFERS_TAG!r}")
        elif tagged and kind not in DIFFERENCES and kind != INTERNALS:
            problems.append(f"{where}: tagged {DIFFERS_TAG!r} but {kind} under real TF")
    problems.extend(unnamed_in_section(cells, section))
    return problems


def unnamed_in_section(cells, section):
    """Tagged cells the "In real TensorFlow" section does not name (no TF needed)."""
    spans = [s for s in re.findall(r"`([^`\n]+)`", section) if len(s) >= 6]
    problems = []
    for number, cell in enumerate(cells):
        if DIFFERS_TAG in cell["tags"] and not any(s in cell["source"] for s in spans):
            problems.append(
                f"code cell {number} (id {cell['id']}, {_first_line(cell['source'])!r}) is tagged "
                f"{DIFFERS_TAG!r}, but no `code` of six or more characters in the lesson's "
                f"'In real TensorFlow' section appears in it: name the cell there")
    return problems


def _first_line(source):
    lines = [line for line in source.splitlines() if line.strip() and not line.startswith("#")]
    return lines[0][:50] if lines else ""


def make_job(library, lessons):
    """What the runner runs: every cell under minitf, all but the internals under TF."""
    return [{"path": os.path.abspath(path),
             "cells": [{"id": c["id"], "source": c["source"],
                        "run": library == "minitf" or INTERNALS_TAG not in c["tags"]}
                       for c in cells]}
            for path, cells in lessons]


def run_cells(python, library, lessons, timeout=900):
    """Run each lesson's cells with `library` in `python`: per lesson, per cell, a result."""
    with tempfile.TemporaryDirectory() as scratch:
        return _finish(_start(python, library, lessons, scratch), timeout)


def _start(python, library, lessons, scratch):
    """Start the runner in its own process (minitf's and TF's run side by side)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="-1",
               PYTHONHASHSEED="0", MPLBACKEND="Agg")
    if library == "tensorflow":
        env.pop("PYTHONPATH", None)  # never let this checkout shadow real TF's packages
    job_path = os.path.join(scratch, f"{library}-job.json")
    result_path = os.path.join(scratch, f"{library}-out.json")
    with open(job_path, "w", encoding="utf-8") as handle:
        json.dump(make_job(library, lessons), handle)
    process = subprocess.Popen([python, _RUNNER, library, job_path, result_path, _REPO],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    return process, library, python, result_path


def _finish(started, timeout):
    process, library, python, result_path = started
    try:
        _, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        raise RuntimeError(f"running the lessons with {library} took over {timeout} s")
    if process.returncode != 0 or not os.path.exists(result_path):
        raise RuntimeError(f"running the lessons with {library} in {python} failed "
                           f"(exit {process.returncode}):\n{stderr[-3000:]}")
    with open(result_path, encoding="utf-8") as handle:
        return json.load(handle)


def compare(paths, tf_python, timeout=900):
    """Run `paths` under both libraries: [(path, cells, kinds, mine, theirs, problems)]."""
    lessons = [(path, read_lesson(path)) for path in paths]
    plain = [(path, cells) for path, (cells, _) in lessons]
    with tempfile.TemporaryDirectory() as scratch:
        mine = _start(sys.executable, "minitf", plain, scratch)
        theirs = _start(tf_python, "tensorflow", plain, scratch)
        mine_all, theirs_all = _finish(mine, timeout), _finish(theirs, timeout)
    report = []
    for (path, (cells, markdown)), mine, theirs in zip(lessons, mine_all, theirs_all):
        kinds = [classify(c, m, t) for c, m, t in zip(cells, mine, theirs)]
        problems = unexplained(cells, kinds, tf_section(markdown))
        report.append((path, cells, kinds, mine, theirs, problems))
    return report


def format_lesson(path, cells, kinds, mine, theirs, problems, verbose=False):
    """The per-cell table of one lesson, then what is unexplained."""
    lines = [f"{os.path.basename(path)}", f"  {'cell':>4}  {'id':8}  {'kind':20}  first line"]
    for number, (cell, kind, m, t) in enumerate(zip(cells, kinds, mine, theirs)):
        mark = " *" if DIFFERS_TAG in cell["tags"] else ""
        lines.append(f"  {number:>4}  {cell['id'][:8]:8}  {kind:20}  "
                     f"{_first_line(cell['source'])}{mark}")
        if kind in DIFFERENCES and (verbose or DIFFERS_TAG not in cell["tags"]):
            lines.extend(_both(m, "minitf") + _both(t, "TF"))
    lines.extend(f"  UNEXPLAINED: {p}" for p in problems)
    return "\n".join(lines)


def _both(result, who):
    text = result["output"].rstrip()
    if result["error"]:
        text += ("\n" if text else "") + f"{result['error'][0]}: {result['error'][1]}"
    body = "\n".join("        | " + line for line in (text[:1500] or "(nothing)").splitlines())
    return [f"      {who}:", body]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m widgets.check_with_tf", description=(
        "Run lessons under minitf and under real TensorFlow and compare each cell."))
    parser.add_argument("lessons", nargs="+", help="lesson notebooks (.ipynb)")
    parser.add_argument("--tf-python", default=os.environ.get("MINITF_TF_PYTHON"),
                        help="Python of an environment with tensorflow-cpu 2.21 "
                             "(default: $MINITF_TF_PYTHON)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show both outputs of explained differences too")
    args = parser.parse_args(argv)
    if not args.tf_python or not os.path.exists(args.tf_python):
        parser.error("no real TensorFlow: pass --tf-python or set MINITF_TF_PYTHON to the Python "
                     "of an environment with `pip install 'tensorflow-cpu==2.21.*' matplotlib`")
    report = compare(args.lessons, args.tf_python)
    for entry in report:
        print(format_lesson(*entry, verbose=args.verbose))
        print()
    bad = sum(len(entry[-1]) for entry in report)
    print(f"{bad} unexplained difference(s)" if bad else "every difference is explained")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
