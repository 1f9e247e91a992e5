"""The lookup op under StringLookup, IntegerLookup and TextVectorization.

A vocabulary becomes a frozen table (TensorFlow's `StaticHashTable`): each
known token maps to its index, everything else to a default. One op,
`LookupTableFindV2`, looks a whole tensor up at once. Around the plain table
lookup it does the three things Keras's `IndexLookup` adds:

* the mask token (if any) maps to the mask index (0 in "int" mode);
* with `num_oov_indices > 1`, an unknown token goes to one of several OOV
  buckets: `Fingerprint64(token) % num_oov_indices` for strings,
  `token % num_oov_indices` for integers (Keras's "floormod");
* with `num_oov_indices == 0`, an unknown token is an error.

>>> import numpy as np
>>> table = LookupTable([b"a", b"b"], start=1, default=0)
>>> table.find(np.array([b"b", b"zz", b"a"], dtype=object))
array([2, 0, 1])

The op is not differentiable (tokens in, indices out), and it goes through
`apply` like every op, so a lookup inside `tf.data.Dataset.map` or a
`tf.function` is a graph node. In TensorFlow the table is a resource that the
graph refers to; here the table object is the node's attribute.
"""
import numpy as np

from ....framework import dtypes, errors
from ....framework.op import Op, apply
from ....ops.hash_ops import fingerprint64
from ....ops.siphash_ops import siphash24


class LookupTable:
    """Token -> index for `tokens` numbered from `start`; other keys give `default`.

    mask:      (mask_key, mask_value) or None: the mask token's fixed index.
    num_oov:   how many OOV indices there are; oov_start: the first of them.
    hashing:   "floormod" or "farmhash": how an integer token picks its OOV bucket.
    salt:      None, or the two SipHash keys that replace Fingerprint64 in OOV hashing.
    invert:    map indices back to tokens (keys are int64 indices, values tokens).
    value_dtype: the dtype of what the table returns (int64, or the tokens' when inverted).
    """

    def __init__(self, tokens, start, default, mask=None, num_oov=1, oov_start=0,
                 hashing="floormod", invert=False, value_dtype=dtypes.int64, salt=None):
        self.tokens = list(tokens)
        indices = range(start, start + len(self.tokens))
        pairs = zip(indices, self.tokens) if invert else zip(self.tokens, indices)
        self.table = dict(pairs)
        self.default, self.mask, self.invert = default, mask, invert
        self.num_oov, self.oov_start, self.hashing = num_oov, oov_start, hashing
        self.value_dtype, self.salt = value_dtype, salt

    def __repr__(self):
        return f"<StaticHashTable of {len(self.table)} keys>"

    def find(self, x):
        """Look every element of the array `x` up (the op's NumPy forward)."""
        get, default = self.table.get, self.default
        found = [get(k, default) for k in x.ravel().tolist()]  # Python ints or bytes
        if self.invert and self.value_dtype == dtypes.string:
            out = np.empty(x.shape, dtype=object)
            out.flat[:] = found
        else:
            out = np.array(found, dtype=np.int64).reshape(x.shape)
        if self.mask is not None:
            out[x == self.mask[0]] = self.mask[1]
        if self.invert:
            return out
        if self.num_oov == 0:
            self._check_known(x, out)
        elif self.num_oov > 1:
            unknown = out == default
            out[unknown] = [self._bucket(k) + self.oov_start for k in x[unknown].flat]
        return out

    def _bucket(self, token):
        if not isinstance(token, bytes):
            if self.hashing != "farmhash":
                return int(token) % self.num_oov
            token = str(int(token)).encode()  # "farmhash": the integer's decimal text, hashed
        if self.salt is not None:  # tf.strings.to_hash_bucket_strong(token, n, key=salt)
            return siphash24(token, *self.salt) % self.num_oov
        return fingerprint64(token) % self.num_oov

    def _check_known(self, x, out):
        unknown = x[out == -1]
        if unknown.size:  # TF's tf.Assert of a tf.strings.format message, in its words
            shown = " ".join(f'"{v.decode(errors="replace")}"' if isinstance(v, bytes)
                             else str(v) for v in unknown.ravel()[:3])
            raise errors.InvalidArgumentError(
                None, "Assert", "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                "Summarized data: b'When `num_oov_indices=0` all inputs should be in "
                f"vocabulary, found OOV values [{shown}], consider setting "
                "`num_oov_indices=1`.' The layer was given tokens outside its vocabulary and "
                "has no OOV index to send them to.")


def _find(x, table):
    return table.find(x)


LookupTableFind = Op("LookupTableFindV2", _find, shape=lambda s, **_: s,
                     dtype=lambda d, table: table.value_dtype)


def lookup(x, table):
    """The index (or, inverted, the token) of every element of the tensor `x`."""
    return apply(LookupTableFind, [x], {"table": table})
