"""How `tf.add`, `tf.reduce_sum`, `tf.concat`, ... come to accept RaggedTensors.

TensorFlow's ops are written for dense tensors; `tensorflow/python/util/
dispatch.py` lets another type register its own version of an op. minitf does
the same in one place: when `minitf.ragged` is imported, each public op on
TF's list of ops that support RaggedTensor (`ragged_dispatch.ragged_op_list()`)
is replaced - in its `tf.*` namespaces and in the registry - by a small
wrapper. A call with no RaggedTensor argument goes straight to the original
op; a call with one goes to the ragged version:

>>> import minitf as tf
>>> rt = tf.ragged.constant([[1.0, 4.0], [9.0]])
>>> tf.sqrt(rt)
<tf.RaggedTensor [[1.0, 2.0], [3.0]]>
>>> tf.math.sqrt.__wrapped__.__module__     # the dense op the wrapper falls back to
'minitf.ops.unary_ops'

Element-wise ops run on `flat_values` (ragged_math.py), so gradients reach
the values through the usual tape. Python operators (`rt + 1`, `rt > 2`,
`-rt`) are set on the class here too.
"""
import functools
import inspect

import numpy as np

from ..framework import api_namespace, dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import REGISTRY
from . import ragged_array_ops, ragged_math
from .ragged_conversion_ops import _value_positions
from .ragged_tensor import RaggedTensor, is_ragged

_UNARY = """
math.abs math.acos math.acosh math.angle math.asin math.asinh math.atan math.atanh
math.bessel_i0 math.bessel_i0e math.bessel_i1 math.bessel_i1e math.ceil math.conj math.cos
math.cosh math.digamma math.erf math.erfc math.erfcinv math.erfinv math.exp math.expm1
math.floor math.imag math.is_finite math.is_inf math.is_nan math.lgamma math.log math.log1p
math.log_sigmoid math.logical_not math.ndtri math.negative math.real math.reciprocal
math.reciprocal_no_nan math.rint math.round math.rsqrt math.sigmoid math.sign math.sin
math.sinh math.softplus math.sqrt math.square math.tan math.tanh
nn.elu nn.gelu nn.leaky_relu nn.relu nn.relu6 nn.selu nn.silu nn.softsign nn.dropout
cast dtypes.saturate_cast bitcast clip_by_value zeros_like ones_like identity
bitwise.invert debugging.check_numerics
strings.as_string strings.length strings.lower strings.upper strings.strip
strings.regex_full_match strings.regex_replace strings.substr strings.to_hash_bucket
strings.to_hash_bucket_fast strings.to_hash_bucket_strong strings.to_number
strings.unicode_script
""".split()

_BINARY = """
math.add math.atan2 math.divide math.divide_no_nan math.equal math.floordiv math.floormod
math.greater math.greater_equal math.less math.less_equal math.logical_and math.logical_or
math.logical_xor math.maximum math.minimum math.multiply math.multiply_no_nan math.nextafter
math.not_equal math.pow math.squared_difference math.subtract math.truediv math.xdivy
math.xlog1py math.xlogy math.zeta realdiv truncatediv truncatemod
bitwise.bitwise_and bitwise.bitwise_or bitwise.bitwise_xor bitwise.left_shift
bitwise.right_shift
""".split()

_REDUCTIONS = {"math.reduce_sum": "sum", "math.reduce_prod": "prod", "math.reduce_max": "max",
               "math.reduce_min": "min", "math.reduce_all": "all", "math.reduce_any": "any"}


# --- the ragged versions --------------------------------------------------------------------
def _unary_version(original):
    def ragged(x, *args, **kwargs):
        return ragged_math.unary(original, x, *args, **kwargs)
    return ragged


def _binary_version(original):
    def ragged(x, y, *args, **kwargs):
        return ragged_math.elementwise(lambda a, b: original(a, b, *args, **kwargs), x, y)
    return ragged


def _reduction_version(kind):
    def ragged(input_tensor, axis=None, keepdims=False, name=None):
        return ragged_math.reduce(kind, input_tensor, axis, bool(keepdims))
    return ragged


def _mean_like(fn):
    def ragged(input_tensor, axis=None, keepdims=False, name=None):
        return fn(input_tensor, axis, bool(keepdims))
    return ragged


def _concat(values, axis, name="concat"):
    return ragged_array_ops.ragged_concat(values, axis)


def _stack(values, axis=0, name="stack"):
    return ragged_array_ops.stack(values, axis)


def _gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    return ragged_array_ops.ragged_gather(params, indices, axis)


def _expand_dims(input, axis, name=None):  # noqa: A002 - TF's argument name
    return ragged_math.expand_dims(input, axis)


def _size(input, out_type=None, name=None):  # noqa: A002
    return ragged_math.size(input, out_type or dtypes.int32)


def _rank(input, name=None):  # noqa: A002
    return convert_to_tensor(np.int32(input.shape.rank))


def _add_n(inputs, name=None):
    total = inputs[0]
    for other in inputs[1:]:
        total = ragged_math.elementwise(_ORIGINAL["math.add"], total, other)
    return total


def _where(condition, x=None, y=None, name=None):
    where = _ORIGINAL["where"]
    if x is None and y is None:
        keep = condition.flat_values.numpy().reshape(len(_value_positions(condition)), -1)
        positions = _value_positions(condition)
        return convert_to_tensor(positions[keep[:, 0]].astype(np.int64))
    ragged = [v for v in (condition, x, y) if is_ragged(v)]
    for other in ragged[1:]:
        ragged_math._same_rows(ragged[0], other)
    flat = [v.flat_values if is_ragged(v) else v for v in (condition, x, y)]
    return ragged[0].with_flat_values(where(*flat))


