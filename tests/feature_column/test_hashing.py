"""FarmHash Fingerprint64, tf.strings.to_hash_bucket_fast and the hashed cross, as in TF."""
import pytest

import minitf as tf
from minitf.ops.hash_ops import fingerprint64, fingerprint_cat64

# Lengths 0..200 bytes exercise every FarmHash branch (0-3, 4-7, 8-16, 17-32, 33-64, >64).
WORDS = ["", "a", "ab", "abc", "abcd", "hello", "12345678", "TensorFlow", "hello world 17c",
         "seventeen chars!!", "a" * 33, "x" * 64, "y" * 65,
         "The quick brown fox jumps over the lazy dog, again and again and again!!",
         "ünïcödé", "z" * 200]

# verified against TF 2.21: tf.strings.to_hash_bucket_fast(WORDS, 2**63 - 1)
MOD_INT64_MAX = [1936946117179621456, 3694432073954588132, 3066228220894225695,
                 2640714258260161385, 1897425971756105985, 3786372426573024489,
                 3430003927990384362, 4265654129848386254, 9158877329631036150,
                 8342057420157996792, 8087743964839449942, 6916188127298655160,
                 4023130470993650269, 2867856442453081385, 5938201885510263411,
                 8728890208429024092]
# verified against TF 2.21: tf.strings.to_hash_bucket_fast(WORDS, 10)
MOD_10 = [3, 9, 2, 5, 5, 6, 2, 4, 7, 2, 9, 0, 6, 5, 8, 2]


def test_fingerprint64_matches_tensorflow():
    assert [fingerprint64(w) % (2**63 - 1) for w in WORDS] == MOD_INT64_MAX
    assert all(0 <= fingerprint64(w) < 2**64 for w in WORDS)
    assert fingerprint64("hello") == fingerprint64(b"hello")


def test_to_hash_bucket_fast_matches_tensorflow():
    out = tf.strings.to_hash_bucket_fast(WORDS, 10)
    assert out.dtype == tf.int64 and out.shape == (len(WORDS),)
    assert out.numpy().tolist() == MOD_10
    big = tf.strings.to_hash_bucket_fast(tf.constant([WORDS[:8], WORDS[8:]]), 2**63 - 1)
    assert big.shape == (2, 8)
    assert big.numpy().ravel().tolist() == MOD_INT64_MAX
    # verified against TF 2.21
    assert tf.strings.to_hash_bucket_fast(["cat", "dog", "cat"], 5).numpy().tolist() == [1, 2, 1]


def test_to_hash_bucket_fast_in_a_function():
    f = tf.function(lambda s: tf.strings.to_hash_bucket_fast(s, 10))
    assert f(tf.constant(WORDS)).numpy().tolist() == MOD_10


def test_to_hash_bucket_fast_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_buckets"):
        tf.strings.to_hash_bucket_fast(["a"], 0)
    with pytest.raises((TypeError, ValueError, tf.errors.InvalidArgumentError)):
        tf.strings.to_hash_bucket_fast(tf.constant([1.0]), 3)


def test_fingerprint_cat64_is_tensorflows_cross_hash():
    # verified against TF 2.21: tf.sparse.cross_hashed([[["a"],["b"],["hello"]],
    # [["x"],["y"],["z"]]], num_buckets=0) (default hash_key 0xDECAFCAFFE)
    key = 0xDECAFCAFFE
    got = [fingerprint_cat64(fingerprint_cat64(key, fingerprint64(a)), fingerprint64(b))
           % (2**63 - 1) for a, b in [("a", "x"), ("b", "y"), ("hello", "z")]]
    assert got == [1484974617627318892, 5470948523078679805, 212311692899582581]
    # an integer feature is its own 64-bit hash (verified against TF 2.21, int64 [[3],[7],[-2]])
    got = [fingerprint_cat64(fingerprint_cat64(key, fingerprint64(a)), n % 2**64) % (2**63 - 1)
           for a, n in [("a", 3), ("b", 7), ("hello", -2)]]
    assert got == [9216350530976061679, 443223928722139976, 8696706643598729304]
