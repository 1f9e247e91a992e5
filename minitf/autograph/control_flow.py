"""What converted `if`, `while` and `for` statements call at run time.

AutoGraph turns each statement into functions plus one call, e.g.

    ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('y',), 1)

and the call decides, *while the code runs*, what the statement means:

* the condition (or the iterated object) is a Python value: plain Python
  semantics - the branch not taken never runs, the loop is unrolled;
* it is a tensor inside `tf.function`: the statement becomes `tf.cond` or
  `tf.while_loop`. The variables the statement modifies travel through the op
  explicitly: `get_state()` reads them into a tuple, `set_state(values)`
  writes a tuple back, and `symbol_names` names them for error messages.

>>> import minitf as tf
>>> @tf.function
... def collatz_steps(n):
...     steps = 0
...     while n != 1:
...         if n % 2 == 0:
...             n = n // 2
...         else:
...             n = 3 * n + 1
...         steps += 1
...     return steps
>>> collatz_steps(tf.constant(6))
<tf.Tensor: shape=(), dtype=int32, numpy=8>

In TensorFlow this is `autograph/operators/control_flow.py`; the checks and
their messages are TF's.
"""
import numpy as np

from ..framework import context, nest
from ..framework.graph import Graph
from ..framework.tensor import Tensor
from .variables import Undefined, UndefinedReturnValue, is_undefined
from . import dataset_loop

LEGAL_LOOP_TYPES = "Tensor, int, float, bool or a list, tuple or dict thereof"
_LIMITATIONS = ("See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
                "autograph/g3doc/reference/limitations.md#consistency-of-control-flow-types "
                "for more info.")


def _tf():
    import minitf  # imported when the converted code runs: minitf is fully built by then
    return minitf


def is_tensor(value):
    """Tensors (eager or symbolic) and tf.Variables: what makes a statement a TF op."""
    return isinstance(value, Tensor) or getattr(value, "_is_variable", False)


def _tracing():
    return bool(context.graph_stack)


def _as_tensor_leaves(value):
    """Python numbers in a (nested) state value become tensors, as TF's ops convert them."""
    def convert(leaf):
        if isinstance(leaf, (bool, int, float, np.generic, np.ndarray)) or \
                getattr(leaf, "_is_variable", False):
            return _tf().convert_to_tensor(leaf)
        return leaf

    return nest.map_structure(convert, value)


def verify_condition(cond, tag):
    """A tensor condition must be a scalar `tf.bool` (TF's check and message)."""
    tf = _tf()
    cond = tf.convert_to_tensor(cond)
    hint = "to check for None, use `is not None`"
    if cond.dtype is not tf.bool:
        raise ValueError(f"condition of {tag} expected to be `tf.bool` scalar, got {cond}; "
                         f"to use as boolean Tensor, use `tf.cast`; {hint}")
    if cond.shape.rank is None:
        return tf.reshape(cond, ())
    if cond.shape.rank > 0:
        if np.prod([d for d in cond.shape.as_list() if d is not None]) > 1:
            raise ValueError(f"condition of {tag} expected to be `tf.bool` scalar, got {cond}; "
                             f"{hint}")
        return tf.reshape(cond, ())
    return cond


# --- if ----------------------------------------------------------------------------
def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    """`if cond: body() else: orelse()`: a `tf.cond` if `cond` is a tensor while tracing.

    The first `nouts` state variables are outputs of the statement (used
    after it); the others are only read by it.
    """
    if is_tensor(cond):
        cond = verify_condition(cond, "if statement")
        if _tracing():
            return _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts)
        cond = bool(cond)  # eager tensor: tf.cond would run just the branch taken
    return body() if cond else orelse()


def _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    init_vars = tuple(get_state())
    names = tuple(symbol_names[:nouts])
    finished = {}

    def branch(run, name, other):
        def staged():
            set_state(init_vars)
            run()
            new_vars = tuple(get_state())[:nouts]
            _verify_branch_vars(new_vars, names, name)
            finished[name] = new_vars
            if other in finished:
                main, else_ = (new_vars, finished[other]) if name == "main" else \
                    (finished[other], new_vars)
                _verify_cond_vars(main, else_, names)
            return tuple(_as_tensor_leaves(v) for v in new_vars)
        return staged

    outputs = _tf().cond(cond, branch(body, "main", "else"), branch(orelse, "else", "main"))
    outputs = tuple(outputs) if isinstance(outputs, (tuple, list)) else (outputs,)
    set_state(outputs[:nouts] + init_vars[nouts:])


