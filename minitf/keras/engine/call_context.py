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


_path = []  # the open name scopes (`name_scope` objects), outermost first


class name_scope:  # noqa: N801
    """A sub-namespace for variable paths: weights created inside get 'outer/inner/kernel'.

    Keras 3's `name_scope(name, caller=None, deduplicate=True, override_parent=None)`
    (keras/src/backend/common/name_scope.py). Every layer's build and call open
    one with the layer's name, and `keras.name_scope` (minitf/keras/scopes.py) is
    this class plus a `tf.name_scope`. `override_parent` is an absolute path that
    replaces the scopes opened around it; with `deduplicate`, a scope of the same
    name and the same `caller` as the innermost one is not opened twice.
    """

    def __init__(self, name, caller=None, deduplicate=True, override_parent=None):
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character "
                             f"`/`. Received: name={name}")
        self.name = name
        self.caller = caller
        self.deduplicate = deduplicate
        self.override_parent = override_parent
        if override_parent is None and deduplicate and \
                getattr(caller, "_parent_path", None) is not None:
            self.override_parent = caller._parent_path
        self._pop_on_exit = False

    def __enter__(self):
        if self.deduplicate and _path and self.caller is not None and \
                self.caller is _path[-1].caller and self.name == _path[-1].name:
            return self
        _path.append(self)
        self._pop_on_exit = True
        return self

    def __exit__(self, *exc):
        if self._pop_on_exit:
            _path.pop()
            self._pop_on_exit = False
        return False


def current_path():
    """The path of the open name scopes, 'outer/inner' ('' when none is open)."""
    parts = []
    for entry in _path:
        if entry.override_parent is not None:
            parts = [p for p in entry.override_parent.split("/") if p]
        parts.append(entry.name)
    return "/".join(parts)


def innermost_scope_name():
    """The name of the innermost open name scope, or None."""
    return _path[-1].name if _path else None


def weight_path(layer_name, weight_name):
    """A layer's weight: 'open/scopes/layer/weight'. The layer's own scope is added when
    it is not the innermost already (`build` called by hand, a weight made in `__init__`)."""
    parent = current_path()
    if _path and _path[-1].name == layer_name:
        return f"{parent}/{weight_name}"
    return f"{parent}/{layer_name}/{weight_name}" if parent else f"{layer_name}/{weight_name}"
