"""`tf.keras.Variable`: a `tf.Variable` that knows which layer owns it.

Keras 3 names a layer's weights plainly ('kernel', 'bias') and keeps the
owner in `path` ('dense/kernel'). Everything else - reading, `assign`,
gradients, optimizers - is the `tf.Variable` underneath.

>>> import minitf as tf
>>> v = tf.keras.Variable(tf.keras.initializers.Ones(), shape=(2,), name="scale")
>>> v.name, v.path, v.trainable
('scale', 'scale', True)
>>> v
<Variable path=scale, shape=(2,), dtype=float32, value=[1. 1.]>

In classic tf.keras (TF 2.15 and before) the same weight was named
'dense/kernel:0'; `path` is the Keras 3 spelling of that information.

Mixed precision: while a layer whose compute dtype differs from its variable
dtype runs (policy 'mixed_float16'), `autocast_scope` is open and reading a
float variable gives its value cast to the compute dtype; the gradient flows
back through the cast to the float32 variable. (Keras 3 also reports
`variable.dtype` as the compute dtype inside the scope; minitf keeps the
stored dtype there, because graphs read it to type their variable nodes.)
"""
import contextlib

import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.tf_export import tf_export
from ..framework.variables import Variable as _TFVariable
from .engine.call_context import current_path
from .stateless_scope import _SCOPE as _STATELESS

_AUTOCAST = [None]  # the compute dtype variables are read in (a stack; None: as stored)


@contextlib.contextmanager
def autocast_scope(dtype):
    """Read float variables as `dtype` inside (None: as stored). Keras: `AutocastScope`."""
    if dtype is not None and not dtypes.as_dtype(dtype).is_floating:
        raise ValueError("`AutocastScope` can only be used with a floating-point target "
                         f"dtype, such as 'float16'. Received: dtype={dtype}")
    _AUTOCAST.append(dtype)
    try:
        yield
    finally:
        _AUTOCAST.pop()


def autocast_dtype():
    """The dtype of the open autocast scope, or None."""
    return _AUTOCAST[-1]


@tf_export("keras.Variable")
class Variable(_TFVariable):
    """A weight: `initializer` (callable `(shape, dtype)` or a value), `shape`, `dtype`."""

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, autocast=True,
                 aggregation="none", synchronization="auto", name=None, constraint=None,
                 path=None):
        name = name or "variable"
        if callable(initializer):
            if shape is None:
                raise ValueError("When creating a Variable from an initializer, the `shape` "
                                 f"argument should be specified. Received: "
                                 f"initializer={initializer} and shape={shape}")
            dtype = dtypes.as_dtype(dtype or "float32")
            shape = tuple(shape)
            value = initializer(shape, dtype=dtype)
        else:
            value = initializer
            if _STATELESS[0] is not None:
                raise ValueError(
                    "You are attempting to create a variable while in a stateless scope. This "
                    "is disallowed. Make sure that all variables are created before you start "
                    "using your layer/model objects.\n\nIn some cases, you might be seeing this "
                    "error because you need to implement a `def build(self, input_shape)` "
                    "method on your layer/model, which will create its variables.\n\nIn some "
                    "other cases, you might be seeing this error because you are instantiating "
                    "a `Variable` and assigning it to a layer without going through "
                    "self.add_variable()/self.add_weight(). Always prefer using these methods "
                    "(with a `shape` and `initializer` argument).")
        super().__init__(value, trainable=bool(trainable), name=name, dtype=dtype,
                         constraint=constraint)
        self._keras_name = name
        if path is None:  # Keras 3: under the open `keras.name_scope`s
            parent = current_path()
            path = f"{parent}/{name}" if parent else name
        self._path = path
        self._autocast = autocast

    def _read(self):
        scope = _STATELESS[0]
        read = scope.get_current_value(self) if scope is not None else None
        if read is None:
            read = super()._read()
        target = _AUTOCAST[-1]
        if target is not None and self._autocast and self._dtype.is_floating and \
                self._dtype.name != target:
            from ..ops.math_ops import cast
            return cast(read, target)
        return read

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """In a `keras.StatelessScope` the new value is kept by the scope, not stored."""
        scope = _STATELESS[0]
        if scope is None:
            return super().assign(value, use_locking, name, read_value)
        value = self._checked(value, "assign")
        scope.add_update((self, value))
        return value

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        if _STATELESS[0] is None:
            return super().assign_add(delta, use_locking, name, read_value)
        return self.assign(self._read() + self._checked(delta, "assign_add"))

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        if _STATELESS[0] is None:
            return super().assign_sub(delta, use_locking, name, read_value)
        return self.assign(self._read() - self._checked(delta, "assign_sub"))

    def _stateless_value(self):
        scope = _STATELESS[0]
        return None if scope is None else scope.get_current_value(self)

    def numpy(self):
        value = self._stateless_value()
        return super().numpy() if value is None else value.numpy()

    def __array__(self, dtype=None, copy=None):
        value = self._stateless_value()
        if value is None:
            return super().__array__(dtype, copy)
        return np.asarray(value.numpy(), dtype=dtype)

    def __float__(self):
        return float(self.numpy())

    def __int__(self):
        return int(self.numpy())

    def _checked(self, value, method):
        """Keras casts a float value of another float dtype to the variable's dtype."""
        if isinstance(value, Tensor) and self._dtype.is_floating and \
                value.dtype.is_floating and value.dtype != self._dtype:
            from ..ops.math_ops import cast
            value = cast(value, self._dtype)
        return super()._checked(value, method)

    @property
    def name(self):
        """The weight's own name ('kernel'); see `path` for the owner."""
        return self._keras_name

    @property
    def path(self):
        """'layer_name/weight_name' (Keras 3)."""
        return self._path

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)

    def __repr__(self):
        value = np.array2string(self._value) if self._value.ndim else str(self._value[()])
        return (f"<Variable path={self._path}, shape={tuple(self._value.shape)}, "
                f"dtype={self._dtype.name}, value={value}>")
