"""tf.version: TF 2.21's six names, with minitf's honest values where minitf is not TF."""
import platform

import minitf as tf
from real_tf import run_tf_json

NAMES = ["VERSION", "GIT_VERSION", "COMPILER_VERSION", "GRAPH_DEF_VERSION",
         "GRAPH_DEF_VERSION_MIN_CONSUMER", "GRAPH_DEF_VERSION_MIN_PRODUCER"]


def test_version_names_and_values():
    assert tf.version.VERSION == "2.21.0"
    assert tf.version.GIT_VERSION == f"minitf-{tf.__version__}"
    assert tf.version.COMPILER_VERSION == (
        f"{platform.python_implementation()} {platform.python_version()}")
    assert (tf.version.GRAPH_DEF_VERSION, tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER,
            tf.version.GRAPH_DEF_VERSION_MIN_PRODUCER) == (2474, 0, 0)
    assert "version" in dir(tf)


def test_version_follows_real_tf_where_it_claims_to():
    real = run_tf_json("""
        import json, tensorflow as tf
        print(json.dumps({n: getattr(tf.version, n) for n in %r} | {"tf": tf.__version__}))
    """ % NAMES)
    assert set(real) - {"tf"} == set(NAMES)
    assert tf.version.VERSION == real["VERSION"] == real["tf"]
    for name in ("GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER",
                 "GRAPH_DEF_VERSION_MIN_PRODUCER"):
        assert getattr(tf.version, name) == real[name], name
        assert type(getattr(tf.version, name)) is type(real[name])
    assert all(isinstance(getattr(tf.version, n), str) for n in NAMES[:3])
