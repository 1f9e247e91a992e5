"""`MonitorCallback`: the shared logic of callbacks that watch one log value.

EarlyStopping, ReduceLROnPlateau and ModelCheckpoint watch `monitor` (e.g.
"val_loss") and ask "did it improve by more than `min_delta`?". With
`mode="auto"` the direction comes from the name: losses and errors should go
down, accuracies, AUC, precision and recall up.

>>> cb = MonitorCallback("val_accuracy")
>>> cb._set_monitor_op()
>>> cb._is_improvement(0.9, 0.8), cb._is_improvement(0.7, 0.8)
(True, False)
"""
import warnings

import numpy as np

from .callback import Callback

_UP = ("acc", "auc", "precision", "recall", "iou", "true_positives", "true_negatives")
_DOWN = ("loss", "error", "mse", "mae", "mape", "msle", "crossentropy", "hinge", "kld",
         "cosh", "false_positives", "false_negatives")


class MonitorCallback(Callback):
    """Base class for callbacks that compare a monitored value with its best so far."""

    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ["auto", "min", "max"]:
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to "
                          "auto mode.", stacklevel=2)
            mode = "auto"
        self.monitor = monitor
        self.mode = mode
        self.best = baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None

    def _set_monitor_op(self):
        if self.mode == "min":
            self.monitor_op = np.less
        elif self.mode == "max":
            self.monitor_op = np.greater
        else:
            name = self.monitor.removeprefix("val_")
            if any(part in name for part in _UP):
                self.monitor_op = np.greater
            elif any(part in name for part in _DOWN):
                self.monitor_op = np.less
            else:
                raise ValueError(
                    f"{type(self).__name__} callback received monitor={self.monitor}, but "
                    "Keras isn't able to automatically determine whether that metric should "
                    "be maximized or minimized. Pass `mode='max'` in order to monitor based "
                    "on the highest metric value, or pass `mode='min'` in order to use the "
                    "lowest value.")
        if self.monitor_op is np.less:
            self.min_delta = -abs(self.min_delta)

    def _is_improvement(self, monitor_value, reference_value):
        if reference_value is None:
            return True
        return bool(self.monitor_op(monitor_value - self.min_delta, reference_value))
