"""Which layer call we are in, and the `training` flag it passes down.

When a model is called with `training=True`, every layer inside it must
see `training=True` too, even though the model's own code calls
`self.dropout(x)` without it. Keras keeps a stack of the layer calls in
progress; a layer whose caller passed no flag takes it from the stack:

1. the `training` argument passed to this call, if not None;
2. else the flag of the enclosing layer call;
3. else the default in this layer's `call` signature (Dropout: False).

>>> import minitf as tf
>>> inner = tf.keras.layers.Dropout(0.5)
>>> class Outer(tf.keras.layers.Layer):
...     def call(self, x):
...         return inner(x)                    # no training= here...
>>> tf.random.set_seed(0)
>>> float(tf.reduce_min(Outer()(tf.ones([1, 100]), training=True)))  # ...yet dropout ran
0.0
"""
import inspect

_stack = []  # one CallContext per layer call in progress, innermost last


class CallContext:
    def __init__(self, layer, training):
        self.layer = layer
        self.training = training


def current():
    return _stack[-1] if _stack else None


def is_entry_call():
    """True when no other layer call is in progress (the outermost call clears losses)."""
    return not _stack


class enter:  # noqa: N801 - used as `with call_context.enter(layer, training):`
    def __init__(self, layer, training):
        self.context = CallContext(layer, training)

    def __enter__(self):
        _stack.append(self.context)
        return self.context

    def __exit__(self, *exc):
        _stack.pop()
        return False


_SIGNATURES = {}  # call function -> (names `training`?, takes **kwargs?, default)


def training_argument(call):
    """(does `call` name a `training` parameter, does it take **kwargs, the default)."""
    function = getattr(call, "__func__", call)
    found = _SIGNATURES.get(function)
    if found is None:
        try:
            parameters = inspect.signature(call).parameters
        except (TypeError, ValueError):
            parameters = {}
        parameter = parameters.get("training")
        var_keyword = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
        default = None if parameter is None or parameter.default is parameter.empty \
            else parameter.default
        found = _SIGNATURES[function] = (parameter is not None, var_keyword, default)
    return found


def resolve_training(call, kwargs):
    """The training flag for a layer call (rules above); sets kwargs['training'] if the
    layer's `call` takes it. Returns the flag to pass further down."""
    named, var_keyword, default = training_argument(call)
    training = kwargs.get("training")
    if training is None and _stack:
        training = _stack[-1].training
    if training is None:
        training = default
    if named and training is not None:
        kwargs["training"] = training
    elif not named and not var_keyword:
        kwargs.pop("training", None)  # a layer without the flag still passes it down
    return training


_path = []  # names of the layers being built or called, outermost first


class name_scope:  # noqa: N801
    """Weights created inside get the path 'outer/inner/kernel' (Keras 3's `path`)."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        _path.append(self.name)

    def __exit__(self, *exc):
        _path.pop()
        return False


def weight_path(layer_name, weight_name):
    if _path and _path[-1] == layer_name:
        return "/".join(_path + [weight_name])
    return f"{layer_name}/{weight_name}"
