"""tf.linalg.banded_triangular_solve: a triangular solve whose matrix is given by its bands.

>>> import minitf as tf
>>> bands = tf.constant([[2.0, 3.0, 4.0],   # the diagonal
...                      [0.0, 2.0, 3.0]])  # the first subdiagonal (padded on the left)
>>> tf.linalg.banded_triangular_solve(bands, tf.ones([3, 1]))
<tf.Tensor: shape=(3, 1), dtype=float32, numpy=
array([[0.5 ],
       [0.  ],
       [0.25]], dtype=float32)>

`bands` is [..., K, M]: lower=True stores the diagonal then K - 1 subdiagonals
(subdiagonals padded on the left), lower=False the K - 1-th superdiagonal down to
the diagonal (padded on the right): tf.linalg.set_diag's 'LEFT_RIGHT' alignment.
Here the bands are unpacked into the dense matrix (tf.linalg.diag) and solved by
tf.linalg.triangular_solve, so the gradient is theirs; TF runs a banded
substitution instead (the same numbers up to rounding).
"""
from ..framework import errors
from ..framework.graph import is_symbolic
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import expand_dims, squeeze
from .linalg_solve_ops import triangular_solve
from .matrix_diag_ops import diag


def _check_invertible(bands, lower):
    if is_symbolic(bands):  # inside a graph the values are not known yet
        return
    main = bands.numpy()[..., 0 if lower else -1, :]
    if not main.all():
        raise errors.op_error(errors.InvalidArgumentError, "BandedTriangularSolve",
                              "Input matrix is not invertible.",
                              "A triangular matrix is singular when a diagonal entry is 0.")


@tf_export("linalg.banded_triangular_solve")
def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """X with A X = rhs (or A^H X = rhs), A triangular and given by its K bands."""
    bands = convert_to_tensor(bands)
    rhs = convert_to_tensor(rhs, dtype=bands.dtype)
    m = bands.shape[-1]
    k = min(bands.shape[-2], m)  # bands beyond the matrix are ignored
    bands = bands[..., :k, :] if lower else bands[..., bands.shape[-2] - k:, :]
    _check_invertible(bands, lower)
    offsets = (-(k - 1), 0) if lower else (0, k - 1)
    matrix = diag(bands, k=offsets, num_rows=m, num_cols=m, align="LEFT_RIGHT")
    vector = rhs.shape.rank == bands.shape.rank - 1
    if vector:
        rhs = expand_dims(rhs, -1)
    out = triangular_solve(matrix, rhs, lower=lower, adjoint=adjoint)
    return squeeze(out, -1) if vector else out
