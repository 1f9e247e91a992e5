"""The check_ops: `tf.debugging.assert_equal`, `assert_positive`, `assert_near`, `assert_type`, ...

Each compares tensors element-wise (broadcasting `x` against `y`) and ends in
`tf.debugging.Assert`, so it behaves like TensorFlow's `check_ops.py`:

* eagerly it raises `InvalidArgumentError` at once, or returns None;
* inside `tf.function` it adds a stateful Assert node that fails when the
  graph runs - unless both sides are constants, when the failure is certain
  and raises while tracing;
* type checks (`assert_type`, `assert_integer`) need no values at all, so
  they always raise `TypeError` at once.

>>> tf.debugging.assert_equal(tf.constant([1, 2]), 2 - tf.constant([1, 0]))
>>> try:
...     tf.debugging.assert_less(tf.constant([1, 5]), tf.constant([3, 3]))
... except tf.errors.InvalidArgumentError as e:
...     print(e)
Condition x < y did not hold.
Indices of first 1 different values:
[[1]]
Corresponding x values:
[5]
Corresponding y values:
[3]
First 2 elements of x:
[1 5]
First 2 elements of y:
[3 3]
"""
import numpy as np

from ..framework import context, dtypes, errors
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import reshape
from .assert_ops import Assert
from .math_ops import abs as absolute
from .math_ops import equal, greater, greater_equal, less, less_equal, not_equal
from .reduction_ops import reduce_all
from .shape_ops import constant_value


# --- what every check shares --------------------------------------------------------------
def message_prefix(message):
    """TF puts a user's message in front as "message.  "."""
    return f"{message}.  " if message else ""


def shape_and_dtype(tensor):
    return f"shape={tensor.shape} dtype={tensor.dtype.name}"


def traced(tensor):
    """Inside tf.function, `tensor` as a tensor of the graph being traced (a constant becomes
    its Const node, which has a name like "Const:0", as in TF); eagerly `tensor` itself."""
    return context.graph_stack[-1].symbolic(tensor) if context.graph_stack else tensor


def tensor_name(tensor):
    """How TF names a tensor in a message: its graph name, or its shape and dtype eagerly."""
    return traced(tensor).name if context.graph_stack else shape_and_dtype(tensor)


def _pretty(item, summarize):
    """One line of an eager failure message: a tensor's first values, or str(item)."""
    if not isinstance(item, Tensor):
        return str(item)
    value = item.numpy()
    if np.isscalar(value):
        return str(value)
    flat = [str(v) for v in np.reshape(value, -1)[:summarize]]
    return str(flat + ["..."] if len(flat) < np.size(value) else flat)


def _static_text(item):
    value = constant_value(item) if isinstance(item, Tensor) else None
    return str(item) if value is None else str(value)


# --- x OP y, element-wise -----------------------------------------------------------------
# symbol -> (minitf comparison, NumPy comparison for values known while tracing)
_TESTS = {"==": (equal, np.equal), "!=": (not_equal, np.not_equal), "<": (less, np.less),
          "<=": (less_equal, np.less_equal), ">": (greater, np.greater),
          ">=": (greater_equal, np.greater_equal)}


