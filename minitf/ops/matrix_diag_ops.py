"""Diagonals and bands of (batches of) matrices: tf.linalg.diag, diag_part,
set_diag, band_part and trace.

>>> import minitf as tf
>>> tf.linalg.diag([1.0, 2.0])
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[1., 0.],
       [0., 2.]], dtype=float32)>
>>> tf.linalg.diag_part(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 4.], dtype=float32)>

Diagonal `d` of a matrix holds the cells (i, i + d): d = 0 is the main
diagonal, d > 0 lies above it (superdiagonals), d < 0 below (subdiagonals).
`k=(lo, hi)` selects several diagonals at once; they are stored top one first,
padded to the longest length, and `align` says on which side a short
diagonal sits ("RIGHT_LEFT": superdiagonals flush right, subdiagonals flush
left). All three diagonal ops share one layout helper, so each gradient is
simply the "other" op: the gradient of diag_part is diag, and vice versa.
"""
import numpy as np

from ..framework import errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .reduction_ops import reduce_sum
from .shape_rules import dims_text

_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _diag_index(k):
    """`k` (an int, a pair, or an int tensor) as the pair (lower, upper)."""
    if hasattr(k, "numpy"):
        k = k.numpy()
    k = np.reshape(k, [-1]).tolist()
    if not 1 <= len(k) <= 2:
        raise errors.op_error(
            errors.InvalidArgumentError, "MatrixDiagV3",
            f"diag_index must have only one or two elements, received {len(k)} elements.",
            "k is one diagonal (an int) or a range (lower, upper).")
    return int(k[0]), int(k[-1])


def _check_align(op_name, align):
    if align not in _ALIGNS:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Value for attr 'align' of \"{align}\" is not in the list of allowed values: "
            + ", ".join(f'"{a}"' for a in _ALIGNS), "align picks the side short diagonals sit on.")


def diagonal_layout(num_rows, num_cols, lower, upper, max_len, align):
    """Where each stored diagonal value lives in the matrix.

    Returns four int arrays (slot, position, row, col): the value stored at
    diagonal[..., slot, position] belongs in matrix[..., row, col]. Slot 0 is
    the highest diagonal (`upper`). Cells that do not exist are left out.
    """
    left_super = align in ("LEFT_LEFT", "LEFT_RIGHT")
    left_sub = align in ("LEFT_LEFT", "RIGHT_LEFT")
    parts = ([], [], [], [])
    for slot, d in enumerate(range(upper, lower - 1, -1)):  # one diagonal at a time
        length = max(0, min(num_rows + min(d, 0), num_cols - max(d, 0), max_len))
        left = (d >= 0 and left_super) or (d <= 0 and left_sub)
        offset = 0 if left else max_len - length
        t = np.arange(length)
        for part, values in zip(parts, (np.full(length, slot), t + offset, t - min(d, 0),
                                        t + max(d, 0))):
            part.append(values)
    return tuple(np.concatenate(p).astype(np.intp) for p in parts)


def _max_diag_len(num_rows, num_cols, lower, upper):
    return min(num_rows + min(upper, 0), num_cols - max(lower, 0))


def _need_matrix(op_name, shape):
    if shape.rank is not None and shape.rank < 2:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"input must be at least 2-dim, received shape: {dims_text(shape)}",
            "This op works on the last two axes (a matrix, or a batch of matrices).")


def _check_k_in_matrix(op_name, num_rows, num_cols, lower, upper):
    for name, sep, k in (("lower", ".", lower), ("upper", "", upper)):
        if not (-num_rows < k < num_cols or k == 0):
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"{name}_diag_index is out of bound: {k}{sep} It must be between {-num_rows} "
                f"and {num_cols}",
                f"A {num_rows}x{num_cols} matrix has diagonals {-num_rows + 1}..{num_cols - 1}.")
    _check_k_order(op_name, lower, upper)


def _check_k_order(op_name, lower, upper):
    if lower > upper:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"lower_diag_index must not be larger than upper_diag_index: {lower} > {upper}",
            "Write k as (lower, upper) with lower <= upper.")


