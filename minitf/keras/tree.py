"""`tf.keras.tree`: Keras 3's rules for nested structures (its own, not `tf.nest`'s).

A structure is a tree: lists, tuples, namedtuples, dicts (`OrderedDict`,
`defaultdict`) and deques are its inner nodes, everything else - `None`
included - is a leaf. Dicts are read in sorted key order, an `OrderedDict` in
its own order.

>>> import minitf as tf
>>> tf.keras.tree.flatten({"b": [1, None], "a": 3})
[3, 1, None]
>>> tf.keras.tree.flatten_with_path({"b": [1, None], "a": 3})
[(('a',), 3), (('b', 0), 1), (('b', 1), None)]
>>> tf.keras.tree.map_structure(lambda v: v * 10, {"b": (1, 2), "a": 3})
{'b': (10, 20), 'a': 30}
>>> tf.keras.tree.pack_sequence_as(((0, 0), [0]), [1, 2, 3])
((1, 2), [3])

Where Keras differs from `tf.nest`: a list and a tuple are different trees
(`assert_same_structure([1], (1,))` raises; `assert_same_paths` does not), and
a dict matches an `OrderedDict` with the same keys. `map_structure_up_to`
cannot take `None` as a leaf of its shallow structure (Keras 3.15 rejects it).

In TensorFlow this is `keras/src/tree/tree_api.py`, on top of the `optree`
library (`optree_impl.py`); here the pytree walk is written out below.
"""
import collections as _collections
import warnings as _warnings

from ..framework.tf_export import tf_export

_DICT_NAMES = "dict, collections.OrderedDict, or collections.defaultdict"


# --- the tree's nodes: what counts as a node, its children and how to rebuild it -----------
def _kind(x, none_is_leaf=True):
    """'list', 'tuple', 'namedtuple', 'dict', 'deque', 'none' for inner nodes, else None.

    Like optree, only these exact types are nodes: a subclass of list is a leaf."""
    if x is None:
        return None if none_is_leaf else "none"
    if type(x) in (dict, _collections.OrderedDict, _collections.defaultdict):
        return "dict"
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):
        return "namedtuple"
    return {list: "list", tuple: "tuple", _collections.deque: "deque"}.get(type(x))


def _sorted_keys(d):
    if type(d) is _collections.OrderedDict:
        return list(d)
    try:
        return sorted(d)
    except TypeError:  # mixed key types: optree orders by type name, then value
        return sorted(d, key=lambda k: (type(k).__qualname__, k))


def _entries(x):
    """(keys, children) of an inner node: indices for sequences, keys for dicts."""
    if isinstance(x, dict):
        keys = _sorted_keys(x)
        return keys, [x[k] for k in keys]
    if x is None:
        return [], []
    return list(range(len(x))), list(x)


def _rebuild(x, children):
    """A node of the same type as `x` holding `children` (dicts keep their key order)."""
    if isinstance(x, dict):
        by_key = dict(zip(_sorted_keys(x), children))
        items = [(k, by_key[k]) for k in x]
        if type(x) is _collections.defaultdict:
            return _collections.defaultdict(x.default_factory, items)
        return type(x)(items)
    if x is None:
        return None
    if hasattr(type(x), "_fields"):
        return type(x)(*children)
    if type(x) is _collections.deque:
        return _collections.deque(children, maxlen=x.maxlen)
    return type(x)(children)


def _leaves(structure, none_is_leaf=True, path=(), is_leaf=None):
    """[(path, leaf)] in Keras's order, depth first."""
    if (is_leaf is not None and is_leaf(structure)) or _kind(structure, none_is_leaf) is None:
        return [(path, structure)]
    out = []
    for key, child in zip(*_entries(structure)):
        out.extend(_leaves(child, none_is_leaf, path + (key,), is_leaf))
    return out


def _unflatten(structure, leaves, none_is_leaf=True, is_leaf=None):
    """Rebuild `structure` with the values taken in order from the iterator `leaves`."""
    if (is_leaf is not None and is_leaf(structure)) or _kind(structure, none_is_leaf) is None:
        return next(leaves)
    children = [_unflatten(c, leaves, none_is_leaf, is_leaf) for c in _entries(structure)[1]]
    return _rebuild(structure, children)


def _expected(kind):
    return {"namedtuple": "collections.namedtuple", "dict": _DICT_NAMES,
            "deque": "collections.deque"}.get(kind, kind)


