"""The same tf.lookup / table_from_dataset program run by real TF 2.21 and by minitf gives
the same values, dtypes, shapes and error classes (one TF subprocess for the file, which also
reads tf.version: see test_version.py)."""
import json
import textwrap

import numpy as np
import pytest

import minitf
from real_tf import run_tf_json

# Written once against the TF API; run by both. `record(name, thunk)` stores what the
# thunk returns (tensors as dtype/shape/values) or the class name of what it raises.
PROGRAM = textwrap.dedent("""
    L, E, DX = tf.lookup, tf.lookup.experimental, tf.data.experimental
    i64 = lambda v: tf.constant(v, tf.int64)
    words = ["a", "b", "c", "d", "e", "zz", "hello", "", "tensorflow", "naïve"]
    vocab = L.StaticVocabularyTable(L.KeyValueTensorInitializer(
        ["a", "b", "c"], i64([0, 1, 2])), num_oov_buckets=7)
    record("vocab", lambda: vocab.lookup(tf.constant(words)))
    record("vocab_size", lambda: vocab.size())
    ints = L.KeyValueTensorInitializer(i64([10, 20]), i64([0, 1]))
    record("vocab_int", lambda: L.StaticVocabularyTable(ints, 5).lookup(
        i64([10, 20, 7, 8, 9, 100, -3, 123456789012])))
    table = L.StaticHashTable(L.KeyValueTensorInitializer(["a", "b", "c"], [1, 2, 3]), -1)
    record("static", lambda: table.lookup(tf.constant([["a", "z"], ["c", "b"]])))
    record("static_size", lambda: table.size())
    record("static_export_sorted", lambda: sorted(table.export()[1].numpy().tolist()))
    record("static_default", lambda: table.default_value)
    record("static_wrong_dtype", lambda: table.lookup(tf.constant([1])))
    record("static_dup", lambda: L.StaticHashTable(
        L.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1))
    record("static_len", lambda: L.StaticHashTable(
        L.KeyValueTensorInitializer(["a", "b"], [1]), -1))
    record("static_float_keys", lambda: L.StaticHashTable(
        L.KeyValueTensorInitializer([1.0], [1]), -1))
    record("static_bad_default", lambda: L.StaticHashTable(
        L.KeyValueTensorInitializer(["a"], [1]), -1.5))
    record("vocab_zero", lambda: L.StaticVocabularyTable(ints, 0))
    record("vocab_int32_values", lambda: L.StaticVocabularyTable(
        L.KeyValueTensorInitializer(["a"], [0]), 1))
    m = E.MutableHashTable(tf.string, tf.float32, [0.0, -1.0])
    m.insert(["x", "y"], [[1.0, 2.0], [3.0, 4.0]])
    m.remove(tf.constant(["x", "nope"]))
    record("mutable", lambda: m.lookup(tf.constant(["x", "y", "w"])))
    record("mutable_size", lambda: m.size())
    record("mutable_export", lambda: m.export())
    record("mutable_bad_shape", lambda: m.insert(["a"], [[1.0]]))
    record("mutable_bad_kernel", lambda: E.MutableHashTable(tf.int32, tf.string, ""))
    d = E.DenseHashTable(tf.int64, tf.int64, -1, empty_key=-1, deleted_key=-2,
                         initial_num_buckets=8)
    d.insert(i64([5, 13, 21, 3, 12, 4]), i64([1, 2, 3, 4, 5, 6]))
    d.remove(i64([13]))
    d.insert(i64([29, 37, 45]), i64([7, 8, 9]))
    record("dense_export", lambda: d.export())
    record("dense_lookup", lambda: d.lookup(i64([5, 13, 45, 12, 99])))
    s = E.DenseHashTable(tf.string, tf.int64, -1, empty_key="", deleted_key="$",
                         initial_num_buckets=16)
    s.insert(tf.constant(["cat", "dog", "emu", "yak", "gnu"]), i64([1, 2, 3, 4, 5]))
    record("dense_string_export", lambda: s.export())
    record("dense_empty_key", lambda: d.lookup(i64([-1])))
    record("from_dataset", lambda: DX.table_from_dataset(tf.data.Dataset.from_tensor_slices(
        (["x", "y"], i64([5, 6]))), num_oov_buckets=3).lookup(tf.constant(["y", "q", "r"])))
    record("index_from_dataset", lambda: DX.index_table_from_dataset(
        tf.data.Dataset.from_tensor_slices(["x", "y", "z"]), num_oov_buckets=2).lookup(
        tf.constant(["z", "x", "other", "more"])))
    fn_table = E.MutableHashTable(tf.string, tf.int64, 0)

    @tf.function(autograph=False)
    def bump(w):
        fn_table.insert(w, fn_table.lookup(w) + 1)
        return fn_table.size()
    record("in_function", lambda: [int(bump(tf.constant(w))) for w in ["a", "b", "a", "c"]]
           + fn_table.lookup(tf.constant(["a", "b", "c"])).numpy().tolist())
    record("version", lambda: [tf.version.VERSION, tf.version.GRAPH_DEF_VERSION,
                               tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER,
                               tf.version.GRAPH_DEF_VERSION_MIN_PRODUCER,
                               isinstance(tf.version.GIT_VERSION, str),
                               isinstance(tf.version.COMPILER_VERSION, str)])
    record("in_map", lambda: list(tf.data.Dataset.from_tensor_slices(["b", "q", "a"]).map(
        vocab.lookup).as_numpy_iterator()))
""")

RECORDER = textwrap.dedent("""
    import json
    import numpy as np
    RESULTS = {}

    def plain(value):
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if hasattr(value, "numpy"):
            array = np.asarray(value.numpy())
            flat = [v.decode("latin-1") if isinstance(v, bytes) else v
                    for v in array.reshape(-1).tolist()]
            return {"dtype": value.dtype.name, "shape": list(array.shape), "flat": flat}
        if isinstance(value, (np.generic,)):
            return value.item()
        return value

    def record(name, thunk):
        try:
            RESULTS[name] = plain(thunk())
        except Exception as e:
            RESULTS[name] = "raised " + type(e).__name__
""")


@pytest.fixture(scope="module")
def real():
    return run_tf_json("import tensorflow as tf\n" + RECORDER + PROGRAM
                       + "\nprint(json.dumps(RESULTS))")


@pytest.fixture(scope="module")
def ours():
    space = {"tf": minitf}
    exec(RECORDER + PROGRAM, space)
    return json.loads(json.dumps(space["RESULTS"]))


NAMES = [line.split('"')[1] for line in PROGRAM.splitlines() if 'record("' in line]


@pytest.mark.parametrize("name", NAMES)
def test_lookup_matches_real_tf(real, ours, name):
    if name == "mutable_export":  # entries come in TF's hash order: compare them sorted
        for result in (real, ours):
            keys, values = result[name]
            rows = sorted(zip(keys["flat"], np.reshape(values["flat"], (-1, 2)).tolist()))
            keys["flat"] = [k for k, _ in rows]
            values["flat"] = [x for _, v in rows for x in v]
    assert ours[name] == real[name], name


def test_program_covers_what_it_says():
    assert len(NAMES) >= 25 and "dense_string_export" in NAMES
