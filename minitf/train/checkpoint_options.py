"""`tf.train.CheckpointOptions`: options for `Checkpoint.save/write/read/restore`.

minitf accepts TF's options and keeps them, but a minitf checkpoint is always
written synchronously on the local machine, so none changes what is written.

>>> import minitf as tf
>>> options = tf.train.CheckpointOptions(experimental_io_device="/job:localhost")
>>> options.experimental_io_device, options.enable_async
('/job:localhost', False)
"""
from ..framework.tf_export import tf_export


@tf_export("train.CheckpointOptions")
class CheckpointOptions:
    """TF's checkpoint options; in TF, `enable_async` writes in a background thread."""

    __slots__ = ("experimental_io_device", "experimental_enable_async_checkpoint",
                 "experimental_write_callbacks", "enable_async",
                 "experimental_sharding_callback", "experimental_skip_slot_variables")

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False,
                 experimental_skip_slot_variables=False, experimental_sharding_callback=None):
        self.experimental_io_device = experimental_io_device
        self.enable_async = experimental_enable_async_checkpoint or enable_async
        self.experimental_enable_async_checkpoint = self.enable_async
        self.experimental_write_callbacks = experimental_write_callbacks
        self.experimental_sharding_callback = experimental_sharding_callback
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
