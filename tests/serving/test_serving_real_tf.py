"""The metadata route's signature defs against the SignatureDef protos real TF 2.21
writes for the same module, printed as JSON the way TF Serving prints them
(proto field names kept, empty fields shown). TF Serving itself cannot be
installed here, so this compares with TF's own protos."""
import json

import pytest

import minitf.serving
from real_tf import run_tf_json
from serving_http import call, save_version

TF_SIGNATURE_DEFS = """
import json, os, tempfile
import tensorflow as tf
from google.protobuf import json_format
from tensorflow.core.protobuf import saved_model_pb2

class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0], [2.0]])
        self.b = tf.Variable(0.5)
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, "x")])
    def serve(self, x):
        return {"y": tf.matmul(x, self.w) + self.b}
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, "a"),
                                  tf.TensorSpec([None], tf.int32, "n")])
    def pair(self, a, n):
        return {"sum": a + tf.cast(n, tf.float32), "double": a * 2.0}
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, "a")])
    def total(self, a):
        return {"total": tf.reduce_sum(a), "scaled": a * 3.0}

m = Linear()
path = os.path.join(tempfile.mkdtemp(), "1")
tf.saved_model.save(m, path, signatures={"serving_default": m.serve, "pair": m.pair,
                                         "total": m.total})
saved = saved_model_pb2.SavedModel()
with open(os.path.join(path, "saved_model.pb"), "rb") as f:
    saved.ParseFromString(f.read())
print(json.dumps({key: json_format.MessageToDict(
    value, preserving_proto_field_name=True, always_print_fields_with_no_presence=True)
    for key, value in saved.meta_graphs[0].signature_def.items()}))
"""


@pytest.fixture(scope="module")
def real_tf_defs():
    return run_tf_json(TF_SIGNATURE_DEFS)


def test_signature_defs_match_real_tf(real_tf_defs, tmp_path):
    save_version(str(tmp_path), 1)
    with minitf.serving.start("m", str(tmp_path), file_system_poll_wait_seconds=0) as server:
        ours = call(server.port, "GET", "/v1/models/m/metadata")[1]["metadata"][
            "signature_def"]["signature_def"]
    theirs = {k: v for k, v in real_tf_defs.items() if k != "__saved_model_init_op"}
    assert sorted(ours) == sorted(theirs) == ["pair", "serving_default", "total"]
    for key in theirs:  # output names too: StatefulPartitionedCall / PartitionedCall_1 ...
        assert json.dumps(ours[key], sort_keys=True) == json.dumps(theirs[key], sort_keys=True)
    assert real_tf_defs["__saved_model_init_op"]["method_name"] == ""  # the one minitf lacks
