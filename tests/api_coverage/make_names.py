"""Write tf_2_21_names.json: TensorFlow 2.21's public names, module by module.

Run once under real TensorFlow (never by the tests, which read the JSON):

    /tmp/tfvenv/bin/python tests/api_coverage/make_names.py

For every module in MODULES it records each public name (no leading
underscore) with its kind: "module", "class", "function" (anything callable
that is not a class) or "constant" (dtypes, strings, numbers, None). The
output is sorted, so running it again under the same TF gives the same file.
Submodules are recorded as names of kind "module" in their parent; only the
modules listed here are walked (so `tf.compat` is its top level only).

`tf.keras` in TF 2.21 is `keras._tf_keras.keras`, which has no `saving`; minitf
offers `tf.keras.saving` as Keras 3.15's `keras.saving` (what `import keras`
users type), so that one module is read from the standalone `keras` package.

`tf.keras` (Keras 3.15 in its tf.keras dress) and standalone `keras` differ in a
few names (`tf.keras.losses.MSE` vs `keras.losses.mean_squared_error`). The
coverage counts `tf.keras`; the standalone names are recorded under
"keras_standalone" so that a Keras 3 name minitf offers is not called minitf-only.
"""
import json
import os
import sys
import types

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

COMMAND = "/tmp/tfvenv/bin/python tests/api_coverage/make_names.py"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_2_21_names.json")

TF_MODULES = [
    "", "autograph", "autograph.experimental", "bitwise", "compat", "config",
    "config.experimental", "config.optimizer", "config.threading", "data",
    "data.experimental", "debugging", "distribute", "distribute.cluster_resolver",
    "distribute.experimental", "dtypes", "errors", "feature_column", "image", "io", "io.gfile",
    "linalg", "linalg.experimental", "lookup", "lookup.experimental", "math", "math.special",
    "nest", "nn", "nn.experimental", "ragged", "random", "random.experimental",
    "saved_model", "sets", "signal", "sparse", "strings", "summary", "summary.experimental",
    "train", "types", "types.experimental", "version",
    # tf.losses, tf.metrics, tf.optimizers are Keras's modules under a second name.
    "losses", "metrics", "optimizers", "optimizers.schedules",
]
KERAS_MODULES = [
    "", "activations", "backend", "callbacks", "config", "constraints", "datasets",
    "dtype_policies", "export", "initializers", "layers", "losses", "metrics", "mixed_precision",
    "models", "ops", "ops.image", "ops.linalg", "ops.nn", "ops.numpy", "optimizers",
    "optimizers.schedules", "preprocessing", "preprocessing.sequence", "random",
    "regularizers", "saving", "tree", "utils",
]
MODULES = TF_MODULES + ["keras." + m if m else "keras" for m in KERAS_MODULES]


def kind(obj):
    """The kind of a public object, as the coverage test compares it."""
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type):
        return "class"
    if callable(obj):
        return "function"
    return "constant"


# tf.<path> that TF 2.21 lacks, read from standalone Keras (see the module docstring).
FROM_KERAS = {"keras.saving": "saving"}


def resolve(tf, path):
    if path in FROM_KERAS:
        import keras
        return resolve(keras, FROM_KERAS[path])
    obj = tf
    for part in path.split(".") if path else ():
        obj = getattr(obj, part)
    return obj


def public_names(module):
    names = {}
    for name in dir(module):
        if name.startswith("_"):
            continue
        try:
            names[name] = kind(getattr(module, name))
        except (AttributeError, ImportError):  # a lazy name whose import fails is not API
            continue
    return dict(sorted(names.items()))


def _atomic_write(path):
    """minitf/framework/atomic_file.py, loaded by path: this runs in TF's venv, without minitf."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "atomic_file", os.path.join(here, "..", "..", "minitf", "framework", "atomic_file.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.atomic_write(path)


def main(argv):
    """`--out PATH` writes elsewhere (test_names_match_real_tf.py compares with the committed file)."""
    out = argv[argv.index("--out") + 1] if "--out" in argv else OUT
    import tensorflow as tf
    import keras

    modules = {}
    for path in MODULES:
        modules["tf." + path if path else "tf"] = public_names(resolve(tf, path))
    standalone = {}
    for path in KERAS_MODULES:
        try:
            standalone["keras." + path if path else "keras"] = public_names(resolve(keras, path))
        except AttributeError:
            continue
    about = {
        "made_by": COMMAND,
        "tensorflow": tf.__version__,
        "keras": keras.__version__,
        "python": "%d.%d" % sys.version_info[:2],
        "kinds": "module | class | function (callable, not a class) | constant",
        "from_keras": {"tf." + k: "keras." + v for k, v in FROM_KERAS.items()},
        "note": "Public names (no leading underscore) of each listed module, from dir(). "
                "Submodules appear as names of kind 'module' in their parent; only the "
                "listed modules are walked.",
    }
    data = {"about": about, "modules": modules, "keras_standalone": standalone}
    text = json.dumps(data, indent=1, sort_keys=True)
    with _atomic_write(out) as tmp, open(tmp, "w") as f:
        f.write(text + "\n")
    total = sum(len(v) for v in modules.values())
    print(f"wrote {out}: {len(modules)} modules, {total} names")


if __name__ == "__main__":
    main(sys.argv[1:])
