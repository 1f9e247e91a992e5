"""`tf.keras.callbacks.RemoteMonitor`: POST each epoch's logs to a web server.

At the end of every epoch the callback sends `{"epoch": 0, "loss": ...}` as
an HTTP POST to `root + path`:

* `send_as_json=False` (default): a form, `data=<the JSON text>`
  (content type `application/x-www-form-urlencoded`; `field` names the key);
* `send_as_json=True`: the JSON itself (`application/json`).

A server that cannot be reached gives a warning, not an error, so training
goes on. Keras sends with the `requests` library; minitf sends the same
bodies with Python's own `urllib.request`, so nothing needs installing. (Like
`requests`, an HTTP error status from a server that answered is not a
failure.)

>>> monitor = tf.keras.callbacks.RemoteMonitor(root="http://127.0.0.1:9", path="/x")
>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     monitor.on_epoch_end(0, {"loss": 0.5})   # port 9: nobody listens
>>> str(caught[0].message)
'Could not reach RemoteMonitor root server at http://127.0.0.1:9'

In TensorFlow this is `keras/src/callbacks/remote_monitor.py`.
"""
import json
import urllib.error
import urllib.parse
import urllib.request
import warnings

import numpy as np

from ...framework.tf_export import tf_export
from .callback import Callback


@tf_export("keras.callbacks.RemoteMonitor")
class RemoteMonitor(Callback):
    """Stream the epoch logs to `root + path` (HTTP POST); see the module docstring.

    headers: a dict of extra HTTP headers.
    """

    def __init__(self, root="http://localhost:9000", path="/publish/epoch/end/", field="data",
                 headers=None, send_as_json=False):
        super().__init__()
        self.root = root
        self.path = path
        self.field = field
        self.headers = headers
        self.send_as_json = send_as_json

    def _request(self, send):
        headers = dict(self.headers or {})
        if self.send_as_json:
            body = json.dumps(send).encode("utf-8")
            headers["Content-Type"] = "application/json"
        else:
            body = urllib.parse.urlencode({self.field: json.dumps(send)}).encode("utf-8")
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        return urllib.request.Request(self.root + self.path, data=body, headers=headers,
                                      method="POST")

    def on_epoch_end(self, epoch, logs=None):
        send = {"epoch": epoch}
        for key, value in (logs or {}).items():
            # NumPy scalars and 0-d arrays are not JSON: send their Python value
            send[key] = value.item() if isinstance(value, (np.ndarray, np.generic)) else value
        try:
            with urllib.request.urlopen(self._request(send), timeout=10):
                pass
        except urllib.error.HTTPError:
            pass  # the server answered (with an error status): `requests` does not raise
        except (urllib.error.URLError, OSError, ValueError):
            warnings.warn(f"Could not reach RemoteMonitor root server at {self.root}",
                          stacklevel=2)
