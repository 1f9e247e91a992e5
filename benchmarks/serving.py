"""Requests per second and latency of `minitf.serving` on loopback
(goal: >= 300 requests/s and p99 <= 50 ms on a 2-core machine).

    python benchmarks/serving.py [--requests N] [--threads T]

The model is a small Dense network, Dense(16, relu) -> Dense(1) on 8 inputs,
exported with `model.export` as version 1 and served with
`minitf.serving.start` on a free 127.0.0.1 port. T client threads (default 8)
each keep one HTTP/1.1 connection open and send row-format predict requests
of one example; every answer is checked against `model(x)`. Latency is
wall-clock per request as a client sees it; the clients run in the same
process as the server, so they share its CPU and GIL -- read the figures as a
lower bound for a separate client. The machine may be shared: the CPU time
per request (client and server together, all threads) is printed too, as a
figure that other programs on the machine do not inflate.
"""
import argparse
import http.client
import json
import os
import sys
import tempfile
import threading
import time

# One BLAS thread (as benchmarks/run.py): on a small, busy machine OpenBLAS threads spin
# against each other and make tiny matmuls far slower.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402 - after the thread settings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import minitf as tf  # noqa: E402 - the checkout's minitf, whatever the working directory
import minitf.serving  # noqa: E402

GOAL_REQUESTS_PER_SECOND = 300
GOAL_P99_MS = 50.0


def small_dense():
    tf.random.set_seed(0)
    return tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(16, "relu"),
                                tf.keras.layers.Dense(1)])


def measure(server, model, requests, threads):
    """(requests/s, sorted latencies in ms, wrong answers) for `requests` over `threads`."""
    latencies, wrong = [], []
    rng = np.random.default_rng(0)
    inputs = rng.normal(size=(requests, 1, 8)).astype("float32")
    expected = model(inputs.reshape(-1, 8)).numpy()

    def client(indices):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        for i in indices:
            body = json.dumps({"instances": inputs[i].tolist()}).encode()  # bytes: one send()
            start = time.perf_counter()
            conn.request("POST", "/v1/models/dense:predict", body=body)
            response = conn.getresponse()
            answer = json.loads(response.read())
            latencies.append((time.perf_counter() - start) * 1000.0)
            if response.status != 200 or not np.allclose(answer["predictions"][0],
                                                         expected[i], rtol=1e-5, atol=1e-6):
                wrong.append((i, response.status, answer))
        conn.close()

    workers = [threading.Thread(target=client, args=(range(t, requests, threads),))
               for t in range(threads)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    seconds = time.perf_counter() - start
    return requests / seconds, sorted(latencies), wrong


def percentile(sorted_values, p):
    index = int(round(p / 100 * (len(sorted_values) - 1)))
    return sorted_values[min(len(sorted_values) - 1, index)]


def run(requests=1000, threads=8):
    model = small_dense()
    base = tempfile.mkdtemp()
    model.export(os.path.join(base, "1"), verbose=False)
    with minitf.serving.start("dense", base, file_system_poll_wait_seconds=0) as server:
        measure(server, model, 50, threads)  # warm up: first calls compile the plan
        cpu = time.process_time()
        rate, latencies, wrong = measure(server, model, requests, threads)
        cpu_ms = (time.process_time() - cpu) / requests * 1000.0
    return {"requests": requests, "threads": threads, "requests_per_second": rate,
            "cpu_ms_per_request": cpu_ms,
            "p50_ms": percentile(latencies, 50), "p99_ms": percentile(latencies, 99),
            "wrong": len(wrong)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    result = run(args.requests, args.threads)
    print(f"minitf.serving, Dense(16)->Dense(1), {result['requests']} requests from "
          f"{result['threads']} threads on loopback:")
    print(f"  {result['requests_per_second']:.0f} requests/s "
          f"(goal >= {GOAL_REQUESTS_PER_SECOND})")
    print(f"  p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms "
          f"(goal p99 <= {GOAL_P99_MS:.0f} ms)")
    print(f"  CPU time per request, client and server together: "
          f"{result['cpu_ms_per_request']:.2f} ms (on a loaded machine the wall-clock figures "
          "above are worse than this allows)")
    print(f"  wrong answers: {result['wrong']}")
    return 0 if result["wrong"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
