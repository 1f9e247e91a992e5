"""How much of TensorFlow 2.21's public API minitf covers, module by module.

    python -m tests.api_coverage.coverage                  # the per-module table
    python -m tests.api_coverage.coverage --missing tf.image  # what tf.image lacks, and why
    python -m tests.api_coverage.coverage --minitf-only    # names TF 2.21 does not have
    python -m tests.api_coverage.coverage --update-floors  # today's counts into floors.json

The names come from `tf_2_21_names.json` (made once under real TF by
`make_names.py`); `excluded.py` removes the names minitf deliberately leaves
out, each with its reason. A name counts as implemented only when all hold:

1. minitf exposes it at the same path (`minitf.math.abs` for `tf.math.abs`);
   a module name counts only when it is minitf's own module, not a leaked import;
2. it is not a placeholder: neither the function nor a class's `__init__` raises
   `NotImplementedError` unconditionally (a `raise` in its body, not inside an `if`:
   read from its source). Raising it for one unsupported argument is allowed;
3. it is tested: some file under tests/, or a `>>>` line of a minitf docstring
   (tests/test_docstrings.py runs them all), writes `<namespace>.<name>`
   (`math.abs`, `layers.Dense`, `tf.constant`) for one of the paths minitf exposes
   the object at, or imports it with `from ... <namespace> import <name>`.
   A test that only checks that a name exists (tests/test_api.py) is not evidence.

Rule 3 is a textual check: it finds the tests that use a name, it cannot judge them.

>>> report = module_report("tf.dtypes")
>>> "float32" in report.implemented, report.excluded["qint8"][:33]
(True, 'quantized integer dtypes exist on')
>>> report.total == len(tf_names()["tf.dtypes"]) - len(report.excluded)
True
"""
import ast
import fnmatch
import inspect
import json
import re
import sys
import types
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .excluded import EXCLUDED
from .minitf_only import KIND_DIFFERS, MINITF_ONLY

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
NAMES_FILE = HERE / "tf_2_21_names.json"
FLOORS_FILE = HERE / "floors.json"
# Tests that only check that names exist, and this package's own files, are not evidence.
NOT_EVIDENCE = {REPO / "tests" / "test_api.py"} | set(HERE.glob("*"))


def kind(obj):
    """"module", "class", "function" (callable, not a class) or "constant" (make_names.py)."""
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type):
        return "class"
    return "function" if callable(obj) else "constant"


@lru_cache(maxsize=None)
def _names_file():
    return json.loads(NAMES_FILE.read_text())


def tf_names():
    """{"tf.math": {"abs": "function", ...}, ...} for TensorFlow 2.21."""
    return _names_file()["modules"]


def keras_names(module_path):
    """Standalone Keras 3.15's names for `tf.keras.<x>` (`keras.<x>`), {} for a non-Keras path."""
    if not module_path.startswith("tf.keras"):
        return {}
    return _names_file()["keras_standalone"].get(module_path[3:], {})


def _rules(rules):
    """[(pattern, reason)] from a list of (reason, [pattern, ...]) (excluded.py, minitf_only.py)."""
    return [(pattern, reason) for reason, patterns in rules for pattern in patterns]


@lru_cache(maxsize=None)
def _compiled(pattern):
    return re.split(r"[*?\[]", pattern)[0], re.compile(fnmatch.translate(pattern))


def match(full_name, rules):
    """The reason of the first rule whose pattern (fnmatch) matches `full_name`, or None."""
    for pattern, reason in rules:
        prefix, regex = _compiled(pattern)
        if full_name.startswith(prefix) and regex.match(full_name):
            return reason
    return None


def excluded(full_name):
    return match(full_name, _rules(EXCLUDED))


def minitf_module(module_path):
    """The minitf module at TF's `module_path` ("tf.keras.layers"), or None."""
    import minitf
    obj = minitf
    for part in module_path.split(".")[1:]:
        try:
            obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 - missing, or a lazy package whose import is broken
            return None
        if not (isinstance(obj, types.ModuleType) and obj.__name__.startswith("minitf")):
            return None
    return obj


def _registered_namespaces():
    from minitf.framework.tf_export import REGISTRY
    return _namespaces_of(len(REGISTRY))  # recomputed only when new names are registered


@lru_cache(maxsize=None)
def _namespaces_of(count):
    from minitf.framework.tf_export import REGISTRY
    spaces = set()
    for dotted, _ in REGISTRY[:count]:
        parts = dotted.split(".")[:-1]
        spaces.update("tf." + ".".join(parts[:i + 1]) for i in range(len(parts)))
    return spaces


