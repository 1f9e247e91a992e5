"""Philox4x32-10: the counter-based random number generator TensorFlow uses on CPU.

A counter-based generator is a keyed scramble of a counter: block number i of
the stream is `philox(counter + i, key)`, 128 random bits (four 32-bit words).
Nothing is stored between draws, so any part of the stream can be computed
directly and in parallel, which is why NumPy can compute whole tensors here
in one vectorised pass (Salmon et al., "Parallel random numbers: as easy as
1, 2, 3", SC 2011).

    counter: 4 words (c0 lowest ... c3 highest, one 128-bit number)
    key:     2 words (k0, k1)
    round:   (c0, c1, c2, c3) -> (hi(M1*c2) ^ c1 ^ k0, lo(M1*c2),
                                  hi(M0*c0) ^ c3 ^ k1, lo(M0*c0))
             then the key is "bumped": k0 += W0, k1 += W1 (mod 2**32)
    philox:  10 rounds.

How TensorFlow feeds it:

- Stateless ops (`tf.random.stateless_*`, seed = two int64 s0, s1):
  TF scrambles the seed so neither half needs to be "strong": it runs Philox
  once on the counter (s0 lo, s0 hi, s1 lo, s1 hi) with the fixed key
  (0x3ec8f720, 0x02461e29); the first two output words become the key, the
  last two the high half of the counter (the low half starts at 0). See
  `key_counter_from_seed`.
- Stateful ops (`tf.random.normal` ... with seeds `(seed, seed2)`): the key
  is `seed` (lo, hi) and the counter's high half is `seed2`; each call of a
  kernel moves its counter on by 256 blocks per output element.
- `tf.random.Generator` keeps [counter lo, counter hi, key] in its state.

How bits become numbers (TF's `random_distributions.h`):

- float32 in [0, 1): 23 random mantissa bits under exponent 0 (a float in
  [1, 2)), minus 1. float16: 10 bits. float64: 52 bits from two words.
- normal: the Box-Muller transform on pairs of uniforms.
- truncated normal: Box-Muller pairs, keeping values with |x| < 2; every group
  of outputs owns 256 blocks per output so rejection never overlaps groups.
- integers in [lo, hi): `lo + bits % (hi - lo)` (int64 takes two words).

>>> import numpy as np
>>> key, counter = key_counter_from_seed(1, 2)
>>> uniform_float(key, counter, (3,), np.float32)   # tf.random.stateless_uniform([3], [1, 2])
array([0.8440604 , 0.19204533, 0.9962232 ], dtype=float32)
"""
import numpy as np

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)  # round multipliers
_W0, _W1 = 0x9E3779B9, 0xBB67AE85  # key bumps: golden ratio, sqrt(3) - 1
_MASK32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)
SEED_SCRAMBLE_KEY = (0x3EC8F720, 0x02461E29)  # TF's kPhiloxSeedScramble... key for stateless seeds
RESERVED_BLOCKS_PER_OUTPUT = 256  # TF's "multiplier": blocks a kernel reserves per output value


def philox4x32(counters, key, rounds=10):
    """Philox on many counters at once: `counters` is an [n, 4] array of 32-bit words
    (any unsigned or signed int dtype), `key` two ints. Returns [n, 4] uint32.

    A few blocks (a seed to scramble, a small draw) go through Python's integers, one
    block at a time: there a NumPy call costs more than the arithmetic. Many blocks go
    through NumPy, each round one pass over all of them. Both give the same words.

    >>> [hex(w) for w in philox4x32(np.zeros((1, 4)), (0, 0))[0]]  # Random123's known answer
    ['0x6627e8d5', '0xe169c58d', '0xbc57ac4c', '0x9b00dbd8']
    """
    counters = np.asarray(counters)
    if len(counters) <= _FEW_BLOCKS:
        return np.array([_philox_block(block, key, rounds) for block in counters.tolist()],
                        dtype=np.uint32).reshape(len(counters), 4)
    c0, c1, c2, c3 = (counters[:, i].astype(np.uint64) & _MASK32 for i in range(4))
    k0, k1 = int(key[0]) & 0xFFFFFFFF, int(key[1]) & 0xFFFFFFFF
    for _ in range(rounds):
        p0, p1 = _M0 * c0, _M1 * c2  # 32 x 32 -> 64-bit products: exact in uint64
        c0, c1, c2, c3 = ((p1 >> _SHIFT32) ^ c1 ^ np.uint64(k0), p1 & _MASK32,
                          (p0 >> _SHIFT32) ^ c3 ^ np.uint64(k1), p0 & _MASK32)
        k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


_FEW_BLOCKS = 8  # up to this many blocks, Python's integers are faster than NumPy's calls
_M0_INT, _M1_INT = int(_M0), int(_M1)


def _philox_block(block, key, rounds):
    """One block of Philox in Python integers (the same rounds as `philox4x32`)."""
    c0, c1, c2, c3 = (int(w) & 0xFFFFFFFF for w in block)
    k0, k1 = int(key[0]) & 0xFFFFFFFF, int(key[1]) & 0xFFFFFFFF
    for _ in range(rounds):
        p0, p1 = _M0_INT * c0, _M1_INT * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ c3 ^ k1, \
            p0 & 0xFFFFFFFF
        k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
    return c0, c1, c2, c3


