"""Store lessons executed, with outputs that do not depend on the machine.

    python -m widgets.store_lessons lessons/*.ipynb          # execute, then tidy
    python -m widgets.store_lessons --tidy-only lessons/*.ipynb

nbval compares what a fresh run prints with what the notebook stores, and a
notebook read on GitHub shows the stored outputs. Tracebacks and error texts
name files by where they lie on the machine that ran the lesson (the repo's
checkout, the kernel's temporary cell files) and reprs may carry memory
addresses; none of that means anything to the next reader. `tidy` rewrites
them the way `lessons/sanitize.cfg` reads them when comparing (and drops the
execution timestamps nbclient writes into each cell's metadata, which would
make every re-run a change to review):

>>> tidy_text('File "/tmp/ipykernel_81/123.py", line 4, in f', "/home/me/minitf")
'File "<cell>", line 4, in f'
>>> tidy_text("File /home/me/minitf/minitf/framework/op.py:121, in apply", "/home/me/minitf")
'File minitf/framework/op.py:121, in apply'
>>> tidy_text("WARNING:tensorflow:From /tmp/ipykernel_7/99.py:2: f (from m) is deprecated", "/x")
'WARNING:tensorflow:From <cell>: f (from m) is deprecated'
>>> tidy_text("<graphviz.sources.Source at 0x7f3942828510>", "/x")
'<graphviz.sources.Source at 0xADDRESS>'
"""
import argparse
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]  # the checkout (lessons/, minitf/, widgets/)
_CELL_FILE = re.compile(r'"[^"]*ipykernel_\d+/\d+\.py"')
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
_DEPRECATION_FROM = re.compile(r"From [^ ]*ipykernel_\d+/\d+\.py:\d+:")  # TF's deprecation log


def tidy_text(text, root=str(ROOT)):
    """`text` without machine paths and addresses (see the module docstring)."""
    text = _CELL_FILE.sub('"<cell>"', text)
    text = _DEPRECATION_FROM.sub("From <cell>:", text)
    text = text.replace(root.rstrip("/") + "/", "")
    return _ADDRESS.sub("0xADDRESS", text)


def tidy(nb, root=str(ROOT)):
    """Tidy every stored output of a notebook in place; returns it.

    A cell tagged `solution` is stored collapsed and without outputs (they
    would show the answer), and tagged `nbval-ignore-output` so that nbval
    runs it without comparing.
    """
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if "solution" in cell.metadata.get("tags", []):
            hide_solution(cell)
        for output in cell.get("outputs", []):
            if "text" in output:
                output["text"] = tidy_text(output["text"], root)
            if "traceback" in output:
                output["traceback"] = [tidy_text(line, root) for line in output["traceback"]]
            if "evalue" in output:
                output["evalue"] = tidy_text(output["evalue"], root)
            for mime, value in output.get("data", {}).items():
                if mime.startswith("text/") and isinstance(value, str):
                    output["data"][mime] = tidy_text(value, root)
    return nb


def hide_solution(cell):
    """Store a solution cell collapsed, without outputs, and not compared by nbval.
    (Its execution count stays: it ran with the lesson, and a count reveals nothing.)"""
    cell.outputs = []
    cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
    tags = cell.metadata.setdefault("tags", [])
    if "nbval-ignore-output" not in tags:
        tags.append("nbval-ignore-output")


def store(path, execute=True, timeout=120):
    """Execute the lesson on a fresh kernel (in its own folder), tidy it, write it back."""
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    if execute:
        from nbclient import NotebookClient  # installed with nbconvert (the lab extra)

        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    nbformat.write(tidy(nb), path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+")
    parser.add_argument("--tidy-only", action="store_true", help="do not execute, only tidy")
    args = parser.parse_args(argv)
    for name in args.notebooks:
        store(name, execute=not args.tidy_only)
        print("stored", name)


if __name__ == "__main__":
    main()
