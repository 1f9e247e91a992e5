"""String hashing: FarmHash `Fingerprint64` and `tf.strings.to_hash_bucket_fast`.

TensorFlow hashes strings into buckets with Google's FarmHash
`Fingerprint64` (the "na" variant of `Hash64`), a 64-bit hash that is the same
on every machine and in every run - unlike Python's `hash`, which is salted
per process. It is written out here in plain Python integers (every product
is reduced mod 2**64, as C's uint64 arithmetic does), so bucket ids match
TensorFlow's exactly:

>>> import minitf as tf
>>> fingerprint64(b"hello")
13009744463427800296
>>> tf.strings.to_hash_bucket_fast(["hello", "a"], num_buckets=10)
<tf.Tensor: shape=(2,), dtype=int64, numpy=array([6, 9])>

`fingerprint_cat64` combines two fingerprints; `tf.feature_column.crossed_column`
uses it to hash a combination of feature values.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export

_MASK = (1 << 64) - 1
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F


def _fetch64(s, i):
    return int.from_bytes(s[i:i + 8], "little")


def _fetch32(s, i):
    return int.from_bytes(s[i:i + 4], "little")


def _rotate(v, shift):
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & _MASK


def _shift_mix(v):
    return v ^ (v >> 47)


def _hash_len16(u, v, mul):
    a = ((u ^ v) * mul) & _MASK
    a ^= a >> 47
    b = ((v ^ a) * mul) & _MASK
    b ^= b >> 47
    return (b * mul) & _MASK


def _hash_len0to16(s):
    n = len(s)
    if n >= 8:
        mul = _K2 + n * 2
        a = (_fetch64(s, 0) + _K2) & _MASK
        b = _fetch64(s, n - 8)
        c = (_rotate(b, 37) * mul + a) & _MASK
        d = ((_rotate(a, 25) + b) * mul) & _MASK
        return _hash_len16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        return _hash_len16(n + (_fetch32(s, 0) << 3), _fetch32(s, n - 4), mul)
    if n > 0:
        y = (s[0] + (s[n >> 1] << 8)) & 0xFFFFFFFF
        z = (n + (s[n - 1] << 2)) & 0xFFFFFFFF
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _MASK) * _K2) & _MASK
    return _K2


def _hash_len17to32(s):
    n = len(s)
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K1) & _MASK
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _MASK
    d = (_fetch64(s, n - 16) * _K2) & _MASK
    return _hash_len16((_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK,
                       (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)


def _hash_len33to64(s):
    n = len(s)
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K2) & _MASK
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _MASK
    d = (_fetch64(s, n - 16) * _K2) & _MASK
    y = (_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK
    z = _hash_len16(y, (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)
    e = (_fetch64(s, 16) * mul) & _MASK
    f = _fetch64(s, 24)
    g = ((y + _fetch64(s, n - 32)) * mul) & _MASK
    h = ((z + _fetch64(s, n - 24)) * mul) & _MASK
    return _hash_len16((_rotate((e + f) & _MASK, 43) + _rotate(g, 30) + h) & _MASK,
                       (e + _rotate((f + a) & _MASK, 18) + g) & _MASK, mul)


def _weak_hash_len32_with_seeds(s, i, a, b):
    w, x, y, z = (_fetch64(s, i + k) for k in (0, 8, 16, 24))
    a = (a + w) & _MASK
    b = _rotate((b + a + z) & _MASK, 21)
    c = a
    a = (a + x + y) & _MASK
    b = (b + _rotate(a, 44)) & _MASK
    return (a + z) & _MASK, (b + c) & _MASK


def _hash_long(s):
    """FarmHash na `Hash64` for strings longer than 64 bytes: 64-byte chunks."""
    n, seed = len(s), 81
    x, y = seed, (seed * _K1 + 113) & _MASK
    z = (_shift_mix((y * _K2 + 113) & _MASK) * _K2) & _MASK
    v, w = (0, 0), (0, 0)
    x = (x * _K2 + _fetch64(s, 0)) & _MASK
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_rotate((x + y + v[0] + _fetch64(s, i + 8)) & _MASK, 37) * _K1) & _MASK
        y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & _MASK, 42) * _K1) & _MASK
        x ^= w[1]
        y = (y + v[0] + _fetch64(s, i + 40)) & _MASK
        z = (_rotate((z + w[0]) & _MASK, 33) * _K1) & _MASK
        v = _weak_hash_len32_with_seeds(s, i, (v[1] * _K1) & _MASK, (x + w[0]) & _MASK)
        w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _MASK,
                                        (y + _fetch64(s, i + 16)) & _MASK)
        z, x = x, z
        i += 64
        if i == end:
            break
    return _hash_tail(s, last64, n, x, y, z, v, w)


def _hash_tail(s, i, n, x, y, z, v, w):
    """The last (possibly overlapping) 64 bytes, mixed with a length-dependent multiplier."""
    mul = _K1 + ((z & 0xFF) << 1)
    w = ((w[0] + ((n - 1) & 63)) & _MASK, w[1])
    v = ((v[0] + w[0]) & _MASK, v[1])
    w = ((w[0] + v[0]) & _MASK, w[1])
    x = (_rotate((x + y + v[0] + _fetch64(s, i + 8)) & _MASK, 37) * mul) & _MASK
    y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & _MASK, 42) * mul) & _MASK
    x ^= (w[1] * 9) & _MASK
    y = (y + v[0] * 9 + _fetch64(s, i + 40)) & _MASK
    z = (_rotate((z + w[0]) & _MASK, 33) * mul) & _MASK
    v = _weak_hash_len32_with_seeds(s, i, (v[1] * mul) & _MASK, (x + w[0]) & _MASK)
    w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _MASK,
                                    (y + _fetch64(s, i + 16)) & _MASK)
    z, x = x, z
    return _hash_len16((_hash_len16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _MASK,
                       (_hash_len16(v[1], w[1], mul) + x) & _MASK, mul)


def fingerprint64(data):
    """FarmHash `Fingerprint64` of `data` (bytes, or str encoded as UTF-8): an int in [0, 2**64).

    This is TensorFlow's `tensorflow::Fingerprint64` (farmhash na `Hash64`).

    >>> fingerprint64("a")
    12917804110809363939
    """
    s = data.encode() if isinstance(data, str) else bytes(data)
    if len(s) <= 16:
        return _hash_len0to16(s)
    if len(s) <= 32:
        return _hash_len17to32(s)
    if len(s) <= 64:
        return _hash_len33to64(s)
    return _hash_long(s)


def fingerprint_cat64(fp1, fp2):
    """Combine two 64-bit fingerprints into one (TensorFlow's `FingerprintCat64`).

    >>> fingerprint_cat64(1, 2)
    14454907135238785252
    """
    k_mul = 0xC6A4A7935BD1E995
    result = fp1 ^ k_mul
    result ^= (_shift_mix((fp2 * k_mul) & _MASK) * k_mul) & _MASK
    result = (result * k_mul) & _MASK
    result = (_shift_mix(result) * k_mul) & _MASK
    return _shift_mix(result)


def _to_hash_bucket_fast(x, num_buckets):
    out = np.empty(x.shape, dtype=np.int64)
    out.flat[:] = [fingerprint64(s) % num_buckets for s in x.flat]
    return out


StringToHashBucketFast = Op("StringToHashBucketFast", _to_hash_bucket_fast,
                            dtypes={dtypes.string}, shape=lambda s, **_: s,
                            dtype=dtypes.int64)


@tf_export("strings.to_hash_bucket_fast")
def to_hash_bucket_fast(input, num_buckets, name=None):
    """Hash each string to a bucket id: `Fingerprint64(s) % num_buckets` (int64).

    The same string always lands in the same bucket, in every run and on every
    machine; different strings may share a bucket (a collision).

    >>> tf.strings.to_hash_bucket_fast(tf.constant(["cat", "dog", "cat"]), 5).numpy()
    array([1, 2, 1])
    """
    if not isinstance(num_buckets, int) or isinstance(num_buckets, bool) or num_buckets < 1:
        raise errors.InvalidArgumentError(
            None, "StringToHashBucketFast",
            f"Value for attr 'num_buckets' of {num_buckets} must be at least minimum 1 "
            "[Op:StringToHashBucketFast] Pass a positive number of buckets.")
    return apply(StringToHashBucketFast, [convert_to_tensor(input, dtype=dtypes.string)],
                 {"num_buckets": num_buckets})
