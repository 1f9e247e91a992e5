"""Philox4x32-10 (minitf/ops/philox.py) without TensorFlow: Random123's known-answer
vectors, TF's seed scrambling, 128-bit counter carries, the bits-to-number conversions,
and numbers real TF 2.21 printed (recorded here, so they hold without TF installed)."""
import numpy as np
import pytest

import minitf as tf
from minitf.ops import philox

# Random123's kat_vectors for philox4x32_10: (counter, key, expected output), hex words
KAT = [
    ([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    ([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    ([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0],
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
]


@pytest.mark.parametrize("counter, key, expected", KAT)
def test_random123_known_answers(counter, key, expected):
    out = philox.philox4x32(np.array([counter], np.uint32), key)
    assert out.dtype == np.uint32 and out[0].tolist() == expected


def test_vectorised_rows_equal_single_rows():
    counters = np.array([c for c, _, _ in KAT[:2]] * 3, np.uint32)
    rows = philox.philox4x32(counters, (5, 6))
    for i, c in enumerate(counters):
        assert rows[i].tolist() == philox.philox4x32(c[None], (5, 6))[0].tolist()


def test_counter_addition_carries_into_the_high_words():
    counter = philox.counter_from_int(2**64 - 2)
    words = philox._counters(counter, np.arange(4, dtype=np.uint64))
    values = [philox.counter_to_int(w) for w in words.tolist()]
    assert values == [2**64 - 2, 2**64 - 1, 2**64, 2**64 + 1]
    top = philox._counters(philox.counter_from_int(2**128 - 1), np.array([1], np.uint64))
    assert philox.counter_to_int(top[0].tolist()) == 0  # wraps like a 128-bit integer


def test_seed_scrambling_is_philox_of_the_seed_under_tfs_key():
    key, counter = philox.key_counter_from_seed(1, 2)
    mix = philox.philox4x32(np.array([[1, 0, 2, 0]], np.uint32), philox.SEED_SCRAMBLE_KEY)[0]
    assert key == (mix[0], mix[1]) and counter == (0, 0, mix[2], mix[3])
    # an int32 seed of -1 is sign-extended to 64 bits, like an int64 -1
    assert philox.key_counter_from_seed(-1, 0) == philox.key_counter_from_seed(2**64 - 1, 0)


def test_bits_to_floats_cover_zero_up_to_just_below_one():
    words = np.array([0, 0xFFFFFFFF], np.uint32)
    f32, f16 = philox.words_to_float32(words), philox.words_to_float16(words)
    f64 = philox.words_to_float64(words, words)
    assert f32.tolist() == [0.0, 1 - 2**-23] and f16.tolist() == [0.0, 1 - 2**-10]
    assert f64.tolist() == [0.0, 1 - 2**-52]


def test_integers_are_lo_plus_bits_mod_range():
    key, counter = philox.key_counter_from_seed(3, 4)
    words = philox.random_words(key, counter, 2)
    got = philox.uniform_int(key, counter, (8,), np.int32, -5, 7)
    assert got.tolist() == (words.astype(np.int64) % 12 - 5).tolist()
    wide = philox.uniform_full_int(key, counter, (4,), np.uint64)
    assert wide.tolist() == (words[0::2].astype(np.uint64)
                             | words[1::2].astype(np.uint64) << np.uint64(32)).tolist()


def test_truncated_normal_stays_inside_two_and_each_group_owns_its_stream():
    key, counter = philox.key_counter_from_seed(9, 9)
    values = philox.truncated_normal(key, counter, (4001,), np.float32)
    assert np.all(np.abs(values) < 2) and abs(values.mean()) < 0.05
    # group 3 (values 12..15) starts at block 3 * 256: drawing it alone gives the same values
    later = philox.counter_from_int(philox.counter_to_int(counter) + 3 * 256)
    assert philox.truncated_normal(key, later, (4,), np.float32).tolist() == \
        values[12:16].tolist()


# Printed by TF 2.21 (tensorflow-cpu, /tmp/tfvenv): the same calls must give them here.
def test_numbers_tensorflow_printed():
    got = tf.random.stateless_uniform([5], [1, 2]).numpy().tolist()
    assert got == [0.8440604209899902, 0.19204533100128174, 0.9962232112884521,
                   0.16038739681243896, 0.27199018001556396]
    got = tf.random.stateless_uniform([3], [1, 2], None, None, tf.int64).numpy().tolist()
    assert got == [7464880146280614444, 1591045637757961278, -1057468755545501549]
    assert tf.random.split([1, 2], 3).numpy().tolist() == [
        [1105988140, 1738052849], [-335576002, 370444179], [10670227, -246211131]]
    tf.random.set_seed(1)
    np.testing.assert_array_max_ulp(tf.random.normal([2]).numpy(),
                                    np.float32([-1.1012202501296997, 1.545751690864563]), 2)
    tf.random.set_seed(None)
    g = tf.random.Generator.from_seed(1)
    np.testing.assert_array_max_ulp(g.normal([2]).numpy(),
                                    np.float32([0.4384227395057678, -0.5343984365463257]), 2)
    assert g.state.numpy().tolist() == [513, 0, 0]


def test_generator_draws_inside_tf_function_advance_its_state():
    g = tf.random.Generator.from_seed(1)
    eager = [g.normal([2]).numpy().tolist() for _ in range(2)]
    g.reset_from_seed(1)

    @tf.function
    def two_draws():
        return g.normal([2]), g.normal([2])

    assert [t.numpy().tolist() for t in two_draws()] == eager
    assert g.state.numpy().tolist() == [1 + 2 * 2 * 256, 0, 0]


def test_python_path_for_few_blocks_equals_the_numpy_path(monkeypatch):
    """A few blocks go through Python's integers (faster there); both paths give the same words,
    carries into the counter's high half included."""
    rng = np.random.default_rng(0)
    cases = [(rng.integers(0, 2**32, size=(n, 4), dtype=np.uint64),
              tuple(int(k) for k in rng.integers(0, 2**32, size=2))) for n in (1, 3, 8)]
    counters = [(0, 0, 5, 7), (2**32 - 3, 2**32 - 1, 2**32 - 1, 2**32 - 1)]
    few = [philox.philox4x32(c, key) for c, key in cases]
    words = [philox.random_words((11, 22), c, n, first) for c in counters for n in (1, 5, 8)
             for first in (0, 1, 256)]
    monkeypatch.setattr(philox, "_FEW_BLOCKS", -1)
    for (c, key), got in zip(cases, few):
        assert got.dtype == np.uint32 and np.array_equal(got, philox.philox4x32(c, key))
    expected = [philox.random_words((11, 22), c, n, first) for c in counters for n in (1, 5, 8)
                for first in (0, 1, 256)]
    assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(words, expected))
