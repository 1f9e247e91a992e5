"""JSON <-> tensors: strings and {"b64": ...}, dtype checks, limits (mostly without a
server), and binary strings through a real server."""
import base64
import json

import numpy as np
import pytest

import minitf as tf
import minitf.serving
from minitf.framework import dtypes
from minitf.serving.errors import InvalidArgument
from minitf.serving.json_tensors import MAX_DEPTH, to_array, to_json
from serving_http import call, save_version


class Echo(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, "s")])
    def serve(self, s):
        return {"echo_bytes": tf.identity(s), "length": tf.strings.length(s)}


@pytest.fixture(scope="module")
def echo_server(tmp_path_factory):
    base = tmp_path_factory.mktemp("echo")
    tf.saved_model.save(Echo(), str(base / "1"))
    with minitf.serving.start("echo", str(base), file_system_poll_wait_seconds=0) as server:
        yield server


def b64(data):
    return {"b64": base64.b64encode(data).decode()}


def test_binary_strings_in_and_out_as_b64(echo_server):
    raw = b"ab\xff\x00"
    code, answer = call(echo_server.port, "POST", "/v1/models/echo:predict",
                        {"instances": [b64(raw), "plain"]})
    assert code == 200
    assert answer == {"predictions": [{"echo_bytes": b64(raw), "length": 4},
                                      {"echo_bytes": b64(b"plain"), "length": 5}]}
    code, answer = call(echo_server.port, "POST", "/v1/models/echo:predict",
                        {"inputs": {"s": ["héllo"]}})
    assert answer == {"outputs": {"echo_bytes": [b64("héllo".encode())], "length": [6]}}


@pytest.mark.parametrize("instances,words", [
    ([{"b64": "not base64!"}], "not valid base64"),
    ([{"b64": 3}], '{"b64": "<base64 text>"}'),
    ([1], "Type: Number is not of expected type: string"),
])
def test_bad_strings(echo_server, instances, words):
    code, answer = call(echo_server.port, "POST", "/v1/models/echo:predict",
                        {"instances": instances})
    assert code == 400 and words in answer["error"], answer


def test_to_array_dtypes_and_shapes():
    assert to_array(3, dtypes.int64, "k").dtype == np.int64
    assert to_array([[True], [False]], dtypes.bool, "b").tolist() == [[True], [False]]
    assert to_array([[], []], dtypes.float32, "x").shape == (2, 0)
    with pytest.raises(InvalidArgument, match="not of expected type: int32"):
        to_array([1, 2.0], dtypes.int32, "k")  # TF Serving refuses 2.0 for an int too
    with pytest.raises(InvalidArgument, match="Type: Null"):
        to_array([None], dtypes.float32, "x")
    with pytest.raises(InvalidArgument, match="out of range"):
        to_array([300], dtypes.uint8, "u")
    with pytest.raises(InvalidArgument, match="complex inputs are not supported"):
        to_array([1.0], dtypes.complex64, "c")
    deep = 1.0
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    with pytest.raises(InvalidArgument, match="nested deeper"):
        to_array(deep, dtypes.float32, "x")


def test_to_json():
    assert to_json(np.float32(0.1)) == 0.1
    assert json.dumps(to_json(np.array([[0.1, 1 / 3]], np.float32))) == "[[0.1, 0.33333334]]"
    assert to_json(np.array([1.0 / 3], np.float64)) == [1 / 3]  # doubles keep every digit
    assert to_json(np.zeros((2, 0), np.float32)) == [[], []]
    assert to_json(np.array([1, 2], np.int64)) == [1, 2]
    assert to_json(np.array([True])) == [True]
    assert to_json(np.array([b"a\xff"], object)) == ["a\ufffd"]


def test_deeply_nested_json_body_is_a_400(tmp_path):
    save_version(str(tmp_path), 1)
    with minitf.serving.start("m", str(tmp_path), file_system_poll_wait_seconds=0) as server:
        raw = b'{"instances": ' + b"[" * 100000 + b"]" * 100000 + b"}"
        code, answer = call(server.port, "POST", "/v1/models/m:predict", raw=raw)
        assert code == 400 and "JSON Parse error" in answer["error"]
        assert call(server.port, "POST", "/v1/models/m:predict", {"instances": [[1, 2]]}) == \
            (200, {"predictions": [[5.5]]})
