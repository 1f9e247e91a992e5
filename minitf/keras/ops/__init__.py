"""`tf.keras.ops`: Keras 3's backend-agnostic ops, NumPy-style, built on minitf's ops.

Keras 3 code (layers, losses, guides) calls `keras.ops.matmul`, `ops.where`,
`ops.softmax`, ... instead of `tf.*`: the same code then runs on JAX, PyTorch
or TensorFlow. Under TensorFlow each is a thin function over `tf.*` ops, so
`GradientTape` and `tf.function` work through it, and so it is here. Two
things differ from `tf.*`:

* names and arguments are NumPy's (`ops.concatenate(xs, axis)`, `ops.sum`,
  `ops.arange`), and
* binary ops promote dtypes (`dtype_rules.py`): `ops.add(int32, float32)` is
  float32, where `tf.add` raises.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.add(tf.constant([1, 2]), 0.5)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 2.5], dtype=float32)>
>>> ops.numpy.sum is ops.sum
True

Files by family: `dtype_rules.py` (promotion), `core.py` (convert_to_tensor,
cast, cond, while_loop, scan, ...), `core_math.py`, `numpy_math.py` and
`numpy_binary.py` (element-wise), `numpy_array.py` (shapes and indexing),
`numpy_products.py`, `reductions.py`, `numpy_nan.py`, `numpy_more.py`,
`numpy_unique.py`, `creation.py`, `nn_*.py` (`keras.ops.nn`), `linalg_ops.py`
(`keras.ops.linalg`), `fourier.py` and `einops.py`. `keras.ops.numpy`,
`keras.ops.nn` and `keras.ops.linalg` are namespaces holding just the exported
names (`_export.py`). In Keras these live in `keras/src/ops/` and
`keras/src/backend/tensorflow/`.
"""
