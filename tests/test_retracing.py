"""Retracing (issue 18): TF's warning through tf.get_logger(), trace reuse by type, and
reduce_retracing=True. Every sequence below is also run in real TF 2.21
(`test_same_traces_and_warnings_as_real_tf`)."""
import logging
import re

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

TEMPLATE = (
    "{} out of the last {} calls to {} triggered tf.function retracing. Tracing is expensive "
    "and the excessive number of tracings could be due to (1) creating @tf.function "
    "repeatedly in a loop, (2) passing tensors with different shapes, (3) passing Python "
    "objects instead of tensors. For (1), please define your @tf.function outside of the "
    "loop. For (2), @tf.function has reduce_retracing=True option that can avoid unnecessary "
    "retracing. For (3), please refer to "
    "https://www.tensorflow.org/guide/function#controlling_retracing and "
    "https://www.tensorflow.org/api_docs/python/tf/function for  more details.")


class Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)

    @property
    def messages(self):
        return [r.getMessage() for r in self.records]


@pytest.fixture
def logged():
    handler = Records()
    tf.get_logger().addHandler(handler)
    yield handler
    tf.get_logger().removeHandler(handler)


def test_get_logger_is_the_tensorflow_logger():
    logger = tf.get_logger()
    assert isinstance(logger, logging.Logger)
    assert logger is logging.getLogger("tensorflow") and logger.name == "tensorflow"
    assert tf.get_logger() is logger


def test_five_traces_in_a_row_warn_in_tfs_words(logged):
    @tf.function
    def f(x):
        return x + 1

    for i in range(12):
        assert f(i).numpy() == i + 1
    fn = repr(f.python_function)
    assert logged.messages == [TEMPLATE.format(5, 5, fn), TEMPLATE.format(6, 6, fn)]
    assert all(r.levelname == "WARNING" and r.name == "tensorflow" for r in logged.records)
    assert f.experimental_get_tracing_count() == 12


def test_frequent_but_not_every_call_warns_with_the_call_count(logged):
    @tf.function
    def h(x):
        return x * 2

    for n in (1, 1, 1, 2, 3, 4, 5, 5, 6):
        h(n)
    fn = repr(h.python_function)
    assert logged.messages == [TEMPLATE.format(5, 7, fn), TEMPLATE.format(6, 9, fn)]


def test_a_function_made_anew_in_a_loop_warns(logged):
    for _ in range(6):
        g = tf.function(lambda x: x)
        g(tf.constant(1))
    assert [m.split(" calls to ")[0] for m in logged.messages] == [
        "5 out of the last 5", "6 out of the last 6"]
    assert re.search(r"calls to <function .*<lambda> at 0x", logged.messages[0])


def test_few_traces_or_calls_inside_a_trace_do_not_warn(logged):
    @tf.function
    def inner(x):
        return x + 1

    @tf.function
    def outer(x):
        return inner(x) * 2

    for n in range(3):
        inner(n)
    for n in range(10):
        inner(tf.constant(n))  # a 4th trace (below TF's threshold of 5), then reuse
    for n in range(6):
        outer(tf.zeros([n]))  # inner runs inlined while outer traces: not counted for it
    assert len(logged.messages) == 2  # both about outer, none about inner
    assert all("<locals>.outer at 0x" in m for m in logged.messages)


def test_two_thousand_python_ints_trace_each_and_warn_twice(logged):
    @tf.function
    def k(x):
        return x

    for i in range(2000):
        k(i)
    assert k.experimental_get_tracing_count() == 2000  # TF keeps every trace too
    assert len(logged.messages) == 2


def signatures(f):
    return [str(c.structured_input_signature[0]) for c in f._cache.values()]


def test_reduce_retracing_relaxes_shapes_as_tf():
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.shape(x)

    for shape in ([5, 3], [6, 3], [6, 4], [2], [2, 2, 2], [7, 9]):
        assert f(tf.zeros(shape)).numpy().tolist() == shape
    assert f.experimental_get_tracing_count() == 4
    assert [s.split("shape=")[1].split(", dtype")[0] for s in signatures(f)] == [
        "(5, 3)", "(None, 3)", "(None, None)", "<unknown>"]


def test_reduce_retracing_keeps_python_values_apart():
    @tf.function(reduce_retracing=True)
    def f(x, n):
        return x * n

    f(tf.zeros([5]), 1)
    f(tf.zeros([6]), 1)
    f(tf.zeros([7]), 1)  # served by the (None,) trace for n=1
    f(tf.zeros([7]), 2)  # a new Python value: traced for its own shape again
    f(tf.zeros([8], tf.int32), 2)  # a new dtype: not relaxed either
    assert f.experimental_get_tracing_count() == 4
    assert [s.split("shape=")[1].split(", dtype")[0] for s in signatures(f)] == [
        "(5,)", "(None,)", "(7,)", "(8,)"]