def _shape(input, out_type=None, name=None):  # noqa: A002
    from .dynamic_ragged_shape import ragged_shape
    return ragged_shape(input, out_type)


_STRUCTURAL = {"shape": (_shape, 1), "concat": (_concat, "list"), "stack": (_stack, "list"),
               "math.add_n": (_add_n, "list"), "gather": (_gather, 2),
               "expand_dims": (_expand_dims, 1), "size": (_size, 1), "rank": (_rank, 1),
               "where": (_where, 3)}


# --- the wrapper ----------------------------------------------------------------------------
def _dispatcher(original, ragged_version, checked):
    """`original`, unless one of its first `checked` arguments (or the list that is its first
    argument, for checked="list") holds a RaggedTensor."""
    params = list(inspect.signature(original).parameters)
    if checked == "list":
        @functools.wraps(original)
        def api(*args, **kwargs):
            values = args[0] if args else kwargs.get(params[0], ())
            if isinstance(values, (list, tuple)) and any(
                    type(v) is RaggedTensor for v in values):
                return ragged_version(*args, **kwargs)
            return original(*args, **kwargs)
    else:
        names = params[:checked]

        @functools.wraps(original)
        def api(*args, **kwargs):  # the dense path: a type test per checked argument
            for value in args[:checked]:
                if type(value) is RaggedTensor:
                    return ragged_version(*args, **kwargs)
            if kwargs and any(type(kwargs.get(n)) is RaggedTensor for n in names):
                return ragged_version(*args, **kwargs)
            return original(*args, **kwargs)

    api.ragged_version = ragged_version  # for a curious reader: what a ragged call runs
    return api


def _versions():
    versions = {}
    for name in _UNARY:
        if name in _ORIGINAL:
            versions[name] = (_unary_version(_ORIGINAL[name]), 1)
    for name in _BINARY:
        if name in _ORIGINAL:
            versions[name] = (_binary_version(_ORIGINAL[name]), 2)
    for name, kind in _REDUCTIONS.items():
        versions[name] = (_reduction_version(kind), 1)
    versions["math.reduce_mean"] = (_mean_like(ragged_math.reduce_mean), 1)
    versions["math.reduce_variance"] = (_mean_like(ragged_math.reduce_variance), 1)
    versions["math.reduce_std"] = (_mean_like(ragged_math.reduce_std), 1)
    versions.update(_STRUCTURAL)
    return {name: v for name, v in versions.items() if name in _ORIGINAL}


def install():
    """Put a dispatching wrapper in place of every op that supports RaggedTensor."""
    wrappers = {}
    for name, (ragged_version, checked) in _versions().items():
        original = _ORIGINAL[name]
        wrappers[id(original)] = _dispatcher(original, ragged_version, checked)
    for i, (dotted, obj) in enumerate(REGISTRY):
        wrapper = wrappers.get(id(obj))
        if wrapper is None:
            continue
        path, _, attr = dotted.rpartition(".")
        module = api_namespace.namespace(path)
        if module is not None and getattr(module, attr, None) is obj:
            REGISTRY[i] = (dotted, wrapper)
            setattr(module, attr, wrapper)


# --- Python operators -----------------------------------------------------------------------
def _operator(name, reverse=False):
    op = _ORIGINAL[name]

    def method(self, other):
        x, y = (other, self) if reverse else (self, other)
        return ragged_math.elementwise(op, x, y)
    return method


def _equality(name, result_if_not_comparable):
    op = _ORIGINAL[name]

    def method(self, other):
        if other is None:
            return result_if_not_comparable
        return ragged_math.elementwise(op, self, other)
    return method


def _install_operators():
    binary = {"add": "math.add", "sub": "math.subtract", "mul": "math.multiply",
              "truediv": "math.truediv", "floordiv": "math.floordiv", "mod": "math.floormod",
              "pow": "math.pow", "and": "math.logical_and", "or": "math.logical_or",
              "xor": "math.logical_xor"}
    for short, name in binary.items():
        setattr(RaggedTensor, f"__{short}__", _operator(name))
        setattr(RaggedTensor, f"__r{short}__", _operator(name, reverse=True))
    for short, name in {"lt": "math.less", "le": "math.less_equal", "gt": "math.greater",
                        "ge": "math.greater_equal"}.items():
        setattr(RaggedTensor, f"__{short}__", _operator(name))
    RaggedTensor.__eq__ = _equality("math.equal", False)
    RaggedTensor.__ne__ = _equality("math.not_equal", True)
    RaggedTensor.__hash__ = _unhashable
    for short, name in {"neg": "math.negative", "abs": "math.abs",
                        "invert": "math.logical_not"}.items():
        setattr(RaggedTensor, f"__{short}__", _unary_method(_ORIGINAL[name]))


def _defer_to_ragged(method):
    """A Tensor's `t - rt` hands over to `rt.__rsub__` (Python does, on NotImplemented)."""
    @functools.wraps(method)
    def operator(self, other):
        if type(other) is RaggedTensor:
            return NotImplemented
        return method(self, other)
    return operator


def _install_tensor_operators():
    from ..framework.tensor import Tensor
    from ..framework.variables import Variable
    for cls in (Tensor, Variable):
        for short in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or",
                      "xor", "lt", "le", "gt", "ge", "eq", "ne"):
            name = f"__{short}__"
            setattr(cls, name, _defer_to_ragged(getattr(cls, name)))


def _unhashable(self):
    raise TypeError("RaggedTensor is unhashable. (== compares values element-wise, so a "
                    "RaggedTensor cannot be a dict key or set member.)")


def _unary_method(op):
    def method(self):
        return ragged_math.unary(op, self)
    return method


_ORIGINAL = dict(REGISTRY)  # before install(): the dense ops, by public name
install()
_install_operators()
_install_tensor_operators()
