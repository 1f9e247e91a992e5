"""What importing minitf.ragged costs a dense op: the dispatch wrapper's overhead.

    python benchmarks/ragged_dispatch.py

Importing `minitf.ragged` puts a small wrapper in front of every public op that
accepts a RaggedTensor (`tf.add`, `tf.reduce_sum`, ...) and in front of the
Tensor's binary operators (`a + b` hands a RaggedTensor operand over). A dense
call pays one more Python call and a type check. This script times eager
`a + b`, `tf.add(a, b)` and `tf.reduce_sum(a)` on 10x10 float32 in fresh
processes without and with the import, taking turns (the machine is shared),
and prints the best per-call time of each and the difference in µs.
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
if {ragged}:
    import minitf.ragged
a = tf.constant(np.random.rand(10, 10).astype(np.float32))
b = tf.constant(np.random.rand(10, 10).astype(np.float32))
def best(fn):
    return min(timeit.repeat(fn, number=20000, repeat=5, timer=time.process_time)) / 20000 * 1e6
print(json.dumps([best(lambda: a + b), best(lambda: tf.add(a, b)),
                  best(lambda: tf.reduce_sum(a))]))
"""


def run(ragged):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD.format(root=root, ragged=ragged)],
                         capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(turns=3):
    best = {False: [float("inf")] * 3, True: [float("inf")] * 3}
    for _ in range(turns):
        for ragged in (False, True):
            best[ragged] = [min(x, y) for x, y in zip(best[ragged], run(ragged))]
    for i, label in enumerate(("a + b", "tf.add(a, b)", "tf.reduce_sum(a)")):
        without, with_ = best[False][i], best[True][i]
        print(f"{label:18s} {without:6.2f} µs without minitf.ragged, {with_:6.2f} µs with "
              f"(+{with_ - without:.2f} µs)")
    return best


if __name__ == "__main__":
    main()
