"""`tf.keras.optimizers.legacy`: the Keras 2 optimizers' names, which Keras 3 no longer has.

TF 2.21's `tf.keras` is Keras 3. It keeps the names `tf.keras.optimizers.legacy.Adam`,
`.Adagrad`, `.Ftrl`, `.RMSprop`, `.SGD` and `.Optimizer` only so that old code still
imports; all six are one class whose constructor raises an `ImportError` that says
what to do instead. minitf does the same. (Use `tf.keras.optimizers.Adam` & co.)

>>> import minitf as tf
>>> tf.keras.optimizers.legacy.Adam is tf.keras.optimizers.legacy.SGD
True
>>> tf.keras.optimizers.legacy.Adam(learning_rate=0.1)
Traceback (most recent call last):
ImportError: `keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, \
to continue using a `tf.keras.optimizers.legacy` optimizer, you can install the `tf_keras` \
package (Keras 2) and set the environment variable `TF_USE_LEGACY_KERAS=True` to configure \
TensorFlow to use `tf_keras` when accessing `tf.keras`.

In TensorFlow this is `LegacyOptimizerWarning` in `keras/src/optimizers/__init__.py`.
"""
from ...framework.tf_export import tf_export

_NAMES = ("Adagrad", "Adam", "Ftrl", "RMSprop", "SGD", "Optimizer")


@tf_export(*[f"{prefix}.legacy.{name}" for prefix in ("keras.optimizers", "optimizers")
             for name in _NAMES])
class LegacyOptimizerWarning:
    """Every `tf.keras.optimizers.legacy.*` name: constructing one raises ImportError."""

    def __init__(self, *args, **kwargs):
        raise ImportError(
            "`keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, "
            "to continue using a `tf.keras.optimizers.legacy` optimizer, you can install the "
            "`tf_keras` package (Keras 2) and set the environment variable "
            "`TF_USE_LEGACY_KERAS=True` to configure TensorFlow to use `tf_keras` when "
            "accessing `tf.keras`.")