def _verify_branch_vars(values, names, branch):
    for name, value in zip(names, values):
        if isinstance(value, Undefined):
            raise ValueError(f"'{name}' must also be initialized in the {branch} branch")
        if isinstance(value, UndefinedReturnValue):
            raise ValueError(f"the {branch} branch must also have a return statement.")


def _verify_cond_vars(main_values, else_values, names):
    for name, main, else_ in zip(names, main_values, else_values):
        try:
            nest.assert_same_structure(main, else_)
        except (ValueError, TypeError) as e:
            raise TypeError(f"'{name}' must have the same nested structure in the main and "
                            f"else branches:\n\n{e}") from e
        for m, e in zip(nest.flatten(main), nest.flatten(else_)):
            verify_single_cond_var(name, m, e)


def verify_single_cond_var(name, main, else_):
    """Both branches must give `name` a value, of the same dtype if it is a tensor."""
    if main is None:
        raise ValueError(f"'{name}' is None at the end of the main branch.")
    if else_ is None:
        raise ValueError(f"'{name}' is None at the end of the else branch.")
    main, else_ = _as_tensor_leaves(main), _as_tensor_leaves(else_)
    if isinstance(main, Tensor) and isinstance(else_, Tensor) and main.dtype is not else_.dtype:
        raise TypeError(f"'{name}' has dtype {main.dtype.name} in the main branch, but dtype "
                        f"{else_.dtype.name} in the else branch")


# --- while -------------------------------------------------------------------------
def while_stmt(test, body, get_state, set_state, symbol_names, opts=None):
    """`while test(): body()`: a `tf.while_loop` if the first test gives a tensor.

    The first test is evaluated in a scratch graph, so deciding leaves no ops
    behind; a Python loop then re-evaluates it, as TF does.
    """
    opts = dict(opts or {})
    if _tracing():
        with Graph("autograph_while_test").as_default():
            first_test = test()
        if is_tensor(first_test):
            return _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts)
    else:
        first_test = test()
    if not _python_bool(first_test, _CHANGED_TO_TENSOR):
        return None
    body()
    while _python_bool(test(), _CHANGED_TO_TENSOR):
        body()
    return None


_CHANGED_TO_TENSOR = (
    "The condition of while loop started as non-Tensor, then changed to Tensor. This may "
    "happen either because variables changed type, or when a break or return statement "
    "inside the loop depends on a Tensor condition. In both cases, changing to a TF loop "
    "should remove the error.\n" + _LIMITATIONS)
_TENSOR_BREAK_IN_PYTHON_LOOP = (
    "break and return statements which depend on a TF condition are not supported in Python "
    "for loops. Did you intend to make it a TF loop?\n" + _LIMITATIONS)


def _python_bool(value, message):
    """bool(value) for a Python loop; a symbolic tensor here cannot work (TF's error)."""
    errors = _tf().errors
    try:
        return bool(value)
    except errors.OperatorNotAllowedInGraphError as e:
        raise NotImplementedError(message) from e


def _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts):
    first_vars = tuple(get_state())
    init_vars, invariants = _define_undefined(body, get_state, set_state, first_vars,
                                              symbol_names, opts)
    undefined = [name if not isinstance(v, UndefinedReturnValue) else "the function return value"
                 for name, v in zip(symbol_names, first_vars) if v is None or is_undefined(v)]
    if not undefined:
        return _while_loop(test, body, get_state, set_state, symbol_names, init_vars,
                           invariants, opts)
    # Variables that start as placeholders need one iteration for a real value: a hidden
    # loop variable records that one ran, and the graph checks it afterwards (as TF does).
    ran = False

    def ran_get_state():
        return (ran,) + tuple(get_state())

    def ran_set_state(values):
        nonlocal ran
        ran = values[0]
        set_state(tuple(values[1:]))

    def ran_body():
        nonlocal ran
        body()
        ran = True

    _while_loop(test, ran_body, ran_get_state, ran_set_state,
                ("<loop ran>",) + tuple(symbol_names), (False,) + tuple(init_vars),
                [None] + list(invariants), opts)
    _assert_ran(ran, "loop must iterate at least once to initialize " + ", ".join(undefined))
    return None


