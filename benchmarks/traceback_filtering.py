"""What traceback filtering costs an eager op, and what TF's way would cost.

    python benchmarks/traceback_filtering.py

minitf filters tracebacks where an uncaught error is shown (framework/
traceback_utils.py), so `a + b` runs the same code with filtering on or off.
TensorFlow instead wraps each public op in a decorator that catches and
re-raises (`filter_traceback`). This times, in alternating processes, eager
`a + b` on 10x10 float32:

* filtering on (the default) and off: both should be the same;
* `a + b` through a TF-style wrapper (`*args, **kwargs` + try/except), the
  cost minitf avoids.
"""
import os
import subprocess
import sys
import time
import timeit

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one(variant):
    sys.path.insert(0, ROOT)
    import numpy as np
    import minitf as tf
    from minitf.ops import math_ops

    a = tf.constant(np.random.rand(10, 10).astype(np.float32))
    b = tf.constant(np.random.rand(10, 10).astype(np.float32))

    def tf_style(fn):
        def error_handler(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception as e:
                raise e.with_traceback(e.__traceback__) from None
        return error_handler

    if variant == "off":
        tf.debugging.disable_traceback_filtering()
    wrapped = tf_style(math_ops.add)
    call = (lambda: wrapped(a, b)) if variant == "wrapper" else (lambda: a + b)
    best = min(timeit.repeat(call, number=5000, repeat=15, timer=time.process_time))
    return best / 5000 * 1e6


def main(rounds=6):
    best = {}
    for _ in range(rounds):
        for variant in ("on", "off", "wrapper"):
            out = subprocess.run([sys.executable, __file__, variant], capture_output=True,
                                 text=True, check=True).stdout
            best[variant] = min(best.get(variant, 1e9), float(out))
    print(f"eager a + b, filtering on : {best['on']:.2f} µs")
    print(f"eager a + b, filtering off: {best['off']:.2f} µs")
    print(f"through a TF-style wrapper: {best['wrapper']:.2f} µs "
          f"(+{best['wrapper'] - best['on']:.2f} µs)")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(one(sys.argv[1]))
    else:
        main()
