"""Every route and every error of the REST API, against a real server on a free
loopback port (no real TF needed: TF Serving cannot be installed here)."""
import http.client
import json

import numpy as np
import pytest

import minitf.serving
from minitf.tools import saved_model_cli
from serving_http import call, expected_y, save_version


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = str(tmp_path_factory.mktemp("models"))
    save_version(base, 1)
    server = minitf.serving.start(model_name="m", model_base_path=base,
                                  file_system_poll_wait_seconds=0)
    yield server
    server.stop()


def predict(server, body, path="/v1/models/m:predict"):
    return call(server.port, "POST", path, body)


def test_binds_loopback_on_a_free_port(server):
    assert server.host == "127.0.0.1" and server.port > 0
    assert server.url == f"http://127.0.0.1:{server.port}"


def test_model_status(server):
    ok = {"error_code": "OK", "error_message": ""}
    assert call(server.port, "GET", "/v1/models/m") == (200, {"model_version_status": [
        {"version": "1", "state": "AVAILABLE", "status": ok}]})
    assert call(server.port, "GET", "/v1/models/m/versions/1") == (200, {
        "model_version_status": [{"version": "1", "state": "AVAILABLE", "status": ok}]})


def test_metadata_matches_saved_model_cli(server, capsys):
    status, answer = call(server.port, "GET", "/v1/models/m/metadata")
    assert status == 200
    assert answer["model_spec"] == {"name": "m", "signature_name": "", "version": "1"}
    defs = answer["metadata"]["signature_def"]["signature_def"]
    assert sorted(defs) == ["pair", "serving_default", "total"]
    x = defs["serving_default"]["inputs"]["x"]
    assert x == {"dtype": "DT_FLOAT", "name": "serving_default_x:0", "tensor_shape": {
        "dim": [{"size": "-1", "name": ""}, {"size": "2", "name": ""}], "unknown_rank": False}}
    assert defs["serving_default"]["method_name"] == "tensorflow/serving/predict"
    assert defs["pair"]["inputs"]["n"]["dtype"] == "DT_INT32"
    assert defs["total"]["outputs"]["total"]["tensor_shape"] == {"dim": [],
                                                                 "unknown_rank": False}
    # The same facts as saved_model_cli show prints (which is compared with real TF's).
    path = server.stores["m"].get().path
    for key, sig in defs.items():
        saved_model_cli.main(["show", "--dir", path, "--tag_set", "serve",
                              "--signature_def", key])
        text = capsys.readouterr().out
        for kind in ("inputs", "outputs"):
            for name, info in sig[kind].items():
                dims = ", ".join(d["size"] for d in info["tensor_shape"]["dim"])
                assert (f"{kind}['{name}'] tensor_info:\n      dtype: {info['dtype']}\n"
                        f"      shape: ({dims})\n      name: {info['name']}") in text
    assert call(server.port, "GET", "/v1/models/m/versions/1/metadata")[1] == answer


def test_row_format_one_input(server):
    x = [[1.0, 2.0], [3.0, -4.5]]
    status, answer = predict(server, {"instances": x})
    assert status == 200
    np.testing.assert_allclose(answer["predictions"], expected_y(x))
    assert answer == {"predictions": [[5.5], [-5.5]]}
    # ints are fine for a float input; the version may be named
    assert predict(server, {"instances": [[1, 2]]}, "/v1/models/m/versions/1:predict") == \
        (200, {"predictions": [[5.5]]})
    # named rows work with one input too
    assert predict(server, {"instances": [{"x": [1, 2]}]})[1] == {"predictions": [[5.5]]}


def test_columnar_format_one_input(server):
    assert predict(server, {"inputs": [[1.0, 2.0], [0.0, 0.0]]}) == \
        (200, {"outputs": [[5.5], [0.5]]})
    assert predict(server, {"inputs": {"x": [[1.0, 2.0]]}}) == (200, {"outputs": [[5.5]]})
    assert predict(server, {"signature_name": "serving_default", "inputs": [[0.1, 0.1]]}) == \
        (200, {"outputs": [[0.8]]})  # float32 printed shortest


