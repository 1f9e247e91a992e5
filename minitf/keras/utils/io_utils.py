"""Interactive logging: whether Keras's progress output goes to stdout or to `logging`.

Interactive (the default), `fit`'s progress bar and "Epoch 1/5" lines are
written to stdout. Disabled - for a batch job whose stdout is a log file -
each finished line goes to the `absl` logger at INFO level instead (where
real Keras sends it through `absl.logging`).

>>> import minitf as tf
>>> tf.keras.config.disable_interactive_logging()
>>> tf.keras.config.is_interactive_logging_enabled()
False
>>> tf.keras.config.enable_interactive_logging()

In TensorFlow this is `keras/src/utils/io_utils.py`.
"""
import logging
import sys

from ...framework.tf_export import tf_export

_STATE = {"interactive": True}


@tf_export("keras.config.enable_interactive_logging", "keras.utils.enable_interactive_logging")
def enable_interactive_logging():
    """Write progress to stdout (the default)."""
    _STATE["interactive"] = True


@tf_export("keras.config.disable_interactive_logging",
           "keras.utils.disable_interactive_logging")
def disable_interactive_logging():
    """Send progress lines to the `absl` logger (INFO) instead of stdout."""
    _STATE["interactive"] = False


@tf_export("keras.config.is_interactive_logging_enabled",
           "keras.utils.is_interactive_logging_enabled")
def is_interactive_logging_enabled():
    """True while progress goes to stdout."""
    return _STATE["interactive"]


def print_msg(message, line_break=True, stream=None):
    """Print to `stream` (stdout) when interactive, else log at INFO to 'absl'."""
    message = str(message)
    if is_interactive_logging_enabled():
        out = stream if stream is not None else sys.stdout
        out.write(f"{message}\n" if line_break else message)
        out.flush()
    else:
        logging.getLogger("absl").info(message)
