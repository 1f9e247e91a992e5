"""`tf.keras.callbacks.SwapEMAWeights`: evaluate (and predict) with the weights' moving average.

An optimizer made with `use_ema=True` keeps, next to each weight, an
exponential moving average of its past values ("Polyak averaging"); the
average is often a better model than the last, noisy weights. This callback
swaps the two in place before `evaluate` (also the validation pass of `fit`)
and swaps them back after it, so the metrics are the averaged model's. With
`swap_on_epoch=True` it also swaps at the end of every epoch (and back at the
start of the next), so callbacks after it - `ModelCheckpoint` - see the EMA
weights.

The swap is done without a temporary copy, by additions, as Keras 3's
TensorFlow backend does: `w += a; a = w - a; w = w - a`. In floating point
this is not bit-exact (`(w + a) - a` may differ from `w` in the last bit),
and minitf reproduces TF's numbers, rounding included.

>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(tf.keras.optimizers.SGD(0.1, use_ema=True), "mse")
>>> _ = model.fit([[1.0]], [[2.0]], epochs=2, verbose=0,
...               callbacks=[tf.keras.callbacks.SwapEMAWeights()])
>>> ema = model.optimizer._model_variables_moving_average
>>> [round(float(a.numpy().ravel()[0]), 4) for a in ema] == \\
...     [round(float(w.numpy().ravel()[0]), 4) for w in model.trainable_weights]
True

(At the end of `fit` the weights take their averages: `finalize_variable_values`.)

In TensorFlow this is `keras/src/callbacks/swap_ema_weights.py`.
"""
from ...framework.tf_export import tf_export
from .callback import Callback


@tf_export("keras.callbacks.SwapEMAWeights")
class SwapEMAWeights(Callback):
    """Swap model weights and the optimizer's EMA weights around evaluation.

    swap_on_epoch: also swap at `on_epoch_end` (and back at the next
        `on_epoch_begin`), for callbacks that save or read the weights.
    """

    def __init__(self, swap_on_epoch=False):
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._ema_weights_in_model = False

    # --- the two in-place operations -------------------------------------------------------
    @staticmethod
    def _swap(optimizer):
        for var, average in zip(optimizer._trainable_variables,
                                optimizer._model_variables_moving_average):
            var.assign_add(average)        # w + a
            average.assign(var - average)  # (w + a) - a = w
            var.assign(var - average)      # (w + a) - w = a

    @staticmethod
    def _finalize(optimizer):
        for var, average in zip(optimizer._trainable_variables,
                                optimizer._model_variables_moving_average):
            average.assign(var)

    def _ema_optimizers(self):
        optimizer = getattr(self.model.optimizer, "inner_optimizer", self.model.optimizer)
        if hasattr(optimizer, "optimizers"):  # MultiOptimizer
            chosen = [opt for opt in optimizer.optimizers if getattr(opt, "use_ema", False)]
            if not chosen:
                raise ValueError(
                    "SwapEMAWeights must be used when at least one inner optimizer has "
                    "`use_ema=True` set. Received a MultiOptimizer with all inner "
                    "optimizers having `use_ema=False`.")
        else:
            chosen = [optimizer]
        for opt in chosen:
            if not hasattr(opt, "_model_variables_moving_average"):
                raise ValueError("SwapEMAWeights must be used when `use_ema=True` is set on "
                                 f"the optimizer. Received: use_ema={opt.use_ema}")
        return chosen

    def _swap_variables(self):
        for optimizer in self._ema_optimizers():
            self._swap(optimizer)

    def _finalize_ema_values(self):
        for optimizer in self._ema_optimizers():
            self._finalize(optimizer)

    # --- the hooks ---------------------------------------------------------------------------
    def on_epoch_begin(self, epoch, logs=None):
        if self.swap_on_epoch and self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = False

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch and not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = True
            # After the last epoch `fit` calls finalize_variable_values, which copies the
            # averages into the weights: keep the averages equal to what the model holds.
            if epoch == self.params["epochs"] - 1:
                self._finalize_ema_values()

    def on_test_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = True

    def on_test_end(self, logs=None):
        if self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = False

    def on_predict_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = True

    def on_predict_end(self, logs=None):
        # Keras 3.15 tests `not self._ema_weights_in_model` here, so after `predict` the
        # model keeps the EMA weights (the next `evaluate` swaps them back at its end).
        if not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = False
