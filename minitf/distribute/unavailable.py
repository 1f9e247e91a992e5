"""Strategies that need hardware or machines minitf does not have.

They exist so that code naming them imports, and explain themselves when used:

>>> import minitf as tf
>>> tf.distribute.TPUStrategy()
Traceback (most recent call last):
...
NotImplementedError: TPUStrategy needs Cloud TPU hardware ...
"""
from ..framework.tf_export import tf_export

_NEEDS = {
    "TPUStrategy": "Cloud TPU hardware (a TPU VM or a Colab TPU runtime) and real "
                   "TensorFlow, which compiles each step for the TPU with XLA",
    "TPUClusterResolver": "a Cloud TPU to connect to (its name or gRPC address) and real "
                          "TensorFlow",
    "MultiWorkerMirroredStrategy": "several machines (workers) described by the TF_CONFIG "
                                   "environment variable, talking to each other over gRPC, "
                                   "and real TensorFlow",
    "ParameterServerStrategy": "a cluster of worker and parameter-server machines (a "
                               "ClusterResolver over TF_CONFIG) and real TensorFlow",
}


def _unavailable(name):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"{name} needs {_NEEDS[name]}. minitf runs on one machine's CPU and does not "
            "pretend to be a cluster: use tf.distribute.MirroredStrategy over logical CPU "
            "devices (tf.config.set_logical_device_configuration) to learn synchronous "
            "data-parallel training.")

    return type(name, (), {"__init__": __init__, "__doc__": f"Needs {_NEEDS[name]}."})


TPUStrategy = tf_export("distribute.TPUStrategy", "distribute.experimental.TPUStrategy")(
    _unavailable("TPUStrategy"))
MultiWorkerMirroredStrategy = tf_export("distribute.MultiWorkerMirroredStrategy",
                                        "distribute.experimental.MultiWorkerMirroredStrategy")(
    _unavailable("MultiWorkerMirroredStrategy"))
ParameterServerStrategy = tf_export("distribute.experimental.ParameterServerStrategy",
                                    "distribute.ParameterServerStrategy")(
    _unavailable("ParameterServerStrategy"))
TPUClusterResolver = tf_export("distribute.cluster_resolver.TPUClusterResolver")(
    _unavailable("TPUClusterResolver"))