def key_counter_from_seed(seed0, seed1):
    """TF's stateless seed scrambling (`GenerateKey` in stateless_random_ops.cc).

    Each seed is read as a 64-bit word (an int32 seed is sign-extended first).
    Returns the key (2 words) and the counter (4 words) of the stream.
    """
    s0, s1 = int(seed0) % 2**64, int(seed1) % 2**64
    words = np.array([[s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32]], np.uint64)
    mix = [int(w) for w in philox4x32(words, SEED_SCRAMBLE_KEY)[0]]
    return (mix[0], mix[1]), (0, 0, mix[2], mix[3])


def key_counter_from_op_seeds(seed, seed2):
    """The stream of a stateful kernel with seeds (seed, seed2): `PhiloxRandom(seed, seed2)`
    puts `seed` in the key and `seed2` in the counter's high half."""
    s0, s1 = int(seed) % 2**64, int(seed2) % 2**64
    return (s0 & 0xFFFFFFFF, s0 >> 32), (0, 0, s1 & 0xFFFFFFFF, s1 >> 32)


def counter_from_int(value):
    """A 128-bit integer as four 32-bit words, lowest first."""
    value = int(value) % 2**128
    return tuple((value >> (32 * i)) & 0xFFFFFFFF for i in range(4))


def counter_to_int(counter):
    """Four 32-bit words, lowest first, as one 128-bit integer."""
    return sum(int(w) << (32 * i) for i, w in enumerate(counter))


def _counters(counter, offsets):
    """The counters `counter + offsets` ([n] uint64 offsets) as [n, 4] words, carrying
    from the low 64 bits into the high 64 bits as a 128-bit addition does."""
    low = np.uint64(counter[0] | counter[1] << 32)
    high = np.uint64(counter[2] | counter[3] << 32)
    with np.errstate(over="ignore"):
        new_low = low + offsets
        new_high = high + (new_low < low).astype(np.uint64)
    return np.stack([new_low & _MASK32, new_low >> _SHIFT32,
                     new_high & _MASK32, new_high >> _SHIFT32], axis=1)


def random_words(key, counter, n_blocks, first_block=0):
    """Blocks first_block ... first_block + n_blocks - 1 of the stream, as a flat
    uint32 array of 4 * n_blocks words."""
    if n_blocks <= _FEW_BLOCKS:  # Python's integers: no arrays to build for a few blocks
        start = counter_to_int(counter) + first_block
        return np.array([w for i in range(n_blocks) for w in _philox_block(
            counter_from_int(start + i), key, 10)], dtype=np.uint32)
    offsets = np.arange(n_blocks, dtype=np.uint64) + np.uint64(first_block)
    return philox4x32(_counters(counter, offsets), key).reshape(-1)


def _count(shape, dtype):
    """How many values `shape` holds. The output is allocated first, so that a size no
    memory can hold fails at once with NumPy's MemoryError naming `shape` (which minitf
    reports as TF's OOM error), not later inside the generator."""
    np.empty(shape, dtype)
    return int(np.prod(shape, dtype=np.int64))


