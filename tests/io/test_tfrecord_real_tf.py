"""Real TF 2.21 reads the TFRecord files minitf writes, and minitf's parsing, tensor bytes,
SparseTensor printing and error messages match TF's (run in the venv of tests/real_tf.py)."""
import json

import numpy as np

import minitf as tf
from real_tf import run_tf_json

TF_PRELUDE = """
import json, tensorflow as tf
def to_json(value):
    if isinstance(value, tf.SparseTensor):
        return {"indices": value.indices.numpy().tolist(), "dense_shape":
                value.dense_shape.numpy().tolist(), "values": to_json(value.values)}
    array = value.numpy()
    if value.dtype == tf.string:
        import numpy as np
        return {"dtype": "string", "shape": list(np.shape(array)),
                "flat": [v.hex() for v in np.asarray(array, dtype=object).reshape(-1)]}
    return {"dtype": value.dtype.name, "shape": list(array.shape),
            "flat": [repr(float(v)) if array.dtype.kind == "f" else int(v)
                     for v in array.reshape(-1)]}
SPEC = {"name": tf.io.FixedLenFeature([], tf.string),
        "score": tf.io.FixedLenFeature([2], tf.float32, default_value=[0.0, 0.0]),
        "ids": tf.io.VarLenFeature(tf.int64)}
"""


def to_json(value):
    if isinstance(value, tf.SparseTensor):
        return {"indices": value.indices.numpy().tolist(), "dense_shape":
                value.dense_shape.numpy().tolist(), "values": to_json(value.values)}
    array = np.asarray(value.numpy(), dtype=object if value.dtype == tf.string else None)
    if value.dtype == tf.string:
        return {"dtype": "string", "shape": list(array.shape),
                "flat": [v.hex() for v in array.reshape(-1)]}
    return {"dtype": value.dtype.name, "shape": list(array.shape),
            "flat": [repr(float(v)) if array.dtype.kind == "f" else int(v)
                     for v in array.reshape(-1)]}


SPEC = {"name": tf.io.FixedLenFeature([], tf.string),
        "score": tf.io.FixedLenFeature([2], tf.float32, default_value=[0.0, 0.0]),
        "ids": tf.io.VarLenFeature(tf.int64)}