def test_several_inputs_and_outputs(server):
    body = {"signature_name": "pair", "instances": [{"a": 1.5, "n": 2}, {"a": -1.0, "n": 0}]}
    assert predict(server, body) == (200, {"predictions": [
        {"sum": 3.5, "double": 3.0}, {"sum": -1.0, "double": -2.0}]})
    body = {"signature_name": "pair", "inputs": {"a": [1.5, -1.0], "n": [2, 0]}}
    assert predict(server, body) == (200, {"outputs": {"sum": [3.5, -1.0],
                                                       "double": [3.0, -2.0]}})
    # a scalar output is fine in the columnar format
    assert predict(server, {"signature_name": "total", "inputs": [1.0, 2.0]}) == \
        (200, {"outputs": {"total": 3.0, "scaled": [3.0, 6.0]}})


BAD = [  # (body bytes or JSON, path, status, words in the error)
    (b"{not json", "/v1/models/m:predict", 400, "JSON Parse error"),
    (b"\xff\xfe", "/v1/models/m:predict", 400, "JSON Parse error"),
    ([1, 2], "/v1/models/m:predict", 400, "JSON object"),
    ({"signature_name": "serving_default"}, "/v1/models/m:predict", 400,
     "Missing 'inputs' or 'instances' key"),
    ({"instances": [[1, 2]], "inputs": [[1, 2]]}, "/v1/models/m:predict", 400, "Not both"),
    ({"instances": []}, "/v1/models/m:predict", 400, "non-empty"),
    ({"instances": [[1, 2, 3]]}, "/v1/models/m:predict", 400, "has shape [1, 3]"),
    ({"inputs": [1, 2]}, "/v1/models/m:predict", 400, "expects [-1, 2]"),
    ({"instances": [["a", "b"]]}, "/v1/models/m:predict", 400, "is not of expected type"),
    ({"instances": [[True, 1]]}, "/v1/models/m:predict", 400, "Type: Bool"),
    ({"instances": [[1, 2], [3]]}, "/v1/models/m:predict", 400, "different lengths"),
    ({"instances": [[1, [2]]]}, "/v1/models/m:predict", 400, "same shape"),
    ({"inputs": {"y": [[1, 2]]}}, "/v1/models/m:predict", 400, "'inputs' names ['y']"),
    ({"signature_name": "pair", "instances": [{"a": 1.0, "n": 1.5}]},
     "/v1/models/m:predict", 400, "not of expected type: int32"),
    ({"signature_name": "pair", "instances": [{"a": 1.0, "n": 2**40}]},
     "/v1/models/m:predict", 400, "out of range"),
    ({"signature_name": "pair", "instances": [1.0]}, "/v1/models/m:predict", 400,
     "must name the inputs"),
    ({"signature_name": "pair", "instances": [{"a": 1.0}]}, "/v1/models/m:predict", 400,
     "missing input(s) ['n']"),
    ({"signature_name": "pair", "instances": [{"a": 1.0, "n": 1, "z": 0}]},
     "/v1/models/m:predict", 400, "unknown input(s) ['z']"),
    ({"signature_name": "pair", "instances": [{"a": 1.0, "n": 1}, 2.0]},
     "/v1/models/m:predict", 400, "mixes objects"),
    ({"signature_name": "total", "instances": [1.0, 2.0]}, "/v1/models/m:predict", 400,
     "columnar format"),
    ({"signature_name": "nope", "instances": [[1, 2]]}, "/v1/models/m:predict", 404,
     'Serving signature key "nope" not found'),
    ({"instances": [[1, 2]]}, "/v1/models/other:predict", 404,
     "Servable not found for request: Latest(other)"),
    ({"instances": [[1, 2]]}, "/v1/models/m/versions/9:predict", 404,
     "Servable not found for request: Specific(m, 9)"),
    ({"instances": [[1, 2]]}, "/v1/models/m:classify", 400, "Malformed request"),
    ({"instances": [[1, 2]]}, "/v2/models/m:predict", 400, "Malformed request"),
]


