"""`keras.export.ExportArchive`: choose what a SavedModel for serving holds, then write it.

A served model is not Python: it is a set of *endpoints* (graphs traced from
`tf.function`s, each for fixed input shapes and dtypes) plus the variables
those graphs read. ExportArchive collects them:

* `track(layer)`: keep the layer's variables (`variables`,
  `trainable_variables`, `non_trainable_variables` on the reloaded object);
* `add_endpoint(name, fn, input_signature)`: trace `fn` for the signature
  (a list of `keras.InputSpec`, `tf.TensorSpec`, KerasTensors or example
  tensors, one per argument) - or take a `tf.function` already called once;
* `add_variable_collection(name, variables)`: a named list of variables to
  read back after loading (e.g. the optimizer's);
* `write_out(path)`: `tf.saved_model.save` of all that. Every endpoint is a
  signature too, and the first one is also "serving_default" (TF-Serving's
  default), unless an endpoint has that name.

>>> import os, tempfile
>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
>>> archive = tf.keras.export.ExportArchive()
>>> archive.track(model)
>>> _ = archive.add_endpoint("predict", lambda x: model(x, training=False),
...                          input_signature=[tf.TensorSpec((None, 3), tf.float32)])
>>> path = os.path.join(tempfile.mkdtemp(), "served")
>>> archive.write_out(path, verbose=False)
>>> reloaded = tf.saved_model.load(path)
>>> sorted(reloaded.signatures), reloaded.predict(tf.ones((4, 3))).shape
(['predict', 'serving_default'], TensorShape([4, 2]))

Where minitf differs from Keras 3 on TensorFlow: the directory is minitf's
SavedModel (`saved_model.json` holding the graphs, minitf's variable files),
which real TF cannot load, and minitf cannot load TF's `saved_model.pb` (see
minitf/saved_model/save.py). An argument's input_signature entry must be one
spec: a nested one (a list of specs for a model with several inputs) is
refused, because minitf's `input_signature` does not nest - take the inputs as
separate arguments instead, `fn=lambda a, b: model([a, b])`.

In TensorFlow this is `keras/src/export/saved_model_export_archive.py` and
`keras/src/backend/tensorflow/export.py`.
"""
from ...framework.function import ConcreteFunction, Function, TensorSpec
from ...framework.tensor import Tensor
from ...framework.tensor_shape import TensorShape
from ...framework.tf_export import tf_export
from ...framework.variables import Variable
from ...module import Module
from ...saved_model.keras_export import _ExportRoot


