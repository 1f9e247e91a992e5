"""tf.nest: flatten / pack_sequence_as / map_structure, dicts in sorted key order."""
import collections

import pytest

import minitf as tf


def test_flatten_visits_dicts_in_sorted_key_order():
    assert tf.nest.flatten({"b": [1, 2], "a": 3}) == [3, 1, 2]
    assert tf.nest.flatten(5) == [5]
    assert tf.nest.flatten([None, (1, [2])]) == [None, 1, 2]


def test_pack_sequence_as_rebuilds_the_structure():
    Point = collections.namedtuple("Point", "x y")
    structure = {"p": Point(0, 0), "a": [0, (0,)]}
    packed = tf.nest.pack_sequence_as(structure, [1, 2, 3, 4])
    assert packed == {"a": [1, (2,)], "p": Point(3, 4)}
    assert isinstance(packed["p"], Point)


def test_pack_sequence_as_counts_atoms():
    with pytest.raises(ValueError, match="Structure had 2 atoms, but flat_sequence had 3"):
        tf.nest.pack_sequence_as([0, 0], [1, 2, 3])


def test_map_structure_and_structure_checks():
    assert tf.nest.map_structure(lambda a, b: a + b, (1, [2]), (10, [20])) == (11, [22])
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.nest.map_structure(lambda a, b: a, (1, 2), [1, 2])
    tf.nest.assert_same_structure((1, 2), [3, 4], check_types=False)


def test_deep_nesting_is_iterative():
    deep = 0
    for _ in range(5000):
        deep = [deep]
    assert tf.nest.flatten(deep) == [0]
