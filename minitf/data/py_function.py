"""`tf.py_function` and `tf.numpy_function`: call plain Python from a traced function.

A traced graph cannot contain arbitrary Python, so these wrap a Python
function as one (stateful) op. When the graph runs, the op calls your
function: with eager tensors (`py_function`) or NumPy arrays
(`numpy_function`). The output shape is unknown to the graph:

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(3).map(lambda x: tf.py_function(lambda v: v * 3, [x], tf.int64))
>>> ds.element_spec
TensorSpec(shape=<unknown>, dtype=tf.int64, name=None)
>>> list(ds.as_numpy_iterator())
[np.int64(0), np.int64(3), np.int64(6)]

They are how a pipeline calls slow Python code (reading an unusual file
format, `time.sleep` in a benchmark). In minitf gradients do not flow through
them (TensorFlow's `py_function` does support them).
"""
import functools

import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import EagerTensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


def _forward(*arrays, func, Tout, eager):
    args = [EagerTensor(np.asarray(a)) for a in arrays] if eager else list(arrays)
    result = func(*args)
    single = not isinstance(Tout, (list, tuple))
    results = [result] if single else list(result or [])
    outs = tuple(np.asarray(convert_to_tensor(r, dtype=d)._value)
                 for r, d in zip(results, [Tout] if single else Tout))
    return outs[0] if single else outs


def _shape(*shapes, func, Tout, eager):
    if not isinstance(Tout, (list, tuple)):
        return TensorShape(None)
    return tuple(TensorShape(None) for _ in Tout)


def _dtype(*input_dtypes, func, Tout, eager):
    return Tout if not isinstance(Tout, (list, tuple)) else tuple(Tout)


EagerPyFunc = Op("EagerPyFunc", _forward, typed=(), shape=_shape, dtype=_dtype,
                 num_outputs=None, stateful=True)
EagerPyFuncSingle = Op("EagerPyFunc", _forward, typed=(), shape=_shape, dtype=_dtype,
                       stateful=True)


def _call(func, inp, Tout, eager):
    inputs = [convert_to_tensor(x) for x in inp]
    single = not isinstance(Tout, (list, tuple))
    tout = dtypes.as_dtype(Tout) if single else [dtypes.as_dtype(d) for d in Tout]
    op = EagerPyFuncSingle if single else EagerPyFunc
    return apply(op, inputs, {"func": func, "Tout": tout, "eager": eager})


@tf_export("py_function")
def py_function(func=None, inp=None, Tout=None, name=None):
    """Run `func(*eager_tensors)` as an op; `Tout` a dtype or a list of dtypes.

    >>> tf.py_function(lambda a, b: a + b, [tf.constant(1), tf.constant(2)], tf.int32)
    <tf.Tensor: shape=(), dtype=int32, numpy=3>

    Without `func` it is a decorator (set `Tout` by name):

    >>> @tf.py_function(Tout=tf.float32)
    ... def double(x):
    ...     return x * 2
    >>> double(tf.constant(3.0))
    <tf.Tensor: shape=(), dtype=float32, numpy=6.0>
    """
    decorator = _decorator_or_check(_call, "tf.py_function", func, inp, Tout, eager=True)
    return decorator or _call(func, inp, Tout, eager=True)


@tf_export("numpy_function")
def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Like `py_function`, but `func` receives and returns NumPy arrays.

    >>> tf.numpy_function(lambda a: a * 2, [tf.constant([1.0])], tf.float32)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([2.], dtype=float32)>
    """
    decorator = _decorator_or_check(_call, "tf.numpy_function", func, inp, Tout, eager=False)
    return decorator or _call(func, inp, Tout, eager=False)


def _decorator_or_check(call, op_name, func, inp, Tout, eager):
    """With `func=None`, a decorator (`@tf.py_function(Tout=tf.float32)`): the decorated
    function runs as the op on its positional arguments. TF's checks and texts."""
    if Tout is None:
        raise TypeError(
            "Missing required argument: 'Tout'\n"
            f"  If using {op_name} as a decorator, set `Tout`\n"
            "  **by name** above the function:\n"
            f"  `@{op_name}(Tout=tout)`")
    if func is None:
        if inp is not None:
            raise TypeError(f"Don't set the `inp` argument when using {op_name} as a "
                            "decorator (`func=None`).")

        def decorator(fun):
            @functools.wraps(fun)
            def wrapper(*args):
                return call(fun, args, Tout, eager)
            return wrapper
        return decorator
    if inp is None:
        raise TypeError(
            "Missing argument `inp`:\n"
            "  You must set the `inp` argument (the list of arguments to the\n"
            f"  function), unless you use `{op_name}` as a decorator"
            "(`func=None`).")
    return None
