"""MultiOptimizer and OptimizerMap: a different optimizer for different variables.

`OptimizerMap(default_optimizer, {pattern: optimizer})` picks an optimizer by a
variable's path ('dense/kernel'): an exact key first, else the one key that
matches as a regular expression (`re.fullmatch`; two matches are an error),
else the default. `MultiOptimizer(optimizer_map)` builds each inner optimizer
on its own variables and, at each step, hands every gradient to its
variable's optimizer; it counts its own `iterations` (one per step), while
each inner optimizer counts its own. A plain function `variable -> optimizer`
may stand in for the map.

>>> import minitf as tf
>>> O = tf.keras.optimizers
>>> a, b = tf.Variable(1.0, name="encoder_w"), tf.Variable(1.0, name="head_w")
>>> opt = O.MultiOptimizer(O.OptimizerMap(O.SGD(0.1), {"encoder.*": O.SGD(0.5)}))
>>> opt.apply([tf.constant(1.0), tf.constant(1.0)], [a, b])
>>> print(a.numpy(), b.numpy())
0.5 0.9

(A Keras weight's path is 'layer_name/weight_name'; a plain tf.Variable has
only its name, which minitf uses instead.)

In TensorFlow this is `keras/src/optimizers/multi_optimizer.py`.
"""
import re
from collections.abc import MutableMapping

from ...framework.tf_export import tf_export
from .loss_scale_optimizer import LossScaleOptimizer
from .optimizer import Optimizer


def _path(variable):
    return str(getattr(variable, "path", None) or variable.name)


