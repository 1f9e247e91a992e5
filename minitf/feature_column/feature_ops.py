"""The few ops feature columns need: bucketize, vocabulary lookup, id check, hashed cross.

They are ordinary ops (they go through `apply`), so a column used inside a
`tf.function` (or `Model.fit`) becomes graph nodes like any other op. None is
differentiable: they map raw values to integer ids.

>>> import minitf as tf
>>> bucketize(tf.constant([[5.0], [20.0], [99.0]]), boundaries=(18, 30)).numpy().ravel()
array([0, 1, 2])
"""
import itertools

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor_shape import TensorShape
from ..ops.hash_ops import fingerprint64, fingerprint_cat64

_DEFAULT_HASH_KEY = 0xDECAFCAFFE  # TensorFlow's default key for sparse_cross_hashed
_INT64_MAX = (1 << 63) - 1

Bucketize = Op("Bucketize", lambda x, boundaries: np.searchsorted(
    np.asarray(boundaries, dtype=np.float64), x, side="right").astype(np.int64),
    shape=lambda s, **_: s, dtype=dtypes.int64)


def bucketize(x, boundaries):
    """Bucket index of each value: `i` such that `boundaries[i-1] <= x < boundaries[i]`."""
    return apply(Bucketize, [x], {"boundaries": tuple(float(b) for b in boundaries)})


def _lookup(x, keys, default_value, num_oov_buckets, missing):
    table = {k: i for i, k in enumerate(keys)}
    out = np.empty(x.shape, dtype=np.int64)
    for i, key in enumerate(x.flat):
        key = key if isinstance(key, bytes) else int(key)
        if key == missing:
            out.flat[i] = -1
        elif key in table:
            out.flat[i] = table[key]
        elif num_oov_buckets:
            text = key if isinstance(key, bytes) else str(key).encode()
            out.flat[i] = len(keys) + fingerprint64(text) % num_oov_buckets
        else:
            out.flat[i] = default_value
    return out


LookupTableFind = Op("LookupTableFindV2", _lookup, shape=lambda s, **_: s, dtype=dtypes.int64)


def lookup(x, keys, default_value=-1, num_oov_buckets=0):
    """Index of each value in `keys`; unknown values go to an OOV bucket or `default_value`.

    An OOV bucket is `len(keys) + Fingerprint64(value) % num_oov_buckets`, as
    TF's `index_table_from_tensor`. Missing values ('' or -1) give -1.
    """
    string = x.dtype == dtypes.string
    keys = tuple(k.encode() if isinstance(k, str) else (k if string else int(k)) for k in keys)
    return apply(LookupTableFind, [x], {"keys": keys, "default_value": int(default_value),
                                        "num_oov_buckets": int(num_oov_buckets),
                                        "missing": b"" if string else -1})


def _check_ids(ids, num_buckets, column_name):
    flat = ids.reshape(-1)
    for i, value in enumerate(flat):
        if value < -1 or value >= num_buckets:
            raise errors.InvalidArgumentError(
                None, "ResourceGather", f"indices[{i}] = {value} is not in [0, {num_buckets}) "
                f"[Op:ResourceGather] Column {column_name!r} has num_buckets={num_buckets}; "
                "ids must lie in [0, num_buckets) - give the column more buckets or a "
                "default_value for out-of-range ids.")
    return ids


CheckIds = Op("CheckIds", _check_ids, dtypes={dtypes.int64}, shape=lambda s, **_: s)


def check_ids(ids, num_buckets, column_name):
    """`ids` unchanged, or TF's InvalidArgumentError if one lies outside [0, num_buckets).

    TensorFlow reports this only when an embedding lookup gathers the bad id
    (an indicator column silently gives a zero row); minitf checks every
    categorical column's ids when they are made.
    """
    return apply(CheckIds, [ids], {"num_buckets": int(num_buckets), "column_name": column_name})


def _feature_hash(value):
    """A string is hashed with Fingerprint64; an integer id is its own 64-bit hash."""
    if isinstance(value, bytes):
        return fingerprint64(value)
    return int(value) & ((1 << 64) - 1)


def _cross_hashed(*columns, num_buckets, hash_key, are_ids):
    batch = columns[0].shape[0]
    rows = []
    for b in range(batch):
        values = [[v for v in col[b] if not (ids and v == -1)]  # -1: a missing id
                  for col, ids in zip(columns, are_ids)]
        row = []
        for combo in itertools.product(*values):
            h = hash_key
            for value in combo:
                h = fingerprint_cat64(h, _feature_hash(value))
            row.append(h % (num_buckets if num_buckets > 0 else _INT64_MAX))
        rows.append(row)
    width = max(1, max(len(r) for r in rows)) if rows else 1
    out = np.full((batch, width), -1, dtype=np.int64)
    for b, row in enumerate(rows):
        out[b, :len(row)] = row
    return out


SparseCrossHashed = Op("SparseCrossHashed", _cross_hashed, typed=(),
                       shape=lambda *s, **_: TensorShape([s[0][0], None]), dtype=dtypes.int64)


def cross_hashed(columns, num_buckets, hash_key=None, are_ids=None):
    """Hash every combination of one value from each column of a row into a bucket.

    For each combination: `h = hash_key; h = FingerprintCat64(h, hash(v))` for
    each value `v` in turn, then `h % num_buckets` - TF's `SparseCrossHashed`.
    Columns flagged in `are_ids` hold ids whose -1 means "no value"; other
    columns are raw features, crossed as they are (even '' and -1, as in TF).
    """
    are_ids = tuple(are_ids) if are_ids is not None else (False,) * len(columns)
    return apply(SparseCrossHashed, list(columns), {
        "num_buckets": int(num_buckets), "are_ids": are_ids,
        "hash_key": _DEFAULT_HASH_KEY if hash_key is None else int(hash_key)})
