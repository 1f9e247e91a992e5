"""tf.linalg.experimental.conjugate_gradient: solve A x = rhs for a self-adjoint positive
definite A that is known only through x -> A x (matrix-free), as TF's sparse/conjugate_gradient.py.

>>> import minitf as tf
>>> class Matrix:  # what CG reads of a tf.linalg.LinearOperator
...     is_self_adjoint = is_positive_definite = True
...     def __init__(self, m): self.m = tf.constant(m)
...     def matvec(self, x): return tf.linalg.matvec(self.m, x)
...     def batch_shape_tensor(self): return tf.shape(self.m)[:-2]
>>> state = tf.linalg.experimental.conjugate_gradient(Matrix([[4.0, 1.0], [1.0, 3.0]]),
...                                                   tf.constant([1.0, 2.0]))
>>> int(state.i), state.x.numpy()  # n steps suffice for n unknowns
(2, array([0.09090909, 0.6363636 ], dtype=float32))

Each step moves x along a search direction p that is A-conjugate to the earlier ones
(p_i^T A p_j = 0): alpha = gamma / (p^T A p), x += alpha p, r -= alpha A p, and the next
direction is the new residual (preconditioned: M r) plus beta = gamma_new / gamma of the old
one. It stops after max_iter steps or when every ||r|| <= tol ||rhs||. The result is TF's
namedtuple CGState(i, x, r, p, gamma), gamma = r^H M r (||r||^2 without a preconditioner).
minitf has no LinearOperator classes (a framework TF Probability builds on); any object with
`matvec`, `batch_shape_tensor()` and the flags `is_self_adjoint`, `is_positive_definite` works.
"""
import collections

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _dot(x, y):
    """x^H y over the last axis, batch by batch (as TF: a matvec with x[..., None] adjointed)."""
    from .array_ops import squeeze
    from .linalg_ops import matvec

    return squeeze(matvec(x[..., None], y, adjoint_a=True), axis=-1)


def _check_operator(operator, what):
    needed = ["matvec", "batch_shape_tensor", "is_self_adjoint", "is_positive_definite"]
    missing = [n for n in needed if not hasattr(operator, n)]
    if missing:
        raise TypeError(f"{what} must be a tf.linalg.LinearOperator-like object with "
                        f"{', '.join(needed)}; {type(operator).__name__} has no "
                        f"{', '.join(missing)}. Wrap a matrix in a small class whose matvec "
                        "is tf.linalg.matvec(matrix, x) (see this function's docstring).")


@tf_export("linalg.experimental.conjugate_gradient")
def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
    """Conjugate gradients for A x = rhs; returns CGState(i, x, r, p, gamma)."""
    from .array_ops import broadcast_to, concat
    from .broadcast_shape_ops import broadcast_dynamic_shape
    from .creation_ops import zeros
    from .shape_ops import shape
    from .linalg_norm_ops import norm
    from .math_ops import logical_and
    from .reduction_ops import reduce_any
    from .while_ops import while_loop

    _check_operator(operator, "operator")
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")
    if preconditioner is not None:
        _check_operator(preconditioner, "preconditioner")
    rhs = convert_to_tensor(rhs)

    def stopping_criterion(i, state):
        return logical_and(i < max_iter, reduce_any(norm(state.r, axis=-1) > tol))

    def cg_step(i, state):
        z = operator.matvec(state.p)
        alpha = state.gamma / _dot(state.p, z)
        x = state.x + alpha[..., None] * state.p
        r = state.r - alpha[..., None] * z
        q = r if preconditioner is None else preconditioner.matvec(r)
        gamma = _dot(r, q)
        p = q + (gamma / state.gamma)[..., None] * state.p
        return i + 1, CGState(i + 1, x, r, p, gamma)

    batch = broadcast_dynamic_shape(shape(rhs)[:-1], operator.batch_shape_tensor())
    if preconditioner is not None:
        batch = broadcast_dynamic_shape(batch, preconditioner.batch_shape_tensor())
    rhs_shape = concat([batch, shape(rhs)[-1:]], axis=-1)
    r0 = broadcast_to(rhs, rhs_shape)
    tol = tol * norm(r0, axis=-1)
    if x is None:
        x = zeros(rhs_shape, dtype=rhs.dtype)
    else:
        r0 = rhs - operator.matvec(x)
    p0 = r0 if preconditioner is None else preconditioner.matvec(r0)
    i = convert_to_tensor(0, dtypes.int32)
    _, state = while_loop(stopping_criterion, cg_step, [i, CGState(i, x, r0, p0, _dot(r0, p0))])
    return CGState(state.i, x=state.x, r=state.r, p=state.p, gamma=state.gamma)
