"""Functions of a square matrix: tf.linalg.expm, sqrtm (= tf.matrix_square_root) and logm.

>>> import minitf as tf
>>> tf.linalg.expm(tf.constant([[0.0, 1.0], [-1.0, 0.0]], tf.float64))  # a rotation by 1 radian
<tf.Tensor: shape=(2, 2), dtype=float64, numpy=
array([[ 0.54030231,  0.84147098],
       [-0.84147098,  0.54030231]])>

* expm(A) = sum_n A^n / n!, by scaling and squaring (Higham 2005), ported from TF's
  linalg_impl.py as TF composes it of ops: A / 2^s has a small 1-norm, a Pade approximant
  r(A) = (V - U)^-1 (V + U) of degree 3..13 (7 for float32) gives its exponential, and s
  squarings undo the scaling. Being ops, its gradient is the chain rule through them.
* sqrtm(A) = the principal square root R, R @ R = A: from the Schur form A = Z T Z^H (SciPy's
  schur), R = Z sqrt(T) Z^H with the triangular root by Bjorck and Hammarling's recurrence, as
  in Eigen; a real matrix with a negative real eigenvalue has no real square root: nan, as in
  TF, and so do singular matrices where the recurrence meets 0/0. Gradient, as TF:
  dA = R dR + dR R is a Sylvester equation, solved for the gradient as one linear system with
  the Kronecker sum I (x) R^T + R (x) I.
* logm(A) = the principal logarithm, expm(logm(A)) = A (SciPy's logm; nan for a singular A, as
  TF); TF takes only complex matrices and defines no gradient for it.
"""
import warnings

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .scipy_support import scipy_module
from .shape_rules import same_shape


# --- expm: Pade approximants, as TF's _matrix_exp_pade3 ... _pade13 -------------------------------
_PADE = {
    3: [120.0, 60.0, 12.0],
    5: [30240.0, 15120.0, 3360.0, 420.0, 30.0],
    7: [17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0],
    9: [17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0,
        110880.0, 3960.0, 90.0],
    13: [64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
         129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
         40840800.0, 960960.0, 16380.0, 182.0],
}


def _batch_and_order(matrix):
    """The batch shape and M of [..., M, M]: Python numbers where the static shape knows them."""
    from .array_ops import shape

    static = matrix.shape
    if static.rank is not None and static.is_fully_defined():
        return static.as_list()[:-2], static.as_list()[-1]
    return shape(matrix)[:-2], shape(matrix)[-1]


def _identity_like(matrix):
    from .creation_ops import eye

    batch, order = _batch_and_order(matrix)
    return eye(order, batch_shape=batch, dtype=matrix.dtype)