def binary_assert(sym, x, y, data=None, summarize=None, message=None):
    """TF's `_binary_assert`: check `x sym y` for every (broadcast) pair of elements."""
    test, static_test = _TESTS[sym]
    x, y = traced(convert_to_tensor(x)), traced(convert_to_tensor(y))  # no dtype adoption
    if not context.graph_stack:
        passed = test(x, y)
        if bool(reduce_all(passed)):
            return None
        summarize = 3 if summarize is None else 10**9 if summarize < 0 else summarize
        if data is None:
            data = _failure_data(sym, x, y, summarize, passed.numpy())
        if message is not None:
            data = [message] + list(data)
        raise errors.InvalidArgumentError(None, None,
                                          "\n".join(_pretty(d, summarize) for d in data))
    if data is None:
        data = [f"Condition x {sym} y did not hold element-wise:",
                f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
    if message is not None:
        data = [message] + list(data)
    condition = reduce_all(test(x, y))
    x_static, y_static = constant_value(x), constant_value(y)
    if x_static is not None and y_static is not None \
            and not np.all(static_test(x_static, y_static)):
        raise errors.InvalidArgumentError(None, None, "\n".join(_static_text(d) for d in data))
    return Assert(condition, data, summarize=summarize)


def _failure_data(sym, x, y, summarize, passed):
    """TF's eager report: where x and y differ (same shapes only), then their first values."""
    data = [f"Condition x {sym} y did not hold."]
    if summarize > 0:
        if x.shape == y.shape and x.shape.as_list():
            indices = np.argwhere(~passed)
            count = min(summarize, indices.shape[0])
            data += [f"Indices of first {count} different values:", indices[:count],
                     "Corresponding x values:", x.numpy()[~passed].reshape(-1)[:count],
                     "Corresponding y values:", y.numpy()[~passed].reshape(-1)[:count]]
        x_flat, y_flat = np.reshape(x.numpy(), -1), np.reshape(y.numpy(), -1)
        x_sum, y_sum = min(x_flat.size, summarize), min(y_flat.size, summarize)
        data += [f"First {x_sum} elements of x:", x_flat[:x_sum],
                 f"First {y_sum} elements of y:", y_flat[:y_sum]]
    return data


def _binary(sym, op_name):
    def check(x, y, message=None, summarize=None, name=None):
        if sym == "==" and x is y:
            return None  # TF's short cut: a tensor equals itself
        return binary_assert(sym, x, y, summarize=summarize, message=message)

    check.__name__ = check.__qualname__ = op_name
    check.__doc__ = f"""Assert that `x {sym} y` holds element-wise (x and y broadcast).

    Eagerly: raises InvalidArgumentError listing the first `summarize` (3)
    differing values, or returns None. In tf.function: an Assert node, checked
    each time the graph runs (raises while tracing if x and y are constants).

    >>> tf.debugging.{op_name}(tf.constant([2, 3]), tf.constant([{_EXAMPLE[sym]}]))
    """
    return check


_EXAMPLE = {"==": "2, 3", "!=": "3, 2", "<": "3, 4", "<=": "2, 4", ">": "1, 2", ">=": "2, 2"}
assert_equal = tf_export("debugging.assert_equal", "assert_equal")(
    _binary("==", "assert_equal"))
assert_less = tf_export("debugging.assert_less", "assert_less")(_binary("<", "assert_less"))
assert_less_equal = tf_export("debugging.assert_less_equal")(
    _binary("<=", "assert_less_equal"))
assert_greater = tf_export("debugging.assert_greater", "assert_greater")(
    _binary(">", "assert_greater"))
assert_greater_equal = tf_export("debugging.assert_greater_equal")(
    _binary(">=", "assert_greater_equal"))


@tf_export("debugging.assert_none_equal")
def assert_none_equal(x, y, summarize=None, message=None, name=None):
    """Assert that `x != y` for every (broadcast) pair of elements: no element may match.

    >>> tf.debugging.assert_none_equal(tf.constant([1, 2]), tf.constant([2, 1]))
    """
    return binary_assert("!=", x, y, summarize=summarize, message=message)


# --- x compared with 0 --------------------------------------------------------------------
def _unary(sym, op_name, y_first):
    def check(x, message=None, summarize=None, name=None):
        x = convert_to_tensor(x)
        # The line break after "element-wise:" is missing for <= 0 in TF's text too.
        head = f"Condition x {sym} did not hold element-wise:"
        data = [message_prefix(message)] + (
            [head + f"x ({tensor_name(x)}) = ", x] if sym == "<= 0" else
            [head, f"x ({tensor_name(x)}) = ", x])
        zero = convert_to_tensor(0, dtype=x.dtype)
        compare = "<" if "=" not in sym else "<="
        pair = (zero, x) if y_first else (x, zero)
        return binary_assert(compare, *pair, data=data, summarize=summarize)

    check.__name__ = check.__qualname__ = op_name
    check.__doc__ = f"""Assert that `x {sym}` holds for every element (an empty x passes).

    Built as TF builds it: an assert_less(_equal) against zero of x's dtype.

    >>> tf.debugging.{op_name}(tf.constant([{_EXAMPLE_X[sym]}]))
    """
    return check


_EXAMPLE_X = {"< 0": "-1.0, -2.0", "> 0": "1.0, 2.0", ">= 0": "0, 2", "<= 0": "0, -2"}
assert_negative = tf_export("debugging.assert_negative")(
    _unary("< 0", "assert_negative", y_first=False))
assert_positive = tf_export("debugging.assert_positive")(
    _unary("> 0", "assert_positive", y_first=True))
assert_non_negative = tf_export("debugging.assert_non_negative")(
    _unary(">= 0", "assert_non_negative", y_first=True))
assert_non_positive = tf_export("debugging.assert_non_positive")(
    _unary("<= 0", "assert_non_positive", y_first=False))


@tf_export("debugging.assert_near")
def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Assert |x - y| < atol + rtol * |y| element-wise; both tolerances default to 10 * eps.

    eps is the dtype's machine epsilon (float32: 1.19e-07, float64: 2.2e-16,
    float16: 9.8e-04). The comparison is strict, as in TF's code.

    >>> tf.debugging.assert_near(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0000005]))
    """
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    dtype = x.dtype.real_dtype if x.dtype.is_complex else x.dtype
    eps = np.finfo(dtype.as_numpy_dtype).eps
    rtol = traced(convert_to_tensor(10 * eps if rtol is None else rtol, dtype=dtype))
    atol = traced(convert_to_tensor(10 * eps if atol is None else atol, dtype=dtype))
    data = [message_prefix(message),
            f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
            f"x ({tensor_name(x)}) = ", x, f"y ({tensor_name(y)}) = ", y]
    condition = reduce_all(less(absolute(x - y), atol + rtol * absolute(y)))
    return Assert(condition, data, summarize=summarize)


# --- dtypes: known while tracing, so checked at once -------------------------------------
@tf_export("debugging.assert_type")
def assert_type(tensor, tf_type, message=None, name=None):
    """Raise TypeError unless `tensor.dtype` is `tf_type`.

    >>> tf.debugging.assert_type(tf.constant(1.0), tf.float32)
    >>> try:
    ...     tf.debugging.assert_type(tf.constant(21), tf.bool)
    ... except TypeError as e:
    ...     print(e)
    tensor must be of type tf.bool; got tf.int32
    """
    tf_type = dtypes.as_dtype(tf_type)
    tensor = traced(convert_to_tensor(tensor))
    if tensor.dtype is not tf_type:
        raise TypeError(f"{message_prefix(message)}{getattr(tensor, 'name', 'tensor')} must be "
                        f"of type {tf_type!r}; got {tensor.dtype!r}")


@tf_export("debugging.assert_integer")
def assert_integer(x, message=None, name=None):
    """Raise TypeError unless x has an integer dtype (bool is not one).

    >>> tf.debugging.assert_integer(tf.constant([1, 2]))
    """
    x = convert_to_tensor(x)
    if not x.dtype.is_integer:
        name = traced(x).name if context.graph_stack else "tensor"
        raise TypeError(f'{message_prefix(message)}Expected "x" to be integer type.  Found: '
                        f"{name} of dtype {x.dtype}")


@tf_export("debugging.is_numeric_tensor")
def is_numeric_tensor(tensor):
    """True if `tensor` is a tf.Tensor of numbers (any int, float or complex dtype).

    >>> tf.debugging.is_numeric_tensor(tf.constant(1.0)), tf.debugging.is_numeric_tensor(1.0)
    (True, False)
    """
    return isinstance(tensor, Tensor) and tensor.dtype in dtypes.NUMERIC


def _monotonic(x, test):
    """reduce_all(test(x[1:], x[:-1])) over x flattened (True for fewer than 2 elements)."""
    x = reshape(convert_to_tensor(x), [-1])
    if not is_numeric_tensor(x):
        raise TypeError(f"Expected x to be numeric, instead found: {x}")
    return reduce_all(test(x[1:], x[:-1]))


@tf_export("math.is_non_decreasing")
def is_non_decreasing(x, name=None):
    """True if x[i] <= x[i+1] for all neighbours of x flattened in row-major order.

    >>> tf.math.is_non_decreasing(tf.constant([1.0, 1.0, 3.0]))
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    return _monotonic(x, greater_equal)