def exposed(module_path):
    """{name: object} that minitf shows at `module_path`.

    A submodule is shown only when it is an API namespace (TF has a module of that
    name there, or minitf registers names in it); other modules in a package's
    namespace (`np`, the files a package is made of) are implementation."""
    module = minitf_module(module_path)
    if module is None:
        return {}
    spaces, tf_here = _registered_namespaces(), tf_names().get(module_path, {})
    shown = {}
    for name in dir(module):
        if name.startswith("_"):
            continue
        try:
            obj = getattr(module, name)
        except Exception:  # noqa: BLE001 - a lazy name whose import is broken does not count
            continue
        if isinstance(obj, types.ModuleType) and not (
                tf_here.get(name) == "module" or f"{module_path}.{name}" in spaces):
            continue
        shown[name] = obj
    return shown


def _raises_not_implemented(node):
    for statement in node.body:
        if isinstance(statement, ast.Raise) and statement.exc is not None:
            target = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
            if isinstance(target, ast.Name) and target.id == "NotImplementedError":
                return True
    return False


@lru_cache(maxsize=None)
def _placeholder_lines(filename):
    """First lines (of the `def` or its first decorator) of the functions in `filename`
    whose body raises NotImplementedError outright. The file is parsed once."""
    try:
        text = Path(filename).read_text()
    except OSError:
        return frozenset()
    if "NotImplementedError" not in text:
        return frozenset()
    lines = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                _raises_not_implemented(node):
            lines.update([node.lineno] + [d.lineno for d in node.decorator_list])
    return frozenset(lines)


def _body_raises_not_implemented(function):
    code = getattr(inspect.unwrap(function), "__code__", None)
    if code is None:
        return False  # builtins: no source to judge, not a placeholder
    return code.co_firstlineno in _placeholder_lines(code.co_filename)


def is_placeholder(obj):
    """True for a function, or a class's `__init__`, that raises NotImplementedError outright."""
    if isinstance(obj, type):
        init = obj.__dict__.get("__init__") or next(
            (c.__dict__["__init__"] for c in obj.__mro__[1:] if "__init__" in c.__dict__), None)
        return init is not None and _body_raises_not_implemented(init)
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        return _body_raises_not_implemented(obj)
    return False


_PAIR = re.compile(r"(?=\b(\w+)\.(\w+)\b)")  # overlapping: tf.nn.relu gives (tf, nn), (nn, relu)
_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+[\w.]*?(\w+)[ \t]+import[ \t]+"
                          r"(?:\(([\w\s,]+)\)|([\w \t,]+))", re.M)
_GETATTR = re.compile(r"getattr\((?:tf|minitf)((?:\.\w+)*),")
_QUOTED = re.compile(r"""["'](\w+)["']""")


def _pairs(text):
    """The ("namespace", "name") pairs a text uses: `math.abs`, `from x.layers import Dense`,
    and quoted names in a file that reads them with `getattr(tf.math, name)`."""
    found = set(_PAIR.findall(text))
    for space, in_parens, names in _FROM_IMPORT.findall(text):
        found.update((space, n.strip()) for n in (in_parens or names).split(",") if n.strip())
    spaces = {(s.rpartition(".")[2] or "tf") for s in _GETATTR.findall(text)}
    for name in _QUOTED.findall(text) if spaces else ():
        found.update((space, name) for space in spaces)
    return found


def _docstring_lines(text):
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line[4:] for line in lines
                     if line.startswith((">>> ", "... ")) and "doctest: +SKIP" not in line)


@lru_cache(maxsize=None)
def evidence():
    """Every (namespace, name) pair used by the tests or by a docstring example."""
    found = set()
    for path in (REPO / "tests").rglob("*.py"):
        if path not in NOT_EVIDENCE:
            found |= _pairs(path.read_text(errors="replace"))
    for path in (REPO / "minitf").rglob("*.py"):
        found |= _pairs(_docstring_lines(path.read_text(errors="replace")))
    return frozenset(found)


@dataclass
class ModuleReport:
    module: str
    implemented: list = field(default_factory=list)
    missing: dict = field(default_factory=dict)  # name -> why it does not count
    excluded: dict = field(default_factory=dict)  # name -> reason

    @property
    def total(self):
        return len(self.implemented) + len(self.missing)

    @property
    def percent(self):
        return 100.0 * len(self.implemented) / self.total if self.total else 100.0


def _paths_of(obj, module_paths):
    """The namespaces ("math", "tf") at which minitf exposes `obj`, for rule 3."""
    return {path.rpartition(".")[2] or path for path in module_paths.get(id(obj), ())}


@lru_cache(maxsize=None)
def _object_paths():
    paths = {}
    for module_path in tf_names():
        for name, obj in exposed(module_path).items():
            paths.setdefault(id(obj), set()).add(module_path)
    return paths


