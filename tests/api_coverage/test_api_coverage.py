"""minitf's public names against TensorFlow 2.21's (coverage.py explains the rules).

The TF names are committed (tf_2_21_names.json), so nothing here needs TF.
When a test here fails:
* below a floor: a name that counted stopped counting (removed, renamed, made a
  placeholder, or its last test deleted) - `--missing MODULE` says which and why;
* more names now count: run `python -m tests.api_coverage.coverage --update-floors`
  and commit floors.json, so they cannot silently disappear later;
* a minitf-only name or a kind difference: match TF, or add it to minitf_only.py
  with the reason.
"""
import doctest
import json
import sys
import types

import pytest

import minitf
from . import coverage


@pytest.fixture(scope="module")
def reports():
    return {m: coverage.module_report(m) for m in coverage.tf_names()}


def test_docstring_example():
    assert doctest.testmod(coverage).failed == 0


def test_names_file_is_sorted_and_says_how_it_was_made():
    text = coverage.NAMES_FILE.read_text()
    data = json.loads(text)
    assert text == json.dumps(data, indent=1, sort_keys=True) + "\n"
    assert data["about"]["tensorflow"] == "2.21.0"
    assert data["about"]["made_by"].endswith("tests/api_coverage/make_names.py")
    assert data["modules"]["tf.math"]["abs"] == "function"
    assert data["modules"]["tf"]["float32"] == "constant"
    assert data["modules"]["tf.keras"]["layers"] == "module"


def test_shared_names_have_tf_kind():
    wrong = [f"{m}.{name}: a {mine} in minitf, a {theirs} in TF"
             for m in coverage.tf_names()
             for name, (mine, theirs, reason) in coverage.kind_differences(m).items()
             if reason is None]
    assert not wrong, "Names whose kind differs from TF 2.21's:\n" + "\n".join(wrong)


def test_no_module_falls_below_its_floor(reports):
    floors = coverage.load_floors()["floors"]
    assert set(floors) == set(reports), "floors.json and tf_2_21_names.json list other modules"
    fallen = coverage.below_floors(reports, floors)
    assert not fallen, "Modules below their floor:\n" + "\n".join(fallen)


def test_complete_modules_stay_complete(reports):
    gaps = {m: reports[m].missing for m in coverage.load_floors()["complete"]
            if reports[m].missing}
    assert not gaps, f"Modules listed as complete miss names: {gaps}"


def test_minitf_only_names_are_in_the_allow_list():
    unlisted = [f"{m}.{name}" for m in coverage.tf_names()
                for name, reason in coverage.minitf_only(m).items() if reason is None]
    assert not unlisted, ("Names TF 2.21 does not have (add to minitf_only.py with the reason, "
                          "or remove them):\n" + "\n".join(unlisted))


def test_every_exclusion_matches_a_tf_name():
    names = [f"{m}.{n}" for m, found in coverage.tf_names().items() for n in found]
    stale = [p for p, _ in coverage._rules(coverage.EXCLUDED)
             if not any(coverage.fnmatch.fnmatchcase(n, p) for n in names)]
    assert not stale, f"excluded.py patterns that match no TF 2.21 name: {stale}"


def test_every_allowance_is_still_needed():
    only = [f"{m}.{n}" for m in coverage.tf_names() for n in coverage.minitf_only(m)]
    kinds = [f"{m}.{n}" for m in coverage.tf_names() for n in coverage.kind_differences(m)]
    stale = [p for rules, found in ((coverage.MINITF_ONLY, only),
                                    (coverage.KIND_DIFFERS, kinds))
             for p, _ in coverage._rules(rules)
             if not any(coverage.fnmatch.fnmatchcase(n, p) for n in found)]
    assert not stale, f"minitf_only.py entries that match nothing any more (remove them): {stale}"


