"""Eager per-op cost of the random ops before and after they learned shape tensors.

    python benchmarks/random_shape_overhead.py OLD_ROOT [--rounds N]

Since issue 19, `shape_argument` first asks whether the shape is a tensor only a
running graph knows (`random_shape_input.symbolic_shape`). Eager code should not
pay for that. OLD_ROOT is a checkout of minitf before the change (e.g. made with
`git archive <commit> minitf | tar -x -C /tmp/old`). Fresh processes of the old
and the current tree take turns (the machine is shared); each reports the best of
many calls, in microseconds per call, and the script prints the medians and the
ratio new / old.
"""
import json
import os
import statistics
import subprocess
import sys

CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
import minitf as tf
def best(fn, repeat=2000):
    times = []
    for _ in range(repeat):
        start = time.perf_counter(); fn(); times.append(time.perf_counter() - start)
    return min(times) * 1e6
tf.random.set_seed(1)
print(json.dumps({{
    "uniform([2, 3])": best(lambda: tf.random.uniform([2, 3])),
    "normal([2])": best(lambda: tf.random.normal([2])),
    "stateless_uniform([2, 3])": best(lambda: tf.random.stateless_uniform([2, 3], [1, 2])),
    "nn.dropout(2x3)": best(lambda: tf.nn.dropout(x, 0.5)),
}}))
"""
SETUP = "x = tf.ones([2, 3])\n"


def run(root):
    code = CHILD.format(root=root).replace("tf.random.set_seed(1)\n",
                                           "tf.random.set_seed(1)\n" + SETUP)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd="/")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    old_root = sys.argv[1]
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
    new_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results = {"old": [], "new": []}
    for _ in range(rounds):
        results["old"].append(run(old_root))
        results["new"].append(run(new_root))
    for key in results["old"][0]:
        old = statistics.median(r[key] for r in results["old"])
        new = statistics.median(r[key] for r in results["new"])
        print(f"{key:28s} old {old:7.1f} us   new {new:7.1f} us   new/old {new / old:.3f}")


if __name__ == "__main__":
    main()