# --- diag_part --------------------------------------------------------------------
def _diag_part_shape(x, k, padding_value, align):
    _need_matrix("MatrixDiagPartV3", x)
    if x.rank is None or x[-2] is None or x[-1] is None:
        return TensorShape(None)
    lower, upper = k
    _check_k_in_matrix("MatrixDiagPartV3", x[-2], x[-1], lower, upper)
    diags = [upper - lower + 1] if lower != upper else []
    return x[:-2].concatenate(diags + [_max_diag_len(x[-2], x[-1], lower, upper)])


def _diag_part_forward(x, k, padding_value, align):
    _diag_part_shape(TensorShape(x.shape), k, padding_value, align)
    (lower, upper), (num_rows, num_cols) = k, x.shape[-2:]
    max_len = _max_diag_len(num_rows, num_cols, lower, upper)
    slot, pos, row, col = diagonal_layout(num_rows, num_cols, lower, upper, max_len, align)
    out = np.full(x.shape[:-2] + (upper - lower + 1, max_len), padding_value, dtype=x.dtype)
    out[..., slot, pos] = x[..., row, col]
    return out[..., 0, :] if lower == upper else out


MatrixDiagPartV3 = Op("MatrixDiagPartV3", _diag_part_forward, shape=_diag_part_shape)


@MatrixDiagPartV3.def_grad
def _diag_part_grad(op, dy):
    rows, cols = op.inputs[0].shape[-2:]
    return diag(dy, k=op.attrs["k"], num_rows=rows, num_cols=cols, align=op.attrs["align"])


@tf_export("linalg.diag_part")
def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):
    """The diagonal(s) of the innermost matrices: out[..., i] = input[..., i, i + k].

    >>> tf.linalg.diag_part(tf.constant([[1, 2, 3], [4, 5, 6]]), k=1)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 6], dtype=int32)>
    """
    input = convert_to_tensor(input)
    _check_align("MatrixDiagPartV3", align)
    return apply(MatrixDiagPartV3, [input], {"k": _diag_index(k), "align": align,
                                             "padding_value": _scalar(padding_value)})


def _scalar(value):
    value = value.numpy() if hasattr(value, "numpy") else value
    return np.asarray(value).item()


# --- diag (build a matrix from its diagonals) ---------------------------------------------
def _matrix_size(diagonal, k, num_rows, num_cols):
    """TF's rule for the output matrix size (square unless told otherwise)."""
    lower, upper = k
    if diagonal.rank is not None and diagonal.rank < 1:
        raise errors.op_error(
            errors.InvalidArgumentError, "MatrixDiagV3",
            f"diagonal must be at least 1-dim, received shape: {dims_text(diagonal)}",
            "Give the diagonal as a vector (or a batch of vectors).")
    _check_k_order("MatrixDiagV3", lower, upper)
    if lower != upper and diagonal.rank is not None and (
            diagonal.rank < 2 or diagonal[-2] not in (None, upper - lower + 1)):
        raise errors.op_error(
            errors.InvalidArgumentError, "MatrixDiagV3",
            "The number of diagonals provided in the input does not match the "
            "lower_diag_index and upper_diag_index range.",
            f"k={k} needs {upper - lower + 1} diagonals stacked on axis -2.")
    if diagonal.rank is None or diagonal[-1] is None:
        return None
    max_len = diagonal[-1]
    min_rows, min_cols = max_len - min(upper, 0), max_len + max(lower, 0)
    for what, given, least in (("rows", num_rows, min_rows), ("columns", num_cols, min_cols)):
        if given != -1 and given < least:
            raise errors.op_error(errors.InvalidArgumentError, "MatrixDiagV3",
                                  f"The number of {what} is too small.",
                                  f"These diagonals need at least {least} {what}.")
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    elif num_rows == -1:
        num_rows = min_rows
    elif num_cols == -1:
        num_cols = min_cols
    if num_rows != min_rows and num_cols != min_cols:
        raise errors.op_error(
            errors.InvalidArgumentError, "MatrixDiagV3",
            "The number of rows or columns is not consistent with the specified d_lower, "
            "d_upper, and diagonal.", f"Use num_rows={min_rows} or num_cols={min_cols}.")
    return num_rows, num_cols


