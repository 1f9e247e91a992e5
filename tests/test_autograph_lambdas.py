"""AutoGraph finds a lambda's source as TF's parser does (issue 18): it parses the
whole file (or doctest example, or notebook cell) and picks the lambda whose lines
include the one its code starts on, so a lambda inside a statement spanning several
lines (a dict of lambdas, a `for` header) is converted without a warning. Where TF
cannot tell two lambdas apart it warns, and so does minitf."""
import doctest
import importlib
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import minitf as tf
from minitf.autograph import conversion
from real_tf import require_tf, run_tf_json

CASES = '''
import tensorflow as tf
CASES = {
    "dict_entry": (lambda a: tf.reshape(a, [-1]),
                   [tf.zeros([2, 3])]),
    "nested_call": (lambda a: tf.concat([a,
                                         a], 0), [tf.zeros([2])]),
    "outer_of_two": (lambda x: tf.py_function(lambda v: v, [x], tf.float32), [tf.constant(1.0)]),
}
for i, y in enumerate(tf.data.Dataset.range(3).map(lambda v: v + 1,
                                                    num_parallel_calls=None)):
    pass
twins = [lambda: tf.constant(1), lambda: tf.constant(2)]
'''


def load_cases(module, tmp_path):
    path = tmp_path / "lambda_cases.py"
    path.write_text(CASES.replace("import tensorflow as tf", f"import {module} as tf"))
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module("lambda_cases")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("lambda_cases", None)


@pytest.fixture
def cases(tmp_path):
    return load_cases("minitf", tmp_path)


@pytest.mark.parametrize("name", ["dict_entry", "nested_call", "outer_of_two"])
def test_lambda_in_a_multiline_statement_converts_silently(cases, name):
    fn, args = cases.CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tf.function(fn)(*args)
    assert conversion.fallback_cause(fn) is None  # converted, not run as-is
    assert "def tf__lambda" in tf.autograph.to_code(fn)


def test_two_alike_lambdas_on_one_line_warn_as_in_tf(cases):
    with pytest.warns(UserWarning, match="found multiple definitions with identical "
                                         "signatures at the location"):
        assert tf.function(cases.twins[1])().numpy() == 2  # runs as-is, rightly


DOCSTRING_MODULES = ["minitf.data.cache_op", "minitf.data.timings"]


@pytest.mark.parametrize("name", DOCSTRING_MODULES)
def test_documented_examples_warn_nothing(name):
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for test in doctest.DocTestFinder().find(module, name, extraglobs={"tf": tf, "np": np}):
            runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_documented_examples_under_pytest_W_error():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run(
        # one process, not an xdist worker's child: under xdist, plugins such as
        # pytest-benchmark warn, and -W error would make that an error
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "--dist", "no", "-p", "no:cacheprovider",
         "-W", "error::UserWarning", os.path.join(root, "tests", "test_docstrings.py"), "-k",
         " or ".join(n.rsplit(".", 1)[1] for n in DOCSTRING_MODULES)],
        capture_output=True, text=True, cwd=root, timeout=600,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")})
    assert done.returncode == 0, done.stdout[-3000:]
    assert "2 passed" in done.stdout


def test_tf_warns_for_the_same_lambdas(tmp_path):
    require_tf()
    (tmp_path / "lambda_cases.py").write_text(CASES)
    script = textwrap.dedent("""
        import json, logging, sys
        import tensorflow as tf
        sys.path.insert(0, ".")
        import lambda_cases as cases
        messages = []
        class H(logging.Handler):
            def emit(self, r):
                messages.append(r.getMessage())
        tf.get_logger().addHandler(H())
        out = {}
        for name, (fn, args) in cases.CASES.items():
            messages.clear()
            tf.function(fn)(*args)
            out[name] = [m for m in messages if "could not transform" in m]
        messages.clear()
        tf.function(cases.twins[1])()
        out["twins"] = [m for m in messages if "could not transform" in m]
        print(json.dumps(out))
    """)
    real = run_tf_json(script, cwd=str(tmp_path))
    assert {k: v for k, v in real.items() if k != "twins"} == {
        "dict_entry": [], "nested_call": [], "outer_of_two": []}
    assert len(real["twins"]) == 1
    assert "found multiple definitions with identical signatures" in real["twins"][0]
