"""`keras.StatelessScope`: run code on given variable values, collect the updates.

Inside the scope a `keras.Variable` listed in `state_mapping` reads as the
value given there, and `assign` (also `assign_add`, `assign_sub`) changes
nothing: the new value is kept in the scope, for `get_current_value` to hand
back. This is how Keras 3 runs a model as a pure function (JAX needs it;
`Layer.stateless_call` is built on it):

>>> import minitf as tf
>>> v = tf.keras.Variable(1.0, name="v")
>>> with tf.keras.StatelessScope([(v, 5.0)]) as scope:
...     doubled = v * 2.0                   # reads 5.0, not 1.0
...     _ = v.assign(doubled)
>>> float(doubled), float(scope.get_current_value(v)), float(v)  # v itself unchanged
(10.0, 10.0, 1.0)

Only `keras.Variable` looks at the scope (a plain `tf.Variable` reads and
assigns as usual). Keras's backends also open a StatelessScope while they
infer output shapes, together with a `keras.SymbolicScope`.

Where minitf differs: a `keras.Variable` made inside the scope from an
initializer gets its value at once (Keras defers it to the scope's exit;
the values are the same). Keras (keras/src/backend/common/stateless_scope.py).
"""
from ..framework.tf_export import tf_export

_SCOPE = [None]  # the innermost open StatelessScope (a one-item list: cheap to read)


@tf_export("keras.StatelessScope")
class StatelessScope:
    """Prevent updates to `keras.Variable`s; read them from `state_mapping`.

    `state_mapping`: pairs `(variable, value)`; `collect_losses`: keep the
    losses added inside in `scope.losses`; `initialize_variables`: kept for
    Keras's signature (minitf initializes variables when they are made).
    """

    def __init__(self, state_mapping=None, collect_losses=False, initialize_variables=True):
        from ..framework.tensor import convert_to_tensor
        from ..ops.math_ops import cast
        from .variables import Variable
        self.collect_losses = collect_losses
        self.initialize_variables = initialize_variables
        self.losses = []
        self.state_mapping = {}
        for k, v in state_mapping or {}:
            if not isinstance(k, Variable):
                raise ValueError("Invalid reference variable in StatelessScope: all keys in "
                                 "argument `mapping` must be Variable instances. Received "
                                 f"instead: {k}")
            if isinstance(v, Variable):
                v = cast(v.read_value(), k.dtype)
            else:
                v = convert_to_tensor(v, dtype=k.dtype)
            if tuple(k.shape) != tuple(v.shape):
                raise ValueError("Invalid variable value in StatelessScope: all values in "
                                 "argument `mapping` must be tensors with a shape that matches "
                                 f"the corresponding variable shape. For variable {k}, received "
                                 f"invalid value {v} with shape {tuple(v.shape)}.")
            self.state_mapping[id(k)] = v

    def __enter__(self):
        self.original_scope = _SCOPE[0]
        _SCOPE[0] = self
        return self

    def add_loss(self, loss):
        self.losses.append(loss)

    def add_update(self, update):
        """Record `(variable, value)`: the variable's value for the rest of the scope."""
        variable, value = update
        self.state_mapping[id(variable)] = value

    def get_current_value(self, variable):
        """The value `variable` has in this scope (given or assigned), or None."""
        return self.state_mapping.get(id(variable), None)

    def __exit__(self, *exc):
        _SCOPE[0] = self.original_scope
        return False


def in_stateless_scope():
    return _SCOPE[0] is not None


def get_stateless_scope():
    return _SCOPE[0]


def stateless_call(layer, trainable_variables, non_trainable_variables, *args,
                   return_losses=False, **kwargs):
    """`Layer.stateless_call`: `layer.call(*args, **kwargs)` with the given variable values;
    returns `(outputs, non_trainable_variables)` - the new values of the non-trainable
    variables (a BatchNormalization's moving statistics) - plus the losses if asked.
    The layer's own variables are not changed."""
    name = type(layer).__name__
    if not layer.built:
        raise ValueError(f"To call stateless_call, {name} must be built (i.e. its variables "
                         "must have been already created). You can build it by calling it on "
                         "some data.")
    for what, given, own in (("trainable_variables", trainable_variables,
                              layer.trainable_variables),
                             ("non_trainable_variables", non_trainable_variables,
                              layer.non_trainable_variables)):
        if len(given) != len(own):
            raise ValueError(f"Argument `{what}` must be a list of tensors corresponding 1:1 "
                             f"to {name}().{what}. Received list with length {len(given)}, "
                             f"but expected {len(own)} variables.")
    mapping = list(zip(layer.trainable_variables, trainable_variables)) + \
        list(zip(layer.non_trainable_variables, non_trainable_variables))
    with StatelessScope(state_mapping=mapping, collect_losses=return_losses) as scope:
        call = layer.call
        if getattr(layer, "_remat_mode", None) is not None:
            from .scopes import rematerialized_call
            call = rematerialized_call(layer, call, args, kwargs)
        outputs = call(*args, **kwargs)
        losses = list(layer.losses) if return_losses else None
    new_values = [scope.get_current_value(v) for v in layer.non_trainable_variables]
    if return_losses:
        return outputs, new_values, losses
    return outputs, new_values
