"""`tf.keras.backend`: global Keras settings, the name counters behind layer names,
and Keras 1/2's backend functions, which Keras 3 keeps for old code.

Layer and model names come from per-prefix counters: the first Dense is
'dense', the second 'dense_1'. `clear_session()` resets them.

The legacy functions (keras/src/legacy/backend.py in Keras 3.15) are thin
wrappers over `tf.*`, split by family: `math_ops.py` (element-wise,
comparisons, reductions), `state_ops.py` (variables, constants, shapes,
dtypes, random), `array_ops.py` (reshaping, dot/batch_dot, padding, resizing),
`nn_ops.py` (activations, losses, normalization), `conv_ops.py` (convolution,
pooling) and `control_ops.py` (rnn, switch, map/fold, gradients, CTC).

>>> import minitf as tf
>>> tf.keras.backend.clear_session()
>>> tf.keras.layers.Dense(2).name, tf.keras.layers.Dense(2).name
('dense', 'dense_1')
>>> tf.keras.backend.floatx(), tf.keras.backend.epsilon()
('float32', 1e-07)
"""
import collections

from ...framework.tf_export import tf_export

_UIDS = collections.defaultdict(int)
_SETTINGS = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}


@tf_export("keras.backend.get_uid")
def get_uid(prefix=""):
    """1, 2, 3, ... for successive calls with the same prefix."""
    _UIDS[prefix] += 1
    return _UIDS[prefix]


def _unique_name(prefix):
    """'dense', then 'dense_1', 'dense_2', ... (Keras's auto_name)."""
    uid = get_uid(prefix)
    return prefix if uid == 1 else f"{prefix}_{uid - 1}"


@tf_export("keras.backend.clear_session", "keras.utils.clear_session")
def clear_session(free_memory=True):
    """Forget every name counter (the next Dense is 'dense' again)."""
    _UIDS.clear()


@tf_export("keras.backend.floatx", "keras.config.floatx")
def floatx():
    """The default float type of weights: 'float32'."""
    return _SETTINGS["floatx"]


@tf_export("keras.backend.set_floatx", "keras.config.set_floatx")
def set_floatx(value):
    """Set the default float type ('float16', 'float32' or 'float64')."""
    if value not in ("float16", "bfloat16", "float32", "float64"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'float16', "
                         "'bfloat16', 'float32', 'float64'}. Pass one of these names.")
    _SETTINGS["floatx"] = str(value)


@tf_export("keras.backend.epsilon", "keras.config.epsilon")
def epsilon():
    """The fuzz factor Keras adds to avoid division by zero: 1e-7."""
    return _SETTINGS["epsilon"]


@tf_export("keras.backend.set_epsilon", "keras.config.set_epsilon")
def set_epsilon(value):
    """Set the fuzz factor returned by `epsilon()`."""
    _SETTINGS["epsilon"] = float(value)


@tf_export("keras.backend.image_data_format", "keras.config.image_data_format")
def image_data_format():
    """'channels_last': images are (batch, height, width, channels)."""
    return _SETTINGS["image_data_format"]


@tf_export("keras.backend.set_image_data_format", "keras.config.set_image_data_format")
def set_image_data_format(data_format):
    """Set 'channels_last' or 'channels_first'."""
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    _SETTINGS["image_data_format"] = data_format


del tf_export  # an implementation import: TF's namespace does not show it
