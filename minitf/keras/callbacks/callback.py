"""`tf.keras.callbacks.Callback`: hooks that `fit`, `evaluate` and `predict` call.

Subclass it and override the hooks you need. `self.model` is the model being
trained and `self.params` holds `{"verbose", "epochs", "steps"}`. `logs` is a
dict of the current metric values ("loss", "accuracy", "val_loss", ...);
a callback may add entries to it (ReduceLROnPlateau adds "learning_rate").
Set `self.model.stop_training = True` to end `fit` after this epoch.

>>> class CountEpochs(tf.keras.callbacks.Callback):
...     def on_train_begin(self, logs=None):
...         self.epochs = 0
...     def on_epoch_end(self, epoch, logs=None):
...         self.epochs += 1
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(loss="mse")
>>> counter = CountEpochs()
>>> _ = model.fit([[1.0]], [[2.0]], epochs=3, verbose=0, callbacks=[counter])
>>> counter.epochs
3
"""
from ...framework.tf_export import tf_export


@tf_export("keras.callbacks.Callback")
class Callback:
    """Base class of callbacks: every hook exists and does nothing."""

    def __init__(self):
        self.params = None
        self._model = None
        self.validation_data = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self._model = model

    @property
    def model(self):
        """The model this callback is attached to (set by `fit`)."""
        return self._model

    def on_batch_begin(self, batch, logs=None):
        """Classic alias of `on_train_batch_begin`."""

    def on_batch_end(self, batch, logs=None):
        """Classic alias of `on_train_batch_end`."""

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of an epoch (training only)."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of an epoch with its training and validation logs."""

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """Called before each `evaluate` (or validation) batch."""

    def on_test_batch_end(self, batch, logs=None):
        """Called after each `evaluate` (or validation) batch."""

    def on_predict_batch_begin(self, batch, logs=None):
        """Called before each `predict` batch."""

    def on_predict_batch_end(self, batch, logs=None):
        """Called after each `predict` batch; logs hold {"outputs": ...}."""

    def on_train_begin(self, logs=None):
        """Called once when `fit` starts."""

    def on_train_end(self, logs=None):
        """Called once when `fit` ends."""

    def on_test_begin(self, logs=None):
        """Called when `evaluate` (or a validation pass) starts."""

    def on_test_end(self, logs=None):
        """Called when `evaluate` (or a validation pass) ends."""

    def on_predict_begin(self, logs=None):
        """Called when `predict` starts."""

    def on_predict_end(self, logs=None):
        """Called when `predict` ends."""