@tf_export("keras.export.ExportArchive")
class ExportArchive:
    """Endpoints and variables for a SavedModel (see the module docstring)."""

    def __init__(self, format="saved_model", **kwargs):  # noqa: A002 - Keras's argument name
        if format != "saved_model":
            raise ValueError(f"Unsupported format: {format}")
        self._endpoint_names = []
        self._endpoint_signatures = {}
        self._endpoints = {}
        self._collections = {}
        self._tracked = []
        self.variables, self.trainable_variables, self.non_trainable_variables = [], [], []
        import minitf
        self.tensorflow_version = minitf.__version__

    def track(self, resource):
        """Keep a built layer's (or model's) variables, or a `tf.Module`, in the archive."""
        from ..engine.base_layer import Layer
        if isinstance(resource, Layer):
            if not resource.built:
                raise ValueError("The layer provided has not yet been built. It must be "
                                 "built before export.")
            self._tracked.append(resource)
            self.variables += resource.variables
            self.trainable_variables += resource.trainable_variables
            self.non_trainable_variables += resource.non_trainable_variables
        elif isinstance(resource, Module):
            self._tracked.append(resource)
        else:
            raise ValueError("Invalid resource type. Expected a Keras `Layer` or `Model` or a "
                             "TensorFlow `Trackable` object. Received object "
                             f"{resource} of type '{type(resource)}'. ")

    def add_endpoint(self, name, fn, input_signature=None, **kwargs):
        """Trace `fn` for `input_signature` (one spec per argument) and keep it as the
        endpoint `name`; returns the `tf.function`. Without a signature, `fn` must be a
        `tf.function` that has been called at least once."""
        if name in self._endpoint_names:
            raise ValueError(f"Endpoint name '{name}' is already taken.")
        if "jax2tf_kwargs" in kwargs or "is_static" in kwargs:
            raise ValueError("'jax2tf_kwargs' and 'is_static' are only supported with the "
                             "jax backend. Current backend: tensorflow")
        if input_signature is None:
            decorated_fn = _traced_function(fn)
        else:
            specs = [_tensor_spec(x) for x in input_signature]
            decorated_fn = Function(fn, name=name, input_signature=specs, autograph=False)
            decorated_fn.get_concrete_function()  # trace now: errors show here, not later
            self._endpoint_signatures[name] = specs
        self._endpoints[name] = decorated_fn
        self._endpoint_names.append(name)
        return decorated_fn

    def track_and_add_endpoint(self, name, resource, input_signature, **kwargs):
        """`track(resource)`, then `add_endpoint(name, resource.__call__, input_signature)`."""
        self.track(resource)
        return self.add_endpoint(name, resource.__call__, input_signature, **kwargs)

    def add_variable_collection(self, name, variables):
        """Keep `variables` (a list, tuple or set) as the attribute `name` of the reloaded
        object."""
        if not isinstance(variables, (list, tuple, set)):
            raise ValueError("Expected `variables` to be a list/tuple/set. Received instead "
                             f"object of type '{type(variables)}'.")
        if not all(isinstance(v, Variable) for v in variables):
            raise ValueError("Expected all elements in `variables` to be `tf.Variable` "
                             "instances. Found instead the following types: "
                             f"{list(set(type(v) for v in variables))}")
        self._collections[name] = list(variables)

    def write_out(self, filepath, options=None, verbose=True):
        """Save the SavedModel to `filepath` (built under a temporary name, then renamed);
        with `verbose`, print each endpoint's signature as Keras does."""
        from ...saved_model.save import save
        if not self._endpoint_names:
            raise ValueError("No endpoints have been set yet. Call add_endpoint().")
        concretes = {name: self._concrete(name) for name in self._endpoint_names}
        signatures = dict(concretes)
        if "serving_default" not in signatures:
            signatures["serving_default"] = concretes[self._endpoint_names[0]]
        used = []
        for concrete in concretes.values():
            used += [v for v in concrete.graph.captured_variables
                     if not any(v is u for u in used)]
        children = dict(self._endpoints)
        children.update(variables=self.variables, trainable_variables=self.trainable_variables,
                        non_trainable_variables=self.non_trainable_variables,
                        _all_variables=used, _misc_assets=list(self._tracked_modules()))
        children.update(self._collections)
        save(_ExportRoot(**children), filepath, signatures=signatures, options=options)
        if verbose:
            endpoints = "\n\n".join(_endpoint_text(concretes[name], name)
                                    for name in self._endpoint_names)
            print(f"Saved artifact at '{filepath}'. The following endpoints are available:"
                  f"\n\n{endpoints}")

    def _concrete(self, name):
        function = self._endpoints[name]
        if name in self._endpoint_signatures:
            return function.get_concrete_function()
        return list(dict.fromkeys(function._cache.values()))[0]  # its first trace

    def _tracked_modules(self):
        return [r for r in self._tracked if isinstance(r, Module)]


def _traced_function(fn):
    if isinstance(fn, Function):
        if not fn._cache:
            raise ValueError(
                f"The provided tf.function '{fn}' has never been called. To specify the "
                "expected shape and dtype of the function's arguments, you must either "
                "provide a function that has been called at least once, or alternatively "
                "pass an `input_signature` argument in `add_endpoint()`.")
        return fn
    raise ValueError(
        "If the `fn` argument provided is not a `tf.function`, you must provide an "
        "`input_signature` argument to specify the shape and dtype of the function "
        "arguments. Example:\n\nexport_archive.add_endpoint(\n    name='call',\n"
        "    fn=model.call,\n    input_signature=[\n        keras.InputSpec(\n"
        "            shape=(None, 224, 224, 3),\n            dtype='float32',\n"
        "        )\n    ],\n)")


def _tensor_spec(x):
    """A `tf.TensorSpec` for one argument, from a TensorSpec, InputSpec, KerasTensor or
    tensor (the last two with a free batch axis, as Keras does)."""
    from ..engine.input_spec import InputSpec
    from ..engine.keras_tensor import KerasTensor
    if isinstance(x, TensorSpec):
        return x
    if isinstance(x, InputSpec):
        if x.shape is None or x.dtype is None:
            raise ValueError(f"The `shape` and `dtype` must be provided. Received: x={x}")
        return TensorSpec(TensorShape(x.shape), x.dtype, x.name)
    if isinstance(x, (KerasTensor, Tensor)):
        shape = (None,) + tuple(TensorShape(x.shape).as_list())[1:]
        return TensorSpec(TensorShape(shape), x.dtype,
                          getattr(x, "name", None) if isinstance(x, KerasTensor) else None)
    if isinstance(x, (list, tuple, dict)):
        raise NotImplementedError(
            "minitf's input_signature takes one spec per argument, not a nested structure "
            f"({type(x).__name__} of specs). Take the inputs as separate arguments instead: "
            "fn=lambda a, b: model([a, b]), input_signature=[spec_a, spec_b].")
    raise TypeError(f"Unsupported x={x} of the type ({type(x)}). Supported types are: "
                    "`keras.InputSpec`, `keras.KerasTensor` and backend tensor.")


def _endpoint_text(concrete, name):
    lines = concrete.pretty_printed_signature(verbose=True).split("\n")
    return "\n".join([f"* Endpoint '{name}'"] + lines[1:])
