"""What accepting a SparseTensor costs the dense ops that do: the dispatch wrapper's overhead.

    python benchmarks/sparse_dispatch.py

minitf/ops/sparse_math_ops.py puts a small wrapper in front of the element-wise
ops that TF 2.21 lets take a SparseTensor (tf.abs, tf.math.negative, tf.cast,
tf.identity, ...). A dense call pays one more Python call and a type test.
This script times eager `tf.abs(x)` and `tf.cast(x, tf.float64)` on a 10x10
float32 tensor through the public name and through the wrapped dense op
(`__wrapped__`), in fresh processes taking turns (the machine is shared), and
prints the best per-call time of each and the difference in µs.
"""
import json
import os
import subprocess
import sys

CHILD = """
import json, sys, time, timeit
import numpy as np
sys.path.insert(0, {root!r})
import minitf as tf
x = tf.constant(np.random.rand(10, 10).astype(np.float32))
abs_, cast = (tf.abs.__wrapped__, tf.cast.__wrapped__) if {unwrapped} else (tf.abs, tf.cast)
def best(fn):
    return min(timeit.repeat(fn, number=20000, repeat=5, timer=time.process_time)) / 20000 * 1e6
print(json.dumps([best(lambda: abs_(x)), best(lambda: cast(x, tf.float64))]))
"""


def run(unwrapped):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD.format(root=root, unwrapped=unwrapped)],
                         capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(turns=3):
    best = {True: [float("inf")] * 2, False: [float("inf")] * 2}
    for _ in range(turns):
        for unwrapped in (True, False):
            best[unwrapped] = [min(x, y) for x, y in zip(best[unwrapped], run(unwrapped))]
    for i, label in enumerate(("tf.abs(x)", "tf.cast(x, tf.float64)")):
        dense, public = best[True][i], best[False][i]
        print(f"{label:24s} {dense:6.2f} µs the dense op, {public:6.2f} µs through the "
              f"SparseTensor-aware name (+{public - dense:.2f} µs)")
    return best


if __name__ == "__main__":
    main()
