"""Small `tf.keras.utils` helpers: `Config`, `get_source_inputs`, `is_keras_tensor`.

>>> import minitf as tf
>>> config = tf.keras.utils.Config(learning_rate=0.1)
>>> config.batch_size = 32
>>> config.learning_rate, sorted(config)
(0.1, ['batch_size', 'learning_rate'])
>>> inputs = tf.keras.Input((3,))
>>> outputs = tf.keras.layers.Dense(2)(tf.keras.layers.Dense(4)(inputs))
>>> tf.keras.utils.get_source_inputs(outputs)[0] is inputs
True
>>> tf.keras.utils.is_keras_tensor(outputs), tf.keras.utils.is_keras_tensor(tf.ones(2))
(True, False)

In TensorFlow these are `keras/src/utils/config.py`, `ops/operation_utils.py` and
`backend/common/keras_tensor.py`.
"""
import copy
import difflib
import json

from ...framework import nest
from ...framework.tf_export import tf_export
from ..engine import keras_tensor


@tf_export("keras.utils.Config")
class Config:
    """A dict whose keys are also attributes (`config.lr`); `freeze()` makes it read-only."""

    __attrs__ = None

    def __init__(self, **kwargs):
        self._config = kwargs
        self._frozen = False
        self.__attrs__ = set(dir(self))

    @property
    def frozen(self):
        """True once `freeze()` was called."""
        return self._frozen

    def freeze(self):
        """Refuse every later change (ValueError)."""
        self._frozen = True

    def unfreeze(self):
        self._frozen = False

    def _raise_if_frozen(self):
        if self._frozen:
            raise ValueError("Cannot mutate attribute(s) because the config is frozen.")

    def as_dict(self):
        return copy.copy(self._config)

    def to_json(self):
        return json.dumps(self._config)

    def keys(self):
        return self._config.keys()

    def values(self):
        return self._config.values()

    def items(self):
        return self._config.items()

    def pop(self, *args):
        self._raise_if_frozen()
        return self._config.pop(*args)

    def update(self, *args, **kwargs):
        self._raise_if_frozen()
        return self._config.update(*args, **kwargs)

    def get(self, keyname, value=None):
        return self._config.get(keyname, value)

    def __setattr__(self, name, value):
        attrs = object.__getattribute__(self, "__attrs__")
        if attrs is None or name in attrs:
            return object.__setattr__(self, name, value)
        self._raise_if_frozen()
        self._config[name] = value

    def __getattr__(self, name):
        attrs = object.__getattribute__(self, "__attrs__")
        if attrs is None or name in attrs:
            return object.__getattribute__(self, name)
        if name in self._config:
            return self._config[name]
        msg = f"Unknown attribute: '{name}'."
        closest = difflib.get_close_matches(name, self._config.keys(), n=1, cutoff=0.7)
        if closest:
            msg += f" Did you mean '{closest[0]}'?"
        raise AttributeError(msg)

    def __setitem__(self, key, item):
        self._raise_if_frozen()
        self._config[key] = item

    def __getitem__(self, key):
        return self._config[key]

    def __repr__(self):
        return f"<Config {self._config}>"

    def __iter__(self):
        return iter(sorted(self._config.keys()))

    def __len__(self):
        return len(self._config)

    def __delitem__(self, key):
        self._raise_if_frozen()
        del self._config[key]

    def __contains__(self, item):
        return item in self._config


@tf_export("keras.utils.get_source_inputs")
def get_source_inputs(tensor):
    """The `Input` tensors `tensor` is computed from (a list; walks the model graph back)."""
    history = getattr(tensor, "_keras_history", None)
    if history is None:
        return tensor if not isinstance(tensor, keras_tensor.KerasTensor) else [tensor]
    operation, node_index, _ = history
    if not operation or not operation._inbound_nodes:
        return [tensor]
    node = operation._inbound_nodes[node_index]
    if node.is_input:
        return nest.flatten(node.output_tensors)
    sources = []
    for parent in node.input_tensors:
        for x in get_source_inputs(parent):
            if all(x is not t for t in sources):
                sources.append(x)
    return sources


@tf_export("keras.utils.is_keras_tensor")
def is_keras_tensor(x):
    """True for the symbolic tensors of the functional API (`tf.keras.Input(...)` and what
    layers return for them); False for real tensors and arrays."""
    return isinstance(x, keras_tensor.KerasTensor)
