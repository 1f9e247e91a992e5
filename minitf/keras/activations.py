"""`tf.keras.activations`: the element-wise nonlinearities layers apply.

Each is a plain function of a tensor built from minitf ops, so gradients
and tf.function work through it. Layers accept them by name:

>>> import minitf as tf
>>> x = tf.constant([-2.0, -0.5, 0.0, 0.5, 2.0])
>>> tf.keras.activations.get("relu")(x)
<tf.Tensor: shape=(5,), dtype=float32, numpy=array([0. , 0. , 0. , 0.5, 2. ], dtype=float32)>
>>> tf.keras.activations.hard_sigmoid(x).numpy().round(4)
array([0.1667, 0.4167, 0.5   , 0.5833, 0.8333], dtype=float32)

Numbers follow Keras 3 (TensorFlow 2.21). Where classic tf.keras differed:
`hard_sigmoid` is now relu6(x + 3) / 6 (it was clip(0.2 x + 0.5, 0, 1)),
`gelu`'s default is the exact erf form, and `relu` calls its slope
`negative_slope` (classic `alpha` is accepted too).
"""
import math
import types

import minitf as tf

from ..framework.tf_export import tf_export


def _x(x):
    return tf.convert_to_tensor(x)


@tf_export("keras.activations.relu")
def relu(x, negative_slope=0.0, max_value=None, threshold=0.0, alpha=None):
    """max(x, 0), with options: slope `negative_slope` below `threshold`, capped at `max_value`.

    >>> tf.keras.activations.relu(tf.constant([-10.0, 1.0, 10.0]), negative_slope=0.5,
    ...                           max_value=5.0).numpy()
    array([-5.,  1.,  5.], dtype=float32)
    """
    x = _x(x)
    negative_slope = negative_slope if alpha is None else alpha  # classic tf.keras: alpha
    if negative_slope != 0.0:
        if max_value is None and threshold == 0:
            return tf.nn.leaky_relu(x, alpha=negative_slope)
        negative_part = tf.nn.relu(-x + threshold) if threshold != 0 else tf.nn.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * tf.cast(tf.greater(x, tf.cast(threshold, x.dtype)), x.dtype)
    elif max_value == 6:
        x, clip_max = tf.nn.relu6(x), False
    else:
        x = tf.nn.relu(x)
    if clip_max:
        x = tf.clip_by_value(x, tf.cast(0.0, x.dtype), tf.cast(max_value, x.dtype))
    if negative_slope != 0.0:
        x = x - negative_slope * negative_part
    return x


@tf_export("keras.activations.leaky_relu")
def leaky_relu(x, negative_slope=0.2):
    """x for x > 0, else negative_slope * x."""
    return tf.nn.leaky_relu(_x(x), alpha=negative_slope)


@tf_export("keras.activations.relu6")
def relu6(x):
    """min(max(x, 0), 6)."""
    return tf.nn.relu6(_x(x))


@tf_export("keras.activations.elu")
def elu(x, alpha=1.0):
    """x for x > 0, else alpha * (exp(x) - 1)."""
    x = _x(x)
    return tf.where(x > 0, x, alpha * tf.math.expm1(tf.minimum(x, 0.0)))


@tf_export("keras.activations.selu")
def selu(x):
    """scale * elu(x, alpha) with the self-normalizing constants of Klambauer et al."""
    return tf.nn.selu(_x(x))


@tf_export("keras.activations.celu")
def celu(x, alpha=1.0):
    """max(x, 0) + min(0, alpha * (exp(x / alpha) - 1))."""
    x = _x(x)
    return tf.maximum(x, 0.0) + alpha * tf.math.expm1(tf.minimum(x, 0.0) / alpha)


@tf_export("keras.activations.softplus")
def softplus(x):
    """log(exp(x) + 1)."""
    return tf.math.softplus(_x(x))


@tf_export("keras.activations.softsign")
def softsign(x):
    """x / (|x| + 1)."""
    return tf.math.softsign(_x(x))


@tf_export("keras.activations.silu", "keras.activations.swish")
def silu(x):
    """x * sigmoid(x) (swish)."""
    x = _x(x)
    return x * tf.sigmoid(x)


swish = silu


