"""`tf.TensorArray`: a list of same-shaped tensors that a loop can write into.

>>> ta = tf.TensorArray(tf.float32, size=3)
>>> for i in range(3):
...     ta = ta.write(i, float(i) * 10)
>>> ta.stack()
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 0., 10., 20.], dtype=float32)>

Why not a Python list? Inside tf.function a loop body is traced *once*, so
appending to a list would append once. A TensorArray is a value instead:
`write` returns the TensorArray with the element written (always assign the
result: `ta = ta.write(i, x)`), and it can be a `tf.while_loop` variable -
the "Effective TF2" way to collect an RNN's outputs:

>>> @tf.function
... def squares(n):
...     def body(i, ta):
...         return i + 1, ta.write(i, i * i)
...     _, ta = tf.while_loop(lambda i, ta: i < n, body,
...                           (0, tf.TensorArray(tf.int32, size=n)))
...     return ta.stack()
>>> squares(tf.constant(4))
<tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 1, 4, 9], dtype=int32)>

Inside, a TensorArray is two tensors - a buffer `[size, *element_shape]`
and its size - and every method is one op on them (tensor_array_ops.py), so
reading and stacking what was written is differentiable. Eagerly, as in
TensorFlow, `write` also updates the array in place. Unlike TensorFlow,
all elements must have one shape (`infer_shape=False` with ragged elements
for `concat` is not supported).
"""
import numpy as np

from ..framework import context, dtypes, errors
from ..framework.graph import Const
from ..framework.op import apply, quiet, restore
from ..framework.tensor import EagerTensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import tensor_array_ops as k
from .array_ops import reshape


def _static_value(tensor, depth=8):
    """The value of `tensor` if it is known while tracing, else None: eager tensors,
    constants, and small pure computations on them (`tf.shape(x)[0]` of a known shape).
    TensorFlow's `tensor_util.constant_value` does the same for a TensorArray's size."""
    if isinstance(tensor, EagerTensor):
        return tensor._value
    node = getattr(tensor, "node", None)
    if node is None:
        return None
    if node.op is Const:
        return node.attrs["value"]
    op = node.op
    if depth == 0 or op.stateful or op.saves or op.forward is None or op.num_outputs != 1 \
            or not node.inputs:
        return None
    args = [_static_value(t, depth - 1) for t in node.inputs]
    if any(a is None for a in args):
        return None
    token = quiet()  # a kernel run outside apply: keep NumPy's warnings in, as apply does
    try:
        return np.asarray(op.forward(*args, **node.attrs))
    except Exception:  # noqa: BLE001 - not computable now: the size is then unknown
        return None
    finally:
        restore(token)


def _index(index):
    return convert_to_tensor(index, dtype=dtypes.int32)