def _while_loop(test, body, get_state, set_state, symbol_names, init_vars, invariants, opts):
    """The `tf.while_loop` itself: the state goes in and out as loop variables."""
    init_vars = tuple(_as_tensor_leaves(v) for v in init_vars)

    def loop_test(*loop_vars):
        set_state(loop_vars)
        return verify_condition(test(), "while loop")

    def loop_body(*loop_vars):
        set_state(loop_vars)
        body()
        new_vars = tuple(get_state())
        verify_tf_loop_vars(init_vars, loop_vars, new_vars, symbol_names, invariants)
        return tuple(_as_tensor_leaves(v) for v in new_vars)

    kwargs = {}
    if any(i is not None for i in invariants):
        kwargs["shape_invariants"] = tuple(
            i if i is not None else (v.shape if isinstance(v, Tensor) else None)
            for v, i in zip(init_vars, invariants))
    if opts.get("maximum_iterations") is not None:
        kwargs["maximum_iterations"] = opts["maximum_iterations"]
    final = _tf().while_loop(loop_test, loop_body, init_vars, **kwargs)
    set_state(tuple(final) if isinstance(final, (tuple, list)) else (final,))


def _assert_ran(flag, message):
    """A graph check that fails when the graph runs: tf.debugging.Assert."""
    tf = _tf()
    tf.debugging.Assert(flag, [message, tf.reshape(tf.cast(flag, tf.int32), [1])], summarize=1)


def _user_invariants(values, opts):
    """`set_loop_options(shape_invariants=[(var, shape), ...])`, one entry per state value."""
    by_id = {id(v): tf_shape for v, tf_shape in opts.get("shape_invariants", ())}
    return [by_id.get(id(v)) for v in values]


def _define_undefined(body, get_state, set_state, init_vars, symbol_names, opts):
    """Give loop variables first assigned inside the loop a starting value (TF's rule).

    One iteration is traced into a scratch graph to learn what the loop
    assigns; the variable then starts as zeros of that dtype and shape.
    """
    invariants = _user_invariants(init_vars, opts)
    nulls = [v is None or is_undefined(v) for v in init_vars]
    if not any(nulls):
        return init_vars, invariants
    first_iteration, failure = None, None
    try:
        with Graph("autograph_loop_probe").as_default() as probe:
            set_state(tuple(nest.map_structure(lambda leaf: _probe_value(probe, leaf), v)
                            for v in init_vars))
            body()
            first_iteration = tuple(get_state())
        filled = [_placeholder_value(like, invariant, v) if null else (v, invariant)
                  for v, null, like, invariant in zip(init_vars, nulls, first_iteration,
                                                      invariants)]
        init_vars = tuple(v for v, _ in filled)
        invariants = [i for _, i in filled]
    except (UnboundLocalError, TypeError, ValueError, KeyError) as exc:
        failure = ("Note: AutoGraph tried to define it automatically, but ran into a "
                   f"{type(exc).__name__}: {exc}")
    finally:
        set_state(tuple(init_vars))
    verify_loop_init_vars(init_vars, symbol_names, first_iteration, failure)
    return init_vars, invariants


def _probe_value(graph, leaf):
    if isinstance(leaf, (bool, int, float, np.generic, np.ndarray)):
        t = _tf().convert_to_tensor(leaf)
        return graph.placeholder(t.shape, t.dtype, "probe")
    return leaf


def _placeholder_value(like, invariant, original):
    """(zeros shaped like `like`, shape invariant needed for its unknown dims)."""
    if like is None or is_undefined(like):
        return original, None
    if isinstance(like, (bool, int, float)):
        return type(like)(0), None
    if isinstance(like, Tensor):
        shape = invariant if invariant is not None else like.shape
        if shape.rank is None:
            return _tf().zeros((), like.dtype), shape
        dims = [0 if d is None else d for d in shape.as_list()]
        dynamic = None in like.shape.as_list() or None in shape.as_list()
        return _tf().zeros(dims, like.dtype), shape if dynamic else None
    if isinstance(like, (list, tuple, dict)):
        pairs = [_placeholder_value(v, None, original) for v in nest.flatten(like)]
        return nest.pack_sequence_as(like, [v for v, _ in pairs]), None
    raise TypeError(f"Found an unsupported type '{type(like).__name__}' while creating "
                    f"placeholder for {like}. Supported types include Tensor, int, float, bool, "
                    "list, tuple or dict.")