def why_not(module_path, name, tf_kind, shown):
    """Why `name` does not count as implemented, or None when it does."""
    if name not in shown:
        return "absent"
    obj = shown[name]
    if kind(obj) != tf_kind:
        return f"a {kind(obj)} in minitf, a {tf_kind} in TF"
    if tf_kind == "module" and minitf_module(f"{module_path}.{name}") is None:
        return "not minitf's own module"
    if is_placeholder(obj):
        return "placeholder (raises NotImplementedError)"
    spaces = _paths_of(obj, _object_paths()) | {module_path.rpartition(".")[2] or "tf"}
    if not any((space, name) in evidence() for space in spaces):
        return "untested (no test or docstring example uses it)"
    return None


def module_report(module_path):
    report, shown = ModuleReport(module_path), exposed(module_path)
    for name, tf_kind in tf_names()[module_path].items():
        reason = excluded(f"{module_path}.{name}")
        if reason:
            report.excluded[name] = reason
            continue
        problem = why_not(module_path, name, tf_kind, shown)
        if problem:
            report.missing[name] = problem
        else:
            report.implemented.append(name)
    return report


def minitf_only(module_path):
    """{name: allow-list reason or None} that minitf shows at `module_path` and neither
    TF 2.21 nor standalone Keras 3.15 (for `tf.keras.*`) has there."""
    known = set(tf_names()[module_path]) | set(keras_names(module_path))
    rules = _rules(MINITF_ONLY)
    return {name: match(f"{module_path}.{name}", rules)
            for name in sorted(exposed(module_path)) if name not in known}


def kind_differences(module_path):
    """{name: (minitf's kind, TF's kind, allow-list reason or None)} for shared names."""
    known = {**keras_names(module_path), **tf_names()[module_path]}
    rules, found = _rules(KIND_DIFFERS), {}
    for name, obj in exposed(module_path).items():
        if name in known and kind(obj) != known[name]:
            found[name] = (kind(obj), known[name], match(f"{module_path}.{name}", rules))
    return found


def table(reports):
    lines = [f"{'module':34} {'implemented':>11} {'total':>6} {'%':>6} {'excluded':>8}"]
    for r in reports:
        lines.append(f"{r.module:34} {len(r.implemented):>11} {r.total:>6} "
                     f"{r.percent:>5.0f}% {len(r.excluded):>8}")
    done, total = sum(len(r.implemented) for r in reports), sum(r.total for r in reports)
    lines.append(f"{'all':34} {done:>11} {total:>6} {100.0 * done / total:>5.0f}% "
                 f"{sum(len(r.excluded) for r in reports):>8}")
    return "\n".join(lines)


def below_floors(reports, floors):
    """Messages for the modules whose implemented count fell below their floor."""
    return [f"{m}: {len(reports[m].implemented)} < floor {floor} "
            f"(python -m tests.api_coverage.coverage --missing {m})"
            for m, floor in floors.items() if len(reports[m].implemented) < floor]


def load_floors():
    return json.loads(FLOORS_FILE.read_text())


def write_floors(reports):
    """Rewrite floors.json with today's implemented counts, keeping its `complete` list."""
    from minitf.framework.atomic_file import atomic_write
    old = load_floors() if FLOORS_FILE.exists() else {"complete": []}
    floors = {"about": "Implemented-name counts the coverage test may never fall below "
                       "(python -m tests.api_coverage.coverage --update-floors). Modules "
                       "in `complete` must stay at 100% of their non-excluded names.",
              "complete": sorted(old.get("complete", [])),
              "floors": {r.module: len(r.implemented) for r in reports}}
    with atomic_write(FLOORS_FILE) as tmp:
        Path(tmp).write_text(json.dumps(floors, indent=1, sort_keys=True) + "\n")


def main(argv):
    reports = [module_report(m) for m in tf_names()]
    if "--missing" in argv:
        module = argv[argv.index("--missing") + 1]
        report = next((r for r in reports if r.module == module), None)
        if report is None:
            sys.exit(f"no module {module!r}: choose one of {', '.join(tf_names())}")
        for name, why in sorted(report.missing.items()):
            print(f"{module}.{name}: {why}")
    elif "--minitf-only" in argv:
        for module in tf_names():
            for name, reason in minitf_only(module).items():
                print(f"{module}.{name}: {reason or 'NOT ALLOWED (add to minitf_only.py)'}")
    else:
        print(table(reports))
        if "--update-floors" in argv:
            write_floors(reports)
            print(f"wrote {FLOORS_FILE.relative_to(REPO)}")


if __name__ == "__main__":
    main(sys.argv[1:])
