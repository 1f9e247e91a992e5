"""Activation functions of `tf.nn`: relu and friends, softplus, gelu, swish, softmax.

>>> import minitf as tf
>>> tf.nn.relu(tf.constant([-2.0, 0.0, 3.0]))
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 0., 3.], dtype=float32)>
>>> tf.nn.softmax(tf.constant([1.0, 2.0, 3.0])).numpy().round(4)
array([0.09  , 0.2447, 0.6652], dtype=float32)

Ops TensorFlow runs as one kernel (Relu, Elu, Softplus, Softmax, ...) are one
`Op` here too, with the kernel's formula as the NumPy forward. Their gradients
are written in minitf ops and reuse the forward output where TF's do (ReluGrad
looks at relu(x), EluGrad at elu(x), ...), so second derivatives work. `gelu`
and `silu` are compositions of `tf.math` ops in TF, and here.

Kinks: the gradient of relu at exactly 0 is 0, of relu6 at 0 and 6 is 0, of
leaky_relu at 0 is alpha, of elu/selu at 0 is their slope for x > 0 - as in TF.
`tf.nn.sigmoid` and `tf.nn.tanh` live with the other element-wise math.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.gradient_ops import zeros_like
from ..framework.op import Op, apply, usable_out
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import concat
from .math_ops import abs as abs_
from .math_ops import cast, logical_and, pow, where
from .reduction_ops import reduce_sum
from .shape_rules import same_shape
from .unary_ops import erfc, exp, sigmoid, tanh

# --- relu, relu6, leaky_relu ----------------------------------------------------------------
Relu = Op("Relu", lambda x: np.maximum(x, x.dtype.type(0)), dtypes=dtypes.REAL, shape=same_shape)


# TF's ReluGrad: dy where relu(x) > 0, so the slope at x = 0 is 0. One fused op
# instead of compare + select keeps the backward pass as cheap as the forward.
def _relu_grad_forward(dy, y, out=None):
    return np.multiply(dy, y > 0, out=usable_out(out, dy.shape, dy.dtype))


ReluGrad = Op("ReluGrad", _relu_grad_forward, dtypes=dtypes.REAL, shape=same_shape,
              accepts_out=True)


@Relu.def_grad
def _relu_grad(op, dy):
    return apply(ReluGrad, [dy, op.outputs[0]])


@ReluGrad.def_grad
def _relu_grad_grad(op, ddx):
    return apply(ReluGrad, [ddx, op.inputs[1]]), None  # piecewise linear: no curvature


@tf_export("nn.relu")
def relu(features, name=None):
    """max(x, 0), element-wise.

    >>> tf.nn.relu([-1.0, 2.0]).numpy()
    array([0., 2.], dtype=float32)
    """
    return apply(Relu, [convert_to_tensor(features)])


Relu6 = Op("Relu6", lambda x: np.clip(x, x.dtype.type(0), x.dtype.type(6)), dtypes=dtypes.REAL,
           shape=same_shape)


@Relu6.def_grad
def _relu6_grad(op, dy):
    y = op.outputs[0]  # flat (slope 0) at and beyond both corners, 0 and 6
    return where(logical_and(y > 0, y < 6), dy, zeros_like(dy))


@tf_export("nn.relu6")
def relu6(features, name=None):
    """min(max(x, 0), 6), element-wise.

    >>> tf.nn.relu6([-3.0, 3.0, 10.0]).numpy()
    array([0., 3., 6.], dtype=float32)
    """
    return apply(Relu6, [convert_to_tensor(features)])


def _leaky_relu_forward(x, alpha):
    return np.where(x > 0, x, x * x.dtype.type(alpha))


LeakyRelu = Op("LeakyRelu", _leaky_relu_forward, dtypes=dtypes.FLOATING, shape=same_shape)


@LeakyRelu.def_grad
def _leaky_relu_grad(op, dy):
    x = op.inputs[0]  # slope 1 for x > 0, alpha otherwise (also at x = 0, as in TF)
    return where(x > 0, dy, dy * op.attrs["alpha"])


@tf_export("nn.leaky_relu")
def leaky_relu(features, alpha=0.2, name=None):
    """x for x > 0, alpha * x otherwise. Integer inputs are cast to float32, as in TF.

    >>> tf.nn.leaky_relu([-1.0, 2.0]).numpy()
    array([-0.2,  2. ], dtype=float32)
    """
    features = convert_to_tensor(features)
    if features.dtype.is_integer:
        features = cast(features, dtypes.float32)
    if isinstance(alpha, np.ndarray):
        alpha = alpha.item()
    return apply(LeakyRelu, [features], {"alpha": float(alpha)})


# --- elu, selu -------------------------------------------------------------------------------
def _exp_minus_one(x):
    """exp(x) - 1 for x < 0, as TF's kernels compute it; x > 0 is clipped so exp cannot overflow."""
    return np.exp(np.minimum(x, 0)) - 1