def test_evidence_reads_dotted_names_imports_and_getattr_loops():
    text = ("y = tf.nn.relu(x)\n"
            "from minitf.keras.layers import Dense, Flatten\n"
            "for name in ['exp', 'log']:\n    getattr(tf.math, name)(x)\n")
    pairs = coverage._pairs(text)
    assert {("tf", "nn"), ("nn", "relu"), ("layers", "Dense"), ("layers", "Flatten"),
            ("math", "exp"), ("math", "log")} <= pairs
    assert ("math", "relu") not in pairs
    assert coverage._docstring_lines("  >>> tf.math.abs(x)\n  tf.math.sin(x)\n") == "tf.math.abs(x)"


# (e) The rule itself can fail: a fake TF module and a fake minitf module.

def _stub(x):
    """Documented, but not written yet."""
    raise NotImplementedError("later")


def _partial(x, mode="a"):
    if mode != "a":
        raise NotImplementedError("only mode 'a'")
    return x


class _StubClass:
    def __init__(self):
        raise NotImplementedError


class _Real:
    def __init__(self):
        self.ok = True


@pytest.fixture
def fake(monkeypatch):
    module = types.ModuleType("minitf.fake")
    module.__dict__.update(good=abs, stub=_stub, partial=_partial, StubClass=_StubClass,
                           Real=_Real, untested=len, wrong_kind=_Real, extra=max,
                           skipped=min, np=types)  # `np`: an import, not API
    monkeypatch.setitem(sys.modules, "minitf.fake", module)
    monkeypatch.setattr(minitf, "fake", module, raising=False)
    names = {"tf.fake": {"good": "function", "stub": "function", "partial": "function",
                         "StubClass": "class", "Real": "class", "untested": "function",
                         "wrong_kind": "function", "absent": "function",
                         "skipped": "function"}}
    monkeypatch.setattr(coverage, "tf_names", lambda: names)
    monkeypatch.setattr(coverage, "evidence", lambda: {
        ("fake", n) for n in ("good", "stub", "partial", "StubClass", "Real", "wrong_kind")})
    monkeypatch.setattr(coverage, "EXCLUDED", [("not for minitf", ["tf.fake.skip*"])])
    monkeypatch.setattr(coverage, "MINITF_ONLY", [])
    coverage._object_paths.cache_clear()
    yield
    coverage._object_paths.cache_clear()


def test_the_rule_counts_only_real_tested_names_at_tf_paths(fake):
    report = coverage.module_report("tf.fake")
    assert sorted(report.implemented) == ["Real", "good", "partial"]
    assert report.missing == {
        "absent": "absent",
        "stub": "placeholder (raises NotImplementedError)",
        "StubClass": "placeholder (raises NotImplementedError)",
        "untested": "untested (no test or docstring example uses it)",
        "wrong_kind": "a class in minitf, a function in TF",
    }
    assert report.excluded == {"skipped": "not for minitf"}
    assert (report.total, round(report.percent)) == (8, 38)


def test_the_rule_reports_minitf_only_names_and_kind_differences(fake):
    assert coverage.minitf_only("tf.fake") == {"extra": None}
    assert coverage.kind_differences("tf.fake") == {"wrong_kind": ("class", "function", None)}


def test_a_module_that_loses_a_name_falls_below_its_floor(fake, monkeypatch):
    floors = {"tf.fake": 3}
    assert coverage.below_floors({"tf.fake": coverage.module_report("tf.fake")}, floors) == []
    monkeypatch.delattr(minitf.fake, "good")
    assert coverage.below_floors({"tf.fake": coverage.module_report("tf.fake")}, floors) == [
        "tf.fake: 2 < floor 3 (python -m tests.api_coverage.coverage --missing tf.fake)"]


def test_table_and_missing_listing(fake, capsys):
    coverage.main(["--missing", "tf.fake"])
    out = capsys.readouterr().out
    assert "tf.fake.stub: placeholder (raises NotImplementedError)" in out
    coverage.main([])
    assert "tf.fake                                      3      8    38%        1" in \
        capsys.readouterr().out
