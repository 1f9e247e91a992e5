"""A real local Spark session for the tests, or a skip that says how to get one.

* Spark needs Java 17+ (`java` on PATH, or JAVA_HOME) and `pyspark`, `pandas`,
  `pyarrow` in this Python. Missing: the tests skip, with the install command.
* ``MINITF_REQUIRE_SPARK=1`` (set by ``.ci/run``): missing Spark fails instead,
  so CI cannot pass by skipping.
"""
import contextlib
import importlib.util
import os
import shutil
import sys

import pytest

import minitf

INSTALL_HINT = ('Spark is not available: python -m pip install -e ".[spark]" '
                "(pyspark, pandas, pyarrow) and Java 17+ "
                "(apt-get install -y default-jre-headless)")
REPO = os.path.dirname(os.path.dirname(os.path.abspath(minitf.__file__)))


def missing():
    """What Spark lacks here ("" if nothing)."""
    lacking = [m for m in ("pyspark", "pandas", "pyarrow") if importlib.util.find_spec(m) is None]
    java_home = os.environ.get("JAVA_HOME")
    if not shutil.which("java") and not (java_home and os.path.exists(
            os.path.join(java_home, "bin", "java"))):
        lacking.append("java")
    return ", ".join(lacking)


def require(what="pyspark"):
    """Skip the calling test if Spark (or pandas alone, what="pandas") is missing; fail in CI."""
    lacking = missing() if what == "pyspark" else (
        "pandas" if importlib.util.find_spec("pandas") is None else "")
    if not lacking:
        return
    message = f"{INSTALL_HINT} -- missing: {lacking}"
    if os.environ.get("MINITF_REQUIRE_SPARK") == "1":
        pytest.fail("MINITF_REQUIRE_SPARK=1 but " + message)
    pytest.skip(message)


@contextlib.contextmanager
def local_session(master="local[2]"):
    """A small local SparkSession whose Python workers import this checkout's minitf."""
    require()
    from pyspark.sql import SparkSession
    saved = {k: os.environ.get(k) for k in ("PYSPARK_PYTHON", "PYTHONPATH")}
    # The workers are new Python processes: same interpreter, this checkout on their path.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, saved["PYTHONPATH"]) if p)
    try:
        spark = (SparkSession.builder.master(master).appName("minitf-tests")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false")
                 .config("spark.driver.memory", "512m")
                 .config("spark.sql.shuffle.partitions", "2")
                 .config("spark.python.worker.reuse", "true")
                 # JIT warm-up dominates a short test run: the quick compiler only.
                 .config("spark.driver.extraJavaOptions",
                         "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
                 .getOrCreate())
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    spark.sparkContext.setLogLevel("ERROR")
    try:
        yield spark
    finally:
        spark.stop()