Elu = Op("Elu", lambda x: np.where(x < 0, _exp_minus_one(x), x), dtypes=dtypes.FLOATING,
         shape=same_shape)


@Elu.def_grad
def _elu_grad(op, dy):
    y = op.outputs[0]  # for x < 0, d(e^x - 1)/dx = e^x = y + 1
    return where(y < 0, dy * (y + 1), dy)


@tf_export("nn.elu")
def elu(features, name=None):
    """x for x > 0, exp(x) - 1 otherwise.

    >>> tf.nn.elu([-1.0, 2.0]).numpy()
    array([-0.6321206,  2.       ], dtype=float32)
    """
    return apply(Elu, [convert_to_tensor(features)])


# TF's kernel constants (selu_op.h): scale and scale * alpha, rounded to the dtype.
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946
SELU_SCALE_ALPHA = 1.7580993408473768599402175208123


def _selu_forward(x):
    t = x.dtype.type
    return np.where(x < 0, t(SELU_SCALE_ALPHA) * _exp_minus_one(x), t(SELU_SCALE) * x)


Selu = Op("Selu", _selu_forward, dtypes=dtypes.FLOATING, shape=same_shape)


@Selu.def_grad
def _selu_grad(op, dy):
    y = op.outputs[0]  # for x < 0, y = sa (e^x - 1), so dy/dx = sa e^x = y + sa
    return where(y < 0, dy * (y + SELU_SCALE_ALPHA), dy * SELU_SCALE)


@tf_export("nn.selu")
def selu(features, name=None):
    """scale * x for x > 0, scale * alpha * (exp(x) - 1) otherwise (self-normalizing).

    alpha = 1.6732632423543772, scale = 1.0507009873554805 (Klambauer et al., 2017).

    >>> tf.nn.selu([-1.0, 2.0]).numpy()
    array([-1.1113309,  2.101402 ], dtype=float32)
    """
    return apply(Selu, [convert_to_tensor(features)])


# --- softplus, softsign ----------------------------------------------------------------------
def _softplus_forward(x):
    # TF's kernel: beyond |x| > -log(eps) - 2 the answer is x (or exp(x)) to machine precision.
    t = x.dtype.type
    threshold = t(np.log(np.finfo(x.dtype).eps)) + t(2)
    e = np.exp(np.minimum(x, -threshold))  # clipped: exp never overflows
    return np.where(x > -threshold, x, np.where(x < threshold, e, np.log1p(e)))


Softplus = Op("Softplus", _softplus_forward, dtypes=dtypes.FLOATING, shape=same_shape)


@Softplus.def_grad
def _softplus_grad(op, dy):
    return dy * sigmoid(op.inputs[0])  # d log(1 + e^x)/dx = e^x / (1 + e^x) = sigmoid(x)


@tf_export("math.softplus", "nn.softplus")
def softplus(features, name=None):
    """log(exp(x) + 1), computed without overflow: a smooth relu.

    >>> tf.math.softplus([0.0, 1.0, 1000.0]).numpy()
    array([6.9314718e-01, 1.3132617e+00, 1.0000000e+03], dtype=float32)
    """
    return apply(Softplus, [convert_to_tensor(features)])


Softsign = Op("Softsign", lambda x: x / (1 + np.abs(x)), dtypes=dtypes.FLOATING, shape=same_shape)


@Softsign.def_grad
def _softsign_grad(op, dy):
    d = 1 + abs_(op.inputs[0])  # d(x / (1 + |x|))/dx = 1 / (1 + |x|)^2
    return dy / (d * d)


@tf_export("math.softsign", "nn.softsign")
def softsign(features, name=None):
    """x / (1 + |x|).

    >>> tf.nn.softsign([-3.0, 1.0]).numpy()
    array([-0.75,  0.5 ], dtype=float32)
    """
    return apply(Softsign, [convert_to_tensor(features)])


