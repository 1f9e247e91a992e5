"""tf.keras.tree: Keras 3's pytree rules (None is a leaf, list != tuple, OrderedDict order)."""
import collections
import json
import warnings

import pytest

import minitf as tf
from real_tf import run_tf_json

tree = tf.keras.tree
P = collections.namedtuple("P", ["x", "y"])
Q = collections.namedtuple("Q", ["x", "y"])
OD = collections.OrderedDict


def test_flatten_orders_dicts_by_key_and_keeps_none():
    assert tree.flatten({"b": 1, "a": {"d": 2, "c": 3}}) == [3, 2, 1]
    assert tree.flatten(OD([("b", 1), ("a", 2)])) == [1, 2]
    assert tree.flatten([None, (None, {"a": None})]) == [None, None, None]
    assert tree.flatten("abc") == ["abc"] and tree.flatten([]) == []
    assert tree.flatten(collections.deque([1, [2]])) == [1, 2]


def test_flatten_with_path_gives_indices_and_keys():
    got = tree.flatten_with_path({"b": [1, (2, None)], "a": P(3, 4)})
    assert got == [(("a", 0), 3), (("a", 1), 4), (("b", 0), 1), (("b", 1, 0), 2),
                   (("b", 1, 1), None)]
    assert tree.flatten_with_path(5) == [((), 5)]


def test_is_nested():
    assert [tree.is_nested(x) for x in (42, None, "ab", {1, 2}, [], P(1, 2), {"a": 1})] == [
        False, False, False, False, True, True, True]


def test_map_structure_rebuilds_the_first_structures_types():
    assert tree.map_structure(lambda v: v * 2, P(1, 2)) == P(2, 4)
    got = tree.map_structure(lambda a, b: a + b, OD([("b", 1), ("a", 2)]), {"a": 10, "b": 20})
    assert type(got) is OD and list(got.items()) == [("b", 21), ("a", 12)]
    assert tree.map_structure(str, [None, 1]) == ["None", "1"]
    assert tree.map_structure(str, [None, 1], none_is_leaf=False) == [None, "1"]


@pytest.mark.parametrize("a, b, message", [
    ([1, 2], (1, 2), "Expected an instance of list, got (1, 2)."),
    ([1, 2], [1, [2]], "Structures don't have the same nested structure."),
    ({"a": 1}, {"b": 2}, "dictionary key mismatch; expected key(s): ['a'], got key(s): ['b'], "
                         "missing key(s): ['a'], extra key(s): ['b']; dict: {'b': 2}."),
    ([1, 2], [1, 2, 3], "list arity mismatch; expected: 2, got: 3; list: [1, 2, 3]."),
])
def test_map_structure_mismatches_raise_value_error(a, b, message):
    with pytest.raises(ValueError) as err:
        tree.map_structure(lambda x, y: x, a, b)
    assert str(err.value) == message


def test_map_structure_up_to_passes_deeper_parts_whole():
    assert tree.map_structure_up_to([0, [0, 0]], str, [[1, 1], [2, 2]]) == ["[1, 1]", ["2", "2"]]
    with pytest.raises(ValueError, match="same nested structure"):  # None leaves: as Keras 3.15
        tree.map_structure_up_to([None, None], len, [[1, 1], [2, 2]])
    with pytest.raises(ValueError, match="at least one structure"):
        tree.map_structure_up_to([0], len)