def write_examples(folder):
    rows = [(b"a", [0.5, 1.25], [1, 2, 3]), (b"\x00b", None, []), (b"c", [1e-40, -0.0], [2 ** 40])]
    records = []
    for name, score, ids in rows:
        feature = {"name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[name])),
                   "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=ids))}
        if score is not None:
            feature["score"] = tf.train.Feature(float_list=tf.train.FloatList(value=score))
        records.append(tf.train.Example(features=tf.train.Features(feature=feature))
                       .SerializeToString())
    paths = {}
    for compression in ("", "GZIP", "ZLIB"):
        paths[compression] = str(folder / f"minitf_{compression or 'plain'}.tfrecord")
        with tf.io.TFRecordWriter(paths[compression], compression) as writer:
            for record in records:
                writer.write(record)
    return records, paths


def test_real_tf_reads_and_parses_minitf_files(tmp_path):
    records, paths = write_examples(tmp_path)
    theirs = run_tf_json(TF_PRELUDE + f"""
paths = {paths!r}
out = {{}}
for compression, path in paths.items():
    ds = tf.data.TFRecordDataset(path, compression_type=compression)
    out[compression] = {{
        "records": [r.hex() for r in ds.as_numpy_iterator()],
        "single": [{{k: to_json(v) for k, v in tf.io.parse_single_example(r, SPEC).items()}}
                   for r in ds],
        "batch": {{k: to_json(v) for k, v in
                  tf.io.parse_example(list(ds.as_numpy_iterator()), SPEC).items()}}}}
print(json.dumps(out))
""")
    ours_single = [{k: to_json(v) for k, v in tf.io.parse_single_example(r, SPEC).items()}
                   for r in records]
    ours_batch = {k: to_json(v) for k, v in tf.io.parse_example(records, SPEC).items()}
    for compression in ("", "GZIP", "ZLIB"):
        assert theirs[compression]["records"] == [r.hex() for r in records]
        assert theirs[compression]["single"] == ours_single
        assert theirs[compression]["batch"] == ours_batch


def test_same_file_bytes_as_tf_for_the_same_records(tmp_path):
    records, paths = write_examples(tmp_path)
    theirs = run_tf_json(f"""
import json, tensorflow as tf
out = {{}}
for compression in ("", "GZIP", "ZLIB"):
    path = {str(tmp_path)!r} + "/tf_" + (compression or "plain")
    with tf.io.TFRecordWriter(path, compression) as writer:
        for record in {[r.hex() for r in records]!r}:
            writer.write(bytes.fromhex(record))
    out[compression] = open(path, "rb").read().hex()
print(json.dumps(out))
""")
    for compression, path in paths.items():
        assert open(path, "rb").read().hex() == theirs[compression]


CASES = [  # (spec, serialized) run through parse_single_example (or parse_example: list input)
    ('{"zz": tf.io.FixedLenFeature([], tf.int64)}', "RECORD"),
    ('{"zz": tf.io.FixedLenFeature([], tf.int64)}', "[RECORD, RECORD]"),
    ('{"a": tf.io.FixedLenFeature([3], tf.int64)}', "RECORD"),
    ('{"a": tf.io.FixedLenFeature([3], tf.int64)}', "[RECORD]"),
    ('{"a": tf.io.FixedLenFeature([2], tf.float32)}', "RECORD"),
    ('{"a": tf.io.FixedLenFeature([2], tf.float32)}', "[RECORD]"),
    ('{"a": tf.io.VarLenFeature(tf.string)}', "RECORD"),
    ('{"a": tf.io.FixedLenFeature([2], tf.int32)}', "RECORD"),
    ('{"a": 3}', "RECORD"),
    ('{"a": tf.io.FixedLenFeature([2], tf.int64)}', 'b"abc"'),
    ('{"a": tf.io.FixedLenFeature([2], tf.int64)}', "[[RECORD]]"),
    ('{"q": tf.io.FixedLenFeature([2], tf.float32, default_value=1.0)}', "RECORD"),
]
CASE_RUNNER = """
import re
RECORD = tf.train.Example(features=tf.train.Features(feature={
    "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2]))})).SerializeToString()
results = []
for spec, serialized in CASES:
    data = eval(serialized)
    parse = tf.io.parse_example if isinstance(data, list) else tf.io.parse_single_example
    try:
        parse(data, eval(spec))
        results.append(["ok", ""])
    except Exception as e:
        text = re.sub(r"^\\{\\{function_node [^}]*\\}\\}\\s*", "", str(e))
        results.append([type(e).__name__, text.split(" [Op:")[0].split("\\n\\t;")[0]])
"""


def test_parse_errors_match_tf():
    theirs = run_tf_json("import json, tensorflow as tf\nCASES = " + repr(CASES) + CASE_RUNNER
                         + "print(json.dumps(results))")
    namespace = {"tf": tf, "CASES": CASES}
    exec(CASE_RUNNER, namespace)
    for case, (kind, text), (our_kind, our_text) in zip(CASES, theirs, namespace["results"]):
        assert our_kind == kind, case
        assert our_text.startswith(text.rstrip(".") if text.endswith("..") else text), case


def test_tensor_bytes_and_sparse_printing_match_tf():
    values = [("[[1.5, -2.0]]", "tf.float32"), ("[1, 2]", "tf.int64"), ("[True]", "tf.bool"),
              ("[b'x', b'']", "tf.string"), ("7", "tf.uint8"), ("[]", "tf.float64")]
    theirs = run_tf_json(f"""
import json, tensorflow as tf
out = [tf.io.serialize_tensor(tf.constant(eval(v), eval(d))).numpy().hex() for v, d in {values!r}]
sp = tf.SparseTensor([[0, 1], [2, 0]], [1.5, 2.0], [3, 2])
print(json.dumps([out, repr(sp), str(tf.sparse.to_dense(sp))]))
""")
    ours = [tf.io.serialize_tensor(tf.constant(eval(v), eval(d))).numpy().hex()
            for v, d in values]
    sp = tf.SparseTensor([[0, 1], [2, 0]], [1.5, 2.0], [3, 2])
    assert ours == theirs[0]
    assert repr(sp) == theirs[1]
    assert str(tf.sparse.to_dense(sp)) == theirs[2]


def test_fixture_expectations_still_hold_in_tf():
    """The committed expected.json is what today's real TF parses from the committed files."""
    theirs = run_tf_json(TF_PRELUDE + """
import os
folder = %r
ds = tf.data.TFRecordDataset(os.path.join(folder, "examples_zlib.tfrecord"), "ZLIB")
print(json.dumps([r.hex() for r in ds.as_numpy_iterator()]))
""" % str(__import__("pathlib").Path(__file__).parent.parent / "fixtures" / "tfrecord"))
    expected = json.load(open(__import__("pathlib").Path(__file__).parent.parent / "fixtures"
                              / "tfrecord" / "expected.json"))
    assert theirs == expected["records"]
