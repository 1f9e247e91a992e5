"""`tf.keras.config`: Keras's global settings in one place.

The dtype settings live with what they govern (`floatx`/`epsilon`/
`image_data_format` in `keras/backend.py`, `dtype_policy` in
`keras/engine/dtype_policy.py`, interactive logging in `keras/utils/io_utils.py`);
this module holds the rest: the backend's name, the debugging caps on `fit`,
traceback filtering and unsafe deserialization.

>>> import minitf as tf
>>> tf.keras.config.backend()
'tensorflow'
>>> tf.keras.config.set_max_epochs(2)
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile("sgd", "mse")
>>> import warnings; warnings.simplefilter("ignore")
>>> len(model.fit(tf.ones((4, 1)), tf.ones((4, 1)), epochs=10, verbose=0).history["loss"])
2
>>> tf.keras.config.set_max_epochs(None); warnings.resetwarnings()

In TensorFlow this is `keras/src/backend/config.py` and the `keras.config`
exports scattered over Keras.
"""
import os as _os

from ..framework import traceback_utils
from ..framework.tf_export import tf_export

_BACKENDS = ("tensorflow", "jax", "torch", "numpy", "openvino")


def _int_or_none(name):
    value = _os.environ.get(name)
    return int(value) if value else None


_STATE = {"max_epochs": _int_or_none("KERAS_MAX_EPOCHS"),
          "max_steps_per_epoch": _int_or_none("KERAS_MAX_STEPS_PER_EPOCH")}


@tf_export("keras.config.backend")
def backend():
    """The backend Keras runs on: always 'tensorflow' for `tf.keras`."""
    return "tensorflow"


@tf_export("keras.config.set_backend")
def set_backend(backend):
    """Keras 3 can switch to JAX or PyTorch; `tf.keras` in minitf runs on minitf only.

    >>> import minitf as tf
    >>> tf.keras.config.set_backend("tensorflow")  # already the backend: nothing to do
    >>> tf.keras.config.set_backend("jax")
    Traceback (most recent call last):
    NotImplementedError: minitf implements only the 'tensorflow' backend of Keras ...
    """
    if backend not in _BACKENDS:  # Keras's text; a learner's typo gets the list below
        raise ValueError(f"Unable to import backend : {backend}. Available backends are "
                         f"{_BACKENDS}.")
    if backend != "tensorflow":
        raise NotImplementedError(
            "minitf implements only the 'tensorflow' backend of Keras (tf.keras runs on "
            f"minitf's ops). To try Keras on {backend!r}, install keras and {backend} and use "
            "`import keras` with KERAS_BACKEND set.")


@tf_export("keras.config.set_max_epochs")
def set_max_epochs(max_epochs):
    """Cap the epochs of every `fit` (a debugging aid; None: no cap; env KERAS_MAX_EPOCHS)."""
    _STATE["max_epochs"] = max_epochs


@tf_export("keras.config.max_epochs")
def max_epochs():
    """The cap `set_max_epochs` set, or None."""
    return _STATE["max_epochs"]


@tf_export("keras.config.set_max_steps_per_epoch")
def set_max_steps_per_epoch(max_steps_per_epoch):
    """Cap the steps of each epoch of fit/evaluate/predict (None: no cap).

    >>> import minitf as tf, numpy as np, warnings
    >>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> tf.keras.config.set_max_steps_per_epoch(3)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = model.fit(np.ones((64, 1)), np.ones((64, 1)), batch_size=8, verbose=0)
    >>> str(caught[0].message), int(model.optimizer.iterations.numpy())
    ('Limiting steps_per_epoch to 3', 3)
    >>> tf.keras.config.set_max_steps_per_epoch(None)
    """
    _STATE["max_steps_per_epoch"] = max_steps_per_epoch


@tf_export("keras.config.max_steps_per_epoch")
def max_steps_per_epoch():
    """The cap `set_max_steps_per_epoch` set, or None."""
    return _STATE["max_steps_per_epoch"]


@tf_export("keras.config.enable_traceback_filtering")
def enable_traceback_filtering():
    """Hide the frames of minitf's Keras (minitf/keras/) in error tracebacks, the default.

    As in Keras 3, this switch is Keras's own: `tf.debugging`'s hides the rest of
    minitf's frames (framework/traceback_utils.py)."""
    traceback_utils.keras_filtering["enabled"] = True


@tf_export("keras.config.disable_traceback_filtering")
def disable_traceback_filtering():
    """Show the frames of minitf's Keras in error tracebacks.

    >>> import minitf as tf
    >>> tf.keras.config.disable_traceback_filtering()
    >>> tf.keras.config.is_traceback_filtering_enabled()
    False
    >>> tf.keras.config.enable_traceback_filtering()
    """
    traceback_utils.keras_filtering["enabled"] = False


@tf_export("keras.config.is_traceback_filtering_enabled")
def is_traceback_filtering_enabled():
    """Whether Keras's frames are hidden: True by default, as in Keras."""
    return traceback_utils.keras_filtering["enabled"]


@tf_export("keras.config.enable_unsafe_deserialization")
def enable_unsafe_deserialization():
    """Turn safe mode off for every later load, as `safe_mode=False` does for one.

    minitf still never runs code stored in a file (a Lambda's bytecode); what this
    unlocks is what minitf allows without safe mode, e.g. a lookup layer's vocabulary
    file path."""
    from .saving import object_registration
    object_registration.disable_safe_mode_globally()


def _cap_epochs(epochs):
    """`fit`'s epochs under `max_epochs` (with Keras's warning)."""
    cap = _STATE["max_epochs"]
    if cap and cap < epochs:
        import warnings
        warnings.warn("Limiting epochs to %d" % cap, stacklevel=3)
        return cap
    return epochs


def _cap_steps(steps):
    """An epoch's steps under `max_steps_per_epoch` (with Keras's warning)."""
    cap = _STATE["max_steps_per_epoch"]
    if cap and (not steps or cap < steps):
        import warnings
        warnings.warn("Limiting steps_per_epoch to %d" % cap, stacklevel=3)
        return cap
    return steps


del tf_export  # an implementation import: Keras's namespace does not show it
