"""`tf.ragged` and `tf.RaggedTensor`: tensors whose rows have different lengths.

>>> import minitf as tf
>>> rt = tf.ragged.constant([[1, 2], [3]])
>>> rt + 1
<tf.RaggedTensor [[2, 3], [4]]>

* ragged_tensor.py - the class, its factories (`from_row_splits`, ...) and parts;
* ragged_factory_ops.py - `tf.ragged.constant`;
* ragged_conversion_ops.py - to and from dense tensors and SparseTensors;
* ragged_getitem.py - `rt[i]`, `rt[:, :2]`;
* ragged_print.py - how it prints, `numpy()`, `to_list()`;
* ragged_array_ops.py - the other `tf.ragged.*` functions;
* ragged_math.py - element-wise math and reductions; ragged_dispatch.py makes
  `tf.add`, `tf.reduce_sum`, ... accept a RaggedTensor;
* ragged_tensor_spec.py - `tf.RaggedTensorSpec`;
* dynamic_ragged_shape.py - what `tf.shape` of a RaggedTensor returns;
* ragged_graph.py - the row partition as graph ops, when it is traced.

minitf computes row partitions with NumPy, eagerly; the values flow through
ordinary ops, so gradients reach them. A RaggedTensor crosses `tf.function`
and `tf.data` as TF's composite tensors do - taken apart into `flat_values`
and `row_splits` (its `tf.RaggedTensorSpec` says how) - and inside a traced
graph, where the splits are symbolic, ragged_graph.py gives the row lengths,
`to_tensor` and reductions over axis 1 from graph ops. Uses that need the
splits' values while tracing (indexing rows, `to_list`) say so clearly.
"""
from . import ragged_tensor  # noqa: F401
from . import ragged_factory_ops  # noqa: F401
from . import ragged_conversion_ops  # noqa: F401
from . import ragged_getitem  # noqa: F401
from . import ragged_print  # noqa: F401
from . import ragged_array_ops  # noqa: F401
from . import ragged_cross  # noqa: F401
from . import ragged_math  # noqa: F401
from . import ragged_tensor_spec  # noqa: F401
from . import dynamic_ragged_shape  # noqa: F401
from . import ragged_dispatch  # noqa: F401 - last: wraps the public ops
