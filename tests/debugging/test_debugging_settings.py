"""tf.debugging's settings: traceback filtering's switch and log device placement's getter,
compared with real TF in one subprocess (what each call returns, per thread)."""
import threading

import pytest

import minitf as tf
from tests.real_tf import run_tf_json

TF_CODE = """
import json, threading, tensorflow as tf
out = {"filtering": [tf.debugging.is_traceback_filtering_enabled()]}
tf.debugging.disable_traceback_filtering()
out["filtering"].append(tf.debugging.is_traceback_filtering_enabled())
seen = []
t = threading.Thread(target=lambda: seen.append(tf.debugging.is_traceback_filtering_enabled()))
t.start(); t.join()
out["filtering"].append(seen[0])
out["filtering"].append(tf.debugging.enable_traceback_filtering())
out["filtering"].append(tf.debugging.is_traceback_filtering_enabled())
placement = [tf.debugging.get_log_device_placement()]
tf.debugging.set_log_device_placement(1)
placement.append(tf.debugging.get_log_device_placement())
tf.debugging.set_log_device_placement(False)
placement.append(tf.debugging.get_log_device_placement())
out["placement"] = placement
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def real_tf():
    return run_tf_json(TF_CODE)


def test_traceback_filtering_switch_matches_real_tf(real_tf):
    got = [tf.debugging.is_traceback_filtering_enabled()]
    tf.debugging.disable_traceback_filtering()
    try:
        got.append(tf.debugging.is_traceback_filtering_enabled())
        seen = []
        t = threading.Thread(
            target=lambda: seen.append(tf.debugging.is_traceback_filtering_enabled()))
        t.start()
        t.join()
        got.append(seen[0])
    finally:
        got.append(tf.debugging.enable_traceback_filtering())
    got.append(tf.debugging.is_traceback_filtering_enabled())
    assert got == real_tf["filtering"] == [True, False, True, None, True]


def test_get_log_device_placement_matches_real_tf(real_tf, capsys):
    got = [tf.debugging.get_log_device_placement()]
    tf.debugging.set_log_device_placement(1)
    try:
        got.append(tf.debugging.get_log_device_placement())
        _ = tf.constant(1.0) * 2.0
    finally:
        tf.debugging.set_log_device_placement(False)
    got.append(tf.debugging.get_log_device_placement())
    assert got == real_tf["placement"] == [False, True, False]
    assert "Mul: (Mul): /job:localhost/replica:0/task:0/device:CPU:0" in capsys.readouterr().out