def _pade(matrix, degree):
    """U (odd powers) and V (even powers) of the Pade approximant: exp(A) ~ (V - U)^-1 (V + U)."""
    from .linalg_ops import matmul

    b = [convert_to_tensor(c, matrix.dtype) for c in _PADE[degree]]
    ident = _identity_like(matrix)
    powers = {2: matmul(matrix, matrix)}
    for p in range(4, (6 if degree == 13 else degree - 1) + 1, 2):
        powers[p] = matmul(powers[p - 2], powers[2])
    if degree == 13:  # Horner-like: A^6 (A^6 b13 + ...) keeps the powers at 6
        a2, a4, a6 = powers[2], powers[4], powers[6]
        tmp_u = (matmul(a6, a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2
                 + b[1] * ident)
        v = (matmul(a6, b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4
             + b[2] * a2 + b[0] * ident)
        return matmul(matrix, tmp_u), v
    top = degree - 1  # U = A (A^(d-1) + b_(d-2) A^(d-3) + ... + b_1 I), V = b_(d-1) A^(d-1) + ...
    tmp_u = powers[top] + sum(b[p + 1] * powers[p] for p in range(2, top, 2)) + b[1] * ident
    v = sum(b[p] * powers[p] for p in range(2, top + 1, 2)) + b[0] * ident
    return matmul(matrix, tmp_u), v


def _nest_where(l1_norm, bounds, cases):
    """cases[i] for the first bound the 1-norm is below, else the last case (TF's _nest_where)."""
    from .math_ops import less, where

    if len(bounds) == 1:
        return where(less(l1_norm, bounds[0]), cases[0], cases[1])
    return where(less(l1_norm, bounds[0]), cases[0], _nest_where(l1_norm, bounds[1:], cases[1:]))


_SINGLE = {"maxnorm": 3.925724783138660, "degrees": (3, 5, 7),
           "bounds": (4.258730016922831e-001, 1.880152677804762e+000)}
_DOUBLE = {"maxnorm": 5.371920351148152, "degrees": (3, 5, 7, 9, 13),
           "bounds": (1.495585217958292e-002, 2.539398330063230e-001, 9.504178996162932e-001,
                      2.097847961257068e+000)}


@tf_export("linalg.expm")
def matrix_exponential(input, name=None):  # noqa: A002 - TF's argument name
    """exp(A) = I + A + A^2/2! + ... for square matrices [..., M, M].

    >>> tf.linalg.expm(tf.constant([[1.0, 2.0], [0.0, 1.0]])).numpy()  # e * [[1, 2], [0, 1]]
    array([[2.7182817, 5.4365635],
           [0.       , 2.7182817]], dtype=float32)
    """
    from .array_ops import reshape, shape
    from .creation_ops import fill
    from .math_ops import abs as abs_, cast, log, maximum, pow as pow_
    from .reduction_ops import reduce_max, reduce_sum
    from .unary_ops import floor, is_finite

    matrix = convert_to_tensor(input)
    if matrix.shape[-2:].as_list() == [0, 0]:
        return matrix
    if matrix.dtype in (dtypes.float16, dtypes.float32, dtypes.complex64):
        table = _SINGLE
    elif matrix.dtype in (dtypes.float64, dtypes.complex128):
        table = _DOUBLE
    else:
        raise ValueError(f"tf.linalg.expm does not support matrices of type <dtype: "
                         f"'{matrix.dtype.name}'>")
    if matrix.dtype == dtypes.float16:
        raise errors.op_error(
            errors.NotFoundError, "MatrixSolve", "Could not find device for node: {{node "
            "MatrixSolve}} = MatrixSolve[T=DT_HALF, adjoint=false]",
            "TF's expm ends in tf.linalg.solve, which has no float16 kernel: tf.cast to float32.")
    batch_shape, order = _batch_and_order(matrix)
    rows = matrix.shape[-2] if isinstance(order, int) else shape(matrix)[-2]
    flat = reshape(matrix, [-1, rows, order])  # non-square: matmul says so, as in TF
    l1_norm = reduce_max(reduce_sum(abs_(flat), axis=1), axis=-1)[..., None, None]
    const = lambda x: convert_to_tensor(x, l1_norm.dtype)  # noqa: E731
    squarings = maximum(floor(log(l1_norm / const(table["maxnorm"])) / log(const(2.0))), 0)
    degrees = table["degrees"]
    scaled = flat / cast(pow_(const(2.0), squarings), flat.dtype)
    approximants = [_pade(flat, d) for d in degrees[:-1]] + [_pade(scaled, degrees[-1])]
    bounds = [const(b) for b in table["bounds"]]
    u = _nest_where(l1_norm, bounds, [ua for ua, _ in approximants])
    v = _nest_where(l1_norm, bounds, [va for _, va in approximants])
    result = _solve_and_square(flat, u, v, squarings, is_finite(reduce_max(l1_norm)), fill)
    return reshape(result, _concat_shape(batch_shape, [rows, order]))


def _concat_shape(batch_shape, matrix_shape):
    from .array_ops import concat

    if isinstance(batch_shape, list):
        return batch_shape + list(matrix_shape)
    return concat([batch_shape, matrix_shape], axis=0)


def _solve_and_square(matrix, u, v, squarings, is_finite, fill):
    """(V - U)^-1 (V + U), then squared while i < squarings (per matrix of the batch)."""
    from .array_ops import shape
    from .cond_ops import cond
    from .linalg_ops import matmul
    from .linalg_solve_ops import solve
    from .math_ops import less, where
    from .reduction_ops import reduce_max
    from .while_ops import while_loop

    nan = convert_to_tensor(np.nan, matrix.dtype)
    result = cond(is_finite, lambda: solve(-u + v, u + v), lambda: fill(shape(matrix), nan))
    max_squarings = reduce_max(squarings)

    def keep_going(i, _):
        return cond(is_finite, lambda: less(i, max_squarings), lambda: convert_to_tensor(False))

    def square(i, r):
        return i + 1, where(less(i, squarings), matmul(r, r), r)

    _, result = while_loop(keep_going, square, [convert_to_tensor(0.0, squarings.dtype), result])
    return result


# --- sqrtm and logm: SciPy forwards, batch by batch ----------------------------------------------
def _matrix_errors(op_name, array):
    if array.ndim < 2:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"Input tensor 0 must have rank >= 2, got {array.ndim}",
                              "Give a matrix [M, M] or a batch of them [..., M, M].")
    if array.shape[-1] != array.shape[-2]:
        raise errors.op_error(errors.InvalidArgumentError, op_name, "Input matrix must be square.",
                              f"The last two axes are {array.shape[-2]} x {array.shape[-1]}.")


def _each_matrix(op_name, array, fn):
    _matrix_errors(op_name, array)
    if array.dtype == np.float16:
        from .special_math_ops import no_half_kernel

        raise no_half_kernel(op_name)
    out = np.empty_like(array)
    if out.size == 0:
        return out
    flat_in, flat_out = array.reshape((-1,) + array.shape[-2:]), out.reshape((-1,) + out.shape[-2:])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy's "singular matrix": the result says it (inf, nan)
        for k in range(flat_in.shape[0]):
            flat_out[k] = fn(flat_in[k].astype(np.complex128 if array.dtype.kind == "c"
                                               else np.float64))
    return out


def _triangular_sqrt(t):
    """The square root R of an upper triangular T (Bjorck and Hammarling, as Eigen): R_jj =
    sqrt(T_jj), then column by column, upwards, R_ij = (T_ij - R_i,i+1:j R_i+1:j,j) /
    (R_ii + R_jj). Two zero eigenvalues make that 0/0: nan, as in TF."""
    r = np.zeros_like(t)
    for j in range(t.shape[0]):
        r[j, j] = np.sqrt(t[j, j])
        for i in range(j - 1, -1, -1):
            r[i, j] = (t[i, j] - r[i, i + 1:j] @ r[i + 1:j, j]) / (r[i, i] + r[j, j])
    return r


def _sqrtm_one(matrix):
    """A = Z T Z^H (Schur), so sqrt(A) = Z sqrt(T) Z^H."""
    linalg = scipy_module("linalg", "tf.linalg.sqrtm")
    real_input = matrix.dtype.kind != "c"
    t, z = linalg.schur(matrix, output="real" if real_input else "complex")
    if real_input and np.any(np.diag(t, -1) != 0):  # 2x2 blocks: complex eigenvalue pairs
        t, z = linalg.schur(matrix.astype(np.complex128), output="complex")
    root = z @ _triangular_sqrt(t) @ z.conj().T
    if real_input and np.iscomplexobj(root):
        scale = np.max(np.abs(root), initial=1.0)
        if np.max(np.abs(root.imag), initial=0.0) > 1e-12 * scale:
            return np.full(matrix.shape, np.nan)  # no real square root (a negative eigenvalue)
        root = root.real
    return root


def _logm_one(matrix):
    linalg = scipy_module("linalg", "tf.linalg.logm")
    t, _ = linalg.schur(matrix, output="complex")
    if np.any(np.diag(t) == 0):
        return np.full(matrix.shape, complex(np.nan, np.nan))  # singular: TF's nan (SciPy guesses)
    return linalg.logm(matrix)


MatrixSquareRoot = Op("MatrixSquareRoot", lambda a: _each_matrix("MatrixSquareRoot", a,
                                                                 _sqrtm_one),
                      dtypes=dtypes.INEXACT, shape=same_shape)
MatrixLogarithm = Op("MatrixLogarithm", lambda a: _each_matrix("MatrixLogarithm", a, _logm_one),
                     dtypes=dtypes.COMPLEX, shape=same_shape)


def _kronecker(b1, b2):
    """Batches of Kronecker products: [..., n, n] (x) [..., n, n] -> [..., n*n, n*n]."""
    from .array_ops import reshape

    batch, n = _batch_and_order(b1)
    product = b1[..., :, None, :, None] * b2[..., None, :, None, :]
    return reshape(product, _concat_shape(batch, [n * n, n * n]))


@MatrixSquareRoot.def_grad
def _sqrtm_grad(op, grad):
    from .array_ops import reshape
    from .linalg_ops import matrix_transpose
    from .linalg_solve_ops import solve

    root = op.outputs[0]  # R; dA = R dR + dR R, vectorized: (I (x) R^T + R (x) I) vec(dR)
    batch, n = _batch_and_order(root)
    ident = _identity_like(root)
    ksum = _kronecker(ident, matrix_transpose(root)) + _kronecker(root, ident)
    vec_grad = reshape(matrix_transpose(grad), _concat_shape(batch, [n * n, 1]))
    return matrix_transpose(reshape(solve(ksum, vec_grad), _concat_shape(batch, [n, n])))


@MatrixLogarithm.def_grad
def _logm_grad(op, grad):
    raise LookupError("gradient registry has no entry for: MatrixLogarithm (TensorFlow defines "
                      "no gradient for tf.linalg.logm)")


@tf_export("linalg.sqrtm", "matrix_square_root")
def matrix_square_root(input, name=None):  # noqa: A002 - TF's argument name
    """The principal square root R of each square matrix A (R @ R = A).

    >>> tf.linalg.sqrtm(tf.constant([[4.0, 0.0], [0.0, 9.0]])).numpy()
    array([[2., 0.],
           [0., 3.]], dtype=float32)
    """
    return apply(MatrixSquareRoot, [convert_to_tensor(input)])


@tf_export("linalg.logm")
def matrix_logarithm(input, name=None):  # noqa: A002 - TF's argument name
    """The principal logarithm of each square complex matrix: expm(logm(A)) = A.

    TensorFlow's MatrixLogarithm takes complex64 and complex128 only: tf.cast real matrices.

    >>> a = tf.linalg.expm(tf.constant([[0.5, 1.0], [0.0, 0.25]], tf.complex128))
    >>> tf.math.real(tf.linalg.logm(a)).numpy()  # back where it started
    array([[0.5 , 1.  ],
           [0.  , 0.25]])
    """
    return apply(MatrixLogarithm, [convert_to_tensor(input)])
