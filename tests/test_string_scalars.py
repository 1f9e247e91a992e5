"""One string taken out of a string tensor keeps every byte, as in TF 2.21.

NumPy's fixed-width bytes (dtype 'S') drop trailing NUL bytes when read, so a
kernel result that went through `np.asarray(b"a\\x00")` came back as b"a" - a
serialized proto or tensor ending in a zero byte was silently cut. minitf keeps
strings in object arrays everywhere; these are the paths that made one string.
The expected reprs are what TF 2.21 prints for the same calls.
"""
import pytest

import minitf as tf

WORDS = [b"a\x00", b"bc"]

CASES = {
    "index": lambda t: t[0],
    "gather with a scalar index": lambda t: tf.gather(t, 0),
    "unstack": lambda t: tf.unstack(t)[0],
    "iteration": lambda t: next(iter(t)),
    "reshape to a scalar": lambda t: tf.reshape(t[:1], []),
    "Dataset element": lambda t: next(iter(tf.data.Dataset.from_tensor_slices(t))),
    "inside tf.function": lambda t: tf.function(lambda x: x[0], autograph=False)(t),
}


@pytest.mark.parametrize("how", list(CASES))
def test_one_string_keeps_its_trailing_nul(how):
    one = CASES[how](tf.constant(WORDS))
    assert one.numpy() == b"a\x00"
    assert type(one.numpy()) is bytes
    assert repr(one) == "<tf.Tensor: shape=(), dtype=string, numpy=b'a\\x00'>"


def test_a_parsed_tensor_round_trips_through_an_indexed_string():
    serialized = tf.stack([tf.io.serialize_tensor(tf.constant([0.0, 0.0]))])
    back = tf.io.parse_tensor(serialized[0], out_type=tf.float32)  # its bytes end in NULs
    assert back.numpy().tolist() == [0.0, 0.0]


def test_numeric_rows_still_iterate_as_views_of_their_dtype():
    rows = list(tf.constant([[1, 2], [3, 4]]))
    assert [r.numpy().tolist() for r in rows] == [[1, 2], [3, 4]]
    assert rows[0].dtype == tf.int32
