"""`tf.ragged.cross` and `tf.ragged.cross_hashed`: feature crosses, row by row.

Each input is a batch of feature lists (a 2-D RaggedTensor, dense Tensor or
SparseTensor of strings or integers). Row b of the result holds every
combination of one value from each input's row b, the first input varying
slowest (as `itertools.product` does):

>>> import minitf as tf
>>> tf.ragged.cross([tf.ragged.constant([["a", "b"], ["c"]]), tf.constant([["d"], ["e"]])])
<tf.RaggedTensor [[b'a_X_d', b'b_X_d'], [b'c_X_e']]>

`cross` joins the values with `_X_`; `cross_hashed` hashes each combination:
`h = hash_key; h = FingerprintCat64(h, Fingerprint64(v))` for every value v
(an integer is its own 64-bit hash), then `h % num_buckets` - TensorFlow's
hash, so the buckets match TF's (minitf/ops/hash_ops.py):

>>> tf.ragged.cross_hashed([tf.ragged.constant([["a", "b"], ["c"]]),
...                         tf.constant([["d"], ["e"]])], num_buckets=10)
<tf.RaggedTensor [[2, 4], [1]]>
"""
import itertools

import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.hash_ops import fingerprint64, fingerprint_cat64
from ..ops.sparse_tensor import SparseTensor
from .ragged_tensor import RaggedTensor

_DEFAULT_HASH_KEY = 0xDECAFCAFFE  # TF's sparse_ops._DEFAULT_HASH_KEY
_INT64_MAX = (1 << 63) - 1


def _rows(value, i):
    """The feature values of each row of input `i`, as Python lists."""
    if isinstance(value, RaggedTensor):
        if value.ragged_rank != 1 or value.shape.rank != 2:
            raise errors.InvalidArgumentError(
                None, "RaggedCross", "tf.ragged.cross only supports inputs with rank=2. "
                "[Op:RaggedCross]")
        dtype, flat, splits = value.dtype, value.flat_values.numpy(), value._splits()
        rows = [flat[splits[r]:splits[r + 1]].tolist() for r in range(len(splits) - 1)]
    elif isinstance(value, SparseTensor):
        dtype = value.dtype
        nrows = int(value.dense_shape.numpy()[0])
        rows = [[] for _ in range(nrows)]
        for (r, _), v in zip(value.indices.numpy(), value.values.numpy().tolist()):
            rows[r].append(v)
    else:
        value = convert_to_tensor(value)
        if value.shape.rank != 2:
            raise errors.InvalidArgumentError(
                None, "RaggedCross", "tf.ragged.cross only supports inputs with rank=2. "
                "[Op:RaggedCross] (each input is a batch of feature lists: [batch, n].)")
        dtype, rows = value.dtype, value.numpy().tolist()
    if dtype not in (dtypes.string, dtypes.int32, dtypes.int64):
        raise ValueError(f"Unexpected dtype for inputs[{i}]: <dtype: '{dtype.name}'>")
    return rows


def _combinations(inputs):
    all_rows = [_rows(value, i) for i, value in enumerate(inputs)]
    counts = {len(rows) for rows in all_rows}
    if len(counts) > 1:
        raise errors.InvalidArgumentError(
            None, "RaggedCross", "inputs must all have the same batch dimension size. "
            f"[Op:RaggedCross] (batch sizes here: {[len(r) for r in all_rows]}.)")
    nrows = counts.pop() if counts else 0
    return [list(itertools.product(*(rows[b] for rows in all_rows))) for b in range(nrows)]


def _ragged(rows, values, dtype):
    lengths = np.array([len(r) for r in rows], dtype=np.int64)
    tensor = convert_to_tensor(np.array(values, dtype=object if dtype == dtypes.string
                                         else np.int64).reshape(-1), dtype=dtype)
    return RaggedTensor.from_row_lengths(tensor, convert_to_tensor(lengths), validate=False)


def _text(value):
    return value if isinstance(value, bytes) else str(value).encode()


@tf_export("ragged.cross")
def cross(inputs, name=None):
    """Every combination of one value per input, joined with `_X_` (see the module)."""
    combos = _combinations(list(inputs))
    values = [b"_X_".join(_text(v) for v in combo) for row in combos for combo in row]
    return _ragged(combos, values, dtypes.string)


def _hash(value):
    return fingerprint64(value) if isinstance(value, bytes) else int(value) & ((1 << 64) - 1)


@tf_export("ragged.cross_hashed")
def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Every combination of one value per input, hashed into `num_buckets` (see the module)."""
    key = _DEFAULT_HASH_KEY if hash_key is None else int(hash_key)
    modulus = num_buckets if num_buckets > 0 else _INT64_MAX
    combos = _combinations(list(inputs))
    values = []
    for row in combos:
        for combo in row:
            h = key
            for v in combo:
                h = fingerprint_cat64(h, _hash(v))
            values.append(h % modulus)
    return _ragged(combos, values, dtypes.int64)