def test_assert_same_structure_and_paths():
    tree.assert_same_structure({"a": 1}, OD(a=2))
    with pytest.raises(ValueError, match="namedtuple type mismatch"):
        tree.assert_same_structure(P(0, 1), Q(2, 3))
    tree.assert_same_paths(P(0, 1), [2, 3])
    with pytest.raises(ValueError, match=r"Paths in `a` missing in `b`:\n\{\(1,\)\}"):
        tree.assert_same_paths([1, 2], [1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tree.assert_same_structure([1], [1], check_types=False)
    assert "assert_same_paths" in str(caught[0].message)


def test_pack_sequence_as_keeps_dict_key_order_and_counts_leaves():
    got = tree.pack_sequence_as(collections.defaultdict(int, {"b": 1, "a": 2}), [10, 20])
    assert type(got) is collections.defaultdict and list(got.items()) == [("b", 20), ("a", 10)]
    with pytest.raises(ValueError, match="Too few leaves for PyTreeSpec; expected: 2, got: 1"):
        tree.pack_sequence_as([1, 2], [5])
    with pytest.raises(TypeError, match="must be an iterable"):
        tree.pack_sequence_as([1], 5)


def test_traverse_lists_to_tuples_and_map_shape_structure():
    assert tree.traverse(lambda x: tree.MAP_TO_NONE if isinstance(x, tuple) else None,
                         [(1, 2), [3]]) == [None, [3]]
    assert tree.traverse(lambda x: x * 10 if isinstance(x, int) else None,
                         [(1, 2), {"a": 3}], top_down=False) == [(10, 20), {"a": 30}]
    assert tree.lists_to_tuples([1, [2, {"a": [3]}], (4, [5])]) == (1, (2, {"a": (3,)}), (4, (5,)))
    assert tree.map_shape_structure(len, [(1, None), {"a": [2, 3, 4]}, (None,)]) == [2, {"a": 3}, 1]


CASES = [
    "tree.flatten({100: 'world!', 6: 'Hello'})", "tree.flatten(DD)", "tree.flatten(P(1, [2, 3]))",
    "tree.flatten({'a': 1, 2: 3})", "tree.flatten_with_path(OD([('b', 1), ('a', 2)]))",
    "tree.map_structure(str, DD)", "tree.map_structure(str, None, none_is_leaf=False)",
    "tree.map_structure(lambda a, b: a, {'a': 1}, [1])",
    "tree.map_structure(lambda a, b: a, [1, [2]], [1, 2])",
    "tree.map_structure(lambda a, b: a, P(1, 2), (1, 2))",
    "tree.map_structure(lambda a, b: (a, b), [1, None], [None, 2], none_is_leaf=False)",
    "tree.map_structure(lambda a, b: a, {'a': 1}, {'a': 1, 'b': 2})",
    "tree.map_structure(lambda a, b: a, 1, [1])", "tree.map_structure(str)",
    "tree.map_structure(lambda a: a, collections.deque([1, 2], maxlen=3))",
    "tree.map_structure_up_to([0, 0], lambda a, b: a+b, [[1], [2]], [[3], [4]])",
    "tree.map_structure_up_to([None, [None, None]], str, [[1, 1], 2])",
    "tree.assert_same_structure({'a': 1}, DD)", "tree.assert_same_structure(1, 'abc')",
    "tree.assert_same_structure([1, 2], [1, [2]])", "tree.assert_same_paths({'a': [1]}, {'a': (1,)})",
    "tree.pack_sequence_as({'b': 0, 'a': [0]}, iter([1, 2]))",
    "tree.pack_sequence_as([1, 2], [5, 6, 7])", "tree.pack_sequence_as(P(1, [2]), (5, 6))",
    "tree.pack_sequence_as(None, [5])", "tree.lists_to_tuples(collections.deque([[1]]))",
    "tree.map_shape_structure(str, [True, 2])", "tree.map_shape_structure(str, ((), [1, 2]))",
    "tree.traverse(lambda x: 0 if isinstance(x, tuple) else None, [(1, 2), [3, (4,)]])",
    "tree.is_nested(collections.deque())", "tree.MAP_TO_NONE.__name__",
]
PRELUDE = """
import collections
P = collections.namedtuple("P", ["x", "y"])
OD = collections.OrderedDict
DD = collections.defaultdict(int, {"b": 1, "a": 2})
def outcome(case):
    try:
        return repr(eval(case))
    except Exception as e:
        return f"{type(e).__name__}: {e}"
"""


def test_same_results_and_errors_as_real_keras():
    code = ("import json\nfrom keras import tree\n" + PRELUDE +
            f"print(json.dumps([outcome(c) for c in {CASES!r}]))")
    theirs = run_tf_json(code)
    scope = {"tree": tree}
    exec(PRELUDE, scope)
    assert [scope["outcome"](case) for case in CASES] == theirs
