"""`tf.keras.callbacks.ProgbarLogger`: prints the progress bar during `fit`.

`fit(verbose=1)` adds one for you; it prints "Epoch 1/5" (when there is more
than one epoch) and one `Progbar` line per epoch (see utils/progbar.py).

>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(loss="mse")
>>> _ = model.fit([[1.0]], [[1.0]], epochs=1, verbose=2)  # doctest: +ELLIPSIS
1/1 - ...s - ...s/step - loss: ...
"""
from ...framework.tf_export import tf_export
from ..utils import io_utils
from ..utils.progbar import Progbar
from .callback import Callback


def _numbers(logs):
    values = []
    for key, value in (logs or {}).items():
        try:
            values.append((key, float(value)))
        except (TypeError, ValueError):
            continue  # e.g. predict's {"outputs": ...}
    return values


@tf_export("keras.callbacks.ProgbarLogger")
class ProgbarLogger(Callback):
    """Draws a `Progbar` for training epochs, `evaluate` and `predict`."""

    def __init__(self, count_mode=None):
        super().__init__()
        self.verbose = 1
        self.epochs = 1
        self.progbar = None
        self.target = None
        self._called_in_fit = False

    def set_params(self, params):
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    def _reset(self, target):
        self.progbar = Progbar(target=target, verbose=self.verbose, unit_name="step")
        self.seen = 0

    def on_train_begin(self, logs=None):
        self._called_in_fit = True

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset(self.target)

    def on_predict_begin(self, logs=None):
        self._reset(self.target)

    def on_epoch_begin(self, epoch, logs=None):
        self._reset(self.target)
        if self.verbose and self.epochs > 1:
            io_utils.print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._update(batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._update(batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._update(batch, None)

    def _update(self, batch, logs):
        self.seen = batch + 1
        self.progbar.update(self.seen, _numbers(logs), finalize=False)

    def _finalize(self, logs):
        if self.target is None:  # unknown length: now we know it
            self.target = self.seen
            self.progbar.target = self.seen
        self.progbar.update(self.target, _numbers(logs), finalize=True)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize(logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize(logs)

    def on_predict_end(self, logs=None):
        self._finalize(None)

    def on_train_end(self, logs=None):
        self._called_in_fit = False