def _check_node(spec, other, kind):
    """Raise Keras's ValueError when `other` is not the same kind of node as `spec`."""
    if kind == "none":
        if other is not None:
            raise ValueError(f"Expected None, got {other!r}.")
        return
    if _kind(other, False) != kind:
        raise ValueError(f"Expected an instance of {_expected(kind)}, got {other!r}.")
    if kind == "namedtuple" and type(other) is not type(spec):
        raise ValueError(f"namedtuple type mismatch; expected type: {type(spec)!r}, got type: "
                         f"{type(other)!r}; tuple: {other!r}.")
    if kind == "dict" and set(spec) != set(other):
        want, got = _sorted_keys(dict.fromkeys(spec)), _sorted_keys(dict.fromkeys(other))
        missing = [k for k in want if k not in other]
        extra = [k for k in got if k not in spec]
        text = f"dictionary key mismatch; expected key(s): {want}, got key(s): {got}"
        text += f", missing key(s): {missing}" if missing else ""
        text += f", extra key(s): {extra}" if extra else ""
        raise ValueError(f"{text}; dict: {other!r}.")
    if kind != "dict" and len(spec) != len(other):
        raise ValueError(f"{type(other).__name__} arity mismatch; expected: {len(spec)}, got: "
                         f"{len(other)}; {type(other).__name__}: {other!r}.")


def _flatten_up_to(spec, other, none_is_leaf=True):
    """`other`'s subtrees at the places of `spec`'s leaves (they may be nested further)."""
    kind = _kind(spec, none_is_leaf)
    if kind is None:
        return [other]
    _check_node(spec, other, kind)
    if kind == "dict":
        pairs = [(spec[k], other[k]) for k in _sorted_keys(spec)]
    else:
        pairs = list(zip(_entries(spec)[1], _entries(other)[1]))
    out = []
    for spec_child, other_child in pairs:
        out.extend(_flatten_up_to(spec_child, other_child, none_is_leaf))
    return out


def _tree_map(func, structure, *others, none_is_leaf=True, check=None):
    """optree's tree_map: `structure` decides where the leaves are."""
    firsts = [leaf for _, leaf in _leaves(structure, none_is_leaf)]
    columns = [_flatten_up_to(structure, other, none_is_leaf) for other in others]
    results = []
    for args in zip(firsts, *columns):
        if check is not None:
            check(*args)
        results.append(func(*args))
    return _unflatten(structure, iter(results), none_is_leaf)


def _not_same(*_args):
    raise ValueError("Structures don't have the same nested structure.")


# --- the public API --------------------------------------------------------------------------
@tf_export("keras.tree.MAP_TO_NONE")
class MAP_TO_NONE:
    """Special value for use with `traverse()`: replace a subtree by `None`."""


@tf_export("keras.tree.is_nested")
def is_nested(structure):
    """True for a list, tuple, namedtuple, dict or deque; `None` and strings are leaves.

    >>> import minitf as tf
    >>> tf.keras.tree.is_nested(42), tf.keras.tree.is_nested({"foo": 42})
    (False, True)
    """
    return _kind(structure) is not None


@tf_export("keras.tree.flatten")
def flatten(structure):
    """The leaves of `structure` in a list (dicts by sorted key, `None` kept).

    >>> import minitf as tf
    >>> tf.keras.tree.flatten([[1, 2, 3], [4, [5], [[6]]]]), tf.keras.tree.flatten(None)
    ([1, 2, 3, 4, 5, 6], [None])
    """
    return [leaf for _, leaf in _leaves(structure)]


@tf_export("keras.tree.flatten_with_path")
def flatten_with_path(structure):
    """`(path, leaf)` pairs; a path is the tuple of indices and keys leading to the leaf.

    >>> import minitf as tf
    >>> tf.keras.tree.flatten_with_path([{"foo": 42}])
    [((0, 'foo'), 42)]
    """
    return _leaves(structure)


@tf_export("keras.tree.map_structure")
def map_structure(func, *structures, none_is_leaf=True):
    """`func` applied leaf by leaf to structures of the same layout.

    >>> import minitf as tf
    >>> tf.keras.tree.map_structure(lambda x, y: x * y, [[1], [2]], [[3], [4]])
    [[3], [8]]
    >>> tf.keras.tree.map_structure(str, [None, 1], none_is_leaf=False)
    [None, '1']
    """
    if len(structures) == 1 and not is_nested(structures[0]):
        if structures[0] is None and not none_is_leaf:
            return None
        return func(structures[0])
    if not structures:
        raise ValueError("Must provide at least one structure")

    def check(*args):
        if any(_kind(a, none_is_leaf) is not None for a in args):
            _not_same()

    return _tree_map(func, *structures, none_is_leaf=none_is_leaf,
                     check=check if len(structures) > 1 else None)


@tf_export("keras.tree.map_structure_up_to")
def map_structure_up_to(shallow_structure, func, *structures):
    """`map_structure` down to the leaves of `shallow_structure` only; deeper parts pass whole.

    >>> import minitf as tf
    >>> tf.keras.tree.map_structure_up_to([0, [0, 0]], str, [[1, 1], [2, 2]])
    ['[1, 1]', ['2', '2']]

    The shallow structure's leaves must not be `None` (Keras 3.15 raises ValueError).
    """
    if not structures:
        raise ValueError("Must provide at least one structure")

    def check(shallow, *args):
        if shallow is None:
            _not_same()

    return _tree_map(lambda shallow, *args: func(*args), shallow_structure, *structures,
                     check=check)


