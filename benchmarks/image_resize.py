"""How fast tf.image.resize is in minitf next to real TF, per method.

    python benchmarks/image_resize.py [rounds]

minitf resizes with two matrix products per image batch (minitf/image/resize_kernels.py
builds one weight matrix per axis); TF loops over pixels in C++. Each round runs one
fresh process per contender - minitf, then real TF if MINITF_TF_PYTHON is set - that
times every case (best of 5 calls after a warm-up), so a busy machine slows them alike;
the report gives the median over rounds and minitf's time as a multiple of TF's.
"""
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [("bilinear", False, (32, 224, 224, 3), (112, 112)),
         ("bilinear", False, (32, 112, 112, 3), (224, 224)),
         ("nearest", False, (32, 224, 224, 3), (112, 112)),
         ("bicubic", False, (32, 224, 224, 3), (160, 160)),
         ("area", False, (32, 224, 224, 3), (112, 112)),
         ("lanczos3", False, (32, 256, 256, 3), (224, 224)),
         ("bilinear", True, (32, 224, 224, 3), (64, 64))]

PROBE = """
import json, time, numpy as np
import {module} as tf
x = tf.constant(np.random.default_rng(0).uniform(size={shape}).astype(np.float32))
out = []
for method, antialias, shape, size in {cases}:
    x = tf.constant(np.random.default_rng(0).uniform(size=shape).astype(np.float32))
    tf.image.resize(x, size, method=method, antialias=antialias)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        tf.image.resize(x, size, method=method, antialias=antialias).numpy()
        best = min(best, time.perf_counter() - start)
    out.append(best)
print(json.dumps(out))
"""


def run(python, module):
    code = PROBE.format(module=module, shape=CASES[0][2], cases=CASES)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=ROOT)
    if module == "tensorflow":
        env.pop("PYTHONPATH")
    done = subprocess.run([python, "-c", code], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(rounds=3):
    contenders = {"minitf": (sys.executable, "minitf")}
    if os.environ.get("MINITF_TF_PYTHON"):
        contenders["tensorflow"] = (os.environ["MINITF_TF_PYTHON"], "tensorflow")
    times = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, (python, module) in contenders.items():
            times[name].append(run(python, module))
    print(f"{'case':46s} {'minitf ms':>10s} {'TF ms':>8s} {'ratio':>6s}")
    for i, (method, antialias, shape, size) in enumerate(CASES):
        mine = statistics.median(r[i] for r in times["minitf"]) * 1e3
        label = f"{method}{' antialias' if antialias else ''} {shape} -> {size}"
        if "tensorflow" in times:
            theirs = statistics.median(r[i] for r in times["tensorflow"]) * 1e3
            print(f"{label:46s} {mine:10.1f} {theirs:8.1f} {mine / theirs:6.1f}")
        else:
            print(f"{label:46s} {mine:10.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