def test_without_reduce_retracing_each_shape_traces():
    f = tf.function(lambda x: x)
    for n in (5, 6, 7):
        f(tf.zeros([n]))
    assert f.experimental_get_tracing_count() == 3


def test_a_more_general_trace_serves_later_calls():
    @tf.function
    def g(x):
        return x + 1.0

    g(tf.zeros([5]))
    g.get_concrete_function(tf.TensorSpec([None]))
    g(tf.zeros([5]))  # its own trace is the most specific
    assert g(tf.zeros([7])).numpy().tolist() == [1.0] * 7  # the (None,) trace
    assert g.experimental_get_tracing_count() == 2


def test_reduce_retracing_on_methods_and_nested_arguments():
    class M(tf.Module):
        @tf.function(reduce_retracing=True)
        def __call__(self, d):
            return d["a"] * d["b"]

    m = M()
    for n in (5, 6, 7):
        m({"a": tf.zeros([n]), "b": 2.0})
    assert m.__call__.experimental_get_tracing_count() == 2


REAL_TF = """
import json, logging, tensorflow as tf
messages = []
class H(logging.Handler):
    def emit(self, r):
        messages.append(r.getMessage())
tf.get_logger().addHandler(H())
def sigs(f):
    return [str(c.structured_input_signature[0][0].shape)
            for c in f._list_all_concrete_functions()]
out = {"logger": [tf.get_logger().name, tf.get_logger() is logging.getLogger("tensorflow")]}
@tf.function
def f(x):
    return x + 1
for i in range(12):
    f(i)
out["ints"] = [messages[:], repr(f.python_function), f.experimental_get_tracing_count()]
messages.clear()
@tf.function
def h(x):
    return x * 2
for n in (1, 1, 1, 2, 3, 4, 5, 5, 6):
    h(n)
out["mixed"] = [messages[:], repr(h.python_function)]
@tf.function(reduce_retracing=True)
def r(x):
    return tf.shape(x)
for shape in ([5, 3], [6, 3], [6, 4], [2], [2, 2, 2], [7, 9]):
    r(tf.zeros(shape))
out["relaxed"] = [r.experimental_get_tracing_count(), sigs(r)]
@tf.function
def g(x):
    return x + 1.0
g(tf.zeros([5])); g.get_concrete_function(tf.TensorSpec([None])); g(tf.zeros([5]))
g(tf.zeros([7]))
out["dispatch"] = g.experimental_get_tracing_count()
print(json.dumps(out))
"""


def test_same_traces_and_warnings_as_real_tf(logged):
    require_tf()
    real = run_tf_json(REAL_TF)
    assert real["logger"] == ["tensorflow", True]
    messages, fn, count = real["ints"]
    assert messages == [TEMPLATE.format(5, 5, fn), TEMPLATE.format(6, 6, fn)]
    assert count == 12
    messages, fn = real["mixed"]
    assert messages == [TEMPLATE.format(5, 7, fn), TEMPLATE.format(6, 9, fn)]
    assert real["relaxed"] == [4, ["(5, 3)", "(None, 3)", "(None, None)", "<unknown>"]]
    assert real["dispatch"] == 2


class TFDetector:
    """TF 2.21's _FrequentTracingDetector, transcribed, as the reference."""

    def __init__(self):
        self.per_tracing, self.count, self.warnings, self.said = [], 0, 0, []

    def traced(self, name):
        self.count += 1
        self.per_tracing.append(1)
        while self.per_tracing and self.count - self.per_tracing[0] > 10:
            self.count -= self.per_tracing.pop(0)
        if self.warnings < 2 and len(self.per_tracing) >= 5:
            self.warnings += 1
            self.said.append(TEMPLATE.format(len(self.per_tracing), self.count, name))

    def reused(self):
        if not self.per_tracing:
            self.per_tracing = [0]
        self.per_tracing[-1] += 1
        self.count += 1


@pytest.mark.parametrize("seed", range(40))
def test_detector_says_what_tfs_would_on_random_call_sequences(seed, logged):
    from minitf.framework.retracing import FrequentTracingDetector

    rng = np.random.default_rng(seed)
    ours, reference = FrequentTracingDetector(), TFDetector()
    for traced in rng.random(60) < rng.uniform(0.1, 0.9):
        if traced:
            ours.called_with_tracing("F")
            reference.traced("F")
        else:
            ours.called_without_tracing()
            reference.reused()
    assert logged.messages == reference.said
