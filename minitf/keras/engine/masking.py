"""Keras masks: which timesteps of a padded batch are real.

A layer that makes a mask (`Embedding(mask_zero=True)`, `Masking`) attaches it
to its output tensor as `_keras_mask` (a bool tensor, one entry per
timestep). When that tensor reaches the next layer, `Layer.__call__`

1. passes the mask to `call` if `call` has a `mask` argument (RNNs skip masked
   steps, `GlobalAveragePooling1D` averages only real steps, attention ignores
   masked keys);
2. attaches `compute_mask(inputs, mask)` to the layer's outputs when the layer
   `supports_masking` (Dense, Dropout, an RNN with return_sequences=True pass it
   on; a pooling or a final RNN consumes it and returns None);
3. otherwise warns, as Keras 3 does, that the mask stops there.

Losses read the mask of `y_pred` and leave masked steps out (see losses.py).

>>> import minitf as tf
>>> embed = tf.keras.layers.Embedding(10, 4, mask_zero=True)
>>> vectors = embed(tf.constant([[5, 2, 0, 0]]))
>>> vectors._keras_mask
<tf.Tensor: shape=(1, 4), dtype=bool, numpy=array([[ True,  True, False, False]])>
>>> tf.keras.layers.Dense(3)(vectors)._keras_mask.numpy()   # Dense passes it on
array([[ True,  True, False, False]])
"""
import inspect
import warnings

from ...framework import nest
from ...framework.tensor import Tensor

_TAKES_MASK = {}  # layer class -> whether its `call` has a `mask` parameter


def get_mask(x):
    """The `_keras_mask` of a tensor (None when it has none, or is not a tensor)."""
    return getattr(x, "_keras_mask", None) if isinstance(x, Tensor) else None


def masks_of(structure):
    """The masks of a (nested) input, in its structure; None when none has one."""
    if isinstance(structure, Tensor):  # the common case, without tf.nest
        return getattr(structure, "_keras_mask", None)
    masks = nest.map_structure(get_mask, structure)
    return masks if any(m is not None for m in nest.flatten(masks)) else None


def call_takes_mask(layer):
    cls = type(layer)
    if cls not in _TAKES_MASK:
        _TAKES_MASK[cls] = "mask" in inspect.signature(layer.call).parameters
    return _TAKES_MASK[cls]


def set_output_masks(layer, inputs, outputs, mask, previous_mask):
    """Step 2 and 3 above, after `call` returned `outputs`. `mask` is what `call` was
    given (or the inputs' masks); `previous_mask` the masks the inputs carried."""
    if layer.supports_masking:
        masks = layer.compute_mask(inputs, mask)
        flat_outputs = nest.flatten(outputs)
        flat_masks = nest.flatten(masks) if isinstance(masks, (list, tuple)) else \
            [masks] * len(flat_outputs)
        for output, mask in zip(flat_outputs, flat_masks):
            if isinstance(output, Tensor) and get_mask(output) is None:
                output._keras_mask = mask
    elif previous_mask is not None:
        warnings.warn(
            f"Layer '{layer.name}' (of type {type(layer).__name__}) was passed an input with "
            "a mask attached to it. However, this layer does not support masking and will "
            "therefore destroy the mask information. Downstream layers will not see the "
            "mask.", stacklevel=3)