def verify_loop_init_vars(init_vars, symbol_names, first_iteration=None, extra_message=None):
    """Every loop variable needs a value before a TF loop starts (TF's messages)."""
    first_iteration = first_iteration or (None,) * len(init_vars)
    for name, value, first in zip(symbol_names, init_vars, first_iteration):
        if isinstance(value, UndefinedReturnValue):
            if _truthy(first):  # TF's test: the traced iteration left something there
                raise ValueError("the return value from a TensorFlow loop may only be a "
                                 f"{LEGAL_LOOP_TYPES}; got {type(first)}")
            raise NotImplementedError(
                "a return statement cannot be placed inside this TensorFlow loop; this may "
                "happen if a return statement depends on a static Python condition such as a "
                "hyperparameter")
        if value is None:
            raise ValueError(f"'{name}' is not allowed to be None before the loop")
        if isinstance(value, Undefined):
            message = f"'{name}' must be defined before the loop"
            raise ValueError(message + ("\n" + extra_message if extra_message else ""))


def _truthy(value):
    try:
        return bool(value)
    except Exception:  # noqa: BLE001 - a symbolic tensor: it is there
        return True


def verify_tf_loop_vars(init_vars, entry_vars, exit_vars, symbol_names, invariants):
    """After one traced iteration each loop variable keeps its structure, dtype and shape."""
    for name, init, entry, exit_, invariant in zip(symbol_names, init_vars, entry_vars,
                                                   exit_vars, invariants):
        try:
            nest.assert_same_structure(entry, exit_)
        except (ValueError, TypeError) as e:
            raise TypeError(f"'{name}' does not have the same nested structure after one "
                            f"iteration.\n\n{e}") from e
        for i, n, x in zip(nest.flatten(init), nest.flatten(entry), nest.flatten(exit_)):
            _verify_single_loop_var(name, i, n, x, invariant)


def _verify_single_loop_var(name, init, entry, exit_, invariant):
    if exit_ is None:
        raise ValueError(f"'{name}' is None at the end of the iteration.")
    init, entry, exit_ = (_as_tensor_leaves(v) for v in (init, entry, exit_))
    if not (isinstance(entry, Tensor) and isinstance(exit_, Tensor)):
        return
    if entry.dtype is not exit_.dtype:
        raise TypeError(f"'{name}' has dtype {entry.dtype.name} before the loop, but dtype "
                        f"{exit_.dtype.name} after one iteration")
    if invariant is None:
        if not exit_.shape.is_subtype_of(entry.shape):
            raise ValueError(
                f"'{name}' has shape {entry.shape} before the loop, but shape {exit_.shape} "
                "after one iteration. Use tf.autograph.experimental.set_loop_options to set "
                "shape invariants.")
        return
    invariant = _tf().TensorShape(invariant)
    if not init.shape.is_subtype_of(invariant):
        raise ValueError(f"'{name}' has shape {init.shape} before the loop, which does not "
                         f"conform with the shape invariant {invariant}.")
    if not exit_.shape.is_subtype_of(invariant):
        raise ValueError(f"'{name}' has shape {exit_.shape} after one iteration, which does "
                         f"not conform with the shape invariant {invariant}.")


# --- for -----------------------------------------------------------------------------
# Other iterable kinds register here, checked before the built-in rules: tf.data adds
# `register_for_loop(lambda it: isinstance(it, Dataset), dataset_for_stmt)` and nothing
# else changes (TF's `for_loop_registry`).
_FOR_LOOP_OVERLOADS = []


