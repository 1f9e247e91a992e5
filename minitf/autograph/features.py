"""`tf.autograph.experimental.Feature`: optional conversions, off unless asked for.

Of TF's optional features minitf implements one, `ASSERT_STATEMENTS`: with
it AutoGraph rewrites `assert` into `ag__.assert_stmt`, which on a tensor
becomes `tf.debugging.Assert` -- a check that runs every time the graph
runs. Without it an `assert` stays Python's: on a Python value it is checked
once, while tracing; on a tensor it asks for the tensor's truth value, which
does not exist yet, and tracing fails with `OperatorNotAllowedInGraphError`.

>>> @tf.function(experimental_autograph_options=tf.autograph.experimental.Feature.ASSERT_STATEMENTS)
... def root(x):
...     assert x >= 0.0, "x must not be negative"
...     return tf.sqrt(x)
>>> root(tf.constant(9.0))
<tf.Tensor: shape=(), dtype=float32, numpy=3.0>

The other members exist with TF's names and values, and change nothing in
minitf (its AutoGraph always converts what they would switch on, or has no
such conversion). In TensorFlow this is `autograph/core/converter.py`.
"""
import enum

from ..framework.tf_export import tf_export


@tf_export("autograph.experimental.Feature")
class Feature(enum.Enum):
    """Optional conversion features: pass one, or a tuple of them, as
    `tf.function(experimental_autograph_options=...)`."""

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def converts_asserts(optional_features):
    """Does this option (None, a Feature, or a tuple/list of Features) convert `assert`?

    >>> converts_asserts((Feature.LISTS, Feature.ASSERT_STATEMENTS)), converts_asserts(None)
    (True, False)

    (TF accepts anything here and fails later, with an AttributeError from
    its generated code; minitf says at once what it expects.)
    """
    if optional_features is None:
        return False
    features = (optional_features,) if isinstance(optional_features, Feature) \
        else optional_features
    if not isinstance(features, (tuple, list)) or \
            not all(isinstance(f, Feature) for f in features):
        raise TypeError(
            f"experimental_autograph_options must be a tf.autograph.experimental.Feature "
            f"or a tuple of them, not {optional_features!r}: for example "
            "tf.autograph.experimental.Feature.ASSERT_STATEMENTS.")
    return Feature.ALL in features or Feature.ASSERT_STATEMENTS in features
