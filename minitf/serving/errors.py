"""TF Serving's errors as HTTP answers: a status code and `{"error": "..."}`.

TF Serving turns each gRPC status into an HTTP code; the ones a REST client
meets are INVALID_ARGUMENT -> 400 and NOT_FOUND -> 404. minitf adds 413 for a
body over the size limit (TF Serving has no such limit in its REST server) and
500 for a model that fails while running.

>>> error = NotFound('Servable not found for request: Latest(m)')
>>> error.http_status, error.body()
(404, b'{"error": "Servable not found for request: Latest(m)"}')
"""
import json


class ServingError(Exception):
    """A request that cannot be answered; `http_status` says how the server replies."""

    http_status = 500

    def __init__(self, message):
        super().__init__(message)
        self.message = message

    def body(self):
        return json.dumps({"error": self.message}).encode()


class InvalidArgument(ServingError):
    """Bad JSON, a wrong shape or dtype, a missing input: the client's mistake (400)."""

    http_status = 400


class NotFound(ServingError):
    """An unknown model, version or signature (404)."""

    http_status = 404


class PayloadTooLarge(ServingError):
    """A request body over the server's limit (413); the connection is closed."""

    http_status = 413


class Internal(ServingError):
    """The model failed while running on well-formed input (500)."""

    http_status = 500
