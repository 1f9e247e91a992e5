"""TF Serving's predict request, `{"instances": ...}` or `{"inputs": ...}`, run on a signature.

Row format: `instances` is a list with one entry per example -- a bare value
when the signature has one input, or an object of named inputs. The entries
are stacked into a batch, and the answer is `{"predictions": [...]}`, one
entry per example: a bare value for one output, an object for several.
Columnar format: `inputs` is the whole batch (a value, or an object of named
inputs) and the answer is `{"outputs": ...}` (a value, or an object).

>>> import minitf as tf
>>> sig = tf.function(lambda x: {"y": 2.0 * x}).get_concrete_function(
...     tf.TensorSpec([None, 2], tf.float32, "x"))
>>> from minitf.saved_model.restored import SignatureFunction
>>> sig = SignatureFunction(sig.graph, ["x"], {"y": sig.graph.outputs[0]})
>>> predict({"serving_default": sig}, {"instances": [[1, 2], [3, 4]]})
{'predictions': [[2.0, 4.0], [6.0, 8.0]]}
>>> predict({"serving_default": sig}, {"inputs": {"x": [[1, 2]]}})
{'outputs': [[2.0, 4.0]]}

An output whose name ends in `_bytes` is written as `{"b64": ...}`, as in TF
Serving; other string outputs are written as text (bytes that are not UTF-8
become U+FFFD: TF Serving would write the raw bytes into its JSON).

Not checked against a running TF Serving (it cannot be installed here):
error texts start with TF Serving's where known, then say what to do. An
unknown `signature_name` is answered 404, as the issue asks; TF Serving
raises FAILED_PRECONDITION for it, and which HTTP code that becomes there
was not checked. Shapes are checked against the signature before running
(TF Serving lets the graph fail), so the error names the input.
"""
import contextlib

import numpy as np

from ..framework import errors as tf_errors
from ..framework.tensor import EagerTensor
from .errors import Internal, InvalidArgument, NotFound
from .json_tensors import to_array, to_json

DEFAULT_SIGNATURE = "serving_default"


def predict(signatures, request, lock=None):
    """The JSON answer to a parsed predict `request` on `signatures` (key -> function)."""
    if not isinstance(request, dict):
        raise InvalidArgument("JSON Value: the request body must be a JSON object such as "
                              '{"instances": [...]} or {"inputs": ...}.')
    name = request.get("signature_name", DEFAULT_SIGNATURE)
    if not isinstance(name, str) or name not in signatures:
        raise NotFound(f'Serving signature key "{name}" not found. This model has: '
                       f"{', '.join(sorted(signatures)) or 'no signatures'}.")
    signature = signatures[name]
    specs = signature.structured_input_signature[1]
    if ("instances" in request) == ("inputs" in request):
        raise InvalidArgument("Missing 'inputs' or 'instances' key" if "inputs" not in request
                              else "Not both 'inputs' and 'instances' can be specified: use "
                              "one format per request.")
    row = "instances" in request
    arrays = _rows(request["instances"], specs) if row else _columns(request["inputs"], specs)
    for key, array in arrays.items():
        if not specs[key].shape.is_compatible_with(array.shape):
            raise InvalidArgument(
                f"Input {key!r} has shape {list(array.shape)}, but the signature expects "
                f"{_dims(specs[key].shape)} (-1: any size)"
                + (" per batch; each instance is one example without the batch axis."
                   if row else "; the first axis is the batch."))
    outputs = _run(signature, arrays, lock)
    return {"predictions": _predictions(outputs)} if row else {"outputs": _outputs(outputs)}


def _dims(shape):
    return [-1 if d is None else d for d in shape.as_list()] if shape.rank is not None else "any"


def _is_b64(value):
    return isinstance(value, dict) and list(value) == ["b64"]


def _named(value, specs):
    return isinstance(value, dict) and not (_is_b64(value) and "b64" not in specs)


def _only_input(specs, where):
    if len(specs) != 1:
        raise InvalidArgument(f"{where} must name the inputs when the signature has several: "
                              f"give an object with the keys {sorted(specs)}.")
    return next(iter(specs))


def _rows(instances, specs):
    if not isinstance(instances, list) or not instances:
        raise InvalidArgument("Expecting 'instances' to be a non-empty list/array, one entry "
                              "per example.")
    if all(_named(row, specs) for row in instances):
        for index, row in enumerate(instances):
            if set(row) != set(specs):
                extra, missing = sorted(set(row) - set(specs)), sorted(set(specs) - set(row))
                raise InvalidArgument(
                    f"Failed to process element: {index} of 'instances' list. JSON object "
                    + (f"has unknown input(s) {extra}" if extra else
                       f"is missing input(s) {missing}")
                    + f"; the signature's inputs are {sorted(specs)}.")
        return {key: to_array([row[key] for row in instances], spec.dtype, key)
                for key, spec in specs.items()}
    if any(_named(row, specs) for row in instances):
        raise InvalidArgument("The 'instances' list mixes objects and plain values: use "
                              "named objects for every example, or for none.")
    key = _only_input(specs, "'instances'")
    return {key: to_array(instances, specs[key].dtype, key)}


def _columns(inputs, specs):
    if _named(inputs, specs):
        if set(inputs) != set(specs):
            raise InvalidArgument(f"'inputs' names {sorted(inputs)}, but the signature's "
                                  f"inputs are {sorted(specs)}: give each one exactly once.")
        return {key: to_array(inputs[key], spec.dtype, key) for key, spec in specs.items()}
    key = _only_input(specs, "'inputs'")
    return {key: to_array(inputs, specs[key].dtype, key)}


def _run(signature, arrays, lock):
    tensors = {key: EagerTensor(array) for key, array in arrays.items()}
    try:
        with lock if lock is not None else contextlib.nullcontext():
            results = signature(**tensors)
    except (tf_errors.InvalidArgumentError, ValueError, TypeError) as exc:
        raise InvalidArgument(f"The model refused this input: {exc}") from None
    except Exception as exc:  # noqa: BLE001 -- reported to the client, the server carries on
        raise Internal(f"The model failed: {type(exc).__name__}: {exc}") from None
    return {key: np.asarray(t.numpy()) for key, t in results.items()}


def _predictions(outputs):
    sizes = {key: (a.shape[0] if a.ndim else None) for key, a in outputs.items()}
    if len(set(sizes.values())) != 1 or None in sizes.values():
        raise InvalidArgument(
            f"Batch size of the outputs differ or an output is a scalar ({sizes}): the row "
            "format ('instances') needs every output to have one entry per example. Send "
            "the request in the columnar format ('inputs') instead.")
    columns = {key: to_json(a, key.endswith("_bytes")) for key, a in outputs.items()}
    if len(columns) == 1:
        return next(iter(columns.values()))
    count = next(iter(sizes.values()))
    return [{key: column[i] for key, column in columns.items()} for i in range(count)]


def _outputs(outputs):
    columns = {key: to_json(a, key.endswith("_bytes")) for key, a in outputs.items()}
    return next(iter(columns.values())) if len(columns) == 1 else columns
