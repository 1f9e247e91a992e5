"""Placeholders for Python variables that have no value yet.

A converted `if` or loop hands its variables to `tf.cond`/`tf.while_loop`
as a tuple (see `get_state` in `tf.autograph.to_code` output). A variable
that is first assigned *inside* the statement has no value before it, so
the converted code gives it one that says so:

    y = ag__.Undefined('y')
    ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('y',), 1)

If the branches (or the loop) leave it undefined, the runtime names the
variable in its error ("'y' must also be initialized in the else branch").

>>> y = Undefined('y')
>>> y
y
>>> ld(y)
Traceback (most recent call last):
  ...
UnboundLocalError: 'y' is used before assignment

In TensorFlow these are `autograph/operators/variables.py`.
"""


class Undefined:
    """The value of variable `symbol_name` before anything was assigned to it.

    Reading an attribute or an item of it gives it back, so tracing code
    that merely *looks* at an undefined variable does not fail early; the
    control-flow operators check for it and name the variable.
    """

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def read(self):
        raise UnboundLocalError(f"'{self.symbol_name}' is used before assignment")

    def __repr__(self):
        return self.symbol_name

    def __getattribute__(self, name):
        try:
            return object.__getattribute__(self, name)
        except AttributeError:
            return self

    def __getitem__(self, i):
        return self


class UndefinedReturnValue:
    """The return value of a converted function before a `return` ran."""

    def __repr__(self):
        return "UndefinedReturnValue"


def ld(value):
    """Load a variable that may be undefined: raise Python's error if it is."""
    if isinstance(value, Undefined):
        return value.read()
    return value


def ldu(load, name):
    """`load()`, or `Undefined(name)` if it fails (for `obj.attr` and `d[key]` state)."""
    try:
        return load()
    except (KeyError, AttributeError, NameError):
        return Undefined(name)


def retval(value):
    """What a converted function returns: None if no `return` statement ran."""
    if isinstance(value, (Undefined, UndefinedReturnValue)):
        return None
    return value


def is_undefined(value):
    return isinstance(value, (Undefined, UndefinedReturnValue))
