"""callbacks.RemoteMonitor (against a local http.server on 127.0.0.1) and ProgbarLogger passed
to fit by hand; one real-TF subprocess runs the same server and fits for comparison."""
import contextlib
import io
import json
import re
import warnings

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

K = tf.keras

# Shared by both sides: a server that records each POST, the calls, and the progbar run.
COMMON = r'''
import contextlib, http.server, io, json, re, threading
import numpy as np

def serve(status=200):
    received = []
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            received.append({"path": self.path, "type": self.headers["Content-Type"],
                             "extra": self.headers.get("X-Run"), "body": body})
            self.send_response(status)
            self.end_headers()
        def log_message(self, *args):
            pass
    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, received

def remote_calls(keras):
    server, received = serve()
    root = "http://127.0.0.1:%d" % server.server_port
    logs = {"loss": np.float32(0.25), "acc": np.array(1.0), "lr": 0.5}
    keras.callbacks.RemoteMonitor(root=root).on_epoch_end(0, logs)
    keras.callbacks.RemoteMonitor(root=root, path="/p", field="f",
                                  headers={"X-Run": "7"}).on_epoch_end(1, logs)
    keras.callbacks.RemoteMonitor(root=root, path="/j", send_as_json=True).on_epoch_end(2, logs)
    server.shutdown()
    server, _ = serve(status=500)  # an answering server with an error status: no warning
    keras.callbacks.RemoteMonitor(root="http://127.0.0.1:%d" % server.server_port
                                  ).on_epoch_end(3, logs)
    server.shutdown()
    return received

def progbar_run(keras):
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(
        1, kernel_initializer="zeros", bias_initializer="zeros")])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    x = np.array([[1.0], [2.0], [3.0]], np.float32)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.fit(x, 2 * x, batch_size=2, epochs=2, verbose=2, shuffle=False,
                  callbacks=[keras.callbacks.ProgbarLogger()])
        model.fit(x, 2 * x, batch_size=2, epochs=1, verbose=0, shuffle=False,
                  callbacks=[keras.callbacks.ProgbarLogger()])
    return re.sub(r"\d+(\.\d+)?[mu]?s", "T", out.getvalue()).splitlines()
'''
exec(COMMON)  # noqa: S102 - the test's own code, shared with the real-TF run below


def test_remote_monitor_posts_a_form_or_json_per_epoch():
    received = remote_calls(K)  # noqa: F821 - defined by COMMON
    assert [r["path"] for r in received] == ["/publish/epoch/end/", "/p", "/j"]
    assert received[0]["type"] == "application/x-www-form-urlencoded"
    assert json.loads(re.sub("^data=", "", __import__("urllib.parse").parse.unquote_plus(
        received[0]["body"]))) == {"epoch": 0, "loss": 0.25, "acc": 1.0, "lr": 0.5}
    assert received[1]["body"].startswith("f=") and received[1]["extra"] == "7"
    assert received[2]["type"] == "application/json"
    assert json.loads(received[2]["body"]) == {"epoch": 2, "loss": 0.25, "acc": 1.0, "lr": 0.5}


def test_remote_monitor_warns_when_the_server_is_unreachable():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        K.callbacks.RemoteMonitor(root="http://127.0.0.1:9").on_epoch_end(0, {"loss": 1.0})
        K.callbacks.RemoteMonitor(root="no-scheme").on_epoch_end(0, {})
    assert [str(w.message) for w in caught] == [
        "Could not reach RemoteMonitor root server at http://127.0.0.1:9",
        "Could not reach RemoteMonitor root server at no-scheme"]


def test_remote_monitor_during_fit_sends_every_epoch():
    server, received = serve()  # noqa: F821
    model = K.Sequential([K.Input((1,)), K.layers.Dense(1)])
    model.compile("sgd", "mse")
    model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=3, verbose=0,
              callbacks=[K.callbacks.RemoteMonitor(
                  root=f"http://127.0.0.1:{server.server_port}", send_as_json=True)])
    server.shutdown()
    sent = [json.loads(r["body"]) for r in received]
    assert [s["epoch"] for s in sent] == [0, 1, 2] and all("loss" in s for s in sent)


def test_progbar_logger_given_by_hand_replaces_the_default_one():
    lines = progbar_run(K)  # noqa: F821
    # one bar per epoch (no second, default logger); verbose=0 silences the given one
    assert lines == ["Epoch 1/2", "2/2 - T - T/step - loss: 8.5867",
                     "Epoch 2/2", "2/2 - T - T/step - loss: 2.1095"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # on its own: the bar of a known target
        logger = K.callbacks.ProgbarLogger()
        logger.set_params({"verbose": 1, "epochs": 1, "steps": 2})
        logger.on_predict_begin()
        logger.on_predict_batch_end(0)
        logger.on_predict_end()
    assert "2/2" in out.getvalue()


@pytest.fixture(scope="module")
def keras_results():
    return run_tf_json(COMMON + """
import keras
print(json.dumps({"remote": remote_calls(keras), "progbar": progbar_run(keras)}))
""")


def test_bodies_and_progbar_lines_equal_keras_3_15(keras_results):
    assert remote_calls(K) == keras_results["remote"]  # noqa: F821
    assert progbar_run(K) == keras_results["progbar"]  # noqa: F821
