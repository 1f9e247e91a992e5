"""prefetch, cache (memory and files), record_timings, and the benchmark's speed-ups."""
import importlib.util
import os
import threading
import time

import pytest

import minitf as tf

D = tf.data.Dataset


def sleepy(seconds, log=None):
    def wait(v):
        if log is not None:
            log.append(threading.current_thread().name)
        time.sleep(seconds)
        return v
    return lambda x: tf.py_function(wait, [x], tf.int64)


def test_prefetch_uses_a_producer_thread_that_runs_ahead():
    # No clock: the producer must fill the buffer while the consumer is not asking.
    produced, log = [], []
    ready = threading.Event()

    def make(v):
        log.append(threading.current_thread().name)
        produced.append(int(v))
        if len(produced) == 4:  # element 0 handed out + a buffer of 3 filled
            ready.set()
        return v

    ds = D.range(10).map(lambda x: tf.py_function(make, [x], tf.int64)).prefetch(3)
    it = iter(ds)
    assert int(next(it)) == 0
    assert ready.wait(10)  # while we hold element 0, the producer prepares 1, 2, 3
    assert produced[:4] == [0, 1, 2, 3] and set(log) == {"Prefetch"}
    assert [int(x) for x in it] == list(range(1, 10))
    assert [int(x) for x in D.range(5).prefetch(0)] == list(range(5))


def test_prefetch_passes_errors_and_stops_early():
    bad = D.from_generator(lambda: iter([1, "x"]), output_signature=tf.TensorSpec([], tf.int32))
    it = iter(bad.prefetch(1))
    assert int(next(it)) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="could not be converted"):
        next(it)
    before = threading.active_count()
    for i, _ in enumerate(D.range(1000).prefetch(4)):
        if i == 3:
            break
    time.sleep(0.2)
    assert threading.active_count() <= before


def test_memory_cache_runs_the_pipeline_once():
    calls = []
    ds = D.range(4).map(lambda x: tf.py_function(lambda v: calls.append(1) or v, [x],
                                                  tf.int64)).cache()
    assert [int(x) for x in ds.take(2)] == [0, 1]  # an unfinished pass caches nothing
    assert [int(x) for x in ds] == [0, 1, 2, 3]
    assert [int(x) for x in ds] == [0, 1, 2, 3]
    assert len(calls) == 6


def test_file_cache_writes_tf_file_names_after_a_full_pass(tmp_path):
    path = str(tmp_path / "cache")
    ds = D.range(5).map(lambda x: (x, tf.strings.as_string(x), tf.fill([x], 1.5))).cache(path)
    it = iter(ds)
    next(it)
    assert os.listdir(tmp_path) == []
    first = list(ds.as_numpy_iterator())
    # verified against TF 2.21: these two names exist after a full pass
    assert sorted(os.listdir(tmp_path)) == ["cache.data-00000-of-00001", "cache.index"]
    other = D.range(7).map(lambda x: (x, tf.strings.as_string(x), tf.fill([x], 2.5))).cache(path)
    again = list(other.as_numpy_iterator())  # TF reads the existing cache, whatever the source
    assert len(again) == 5
    for (a, s, f), (b, t, g) in zip(first, again):
        assert a == b and s == t and f.tolist() == g.tolist()


def test_record_timings_events():
    with tf.data.experimental.record_timings() as timings:
        ds = D.range(6).map(sleepy(0.002), num_parallel_calls=2).batch(2).prefetch(1)
        for i, _ in enumerate(ds):
            with timings.span("train", i):
                time.sleep(0.001)
    stages = timings.stages()
    assert {"Range", "ParallelMap", "ParallelMap/fn", "Batch", "Prefetch", "train"} <= set(stages)
    fn_threads = {e.thread for e in timings.events if e.stage == "ParallelMap/fn"}
    assert all(name.startswith("ParallelMap") for name in fn_threads)
    assert [e.index for e in timings.events if e.stage == "Batch"] == [0, 1, 2]
    assert all(e.end >= e.start >= 0 for e in timings.events)
    assert timings.total("ParallelMap/fn") >= 6 * 0.002
    with tf.data.experimental.record_timings() as empty:
        pass
    list(D.range(3))
    assert empty.events == []


def test_benchmark_measures_the_five_rules():
    # The speed-ups themselves are printed by `python benchmarks/data_pipeline.py` (and
    # checked there with --check); here: the benchmark runs and times each rule both ways.
    path = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "data_pipeline.py")
    spec = importlib.util.spec_from_file_location("data_pipeline", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    results = bench.measure(n=8, delay=0.001, vector_n=100)
    assert list(results) == ["prefetch", "interleave", "parallel map", "cache",
                             "batch then map"]
    for without, with_rule, ratio in results.values():
        assert without > 0 and with_rule > 0 and ratio == without / with_rule
    assert bench.TARGETS == {"prefetch": 1.5, "parallel map": 1.5}


def test_parallel_interleave_names_its_producer_threads_by_cycle_slot():
    # One thread per open dataset, named ParallelInterleave_0 .. _{cycle_length - 1}, so a
    # timeline (widgets/pipeline.py) draws each concurrent reader on a lane of its own.
    log = []
    files = D.range(6).interleave(lambda i: D.range(2).map(sleepy(0.0, log)), cycle_length=3,
                                  num_parallel_calls=3)
    assert sorted(int(x) for x in files) == [0] * 6 + [1] * 6
    assert set(log) == {"ParallelInterleave_0", "ParallelInterleave_1", "ParallelInterleave_2"}