def _words(key, counter, count, words_per_value):
    """Enough whole blocks for `count` values of `words_per_value` words each."""
    n_words = count * words_per_value
    return random_words(key, counter, (n_words + 3) // 4)[:n_words]


# --- from bits to numbers (TF's random_distributions.h) ------------------------------------------
def words_to_float32(words):
    """[0, 1): 23 mantissa bits under exponent 0 give a float in [1, 2), minus 1."""
    return ((words & 0x7FFFFF) | 0x3F800000).astype(np.uint32).view(np.float32) - np.float32(1)


def words_to_float16(words):
    """[0, 1) in float16: the low 10 bits as the mantissa of a float16 in [1, 2), minus 1."""
    bits = ((words & 0x3FF) | (15 << 10)).astype(np.uint16)
    return bits.view(np.float16) - np.float16(1)


def words_to_float64(hi, lo):
    """[0, 1) in float64: 20 mantissa bits from `hi`, 32 from `lo` under exponent 0, minus 1."""
    man = (hi.astype(np.uint64) & np.uint64(0xFFFFF)) << _SHIFT32 | lo.astype(np.uint64)
    return (man | np.uint64(1023 << 52)).view(np.float64) - 1.0


def uniform_float(key, counter, shape, dtype):
    """Floats in [0, 1) of NumPy dtype float16/32/64, as TF's UniformDistribution."""
    dtype = np.dtype(dtype)
    count = _count(shape, dtype)
    if dtype == np.float64:
        words = _words(key, counter, count, 2)
        return words_to_float64(words[0::2], words[1::2]).reshape(shape)
    words = _words(key, counter, count, 1)
    convert = words_to_float16 if dtype == np.float16 else words_to_float32
    return convert(words).reshape(shape)


def uniform_int(key, counter, shape, dtype, minval, maxval):
    """Integers in [minval, maxval): `minval + bits % (maxval - minval)`, with 32 bits for
    32-bit dtypes and 64 (two words, low first) for 64-bit ones."""
    dtype = np.dtype(dtype)
    count = _count(shape, dtype)
    bits = _full_int_bits(key, counter, count, dtype.itemsize == 8)
    span = (int(maxval) - int(minval)) % 2 ** (8 * dtype.itemsize)
    values = (bits % np.uint64(span)).astype(np.int64) + int(minval)  # fits: |values| < 2**64
    return values.astype(dtype).reshape(shape)


def _full_int_bits(key, counter, count, wide):
    if not wide:
        return _words(key, counter, count, 1).astype(np.uint64)
    words = _words(key, counter, count, 2).astype(np.uint64)
    return words[0::2] | (words[1::2] << _SHIFT32)


def uniform_full_int(key, counter, shape, dtype):
    """Integers over the whole range of an int32/int64/uint32/uint64 dtype: the raw bits."""
    dtype = np.dtype(dtype)
    bits = _full_int_bits(key, counter, _count(shape, dtype), dtype.itemsize == 8)
    return bits.astype(np.uint64 if dtype.itemsize == 8 else np.uint32).view(
        dtype).reshape(shape)


def _box_muller_float32(w0, w1):
    """Two standard normals (sin, cos) from two words, in float32 as TF's BoxMullerFloat."""
    u1 = np.maximum(words_to_float32(w0), np.float32(1e-7))
    # TF writes 2.0f * M_PI * u: M_PI is a double, so the angle is computed in float64.
    v1 = (2 * np.pi * words_to_float32(w1).astype(np.float64)).astype(np.float32)
    # log, sin and cos in float64 rounded to float32: the correctly rounded results that
    # C's logf/sinf/cosf give (NumPy's float32 versions may differ in the last bit).
    radius = np.sqrt(np.float32(-2) * np.log(u1.astype(np.float64)).astype(np.float32))
    v1 = v1.astype(np.float64)
    return np.sin(v1).astype(np.float32) * radius, np.cos(v1).astype(np.float32) * radius


def _box_muller_float64(w0, w1, w2, w3):
    """Two standard normals from four words, in float64 as TF's BoxMullerDouble."""
    u1 = np.maximum(words_to_float64(w0, w1), 1e-7)
    v1 = 2 * np.pi * words_to_float64(w2, w3)
    radius = np.sqrt(-2 * np.log(u1))
    return np.sin(v1) * radius, np.cos(v1) * radius


def _interleave(first, second):
    out = np.empty(2 * len(first), first.dtype)
    out[0::2], out[1::2] = first, second
    return out


def normal(key, counter, shape, dtype):
    """Standard normals: float16/32 from pairs of words (float16 computed in float32 and
    rounded, as TF does), float64 from groups of four words."""
    dtype = np.dtype(dtype)
    count = _count(shape, dtype)
    if dtype == np.float64:
        w = random_words(key, counter, (count + 1) // 2)
        pairs = _box_muller_float64(w[0::4], w[1::4], w[2::4], w[3::4])
    else:
        w = random_words(key, counter, (count + 3) // 4)
        pairs = _box_muller_float32(w[0::2], w[1::2])
    return _interleave(*pairs)[:count].astype(dtype).reshape(shape)


def truncated_normal(key, counter, shape, dtype):
    """Standard normals with |x| < 2, as TF's TruncatedNormalDistribution fills a tensor.

    Outputs come in groups (4 values; 2 for float64). Group g draws Box-Muller pairs
    from its own stretch of the stream, starting at block g * 256 * (group size) / 4,
    and keeps the first values inside (-2, 2). Each step below draws one more block
    for every group still short of values.
    """
    count = _count(shape, dtype)
    wide = np.dtype(dtype) == np.float64
    group = 2 if wide else 4
    n_groups = (count + group - 1) // group
    out = np.zeros((n_groups, group), np.float64 if wide else np.float32)
    filled = np.zeros(n_groups, np.int64)
    starts = np.arange(n_groups, dtype=np.uint64) * np.uint64(group * RESERVED_BLOCKS_PER_OUTPUT // 4)
    step = 0
    while n_groups and (filled < group).any():
        rows = np.flatnonzero(filled < group)
        blocks = philox4x32(_counters(counter, starts[rows] + np.uint64(step)), key)
        if wide:
            pair = _box_muller_float64(*(blocks[:, i] for i in range(4)))
        else:
            first, second = _box_muller_float32(blocks[:, 0], blocks[:, 1])
            third, fourth = _box_muller_float32(blocks[:, 2], blocks[:, 3])
            pair = (first, second, third, fourth)
        for candidate in pair:  # in stream order; a full group ignores the rest
            take = (np.abs(candidate) < 2) & (filled[rows] < group)
            out[rows[take], filled[rows[take]]] = candidate[take]
            filled[rows[take]] += 1
        step += 1
    return out.reshape(-1)[:count].astype(dtype).reshape(shape)
