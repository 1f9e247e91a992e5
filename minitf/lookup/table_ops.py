"""The five ops every lookup table is used through: find, size, export, insert, remove.

A table (tables.py) keeps its entries in a Python dict. The ops below read or
change that dict, and, like every op, they go through `apply`: eagerly they run
at once; inside a `tf.function` or `Dataset.map` they become graph nodes that
run whenever the graph runs - a `MutableHashTable.insert` traced into a function
inserts on every call. In TensorFlow the table is a resource tensor the node
takes as input; here the table object is the node's `table` attribute, which
is why the graph printer shows it. All five ops are stateful, so graph
optimizations never fold a lookup into a constant (a mutable table's answer
can change between calls), merge two of them, or drop an insert whose output
nobody reads.

>>> import minitf as tf
>>> table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1)
>>> find(table, tf.constant(["a"]), tf.constant(-1, tf.int64))
<tf.Tensor: shape=(1,), dtype=int64, numpy=array([-1])>
>>> insert(table, tf.constant(["a"]), tf.constant([7], tf.int64))
>>> find(table, tf.constant(["a"]), tf.constant(-1, tf.int64)).numpy(), size(table).numpy()
(array([7]), np.int64(1))

None of them is differentiable (TensorFlow registers no gradient for them).
In TensorFlow they are `LookupTableFindV2`, `LookupTableSizeV2`,
`LookupTableExportV2`, `LookupTableInsertV2` and `LookupTableRemoveV2`
(tensorflow/core/kernels/lookup_table_op.cc).
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor_shape import TensorShape


def _find_shape(keys_shape, default_shape, table):
    return keys_shape.concatenate(TensorShape(table.value_shape))


LookupTableFind = Op("LookupTableFindV2", lambda keys, default, table: table._find(keys, default),
                     typed=(), stateful=True, shape=_find_shape,
                     dtype=lambda k, d, table: table.value_dtype)
LookupTableSize = Op("LookupTableSizeV2", lambda table: np.int64(table._count()), typed=(),
                     stateful=True, shape=lambda table: TensorShape([]), dtype=dtypes.int64)
LookupTableExport = Op(
    "LookupTableExportV2", lambda table: table._export(), typed=(), stateful=True, num_outputs=2,
    shape=lambda table: (TensorShape([None]).concatenate(TensorShape(table.export_key_shape)),
                         TensorShape([None]).concatenate(TensorShape(table.export_value_shape))),
    dtype=lambda table: (table.key_dtype, table.value_dtype))
# Insert and remove change the table and return nothing; their output is an empty
# int32 vector (like PrintV2's), which the Python methods drop, as TF 2 returns None.
LookupTableInsert = Op("LookupTableInsertV2", lambda keys, values, table: table._insert(keys, values),
                       typed=(), stateful=True, shape=lambda *_, **__: TensorShape([0]),
                       dtype=dtypes.int32)
LookupTableRemove = Op("LookupTableRemoveV2", lambda keys, table: table._remove(keys), typed=(),
                       stateful=True, shape=lambda *_, **__: TensorShape([0]),
                       dtype=dtypes.int32)

NOTHING = np.zeros([0], np.int32)  # what insert and remove return


def find(table, keys, default):
    """The value of every key of the tensor `keys`; `default` where a key is absent."""
    return apply(LookupTableFind, [keys, default], {"table": table})


def size(table):
    """How many entries the table holds, as a scalar int64 tensor."""
    return apply(LookupTableSize, [], {"table": table})


def export(table):
    """Two tensors: every key, and the value of each."""
    return apply(LookupTableExport, [], {"table": table})


def insert(table, keys, values):
    """Put (key, value) pairs in the table, replacing the value of a key already there."""
    apply(LookupTableInsert, [keys, values], {"table": table})


def remove(table, keys):
    """Take `keys` out of the table; a key not there is ignored."""
    apply(LookupTableRemove, [keys], {"table": table})
