"""`tf.nest`: flatten and rebuild nested lists, tuples and dicts.

Dict entries are visited in sorted key order, as in TensorFlow.

>>> import minitf as tf
>>> tf.nest.flatten({"b": [1, 2], "a": 3})
[3, 1, 2]
>>> tf.nest.pack_sequence_as({"b": [0, 0], "a": 0}, [30, 10, 20])
{'a': 30, 'b': [10, 20]}
"""
from . import composite_tensor


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(x, "_fields")


def is_nested(structure):
    return isinstance(structure, (list, tuple, dict))


def _children(structure):
    if isinstance(structure, dict):
        return [structure[k] for k in sorted(structure)]
    return list(structure)


def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first (iteratively, so deep nests are fine).

    With `expand_composites=True` a RaggedTensor or SparseTensor gives its component
    tensors (framework/composite_tensor.py), as in TF:

    >>> [t.numpy().tolist() for t in tf.nest.flatten(
    ...     tf.ragged.constant([[1], [2, 3]]), expand_composites=True)]
    [[1, 2, 3], [0, 1, 3]]
    """
    if expand_composites:
        return composite_tensor.expand(flatten(structure))
    if not is_nested(structure):
        return [structure]
    leaves, stack = [], [structure]
    while stack:
        item = stack.pop()
        if is_nested(item):
            stack.extend(reversed(_children(item)))
        else:
            leaves.append(item)
    return leaves


def _rebuild(template, children):
    if isinstance(template, dict):
        keys = sorted(template)
        return type(template)((k, children[i]) for i, k in enumerate(keys))
    if _is_namedtuple(template):
        return type(template)(*children)
    if isinstance(template, tuple):
        return tuple(children)
    return list(children)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """The inverse of `flatten`: put `flat_sequence` back into `structure`'s shape."""
    flat_sequence = list(flat_sequence)
    if expand_composites:  # each composite of `structure` rebuilt from its components
        leaves = flatten(structure)
        if len(composite_tensor.expand(leaves)) == len(flat_sequence):
            flat_sequence = composite_tensor.rebuild(leaves, flat_sequence)
    expected = len(flatten(structure))
    if expected != len(flat_sequence):
        raise ValueError(
            f"Could not pack sequence. Structure had {expected} atoms, but flat_sequence had "
            f"{len(flat_sequence)} items.")
    position = [0]

    def build(template):
        if not is_nested(template):
            value = flat_sequence[position[0]]
            position[0] += 1
            return value
        return _rebuild(template, [build(child) for child in _children(template)])

    return build(structure)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    def shape_of(s):
        if not is_nested(s):
            return "*"
        kind = type(s).__name__ if check_types else ("dict" if isinstance(s, dict) else "seq")
        keys = sorted(s) if isinstance(s, dict) else None
        return (kind, keys, [shape_of(c) for c in _children(s)])

    if shape_of(nest1) != shape_of(nest2):
        raise ValueError(
            "The two structures don't have the same nested structure.\n\n"
            f"First structure: {nest1}\n\nSecond structure: {nest2}")


def map_structure(func, *structures, **kwargs):
    """Apply `func` leaf by leaf to structures of the same shape."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types=kwargs.get("check_types", True))
    expand = kwargs.get("expand_composites", False)
    flats = [flatten(s, expand) for s in structures]
    return pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flats)], expand)
