"""`saved_model_cli`: look inside a SavedModel and run its signatures from the shell.

    python -m minitf.tools.saved_model_cli show --dir DIR              # the tag-sets
    python -m minitf.tools.saved_model_cli show --dir DIR --all        # everything
    python -m minitf.tools.saved_model_cli show --dir DIR --tag_set serve --signature_def serving_default
    python -m minitf.tools.saved_model_cli run --dir DIR --signature_def serving_default \\
        --input_exprs 'x=[[1.0,2.0]]'

The text follows TensorFlow's `saved_model_cli` line by line:

>>> import os, tempfile
>>> import minitf as tf
>>> module = tf.Module()
>>> module.k = tf.Variable(2.0)
>>> module.double = tf.function(lambda x: {"y": x * module.k},
...                             input_signature=[tf.TensorSpec([None], tf.float32, "x")])
>>> path = os.path.join(tempfile.mkdtemp(), "m")
>>> tf.saved_model.save(module, path)
>>> main(["show", "--dir", path, "--tag_set", "serve", "--signature_def", "serving_default"])
The given SavedModel SignatureDef contains the following input(s):
  inputs['x'] tensor_info:
      dtype: DT_FLOAT
      shape: (-1)
      name: serving_default_x:0
The given SavedModel SignatureDef contains the following output(s):
  outputs['y'] tensor_info:
      dtype: DT_FLOAT
      shape: (-1)
      name: StatefulPartitionedCall:0
Method name is: tensorflow/serving/predict
>>> main(["run", "--dir", path, "--signature_def", "serving_default", "--input_exprs", "x=[1.0,2.5]"])
Result for output key y:
[2. 5.]

Where minitf differs from TensorFlow:
* there is no `__saved_model_init_op` signature (minitf restores variables
  without an initializer graph), and the op list names minitf's ops only;
* `--input_exprs` accepts Python literals only (`ast.literal_eval`): TF
  evaluates them as Python code with NumPy (`np.ones((2, 3))`), which minitf
  never does; each value is converted to its input's dtype;
* `run` uses the tag-set "serve" when `--tag_set` is not given (TF requires it);
* `--inputs` (.npy files), `--input_examples` and `--outdir` are not supported.
"""
import argparse
import ast
import sys

import numpy as np

from ..framework import dtypes, errors
from ..framework.function import TensorSpec
from ..saved_model import registry, structures, values
from ..saved_model.load import load, read_document

_TYPES = {"float32": "DT_FLOAT", "float64": "DT_DOUBLE", "float16": "DT_HALF",
          "bfloat16": "DT_BFLOAT16", "int8": "DT_INT8", "int16": "DT_INT16",
          "int32": "DT_INT32", "int64": "DT_INT64", "uint8": "DT_UINT8", "uint16": "DT_UINT16",
          "uint32": "DT_UINT32", "uint64": "DT_UINT64", "bool": "DT_BOOL",
          "string": "DT_STRING", "complex64": "DT_COMPLEX64", "complex128": "DT_COMPLEX128"}
TAG_SET = "serve"


def _signatures(document):
    sigs = document.get("signatures")
    return sigs if isinstance(sigs, dict) else {}


def _shape_text(dims):
    if dims is None:
        return "unknown_rank"
    return "(" + ", ".join("-1" if d is None else str(d) for d in dims) + ")"


def _call_names(document):
    """TF names each signature's outputs after its call node, in order of signature keys:
    StatefulPartitionedCall, _1, ... for functions that touch a variable or run a stateful
    op, PartitionedCall, _1, ... for the others (two counters)."""
    functions, counts, names = document.get("concrete_functions", []), {}, {}
    for key in sorted(_signatures(document)):
        index = _signatures(document)[key].get("concrete_function")
        known = isinstance(index, int) and 0 <= index < len(functions)
        stateful = not known or _is_stateful(functions[index].get("graph"))
        call = "StatefulPartitionedCall" if stateful else "PartitionedCall"
        counts[call] = counts.get(call, 0) + 1
        names[key] = call + (f"_{counts[call] - 1}" if counts[call] > 1 else "")
    return names


