"""Function signatures and results as JSON: `(args, kwargs)` of TensorSpecs and Python
values, and nests of a graph's outputs.

>>> import minitf as tf
>>> from minitf.saved_model import structures, values
>>> data = structures.encode(((tf.TensorSpec([None, 2], tf.float32, "x"),), {}))
>>> data
{'tuple': [{'tuple': [{'spec': [[None, 2], 'float32', 'x']}]}, {'dict': []}]}
>>> structures.decode(data, values.Budget("f.json"))
((TensorSpec(shape=(None, 2), dtype=tf.float32, name='x'),), {})
"""
from ..framework.function import TensorSpec
from ..framework.graph import SymbolicTensor
from . import values


def encode(structure, outputs=None, where="signature"):
    """Nested tuples/lists/dicts of TensorSpecs, Python values and (with `outputs`, a
    graph's output list) symbolic tensors, as JSON data."""
    if isinstance(structure, TensorSpec):
        return {"spec": [None if structure.shape.rank is None else list(structure.shape.dims),
                         structure.dtype.name, structure.name]}
    if isinstance(structure, SymbolicTensor):
        found = [i for i, t in enumerate(outputs or ()) if t is structure]
        if not found:
            raise ValueError(f"{where}: {structure!r} is not an output of the graph")
        return {"output": found[0]}
    if isinstance(structure, (tuple, list)):
        return {type(structure).__name__: [encode(v, outputs, where) for v in structure]}
    if isinstance(structure, dict):
        if not all(isinstance(k, str) for k in structure):
            raise ValueError(f"{where}: a dict with non-string keys cannot be saved")
        return {"dict": [[k, encode(v, outputs, where)] for k, v in structure.items()]}
    if getattr(structure, "_is_variable", False):
        raise ValueError(f"{where}: a function that returns a tf.Variable cannot be saved; "
                         "return its value (v.read_value()) instead.")
    try:
        return {"value": values.encode(structure, where)}
    except values.Unrepresentable as exc:
        raise ValueError(f"Cannot save this function: {exc}.") from None


def decode(data, budget, outputs=None, depth=0):
    """The inverse of `encode` (output references become `outputs[i]`)."""
    if depth > values.MAX_DEPTH or not isinstance(data, dict) or len(data) != 1:
        raise budget.fail("a malformed function signature or result structure")
    (tag, body), = data.items()
    if tag == "spec":
        if not (isinstance(body, list) and len(body) == 3
                and (body[2] is None or isinstance(body[2], str))):
            raise budget.fail("a malformed TensorSpec")
        return TensorSpec(values.decode_shape(body[0], budget),
                          values.decode_dtype(body[1], budget), body[2])
    if tag == "output":
        if outputs is None or not isinstance(body, int) or not 0 <= body < len(outputs):
            raise budget.fail(f"result refers to output {values._short(body)}, which the "
                              "graph does not have")
        return outputs[body]
    if tag in ("tuple", "list"):
        if not isinstance(body, list) or len(body) > values.MAX_ITEMS:
            raise budget.fail("a malformed list")
        items = [decode(v, budget, outputs, depth + 1) for v in body]
        return tuple(items) if tag == "tuple" else items
    if tag == "dict":
        if not isinstance(body, list) or not all(
                isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in body):
            raise budget.fail("a malformed dict")
        return {k: decode(v, budget, outputs, depth + 1) for k, v in body}
    if tag == "value":
        return values.decode(body, budget)
    raise budget.fail(f"unknown structure tag {tag!r}")
