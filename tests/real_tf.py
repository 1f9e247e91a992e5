"""Run a snippet under real TensorFlow 2.21, from the tests.

Real TensorFlow lives in a virtual environment of its own (it pins its own
NumPy, protobuf and h5py), so tests never import it: they run code in that
environment's Python and read back what it printed.

* ``MINITF_TF_PYTHON``: the Python of an environment with ``tensorflow-cpu==2.21.*``
  (``.ci/run`` makes one and sets this). Unset or missing: tests that need
  real TF skip, with the command that makes such an environment as the reason.
* ``MINITF_REQUIRE_TF=1`` (set by ``.ci/run``): a missing TF is a failure, not a
  skip, so CI can never pass by skipping.

>>> import json
>>> if available():                                        # doctest: +SKIP
...     json.loads(run_tf("import tensorflow as tf; print(tf.constant(1).dtype.name)"))
'int32'
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

INSTALL_HINT = (
    "real TensorFlow is not available: make an environment with\n"
    "  python -m venv /tmp/tfvenv && /tmp/tfvenv/bin/pip install 'tensorflow-cpu==2.21.*' h5py \\\n"
    "      'tensorboard==2.21.*'\n"
    "and set MINITF_TF_PYTHON=/tmp/tfvenv/bin/python")


def tf_python():
    """The path of real TF's Python, or None."""
    path = os.environ.get("MINITF_TF_PYTHON")
    return path if path and os.path.exists(path) else None


def available():
    return tf_python() is not None


def require_tf():
    """Skip the calling test without real TF -- or fail, where CI requires TF."""
    if available():
        return tf_python()
    if os.environ.get("MINITF_REQUIRE_TF") == "1":
        pytest.fail("MINITF_REQUIRE_TF=1 but " + INSTALL_HINT)
    pytest.skip(INSTALL_HINT)


def run_tf(code, cwd=None, timeout=300):
    """Run `code` (dedented) under real TF and return its stdout; raise with stderr on failure.

    The snippet runs with TF's log noise off; print JSON to hand values back.
    """
    python = require_tf()
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="-1",
               PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)  # never let the tested checkout shadow real TF's packages
    done = subprocess.run([python, "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"real TF failed (exit {done.returncode}):\n{done.stderr[-4000:]}")
    return done.stdout


def run_tf_json(code, cwd=None, timeout=300):
    """`run_tf`, then the JSON its last printed line holds."""
    lines = run_tf(code, cwd=cwd, timeout=timeout).strip().splitlines()
    return json.loads(lines[-1])


if __name__ == "__main__":  # python tests/real_tf.py: is real TF there?
    print(run_tf("import tensorflow as tf, keras; print(tf.__version__, keras.__version__)")
          if available() else INSTALL_HINT)
    sys.exit(0)
