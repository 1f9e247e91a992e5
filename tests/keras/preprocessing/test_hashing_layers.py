"""keras.layers.Hashing / HashedCrossing and tf.strings.to_hash_bucket_strong: the buckets
follow from FarmHash/SipHash (checked by hand where small), and equal TF 2.21's."""
import os
import tempfile

import numpy as np
import pytest

import minitf as tf
from minitf.ops.hash_ops import fingerprint64
from minitf.ops.siphash_ops import siphash24
from tests.real_tf import run_tf_json

L = tf.keras.layers


def test_siphash_reference_vectors():
    # The SipHash paper's test vector: key 00 01 .. 0f, message 00 01 .. 0e.
    k0 = int.from_bytes(bytes(range(8)), "little")
    k1 = int.from_bytes(bytes(range(8, 16)), "little")
    assert siphash24(bytes(range(15)), k0, k1) == 0xA129CA6149BE45E5
    assert siphash24(b"", k0, k1) == 0x726FDB47DD0E0E31


def test_to_hash_bucket_strong():
    out = tf.strings.to_hash_bucket_strong(["a", "hello"], 1000, key=[3, 4])
    assert out.dtype == tf.int64
    assert out.numpy().tolist() == [siphash24(b"a", 3, 4) % 1000, siphash24(b"hello", 3, 4) % 1000]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Key must have 2 elements"):
        tf.strings.to_hash_bucket_strong(["a"], 3, key=[1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be at least minimum 1"):
        tf.strings.to_hash_bucket_strong(["a"], 0, key=[1, 2])


def test_hashing_is_fingerprint64_of_the_text():
    out = L.Hashing(7)([["cat"], ["dog"]])
    assert out.dtype == tf.int64 and out.shape == (2, 1)
    assert out.numpy().ravel().tolist() == [fingerprint64(b"cat") % 7, fingerprint64(b"dog") % 7]
    ints = L.Hashing(7)(np.array([[42], [-3]]))  # integers are hashed as their text
    assert ints.numpy().ravel().tolist() == [fingerprint64(b"42") % 7, fingerprint64(b"-3") % 7]
    floats = L.Hashing(7)(np.array([42.9]))  # truncated to 42 first
    assert floats.numpy().tolist() == [fingerprint64(b"42") % 7]


def test_mask_value_takes_bucket_0_and_salt_uses_siphash():
    out = L.Hashing(3, mask_value="")([["A"], [""]]).numpy().ravel()
    assert out.tolist() == [fingerprint64(b"A") % 2 + 1, 0]
    salted = L.Hashing(5, salt=133)([["A"]]).numpy().ravel()
    assert salted.tolist() == [siphash24(b"A", 133, 133) % 5]
    assert L.Hashing(5, salt=[1, 2]).get_config()["salt"] == [1, 2]


def test_hashing_output_modes_and_errors():
    counts = L.Hashing(3, output_mode="count")(np.array([["A", "A"]]))
    assert counts.dtype == tf.float32 and counts.numpy().sum() == 2.0
    assert L.Hashing(3, output_mode="one_hot")([["A"], ["B"]]).shape == (2, 3)
    with pytest.raises(ValueError, match="cannot be `None` or non-positive"):
        L.Hashing(0)
    with pytest.raises(ValueError, match="should be an integer type"):
        L.Hashing(3, dtype="float32")
    with pytest.raises(ValueError, match="`salt` argument"):
        L.Hashing(3, salt="x")
    with pytest.raises(ValueError, match="Invalid value for argument `output_mode`"):
        L.Hashing(3, output_mode="x")


def test_hashed_crossing_matches_the_feature_column_cross():
    cross = L.HashedCrossing(5)
    out = cross((np.array([1, 2]), np.array(["A", "B"])))
    assert out.dtype == tf.int64 and out.shape == (2,)
    column = tf.feature_column.crossed_column(["a", "b"], 5)
    ids = column.get_ids({"a": np.array([[1], [2]]), "b": np.array([["A"], ["B"]])})
    assert out.numpy().tolist() == ids.numpy().ravel().tolist()
    assert cross((np.array([[1]]), np.array([["A"]]))).shape == (1, 1)
    assert cross((np.array(1), np.array("A"))).shape == ()
    one_hot = L.HashedCrossing(5, output_mode="one_hot")((np.array([1]), np.array(["A"])))
    assert one_hot.numpy().tolist() == [[1. if i == out.numpy()[0] else 0. for i in range(5)]]


def test_hashed_crossing_errors():
    cross = L.HashedCrossing(5)
    with pytest.raises(ValueError, match="list or tuple of inputs"):
        cross(np.array([1, 2]))
    with pytest.raises(ValueError, match="at least two inputs"):
        cross((np.array([1, 2]),))
    with pytest.raises(ValueError, match="should have shape"):
        cross((np.array([[1, 2]]), np.array([[1, 2]])))
    with pytest.raises(ValueError, match="equal shape"):
        cross((np.array([1, 2]), np.array([1])))
    with pytest.raises(ValueError, match="integer or string dtype"):
        cross((np.array([1., 2.]), np.array([1, 2])))
    with pytest.raises(ValueError, match="Allowed values are"):
        L.HashedCrossing(5, output_mode="count")


def test_in_a_model_dataset_map_and_keras_file():
    words = tf.keras.Input((1,), dtype="string")
    codes = tf.keras.Input((1,), dtype="int64")
    hashed = L.Hashing(4, output_mode="one_hot")(words)
    crossed = L.HashedCrossing(6, output_mode="one_hot")((codes, words))
    assert hashed.shape == (None, 4) and crossed.shape == (None, 6)
    model = tf.keras.Model([words, codes], L.Concatenate()([hashed, crossed]))
    x = [np.array([["A"], ["B"]]), np.array([[1], [2]])]
    path = os.path.join(tempfile.mkdtemp(), "h.keras")
    model.save(path)
    np.testing.assert_array_equal(tf.keras.models.load_model(path)(x).numpy(), model(x).numpy())
    ds = tf.data.Dataset.from_tensor_slices(np.array([["A"], ["B"]])).batch(2).map(L.Hashing(4))
    np.testing.assert_array_equal(next(iter(ds)).numpy(), L.Hashing(4)(x[0]).numpy())
    pairs = tf.data.Dataset.from_tensor_slices((x[1], x[0])).batch(2).map(
        lambda a, b: L.HashedCrossing(6)((a, b)))
    np.testing.assert_array_equal(next(iter(pairs)).numpy(),
                                  L.HashedCrossing(6)((x[1], x[0])).numpy())


CASES = """
words = ["", "a", "hello", "abcdefgh", "abcdefghijklmnopq", "x" * 63]
cols = [np.array([["A"], ["B"], ["C"], ["D"], [""]]), np.array([[1], [2], [-3], [0], [7]])]
"""
REAL_TF = "import json, numpy as np, tensorflow as tf\nL = tf.keras.layers\n" + CASES + """
out = [tf.strings.to_hash_bucket_strong(words, 2**62, key=[1, 2]).numpy().tolist()]
for kwargs in ({}, {"mask_value": ""}, {"salt": 133}, {"salt": [7, 9]}, {"mask_value": 0}):
    for col in cols:
        if "mask_value" in kwargs and type(kwargs["mask_value"]) != type(col.flat[0].item()):
            continue
        out.append(L.Hashing(5, **kwargs)(col).numpy().tolist())
out.append(L.HashedCrossing(7)((cols[1], cols[0])).numpy().tolist())
out.append(L.HashedCrossing(7)((cols[0], cols[1], cols[1])).numpy().tolist())
out.append(L.HashedCrossing(2**40)((cols[1].ravel(), cols[1].ravel())).numpy().tolist())
print(json.dumps(out))
"""


def test_same_buckets_as_real_tf():
    real = run_tf_json(REAL_TF)
    scope = {"np": np}
    exec(CASES, scope)
    words, cols = scope["words"], scope["cols"]
    mine = [tf.strings.to_hash_bucket_strong(words, 2**62, key=[1, 2]).numpy().tolist()]
    for kwargs in ({}, {"mask_value": ""}, {"salt": 133}, {"salt": [7, 9]}, {"mask_value": 0}):
        for col in cols:
            if "mask_value" in kwargs and type(kwargs["mask_value"]) != type(col.flat[0].item()):
                continue
            mine.append(L.Hashing(5, **kwargs)(col).numpy().tolist())
    mine.append(L.HashedCrossing(7)((cols[1], cols[0])).numpy().tolist())
    mine.append(L.HashedCrossing(7)((cols[0], cols[1], cols[1])).numpy().tolist())
    mine.append(L.HashedCrossing(2**40)((cols[1].ravel(), cols[1].ravel())).numpy().tolist())
    assert mine == real
