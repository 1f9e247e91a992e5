"""`compile`, `fit`, `evaluate`, `predict`: the training loop of `tf.keras.Model`.

As in Keras 3, these live in a mixin (`class Model(Trainer, Layer)`). The
loop is short once you see its three layers:

1. `train_step(data)` does ONE step on one batch: forward pass under a
   `GradientTape`, `compute_loss` (the compiled loss + `sum(model.losses)`),
   gradients, `optimizer.apply`, then the metrics. Override it to customise
   training and keep everything else (callbacks, progress bar, History).
2. `make_train_function()` wraps `train_step` in `tf.function` - so each step
   runs as a traced graph - unless `compile(run_eagerly=True)`. (The batch
   goes in as flat tensors, engine/step_function.py, which keeps the cost of
   each call small.)
3. `fit` cuts the data into batches (utils/data_adapter.py), calls the train
   function per batch, the callbacks around it, and `evaluate` on the
   validation data at the end of each epoch.

>>> import numpy as np
>>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
>>> x = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]], "float32")
>>> y = x.sum(axis=1, keepdims=True)
>>> history = model.fit(x, y, epochs=3, verbose=0)
>>> sorted(history.history)
['loss', 'mae']
>>> history.history["loss"][2] < history.history["loss"][0]
True
>>> model.predict(x, verbose=0).shape
(4, 1)
"""
import warnings

import numpy as np

from ...distribute import keras_training
from ...framework import nest
from ...framework.tape import GradientTape
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops.array_ops import shape
from ...ops.creation_ops import add_n
from ...ops.math_ops import cast
from .. import config as keras_config
from .. import optimizers as optimizers_module
from ..callbacks.callback_list import CallbackList
from ..metrics.reduction_metrics import Mean
from ..utils import compile_utils, data_adapter
from ..utils.data_adapter import unpack_x_y_sample_weight
from .step_function import FlatStepFunction


def _as_tensors(data):
    """Leaves of a batch as tensors (float NumPy data becomes float32, as Keras)."""
    def convert(value):
        if value is None or isinstance(value, Tensor) or getattr(
                value, "_is_composite_tensor", False):  # a SparseTensor batch stays one
            return value
        return convert_to_tensor(data_adapter._to_array(value))
    return nest.map_structure(convert, data)


def _pythonify(logs):
    """Tensors in `logs` -> Python floats (or NumPy arrays), for callbacks and History."""
    result = {}
    for key, value in (logs or {}).items():
        if isinstance(value, dict):
            result.update(_pythonify(value))
            continue
        value = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
        result[key] = float(value) if value.ndim == 0 else value
    return result


