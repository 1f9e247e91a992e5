"""The three ops the tape itself needs to run backpropagation.

TensorFlow's tape is likewise handed an aggregate function (AddN), `ones_like`
(to seed the target) and `zeros_like` (for unconnected gradients). They live
here, below `minitf/ops`, so the tape never imports upward; `tf.add_n`,
`tf.ones_like` and `tf.zeros_like` are these same ops.
"""
import numpy as np

from .op import Op, apply


def _add_n(*arrays):
    total = arrays[0]
    for a in arrays[1:]:
        total = total + a
    return total


def _add_n_shape(*shapes):
    return shapes[0]


AddN = Op("AddN", _add_n, shape=_add_n_shape)


@AddN.def_grad
def _add_n_grad(op, dy):
    return [dy] * len(op.inputs)


OnesLike = Op("OnesLike", np.ones_like, shape=lambda s: s)
ZerosLike = Op("ZerosLike", np.zeros_like, shape=lambda s: s)


def add_n(tensors):
    return tensors[0] if len(tensors) == 1 else apply(AddN, list(tensors))


def ones_like(tensor):
    return apply(OnesLike, [tensor])


def zeros_like(tensor):
    return apply(ZerosLike, [tensor])
