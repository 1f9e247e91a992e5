"""tf.fingerprint: a 64-bit FarmHash fingerprint of each row of a tensor, as 8 bytes.

>>> import minitf as tf
>>> tf.fingerprint(["a"]).numpy().tolist()
[[227, 117, 223, 182, 101, 66, 69, 179]]

The bytes are TensorFlow's `Fingerprint64` (minitf/ops/hash_ops.py) written little-endian,
so they equal real TF's: stable across runs, machines and versions (unlike Python's
hash), which is what data pipelines need to split examples deterministically.
Numbers are hashed by their bytes in memory; strings by their characters (a row of
several strings: the fingerprints of its strings, hashed again).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .hash_ops import fingerprint64


def _le_bytes(value):
    return np.array([value], dtype="<u8").view(np.uint8)


def _fingerprint_forward(data, method):
    rows = data.shape[0]
    out = np.empty((rows, 8), np.uint8)
    if data.dtype == object:  # strings
        per_row = data.size // rows if rows else 0
        flat = data.reshape(rows, per_row) if rows else data.reshape(0, 0)
        for r in range(rows):
            parts = [_le_bytes(fingerprint64(s)) for s in flat[r]]
            if per_row == 1:
                out[r] = parts[0]
            else:  # several strings per row: hash the concatenated fingerprints
                out[r] = _le_bytes(fingerprint64(np.concatenate(parts).tobytes()))
        return out
    flat = np.ascontiguousarray(data).reshape(rows, -1) if rows else data.reshape(0, 0)
    for r in range(rows):
        out[r] = _le_bytes(fingerprint64(flat[r].tobytes()))
    return out


Fingerprint = Op("Fingerprint", _fingerprint_forward, typed=(), dtype=dtypes.uint8,
                 shape=lambda d, method: TensorShape([d[0] if d.rank else None, 8]))


@tf_export("fingerprint")
def fingerprint(data, method="farmhash64", name=None):
    """One 8-byte fingerprint (uint8) per entry of axis 0 of `data`.

    >>> tf.fingerprint([[1, 2], [3, 4]]).shape
    TensorShape([2, 8])
    """
    data = convert_to_tensor(data)
    if method != "farmhash64":
        raise errors.op_error(errors.InvalidArgumentError, "Fingerprint",
                              f"Unsupported fingerprint method: {method}",
                              "The only method is 'farmhash64'.")
    if data.shape.rank == 0:
        raise errors.op_error(errors.InvalidArgumentError, "Fingerprint",
                              "`data` should have at least one dimension: []",
                              "Fingerprints are per row: wrap a scalar in a list.")
    return apply(Fingerprint, [data], {"method": method})