def register_for_loop(predicate, for_stmt_fn):
    """Run `for x in it` with `for_stmt_fn` when `predicate(it)` holds.

    `for_stmt_fn` takes the same arguments as `for_stmt`.
    """
    _FOR_LOOP_OVERLOADS.append((predicate, for_stmt_fn))


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts=None):
    """`for target in iter_: body(target)`, stopping early once `extra_test()` is False.

    Over a tensor inside `tf.function` this is a `tf.while_loop` over the
    first axis; over a tf.data Dataset, a `ReduceDataset` node (dataset_loop.py); over anything else (a list, a Python `range`, an eager
    tensor outside tf.function) it is a Python loop, unrolled while tracing.
    `extra_test` carries the converted `break` (and `return`) flags.
    """
    opts = dict(opts or {})
    for predicate, overload in _FOR_LOOP_OVERLOADS:
        if predicate(iter_):
            return overload(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
    if _tracing() and getattr(iter_, "_resource", False):  # an iterator made outside
        iter_ = iter_._remaining()  # a loop over what it has left, draining it per call
    if _tracing() and dataset_loop.is_dataset(iter_) and dataset_loop.runs_in_graph(iter_):
        return dataset_loop.dataset_for_stmt(iter_, extra_test, body, get_state, set_state,
                                             symbol_names, opts)
    if is_tensor(iter_) and _tracing():
        if _range_node(iter_) is not None:
            return _tf_range_for_stmt(iter_, extra_test, body, get_state, set_state,
                                      symbol_names, opts)
        return _tf_tensor_for_stmt(iter_, extra_test, body, get_state, set_state,
                                   symbol_names, opts)
    return _py_for_stmt(iter_, extra_test, body)


def _py_for_stmt(iter_, extra_test, body):
    if extra_test is None:
        for target in iter_:
            body(target)
        return None
    if not _python_bool(extra_test(), _TENSOR_BREAK_IN_PYTHON_LOOP):
        return None
    for target in iter_:
        body(target)
        if not _python_bool(extra_test(), _TENSOR_BREAK_IN_PYTHON_LOOP):
            break
    return None


def tensor_len(tensor):
    """The length of a tensor's first axis: a Python int if the shape says, else a tensor."""
    tf = _tf()
    if tensor.shape.rank == 0:
        raise ValueError(f"len requires a non-scalar tensor, got one of shape {tensor.shape}")
    if tensor.shape.rank is not None and tensor.shape[0] is not None:
        return tensor.shape[0]
    return tf.shape(tensor)[0]


def _tf_tensor_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """A `tf.while_loop` over the rows of a tensor: an index is the hidden loop variable."""
    tf = _tf()
    iter_ = tf.convert_to_tensor(iter_)
    n = tensor_len(iter_)
    index = 0

    def loop_get_state():
        return (index,) + tuple(get_state())

    def loop_set_state(values):
        nonlocal index
        index = values[0]
        set_state(tuple(values[1:]))

    def loop_body():
        nonlocal index
        body(tf.gather(iter_, index))
        index = index + 1

    def loop_test():
        more = index < n
        if extra_test is None:
            return more
        return tf.logical_and(more, extra_test())

    if isinstance(n, int) and "maximum_iterations" not in opts:
        opts["maximum_iterations"] = n  # a known trip count (gradients can use it)
    return _tf_while_stmt(loop_test, loop_body, loop_get_state, loop_set_state,
                          ("<internal iterate>",) + tuple(symbol_names), opts)


def _range_node(iter_):
    """The Range node that made `iter_`, if it is a `tf.range` with a bound known only
    when the graph runs (a known range is a constant and loops like any tensor)."""
    node = getattr(iter_, "node", None)
    return node if node is not None and node.op.name == "Range" else None


def _tf_range_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """`for i in tf.range(start, limit, delta)`: a `tf.while_loop` whose hidden loop
    variable is `i` itself - the range is never materialized (TF's `_tf_range_for_stmt`)."""
    tf = _tf()
    start, limit, delta = _range_node(iter_).inputs
    iterate = start

    def loop_get_state():
        return (iterate,) + tuple(get_state())

    def loop_set_state(values):
        nonlocal iterate
        iterate = values[0]
        set_state(tuple(values[1:]))

    def loop_body():
        nonlocal iterate
        body(iterate)
        iterate = iterate + delta

    def loop_test():
        known = _constant(delta)
        if known is not None:  # the usual case: the direction is known while tracing
            more = iterate < limit if known > 0 else iterate > limit
        else:
            more = tf.logical_or(tf.logical_and(delta >= 0, iterate < limit),
                                 tf.logical_and(delta < 0, iterate > limit))
        if extra_test is None:
            return more
        return tf.logical_and(more, extra_test())

    return _tf_while_stmt(loop_test, loop_body, loop_get_state, loop_set_state,
                          ("<internal iterate>",) + tuple(symbol_names), opts)


def _constant(tensor):
    from ..ops.shape_ops import constant_value

    value = constant_value(tensor)
    return None if value is None else value.item()
