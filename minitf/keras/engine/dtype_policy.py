"""`tf.keras.dtype_policies`: which dtype a layer computes in and which it stores weights in.

A policy named after a dtype ('float32', 'float64') uses it for both. The
mixed policies split them: 'mixed_float16' computes in float16 and keeps its
variables in float32, so the small steps an optimizer takes are not lost to
float16's 11-bit mantissa. A layer under such a policy casts its float inputs
to float16 and, while it runs, reads its float32 weights as float16
(`keras/variables.py`: the autocast scope).

>>> import minitf as tf
>>> policy = tf.keras.dtype_policies.get("mixed_float16")
>>> policy, policy.compute_dtype, policy.variable_dtype
(<DTypePolicy "mixed_float16">, 'float16', 'float32')
>>> tf.keras.config.set_dtype_policy("mixed_float16")
>>> layer = tf.keras.layers.Dense(2, kernel_initializer="ones")
>>> layer(tf.ones((1, 3))).dtype, layer.kernel.dtype
(tf.float16, tf.float32)
>>> tf.keras.config.set_dtype_policy("float32")

In TensorFlow this is `keras/src/dtype_policies/dtype_policy.py` and
`dtype_policy_map.py`; classic tf.keras called a policy
`tf.keras.mixed_precision.Policy`, a name Keras 3 keeps as an alias.
"""
import re as _re
from collections.abc import MutableMapping as _MutableMapping

from ...framework.tf_export import tf_export
from .. import backend as _backend

_ALLOWED_DTYPES = ("float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64",
                   "int8", "int16", "int32", "int64", "bfloat16", "bool", "string",
                   "float8_e4m3fn", "float8_e5m2", "complex64", "complex128")
_PYTHON_DTYPES = {bool: "bool", int: "int64", float: "float32", str: "string", "int": "int64",
                  complex: "complex128"}
_STATE = {"policy": None}  # the global policy; None: DTypePolicy(floatx()) on first ask


@tf_export("keras.utils.standardize_dtype")
def standardize_dtype(dtype):
    """A dtype's Keras name: 'float32' for tf.float32, np.float32, float, None (floatx).

    >>> import minitf as tf, numpy as np
    >>> [tf.keras.utils.standardize_dtype(d) for d in (None, int, np.int32, tf.float16)]
    ['float32', 'int64', 'int32', 'float16']
    """
    if dtype is None:
        return _backend.floatx()
    try:
        dtype = _PYTHON_DTYPES.get(dtype, dtype)
    except TypeError:  # unhashable
        pass
    if hasattr(dtype, "name"):
        dtype = dtype.name
    elif hasattr(dtype, "__name__"):
        dtype = dtype.__name__
    if dtype not in _ALLOWED_DTYPES:
        raise ValueError(f"Invalid dtype: {dtype}")
    return dtype


@tf_export("keras.DTypePolicy", "keras.dtype_policies.DTypePolicy",
           "keras.mixed_precision.DTypePolicy", "keras.mixed_precision.Policy")
class DTypePolicy:
    """A layer's compute dtype and variable dtype, named by one string.

    `name=None` takes the global policy (`tf.keras.config.dtype_policy()`).

    >>> import minitf as tf
    >>> tf.keras.DTypePolicy("float64").compute_dtype
    'float64'
    """

    def __init__(self, name=None):
        if name is None:
            name = dtype_policy().name
        self._name = name
        self._compute_dtype, self._variable_dtype = self._parse_name(name)
        self._quantization_mode = None

    def _parse_name(self, name):
        if not isinstance(name, str):
            raise TypeError("'name' must be a string, such as 'mixed_float16'. "
                            f"Received: name={name} (of type {type(name)})")
        if name == "mixed_float16":
            return "float16", "float32"
        if name == "mixed_bfloat16":
            return "bfloat16", "float32"
        try:
            dtype = standardize_dtype(name)
        except ValueError:
            raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid "
                             "policies include 'mixed_float16', 'mixed_bfloat16', and the name "
                             "of any float dtype such as 'float32'.") from None
        return dtype, dtype

    @property
    def name(self):
        return self._name

    @property
    def compute_dtype(self):
        """The dtype of the layer's inputs, computations and outputs."""
        return self._compute_dtype

    @property
    def variable_dtype(self):
        """The dtype the layer's weights are created in."""
        return self._variable_dtype

    @property
    def quantization_mode(self):
        """None: minitf has no quantized policies."""
        return self._quantization_mode

    def get_config(self):
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        name = "DTypePolicy" if type(self) is FloatDTypePolicy else type(self).__name__
        return f'<{name} "{self._name}">'

    def __eq__(self, other):
        if type(self) in (DTypePolicy, FloatDTypePolicy):
            if type(other) not in (DTypePolicy, FloatDTypePolicy):
                return False
        elif type(other) is not type(self):
            return False
        return self._name == other._name

    __hash__ = object.__hash__


