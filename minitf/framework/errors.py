"""`tf.errors`: TensorFlow's exception classes.

An op that fails raises one of these with TensorFlow's text, the op's name in
brackets, and one sentence on what to do about it:

>>> import minitf as tf
>>> try:
...     tf.constant([1, 2, 3]) + tf.constant([1, 2])
... except tf.errors.InvalidArgumentError as e:
...     print(e)
Incompatible shapes: [3] vs. [2] [Op:AddV2] Broadcasting lines shapes up from the right; each pair of axes must be equal, or one of them 1.
"""

# TensorFlow's error codes (tensorflow/core/protobuf/error_codes.proto).
OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS = 10, 11, 12, 13, 14, 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """The base class of errors an op raises while running.

    Like TensorFlow: `OpError(node_def, op, message)`, with `.message`,
    `.op` and `.error_code`.
    """

    error_code = UNKNOWN

    def __init__(self, node_def, op, message, *args):
        super().__init__(message, *args)
        self._node_def = node_def
        self._op = op
        self._message = message
        if type(self) is OpError and args:  # OpError(node_def, op, message, error_code)
            self.error_code = args[0]

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    def __str__(self):
        return self._message

    def __reduce__(self):
        return type(self), (self._node_def, self._op, self._message)


def _error(name, code, doc):
    cls = type(name, (OpError,), {"__doc__": doc, "error_code": code, "__module__": __name__})
    return cls


CancelledError = _error("CancelledError", CANCELLED, "An operation was cancelled.")
UnknownError = _error("UnknownError", UNKNOWN, "An error whose cause is not known.")
InvalidArgumentError = _error(
    "InvalidArgumentError", INVALID_ARGUMENT,
    "An op got an argument it cannot use: a wrong shape, dtype or value.")
DeadlineExceededError = _error("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline passed.")
NotFoundError = _error(
    "NotFoundError", NOT_FOUND,
    "Something asked for was not found: a file, or a kernel for this dtype.")
AlreadyExistsError = _error("AlreadyExistsError", ALREADY_EXISTS, "Something already exists.")
PermissionDeniedError = _error("PermissionDeniedError", PERMISSION_DENIED, "Not allowed.")
ResourceExhaustedError = _error("ResourceExhaustedError", RESOURCE_EXHAUSTED, "Out of a resource.")
FailedPreconditionError = _error(
    "FailedPreconditionError", FAILED_PRECONDITION,
    "The system is not in a state that allows this, e.g. an uninitialized value.")
AbortedError = _error("AbortedError", ABORTED, "An operation was aborted.")
OutOfRangeError = _error(
    "OutOfRangeError", OUT_OF_RANGE, "Iterated past the end, e.g. of a dataset.")
UnimplementedError = _error("UnimplementedError", UNIMPLEMENTED, "Not implemented.")
InternalError = _error("InternalError", INTERNAL, "An internal invariant broke.")
UnavailableError = _error("UnavailableError", UNAVAILABLE, "A service is unavailable.")
DataLossError = _error("DataLossError", DATA_LOSS, "Data was lost or corrupted.")
UnauthenticatedError = _error("UnauthenticatedError", UNAUTHENTICATED, "Not authenticated.")


class OperatorNotAllowedInGraphError(TypeError):
    """Raised when Python needs a concrete value (`bool()`, `if`, iteration) of a
    symbolic tensor inside a traced `tf.function`."""


def op_error(cls, op_name, message, hint=None):
    """An error of class `cls` with TF's text `message [Op:Name]` and a teaching hint."""
    text = f"{message} [Op:{op_name}]"
    if hint:
        text += " " + hint
    return cls(None, op_name, text)


def out_of_memory(op_name, shape, type_name):
    """TF's error for a tensor whose memory cannot be had (NumPy raised MemoryError).

    >>> print(out_of_memory("Fill", (3, 2**32 + 2), "float"))  # doctest: +ELLIPSIS
    OOM when allocating tensor with shape[3,4294967298] and type float on ... [Op:Fill] ...
    """
    return op_error(
        ResourceExhaustedError, op_name,
        f"OOM when allocating tensor with shape[{','.join(str(d) for d in shape)}] and type "
        f"{type_name} on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu",
        "The tensor needs more memory than this machine can give: check the sizes in its "
        "shape (a size from a computation may be far larger than intended).")
