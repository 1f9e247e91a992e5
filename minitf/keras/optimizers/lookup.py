"""`tf.keras.optimizers.get`: an optimizer from a string, a config dict or an instance.

>>> import minitf as tf
>>> type(tf.keras.optimizers.get("adam")).__name__
'Adam'
>>> tf.keras.optimizers.get("sgd").get_config()["learning_rate"]
0.009999999776482582
"""
from ...framework.tf_export import tf_export
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .ftrl import Ftrl
from .lamb import Lamb
from .lion import Lion
from .loss_scale_optimizer import LossScaleOptimizer
from .multi_optimizer import MultiOptimizer, OptimizerMap
from .muon import Muon
from .nadam import Nadam
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .schedule_free_adamw import ScheduleFreeAdamW
from .sgd import SGD

ALL_OPTIMIZERS = {c.__name__.lower(): c for c in (Adadelta, Adafactor, Adagrad, Adam, Adamax,
                                                  AdamW, Ftrl, Lion, LossScaleOptimizer, Muon,
                                                  Nadam, RMSprop, ScheduleFreeAdamW, SGD)}
# Keras 3.15's `get("lamb")` does not know Lamb (it is missing from ALL_OBJECTS there), but a
# saved Lamb config loads: deserialize looks here too. MultiOptimizer needs its map, so only
# a config (which holds it) makes one.
_CONFIG_ONLY = {"lamb": Lamb, "multioptimizer": MultiOptimizer}


@tf_export("keras.optimizers.serialize", "optimizers.serialize")
def serialize(optimizer):
    """An optimizer as `{"class_name": ..., "config": ...}` (Keras's format).

    >>> tf.keras.optimizers.serialize(tf.keras.optimizers.SGD())["class_name"]
    'SGD'
    """
    return {"module": "keras.optimizers", "class_name": type(optimizer).__name__,
            "config": optimizer.get_config(), "registered_name": None}


@tf_export("keras.optimizers.deserialize", "optimizers.deserialize")
def deserialize(config, custom_objects=None):
    """The optimizer a `serialize` dict describes (class names are case-insensitive).

    >>> opt = tf.keras.optimizers.deserialize({"class_name": "Adam", "config": {}})
    >>> type(opt).__name__, opt.get_config()["beta_1"]
    ('Adam', 0.9)
    """
    custom_objects = custom_objects or {}
    name = config["class_name"]
    cls = custom_objects.get(name) or ALL_OPTIMIZERS.get(name.lower()) or \
        _CONFIG_ONLY.get(name.lower())
    if cls is None:
        raise ValueError(f"Could not interpret optimizer identifier: {name} Known "
                         f"optimizers: {sorted(c.__name__ for c in ALL_OPTIMIZERS.values())}.")
    if cls is MultiOptimizer:  # its map's config names the inner optimizers
        return cls.from_config(config.get("config", {}), custom_objects)
    return cls.from_config(config.get("config", {}))


@tf_export("keras.optimizers.get", "optimizers.get")
def get(identifier):
    """An optimizer instance: from its name ("adam", "RMSprop"), a config dict, or itself.

    >>> type(tf.keras.optimizers.get("RMSprop")).__name__
    'RMSprop'
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        cls = ALL_OPTIMIZERS.get(identifier.lower())
        if cls is not None:
            return cls()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier} Known "
                     f"optimizers: {sorted(c.__name__ for c in ALL_OPTIMIZERS.values())}.")