@tf_export("keras.FloatDTypePolicy", "keras.dtype_policies.FloatDTypePolicy")
class FloatDTypePolicy(DTypePolicy):
    """Keras 3's old name of `DTypePolicy` (it prints as a DTypePolicy).

    >>> import minitf as tf
    >>> tf.keras.FloatDTypePolicy("float32") == tf.keras.DTypePolicy("float32")
    True
    """


@tf_export("keras.dtype_policies.DTypePolicyMap")
class DTypePolicyMap(DTypePolicy, _MutableMapping):
    """Layer paths (or regular expressions over them) -> policies, with a default.

    >>> import minitf as tf
    >>> policies = tf.keras.dtype_policies.DTypePolicyMap(default_policy="float32")
    >>> policies["encoder/.*"] = "float16"
    >>> policies["encoder/dense"].name, policies["decoder"].name
    ('float16', 'float32')
    """

    def __init__(self, default_policy=None, policy_map=None):
        if isinstance(default_policy, DTypePolicyMap):
            raise ValueError("`default_policy` cannot be a `DTypePolicyMap`.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError("If specified, `policy_map` must be a dict. Received: "
                            f"policy_map={policy_map} of type {type(policy_map)}")
        self._default_policy_arg = default_policy
        self._default_policy = get(default_policy)
        self._policy_map = policy_map or dict()
        self._quantization_mode = None

    @property
    def name(self):
        return f"map_{self.default_policy._name}"

    @property
    def default_policy(self):
        return get(self._default_policy)

    @property
    def compute_dtype(self):
        return self.default_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self.default_policy.variable_dtype

    @property
    def quantization_mode(self):
        return self.default_policy.quantization_mode

    def __getitem__(self, key):
        """The policy of path `key`: an exact key, else the one key that fully matches as a regex."""
        if key in self._policy_map:
            return self._policy_map[key]
        matching = [pattern for pattern in self._policy_map if _re.fullmatch(pattern, key)]
        if len(matching) > 1:
            raise ValueError(f"Path '{key}' matches multiple dtype policy specification keys: "
                             f"{matching}. Please make sure each path only matches at most one "
                             "dtype policy specification key in the DTypePolicyMap.")
        return self._policy_map[matching[0]] if matching else self.default_policy

    def __setitem__(self, key, policy):
        if key in self._policy_map:
            raise ValueError(f"{key} already exist in the DTypePolicyMap with value "
                             f"{self._policy_map[key]}. Please make sure to not use duplicated "
                             "keys.")
        try:
            policy = get(policy)
        except Exception:
            raise ValueError("Cannot interpret the assigned value by `keras.dtype_policies.get`."
                             f" Received: {policy} of type {type(policy)}") from None
        self._policy_map[key] = policy

    def __delitem__(self, key):
        return self._policy_map.pop(key)

    def __contains__(self, key):
        return key in self._policy_map

    def __len__(self):
        return len(self._policy_map)

    def __iter__(self):
        return iter(self._policy_map)

    def get_config(self):
        """Without a default policy, the entries follow the global policy: saved nameless.

        (Keras 3.15 also sets the stored policies' names to None; minitf leaves them.)"""
        policies = {}
        for key, policy in self._policy_map.items():
            config = serialize(policy)
            if self._default_policy_arg is None:
                config["config"] = {"name": None}
            policies[key] = config
        return {"default_policy": self._default_policy_arg, "policy_map": policies}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["policy_map"] = {key: deserialize(value, custom_objects)
                                for key, value in (config["policy_map"] or {}).items()}
        return cls(**config)

    def __repr__(self):
        mapping = [(k, v.name) for k, v in self._policy_map.items()]
        return (f"<DTypePolicyMap at {hex(id(self))} default_policy="
                f"{self._default_policy.name}, mapping={mapping}>")

    __eq__ = object.__eq__
    __hash__ = object.__hash__