@tf_export("keras.activations.gelu")
def gelu(x, approximate=False):
    """x * P(X <= x) for standard normal X: 0.5 x (1 + erf(x / sqrt 2));
    `approximate=True`: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    x = _x(x)
    if approximate:
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + tf.tanh(inner))
    return 0.5 * x * (1.0 + tf.math.erf(x / math.sqrt(2.0)))


@tf_export("keras.activations.tanh")
def tanh(x):
    """Hyperbolic tangent."""
    return tf.tanh(_x(x))


@tf_export("keras.activations.sigmoid")
def sigmoid(x):
    """1 / (1 + exp(-x))."""
    return tf.sigmoid(_x(x))


@tf_export("keras.activations.exponential")
def exponential(x):
    """exp(x)."""
    return tf.exp(_x(x))


@tf_export("keras.activations.hard_sigmoid")
def hard_sigmoid(x):
    """relu6(x + 3) / 6: 0 below -3, 1 above 3, linear between (Keras 3)."""
    return tf.nn.relu6(_x(x) + 3.0) / 6.0


@tf_export("keras.activations.hard_silu", "keras.activations.hard_swish")
def hard_silu(x):
    """x * hard_sigmoid(x)."""
    x = _x(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


@tf_export("keras.activations.hard_tanh")
def hard_tanh(x):
    """clip(x, -1, 1)."""
    return tf.clip_by_value(_x(x), -1.0, 1.0)


@tf_export("keras.activations.hard_shrink")
def hard_shrink(x, threshold=0.5):
    """x where |x| > threshold, else 0."""
    x = _x(x)
    return tf.where(tf.abs(x) > threshold, x, tf.zeros_like(x))


@tf_export("keras.activations.soft_shrink")
def soft_shrink(x, threshold=0.5):
    """x - threshold above threshold, x + threshold below -threshold, else 0."""
    x = _x(x)
    return tf.where(x > threshold, x - threshold,
                    tf.where(x < -threshold, x + threshold, tf.zeros_like(x)))


@tf_export("keras.activations.tanh_shrink")
def tanh_shrink(x):
    """x - tanh(x)."""
    x = _x(x)
    return x - tf.tanh(x)


@tf_export("keras.activations.threshold")
def threshold(x, threshold, default_value):
    """x where x > threshold, else default_value."""
    x = _x(x)
    return tf.where(x > threshold, x, tf.cast(default_value, x.dtype) * tf.ones_like(x))


@tf_export("keras.activations.log_sigmoid")
def log_sigmoid(x):
    """log(sigmoid(x)) = -softplus(-x)."""
    return tf.math.log_sigmoid(_x(x))


@tf_export("keras.activations.mish")
def mish(x):
    """x * tanh(softplus(x))."""
    x = _x(x)
    return x * tf.tanh(tf.math.softplus(x))


@tf_export("keras.activations.squareplus")
def squareplus(x, b=4):
    """(x + sqrt(x^2 + b)) / 2: a smooth relu."""
    x = _x(x)
    return (x + tf.sqrt(x * x + b)) / 2.0


@tf_export("keras.activations.sparse_plus")
def sparse_plus(x):
    """0 for x <= -1, (x + 1)^2 / 4 between, x for x >= 1."""
    x = _x(x)
    return tf.where(x <= -1.0, tf.zeros_like(x), tf.where(x < 1.0, (x + 1.0) ** 2 / 4.0, x))


@tf_export("keras.activations.sparse_sigmoid")
def sparse_sigmoid(x):
    """0 for x <= -1, (x + 1) / 2 between, 1 for x >= 1."""
    x = _x(x)
    return tf.where(x <= -1.0, tf.zeros_like(x),
                    tf.where(x >= 1.0, tf.ones_like(x), 0.5 * (x + 1.0)))


@tf_export("keras.activations.linear")
def linear(x):
    """The identity: x unchanged (what `activation=None` means)."""
    return x


@tf_export("keras.activations.softmax")
def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along `axis`: a probability distribution."""
    return tf.nn.softmax(_x(x), axis=axis)


@tf_export("keras.activations.log_softmax")
def log_softmax(x, axis=-1):
    """log(softmax(x)), computed stably."""
    return tf.nn.log_softmax(_x(x), axis=axis)


@tf_export("keras.activations.glu")
def glu(x, axis=-1):
    """Gated linear unit: split x in halves a, b along `axis`; a * sigmoid(b)."""
    a, b = tf.split(_x(x), 2, axis=axis)
    return a * tf.sigmoid(b)


@tf_export("keras.activations.sparsemax")
def sparsemax(x, axis=-1):
    """The Euclidean projection of x onto the probability simplex (Martins & Astudillo):
    like softmax, but exact zeros for small entries.

    >>> tf.keras.activations.sparsemax(tf.constant([[1.0, 2.0, 3.5]])).numpy()
    array([[0., 0., 1.]], dtype=float32)
    """
    x = _x(x)
    rank = len(x.shape)
    axis = axis % rank
    perm = [d for d in range(rank) if d != axis] + [axis]
    z = tf.transpose(x, perm) if axis != rank - 1 else x
    z_sorted = tf.sort(z, axis=-1, direction="DESCENDING")
    k = tf.cast(tf.range(1, tf.shape(z)[-1] + 1), z.dtype)
    z_cumsum = tf.cumsum(z_sorted, axis=-1)
    support = tf.cast(1.0 + k * z_sorted > z_cumsum, z.dtype)
    k_z = tf.reduce_sum(support, axis=-1, keepdims=True)
    tau = (tf.reduce_sum(support * z_sorted, axis=-1, keepdims=True) - 1.0) / k_z
    out = tf.maximum(z - tau, 0.0)
    return tf.transpose(out, _inverse(perm)) if axis != rank - 1 else out


