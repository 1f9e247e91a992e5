"""`tf.debugging.check_numerics`: pass a float tensor through, failing if it holds NaN or Inf.

Put it where a NaN first appears to find out which step of a computation
produced it: the error names the kind of bad value and your message. It is an
op of its own (CheckNumerics), stateful like in TensorFlow, so graph
optimizations never fold, merge or drop it. Its gradient is the identity -
checked too, so a NaN that appears on the way back is also reported.

>>> tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "weights")
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
>>> try:
...     tf.debugging.check_numerics(tf.math.log(tf.constant([1.0, 0.0])), "log of inputs")
... except tf.errors.InvalidArgumentError as e:
...     print(e.message.split(" [Op:")[0])
log of inputs : Tensor had Inf values
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .shape_rules import same_shape


def _check_numerics_forward(x, message):
    if not np.isfinite(x).all():
        has_nan, has_inf = np.isnan(x).any(), np.isinf(x).any()
        kind = "Inf and NaN" if has_nan and has_inf else "NaN" if has_nan else "Inf"
        raise errors.op_error(
            errors.InvalidArgumentError, "CheckNumerics", f"{message} : Tensor had {kind} values",
            "A NaN comes from 0/0, inf - inf or log of a negative number; an Inf from x/0, "
            "log 0 or overflow. Check the ops that made this tensor.")
    return x


# TF declares CheckNumerics stateful: its error is an effect that must happen.
CheckNumerics = Op("CheckNumerics", _check_numerics_forward, dtypes=dtypes.FLOATING,
                   stateful=True, shape=same_shape)


@CheckNumerics.def_grad
def _check_numerics_grad(op, dy):  # d/dx x = 1, and the gradient is checked as well
    # TF formats the message attribute as bytes here, hence "gradient. b'...'".
    return check_numerics(dy, "Not a number (NaN) or infinity (Inf) values detected in "
                              f"gradient. {op.attrs['message'].encode()}")


@tf_export("debugging.check_numerics")
def check_numerics(tensor, message, name=None):
    """`tensor` unchanged, or InvalidArgumentError "<message> : Tensor had NaN values"
    (or Inf, or Inf and NaN) if some element is not finite. Float tensors only.

    >>> tf.debugging.check_numerics(tf.constant(3.0), "x")
    <tf.Tensor: shape=(), dtype=float32, numpy=3.0>
    """
    return apply(CheckNumerics, [convert_to_tensor(tensor)], {"message": str(message)})


@tf_export("debugging.assert_all_finite")
def assert_all_finite(x, message, name=None):
    """`x` unchanged if none of its elements is NaN or Inf, else InvalidArgumentError.

    TF builds it from check_numerics, so it fails with the same text.

    >>> tf.debugging.assert_all_finite(tf.constant([0.5]), "probabilities")
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """
    return check_numerics(convert_to_tensor(x), message)