def _is_stateful(graph):
    """Does a serialized graph (or a cond/while body in it) read a variable or run an op
    with effects (a random draw, a print)? Unknown op names count as stateful."""
    stack = [graph]
    while stack:
        graph = stack.pop()
        if not isinstance(graph, dict) or graph.get("variables"):
            return True
        for node in graph.get("nodes", []):
            kernels = registry._ops().get(node.get("op")) or {}
            if not kernels or any(op.stateful for op in kernels.values()):
                return True
            for value in node.get("attrs", {}).values():
                stack.extend(_subgraphs(value))
    return False


def show_signature(document, key, indent=0):
    pad = "  " * indent
    signature = _signatures(document)[key]
    call = _call_names(document)[key]
    print(f"{pad}The given SavedModel SignatureDef contains the following input(s):")
    for name, dtype, dims in sorted(signature["inputs"]):
        _tensor_info(pad, f"inputs['{name}']", dtype, dims, f"{key}_{name}:0")
    print(f"{pad}The given SavedModel SignatureDef contains the following output(s):")
    for name, index, dtype, dims in sorted(signature["outputs"]):
        _tensor_info(pad, f"outputs['{name}']", dtype, dims, f"{call}:{index}")
    print(f"{pad}Method name is: {signature.get('method_name', '')}")


def _tensor_info(pad, label, dtype, dims, name):
    print(f"{pad}  {label} tensor_info:")
    print(f"{pad}      dtype: {_TYPES.get(dtype, 'DT_INVALID')}")
    print(f"{pad}      shape: {_shape_text(dims)}")
    print(f"{pad}      name: {name}")


def _ops(document):
    found, stack = set(), [f.get("graph") for f in document.get("concrete_functions", [])]
    while stack:
        graph = stack.pop()
        for node in graph.get("nodes", []) if isinstance(graph, dict) else []:
            found.add(node.get("op"))
            for value in node.get("attrs", {}).values():
                stack.extend(_subgraphs(value))
    return found


def _subgraphs(value):
    if isinstance(value, dict):
        if "graph" in value and len(value) == 1:
            return [value["graph"]]
        return [g for v in value.values() for g in _subgraphs(v)]
    if isinstance(value, list):
        return [g for v in value for g in _subgraphs(v)]
    return []


def show_functions(document, path):
    """TF's "Concrete Functions" section: the root object's functions and their traces."""
    budget = values.Budget(path)
    objects = document["object_graph"]
    print("\nConcrete Functions:", end="")
    children = sorted(objects[0].get("children", []), key=lambda c: c["local_name"])
    for child in children:
        entry = objects[child["node_id"]]
        if entry.get("kind") != "function":
            continue
        print(f"\n  Function Name: '{child['local_name']}'")
        names = [p["name"] for p in entry.get("parameters", [])]
        for option, index in enumerate(entry.get("concrete_functions", []), 1):
            data = document["concrete_functions"][index]
            args, kwargs = structures.decode(data["structured_input_signature"], budget)
            print(f"    Option #{option}")
            print("      Callable with:")
            _print_args(args, names, "Argument")
            if kwargs:
                _print_args(list(kwargs.values()), list(kwargs), "Named Argument")


def _print_args(arguments, names, kind):
    for index, element in enumerate(arguments, 1):
        print(f"        {kind} #{index}")
        if isinstance(element, TensorSpec):
            name = element.name or (names[index - 1] if index <= len(names) else None)
            print(f"          {name}: {TensorSpec(element.shape, element.dtype, name)!r}")
        else:
            print(f"          DType: {type(element).__name__}")
            print(f"          Value: {element}")


