"""TF1 variables: `get_variable` inside `variable_scope`, global collections, initializers.

TF1 code made variables with `tf.compat.v1.get_variable(name, shape, initializer=...)`:
the *scope* decides the full name, and whether an existing variable of that name is
shared (`reuse=True`) or a new one is an error. Every variable also lands in the
graph's global collections, which `global_variables_initializer()` and optimizers
read - TF2 dropped both ideas for plain Python objects that own their variables.

>>> import minitf as tf
>>> with tf.compat.v1.Graph().as_default():
...     with tf.compat.v1.variable_scope("layer"):
...         w = tf.compat.v1.get_variable("w", shape=[2], initializer=tf.compat.v1.ones_initializer())
...     with tf.compat.v1.variable_scope("layer", reuse=True):
...         print(tf.compat.v1.get_variable("w") is w, w.name)
...     print([v.name for v in tf.compat.v1.global_variables()])
True layer/w:0
['layer/w:0']

TensorFlow's are in `tensorflow/python/ops/variable_scope.py` and `ops/variables.py`.
"""
import enum
import math
import re
import threading

from ...framework import context, dtypes
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.tf_export import tf_export
from ...framework.variables import Variable, VariableSynchronization
from ...module import name_scope
from .graph_mode import get_default_graph


@tf_export("compat.v1.GraphKeys")
class GraphKeys:
    """The names of TF1's standard collections.

    >>> tf.compat.v1.GraphKeys.TRAINABLE_VARIABLES
    'trainable_variables'
    """

    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    GLOBAL_STEP = "global_step"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    REGULARIZATION_LOSSES = "regularization_losses"
    SUMMARIES = "summaries"
    TRAIN_OP = "train_op"
    INIT_OP = "init_op"


def _collections(graph):
    found = getattr(graph, "_v1_collections", None)
    if found is None:
        found = graph._v1_collections = {}
    return found


def _implicit(graph, key):
    """The variables the graph made, as TF1 files them (local ones only under LOCAL)."""
    made = [v for v in graph.created_variables if not getattr(v, "_v1_local", False)]
    if key == GraphKeys.GLOBAL_VARIABLES:
        return made
    if key == GraphKeys.TRAINABLE_VARIABLES:
        return [v for v in made if v.trainable]
    return []


@tf_export("compat.v1.get_collection")
def get_collection(key, scope=None):
    """The items of the default graph's collection `key` (those whose name matches the
    regular expression `scope` from its start, if given). Empty in eager mode.

    >>> with tf.compat.v1.Graph().as_default():
    ...     tf.compat.v1.add_to_collection("mine", 42)
    ...     tf.compat.v1.get_collection("mine")
    [42]
    """
    if context.executing_eagerly():
        return []
    graph = get_default_graph()
    items, seen = [], set()
    for item in _implicit(graph, key) + _collections(graph).get(key, []):
        if id(item) not in seen:
            seen.add(id(item))
            items.append(item)
    if scope is not None:
        items = [i for i in items if re.match(scope, getattr(i, "name", "") or "")]
    return items


@tf_export("compat.v1.add_to_collection")
def add_to_collection(name, value):
    """Append `value` to the default graph's collection `name` (see `get_collection`)."""
    _collections(get_default_graph()).setdefault(name, []).append(value)


@tf_export("compat.v1.add_to_collections")
def add_to_collections(names, value):
    """Append `value` to each collection in `names`.

    >>> with tf.compat.v1.Graph().as_default():
    ...     tf.compat.v1.add_to_collections(["a", "b"], 1)
    ...     tf.compat.v1.get_collection("b")
    [1]
    """
    for name in [names] if isinstance(names, str) else names:
        add_to_collection(name, value)


@tf_export("compat.v1.global_variables")
def global_variables(scope=None):
    """The default graph's global variables (all variables but local ones); [] eagerly.

    >>> tf.compat.v1.global_variables()   # eager TF2 keeps no collections
    []
    """
    return get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


@tf_export("compat.v1.trainable_variables")
def trainable_variables(scope=None):
    """The default graph's trainable variables (what optimizers update); [] eagerly.

    >>> with tf.compat.v1.Graph().as_default():
    ...     a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b", trainable=False)
    ...     [v.name for v in tf.compat.v1.trainable_variables()]
    ['a:0']
    """
    return get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