# --- gelu, silu: compositions of tf.math ops, as in TF ------------------------------------------
@tf_export("nn.gelu")
def gelu(features, approximate=False, name=None):
    """x * P(X <= x) for X ~ N(0, 1): 0.5 x erfc(-x / sqrt(2)) = 0.5 x (1 + erf(x / sqrt(2))).

    approximate=True uses 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).

    >>> tf.nn.gelu([-1.0, 0.0, 1.0]).numpy()
    array([-0.15865526,  0.        ,  0.8413447 ], dtype=float32)
    """
    features = convert_to_tensor(features)
    if not features.dtype.is_floating:
        raise ValueError("`features.dtype` must be a floating point tensor."
                         f"Received:features.dtype=<dtype: '{features.dtype.name}'>")
    if approximate:
        coeff = cast(0.044715, features.dtype)
        return 0.5 * features * (
            1.0 + tanh(0.7978845608028654 * (features + coeff * pow(features, 3))))
    # TF 2.21 writes erfc(-x/sqrt(2)), not 1 + erf(x/sqrt(2)): no cancellation for x << 0.
    return 0.5 * features * erfc(-features * cast(0.7071067811865476, features.dtype))


@tf_export("nn.silu", "nn.swish")
def swish(features, beta=1.0):
    """x * sigmoid(beta * x) (SiLU; called swish when beta is learned).

    >>> tf.nn.silu([-1.0, 0.0, 1.0]).numpy()
    array([-0.2689414,  0.       ,  0.7310586], dtype=float32)
    """
    features = convert_to_tensor(features)
    beta = cast(convert_to_tensor(beta), features.dtype)
    return features * sigmoid(beta * features)


silu = swish


@tf_export("nn.crelu")
def crelu(features, axis=-1, name=None):
    """Concatenated ReLU: relu(concat([x, -x], axis)), so the positive and the negative
    part of each feature both survive (the axis doubles in size).

    >>> tf.nn.crelu([1.0, -2.0]).numpy()
    array([1., 0., 0., 2.], dtype=float32)
    """
    features = convert_to_tensor(features)
    return relu(concat([features, -features], axis))


# --- softmax, log_softmax ----------------------------------------------------------------------
# TF's Softmax kernel works on the last axis and tf.nn.softmax transposes any other axis
# there and back; minitf's op simply takes the axis as an attribute.
def _softmax_forward(x, axis):
    if x.size == 0:
        return x.copy()
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))  # shift by the max: exp never overflows
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax_forward(x, axis):
    if x.size == 0:
        return x.copy()
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _scalar_logits(op_name):
    return errors.op_error(errors.InvalidArgumentError, op_name,
                           "logits must have >= 1 dimension, got []",
                           f"{op_name} normalizes along an axis; a scalar has none.")


def _softmax_rule(op_name):
    def rule(shape, axis):
        if shape.rank == 0:
            raise _scalar_logits(op_name)
        return shape

    return rule


Softmax = Op("Softmax", _softmax_forward, dtypes=dtypes.FLOATING, shape=_softmax_rule("Softmax"))
LogSoftmax = Op("LogSoftmax", _log_softmax_forward, dtypes=dtypes.FLOATING,
                shape=_softmax_rule("LogSoftmax"))


@Softmax.def_grad
def _softmax_grad(op, dy):
    y, axis = op.outputs[0], op.attrs["axis"]  # dx = y * (dy - sum(dy * y))
    return (dy - reduce_sum(dy * y, axis, keepdims=True)) * y


@LogSoftmax.def_grad
def _log_softmax_grad(op, dy):
    y, axis = op.outputs[0], op.attrs["axis"]  # dx = dy - softmax(x) * sum(dy), softmax = e^y
    return dy - reduce_sum(dy, axis, keepdims=True) * exp(y)


def _softmax_call(op, logits, axis):
    logits = convert_to_tensor(logits)
    rank = logits.shape.rank
    axis = -1 if axis is None else int(axis)
    if rank == 0:
        raise _scalar_logits(op.name)
    if rank is not None and not -rank <= axis < rank:
        raise errors.op_error(
            errors.InvalidArgumentError, op.name,
            f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the number of "
            f"dimensions in the input. Received: dim={axis}",
            f"A rank-{rank} tensor has axes 0..{rank - 1} (or -{rank}..-1 from the end).")
    return apply(op, [logits], {"axis": axis % rank if rank else axis})


@tf_export("nn.softmax", "math.softmax")
def softmax(logits, axis=None, name=None):
    """exp(x) / sum(exp(x)) along `axis` (default: the last), computed as exp(x - max(x)) / ...

    >>> tf.nn.softmax([1000.0, 0.0]).numpy()
    array([1., 0.], dtype=float32)
    """
    return _softmax_call(Softmax, logits, axis)


@tf_export("nn.log_softmax", "math.log_softmax")
def log_softmax(logits, axis=None, name=None):
    """x - log(sum(exp(x))) along `axis`, stable for large |x| (no exp overflow, no log(0)).

    >>> tf.nn.log_softmax([1000.0, 0.0]).numpy()
    array([    0., -1000.], dtype=float32)
    """
    return _softmax_call(LogSoftmax, logits, axis)