def show(args):
    document = read_document(args.dir)
    path = f"{args.dir}/saved_model.json"
    if args.all:
        print(f"\nMetaGraphDef with tag-set: '{TAG_SET}' contains the following SignatureDefs:")
        for key in sorted(_signatures(document)):
            print(f"\nsignature_def['{key}']:")
            show_signature(document, key, indent=1)
        ops = "{" + ", ".join(repr(op) for op in sorted(_ops(document))) + "}"
        print(f"The MetaGraph with tag set ['{TAG_SET}'] contains the following ops: {ops}")
        show_functions(document, path)
        return
    if args.tag_set is None:
        print("The given SavedModel contains the following tag-sets:")
        print(f"'{TAG_SET}'")
        return
    _check_tag_set(args.tag_set)
    if args.signature_def is None:
        print("The given SavedModel MetaGraphDef contains SignatureDefs with the following "
              "keys:")
        for key in sorted(_signatures(document)):
            print(f'SignatureDef key: "{key}"')
        return
    _check_signature(document, args.signature_def)
    show_signature(document, args.signature_def)


def _check_tag_set(tag_set):
    if tag_set != TAG_SET:
        raise RuntimeError(f"MetaGraphDef associated with tag-set {tag_set} could not be "
                           f"found in SavedModel. A minitf SavedModel has the one tag-set "
                           f"'{TAG_SET}'.")


def _check_signature(document, key):
    if key not in _signatures(document):
        raise ValueError(f"Could not find signature \"{key}\". Please choose from: "
                         f"{', '.join(sorted(_signatures(document)))}")


def parse_input_exprs(text):
    """'x=[[1.0,2.0]];k=4' -> {'x': [[1.0, 2.0]], 'k': 4}: Python literals only."""
    result = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, expr = part.partition("=")
        if not sep or not name.strip():
            raise RuntimeError(f'--input_exprs "{text}" format is incorrect. Please follow '
                               '"<input_key>=<python expression>"')
        try:
            result[name.strip()] = ast.literal_eval(expr.strip())
        except (ValueError, SyntaxError):
            raise ValueError(f"--input_exprs: {expr.strip()!r} for input '{name.strip()}' is "
                             "not a Python literal. minitf evaluates literals only (numbers, "
                             "nested lists, strings), never code.") from None
    return result


def run(args):
    document = read_document(args.dir)
    _check_tag_set(args.tag_set or TAG_SET)
    _check_signature(document, args.signature_def)
    feeds = parse_input_exprs(args.input_exprs or "")
    signature = _signatures(document)[args.signature_def]
    wanted = {name: dtype for name, dtype, _ in signature["inputs"]}
    unknown = sorted(set(feeds) - set(wanted))
    if unknown:
        raise ValueError(f'"{unknown[0]}" is not a valid input key. Please choose from '
                         f'{", ".join(sorted(wanted))}, or use --show option.')
    missing = sorted(set(wanted) - set(feeds))
    if missing:
        raise ValueError(f"Missing input(s) {missing} for signature {args.signature_def!r}: "
                         "give each with --input_exprs 'name=value'.")
    function = load(args.dir).signatures[args.signature_def]
    inputs = {name: np.asarray(value, dtype=dtypes.as_dtype(wanted[name]).as_numpy_dtype)
              for name, value in feeds.items()}
    outputs = function(**inputs)
    for key in sorted(outputs):
        print(f"Result for output key {key}:")
        print(outputs[key].numpy())


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="saved_model_cli", description="Show and run a minitf SavedModel.")
    commands = parser.add_subparsers(dest="command", required=True)
    show_parser = commands.add_parser("show", help="Show information about a SavedModel.")
    run_parser = commands.add_parser("run", help="Run a signature of a SavedModel.")
    for sub in (show_parser, run_parser):
        sub.add_argument("--dir", required=True, help="the SavedModel directory")
        sub.add_argument("--tag_set", default=None, help="the tag-set ('serve')")
        sub.add_argument("--signature_def", default=None, required=sub is run_parser,
                         help="the signature key, e.g. serving_default")
    show_parser.add_argument("--all", action="store_true", help="show everything")
    run_parser.add_argument("--input_exprs", default="",
                            help="'name=literal;name2=literal' for each input")
    args = parser.parse_args(argv)
    (show if args.command == "show" else run)(args)


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError, RuntimeError, errors.OpError) as exc:
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)
