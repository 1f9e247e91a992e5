"""`minitf.serving`: TF Serving's REST API for minitf SavedModels.

From a shell, with TF Serving's flags:

    python -m minitf.serving --model_name m --model_base_path /models/m --rest_api_port 8501

From a notebook, on a free loopback port:

>>> import json, os, tempfile, urllib.request
>>> import minitf as tf
>>> import minitf.serving
>>> module = tf.Module()
>>> module.f = tf.function(lambda x: {"y": 2.0 * x},
...                        input_signature=[tf.TensorSpec([None], tf.float32, "x")])
>>> base = tempfile.mkdtemp()
>>> tf.saved_model.save(module, os.path.join(base, "1"))
>>> server = minitf.serving.start(model_name="m", model_base_path=base)
>>> request = urllib.request.Request(f"{server.url}/v1/models/m:predict",
...                                  data=b'{"instances": [1.0, 2.5]}')
>>> json.load(urllib.request.urlopen(request))
{'predictions': [2.0, 5.0]}
>>> server.stop()

`base` holds numbered versions (`1/`, `2/`, ...); the newest one that loads is
served, and a newer one is picked up while the server runs (model_store.py).
The server listens on 127.0.0.1 unless told otherwise: a model server open
to the network answers anyone who can reach it.

Where minitf differs from TF Serving: REST only (no gRPC port), one model
(no --model_config_file), and a body-size limit of its own (413). It has
not been compared with a running TF Serving, which cannot be installed here;
routes, formats and error codes follow TF Serving's REST API documentation.
"""
import socket
import threading
from http.server import ThreadingHTTPServer

from .model_store import ModelStore
from .rest_api import RestHandler

DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024


class _HTTPServer(ThreadingHTTPServer):
    """One thread per connection; `connections` are the open ones, closed by `stop()`."""

    daemon_threads = True

    def __init__(self, address, handler):
        super().__init__(address, handler)
        self.connections = set()
        self.connections_lock = threading.Condition()
        self.closing = False

    def close_connections(self, grace_seconds=10.0):
        """End every kept-alive connection. A request being answered is finished first
        (only the reading side is shut, and its thread is given `grace_seconds`); then
        whatever is left is cut."""
        self.closing = True
        with self.connections_lock:
            for connection in list(self.connections):
                _shutdown(connection, socket.SHUT_RD)
            self.connections_lock.wait_for(lambda: not self.connections, grace_seconds)
            for connection in list(self.connections):
                _shutdown(connection, socket.SHUT_RDWR)


def _shutdown(connection, how):
    try:
        connection.shutdown(how)
    except OSError:
        pass  # already closed by the client


class Server:
    """A running model server: `url`, `port`, and `stop()` (also a context manager)."""

    def __init__(self, httpd, stores):
        self._httpd = httpd
        self.stores = stores
        self.host, self.port = httpd.server_address[:2]
        self.url = f"http://{self.host}:{self.port}"
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                        daemon=True, name="minitf-serving-http")
        self._thread.start()
        self._stopped = False

    def stop(self):
        """Stop accepting requests and polling for versions; close the listening socket
        and the kept-alive connections (a request being answered is finished)."""
        if self._stopped:
            return
        self._stopped = True
        self._httpd.shutdown()
        self._thread.join()
        self._httpd.server_close()
        self._httpd.close_connections()
        for store in self.stores.values():
            store.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def __repr__(self):
        return f"<minitf.serving.Server {self.url} models={sorted(self.stores)}>"


def start(model_name, model_base_path, rest_api_port=0, file_system_poll_wait_seconds=1.0,
          rest_api_host="127.0.0.1", max_body_bytes=DEFAULT_MAX_BODY_BYTES):
    """Serve the newest version under `model_base_path` as `model_name`; returns a `Server`.

    `rest_api_port=0` picks a free port (read it from `server.port`). The
    newest version present is loaded before this returns.
    """
    if not isinstance(model_name, str) or not model_name or "/" in model_name \
            or ":" in model_name:
        raise ValueError(f"model_name must be a non-empty name without '/' or ':', got "
                         f"{model_name!r}: it is the NAME in /v1/models/NAME.")
    if not isinstance(max_body_bytes, int) or max_body_bytes <= 0:
        raise ValueError(f"max_body_bytes must be a positive int, got {max_body_bytes!r}.")
    store = ModelStore(model_name, model_base_path, file_system_poll_wait_seconds)
    httpd = _HTTPServer((rest_api_host, rest_api_port), RestHandler)
    httpd.stores = {model_name: store}
    httpd.max_body_bytes = max_body_bytes
    try:
        store.start()
    except BaseException:
        httpd.server_close()  # don't leave the port bound if loading went wrong
        raise
    return Server(httpd, httpd.stores)


__all__ = ["start", "Server", "ModelStore", "DEFAULT_MAX_BODY_BYTES"]
