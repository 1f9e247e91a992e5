"""Shared by the serving tests: a small SavedModel with several signatures, and an
HTTP client (the standard library's) that returns (status, parsed JSON)."""
import http.client
import json
import os

import numpy as np

import minitf as tf

W = np.array([[1.0], [2.0]], np.float32)


class Linear(tf.Module):
    """y = x @ (scale * W) + 0.5, and two more signatures for multi-input/output cases."""

    def __init__(self, scale=1.0):
        super().__init__()
        self.w = tf.Variable(W * scale)
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


def expected_y(x, scale=1.0):
    return np.asarray(x, np.float32) @ (W * scale) + np.float32(0.5)


def save_version(base, version, scale=1.0):
    m = Linear(scale)
    tf.saved_model.save(m, os.path.join(base, str(version)), signatures={
        "serving_default": m.serve, "pair": m.pair, "total": m.total})


def call(port, method, path, body=None, raw=None, headers=None, connection=None):
    """(status, JSON answer) for one request; `raw` bytes are sent as they are."""
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    conn.request(method, path, body=data, headers=headers or {})
    response = conn.getresponse()
    payload = response.read()
    assert response.getheader("Content-Type") == "application/json"
    if connection is None:
        conn.close()
    return response.status, json.loads(payload)
