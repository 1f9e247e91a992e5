"""How fast minitf's StringLookup and TextVectorization are, beside real TensorFlow's.

    python benchmarks/lookup_layers.py [--quick]

minitf looks tokens up with a Python dict, one token at a time (lookup_table.py),
and splits text with Python's `bytes.split`; TensorFlow runs C++ hash tables
and string kernels. This script times, in fresh processes taking turns (the
machine is shared), the best of several runs of:

* StringLookup on a (2000, 50) batch of words (100k tokens), "int" mode;
* TextVectorization.adapt on 2000 sentences, then calling it on them.

It prints µs per token for minitf and, when real TF is available
(MINITF_TF_PYTHON, see tests/real_tf.py), for TF and the ratio minitf / TF.
"""
import json
import os
import subprocess
import sys

CHILD = """
import json, os, sys, time
sys.path.insert(0, {root!r})
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
if {real}:
    import tensorflow as tf
else:
    import minitf as tf
rng = np.random.default_rng(0)
words = np.array(["w%d" % i for i in range(500)])
batch = tf.constant(words[rng.integers(0, 600, size=(2000, 50)) % 500])
sentences = [" ".join(words[rng.integers(0, 500, size=12)]) for _ in range(2000)]
lookup = tf.keras.layers.StringLookup(vocabulary=list(words[:400]))
def best(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter(); fn(); times.append(time.perf_counter() - start)
    return min(times)
text = tf.keras.layers.TextVectorization()
out = {{"lookup": best(lambda: lookup(batch), {repeat}) / batch.shape.num_elements() * 1e6,
        "adapt": best(lambda: text.adapt(sentences), {repeat}) / (2000 * 12) * 1e6}}
out["vectorize"] = best(lambda: text(sentences), {repeat}) / (2000 * 12) * 1e6
print(json.dumps(out))
"""


def run(real, repeat):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    python = os.environ.get("MINITF_TF_PYTHON") if real else sys.executable
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env.pop("PYTHONPATH", None)
    out = subprocess.run([python, "-c", CHILD.format(root=root, real=real, repeat=repeat)],
                         capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(turns=3, repeat=3):
    sides = [False] + ([True] if os.path.exists(os.environ.get("MINITF_TF_PYTHON", "")) else [])
    best = {side: {} for side in sides}
    for _ in range(turns):
        for side in sides:
            for key, value in run(side, repeat).items():
                best[side][key] = min(best[side].get(key, value), value)
    for key, label in (("lookup", "StringLookup call"), ("adapt", "TextVectorization.adapt"),
                       ("vectorize", "TextVectorization call")):
        line = f"{label:24s} minitf {best[False][key]:7.3f} µs/token"
        if True in best:
            line += (f", TF {best[True][key]:7.3f} µs/token, minitf/TF "
                     f"{best[False][key] / best[True][key]:5.1f}x")
        print(line)
    return best


if __name__ == "__main__":
    main(*((1, 1) if "--quick" in sys.argv else ()))
