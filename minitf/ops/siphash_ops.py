"""`tf.strings.to_hash_bucket_strong`: keyed SipHash-2-4 buckets.

`to_hash_bucket_fast` (hash_ops.py) uses FarmHash, which anyone can
reproduce: someone who knows your bucket count can craft strings that all
collide. The *strong* version hashes with SipHash-2-4 under a secret 128-bit
`key` (two uint64), so without the key the buckets cannot be predicted. Keras's
`Hashing(salt=...)` uses it.

SipHash keeps four 64-bit words, mixes in the string 8 bytes at a time (two
"SipRounds" of add-rotate-xor per word), then the length, then runs four more
rounds; everything is uint64 arithmetic (mod 2**64):

>>> import minitf as tf
>>> siphash24(b"", 0, 0)
2202906307356721367
>>> tf.strings.to_hash_bucket_strong(["a", "hello"], 10, key=[0, 0]).numpy()
array([5, 1])

In TensorFlow this is the `StringToHashBucketStrong` kernel, which calls
highwayhash's `SipHash` with `key`.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export

_MASK = (1 << 64) - 1


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & _MASK


def _sip_round(v0, v1, v2, v3):
    v0 = (v0 + v1) & _MASK
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 = (v2 + v3) & _MASK
    v3 = _rotl(v3, 16) ^ v2
    v0 = (v0 + v3) & _MASK
    v3 = _rotl(v3, 21) ^ v0
    v2 = (v2 + v1) & _MASK
    v1 = _rotl(v1, 17) ^ v2
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def siphash24(data, k0, k1):
    """SipHash-2-4 of the bytes `data` under the key (k0, k1): an int in [0, 2**64)."""
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D,
         k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]
    full = len(data) - len(data) % 8
    last = ((len(data) & 0xFF) << 56) | int.from_bytes(data[full:], "little")
    words = [int.from_bytes(data[i:i + 8], "little") for i in range(0, full, 8)] + [last]
    for m in words:
        v[3] ^= m
        v = list(_sip_round(*_sip_round(*v)))
        v[0] ^= m
    v[2] ^= 0xFF
    for _ in range(4):
        v = list(_sip_round(*v))
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def _to_hash_bucket_strong(x, num_buckets, key):
    out = np.empty(x.shape, dtype=np.int64)
    out.flat[:] = [siphash24(s, key[0], key[1]) % num_buckets for s in x.flat]
    return out


StringToHashBucketStrong = Op("StringToHashBucketStrong", _to_hash_bucket_strong,
                              dtypes={dtypes.string}, shape=lambda s, **_: s,
                              dtype=dtypes.int64)


@tf_export("strings.to_hash_bucket_strong")
def to_hash_bucket_strong(input, num_buckets, key, name=None):
    """Hash each string to `SipHash-2-4(s, key) % num_buckets` (int64); `key` is two ints.

    >>> tf.strings.to_hash_bucket_strong(["cat", "dog"], 4, key=[7, 11]).shape
    TensorShape([2])
    """
    if not isinstance(num_buckets, int) or isinstance(num_buckets, bool) or num_buckets < 1:
        raise errors.InvalidArgumentError(
            None, "StringToHashBucketStrong",
            f"Value for attr 'num_buckets' of {num_buckets} must be at least minimum 1 "
            "[Op:StringToHashBucketStrong] Pass a positive number of buckets.")
    key = list(key)
    if len(key) != 2:
        raise errors.InvalidArgumentError(
            None, "StringToHashBucketStrong",
            "Key must have 2 elements [Op:StringToHashBucketStrong] The key is SipHash's "
            "128 bits, as two integers: for example key=[1, 2].")
    key = tuple(int(k) & _MASK for k in key)
    return apply(StringToHashBucketStrong, [convert_to_tensor(input, dtype=dtypes.string)],
                 {"num_buckets": num_buckets, "key": key})
