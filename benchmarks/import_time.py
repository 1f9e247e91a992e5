"""How long `import minitf` takes, next to `import numpy` (which it needs) and real TF.

    python benchmarks/import_time.py [rounds]

Each measurement is a fresh Python that imports one thing and prints how long it took
(wall time and CPU time of the process). The contenders take turns, round after round,
so a busy machine slows them alike; the report gives each one's median and best.

* `numpy`: `import numpy` alone - the floor, since minitf runs on NumPy;
* `minitf`: `import minitf` (NumPy included);
* `minitf + tf.keras`: `import minitf` then touching `tf.keras`, which is imported on
  first use (minitf/framework/api_namespace.py);
* `tensorflow`: `import tensorflow` in the Python named by MINITF_TF_PYTHON, if set;
* `minitf (baseline)`: `import minitf` from the checkout named by MINITF_BASELINE, if set
  (e.g. `git archive <commit> | tar -x -C /tmp/base`), to compare before and after.

All processes use one compiled-bytecode cache made before the first round (the
PYTHONPYCACHEPREFIX below): on a user's machine `.pyc` files exist after the first import,
so compiling sources is not part of the time a learner waits.
"""
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = ("import time; w, c = time.perf_counter(), time.process_time(); {stmt}; "
         "print(time.perf_counter() - w, time.process_time() - c)")

CONTENDERS = {
    "numpy": (sys.executable, "import numpy", ROOT),
    "minitf": (sys.executable, "import minitf", ROOT),
    "minitf + tf.keras": (sys.executable, "import minitf; minitf.keras", ROOT),
}


def _environment(cache):
    env = dict(os.environ, PYTHONPYCACHEPREFIX=cache, TF_CPP_MIN_LOG_LEVEL="3")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure(python, stmt, env, root=ROOT):
    """(wall seconds, CPU seconds) of `stmt` in a fresh Python, importing from `root`."""
    env = dict(env, PYTHONPATH=root)
    if python != sys.executable:  # real TF's own environment: not the checkout's path
        env.pop("PYTHONPATH")
    done = subprocess.run([python, "-c", PROBE.format(stmt=stmt)], env=env, cwd=root,
                          capture_output=True, text=True, check=True)
    wall, cpu = done.stdout.split()[-2:]
    return float(wall), float(cpu)


def main(rounds=15):
    contenders = dict(CONTENDERS)
    tf_python = os.environ.get("MINITF_TF_PYTHON")
    if tf_python and os.path.exists(tf_python):
        contenders["tensorflow"] = (tf_python, "import tensorflow", ROOT)
    baseline = os.environ.get("MINITF_BASELINE")
    if baseline:
        contenders["minitf (baseline)"] = (sys.executable, "import minitf", baseline)
    with tempfile.TemporaryDirectory() as cache:
        env = _environment(cache)
        for python, stmt, root in contenders.values():  # warm-up: fills the bytecode cache
            measure(python, stmt, env, root)
        times = {name: [] for name in contenders}
        for _ in range(rounds):
            for name, (python, stmt, root) in contenders.items():
                times[name].append(measure(python, stmt, env, root))
    print(f"import time over {rounds} alternating rounds (seconds):")
    print(f"{'':20s} {'median wall':>12s} {'best wall':>10s} {'median CPU':>11s}")
    for name, values in times.items():
        walls, cpus = [w for w, _ in values], [c for _, c in values]
        print(f"{name:20s} {statistics.median(walls):12.3f} {min(walls):10.3f} "
              f"{statistics.median(cpus):11.3f}")
    numpy_cpu = statistics.median(c for _, c in times["numpy"])
    minitf_cpu = statistics.median(c for _, c in times["minitf"])
    print(f"minitf on top of numpy: {minitf_cpu - numpy_cpu:.3f} s CPU (median)")
    return times


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