@tf_export("TensorArray")
class TensorArray:
    """A list of tensors of one dtype and shape, written and read by index.

    dtype: the elements' dtype. size: the number of elements (required).
    dynamic_size: allow writes past `size` (the array grows).
    clear_after_read: eagerly, reading an element twice is an error (TF's
        default); pass False to allow it.
    element_shape: the elements' shape, if known up front (else learned from
        the first write when infer_shape=True).
    tensor_array_name, handle, colocate_with_first_write_call, name: accepted
        for compatibility.

    >>> ta = tf.TensorArray(tf.float32, size=3, element_shape=[2])
    >>> ta = ta.write(1, [1.0, 2.0])
    >>> ta.read(0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>
    >>> int(ta.size())
    3
    >>> ta.gather([1, 2])
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1., 2.],
           [0., 0.]], dtype=float32)>
    """

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = clear_after_read is None or bool(clear_after_read)
        self._infer_shape = infer_shape
        self._element_shape = TensorShape(element_shape)
        if size is None and flow is None:
            raise ValueError("Size must be declared for TensorArrays when eager execution is "
                             "enabled." if not context.graph_stack else
                             "Argument `size` must be provided if argument `flow` is not "
                             "provided.")
        if flow is None:
            known = self._element_shape.is_fully_defined()
            flow = EagerTensor(np.zeros((0,) + (tuple(self._element_shape) if known else ()),
                                        self._dtype.as_numpy_dtype))
        self._buffer = flow
        self._size = _index(size if size is not None else flow.shape[0])
        self._read = set()  # eagerly, indices already read (clear_after_read)

    # --- properties ----------------------------------------------------------------------
    @property
    def dtype(self):
        """The dtype of the elements."""
        return self._dtype

    @property
    def element_shape(self):
        """The elements' TensorShape, as far as it is known."""
        return self._element_shape

    @property
    def dynamic_size(self):
        return self._dynamic_size

    @property
    def flow(self):
        """The buffer tensor holding the elements (in TF, a tensor that orders the ops)."""
        return self._buffer

    @property
    def handle(self):
        return None

    def size(self, name=None):
        """The number of elements, an int32 scalar tensor."""
        return self._size

    def __repr__(self):
        return (f"<tf.TensorArray dtype={self._dtype.name} size={self._size} "
                f"element_shape={self._element_shape}>")

    # --- being a loop variable: two tensors ------------------------------------------------
    def _components(self):
        return [self._buffer, self._size]

    def _component_specs(self):
        """Shapes a while_loop may assume: rows vary; the element shape if fully known."""
        buffer = (TensorShape([None]).concatenate(self._element_shape)
                  if self._element_shape.is_fully_defined() else TensorShape(None))
        return [buffer, TensorShape([])]

    def _rebuild(self, components, element_shape=None):
        new = TensorArray.__new__(TensorArray)
        new.__dict__.update(self.__dict__)
        new._buffer, new._size = components
        new._element_shape = self._element_shape if element_shape is None else element_shape
        new._read = set()
        return new

    def _with_element_shape(self, element_shape):
        return self._rebuild(self._components(), element_shape)

    def _updated(self, buffer, size, element_shape):
        """Eagerly: this TensorArray, changed in place (TF eager). Traced: a new one."""
        if context.graph_stack:
            return self._rebuild([buffer, size], element_shape)
        self._buffer, self._size, self._element_shape = buffer, size, element_shape
        return self

    # --- checks ---------------------------------------------------------------------------
    def _value(self, value, element_shape):
        """`value` as a tensor of this dtype whose elements have a compatible shape."""
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        if value.dtype is not self._dtype:
            raise errors.InvalidArgumentError(
                None, None, f"TensorArray dtype is {self._dtype.name} but Op is trying to "
                f"write dtype {value.dtype.name}. Cast the value with tf.cast first."
                if not context.graph_stack else
                f"Invalid data types; op elements {dtypes.tf_type_name(value.dtype)} but list "
                f"elements {dtypes.tf_type_name(self._dtype)}. Cast the value with tf.cast.")
        if not self._infer_shape:
            return value, self._element_shape
        if not self._element_shape.is_compatible_with(element_shape):
            raise ValueError(
                f"Incompatible shape for value ({element_shape}), expected "
                f"({self._element_shape})" if not context.graph_stack else
                f"Inconsistent shapes: saw {element_shape} but expected {self._element_shape} "
                "(every element of a TensorArray has the same shape)")
        return value, self._element_shape.merge_with(element_shape)

    def _check_write(self, indices):
        """Eagerly, TF's Python-side errors for writing at bad indices."""
        if context.graph_stack:
            return
        size = int(self._size)
        for i in np.asarray(indices._value).reshape(-1):
            if i < 0:
                raise errors.OutOfRangeError(
                    None, None, f"Writing to negative indices (index {i}) is not allowed.")
            if i >= size and not self._dynamic_size:
                raise errors.OutOfRangeError(
                    None, None, f"Tried to write to index {i} but array is not resizeable and "
                    f"size is: {size}. Create it with dynamic_size=True to let it grow.")

    def _check_read(self, index):
        if context.graph_stack:
            return
        i, size = int(index), int(self._size)
        if i < 0:
            raise errors.OutOfRangeError(
                None, None, f"Reading from negative indices (index {i}) is not allowed.")
        if i >= size:
            raise errors.OutOfRangeError(
                None, None, f"Tried to read from index {i} but array size is: {size}. Valid "
                f"indices are 0..{size - 1}.")
        if i in self._read:
            raise errors.InvalidArgumentError(
                None, None, f"Could not read index {i} twice because it was cleared after a "
                "previous read (perhaps try setting clear_after_read = false?)")
        if self._clear_after_read:
            self._read.add(i)

    def _new_rows(self, indices):
        """The static row count after writing at `indices`, if it is known."""
        size, where = _static_value(self._size), _static_value(indices)
        if size is None or not self._dynamic_size:
            return None if size is None else int(size)
        if where is None:
            return None
        return int(max([int(size)] + [int(i) + 1 for i in np.reshape(where, -1)]))

    def _element_attr(self):
        shape = self._element_shape
        return None if shape.rank is None else tuple(shape.as_list())

    # --- writing ----------------------------------------------------------------------------
    def write(self, index, value, name=None):
        """The array with element `index` set to `value` (assign the result)."""
        index = _index(index)
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        value, element_shape = self._value(value, value.shape)
        self._check_write(index)
        buffer, size = apply(k.TensorArrayScatter, [self._buffer, self._size, index, value],
                             {"dynamic_size": self._dynamic_size,
                              "_rows": self._new_rows(index)})
        self._read.discard(int(index) if not context.graph_stack else None)
        return self._updated(buffer, self._kept(size), element_shape)

    def _kept(self, new_size):
        """A fixed-size array keeps its size tensor (so a loop sees it never changes)."""
        return new_size if self._dynamic_size else self._size

    def scatter(self, indices, value, name=None):
        """The array with elements `indices[j]` set to `value[j]`."""
        indices = _index(indices)
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        value, element_shape = self._value(value, value.shape[1:])
        self._check_write(indices)
        buffer, size = apply(k.TensorArrayScatter, [self._buffer, self._size, indices, value],
                             {"dynamic_size": self._dynamic_size,
                              "_rows": self._new_rows(indices)})
        return self._updated(buffer, self._kept(size), element_shape)

    def unstack(self, value, name=None):
        """The array holding the rows of `value` (its first axis becomes the index)."""
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        if value.shape.rank == 0:
            raise ValueError("Shape must be at least rank 1 but is rank 0: unstack splits "
                             "the value along its first axis.")
        value, element_shape = self._value(value, value.shape[1:])
        rows = value.shape[0]
        if not context.graph_stack and rows > int(self._size) and not self._dynamic_size:
            raise ValueError(f"Cannot unstack {rows} tensors into a TensorArray of static size "
                             f"{int(self._size)}. Create it with dynamic_size=True, or larger.")
        buffer, size = apply(k.TensorArrayUnstack, [value, self._size],
                             {"dynamic_size": self._dynamic_size})
        return self._updated(buffer, size, element_shape)

    def split(self, value, lengths, name=None):
        """The array holding consecutive pieces of `value` (along axis 0) of `lengths` rows.

        minitf keeps elements of one shape, so the lengths must all be equal.
        """
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        sizes = _static_value(convert_to_tensor(lengths))
        if sizes is None or len(set(np.reshape(sizes, -1).tolist())) > 1:
            raise errors.UnimplementedError(
                None, None, f"TensorArray.split with lengths {lengths}: minitf's TensorArray "
                "holds elements of one shape, so the lengths must be known and all equal.")
        pieces = np.reshape(sizes, -1)
        rows = [len(pieces), int(pieces[0])] if len(pieces) else [0, 0]
        return self.unstack(reshape(value, rows + value.shape[1:].as_list()))

    # --- reading ----------------------------------------------------------------------------
    def read(self, index, name=None):
        """Element `index` (zeros if it was never written)."""
        index = _index(index)
        self._check_read(index)
        return apply(k.TensorArrayGather, [self._buffer, self._size, index],
                     {"element_shape": self._element_attr()})

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked."""
        return apply(k.TensorArrayGather, [self._buffer, self._size, _index(indices)],
                     {"element_shape": self._element_attr()})

    def stack(self, name=None):
        """All elements stacked into one tensor `[size, *element_shape]`."""
        size = _static_value(self._size)
        return apply(k.TensorArrayStack, [self._buffer, self._size],
                     {"element_shape": self._element_attr(),
                      "_rows": None if size is None else int(size)})

    def concat(self, name=None):
        """All elements joined along their first axis: `[size * d0, d1, ...]`."""
        if self._element_shape.rank == 0:
            raise errors.InvalidArgumentError(
                None, None, "Concat saw a scalar shape at index 0 but requires at least "
                "vectors. Use stack() for scalar elements.")
        return apply(k.TensorArrayConcat, [self.stack()])

    # --- the rest of TF's interface -----------------------------------------------------------
    def identity(self):
        """A TensorArray with the same elements."""
        return self._rebuild(self._components())

    def close(self, name=None):
        """Nothing to release in minitf (the buffer is an ordinary tensor)."""
        return None
