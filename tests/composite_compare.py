"""Run the same case functions under minitf and under real TF, in one TF subprocess.

A case is a module-level function `case_x(tf)` that returns plain data made with
`describe`. Its source (and `describe`'s) is shipped to real TF, so the very same
code runs on both sides; tests compare the two results.
"""
import inspect
import json

from real_tf import run_tf_json


def describe(value):
    """JSON-able summary of a result: tensors as lists, composites by their parts, specs
    and TensorShapes by their repr, errors by class and message."""
    if isinstance(value, BaseException):  # TF's kernel prefix and traceback left out
        text = str(value)
        if text.startswith("{{"):
            text = text[text.index("}}") + 2:].lstrip()
        return ["error", type(value).__name__, text.split("\n")[0].split(" [Op:")[0]]
    if isinstance(value, (list, tuple)):
        return [describe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): describe(v) for k, v in sorted(value.items())}
    if type(value).__name__ == "IndexedSlices":  # TF's sparse gradient: minitf's is dense
        import numpy as np
        dense = np.zeros(value.dense_shape.numpy(), value.values.numpy().dtype)
        np.add.at(dense, value.indices.numpy(), value.values.numpy())
        return ["tensor", dense.dtype.name, dense.tolist()]
    if hasattr(value, "to_list") and hasattr(value, "row_splits"):
        return ["ragged", value.to_list()]
    if hasattr(value, "indices") and hasattr(value, "dense_shape"):
        return ["sparse", value.indices.numpy().tolist(), describe(value.values),
                value.dense_shape.numpy().tolist()]
    if hasattr(value, "numpy"):
        array = value.numpy()
        return ["tensor", array.dtype.name, array.tolist()]
    if hasattr(value, "tolist"):  # numpy arrays (as_numpy_iterator)
        return ["array", [describe(v) for v in value] if value.dtype == object
                else value.tolist()]
    if isinstance(value, (bytes,)):
        return value.decode()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def attempt(thunk):
    """thunk()'s value, or the exception it raised (as a value, for describe)."""
    try:
        return thunk()
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return exc


def run_in_real_tf(cases):
    """{case name: describe()d result} of every case, computed by real TF in one process."""
    helpers = inspect.getsource(describe) + "\n" + inspect.getsource(attempt) + "\n"
    sources = "\n".join(inspect.getsource(case) for case in cases)
    calls = "".join(f"out[{case.__name__!r}] = {case.__name__}(tf)\n" for case in cases)
    code = ("import json\nimport numpy as np\nimport tensorflow as tf\n" + helpers + sources
            + "\nout = {}\n" + calls + "print(json.dumps(out))\n")
    return run_tf_json(code)


def same(ours, theirs):
    """Equal results, where an error of ours must have TF's class and begin with TF's
    message (minitf may add a sentence that teaches)."""
    if isinstance(theirs, list) and theirs[:1] == ["error"]:
        return isinstance(ours, list) and ours[:2] == theirs[:2] and (
            len(theirs) < 3 or ours[2].startswith(theirs[2]))
    if isinstance(theirs, list) and isinstance(ours, list):
        return len(ours) == len(theirs) and all(same(a, b) for a, b in zip(ours, theirs))
    if isinstance(theirs, dict) and isinstance(ours, dict):
        return ours.keys() == theirs.keys() and all(same(ours[k], theirs[k]) for k in ours)
    return ours == theirs


def run_in_minitf(cases):
    import minitf
    return json.loads(json.dumps({case.__name__: case(minitf) for case in cases}))
