"""Versions: the newest numbered directory is served, a new one is picked up while
the server runs, and a broken one is skipped while the old one keeps serving."""
import logging
import os
import time

import numpy as np

import minitf as tf
import minitf.serving
from minitf.serving.model_store import ModelStore
from serving_http import call, expected_y, save_version


def wait_for(condition, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def versions(port):
    return [(s["version"], s["state"]) for s in
            call(port, "GET", "/v1/models/m")[1].get("model_version_status", [])]


def test_newest_numeric_directory_is_served(tmp_path):
    base = str(tmp_path)
    save_version(base, 3, scale=3.0)
    save_version(base, 20, scale=20.0)       # 20 > 3 as numbers, not as text
    os.makedirs(os.path.join(base, "99abc"))  # not a version: ignored
    os.makedirs(os.path.join(base, "tmp"))
    store = ModelStore("m", base)
    assert store.versions_on_disk() == [20, 3]
    store.poll_once()
    assert store.get().version == 20
    assert store.statuses()[0]["version"] == "20"


def test_a_new_version_is_picked_up_and_a_broken_one_skipped(tmp_path, caplog):
    base = str(tmp_path)
    save_version(base, 1)
    with minitf.serving.start("m", base, file_system_poll_wait_seconds=0.05) as server:
        x = [[1.0, 2.0]]
        assert call(server.port, "POST", "/v1/models/m:predict", {"instances": x})[1] == \
            {"predictions": expected_y(x).tolist()}
        save_version(base, 2, scale=10.0)
        assert wait_for(lambda: versions(server.port)[0] == ("2", "AVAILABLE"))
        assert versions(server.port) == [("2", "AVAILABLE"), ("1", "END")]
        answer = call(server.port, "POST", "/v1/models/m:predict", {"instances": x})[1]
        np.testing.assert_allclose(answer["predictions"], expected_y(x, 10.0))
        assert call(server.port, "GET", "/v1/models/m/versions/1")[1] == {
            "model_version_status": [{"version": "1", "state": "END", "status": {
                "error_code": "OK", "error_message": ""}}]}
        code, error = call(server.port, "POST", "/v1/models/m/versions/1:predict",
                           {"instances": x})
        assert code == 404 and "Specific(m, 1)" in error["error"]
        assert call(server.port, "GET", "/v1/models/m/metadata")[1]["model_spec"]["version"] \
            == "2"

        with caplog.at_level(logging.ERROR, logger="minitf.serving"):
            os.makedirs(os.path.join(base, "3"))
            with open(os.path.join(base, "3", "saved_model.json"), "w") as f:
                f.write("{half a file")
            assert wait_for(lambda: "version: 3" in caplog.text)
        assert "skipped" in caplog.text
        time.sleep(0.3)  # several more polls: logged once, version 2 still serves
        assert caplog.text.count("version: 3") == 1
        assert versions(server.port)[0] == ("2", "AVAILABLE")
        answer = call(server.port, "POST", "/v1/models/m:predict", {"instances": x})[1]
        np.testing.assert_allclose(answer["predictions"], expected_y(x, 10.0))


def test_a_server_started_before_any_version_waits_for_one(tmp_path):
    base = str(tmp_path)
    with minitf.serving.start("m", base, file_system_poll_wait_seconds=0.05) as server:
        code, answer = call(server.port, "GET", "/v1/models/m")
        assert code == 404 and "Could not find any versions of model m" in answer["error"]
        code, answer = call(server.port, "POST", "/v1/models/m:predict", {"instances": [[1, 2]]})
        assert code == 404 and "No version has loaded yet" in answer["error"]
        save_version(base, 1)
        assert wait_for(lambda: call(server.port, "GET", "/v1/models/m")[0] == 200)
        assert call(server.port, "POST", "/v1/models/m:predict", {"instances": [[1, 2]]}) == \
            (200, {"predictions": [[5.5]]})


def test_keras_model_export(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    model.export(str(tmp_path / "1"), verbose=False)
    x = np.array([[1.0, -2.0, 0.5], [0.0, 1.0, 2.0]], np.float32)
    expected = model(x).numpy()
    with minitf.serving.start("dense", str(tmp_path), file_system_poll_wait_seconds=0) as s:
        defs = call(s.port, "GET", "/v1/models/dense/metadata")[1]["metadata"][
            "signature_def"]["signature_def"]
        assert sorted(defs) == ["serve", "serving_default"]
        (name,) = defs["serving_default"]["inputs"]
        assert list(defs["serving_default"]["outputs"]) == ["output_0"]
        code, answer = call(s.port, "POST", "/v1/models/dense:predict",
                            {"instances": x.tolist()})
        assert code == 200
        np.testing.assert_allclose(answer["predictions"], expected, rtol=1e-6)
        code, answer = call(s.port, "POST", "/v1/models/dense:predict",
                            {"inputs": {name: x.tolist()}})
        np.testing.assert_allclose(answer["outputs"], expected, rtol=1e-6)


def test_removing_the_served_version_falls_back_to_the_newest_left(tmp_path):
    import shutil
    base = str(tmp_path)
    save_version(base, 1)
    save_version(base, 2, scale=10.0)
    store = ModelStore("m", base)
    store.poll_once()
    assert store.get().version == 2
    shutil.rmtree(os.path.join(base, "2"))
    store.poll_once()
    assert store.get().version == 1
    assert [(s["version"], s["state"]) for s in store.statuses()] == [("1", "AVAILABLE"),
                                                                     ("2", "END")]
    shutil.rmtree(os.path.join(base, "1"))
    store.poll_once()  # nothing left on disk: the loaded version keeps serving
    assert store.get().version == 1
