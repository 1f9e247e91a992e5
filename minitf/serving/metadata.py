"""TF Serving's metadata answer: each signature's SignatureDef as protobuf JSON.

The same facts `saved_model_cli show` prints (dtype names such as DT_FLOAT,
-1 for an unknown dimension, tensor names), laid out as TF Serving's
`GET /v1/models/NAME/metadata` does, which prints the SignatureDef protos
as JSON with every field present: int64 sizes are strings ("-1").

>>> document = {"signatures": {"serving_default": {
...     "inputs": [["x", "float32", [None, 3]]],
...     "outputs": [["y", 0, "float32", [None]]],
...     "method_name": "tensorflow/serving/predict"}}}
>>> sig = signature_defs(document)["serving_default"]
>>> sig["inputs"]["x"]["dtype"], sig["inputs"]["x"]["tensor_shape"]["dim"]
('DT_FLOAT', [{'size': '-1', 'name': ''}, {'size': '3', 'name': ''}])
>>> sig["outputs"]["y"]["name"]
'StatefulPartitionedCall:0'

Where minitf differs from TF Serving: there is no `__saved_model_init_op`
entry (minitf restores variables without an initializer graph). Output tensor
names are `saved_model_cli`'s, as TF's (StatefulPartitionedCall for a signature
that touches a variable, PartitionedCall for one that does not, each numbered by
signature key; a document without its graphs, as above, says Stateful). All is
compared with the SignatureDef protos real TF writes, printed as JSON with
field names kept and empty fields shown (tests/serving/test_serving_real_tf.py).
Not checked against a running TF Serving, which cannot be installed here.
"""
from ..tools.saved_model_cli import _TYPES, _call_names


def _tensor_info(dtype, dims, name):
    shape = {"dim": [], "unknown_rank": True} if dims is None else {
        "dim": [{"size": str(-1 if d is None else d), "name": ""} for d in dims],
        "unknown_rank": False}
    return {"dtype": _TYPES.get(dtype, "DT_INVALID"), "tensor_shape": shape, "name": name}


def signature_defs(document):
    """signature key -> SignatureDef JSON, from a parsed saved_model.json."""
    signatures = document.get("signatures")
    signatures = signatures if isinstance(signatures, dict) else {}
    calls = _call_names(document)
    result = {}
    for key in sorted(signatures):
        sig = signatures[key]
        result[key] = {
            "inputs": {name: _tensor_info(dtype, dims, f"{key}_{name}:0")
                       for name, dtype, dims in sig["inputs"]},
            "outputs": {name: _tensor_info(dtype, dims, f"{calls[key]}:{index}")
                        for name, index, dtype, dims in sig["outputs"]},
            "method_name": sig.get("method_name", ""),
            "defaults": {},  # SignatureDef.defaults: minitf signatures have no defaults
        }
    return result
