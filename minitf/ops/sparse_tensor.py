"""`tf.SparseTensor` and `tf.sparse.to_dense`.

A SparseTensor stores only the entries that are not the default (zero):

* `indices` - int64 `[N, rank]`, the position of each stored entry,
  in row-major order;
* `values` - `[N]`, the entries themselves;
* `dense_shape` - int64 `[rank]`, the shape of the whole tensor.

>>> import minitf as tf
>>> st = tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[1.5, 2.0], dense_shape=[3, 2])
>>> st.shape
TensorShape([3, 2])
>>> tf.sparse.to_dense(st).numpy()
array([[0. , 1.5],
       [0. , 0. ],
       [2. , 0. ]], dtype=float32)

`tf.io.VarLenFeature` parses into one: each example holds a list of any
length, so row `i` of the batch has its own number of stored entries. The
rest of `tf.sparse` lives beside this file: sparse_reorder_ops.py (reorder,
reshape, transpose, from_dense, ...), sparse_concat_ops.py (concat, split,
slice), sparse_math_ops.py (add, reductions, softmax, `st * dense`) and
sparse_matmul_ops.py (sparse_dense_matmul, segment sums, bincount, cross).
A SparseTensor is a *composite tensor*, as in TensorFlow: `tf.function` and
`tf.data` take it apart into its three tensors and build it again on the other
side (its `_type_spec` is a `tf.SparseTensorSpec`; framework/composite_tensor.py).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor, register_tensor_conversion_function
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .gather_ops import gather_nd
from .shape_ops import constant_value_as_shape


def _check_rank(tensor, rank):
    if tensor.shape.rank is not None and tensor.shape.rank != rank:
        raise ValueError(f"Shape {tensor.shape} must have rank {rank}")


@tf_export("SparseTensor", "sparse.SparseTensor")
class SparseTensor:
    """`indices` (int64 [N, rank]), `values` ([N]) and `dense_shape` (int64 [rank])."""

    _is_composite_tensor = True  # taken apart by tf.function and tf.data (its _type_spec)
    _static_shape = None  # what a SparseTensorSpec knows when dense_shape is traced

    def __init__(self, indices, values, dense_shape):
        self._indices = convert_to_tensor(_packed(indices), dtype=dtypes.int64)
        self._values = convert_to_tensor(_packed(values))
        self._dense_shape = convert_to_tensor(_packed(dense_shape), dtype=dtypes.int64)
        _check_rank(self._indices, 2)
        _check_rank(self._values, 1)
        _check_rank(self._dense_shape, 1)
        n, count = self._indices.shape[0], self._values.shape[0]
        if n is not None and count is not None and n != count:
            raise ValueError(f"Dimensions {n} and {count} are not compatible")

    @property
    def indices(self):
        return self._indices

    @property
    def values(self):
        return self._values

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self):
        """The static shape: known where `dense_shape` is a constant (or a spec says)."""
        shape = constant_value_as_shape(self._dense_shape)
        if self._static_shape is not None and shape.is_compatible_with(self._static_shape):
            shape = shape.merge_with(self._static_shape)
        return shape

    @property
    def _type_spec(self):
        """The tf.SparseTensorSpec of this value (TF's CompositeTensor._type_spec)."""
        from .sparse_tensor_spec import SparseTensorSpec
        return SparseTensorSpec.from_value(self)

    def get_shape(self):
        return self.shape

    def with_values(self, new_values):
        """The same indices and dense_shape with other values (one per stored entry).

        >>> st = tf.SparseTensor([[0, 1]], [2.0], [2, 2])
        >>> st.with_values(st.values * 10).values.numpy()
        array([20.], dtype=float32)
        """
        new_values = convert_to_tensor(new_values)
        old, new = self._values.shape, new_values.shape
        if old.rank is not None and new.rank is not None and not old.is_compatible_with(new):
            raise ValueError(f"Shapes {old} and {new} are incompatible")
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def __repr__(self):
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self._dense_shape!s})")


def _packed(value):
    """A list holding traced tensors (`[x]` inside Dataset.map) stacked, as TF converts it."""
    if isinstance(value, (list, tuple)) and any(
            isinstance(v, Tensor) and not hasattr(v, "_value") for v in value):
        from .array_ops import stack
        return stack([_packed(v) for v in value])
    return value