@pytest.mark.parametrize("body,path,status,words", BAD)
def test_bad_requests_get_4xx_and_the_server_keeps_serving(server, body, path, status, words):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    code, answer = call(server.port, "POST", path, raw=raw)
    assert code == status and list(answer) == ["error"] and words in answer["error"], answer
    assert predict(server, {"instances": [[1, 2]]}) == (200, {"predictions": [[5.5]]})


@pytest.mark.parametrize("path,status,words", [
    ("/v1/models/other", 404, "Could not find any versions of model other"),
    ("/v1/models/other/metadata", 404, "Servable not found for request: Latest(other)"),
    ("/v1/models/m/versions/4", 404, "Could not find version 4 of model m"),
    ("/v1/models/m/versions/4/metadata", 404, "Specific(m, 4)"),
    ("/v1/models/m:predict", 400, "Malformed request: GET"),
    ("/v1/models/m/versions/x", 400, "Malformed request"),
    ("/", 400, "Malformed request"),
])
def test_bad_gets(server, path, status, words):
    code, answer = call(server.port, "GET", path)
    assert code == status and words in answer["error"], answer


def test_missing_content_length_is_refused(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.putrequest("POST", "/v1/models/m:predict")
    conn.endheaders()
    response = conn.getresponse()
    assert response.status == 400 and "Content-Length" in json.loads(response.read())["error"]
    conn.close()


def test_keep_alive_connection_survives_errors(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    for _ in range(3):
        assert call(server.port, "POST", "/v1/models/m:predict", raw=b"[", connection=conn)[0] \
            == 400
        assert call(server.port, "POST", "/v1/models/m:predict", {"instances": [[1, 2]]},
                    connection=conn) == (200, {"predictions": [[5.5]]})
    conn.close()


def test_body_over_the_limit_gets_413(tmp_path):
    save_version(str(tmp_path), 1)
    with minitf.serving.start("m", str(tmp_path), max_body_bytes=64,
                              file_system_poll_wait_seconds=0) as small:
        big = {"instances": [[1.0, 2.0]] * 50}
        code, answer = call(small.port, "POST", "/v1/models/m:predict", big)
        assert code == 413 and "over this server's limit of 64 bytes" in answer["error"]
        # a body far larger than the socket buffers still gets its 413, not a broken pipe
        code, answer = call(small.port, "POST", "/v1/models/m:predict",
                            raw=b"[" + b"1," * 4_000_000 + b"1]")
        assert code == 413 and "8000003 bytes" in answer["error"]
        assert call(small.port, "POST", "/v1/models/m:predict", {"instances": [[1, 2]]}) == \
            (200, {"predictions": [[5.5]]})


def test_stop_closes_the_port(tmp_path):
    save_version(str(tmp_path), 1)
    server = minitf.serving.start("m", str(tmp_path), file_system_poll_wait_seconds=0.05)
    assert call(server.port, "GET", "/v1/models/m")[0] == 200
    kept_alive = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    assert call(server.port, "GET", "/v1/models/m", connection=kept_alive)[0] == 200
    server.stop()
    server.stop()  # a second stop is harmless
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        call(server.port, "GET", "/v1/models/m", connection=kept_alive)  # closed by stop()
    kept_alive.close()
    with pytest.raises(ConnectionRefusedError):
        call(server.port, "GET", "/v1/models/m")


@pytest.mark.parametrize("kwargs,words", [
    ({"model_name": "a/b"}, "model_name"), ({"model_name": ""}, "model_name"),
    ({"max_body_bytes": 0}, "max_body_bytes")])
def test_start_refuses_bad_arguments(tmp_path, kwargs, words):
    args = dict(model_name="m", model_base_path=str(tmp_path)) | kwargs
    with pytest.raises(ValueError, match=words):
        minitf.serving.start(**args)
