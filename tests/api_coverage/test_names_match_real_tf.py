"""The committed TF 2.21 name list is what real TF 2.21 gives today (needs real TF).

Kept apart from test_api_coverage.py, which needs no TF and runs in seconds.
"""
import json
import os

from real_tf import run_tf

from . import coverage


def test_committed_names_are_real_tf_names(tmp_path):
    out = tmp_path / "names.json"
    script = coverage.HERE / "make_names.py"
    run_tf(f"import runpy, sys; sys.argv = ['make_names.py', '--out', {os.fspath(out)!r}]; "
           f"runpy.run_path({os.fspath(script)!r}, run_name='__main__')")
    fresh, committed = json.loads(out.read_text()), json.loads(coverage.NAMES_FILE.read_text())
    assert fresh["about"]["tensorflow"] == committed["about"]["tensorflow"]
    assert fresh["modules"] == committed["modules"]
    assert fresh["keras_standalone"] == committed["keras_standalone"]
