"""Keras models as SavedModels: `tf.saved_model.save(model, path)` and `model.export(path)`.

`model.export(path)` is Keras 3's `ExportArchive`: the SavedModel's root has a
`serve` endpoint (the model's inference call, with an `input_signature` from
the model's inputs) and the lists `variables`, `trainable_variables` and
`non_trainable_variables`; its signatures are "serve" and "serving_default",
whose inputs are named after the model's input tensors and whose output is
"output_0".

`tf.saved_model.save(model, path)` keeps less, as Keras 3 on TensorFlow 2.21
does: the loaded object only has `signatures` (a "serving_default" whose inputs
are named "inputs", "inputs_1", ...); its variables are in the file but not
attributes.

Where minitf differs from Keras 3: a model with several inputs gets a `serve`
that takes them as separate arguments, `serve(a, b)`, and its endpoint text
lists `args_0`, `args_1`, ...; Keras 3's takes one list, `serve([a, b])`
(minitf's `input_signature` does not nest). The signatures are the same.

>>> import os, tempfile
>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
>>> path = os.path.join(tempfile.mkdtemp(), "exported")
>>> model.export(path, verbose=False)
>>> loaded = tf.saved_model.load(path)
>>> sorted(loaded.signatures), loaded.serve(tf.ones([1, 3])).shape
(['serve', 'serving_default'], TensorShape([1, 2]))
"""
from ..framework.function import Function, TensorSpec
from ..framework.tensor_shape import TensorShape


class _ExportRoot:
    """The object a Keras export saves (attributes: its endpoints and variable lists)."""

    _saved_model_trackable = True

    def __init__(self, **children):
        self._saved_model_children = children  # saved in this order, empty lists too
        self.__dict__.update(children)

    def _checkpoint_children(self):
        return list(self._saved_model_children.items())


def _input_specs(model, name=None):
    inputs = getattr(model, "inputs", None)
    if not inputs:
        raise ValueError(
            "The model provided has never been called. It must be called at least once "
            "before export (or built with tf.keras.Input), so that its input shapes are known.")
    return [TensorSpec(TensorShape(t.shape), t.dtype, name or t.name) for t in inputs]


def _serving_function(model, specs, arg_names):
    def serve(*args):
        return model(args[0] if len(args) == 1 else list(args), training=False)

    import inspect
    serve.__signature__ = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in arg_names])
    return Function(serve, name="serve", input_signature=specs, autograph=False)


def saved_model_root(model):
    """What `tf.saved_model.save(model)` saves: (root, signatures)."""
    specs = _input_specs(model)  # named as Keras 3 names them: inputs, inputs_1, ...
    specs = [TensorSpec(s.shape, s.dtype, "inputs" if i == 0 else f"inputs_{i}")
             for i, s in enumerate(specs)]
    root = _ExportRoot(_variables=list(model.variables))  # in the file, hidden as in Keras 3
    function = _serving_function(model, specs, [s.name for s in specs])
    return root, {"serving_default": function.get_concrete_function()}


def export_model(model, filepath, format="tf_saved_model", verbose=None, input_signature=None):
    """Keras 3's `Model.export` (see the module docstring)."""
    from .save import save as save_saved_model
    if format != "tf_saved_model":
        raise ValueError(f"Unrecognized format={format!r}: minitf writes only "
                         "format='tf_saved_model' (Keras 3 also knows 'onnx' and 'openvino').")
    specs = list(input_signature) if input_signature is not None else _input_specs(model)
    root = _ExportRoot(
        serve=_serving_function(model, specs, [f"args_{i}" for i in range(len(specs))]),
        variables=list(model.variables), trainable_variables=list(model.trainable_variables),
        non_trainable_variables=list(model.non_trainable_variables))
    concrete = root.serve.get_concrete_function()
    save_saved_model(root, filepath, signatures={"serve": concrete,
                                                 "serving_default": concrete})
    if verbose is None or verbose:
        print(_endpoint_text(filepath, specs, concrete, model))


def _endpoint_text(filepath, specs, concrete, model):
    lines = [f"Saved artifact at '{filepath}'. The following endpoints are available:", "",
             "* Endpoint 'serve'"]
    lines += [f"  args_{i} (POSITIONAL_ONLY): {s!r}" for i, s in enumerate(specs)]
    out = concrete.structured_outputs
    lines += ["Output Type:", "  " + repr(TensorSpec(out.shape, out.dtype)
                                         if hasattr(out, "shape") else out), "Captures:"]
    lines += [f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)"
              for v in model.variables]
    return "\n".join(lines)