@tf_export("math.is_strictly_increasing")
def is_strictly_increasing(x, name=None):
    """True if x[i] < x[i+1] for all neighbours of x flattened in row-major order.

    >>> tf.math.is_strictly_increasing(tf.constant([1.0, 1.0, 3.0]))
    <tf.Tensor: shape=(), dtype=bool, numpy=False>
    """
    return _monotonic(x, greater)


@tf_export("debugging.assert_proper_iterable")
def assert_proper_iterable(values):
    """Raise TypeError unless `values` is an iterable of tensors - not itself a tensor,
    array or string (which are iterable too, but by element or character).

    >>> tf.debugging.assert_proper_iterable([tf.constant(1)])
    """
    if isinstance(values, (Tensor, np.ndarray, str, bytes)):
        raise TypeError('Expected argument "values" to be a "proper" iterable.  Found: '
                        f"{type(values)}")
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


@tf_export("debugging.assert_same_float_dtype")
def assert_same_float_dtype(tensors=None, dtype=None):
    """The one float dtype of `tensors` (and `dtype`, if given); float32 if neither is given.

    >>> tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0)])
    tf.float32
    """
    first = None
    for item in tensors or []:
        if item is None:
            continue
        if dtype is None:
            dtype, first = item.dtype, item
        elif item.dtype is not dtype:
            origin = f" as {_label(first)}" if first is not None else ""
            raise ValueError(f"{_label(item)}, type={item.dtype}, must be of the same type "
                             f"({dtype}){origin}.")
    if dtype is None:
        return dtypes.float32
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")
    return dtype


def _label(item):
    return getattr(item, "name", None) or str(item)