_CLASSES = {"DTypePolicy": DTypePolicy, "FloatDTypePolicy": FloatDTypePolicy,
            "DTypePolicyMap": DTypePolicyMap}


@tf_export("keras.dtype_policies.serialize")
def serialize(dtype_policy):
    """A policy's config: {'module': 'keras', 'class_name': ..., 'config': ...}.

    >>> import minitf as tf
    >>> tf.keras.dtype_policies.serialize(tf.keras.DTypePolicy("mixed_float16"))["config"]
    {'name': 'mixed_float16'}
    """
    module = "keras.dtype_policies" if isinstance(dtype_policy, DTypePolicyMap) else "keras"
    return {"module": module, "class_name": type(dtype_policy).__name__,
            "config": dtype_policy.get_config(), "registered_name": None}


@tf_export("keras.dtype_policies.deserialize")
def deserialize(config, custom_objects=None):
    """The policy a `serialize` config describes (built-in classes and `custom_objects`)."""
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"Could not deserialize {config!r}: a DTypePolicy config is a dict "
                         "with 'class_name' and 'config', as `serialize` makes.")
    known = dict(_CLASSES, **(custom_objects or {}))
    cls = known.get(config["class_name"])
    if cls is None:
        raise TypeError(f"Could not locate class '{config['class_name']}'. Make sure custom "
                        "classes are decorated with `@keras.saving.register_keras_serializable()`"
                        f". Full object config: {config}")
    if cls is DTypePolicyMap:
        return cls.from_config(config.get("config", {}), custom_objects)
    return cls.from_config(config.get("config", {}))


@tf_export("keras.dtype_policies.get")
def get(identifier):
    """A policy from a name, a config dict, a dtype or a policy (None: the global policy).

    >>> import minitf as tf
    >>> tf.keras.dtype_policies.get({"class_name": "DTypePolicy", "config": {"name": "float64"}})
    <DTypePolicy "float64">
    """
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return DTypePolicy(identifier)
    try:
        return DTypePolicy(standardize_dtype(identifier))
    except Exception:
        raise ValueError("Cannot interpret `dtype` argument. Expected a string or an instance "
                         f"of DTypePolicy. Received: dtype={identifier}") from None


@tf_export("keras.config.set_dtype_policy", "keras.mixed_precision.set_dtype_policy",
           "keras.mixed_precision.set_global_policy")
def set_dtype_policy(policy):
    """Set the policy of every layer made from now on without a `dtype` argument.

    >>> import minitf as tf
    >>> tf.keras.mixed_precision.set_global_policy("mixed_bfloat16")
    >>> tf.keras.mixed_precision.global_policy()
    <DTypePolicy "mixed_bfloat16">
    >>> tf.keras.config.set_dtype_policy("float32")
    """
    if not isinstance(policy, DTypePolicy):
        if isinstance(policy, str):
            policy = DTypePolicy(policy)
        else:
            raise ValueError("Invalid `policy` argument. Expected the string name of a policy "
                             "(such as 'mixed_float16') or a `DTypePolicy` instance. Received: "
                             f"policy={policy} (of type {type(policy)})")
    _STATE["policy"] = policy


@tf_export("keras.config.dtype_policy", "keras.mixed_precision.dtype_policy",
           "keras.mixed_precision.global_policy")
def dtype_policy():
    """The global policy (first asked for: `DTypePolicy(floatx())`)."""
    if _STATE["policy"] is None:
        _STATE["policy"] = DTypePolicy(_backend.floatx())
    return _STATE["policy"]


del tf_export  # an implementation import: Keras's namespace does not show it
