"""TF Serving's REST routes on Python's `http.server`.

    GET  /v1/models/NAME                         version status
    GET  /v1/models/NAME/versions/N              one version's status
    GET  /v1/models/NAME[/versions/N]/metadata   the signature defs
    POST /v1/models/NAME[/versions/N]:predict    {"instances": ...} or {"inputs": ...}

Every answer is JSON; every bad request gets a 4xx with `{"error": "..."}`
and the server carries on. A body larger than `max_body_bytes` is refused
with 413 before it is read.

>>> route("GET", "/v1/models/m/versions/3/metadata")
('m', 3, 'metadata')
>>> route("POST", "/v1/models/m:predict")
('m', None, 'predict')

Where minitf differs from TF Serving: `:classify` and `:regress` (for
tf.Example signatures) and `/labels/LABEL` are not supported; the 413 limit
is minitf's own; bodies must carry a Content-Length (no chunked uploads);
answers are compact JSON (TF Serving indents them).
"""
import json
import logging
import re
import socket
from http.server import BaseHTTPRequestHandler

from .errors import InvalidArgument, NotFound, PayloadTooLarge, ServingError
from .predict import predict

log = logging.getLogger("minitf.serving")
MAX_DISCARD_BYTES = 256 * 1024 * 1024  # a refused body larger than this is cut off
_ROUTE = re.compile(r"^/v1/models/([^/:]+)(?:/versions/(\d{1,19}))?"
                    r"(?:(/metadata)|:(predict))?$")


def route(method, path):
    """(model name, version or None, "status" | "metadata" | "predict"); 400 if malformed."""
    match = _ROUTE.match(path.split("?", 1)[0])
    if match:
        name, version, metadata, verb = match.groups()
        action = verb or ("metadata" if metadata else "status")
        if (method == "POST") == (action == "predict"):
            return name, int(version) if version is not None else None, action
    raise InvalidArgument(
        f"Malformed request: {method} {path[:200]}. The routes are GET /v1/models/NAME, "
        "GET /v1/models/NAME/versions/N, GET /v1/models/NAME[/versions/N]/metadata and "
        "POST /v1/models/NAME[/versions/N]:predict.")


class RestHandler(BaseHTTPRequestHandler):
    """One connection's requests. `self.server` carries `stores` and `max_body_bytes`."""

    protocol_version = "HTTP/1.1"  # keep-alive: a client may send many requests on one socket
    server_version = "minitf-serving"
    timeout = 30  # an idle kept-alive connection is closed after this many seconds

    def setup(self):
        super().setup()
        # Send small answers at once: with Nagle's algorithm on, a reply written after
        # its headers waits for the client's delayed ACK (~40 ms per request).
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.server.connections_lock:
            self.server.connections.add(self.connection)

    def handle(self):
        # http.server's loop, which also ends once the server is stopping (Server.stop).
        self.close_connection = True
        self.handle_one_request()
        while not self.close_connection and not self.server.closing:
            self.handle_one_request()

    def finish(self):
        try:
            super().finish()
        finally:
            with self.server.connections_lock:
                self.server.connections.discard(self.connection)
                self.server.connections_lock.notify_all()

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def _handle(self, method):
        try:
            name, version, action = route(method, self.path)
            store = self.server.stores.get(name)
            if store is None and action == "status":  # TF Serving's GetModelStatus text
                raise NotFound(f"Could not find any versions of model {name}. This server "
                               f"serves {sorted(self.server.stores)}.")
            if store is None:
                raise NotFound(f"Servable not found for request: "
                               f"{'Latest' if version is None else 'Specific'}({name}"
                               f"{'' if version is None else f', {version}'}). This server "
                               f"serves {sorted(self.server.stores)}.")
            if action == "status":
                answer = {"model_version_status": store.statuses(version)}
            elif action == "metadata":
                served = store.get(version)
                answer = {"model_spec": {"name": name, "signature_name": "",
                                         "version": str(served.version)},
                          "metadata": {"signature_def": {
                              "signature_def": served.signature_defs}}}
            else:
                request = self._json_body()
                served = store.get(version)
                answer = predict(served.signatures, request, served.lock)
            self._reply(200, json.dumps(answer).encode())
        except ServingError as error:
            too_large = isinstance(error, PayloadTooLarge)
            self._reply(error.http_status, error.body(), close=too_large)
            if too_large:
                self._discard_body()
        except Exception as exc:  # noqa: BLE001 -- a bug must not stop the server
            log.exception("Request %s %s failed", method, self.path)
            self._reply(500, json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode())

    def _json_body(self):
        length = self.headers.get("Content-Length")
        if length is None or not length.strip().isdigit():
            raise InvalidArgument("A predict request needs a Content-Length header with the "
                                  "body's size in bytes (chunked bodies are not supported).")
        length = self._declared_length = int(length)
        if length > self.server.max_body_bytes:
            raise PayloadTooLarge(
                f"Request body of {length} bytes is over this server's limit of "
                f"{self.server.max_body_bytes} bytes: send fewer instances per request, or "
                "start the server with a larger --max_body_bytes.")
        body = self.rfile.read(length)
        try:
            return json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InvalidArgument(f"JSON Parse error: {exc}. The body must be JSON such as "
                                  '{"instances": [[1.0, 2.0]]}.') from None
        except RecursionError:
            raise InvalidArgument("JSON Parse error: nested too deeply.") from None

    def _discard_body(self):
        """Read and drop a refused body (at most MAX_DISCARD_BYTES): a client that is still
        sending would otherwise meet a closed socket (broken pipe) instead of the 413."""
        left = min(self._declared_length, MAX_DISCARD_BYTES)
        try:
            while left > 0:
                chunk = self.rfile.read(min(left, 1 << 16))
                if not chunk:
                    break
                left -= len(chunk)
        except OSError:
            pass  # the client gave up: nothing more to do, the connection closes

    def _reply(self, status, body, close=False):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 -- http.server's signature
        log.debug("%s - %s", self.address_string(), format % args)