def _refuse_conversion(value, dtype=None):
    """TF's error for a SparseTensor where a Tensor is needed, plus where minitf differs."""
    raise ValueError(
        f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)}) to a "
        "Tensor. Use tf.sparse.to_dense(...) to get a dense tensor.")


register_tensor_conversion_function(SparseTensor, _refuse_conversion)


def check_sparse(value, what="sp_input"):
    """`value` if it is a SparseTensor, else TF's TypeError for a sparse op's argument."""
    if not isinstance(value, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor. ({what} is a {type(value).__name__}; "
                        "tf.sparse.from_dense(x) makes a SparseTensor of a dense tensor.)")
    return value


def row_major_order(indices):
    """The permutation that sorts the rows of an [N, rank] index array in row-major order.

    >>> row_major_order(np.array([[1, 0], [0, 2], [0, 1]]))
    array([2, 1, 0])
    """
    if indices.shape[1] == 0:
        return np.arange(indices.shape[0])
    return np.lexsort(indices.T[::-1])


# --- SparseToDense: scatter the values into a tensor filled with the default -------------
def _index_text(index):
    return "[" + ",".join(str(int(i)) for i in index) + "]"


def check_indices(indices, shape, op_name="SparseToDense"):
    """TF's check that every index lies inside `shape`, in row-major order, each once."""
    for i, index in enumerate(indices):
        if np.any(index < 0) or np.any(index >= shape):
            raise errors.InvalidArgumentError(
                None, op_name, f"indices[{i}] = {_index_text(index)} is out of bounds: "
                f"need 0 <= index < {_index_text(shape)} [Op:{op_name}] Each index must "
                "lie inside dense_shape.")
        if i and tuple(index) <= tuple(indices[i - 1]):
            word = "repeated" if tuple(index) == tuple(indices[i - 1]) else (
                "out of order. Many sparse ops require sorted indices.\n    Use "
                "`tf.sparse.reorder` to create a correctly ordered copy.\n\n")
            hint = " (or pass validate_indices=False)" if op_name == "SparseToDense" else ""
            raise errors.InvalidArgumentError(
                None, op_name, f"indices[{i}] = {_index_text(index)} is {word} "
                f"[Op:{op_name}] Indices must be in row-major order, each position once"
                f"{hint}.")


def _sparse_to_dense(indices, output_shape, values, default_value, validate_indices=True,
                     static_shape=None):
    shape = tuple(int(d) for d in output_shape)
    if validate_indices:
        check_indices(indices, np.array(shape))
    elif indices.size and (np.any(indices < 0) or np.any(indices >= np.array(shape))):
        raise errors.InvalidArgumentError(
            None, "SparseToDense", f"Indices are not valid (out of bounds).  Shape: "
            f"{_index_text(shape)} [Op:SparseToDense] Each index must lie inside dense_shape.")
    out = np.full(shape, default_value, dtype=values.dtype)
    out[tuple(indices.T)] = values
    return out


SparseToDense = Op(
    "SparseToDense", _sparse_to_dense, typed=(2, 3),
    shape=lambda i, s, v, d, static_shape=None, **_: TensorShape(static_shape),
    dtype=lambda i, s, v, d, **_: v)


@SparseToDense.def_grad
def _sparse_to_dense_grad(op, dy):  # each stored value lands in one place: read it back
    return None, None, gather_nd(dy, op.inputs[0]), None


@tf_export("sparse.to_dense")
def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor: `values` at `indices`, `default_value` (0, or b"") elsewhere.

    >>> st = tf.SparseTensor([[1]], [b"a"], [3])
    >>> tf.sparse.to_dense(st)
    <tf.Tensor: shape=(3,), dtype=string, numpy=array([b'', b'a', b''], dtype=object)>
    """
    check_sparse(sp_input, "sp_input")
    dtype = sp_input.dtype
    if default_value is None:
        default_value = b"" if dtype == dtypes.string else 0
    default = convert_to_tensor(default_value, dtype=dtype)
    static = sp_input.shape
    return apply(SparseToDense, [sp_input.indices, sp_input.dense_shape, sp_input.values,
                                 default],
                 {"validate_indices": bool(validate_indices),
                  "static_shape": None if static.rank is None else tuple(static.as_list())})
