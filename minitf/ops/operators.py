"""Python operators on `tf.Tensor` and `tf.Variable`, installed here.

TensorFlow attaches `__add__` and friends to its Tensor class from
`math_ops.py`; minitf does the same, so `tensor.py` stays free of math and
`a + b` is exactly `tf.add(a, b)`. On bool tensors `& | ^ ~` are logical,
on integer tensors bitwise. `==` compares element-wise (TF2's default).

>>> import minitf as tf
>>> x = tf.constant([1.0, 2.0])
>>> (x + 1, x == 2.0)
(<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>, <tf.Tensor: shape=(2,), dtype=bool, numpy=array([False,  True])>)
"""
from ..framework import dtypes, errors
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from . import linalg_ops, math_ops
from .shape_rules import broadcast
from .slicing_ops import getitem


def _reverse(func):
    """`2 - t` calls `t.__rsub__(2)`: swap back and call `subtract(2, t)`."""

    def reflected(y, x):
        return func(x, y)

    return reflected


def _logical_or_bitwise(logical, bitwise):
    def operator(x, y):
        x, y = math_ops.binary_args(x, y)
        return logical(x, y) if x.dtype is dtypes.bool else bitwise(x, y)

    return operator


def _invert(x):
    x = convert_to_tensor(x)  # reads a Variable
    return math_ops.logical_not(x) if x.dtype is dtypes.bool else math_ops.invert(x)


def _comparable(x, y):
    """`==` on shapes that cannot broadcast is simply False in TF (tf.equal raises)."""
    x, y = math_ops.binary_args(x, y)
    try:
        broadcast("Equal")(x.shape, y.shape)
    except errors.InvalidArgumentError:
        return x, y, False
    return x, y, True


def _eq(x, y):
    if y is None:
        return False
    x, y, comparable = _comparable(x, y)
    return math_ops.equal(x, y) if comparable else convert_to_tensor(False)


def _ne(x, y):
    if y is None:
        return True
    x, y, comparable = _comparable(x, y)
    return math_ops.not_equal(x, y) if comparable else convert_to_tensor(True)


_and = _logical_or_bitwise(math_ops.logical_and, math_ops.bitwise_and)
_or = _logical_or_bitwise(math_ops.logical_or, math_ops.bitwise_or)
_xor = _logical_or_bitwise(math_ops.logical_xor, math_ops.bitwise_xor)

OPERATORS = {
    "__add__": math_ops.add, "__radd__": _reverse(math_ops.add),
    "__sub__": math_ops.subtract, "__rsub__": _reverse(math_ops.subtract),
    "__mul__": math_ops.multiply, "__rmul__": _reverse(math_ops.multiply),
    "__truediv__": math_ops.truediv, "__rtruediv__": _reverse(math_ops.truediv),
    "__floordiv__": math_ops.floordiv, "__rfloordiv__": _reverse(math_ops.floordiv),
    "__mod__": math_ops.floormod, "__rmod__": _reverse(math_ops.floormod),
    "__pow__": math_ops.pow, "__rpow__": _reverse(math_ops.pow),
    "__matmul__": linalg_ops.matmul, "__rmatmul__": _reverse(linalg_ops.matmul),
    "__and__": _and, "__rand__": _reverse(_and),
    "__or__": _or, "__ror__": _reverse(_or),
    "__xor__": _xor, "__rxor__": _reverse(_xor),
    "__lt__": math_ops.less, "__le__": math_ops.less_equal,
    "__gt__": math_ops.greater, "__ge__": math_ops.greater_equal,
    "__eq__": _eq, "__ne__": _ne,
    "__neg__": math_ops.negative, "__abs__": math_ops.abs, "__invert__": _invert,
    "__getitem__": getitem,
}


def install(cls):
    for name, func in OPERATORS.items():
        setattr(cls, name, func)
    cls.__hash__ = Tensor.__hash__ if cls is Tensor else Variable.__hash__


install(Tensor)
install(Variable)