class Trainer:
    """Training methods shared by every `tf.keras.Model`."""

    compiled = False
    train_function = test_function = predict_function = None
    _compile_loss = _compile_metrics = _loss_tracker = None
    _output_loss_trackers = ()
    _run_eagerly = False
    _compile_built = True  # False from `compile` until the first batch has built everything
    _distribute_strategy = None

    # --- compile ---------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None,
                weighted_metrics=None, run_eagerly=False, steps_per_execution=1,
                jit_compile="auto", auto_scale_loss=True):
        """Choose the optimizer, the loss and the metrics `fit` will use.

        Each accepts an object or a name ("adam", "mse", "accuracy"); a model
        with several outputs takes a list or a dict (by output name) of losses
        and metrics. `run_eagerly=True` skips `tf.function` (handy for
        debugging with print). `steps_per_execution` is recorded but minitf runs
        one step per call; `jit_compile` is accepted and ignored (no XLA).
        Unknown loss names raise here (TF raises at the first `fit` step).
        """
        compile_utils.check_loss_identifier(loss)
        self.optimizer = optimizers_module.get(optimizer)
        if auto_scale_loss and self.optimizer is not None and \
                getattr(self, "dtype_policy", None) is not None and \
                self.dtype_policy.name == "mixed_float16" and \
                not isinstance(self.optimizer, optimizers_module.LossScaleOptimizer):
            self.optimizer = optimizers_module.LossScaleOptimizer(
                self.optimizer, name="loss_scale_optimizer")
        # what `get_compile_config` writes into a saved model (engine/model_saving.py)
        self._compile_args = {"optimizer": self.optimizer, "loss": loss,
                              "loss_weights": loss_weights, "metrics": metrics,
                              "weighted_metrics": weighted_metrics, "run_eagerly": run_eagerly,
                              "steps_per_execution": steps_per_execution,
                              "jit_compile": jit_compile}
        self.loss = loss
        output_names = compile_utils.output_names_of(self)
        self._compile_loss = compile_utils.CompileLoss(loss, loss_weights, output_names) \
            if loss is not None else None
        self._compile_metrics = compile_utils.CompileMetrics(metrics, weighted_metrics,
                                                             output_names)
        self._loss_tracker = Mean(name="loss")
        self._output_loss_trackers = []
        self._run_eagerly = run_eagerly
        self.steps_per_execution = steps_per_execution
        self.jit_compile = False if jit_compile == "auto" else jit_compile
        self.train_function = self.test_function = self.predict_function = None
        self._compile_built = False
        self.compiled = True
        # compiled inside `strategy.scope()`: fit trains on every replica (minitf/distribute)
        self._distribute_strategy = keras_training.strategy_for(self)

    @property
    def run_eagerly(self):
        """True when train/test/predict steps run as plain Python (no tf.function)."""
        return self._run_eagerly

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = bool(value)
        self.train_function = self.test_function = self.predict_function = None

    @property
    def compiled_loss(self):
        """Classic tf.keras: `compiled_loss(y, y_pred, regularization_losses=...)`."""
        return self._compile_loss

    @property
    def compiled_metrics(self):
        """Classic tf.keras: `compiled_metrics.update_state(y, y_pred)`."""
        return self._compile_metrics

    @property
    def metrics(self):
        """The metric objects `fit` resets each epoch: the loss tracker "loss" first,
        then per-output losses, then the compiled metrics (built at the first batch).
        (Keras 3 lists a single "compile_metrics" container; minitf lists each metric.)"""
        metrics = []
        if self.compiled:
            metrics.append(self._loss_tracker)
            metrics.extend(self._output_loss_trackers)
            metrics.extend(self._compile_metrics.metrics)
        return metrics

    @property
    def metrics_names(self):
        """The names of `metrics`: the keys of `fit`'s logs."""
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        """Reset every metric's state (fit does it at each epoch, evaluate at its start)."""
        for metric in self.metrics:
            metric.reset_state()

    def _assert_compile_called(self, method_name=None):
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model. "
                             f"`{method_name}` needs the optimizer and the loss that "
                             "`model.compile(optimizer=..., loss=...)` sets.")

    def _symbolic_build(self, data):
        """Build layers, losses, metrics and optimizer slots eagerly on the first batch,
        so that no variable is created while the step is being traced."""
        if self._compile_built:
            return
        x, y, _ = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        if y is not None:
            if self._compile_loss is not None and not self._compile_loss.built:
                self._compile_loss.build(y, y_pred)
                if len(self._compile_loss.names) > 1:
                    self._output_loss_trackers = [
                        Mean(name=f"{n}_loss") for n, l in
                        zip(self._compile_loss.names, self._compile_loss.losses) if l]
            if not self._compile_metrics.built:
                self._compile_metrics.build(y, y_pred)
        if self.optimizer is not None and not self.optimizer.built:
            self.optimizer.build(self.trainable_variables)
        self._compile_built = True

    # --- the steps ---------------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss (summed over outputs, times `loss_weights`) + `self.losses`."""
        terms = []
        if self._compile_loss is not None and y is not None:
            per_output = self._compile_loss.per_output(y, y_pred, sample_weight)
            for tracker, (_, _, value) in zip(self._output_loss_trackers, per_output):
                tracker.update_state(value)
            terms += [v if w == 1.0 else w * v for _, w, v in per_output]
        terms += [cast(loss, "float32") for loss in self.losses]
        if not terms:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`. "
                             "(Or add losses in `call` with `self.add_loss`, or override "
                             "`train_step`.)")
        return add_n(terms) if len(terms) > 1 else terms[0]

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Update the compiled metrics and return every metric's current result."""
        if y is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        """{name: result} for every metric in `self.metrics`."""
        logs = {}
        for metric in self.metrics:
            result = metric.result()
            logs.update(result if isinstance(result, dict) else {metric.name: result})
        return logs

    def _track_loss(self, loss, x):
        first = nest.flatten(x)[0]
        static = first.shape[0] if first.shape.rank else None
        # A traced step knows its batch size: a constant, not shape -> slice -> cast ops.
        batch_size = float(static) if static is not None else cast(shape(first)[0], "float32")
        self._loss_tracker.update_state(loss, sample_weight=batch_size)

    def train_step(self, data):
        """One training step on one batch `data` = (x, y[, sample_weight]); returns logs."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
            scaled_loss = self.optimizer.scale_loss(loss)  # LossScaleOptimizer, loss_scale_factor
        self._track_loss(loss, x)
        trainable_variables = self.trainable_variables
        gradients = tape.gradient(scaled_loss, trainable_variables)
        self.optimizer.apply(gradients, trainable_variables)
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def test_step(self, data):
        """One evaluation step: forward pass (training=False), loss and metrics."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight,
                                 training=False)
        self._track_loss(loss, x)
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def predict_step(self, data):
        """One prediction step: the model's output on the batch's x."""
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def _make_function(self, step):
        """The step as is (run_eagerly) or as a `tf.function` fed flat tensors (see
        engine/step_function.py: that keeps `fit`'s per-batch overhead small)."""
        return step if self.run_eagerly else FlatStepFunction(step)

    def make_train_function(self, force=False):
        """`train_step` wrapped in `tf.function` (unless run_eagerly); cached."""
        if self._distribute_strategy is not None and (self.train_function is None or force):
            self.train_function = keras_training.train_function(self, self._distribute_strategy)
        if self.train_function is None or force:
            def one_step_on_data(data):
                return self.train_step(data)
            self.train_function = self._make_function(one_step_on_data)
        return self.train_function

    def make_test_function(self, force=False):
        """`test_step` wrapped in `tf.function` (unless run_eagerly); cached."""
        if self.test_function is None or force:
            def one_step_on_data(data):
                return self.test_step(data)
            self.test_function = self._make_function(one_step_on_data)
        return self.test_function

    def make_predict_function(self, force=False):
        """`predict_step` wrapped in `tf.function` (unless run_eagerly); cached."""
        if self.predict_function is None or force:
            def one_step_on_data(data):
                return self.predict_step(data)
            self.predict_function = self._make_function(one_step_on_data)
        return self.predict_function

    # --- the loops ---------------------------------------------------------------------
    def _run(self, step_function, data):
        if not self._compile_built:
            data = _as_tensors(data)
            self._symbolic_build(data)
        return step_function(data if isinstance(step_function, FlatStepFunction)
                             else _as_tensors(data))

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1):
        """Train for `epochs` passes over the data; returns the `History` callback."""
        self._assert_compile_called("fit")
        epochs = keras_config._cap_epochs(epochs)  # tf.keras.config.set_max_epochs
        steps_per_epoch = keras_config._cap_steps(steps_per_epoch)
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = data_adapter.train_validation_split(
                (x, y, sample_weight), validation_split)
        adapter = data_adapter.get_data_adapter(x, y, sample_weight, batch_size,
                                                steps_per_epoch, shuffle, class_weight)
        val_data = None
        if validation_data is not None:
            val_data = validation_data if data_adapter.is_dataset(validation_data) or \
                data_adapter.is_generator(validation_data) else \
                unpack_x_y_sample_weight(validation_data)
        verbose = 1 if verbose == "auto" else verbose
        callbacks = CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                 model=self, verbose=verbose, epochs=epochs,
                                 steps=steps_per_epoch or adapter.num_batches)
        self.stop_training = False
        train_function = self.make_train_function()
        callbacks.on_train_begin()
        epoch_logs = {}
        # BackupAndRestore sets `_initial_epoch` when it restores a state, as in Keras 3.
        initial_epoch = getattr(self, "_initial_epoch", None) or initial_epoch
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            logs, steps = self._run_epoch(adapter, train_function, callbacks, steps_per_epoch)
            if steps == 0:
                warnings.warn("Your input ran out of data; interrupting training. Make sure "
                              "that your dataset or generator can generate at least "
                              "`steps_per_epoch * epochs` batches.")
                break
            epoch_logs = dict(sorted(_pythonify(logs).items()))
            if val_data is not None and _should_eval(epoch, validation_freq):
                val_logs = self._evaluate_for_fit(val_data, validation_batch_size or
                                                  batch_size, validation_steps, callbacks)
                epoch_logs.update({"val_" + k: v for k, v in sorted(val_logs.items())})
            callbacks.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        if epochs > 0:  # use_ema=True: the weights take their moving averages (Keras 3)
            self.optimizer.finalize_variable_values(self.trainable_weights)
        callbacks.on_train_end(logs=epoch_logs)
        return self.history

    def _run_epoch(self, adapter, train_function, callbacks, steps_per_epoch):
        logs, steps = {}, 0
        # Only call batch hooks someone listens to: History and a silent fit need none.
        batch_begin = callbacks.overrides("on_train_batch_begin")
        batch_end = callbacks.overrides("on_train_batch_end")
        for step, data in enumerate(adapter.get_iterator()):
            if steps_per_epoch is not None and step >= steps_per_epoch:
                break
            if batch_begin:
                callbacks.on_train_batch_begin(step)
            logs = self._run(train_function, data)
            steps += 1
            if batch_end:
                callbacks.on_train_batch_end(step, _pythonify(logs))
            if self.stop_training:
                break
        return logs, steps

    def _evaluate_for_fit(self, val_data, batch_size, steps, callbacks):
        if isinstance(val_data, tuple):
            vx, vy, vsw = val_data
            return self.evaluate(vx, vy, batch_size=batch_size, sample_weight=vsw, steps=steps,
                                 callbacks=callbacks, verbose=0, return_dict=True)
        return self.evaluate(val_data, steps=steps, callbacks=callbacks, verbose=0,
                             return_dict=True)

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False, **kwargs):
        """The loss and metrics on the data (training=False): a scalar when there is
        only the loss, else a list in `metrics_names` order, or a dict."""
        self._assert_compile_called("evaluate")
        steps = keras_config._cap_steps(steps)
        adapter = data_adapter.get_data_adapter(x, y, sample_weight, batch_size, steps)
        verbose = 1 if verbose == "auto" else verbose
        if not isinstance(callbacks, CallbackList):
            callbacks = CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                     verbose=verbose, epochs=1,
                                     steps=steps or adapter.num_batches)
        test_function = self.make_test_function()
        self.reset_metrics()
        callbacks.on_test_begin()
        logs = {}
        for step, data in enumerate(adapter.get_iterator()):
            if steps is not None and step >= steps:
                break
            callbacks.on_test_batch_begin(step)
            logs = self._run(test_function, data)
            callbacks.on_test_batch_end(step, _pythonify(logs))
        logs = dict(sorted(_pythonify(logs).items()))
        callbacks.on_test_end(logs)
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def _flatten_metrics_in_order(self, logs):
        names = [n for n in self.metrics_names if n in logs]
        names += [k for k in logs if k not in names]
        values = [logs[n] for n in names]
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for every example, as NumPy arrays (batches concatenated)."""
        steps = keras_config._cap_steps(steps)
        adapter = data_adapter.get_data_adapter(x, None, None, batch_size, steps)
        verbose = 1 if verbose == "auto" else verbose
        callbacks = CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                 verbose=verbose, epochs=1, steps=steps or adapter.num_batches)
        predict_function = self.make_predict_function()
        callbacks.on_predict_begin()
        outputs = []
        for step, data in enumerate(adapter.get_iterator()):
            if steps is not None and step >= steps:
                break
            callbacks.on_predict_batch_begin(step)
            batch_outputs = predict_function(
                data if isinstance(predict_function, FlatStepFunction) else _as_tensors(data))
            outputs.append(nest.map_structure(lambda t: t.numpy(), batch_outputs))
            callbacks.on_predict_batch_end(step, {"outputs": batch_outputs})
        callbacks.on_predict_end()
        if not outputs:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). "
                             "Please use `Model.compile(..., run_eagerly=True)`, or "
                             "`tf.config.run_functions_eagerly(True)` for more information "
                             "of where went wrong, or file a issue/bug to `tf.keras`. "
                             "(The input produced no batch at all: is it empty?)")
        return nest.map_structure(lambda *parts: np.concatenate(parts, axis=0), *outputs)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       return_dict=False):
        """One `train_step` on exactly this batch. As in Keras 3, the metrics are reset
        first, so the result is this batch's loss and metrics, not a running mean."""
        self._assert_compile_called("train_on_batch")
        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("Arguments `sample_weight` and `class_weight` cannot be "
                                 f"specified at the same time. Received: sample_weight="
                                 f"{sample_weight}, class_weight={class_weight}")
            sample_weight = data_adapter.class_weight_to_sample_weight(
                nest.flatten(data_adapter._standardize(y))[0], class_weight)
        data = data_adapter.pack_x_y_sample_weight(x, y, sample_weight)
        train_function = self.make_train_function()
        self.reset_metrics()
        logs = _pythonify(self._run(train_function, data))
        logs = dict(sorted(logs.items()))
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """One `test_step` on exactly this batch (metrics reset first, as in Keras 3)."""
        self._assert_compile_called("test_on_batch")
        data = data_adapter.pack_x_y_sample_weight(x, y, sample_weight)
        test_function = self.make_test_function()
        self.reset_metrics()
        logs = dict(sorted(_pythonify(self._run(test_function, data)).items()))
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def predict_on_batch(self, x):
        """The model's output on this one batch, as NumPy."""
        outputs = self.make_predict_function()(_as_tensors((x,)))
        return nest.map_structure(lambda t: t.numpy(), outputs)


def _should_eval(epoch, validation_freq):
    if isinstance(validation_freq, int):
        return (epoch + 1) % validation_freq == 0
    return epoch + 1 in validation_freq
