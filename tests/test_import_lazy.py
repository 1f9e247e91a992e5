"""`import minitf` imports what a first cell needs; tf.keras, tf.data, ... come on first use.

Each check runs in a fresh Python, where nothing has been imported yet. The time it takes
is measured in benchmarks/import_time.py, not here.
"""
import json
import subprocess
import sys
import textwrap

LAZY_PACKAGES = ["data", "keras", "feature_column", "summary", "saved_model", "train", "io",
                 "distribute", "serving"]


def fresh(code):
    """Run `code` in a new Python and return the JSON its last line printed."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_minitf_leaves_the_big_subpackages_for_later():
    loaded = fresh("""
        import json, sys
        import minitf as tf
        print(json.dumps(sorted(m for m in sys.modules if m.startswith("minitf."))))
    """)
    for package in LAZY_PACKAGES:
        assert not [m for m in loaded if m == f"minitf.{package}"
                    or m.startswith(f"minitf.{package}.")], package
    assert "minitf.ops.math_ops" in loaded and "minitf.autograph" in loaded


def test_lazy_names_are_listed_and_imported_on_first_use():
    got = fresh("""
        import json, sys
        import minitf as tf
        listed = [n in dir(tf) for n in ("keras", "data", "losses", "py_function", "train")]
        dense = tf.keras.layers.Dense
        print(json.dumps([listed, dense.__module__, "minitf.keras" in sys.modules,
                          "minitf.data" in sys.modules, tf.losses.MeanSquaredError.__name__,
                          tf.py_function.__name__, "minitf.data" in sys.modules]))
    """)
    assert got == [[True] * 5, "minitf.keras.layers.core", True, False, "MeanSquaredError",
                   "py_function", True]


def test_an_unknown_attribute_is_still_an_attribute_error():
    got = fresh("""
        import json
        import minitf as tf
        try:
            tf.kerass
        except AttributeError as exc:
            print(json.dumps([str(exc), hasattr(tf, "no_such_thing")]))
    """)
    assert got == ["module 'minitf' has no attribute 'kerass'", False]


def test_importing_a_subpackage_directly_fills_its_namespace():
    # no tf.keras first: `from minitf.keras import layers` alone must give layers.Dense
    got = fresh("""
        import json
        from minitf.keras import layers
        from minitf.data import Dataset
        import minitf as tf
        print(json.dumps([layers.Dense.__name__, tf.keras.layers is layers,
                          tf.data.Dataset is Dataset, tf.keras.optimizers.Adam.__name__]))
    """)
    assert got == ["Dense", True, True, "Adam"]


def test_every_registered_name_is_in_place_once_everything_is_imported():
    # the same namespace as when `import minitf` imported every subpackage at once
    got = fresh("""
        import importlib, json
        import minitf as tf
        before = set(dir(tf))
        for package in %r:
            importlib.import_module("minitf." + package)
        from minitf.framework.tf_export import REGISTRY
        last = dict(REGISTRY)
        wrong = []
        for dotted, obj in last.items():
            value = tf
            for part in dotted.split("."):
                value = getattr(value, part, None)
            if value is not obj:
                wrong.append(dotted)
        top = {k for k in vars(tf) if not k.startswith("_")}
        print(json.dumps([len(last), wrong, sorted(top - before)]))
    """ % LAZY_PACKAGES[:-1])  # not minitf.serving: it is no tf.* namespace
    count, wrong, unlisted = got
    assert count > 900 and wrong == [] and unlisted == []


def test_pickled_classes_load_in_a_fresh_python():
    import pickle

    import minitf as tf
    payload = pickle.dumps([tf.keras.losses.MeanSquaredError, tf.TensorSpec([2], tf.float32),
                            tf.data.Dataset])
    got = fresh(f"""
        import json, pickle
        loss, spec, dataset = pickle.loads({payload!r})
        print(json.dumps([loss.__name__, repr(spec), dataset.__name__]))
    """)
    assert got == ["MeanSquaredError", "TensorSpec(shape=(2,), dtype=tf.float32, name=None)",
                   tf.data.Dataset.__name__]


def test_saved_model_knows_the_ops_of_packages_not_imported_yet():
    # SavedModel files name ops; those defined in tf.data or tf.summary must load even
    # when nothing imported those packages before the first load.
    got = fresh("""
        import json
        import minitf as tf
        from minitf.saved_model import registry
        print(json.dumps(sorted(registry._ops())))
    """)
    assert {"ReduceDataset", "WriteSummary", "Bucketize"} <= set(got)