def _inverse(perm):
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return inverse


_ACTIVATIONS = {f.__name__: f for f in (
    relu, leaky_relu, relu6, elu, selu, celu, softplus, softsign, silu, gelu, tanh, sigmoid,
    exponential, hard_sigmoid, hard_silu, hard_tanh, hard_shrink, soft_shrink, tanh_shrink,
    threshold, log_sigmoid, mish, squareplus, sparse_plus, sparse_sigmoid, linear, softmax,
    log_softmax, glu, sparsemax)}
_ACTIVATIONS.update(swish=silu, hard_swish=hard_silu)


@tf_export("keras.activations.serialize")
def serialize(activation):
    """A built-in activation as its name; anything else as Keras 3's config dict.

    >>> tf.keras.activations.serialize(tf.keras.activations.swish)
    'silu'
    >>> def double(x):
    ...     return 2 * x
    >>> tf.keras.activations.serialize(double)
    {'module': 'builtins', 'class_name': 'function', 'config': 'double', \
'registered_name': 'function'}

    (Those are Keras 3.15's exact values for a function of your own; a callable object
    gives its class and its `get_config()`.)
    """
    for name, fn in _ACTIVATIONS.items():
        if fn is activation:
            return "silu" if fn is silu else "hard_silu" if fn is hard_silu else name
    from .saving.object_registration import get_registered_name
    if isinstance(activation, types.FunctionType):
        if activation.__name__ == "<lambda>":
            raise ValueError(
                "Cannot serialize a `lambda` activation: Keras would store its bytecode, "
                "which minitf never loads (loading it would run code). Define it with "
                "`def` and give it to `custom_objects` (or register it with "
                "`@tf.keras.saving.register_keras_serializable()`).")
        return {"module": "builtins", "class_name": "function",
                "config": get_registered_name(activation), "registered_name": "function"}
    if not hasattr(activation, "get_config"):
        raise TypeError(f"Cannot serialize object {activation} of type {type(activation)}. "
                        "To be serializable, a class must implement the `get_config()` "
                        "method.")
    module = type(activation).__module__
    return {"module": None if module == "__main__" else module,
            "class_name": type(activation).__name__, "config": activation.get_config(),
            "registered_name": get_registered_name(type(activation))}


@tf_export("keras.activations.deserialize")
def deserialize(config, custom_objects=None):
    """The activation a name or a `serialize` dict describes: built-ins by name, your own
    functions and classes through `custom_objects`, a `custom_object_scope` or the
    registry (`register_keras_serializable`).

    >>> tf.keras.activations.deserialize("gelu").__name__
    'gelu'
    """
    from .saving.object_registration import get_registered_object
    if isinstance(config, dict) and config.get("class_name") not in (None, "function"):
        return _deserialize_object(config, custom_objects)
    name = config.get("config", config.get("class_name")) if isinstance(config, dict) \
        else config
    if isinstance(name, str) and name in _ACTIVATIONS:
        return _ACTIVATIONS[name]
    found = get_registered_object(name, custom_objects) if isinstance(name, str) else None
    if found is None:
        from .serialization import unknown_identifier_error
        known = dict(_ACTIVATIONS, **(custom_objects or {}))
        raise unknown_identifier_error("activation function", name, known)
    return found


def _deserialize_object(config, custom_objects):
    from .saving.object_registration import get_registered_object
    cls = get_registered_object(config.get("registered_name") or config["class_name"],
                                custom_objects) or \
        get_registered_object(config["class_name"], custom_objects)
    if cls is None:
        raise TypeError(
            f"Could not locate class '{config['class_name']}'. Make sure custom classes and "
            "functions are decorated with `@keras.saving.register_keras_serializable()`. If "
            "they are already decorated, make sure they are all imported so that the "
            f"decorator is run before trying to load them. Full object config: {config}")
    if not hasattr(cls, "from_config"):
        raise TypeError(
            f"Unable to reconstruct an instance of '{config['class_name']}' because the "
            f"class is missing a `from_config()` method. Full object config: {config}")
    return cls.from_config(config["config"])


@tf_export("keras.activations.get")
def get(identifier):
    """An activation from a name, a function, or None (meaning `linear`).

    >>> tf.keras.activations.get(None).__name__
    'linear'
    """
    if identifier is None:
        return linear
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


del tf_export  # an implementation import: TF's namespace does not show it