@tf_export("keras.optimizers.OptimizerMap", "optimizers.OptimizerMap")
class OptimizerMap(MutableMapping):
    """A dict `{path or regex: optimizer}` with a default for the paths nothing matches.

    >>> m = tf.keras.optimizers.OptimizerMap(tf.keras.optimizers.RMSprop(name="rms"))
    >>> m["encoder/.*"] = tf.keras.optimizers.SGD(name="sgd")
    >>> m["encoder/layer_0/query"].name, m["decoder/dense"].name
    ('sgd', 'rms')
    """

    def __init__(self, default_optimizer, optimizer_map=None):
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError("default_optimizer must be a Keras Optimizer instance. "
                            f"Received: {default_optimizer}")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(f"optimizer_map must be a dictionary. Received: {optimizer_map}")
        self._default_optimizer = default_optimizer
        self._optimizer_map = optimizer_map or {}

    @property
    def default_optimizer(self):
        return self._default_optimizer

    def __getitem__(self, key):
        """The optimizer of path `key`: exact key, else the one fully matching regex."""
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matching = [p for p in self._optimizer_map if re.fullmatch(p, key)]
        if len(matching) > 1:
            raise ValueError(f"Multiple optimizers assigned to variable {key}.")
        if matching:
            return self._optimizer_map[matching[0]]
        return self.default_optimizer

    def __setitem__(self, key, optimizer):
        if key in self._optimizer_map:
            raise ValueError(
                f"'{key}' already exists in the OptimizerMap with value "
                f"{self._optimizer_map[key]}. Please make sure to not use duplicated keys.")
        if not isinstance(key, str):
            raise ValueError(f"key must be a string. Received: {key}")
        if not isinstance(optimizer, Optimizer):
            raise ValueError(f"optimizer must be a Keras Optimizer instance. "
                             f"Received: {optimizer}")
        if isinstance(optimizer, LossScaleOptimizer):
            raise ValueError("optimizer cannot be LossScaleOptimizer.")
        if isinstance(optimizer, MultiOptimizer):
            raise ValueError("optimizer cannot be MultiOptimizer.")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key):
        del self._optimizer_map[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        return self[_path(variable)]

    def get_config(self):
        from .lookup import serialize
        return {"default_optimizer": serialize(self._default_optimizer),
                "optimizer_map": {k: serialize(v) for k, v in self._optimizer_map.items()}}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from .lookup import deserialize
        return cls(deserialize(config["default_optimizer"], custom_objects),
                   {k: deserialize(v, custom_objects)
                    for k, v in config["optimizer_map"].items()})


@tf_export("keras.optimizers.MultiOptimizer", "optimizers.MultiOptimizer")
class MultiOptimizer(Optimizer):
    """Delegates each variable to the optimizer `optimizer_map(variable)` chooses.

    optimizer_map: an `OptimizerMap`, or a function `variable -> optimizer`.
    loss_scale_factor: set on every inner optimizer (it overrides theirs).
    It has no `learning_rate` of its own: read it on `.optimizers`.

    >>> opt = tf.keras.optimizers.MultiOptimizer(lambda v: tf.keras.optimizers.Adam())
    >>> opt.learning_rate
    Traceback (most recent call last):
    AttributeError: Learning rate cannot be accessed on a MultiOptimizer. Access the \
learning rate on the individual sub-optimizers instead.
    """

    def __init__(self, optimizer_map, loss_scale_factor=None, name=None):
        super().__init__(learning_rate=0.0, loss_scale_factor=loss_scale_factor, name=name)
        self._optimizer_map = optimizer_map
        self._inner_optimizers = []
        inner = list(optimizer_map.values()) if hasattr(optimizer_map, "values") else []
        default = getattr(optimizer_map, "default_optimizer", None)
        for opt in inner + ([default] if default is not None else []):
            if opt not in self._inner_optimizers:
                opt.loss_scale_factor = loss_scale_factor
                self._inner_optimizers.append(opt)

    def _optimizer_for(self, variable):
        opt = self._optimizer_map(variable)
        if not isinstance(opt, Optimizer):
            raise ValueError(f"Optimizer for variable {variable} is not an Optimizer "
                             "instance.")
        if isinstance(opt, LossScaleOptimizer):
            raise ValueError("LossScaleOptimizer cannot be used inside an MultiOptimizer.")
        if isinstance(opt, MultiOptimizer):
            raise ValueError("MultiOptimizer cannot be used inside an MultiOptimizer.")
        return opt

    def build(self, var_list):
        if self.built:
            return
        var_list = list(var_list)
        self._var_to_optimizer_idx = {}
        groups = [[] for _ in self._inner_optimizers]
        for variable in var_list:
            opt = self._optimizer_for(variable)
            if opt not in self._inner_optimizers:
                opt.loss_scale_factor = self.loss_scale_factor
                self._inner_optimizers.append(opt)
                groups.append([])
            idx = self._inner_optimizers.index(opt)
            self._var_to_optimizer_idx[id(variable)] = idx
            groups[idx].append(variable)
        for opt, variables in zip(self._inner_optimizers, groups):
            if variables:
                opt.build(variables)
        super().build(var_list)

    @property
    def optimizers(self):
        """The inner optimizers: the map's values, then its default, then any a function
        returned for the first time while building."""
        return self._inner_optimizers

    @property
    def variables(self):
        """Its own iteration and learning rate, then each inner optimizer's variables."""
        variables = self._variables[:]
        for opt in self._inner_optimizers:
            variables.extend(opt.variables)
        return variables

    @property
    def learning_rate(self):
        raise AttributeError("Learning rate cannot be accessed on a MultiOptimizer. Access "
                             "the learning rate on the individual sub-optimizers instead.")

    @learning_rate.setter
    def learning_rate(self, value):
        raise AttributeError("Learning rate cannot be set on a MultiOptimizer. Set the "
                             "learning rate on the individual sub-optimizers instead.")

    @property
    def loss_scale_factor(self):
        return getattr(self, "_loss_scale_factor", None)

    @loss_scale_factor.setter
    def loss_scale_factor(self, value):
        self._loss_scale_factor = value
        for opt in getattr(self, "_inner_optimizers", []):
            opt.loss_scale_factor = value

    def apply(self, grads, trainable_variables=None):
        """Group the gradients by optimizer and let each apply its own; iterations += 1."""
        grads = list(grads)
        if not grads:
            return
        if trainable_variables is None:
            trainable_variables = self._built_variables()
        trainable_variables = list(trainable_variables)
        if not self.built:
            self.build(trainable_variables)
        if len(grads) != len(self._var_to_optimizer_idx):
            raise ValueError(
                "Gradients must match trainable variables one-to-one. Received "
                f"{len(grads)} gradients and {len(self._var_to_optimizer_idx)} variables.")
        groups = [[] for _ in self._inner_optimizers]
        for grad, variable in zip(grads, trainable_variables):
            groups[self._var_to_optimizer_idx[id(variable)]].append((grad, variable))
        for opt, pairs in zip(self._inner_optimizers, groups):
            if pairs:
                opt.apply([g for g, _ in pairs], [v for _, v in pairs])
        self._iterations.assign_add(1)

    def finalize_variable_values(self, var_list):
        """Each inner optimizer finalizes its own variables (its EMA, if any)."""
        groups = [[] for _ in self._inner_optimizers]
        for variable in var_list:
            groups[self._var_to_optimizer_idx[id(variable)]].append(variable)
        for opt, variables in zip(self._inner_optimizers, groups):
            if variables:
                opt.finalize_variable_values(variables)

    def get_config(self):
        return {"optimizer_map": _serialize_map(self._optimizer_map),
                "loss_scale_factor": self.loss_scale_factor, "name": self.name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["optimizer_map"] = _deserialize_map(config["optimizer_map"], custom_objects)
        return cls(**config)


def _serialize_map(optimizer_map):
    if isinstance(optimizer_map, OptimizerMap):
        return {"module": "keras.optimizers", "class_name": "OptimizerMap",
                "config": optimizer_map.get_config(), "registered_name": None}
    name = getattr(optimizer_map, "__name__", type(optimizer_map).__name__)
    return {"module": getattr(optimizer_map, "__module__", None), "class_name": "function",
            "config": name, "registered_name": name}


def _deserialize_map(config, custom_objects=None):
    if config.get("class_name") == "OptimizerMap":
        return OptimizerMap.from_config(config["config"], custom_objects)
    name = config.get("config")
    function = (custom_objects or {}).get(name)
    if function is None:
        raise ValueError(
            f"Could not locate function '{name}' (the MultiOptimizer's optimizer_map). "
            "Pass it in `custom_objects={name: function}`, or use an OptimizerMap, whose "
            "config holds its optimizers.")
    return function
