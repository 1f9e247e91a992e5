"""`keras.layers.TFSMLayer`: an endpoint of a reloaded SavedModel, used as a Keras layer.

The SavedModel's Python code is gone - only its traced graphs and variables
remain - so the layer can only *call* an endpoint: `call_endpoint` (default
"serve", what `model.export` writes) is looked up first as an attribute of
the reloaded object, then among its `signatures`. With
`call_training_endpoint`, `layer(x, training=True)` calls that endpoint
instead (e.g. one traced with dropout on).

>>> import os, tempfile
>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
>>> path = os.path.join(tempfile.mkdtemp(), "exported")
>>> model.export(path, verbose=False)
>>> layer = tf.keras.layers.TFSMLayer(path)
>>> layer(tf.ones((4, 3))).shape, len(layer.trainable_weights)
(TensorShape([4, 2]), 2)

Where minitf differs from Keras 3: the layer's weights are the reloaded
variables themselves, so training the layer changes what the endpoint
computes (Keras copies them into new variables the endpoint never reads).
Only minitf's SavedModels load: a directory real TF wrote holds
`saved_model.pb`, and loading it raises TF's OSError saying so.

A `.keras` file can hold a TFSMLayer's config (the SavedModel's path), but
loading it runs graphs from another file, so `load_model` refuses it unless
`safe_mode=False`, as Keras does. In TensorFlow this is
`keras/src/export/tfsm_layer.py`.
"""
from ...framework.tf_export import tf_export
from ..engine.base_layer import Layer
from ..saving.object_registration import in_safe_mode


@tf_export("keras.layers.TFSMLayer")
class TFSMLayer(Layer):
    """A reloaded SavedModel's endpoint as an inference layer (see the module docstring)."""

    def __init__(self, filepath, call_endpoint="serve", call_training_endpoint=None,
                 trainable=True, name=None, dtype=None):
        from ...saved_model.load import load
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        self._reloaded_obj = load(filepath)
        self.filepath = filepath
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        self.call_endpoint_fn = self._endpoint(call_endpoint, True)
        functions = [self.call_endpoint_fn]
        if call_training_endpoint:
            self.call_training_endpoint_fn = self._endpoint(call_training_endpoint, False)
            functions.append(self.call_training_endpoint_fn)
        for variable in _variables_used_by(functions):
            self._track_variable(variable)
        self.built = True

    def _endpoint(self, name, main):
        obj = self._reloaded_obj
        if hasattr(obj, name):
            return getattr(obj, name)
        signatures = getattr(obj, "signatures", {})
        if name in signatures:
            return signatures[name]
        hint = " Select another endpoint via the `call_endpoint` argument." if main else ""
        raise ValueError(f"The endpoint '{name}' is neither an attribute of the reloaded "
                         "SavedModel, nor an entry in the `signatures` field of the reloaded "
                         f"SavedModel.{hint} Available endpoints for this SavedModel: "
                         f"{list(signatures.keys())}")

    def call(self, inputs, training=False, **kwargs):
        if training and self.call_training_endpoint:
            return self.call_training_endpoint_fn(inputs, **kwargs)
        return self.call_endpoint_fn(inputs, **kwargs)

    def get_config(self):
        config = super().get_config()
        config.update({"filepath": self.filepath, "call_endpoint": self.call_endpoint,
                       "call_training_endpoint": self.call_training_endpoint})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        if (safe_mode if safe_mode is not None else in_safe_mode()) is not False:
            raise ValueError(
                "Requested the deserialization of a `TFSMLayer`, which loads an external "
                "SavedModel. This carries a potential risk of arbitrary code execution and "
                "thus it is disallowed by default. If you trust the source of the artifact, "
                "you can override this error by passing `safe_mode=False` to the loading "
                "function, or calling `keras.config.enable_unsafe_deserialization().")
        return cls(**config)


def _variables_used_by(functions):
    """The variables the functions' graphs read, trainable ones first, each once."""
    found = []
    for function in functions:
        concretes = getattr(function, "concrete_functions", None) or [function]
        for concrete in concretes:
            for variable in getattr(concrete.graph, "captured_variables", []):
                if not any(variable is v for v in found):
                    found.append(variable)
    return [v for v in found if v.trainable] + [v for v in found if not v.trainable]
