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
* dynamic_ragged_shape.py - what `tf.shape` of a RaggedTensor returns.

minitf computes row partitions with NumPy, eagerly; the values flow through
ordinary ops, so gradients reach them and a function traced with
`tf.function` may build RaggedTensors from traced values when the partition is
known while tracing. `tf.data` batches, slices and unbatches RaggedTensors
(minitf/data/ragged_batch.py). Not yet, where TensorFlow can: a RaggedTensor
as a `tf.function` argument or result (`input_signature` with a
RaggedTensorSpec), row partitions computed inside a graph, and `Dataset.map`
of elements that are RaggedTensors - each is a clear error saying what to do.
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
