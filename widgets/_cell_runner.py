"""Run lessons' code cells and record what each cell showed (stdlib only).

`widgets/check_with_tf.py` starts this file twice: once in minitf's Python,
once in real TensorFlow's (where `import minitf` is made to give
`tensorflow`). It must run in both, so it imports nothing but the standard
library; the library itself is imported once, and each lesson runs in a
forked child -- a fresh state per lesson, as a fresh kernel would give,
without paying TensorFlow's import for every lesson.

    python widgets/_cell_runner.py {minitf|tensorflow} JOB.json RESULT.json

JOB.json: [{"path": ..., "cells": [{"id", "source", "run"}]}]. RESULT.json
holds, per lesson, per cell: "output" (what it printed to stdout and
stderr, then the repr of its last expression, as Jupyter would show it),
"error" ([class name, message] or null), and "ran".
"""
import ast
import contextlib
import io
import json
import linecache
import os
import sys
import tempfile
import traceback
import warnings


def cell_result(source, namespace, filename):
    """Execute one cell in `namespace`; return {"output", "error", "ran"}."""
    lines = source.splitlines(keepends=True)
    # AutoGraph reads a function's source back (inspect.getsource), as IPython allows:
    linecache.cache[filename] = (len(source), None, lines, filename)
    shown = []
    error = None
    with _captured_fds() as captured, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings differ by library; they are not lesson output
        try:
            tree = ast.parse(source, filename)
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr) and not source.rstrip().endswith(";"):
                last = ast.Expression(tree.body.pop().value)
            exec(compile(tree, filename, "exec"), namespace)
            if last is not None:
                value = eval(compile(last, filename, "eval"), namespace)
                if value is not None:
                    shown.append(repr(value))
        except BaseException as exc:  # noqa: BLE001 - a cell may raise anything; record it
            error = [type(exc).__name__, str(exc)]
        _close_figures()
    output = captured["text"] + ("\n".join(shown) + "\n" if shown else "")
    return {"output": output, "error": error, "ran": True}


@contextlib.contextmanager
def _captured_fds():
    """Capture file descriptors 1 and 2 (Python's prints and C++'s alike)."""
    captured = {"text": ""}
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield captured
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            sink.seek(0)
            captured["text"] = sink.read().decode("utf-8", "replace")


def _close_figures():
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")


def run_lesson(lesson):
    """Run one lesson's cells in a fresh namespace, from the lesson's folder."""
    os.chdir(os.path.dirname(os.path.abspath(lesson["path"])))
    namespace = {"__name__": "__main__"}
    results = []
    for number, cell in enumerate(lesson["cells"]):
        if not cell["run"]:
            results.append({"output": "", "error": None, "ran": False})
            continue
        results.append(cell_result(cell["source"], namespace, f"<cell {number}>"))
    return results


def _in_child(lesson, path):
    """Run `lesson` in a forked child (fresh library state); write its results to `path`.
    (Without fork, as on Windows, the lessons share one process: less isolated.)"""
    if not hasattr(os, "fork"):
        return run_lesson(lesson)
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            results = run_lesson(lesson)
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(results, handle)
        except BaseException:  # noqa: BLE001 - report, then leave the child
            traceback.print_exc()
            code = 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    if status != 0 or not os.path.exists(path):
        return [{"output": "", "error": ["RunnerError", f"the lesson's process ended with {status}"],
                 "ran": True}]
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def main(library, job_path, result_path, repo_root):
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        sys.path.pop(0)                     # not widgets/ itself as a top-level folder
    sys.path.append(repo_root)              # `widgets` for the lessons, after the library's own
    os.environ.setdefault("MPLBACKEND", "Agg")
    if library == "tensorflow":
        import tensorflow
        sys.modules["minitf"] = tensorflow  # `import minitf as tf` gives real TensorFlow
    else:
        import minitf  # noqa: F401 - imported once, before the lessons fork
    with open(job_path, encoding="utf-8") as handle:
        lessons = json.load(handle)
    out = []
    with tempfile.TemporaryDirectory() as scratch:
        for number, lesson in enumerate(lessons):
            out.append(_in_child(lesson, os.path.join(scratch, f"{number}.json")))
    tmp = result_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(out, handle)
    os.replace(tmp, result_path)


if __name__ == "__main__":
    main(*sys.argv[1:5])
