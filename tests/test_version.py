"""tf.version: TF 2.21's six names, with minitf's honest values where minitf is not TF.
(tests/lookup/test_tf_lookup_real_tf.py checks VERSION and the GraphDef numbers against real
TF 2.21 in its TF subprocess.)"""
import platform

import minitf as tf


def test_version_names_and_values():
    assert tf.version.VERSION == "2.21.0"
    assert tf.version.GIT_VERSION == f"minitf-{tf.__version__}"
    assert tf.version.COMPILER_VERSION == (
        f"{platform.python_implementation()} {platform.python_version()}")
    assert (tf.version.GRAPH_DEF_VERSION, tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER,
            tf.version.GRAPH_DEF_VERSION_MIN_PRODUCER) == (2474, 0, 0)
    assert "version" in dir(tf)