@tf_export("compat.v1.local_variables")
def local_variables(scope=None):
    """Variables made with `collections=[GraphKeys.LOCAL_VARIABLES]` (e.g. metric counters)."""
    return get_collection(GraphKeys.LOCAL_VARIABLES, scope)


# --- initializers ------------------------------------------------------------------------
def _initializer_node(variable):
    """The op that gives `variable` its initial value in a session."""
    found = getattr(variable, "initializer", None)
    if found is not None:
        return found
    graph = get_default_graph()
    # A tf.Variable made in the graph computed its initial value once, when made.
    initial = graph.constant(convert_to_tensor(variable._value))
    node = graph.assign_variable(variable, initial, "assign").node
    variable.initializer = node
    return node


@tf_export("compat.v1.variables_initializer")
def variables_initializer(var_list, name="init"):
    """One op that assigns each variable of `var_list` its initial value.

    >>> with tf.compat.v1.Graph().as_default():
    ...     v = tf.Variable([1.0, 2.0])
    ...     init = tf.compat.v1.variables_initializer([v])
    ...     with tf.compat.v1.Session() as sess:
    ...         print(sess.run(init), sess.run(v))
    None [1. 2.]
    """
    from ...ops.graph_helper_ops import NoOp  # noqa: PLC0415 - ops sit above the framework

    if context.executing_eagerly():
        return None
    graph = get_default_graph()
    nodes = [_initializer_node(v) for v in var_list]
    return graph._add(NoOp, [n.outputs[0] for n in nodes], {}, (), (), name=name)


@tf_export("compat.v1.global_variables_initializer",
           "compat.v1.initialize_all_variables")
def global_variables_initializer():
    """`variables_initializer(global_variables())`: the op TF1 programs run first.

    >>> with tf.compat.v1.Graph().as_default():
    ...     init = tf.compat.v1.global_variables_initializer()
    ...     print(init.name, init.type)
    init NoOp
    """
    return variables_initializer(global_variables())


@tf_export("compat.v1.local_variables_initializer")
def local_variables_initializer():
    """`variables_initializer(local_variables())`."""
    return variables_initializer(local_variables(), name="init_1")


# --- variable scopes ---------------------------------------------------------------------
class _ReuseMode(enum.Enum):
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE
tf_export("compat.v1.AUTO_REUSE")(AUTO_REUSE)


@tf_export("compat.v1.VariableScope")
class VariableScope:
    """What `variable_scope` sets for the `get_variable` calls inside it: the name
    prefix, whether to reuse, and the default initializer and dtype.

    >>> with tf.compat.v1.variable_scope("a") as scope:
    ...     print(scope.name, scope.reuse)
    a False
    """

    def __init__(self, reuse, name="", initializer=None, dtype=dtypes.float32):
        self.name, self.reuse, self.initializer, self.dtype = name, reuse, initializer, dtype
        self.original_name_scope = f"{name}/" if name else ""

    def reuse_variables(self):
        """Share the variables of this scope from now on (as `reuse=True`)."""
        self.reuse = True

    def set_initializer(self, initializer):
        self.initializer = initializer


_scopes = threading.local()  # .stack: the open VariableScopes, innermost last


def _scope_stack():
    stack = getattr(_scopes, "stack", None)
    if stack is None:
        stack = _scopes.stack = [VariableScope(False)]
    return stack


@tf_export("compat.v1.get_variable_scope")
def get_variable_scope():
    """The innermost open variable scope (the root scope, named "", outside all).

    >>> tf.compat.v1.get_variable_scope().name
    ''
    """
    return _scope_stack()[-1]


def _default_name(graph, parent, name):
    """`name`, or `name_1`, `name_2`, ... when the parent scope used it before (as TF)."""
    used = _collections(graph).setdefault("__scope_names", {})
    full = f"{parent}/{name}" if parent else name
    count = used.get(full, 0)
    used[full] = count + 1
    return name if count == 0 else f"{name}_{count}"