def _diag_shape(diagonal, k, num_rows, num_cols, padding_value, align):
    size = _matrix_size(diagonal, k, num_rows, num_cols)
    if size is None:
        return TensorShape(None)
    batch = diagonal[:-1] if k[0] == k[1] else diagonal[:-2]
    return batch.concatenate(list(size))


def _diag_forward(diagonal, k, num_rows, num_cols, padding_value, align):
    num_rows, num_cols = _matrix_size(TensorShape(diagonal.shape), k, num_rows, num_cols)
    (lower, upper), max_len = k, diagonal.shape[-1]
    if lower == upper:
        diagonal = diagonal[..., np.newaxis, :]
    slot, pos, row, col = diagonal_layout(num_rows, num_cols, lower, upper, max_len, align)
    out = np.full(diagonal.shape[:-2] + (num_rows, num_cols), padding_value, dtype=diagonal.dtype)
    out[..., row, col] = diagonal[..., slot, pos]
    return out


MatrixDiagV3 = Op("MatrixDiagV3", _diag_forward, shape=_diag_shape)


@MatrixDiagV3.def_grad
def _diag_grad(op, dy):
    return diag_part(dy, k=op.attrs["k"], align=op.attrs["align"])


@tf_export("linalg.diag")
def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align="RIGHT_LEFT"):
    """A (batch of) matrix with `diagonal` on diagonal k and `padding_value` elsewhere.

    >>> tf.linalg.diag([1, 2], k=1)
    <tf.Tensor: shape=(3, 3), dtype=int32, numpy=
    array([[0, 1, 0],
           [0, 0, 2],
           [0, 0, 0]], dtype=int32)>
    """
    diagonal = convert_to_tensor(diagonal)
    _check_align("MatrixDiagV3", align)
    return apply(MatrixDiagV3, [diagonal], {
        "k": _diag_index(k), "num_rows": int(num_rows), "num_cols": int(num_cols),
        "padding_value": _scalar(padding_value), "align": align})


# --- set_diag -----------------------------------------------------------------------
def _set_diag_shape(x, diagonal, k, align):
    _need_matrix("MatrixSetDiagV3", x)
    if not x.is_fully_defined() or not diagonal.is_fully_defined():
        return x
    lower, upper = k
    _check_k_in_matrix("MatrixSetDiagV3", x[-2], x[-1], lower, upper)
    if lower != upper and (diagonal.rank < 2 or diagonal[-2] != upper - lower + 1):
        raise errors.op_error(
            errors.InvalidArgumentError, "MatrixSetDiagV3",
            "The number of diagonals provided in `diag` is not consistent with "
            "`lower_diag_index` and `upper_diag_index`",
            f"k={k} needs {upper - lower + 1} diagonals stacked on axis -2.")
    expected = _diag_part_shape(x, k, 0, align)
    if expected != diagonal:
        raise errors.op_error(
            errors.InvalidArgumentError, "MatrixSetDiagV3",
            "Either first dimensions of diagonal don't match input.shape[:-2], or "
            "diagonal.shape[:-1] is not equal to the longests diagonal in range "
            f"[lower_diag_index:upper_diag_index].\nInput shape: {dims_text(x)}\n"
            f"Diagonal shape: {dims_text(diagonal)}\nExpected diagonal shape: "
            f"{dims_text(expected)}",
            "The new diagonal must have exactly the shape diag_part would return.")
    return x


