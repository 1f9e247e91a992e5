"""`tf.keras.callbacks.History`: what `fit` returns.

`history.history` maps each log key ("loss", "accuracy", "val_loss", ...)
to its list of per-epoch values; `history.epoch` lists the epoch numbers.

>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> history = model.fit([[1.0], [2.0]], [[1.0], [2.0]], epochs=2, verbose=0)
>>> list(history.history), len(history.history["loss"]), history.epoch
(['loss'], 2, [0, 1])
"""
from ...framework.tf_export import tf_export
from .callback import Callback


@tf_export("keras.callbacks.History")
class History(Callback):
    """Records the epoch logs; `fit` returns it (it is also `model.history`)."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def set_model(self, model):
        self._model = model
        if model is not None:
            model.history = self

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