@tf_export("compat.v1.variable_scope")
class variable_scope:  # noqa: N801 - TensorFlow's spelling
    """`with variable_scope("name", reuse=..., initializer=...):` - a scope for
    `get_variable`; inner scopes inherit reuse, initializer and dtype. Ops and
    `tf.Variable`s made inside get the same name prefix.

    >>> with tf.compat.v1.variable_scope("outer"):
    ...     with tf.compat.v1.variable_scope("inner") as scope:
    ...         scope.name
    'outer/inner'
    """

    def __init__(self, name_or_scope, default_name=None, values=None, initializer=None,
                 regularizer=None, caching_device=None, partitioner=None, custom_getter=None,
                 reuse=None, dtype=None, use_resource=None, constraint=None,
                 auxiliary_name_scope=True):
        if name_or_scope is None and default_name is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if reuse not in (None, True, False, AUTO_REUSE):
            raise ValueError(f"The reuse parameter must be True or False or None, got {reuse!r}")
        self._name_or_scope, self._default_name = name_or_scope, default_name
        self._initializer, self._reuse, self._dtype = initializer, reuse, dtype
        self._entered = []

    def __enter__(self):
        parent = get_variable_scope()
        given = self._name_or_scope
        if isinstance(given, VariableScope):
            full = given.name
            reuse, initializer, dtype = given.reuse, given.initializer, given.dtype
        else:
            name = given if given is not None else _default_name(
                get_default_graph(), parent.name, self._default_name)
            full = f"{parent.name}/{name}" if parent.name else name
            reuse, initializer, dtype = parent.reuse, parent.initializer, parent.dtype
        if self._reuse is not None and not (reuse is True and self._reuse is False):
            reuse = self._reuse  # reuse=False cannot switch off an outer reuse=True (as TF)
        scope = VariableScope(reuse, full,
                              initializer if self._initializer is None else self._initializer,
                              dtypes.as_dtype(self._dtype) if self._dtype else dtype)
        names = name_scope(f"{full}/" if full else "")
        names.__enter__()
        _scope_stack().append(scope)
        self._entered.append(names)
        return scope

    def __exit__(self, *exc):
        _scope_stack().pop()
        self._entered.pop().__exit__(*exc)
        return False


def _store(graph):
    return _collections(graph).setdefault("__variable_store", {})


@tf_export("compat.v1.get_variable")
def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO, aggregation=None):
    """The variable `<scope>/<name>`: a new one (error if it exists, unless the scope
    reuses), or the existing one when the scope has `reuse=True` / `AUTO_REUSE`.
    Without an initializer a float variable gets Glorot-uniform values, as in TF1.

    >>> with tf.compat.v1.Graph().as_default():
    ...     v = tf.compat.v1.get_variable("v", [2, 3])
    ...     print(v.name, v.shape)
    v:0 (2, 3)
    """
    scope = get_variable_scope()
    full = f"{scope.name}/{name}" if scope.name else name
    eager = context.executing_eagerly()
    store = None if eager else _store(get_default_graph())
    if store is not None and full in store:
        if scope.reuse is False:
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set "
                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
        found = store[full]
        if shape is not None and not TensorShape(shape).is_compatible_with(found.shape):
            raise ValueError(f"Trying to share variable {full}, but specified shape "
                             f"{TensorShape(shape)} and found shape {found.shape}.")
        return found
    if scope.reuse is True and not eager:
        raise ValueError(f"Variable {full} does not exist, or was not created with "
                         "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in VarScope?")
    variable = _new_variable(full, shape, dtype or scope.dtype,
                             scope.initializer if initializer is None else initializer,
                             trainable, synchronization)
    if store is not None:
        store[full] = variable
        local = collections is not None and GraphKeys.LOCAL_VARIABLES in collections
        variable._v1_local = local
        for key in collections or ():
            if key not in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES):
                add_to_collection(key, variable)
    return variable


def _new_variable(full, shape, dtype, initializer, trainable, synchronization):
    dtype = dtypes.as_dtype(dtype or dtypes.float32)
    if initializer is None:
        if dtype.is_floating:
            initializer = glorot_uniform_initializer()
        elif dtype.is_integer or dtype.is_bool or dtype == dtypes.string:
            initializer = zeros_initializer()
        else:
            raise ValueError(f"An initializer for variable {full} of {dtype.name} is required")
    if callable(initializer) and not isinstance(initializer, Tensor):
        if shape is None:
            raise ValueError(f"Variable {full} did not get an initializer, so its `shape` "
                             "argument must be specified.")
        if not TensorShape(shape).is_fully_defined():
            raise ValueError(f"Shape of a new variable ({full}) must be fully defined, but "
                             f"instead was {TensorShape(shape)}.")
        with name_scope(f"{full}/Initializer/"):
            initial = initializer(TensorShape(shape).as_list(), dtype=dtype)
    else:
        if shape is not None:
            raise ValueError("If initializer is a constant, do not specify shape.")
        initial = initializer
    with name_scope(""):  # get_variable's names ignore tf.name_scope; they take a graph name
        variable = Variable(initial, trainable=trainable, name=full, dtype=dtype,
                            synchronization=synchronization)
    variable._name = f"{full}:0"  # even when an op took the name first (TF does the same)
    graph = None if context.executing_eagerly() else get_default_graph()
    if graph is not None:  # the op that gives it its initial value in a session
        value = graph.symbolic(convert_to_tensor(initial, dtype=dtype))
        variable.initializer = graph.assign_variable(variable, value, "assign").node
    return variable