def _set_diag_forward(x, diagonal, k, align):
    _set_diag_shape(TensorShape(x.shape), TensorShape(diagonal.shape), k, align)
    lower, upper = k
    max_len = _max_diag_len(x.shape[-2], x.shape[-1], lower, upper)
    if lower == upper:
        diagonal = diagonal[..., np.newaxis, :]
    slot, pos, row, col = diagonal_layout(x.shape[-2], x.shape[-1], lower, upper, max_len,
                                          align)
    out = x.copy()
    out[..., row, col] = diagonal[..., slot, pos]
    return out


MatrixSetDiagV3 = Op("MatrixSetDiagV3", _set_diag_forward, shape=_set_diag_shape)


@MatrixSetDiagV3.def_grad
def _set_diag_grad(op, dy):
    from .creation_ops import zeros_like

    k, align = op.attrs["k"], op.attrs["align"]
    # The old diagonal was overwritten (no gradient); the new one came from `diagonal`.
    return (set_diag(dy, zeros_like(op.inputs[1]), k=k, align=align),
            diag_part(dy, k=k, align=align))


@tf_export("linalg.set_diag")
def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):
    """A copy of `input` whose diagonal(s) k are replaced by `diagonal`.

    >>> tf.linalg.set_diag(tf.zeros([2, 2]), [1.0, 2.0])
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1., 0.],
           [0., 2.]], dtype=float32)>
    """
    from .math_ops import binary_args

    input, diagonal = binary_args(input, diagonal)
    _check_align("MatrixSetDiagV3", align)
    return apply(MatrixSetDiagV3, [input, diagonal], {"k": _diag_index(k), "align": align})


# --- band_part ------------------------------------------------------------------------
def _band_part_shape(x, num_lower, num_upper):
    _need_matrix("MatrixBandPart", x)
    if x.rank is None:
        return x
    for name, what, n, size in (("num_lower", "rows", num_lower, x[-2]),
                                ("num_upper", "columns", num_upper, x[-1])):
        if size is not None and n > size:
            raise errors.op_error(
                errors.InvalidArgumentError, "MatrixBandPart",
                f"{name} must be negative or less or equal to number of {what} ({size}) "
                f"got: {n}", "Use -1 to keep the whole triangle.")
    return x


def _band_part_forward(x, num_lower, num_upper):
    _band_part_shape(TensorShape(x.shape), num_lower, num_upper)
    i = np.arange(x.shape[-2])[:, np.newaxis]  # row index
    j = np.arange(x.shape[-1])[np.newaxis, :]  # column index
    keep = ((num_lower < 0) | (i - j <= num_lower)) & ((num_upper < 0) | (j - i <= num_upper))
    return np.where(keep, x, np.zeros((), dtype=x.dtype))


MatrixBandPart = Op("MatrixBandPart", _band_part_forward, shape=_band_part_shape)


@MatrixBandPart.def_grad
def _band_part_grad(op, dy):
    return band_part(dy, op.attrs["num_lower"], op.attrs["num_upper"])  # the same mask


@tf_export("linalg.band_part")
def band_part(input, num_lower, num_upper, name=None):
    """Keep the cells with -num_lower <= j - i <= num_upper, zero the rest (-1: no limit).

    band_part(x, -1, 0) is the lower triangle, band_part(x, 0, -1) the upper one.

    >>> tf.linalg.band_part(tf.ones([3, 3]), 0, -1)
    <tf.Tensor: shape=(3, 3), dtype=float32, numpy=
    array([[1., 1., 1.],
           [0., 1., 1.],
           [0., 0., 1.]], dtype=float32)>
    """
    input = convert_to_tensor(input)
    return apply(MatrixBandPart, [input], {"num_lower": int(_scalar(num_lower)),
                                           "num_upper": int(_scalar(num_upper))})


# --- trace -------------------------------------------------------------------------------
@tf_export("linalg.trace")
def trace(x, name=None):
    """The sum of the main diagonal of each innermost matrix: sum_i x[..., i, i].

    >>> tf.linalg.trace(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    <tf.Tensor: shape=(), dtype=float32, numpy=5.0>
    """
    return reduce_sum(diag_part(x), axis=-1)
