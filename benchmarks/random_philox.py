"""What drawing TF's Philox numbers costs, beside the NumPy PCG64 draws minitf used before.

    python benchmarks/random_philox.py [--quick]

minitf computes Philox4x32-10 in vectorised NumPy (minitf/ops/philox.py): ten
rounds of 64-bit multiplies over every block, then the bits-to-float rules.
NumPy's PCG64 generator runs in C. This script times, in fresh processes taking
turns (the machine is shared), the best of several runs of:

* `tf.random.normal([2])` after `tf.random.set_seed(1)`: per-op overhead;
* `tf.random.stateless_uniform` and `stateless_normal` of 1,000,000 values;
* the same sizes from `np.random.Generator(np.random.PCG64(seed))` (the old way),

and prints microseconds per call and the ratio Philox / PCG64.
"""
import json
import subprocess
import sys

CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
import numpy as np
import minitf as tf
def best(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter(); fn(); times.append(time.perf_counter() - start)
    return min(times) * 1e6
n = {repeat}
tf.random.set_seed(1)
pcg = lambda: np.random.Generator(np.random.PCG64([1, 2, 3]))
print(json.dumps({{
    "normal([2]) per op": best(lambda: tf.random.normal([2]), 50 * n),
    "stateless_uniform 1e6": best(lambda: tf.random.stateless_uniform([1000, 1000], [1, 2]), n),
    "stateless_normal 1e6": best(lambda: tf.random.stateless_normal([1000, 1000], [1, 2]), n),
    "pcg64 uniform 1e6": best(lambda: pcg().random((1000, 1000), np.float32), n),
    "pcg64 normal 1e6": best(lambda: pcg().standard_normal((1000, 1000), np.float32), n),
}}))
"""


def main():
    import os
    quick = "--quick" in sys.argv
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    runs = []
    for _ in range(1 if quick else 3):  # alternate fresh processes
        code = CHILD.format(root=root, repeat=2 if quick else 5)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    best = {k: min(r[k] for r in runs) for k in runs[0]}
    for name, us in best.items():
        print(f"{name:28s} {us:12.1f} µs")
    for kind in ("uniform", "normal"):
        ratio = best[f"stateless_{kind} 1e6"] / best[f"pcg64 {kind} 1e6"]
        print(f"Philox / PCG64 ({kind}, 1e6 values): {ratio:.1f}x")


if __name__ == "__main__":
    main()
