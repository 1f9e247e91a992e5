"""`tf.autograph`: see the Python that `tf.function` really traces.

`tf.function` does not trace your function as written: AutoGraph first
rewrites its `if`, `while` and `for` statements (and `break`, `continue`,
`return`, `and`, `or`, `not` inside them) into calls that become `tf.cond`
and `tf.while_loop` when their condition is a tensor. `to_code` shows the
rewritten function:

>>> def absolute(x):
...     if x < 0:
...         x = -x
...     return x
>>> print(tf.autograph.to_code(absolute))
def tf__absolute(x):
<BLANKLINE>
    def get_state():
        return (x,)
<BLANKLINE>
    def set_state(vars_):
        nonlocal x
        x, = vars_
<BLANKLINE>
    def if_body():
        nonlocal x
        x = -x
<BLANKLINE>
    def else_body():
        nonlocal x
        pass
    ag__.if_stmt(x < 0, if_body, else_body, get_state, set_state, ('x',), 1)
    return x
<BLANKLINE>

With a Python condition `if_stmt` runs one branch, as Python would; with a
tensor inside `tf.function` it traces both into a `tf.cond`:

>>> tf.function(absolute)(tf.constant(-3.0))
<tf.Tensor: shape=(), dtype=float32, numpy=3.0>

In TensorFlow this is `tensorflow/python/autograph/impl/api.py`.
"""
import functools
import inspect

from ..framework.tf_export import tf_export
from . import conversion, errors
from .features import Feature, converts_asserts  # noqa: F401 - Feature: tf.autograph.experimental

UNSPECIFIED = object()


def _plain_function(entity):
    from ..framework.function import Function
    if isinstance(entity, Function):
        entity = entity.python_function
    return getattr(entity, "__func__", entity)


@tf_export("autograph.to_code")
def to_code(entity, recursive=True, experimental_optional_features=None):
    """The source code AutoGraph generates for `entity`, as a string.

    The converted code calls helpers through `ag__` (see
    `minitf/autograph/operators.py`); every name it defines (`get_state`,
    `if_body`, `loop_body`, ...) is explained in `minitf/autograph/transformer.py`.

    >>> def count_down(n):
    ...     while n > 0:
    ...         n -= 1
    ...     return n
    >>> print(tf.autograph.to_code(count_down).splitlines()[-2])
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('n',))
    """
    function = _plain_function(entity)
    asserts = converts_asserts(experimental_optional_features)
    try:
        return conversion.convert_function(function, asserts)[1] + "\n"
    except (errors.PyCTError, ValueError, TypeError, AttributeError, KeyError) as e:
        raise errors.ConversionError(f"converting {entity}: {type(e).__name__}: {e}") from e


@tf_export("autograph.to_graph")
def to_graph(entity, recursive=True, experimental_optional_features=None):
    """`entity` converted by AutoGraph: a Python function that, called inside a
    `tf.function` (or a graph), builds `tf.cond`/`tf.while_loop` for its tensor
    control flow; called eagerly it runs like the original.

    >>> def relu(x):
    ...     return x if x > 0 else 0.0
    >>> converted = tf.autograph.to_graph(relu)
    >>> tf.function(converted)(tf.constant(-2.0))
    <tf.Tensor: shape=(), dtype=float32, numpy=0.0>
    """
    function = _plain_function(entity)
    asserts = converts_asserts(experimental_optional_features)
    try:
        converted = conversion.convert_function(function, asserts)[0]
    except (errors.PyCTError, ValueError, TypeError, AttributeError, KeyError) as e:
        raise errors.ConversionError(f"converting {entity}: {type(e).__name__}: {e}") from e
    self = getattr(entity, "__self__", None)
    return converted if self is None or not inspect.ismethod(entity) else \
        converted.__get__(self, type(self))


@tf_export("autograph.experimental.do_not_convert")
def do_not_convert(func=None):
    """Decorator: AutoGraph calls `func` as it is, without converting it.

    Its `if`/`while` on tensors then fail inside `tf.function`, as plain
    Python would; use it for code that is graph-compatible already or that
    AutoGraph cannot read.

    >>> @tf.autograph.experimental.do_not_convert
    ... def plain(x):
    ...     return x + 1
    >>> plain(1)
    2
    """
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    wrapper.__ag_do_not_convert__ = True
    return wrapper


@tf_export("autograph.experimental.set_loop_options")
def set_loop_options(parallel_iterations=UNSPECIFIED, swap_memory=UNSPECIFIED,
                     maximum_iterations=UNSPECIFIED, shape_invariants=UNSPECIFIED):
    """Options for the `tf.while_loop` of the loop whose body starts with this call.

    AutoGraph reads the call while converting and passes the options to the
    loop; calling it has no effect of its own. `shape_invariants` is a list of
    `(variable, tf.TensorShape)` pairs for loop variables whose shape changes
    (None for a dimension that varies); `maximum_iterations` caps the loop.

    >>> @tf.function
    ... def doubled_three_times():
    ...     x = tf.ones([1])
    ...     for i in tf.range(3):
    ...         tf.autograph.experimental.set_loop_options(
    ...             shape_invariants=[(x, tf.TensorShape([None]))])
    ...         x = tf.concat([x, x], axis=0)
    ...     return x
    >>> doubled_three_times().shape
    TensorShape([8])

    Without the option the loop fails while tracing: "'x' has shape (1,) before
    the loop, but shape (2,) after one iteration".

    (`parallel_iterations` and `swap_memory` are accepted for TF's signature;
    minitf runs loop iterations one after another and keeps everything in memory.)
    """
    return None


def convert(function, experimental_autograph_options=None):
    """`Function.converter`: the function `tf.function` traces instead of `function`
    (`experimental_autograph_options`: tf.function's, see `features.py`).

    Errors raised while it runs are re-raised with TF's "in user code:" header
    naming your file, function and line.
    """
    asserts = converts_asserts(experimental_autograph_options)
    converted = conversion.converted_callable(function, user_requested=True, asserts=asserts)
    cause = conversion.fallback_cause(function)
    note = f"(AutoGraph did not convert {getattr(function, '__name__', function)}: " \
           f"{cause}.)" if cause else None

    @functools.wraps(function)
    def run_reporting_user_code_errors(*args, **kwargs):
        try:
            return converted(*args, **kwargs)
        except Exception as e:
            rebuilt = errors.in_user_code(e, note)
            if rebuilt is None:
                raise
            raise rebuilt.with_traceback(e.__traceback__) from None

    return run_reporting_user_code_errors
