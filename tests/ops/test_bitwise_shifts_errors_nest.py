"""tf.bitwise shifts on every integer dtype, tf.errors' code constants, tf.nest.is_nested:
each against hand-worked values and against real TF 2.21 (one subprocess)."""
import collections

import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
CODES = ["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
         "ALREADY_EXISTS", "PERMISSION_DENIED", "UNAUTHENTICATED", "RESOURCE_EXHAUSTED",
         "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
         "UNAVAILABLE", "DATA_LOSS"]
CLASSES = ["CancelledError", "UnknownError", "InvalidArgumentError", "DeadlineExceededError",
           "NotFoundError", "AlreadyExistsError", "PermissionDeniedError",
           "UnauthenticatedError", "ResourceExhaustedError", "FailedPreconditionError",
           "AbortedError", "OutOfRangeError", "UnimplementedError", "InternalError",
           "UnavailableError", "DataLossError"]

# Shared by both sides: shift grids that include negative and over-width shifts.
PROGRAM = '''
def program(tf, DTYPES, CODES, CLASSES):
    out = {"shifts": {}}
    for dt in DTYPES:
        bits = int(dt.lstrip("uint"))
        signed = not dt.startswith("u")
        xs = [1, 5, 127] + ([-1, -8, -128] if signed else [200])
        ys = [0, 1, 3, bits - 1, bits, bits + 1, 100] + ([-1, -3] if signed else [])
        x = tf.constant([[a] * len(ys) for a in xs], dtype=dt)
        y = tf.constant([ys] * len(xs), dtype=dt)
        out["shifts"][dt] = [tf.bitwise.left_shift(x, y).numpy().tolist(),
                             tf.bitwise.right_shift(x, y).numpy().tolist()]
    out["codes"] = {c: getattr(tf.errors, c) for c in CODES}
    out["class_codes"] = {c: getattr(tf.errors, c)(None, None, "m").error_code
                          for c in CLASSES}
    import collections
    P = collections.namedtuple("P", "a")
    out["nested"] = [tf.nest.is_nested(v) for v in
                     ([], (), {}, P(1), 1, "ab", None, {1}, tf.constant([1, 2]))]
    return out
'''


@pytest.fixture(scope="module")
def real():
    return run_tf_json(PROGRAM + f"\nimport json, tensorflow as tf\n"
                       f"print(json.dumps(program(tf, {DTYPES!r}, {CODES!r}, {CLASSES!r})))")


def run_here():
    scope = {}
    exec(PROGRAM, scope)
    return scope["program"](tf, DTYPES, CODES, CLASSES)


def test_shifts_by_hand():
    x = tf.constant([1, -8, 5, 3], dtype=tf.int8)
    left = tf.bitwise.left_shift(x, tf.constant([7, 1, 100, -2], dtype=tf.int8))
    np.testing.assert_array_equal(left.numpy(), [-128, -16, -128, 3])  # 100 -> 7, -2 -> 0
    right = tf.bitwise.right_shift(x, tf.constant([-1, 100, 1, 1], dtype=tf.int8))
    np.testing.assert_array_equal(right.numpy(), [1, -1, 2, 1])  # arithmetic: sign copied
    u = tf.bitwise.right_shift(tf.constant([200], tf.uint8), tf.constant([9], tf.uint8))
    assert u.numpy().tolist() == [1]  # logical, shift clamped to 7
    assert tf.bitwise.left_shift(3, 2).numpy() == 12


def test_shifts_broadcast_and_trace():
    x = tf.constant([[1], [2]])
    np.testing.assert_array_equal(tf.bitwise.left_shift(x, tf.constant([1, 2, 3])).numpy(),
                                  [[2, 4, 8], [4, 8, 16]])
    traced = tf.function(tf.bitwise.right_shift, autograph=False)
    assert traced(tf.constant([-8]), tf.constant([2])).numpy().tolist() == [-2]


def test_shift_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="LeftShift"):
        tf.bitwise.left_shift(tf.constant([1.0]), tf.constant([1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="int64"):
        tf.bitwise.right_shift(tf.constant([1]), tf.constant([1], tf.int64))


def test_error_codes_belong_to_their_classes():
    assert tf.errors.OK == 0 and tf.errors.INVALID_ARGUMENT == 3
    for name in CLASSES:
        cls = getattr(tf.errors, name)
        assert cls(None, None, "m").error_code == getattr(tf.errors, _constant_of(name))


def _constant_of(cls_name):
    words = []
    for ch in cls_name[:-len("Error")]:
        if ch.isupper() and words:
            words.append("_")
        words.append(ch.upper())
    return "".join(words)


def test_is_nested():
    point = collections.namedtuple("Point", "x y")
    assert tf.nest.is_nested([1]) and tf.nest.is_nested(point(1, 2)) and tf.nest.is_nested({})
    assert not tf.nest.is_nested(tf.constant([1, 2])) and not tf.nest.is_nested("ab")


def test_matches_real_tf(real):
    here = run_here()
    assert here["codes"] == real["codes"]
    assert here["class_codes"] == real["class_codes"]
    assert here["nested"] == real["nested"]
    for dt in DTYPES:
        assert here["shifts"][dt] == real["shifts"][dt], dt
