"""`@keras_ops_export("numpy")`: a `keras.ops` name, also under `keras.ops.numpy` (or nn, linalg).

>>> import minitf as tf
>>> tf.keras.ops.nn.relu is tf.keras.ops.relu
True
"""
from ...framework.tf_export import tf_export


# Keras 3 repeats ops.nn and ops.linalg at keras.ops, but not ops.image (no keras.ops.resize).
ONLY_IN_NAMESPACE = {"image"}


def keras_ops_export(namespace=None, name=None):
    def register(fn):
        public = name or fn.__name__
        names = [] if namespace in ONLY_IN_NAMESPACE else [f"keras.ops.{public}"]
        if namespace:
            names.append(f"keras.ops.{namespace}.{public}")
        return tf_export(*names)(fn)

    return register
