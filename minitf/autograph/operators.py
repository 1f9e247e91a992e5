"""`ag__`: the names converted code calls.

`tf.autograph.to_code(f)` shows code that uses this module as `ag__`:
control flow (`ag__.if_stmt`, `ag__.while_stmt`, `ag__.for_stmt`), the
boolean operators (`ag__.and_`, `ag__.or_`, `ag__.not_`), conditional
expressions (`ag__.if_exp`), the builtins that know tensors (`ag__.range_`,
`ag__.len_`), `assert` (`ag__.assert_stmt`) and calls of your own functions (`ag__.converted_call`, which
converts them too). Each one keeps Python's meaning for Python values and
builds TensorFlow ops for tensors:

>>> and_(lambda: True, lambda: 'second value')
'second value'
>>> and_(lambda: tf.constant(True), lambda: tf.constant(False))
<tf.Tensor: shape=(), dtype=bool, numpy=False>
>>> not_(tf.constant([True, False]))
<tf.Tensor: shape=(2,), dtype=bool, numpy=array([False,  True])>

In TensorFlow these live in `autograph/operators/` and `autograph/impl/api.py`.
"""
from .control_flow import (for_stmt, if_stmt, is_tensor, register_for_loop,  # noqa: F401
                           tensor_len, verify_condition, verify_single_cond_var,
                           while_stmt, _tf, _tracing)
from .variables import Undefined, UndefinedReturnValue, ld, ldu, retval  # noqa: F401
from .features import Feature, converts_asserts  # noqa: F401 - Feature: for ag__.Feature


def no_state(*unused):
    """get_state/set_state of a statement that modifies no variable."""
    return ()


# --- assert ----------------------------------------------------------------------------
def assert_stmt(expression1, expression2):
    """`assert expression1, expression2()`: Python's assert for Python values; for a
    tensor, `tf.debugging.Assert(expression1, [message])`, which in a graph checks
    every time the graph runs (a plain assert would test the symbolic tensor once).

    >>> assert_stmt(1 < 2, lambda: "never shown")
    """
    if not callable(expression2):
        raise ValueError(f"{expression2} must be a callable")
    if is_tensor(expression1):
        from ..ops.assert_ops import Assert

        message = expression2()
        return Assert(expression1, message if isinstance(message, list) else [message])
    assert expression1, expression2()
    return None


# --- boolean operators ------------------------------------------------------------------
def and_(a, b):
    """`a and b` with Python's laziness; `tf.logical_and` once `a()` is a tensor.

    In TensorFlow a tensor `and` is a `tf.cond` (so `b` stays lazy); minitf
    uses `tf.logical_and`, which gives the same value: converted code has no
    effects that laziness could skip, since both sides are traced anyway.
    """
    a_value = a()
    if is_tensor(a_value):
        return _tf().logical_and(a_value, b())
    return a_value and b()


def or_(a, b):
    """`a or b` with Python's laziness; `tf.logical_or` once `a()` is a tensor."""
    a_value = a()
    if is_tensor(a_value):
        return _tf().logical_or(a_value, b())
    return a_value or b()


def not_(a):
    """`not a`; `tf.logical_not` for a tensor."""
    if is_tensor(a):
        return _tf().logical_not(a)
    return not a


def if_exp(cond, if_true, if_false, expr_repr):
    """`if_true() if cond else if_false()`: a `tf.cond` for a tensor condition in a trace."""
    if is_tensor(cond) and _tracing():
        cond = verify_condition(cond, "if expression")
        values = {}

        def branch(name, run):
            def staged():
                values[name] = run()
                if len(values) == 2:
                    verify_single_cond_var(expr_repr, values["main"], values["else"])
                return values[name]
            return staged

        return _tf().cond(cond, branch("main", if_true), branch("else", if_false))
    return if_true() if cond else if_false()


# --- builtins that know tensors -----------------------------------------------------------
def range_(start_or_stop, stop=None, step=None):
    """Python's `range`, or `tf.range` if an argument is a tensor (then `for` makes a TF loop)."""
    args = [a for a in (start_or_stop, stop, step) if a is not None]
    if not any(is_tensor(a) for a in args):
        return range(*args)
    tf = _tf()
    if step is not None:
        return tf.range(start_or_stop, stop, step)
    if stop is not None:  # Python's range(5, 2) is empty; tf.range(5, 2) would be an error
        return tf.range(start_or_stop, tf.maximum(start_or_stop, stop))
    return tf.range(start_or_stop)


def len_(s):
    """Python's `len`; for a tensor the static length of its first axis (or a tensor)."""
    if is_tensor(s):
        return tensor_len(s)
    return len(s)


# --- calls ------------------------------------------------------------------------------
def converted_call(f, args, kwargs=None, optional_features=None):
    """Call `f(*args, **kwargs)`, converting `f` first if it is your own Python function
    (with the caller's `optional_features`, e.g. Feature.ASSERT_STATEMENTS).

    minitf's own functions, builtins, NumPy and the standard library run as
    they are; so does anything decorated with
    `tf.autograph.experimental.do_not_convert`.
    """
    from .conversion import converted_callable
    asserts = converts_asserts(optional_features)
    return converted_callable(f, asserts=asserts)(*args, **(kwargs or {}))