@tf_export("keras.tree.assert_same_structure")
def assert_same_structure(a, b, check_types=None):
    """Raise ValueError unless `a` and `b` nest the same node types the same way.

    >>> import minitf as tf
    >>> tf.keras.tree.assert_same_structure([(0, 1)], [(2, 3)])
    >>> tf.keras.tree.assert_same_structure([0, 1], (0, 1))
    Traceback (most recent call last):
    ValueError: Expected an instance of list, got (0, 1).
    """
    if check_types is not None:
        more = ("" if check_types else " For a looser check, use `keras.tree.assert_same_paths()`, "
                "which considers `list`, `tuple`, `namedtuple` and `deque` as matching")
        _warnings.warn("The `check_types` argument is deprecated and no longer has any effect"
                       + (", please remove." if check_types else "." + more),
                       DeprecationWarning, stacklevel=2)

    def check(x, y):
        if _kind(x) is not None or _kind(y) is not None:
            _not_same()

    _tree_map(lambda x, y: None, a, b, check=check)


@tf_export("keras.tree.assert_same_paths")
def assert_same_paths(a, b):
    """Raise ValueError unless `a` and `b` have the same leaf paths (node types may differ).

    >>> import minitf as tf
    >>> tf.keras.tree.assert_same_paths([0, 1], (2, 3))
    """
    a_paths = {path for path, _ in _leaves(a)}
    b_paths = {path for path, _ in _leaves(b)}
    if a_paths != b_paths:
        msg = "`a` and `b` don't have the same paths."
        if a_paths - b_paths:
            msg += f"\nPaths in `a` missing in `b`:\n{a_paths - b_paths}"
        if b_paths - a_paths:
            msg += f"\nPaths in `b` missing in `a`:\n{b_paths - a_paths}"
        raise ValueError(msg)


@tf_export("keras.tree.pack_sequence_as")
def pack_sequence_as(structure, flat_sequence):
    """Put the values of `flat_sequence` into the layout of `structure` (the inverse of flatten).

    >>> import minitf as tf
    >>> tf.keras.tree.pack_sequence_as({"key3": "", "key1": "", "key2": ""}, ["v1", "v2", "v3"])
    {'key3': 'v3', 'key1': 'v1', 'key2': 'v2'}
    """
    try:
        values = list(flat_sequence)
    except TypeError:
        raise TypeError(f"`flat_sequence` must be an iterable of leaves (a list), got "
                        f"{flat_sequence!r}.") from None
    expected = len(_leaves(structure))
    if len(values) < expected:
        raise ValueError(f"Too few leaves for PyTreeSpec; expected: {expected}, "
                         f"got: {len(values)}.")
    if len(values) > expected:
        raise ValueError(f"Too many leaves for PyTreeSpec; expected: {expected}.")
    return _unflatten(structure, iter(values))


@tf_export("keras.tree.traverse")
def traverse(func, structure, top_down=True):
    """Call `func` on every subtree, parents first (or last with `top_down=False`).

    A result that is not None replaces the subtree (and, top down, stops the walk there);
    return `MAP_TO_NONE` to replace it by None.

    >>> import minitf as tf
    >>> seen = []
    >>> tf.keras.tree.traverse(seen.append, [(1, 2), {"a": 3}])
    [(1, 2), {'a': 3}]
    >>> seen
    [[(1, 2), {'a': 3}], (1, 2), 1, 2, {'a': 3}, 3]
    """
    def children_traversed():
        if _kind(structure) is None:
            return structure
        return _rebuild(structure, [traverse(func, c, top_down) for c in _entries(structure)[1]])

    if top_down:
        result = func(structure)
        if result is None:
            return children_traversed()
    else:
        walked = children_traversed()
        result = func(walked)
        if result is None:
            return walked
    return None if result is MAP_TO_NONE else result


@tf_export("keras.tree.lists_to_tuples")
def lists_to_tuples(structure):
    """The same structure with every list made a tuple.

    >>> import minitf as tf
    >>> tf.keras.tree.lists_to_tuples([1, [2, {"a": [3]}]])
    (1, (2, {'a': (3,)}))
    """
    return traverse(lambda x: tuple(x) if isinstance(x, list) else None, structure,
                    top_down=False)


def _is_shape_tuple(x):
    return isinstance(x, (list, tuple)) and all(isinstance(e, (int, type(None))) for e in x)


@tf_export("keras.tree.map_shape_structure")
def map_shape_structure(func, structure):
    """`map_structure` that treats a list or tuple of ints and Nones as one leaf (a shape).

    >>> import minitf as tf
    >>> tf.keras.tree.map_shape_structure(len, [(1, None), {"a": [2, 3, 4]}])
    [2, {'a': 3}]
    """
    leaves = [func(leaf) for _, leaf in _leaves(structure, is_leaf=_is_shape_tuple)]
    return _unflatten(structure, iter(leaves), is_leaf=_is_shape_tuple)


del tf_export  # an implementation import: Keras's namespace does not show it
