"""The five rules of fast tf.data pipelines, measured on minitf.

    python benchmarks/data_pipeline.py [--quick] [--check]

A simulated slow source (time.sleep per element, like reading from disk or
network) and a simulated training step (time.sleep per batch) make each rule
visible. Each line prints the time without and with the rule and the speed-up:

1. prefetch: preparation of the next element overlaps the training step.
2. interleave: four slow "files" are read by four threads instead of one
   after another.
3. parallel map: a slow per-element function runs on four threads.
4. cache: the second epoch reads the cached elements instead of recomputing.
5. batch, then map: one vectorised call per batch instead of one per element
   (real minitf ops, no sleeps: the saving is minitf's per-call overhead).

Sleeps release the GIL, as real I/O and NumPy kernels do, so threads overlap.
`measure()` returns the times and ratios. The targets (prefetch and parallel
map each at least 1.5x) are printed next to the ratios; with `--check` the
script exits with status 1 if one is missed. (Tests never time anything:
tests/data checks that these stages really run in threads, without a clock.)
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import minitf as tf  # noqa: E402 - the checkout's minitf, whatever the working directory

Dataset = tf.data.Dataset


def _sleepy(seconds):
    """A map function that waits `seconds` per element (a slow decode, a disk read)."""
    def wait(x):
        time.sleep(seconds)
        return x
    return lambda x: tf.py_function(wait, [x], tf.int64)


def _slow_source(n, seconds):
    def generate():
        for i in range(n):
            time.sleep(seconds)
            yield i
    return Dataset.from_generator(generate, output_signature=tf.TensorSpec([], tf.int64))


def _train(dataset, step_seconds=0.0):
    start = time.perf_counter()
    for _ in dataset:
        if step_seconds:
            time.sleep(step_seconds)
    return time.perf_counter() - start


def rule_prefetch(n, delay):
    plain = _slow_source(n, delay)
    return _train(plain, delay), _train(plain.prefetch(tf.data.AUTOTUNE), delay)


def rule_interleave(n, delay):
    files = Dataset.range(4)
    make = lambda i: _slow_source(n // 4, delay)  # noqa: E731 - one slow "file"
    sequential = files.flat_map(make)
    parallel = files.interleave(make, cycle_length=4, num_parallel_calls=4)
    return _train(sequential), _train(parallel)


def rule_parallel_map(n, delay):
    data = Dataset.range(n)
    return (_train(data.map(_sleepy(delay))),
            _train(data.map(_sleepy(delay), num_parallel_calls=4)))


def rule_cache(n, delay):
    expensive = Dataset.range(n).map(_sleepy(delay))
    cached = expensive.cache()
    return _train(expensive.repeat(2)), _train(cached.repeat(2))


def rule_vectorise(n):
    data = Dataset.range(n).map(lambda x: tf.cast(x, tf.float32))
    scale = lambda x: tf.nn.relu(x * 2.0 - 1.0) + tf.sqrt(x + 1.0)  # noqa: E731
    per_element = data.map(scale).batch(50)
    vectorised = data.batch(50).map(scale)
    return _train(per_element), _train(vectorised)


TARGETS = {"prefetch": 1.5, "parallel map": 1.5}  # the required speed-ups


def measure(quick=False, n=None, delay=0.01, vector_n=None):
    """{rule: (seconds without, seconds with, speed-up)}."""
    n = n or (24 if quick else 80)
    vector_n = vector_n or (400 if quick else 2000)
    results = {
        "prefetch": rule_prefetch(n, delay),
        "interleave": rule_interleave(n, delay),
        "parallel map": rule_parallel_map(n, delay),
        "cache": rule_cache(n, delay),
        "batch then map": rule_vectorise(vector_n),
    }
    return {k: (a, b, a / b) for k, (a, b) in results.items()}


def main():
    quick = "--quick" in sys.argv
    print(f"{'rule':<16}{'without':>10}{'with':>10}{'speed-up':>10}{'target':>9}")
    missed = []
    for rule, (without, with_rule, ratio) in measure(quick).items():
        target = TARGETS.get(rule)
        mark = ""
        if target is not None:
            mark = f"{target:>7.1f}x" + (" ok" if ratio >= target else " MISSED")
            if ratio < target:
                missed.append(rule)
        print(f"{rule:<16}{without:>9.3f}s{with_rule:>9.3f}s{ratio:>9.2f}x{mark}")
    if missed and "--check" in sys.argv:
        sys.exit(1)


if __name__ == "__main__":
    main()