# --- TF1's initializers: the dtype is given when made, `__call__(shape, dtype=None)` ---------
class _Initializer:
    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return self._make(list(shape), dtypes.as_dtype(dtype or self.dtype))

    def get_config(self):
        return {"dtype": self.dtype.name}


@tf_export("compat.v1.zeros_initializer", "compat.v1.initializers.zeros")
class zeros_initializer(_Initializer):  # noqa: N801 - TensorFlow's spelling
    """Zeros.

    >>> tf.compat.v1.zeros_initializer()([2]).numpy()
    array([0., 0.], dtype=float32)
    """

    def _make(self, shape, dtype):
        from ...ops.creation_ops import zeros  # noqa: PLC0415

        return zeros(shape, dtype)


@tf_export("compat.v1.ones_initializer", "compat.v1.initializers.ones")
class ones_initializer(_Initializer):  # noqa: N801
    """Ones.

    >>> tf.compat.v1.ones_initializer(dtype=tf.int32)([2]).numpy()
    array([1, 1], dtype=int32)
    """

    def _make(self, shape, dtype):
        from ...ops.creation_ops import ones  # noqa: PLC0415

        return ones(shape, dtype)


@tf_export("compat.v1.constant_initializer", "compat.v1.initializers.constant")
class constant_initializer(_Initializer):  # noqa: N801
    """A constant `value` (a scalar fills the shape; a list is reshaped to it).

    >>> tf.compat.v1.constant_initializer([1, 2, 3, 4])([2, 2]).numpy().tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    """

    def __init__(self, value=0, dtype=dtypes.float32, verify_shape=False):
        super().__init__(dtype)
        self.value = value

    def _make(self, shape, dtype):
        from ...ops.creation_ops import constant  # noqa: PLC0415

        return constant(self.value, dtype=dtype, shape=shape)


@tf_export("compat.v1.random_normal_initializer", "compat.v1.initializers.random_normal")
class random_normal_initializer(_Initializer):  # noqa: N801
    """Normal draws with `mean` and `stddev`.

    >>> tf.compat.v1.random_normal_initializer(stddev=0.0, mean=1.0)([2]).numpy()
    array([1., 1.], dtype=float32)
    """

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        super().__init__(dtype)
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def _make(self, shape, dtype):
        from ...ops.random_ops import normal  # noqa: PLC0415

        return normal(shape, self.mean, self.stddev, dtype, seed=self.seed)


@tf_export("compat.v1.random_uniform_initializer", "compat.v1.initializers.random_uniform")
class random_uniform_initializer(_Initializer):  # noqa: N801
    """Uniform draws in [minval, maxval) (maxval None: 1 for floats).

    >>> 0 <= float(tf.compat.v1.random_uniform_initializer()([1])[0]) < 1
    True
    """

    def __init__(self, minval=0.0, maxval=None, seed=None, dtype=dtypes.float32):
        super().__init__(dtype)
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def _make(self, shape, dtype):
        from ...ops.random_ops import uniform  # noqa: PLC0415

        return uniform(shape, self.minval, self.maxval, dtype, seed=self.seed)


@tf_export("compat.v1.glorot_uniform_initializer", "compat.v1.initializers.glorot_uniform")
class glorot_uniform_initializer(_Initializer):  # noqa: N801
    """Uniform in ±sqrt(6 / (fan_in + fan_out)): get_variable's default for floats.

    >>> w = tf.compat.v1.glorot_uniform_initializer(seed=1)([3, 1]).numpy()
    >>> bool(abs(w).max() <= (6 / 4) ** 0.5)
    True
    """

    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(dtype)
        self.seed = seed

    def _make(self, shape, dtype):
        from ...ops.random_ops import uniform  # noqa: PLC0415

        fan_in, fan_out = _fans(shape)
        limit = math.sqrt(6.0 / max(1.0, fan_in + fan_out))
        return uniform(shape, -limit, limit, dtype, seed=self.seed)


def _fans(shape):
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive
