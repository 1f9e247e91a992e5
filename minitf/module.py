"""`tf.Module`: a named container that finds the variables it holds.

A module does not register its variables anywhere: `variables` walks the
object's attributes - and lists, tuples and dicts inside them, and other
modules inside those - every time you ask. So a plain assignment is all it
takes to "track" a variable:

>>> import minitf as tf
>>> class Linear(tf.Module):
...     def __init__(self, units, name=None):
...         super().__init__(name=name)
...         self.w = tf.Variable(tf.ones([2, units]), name="w")
...         self.b = tf.Variable(tf.zeros([units]), name="b")
...     def __call__(self, x):
...         return tf.matmul(x, self.w) + self.b
>>> class MLP(tf.Module):
...     def __init__(self):
...         super().__init__()
...         self.layers = [Linear(2), Linear(1)]
>>> mlp = MLP()
>>> mlp.name, [m.name for m in mlp.submodules]
('mlp', ['linear', 'linear'])
>>> [v.name for v in mlp.trainable_variables]
['b:0', 'w:0', 'b:0', 'w:0']

The order is TensorFlow's: attributes in sorted name order, each value
flattened like `tf.nest` (dict keys sorted); a module's own variables come
before those of its submodules, which are then visited in the order found.
Each object is listed once even if reachable twice (a shared layer).

In TensorFlow this is `tensorflow/python/module/module.py`; the attribute
walk is its `_flatten_module`.
"""
import functools
import re

from .framework import context, nest
from .framework.tf_export import tf_export

# Attributes that never hold tracked state (TF ignores the same kind of bookkeeping).
_IGNORED_ATTRIBUTES = frozenset(("_self_unconditional_checkpoint_dependencies",
                                 "_self_unconditional_dependency_names"))

_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_VALID_IDENTIFIER = re.compile(r"^[a-zA-Z_]([a-zA-Z0-9_])*$")

# tf.train's deferred restoration: while a restore waits for an attribute that does
# not exist yet, this holds one callback that `Module.__setattr__` calls (empty otherwise).
_on_assign = []

# The names of the `tf.name_scope`s currently open live in framework/context.py
# (per thread, next to the tape and graph stacks), so `tf.Variable` can read them.
_scope_stack = context.scope_stack


def camel_to_snake(value):
    """'BatchNormalization' -> 'batch_normalization' (TF's rule for default names).

    >>> camel_to_snake("MyMLP2Block")
    'my_mlp2_block'
    """
    return _CAMEL_TO_SNAKE.sub(r"_\1", value).lower()


@tf_export("name_scope")
class name_scope:  # noqa: N801 - TensorFlow's spelling
    """A context manager that prefixes names: `with tf.name_scope("dense"): ...`.

    Entering returns the full scope name (ending in "/"); scopes nest. A name
    ending in "/" is absolute: it replaces the current scope instead of nesting.

    >>> with tf.name_scope("outer") as outer:
    ...     with tf.name_scope("inner") as inner:
    ...         print(outer, inner)
    outer/ outer/inner/

    Variables created inside a scope get its prefix, as in eager TensorFlow:

    >>> with tf.name_scope("outer"):
    ...     tf.Variable(1.0, name="q").name
    'outer/q:0'
    """

    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError(f"name for name_scope must be a string, got {name!r}. Pass the "
                            "scope's name as text, e.g. tf.name_scope('dense').")
        self._name = name
        self._entered = []

    @property
    def name(self):
        return self._name

    def __enter__(self):
        if not self._name:
            scope = ""
        elif self._name.endswith("/"):
            scope = self._name
        else:
            scope = (_scope_stack[-1] if _scope_stack else "") + self._name + "/"
        _scope_stack.append(scope)
        self._entered.append(scope)
        return scope

    def __exit__(self, *exc):
        _scope_stack.pop()
        self._entered.pop()
        return False


def _current_scope():
    return context.current_name_scope()


@tf_export("Module")
class Module:
    """Base class for objects that hold variables and other modules.

    name: defaults to the class name in snake_case ('MyModel' -> 'my_model');
    it must be a valid Python identifier.

    >>> m = tf.Module(name="box")
    >>> m.v = tf.Variable(1.0, name="v")
    >>> m.frozen = tf.Variable(2.0, trainable=False, name="frozen")
    >>> [v.name for v in m.variables], [v.name for v in m.trainable_variables]
    (['frozen:0', 'v:0'], ['v:0'])
    """

    _TF_MODULE_IGNORED_PROPERTIES = _IGNORED_ATTRIBUTES

    def __init__(self, name=None):
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not valid_identifier(name):
            raise ValueError(
                f"{name!r} is not a valid module name. Module names must be valid Python "
                "identifiers (e.g. a valid class name). Use letters, digits and underscores, "
                "not starting with a digit.")
        self._name = name
        self._scope_name = _current_scope() + name + "/"

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if _on_assign:  # a checkpoint restore is waiting for attributes to appear
            _on_assign[0](self, name, value)

    @property
    def name(self):
        """The module's name, as given to (or derived by) the constructor."""
        return self._name

    @property
    def name_scope(self):
        """A `tf.name_scope` for this module: `with self.name_scope: ...`."""
        return name_scope(self._scope_name)

    @property
    def variables(self):
        """Every `tf.Variable` held by this module and its submodules, each once."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self):
        """The variables with `trainable=True` (what an optimizer updates)."""
        return tuple(self._flatten(predicate=_is_trainable_variable))

    @property
    def non_trainable_variables(self):
        """The variables with `trainable=False` (e.g. BatchNormalization's moving mean)."""
        return tuple(self._flatten(predicate=_is_non_trainable_variable))

    @property
    def submodules(self):
        """Every module reachable from this one (not itself): its direct children first
        (in attribute order), then each child's own submodules in turn."""
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None,
                 with_path=False, expand_composites=False):
        """Every object reachable from this module's attributes for which `predicate` holds."""
        predicate = predicate or (lambda _: True)
        ignored = getattr(self, "_TF_MODULE_IGNORED_PROPERTIES", _IGNORED_ATTRIBUTES)
        return _flatten_module(self, recursive, predicate, attribute_traversal_key, ignored,
                               with_path, seen={id(self)}, path=(), stack=[])

    @classmethod
    def with_name_scope(cls, method):
        """Decorator: run `method` inside `self.name_scope`.

        >>> class Scoped(tf.Module):
        ...     @tf.Module.with_name_scope
        ...     def scope(self):
        ...         with tf.name_scope("x") as scope:
        ...             return scope
        >>> Scoped().scope()
        'scoped/x/'
        """
        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)

        return method_with_name_scope


def _flatten_module(module, recursive, predicate, traversal_key, ignored, with_path, seen,
                    path, stack):
    """TF's walk: this module's matching leaves first, then recurse into submodules.

    Attributes are visited in sorted order and each value is flattened like
    `tf.nest.flatten` (so a dict's entries in sorted key order). `seen` keeps
    every object to its first appearance; `stack` stops cycles (a module that
    holds its parent).
    """
    if id(module) in stack:
        recursive = False
    attributes = vars(module)
    submodules = []
    for key in sorted(attributes, key=traversal_key):
        if key in ignored:
            continue
        for leaf_path, leaf in _leaves_with_paths(attributes[key], (key,)):
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (path + leaf_path, leaf) if with_path else leaf
            if recursive and _is_module(leaf):
                submodules.append((path + leaf_path, leaf))
    stack.append(id(module))
    for sub_path, submodule in submodules:
        yield from _flatten_module(submodule, recursive, predicate, traversal_key, ignored,
                                   with_path, seen, sub_path, stack)
    stack.pop()


def _leaves_with_paths(value, prefix):
    """(path, leaf) pairs of a nested list/tuple/dict, in `tf.nest.flatten` order."""
    if not nest.is_nested(value):
        return [(prefix, value)]
    keys = sorted(value) if isinstance(value, dict) else range(len(value))
    pairs = []
    for k in keys:
        pairs.extend(_leaves_with_paths(value[k], prefix + (k,)))
    return pairs


def valid_identifier(name):
    return bool(_VALID_IDENTIFIER.match(name))


def _is_variable(obj):
    return getattr(obj, "_is_variable", False) is True and not isinstance(obj, type)


def _is_trainable_variable(obj):
    return _is_variable(obj) and getattr(obj, "trainable", False)


def _is_non_trainable_variable(obj):
    return _is_variable(obj) and not getattr(obj, "trainable", False)


def _is_module(obj):
    return isinstance(obj, Module)
