"""`tf.keras.callbacks.TensorBoard`: training curves, weight histograms and the model
for TensorBoard, in the folders Keras 3 writes.

    log_dir/train/       epoch_loss, epoch_<metric>, epoch_learning_rate (step = epoch),
                         <layer path>/<weight>/histogram (every `histogram_freq` epochs),
                         "keras" (the model's JSON config, for the Graphs tab)
    log_dir/validation/  epoch_loss, epoch_<metric> (step = epoch),
                         evaluation_<name>_vs_iterations (step = optimizer.iterations)

>>> import os, tempfile, numpy as np
>>> logs = tempfile.mkdtemp()
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0,
...               validation_data=(np.ones((2, 1)), np.ones((2, 1))),
...               callbacks=[tf.keras.callbacks.TensorBoard(logs, histogram_freq=1)])
>>> sorted(os.listdir(logs))
['train', 'validation']

Then `%load_ext tensorboard` and `%tensorboard --logdir logs` in JupyterLab
(or `widgets.tensorboard_reader` without TensorBoard) show the curves.

Where minitf differs from Keras 3: minitf has no profiler and no embedding
projector, so `profile_batch` and `embeddings_freq` must stay 0 (anything
else raises a ValueError saying so).
"""
import os
import sys
import time

import numpy as np

from ...framework.tf_export import tf_export
from ...summary import summary_ops as _summary_ops, summary_writer as _summary_writer
from .callback import Callback


@tf_export("keras.callbacks.TensorBoard")
class TensorBoard(Callback):
    """Write logs TensorBoard reads: `log_dir/train` and `log_dir/validation`.

    histogram_freq: every how many epochs to write weight histograms (0: never);
    write_graph: write the model's config (Keras 3 draws it as the conceptual
    graph); write_images: also write weights as images; update_freq: "epoch",
    "batch" or N - how often `batch_<metric>` values are written (and how often
    your own `tf.summary` calls inside the model record).
    """

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0,
                 embeddings_freq=0, embeddings_metadata=None):
        super().__init__()
        self.log_dir = str(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.embeddings_freq = embeddings_freq
        self.embeddings_metadata = embeddings_metadata
        if profile_batch:
            raise ValueError(f"minitf has no profiler: profile_batch={profile_batch!r} must be "
                             "0. Time a training step with cProfile instead (lesson 16).")
        if embeddings_freq:
            raise ValueError(f"minitf has no embedding projector: embeddings_freq="
                             f"{embeddings_freq!r} must be 0.")
        self._global_train_batch = 0
        self._global_test_batch = 0
        self._previous_epoch_iterations = 0
        self._epoch_start_time = 0.0
        self._batch_start_time = 0.0
        self._writers = {}
        self._prev_summary_state = []

    def set_model(self, model):
        self._model = model
        self._train_dir = os.path.join(self.log_dir, "train")
        self._val_dir = os.path.join(self.log_dir, "validation")
        self._writers = {}
        if self.write_graph:
            self._write_keras_model_summary()

    # --- writers (made on first use, as Keras does: no empty folders) --------------------
    @property
    def _train_writer(self):
        if "train" not in self._writers:
            self._writers["train"] = _summary_writer.create_file_writer(self._train_dir)
        return self._writers["train"]

    @property
    def _val_writer(self):
        if "val" not in self._writers:
            self._writers["val"] = _summary_writer.create_file_writer(self._val_dir)
        return self._writers["val"]

    def _write_keras_model_summary(self):
        with self._train_writer.as_default():
            if type(self.model).__name__ in ("Functional", "Sequential"):
                keras_model_summary("keras", self.model, step=0)

    def _push_writer(self, writer, step):
        """For update_freq != "epoch": make `writer` the default, recording every N steps,
        so that tf.summary calls inside the model land in the right folder."""
        if self.update_freq == "epoch":
            return
        contexts = (writer.as_default(step), _summary_writer.record_if(
            lambda: step % self.update_freq == 0))
        self._prev_summary_state.append(contexts)
        for context in contexts:
            context.__enter__()

    def _pop_writer(self):
        if self.update_freq == "epoch":
            return
        writer_context, record_context = self._prev_summary_state.pop()
        record_context.__exit__(*sys.exc_info())
        writer_context.__exit__(*sys.exc_info())

    def _close_writers(self):
        for writer in self._writers.values():
            writer.close()

    # --- hooks ---------------------------------------------------------------------------
    def on_train_begin(self, logs=None):
        self._global_train_batch = 0
        self._previous_epoch_iterations = 0
        self._push_writer(self._train_writer, self._global_train_batch)

    def on_train_end(self, logs=None):
        self._pop_writer()
        self._close_writers()

    def on_test_begin(self, logs=None):
        self._push_writer(self._val_writer, self._global_test_batch)

    def on_test_end(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None and hasattr(optimizer, "iterations"):
            with self._val_writer.as_default():
                for name, value in (logs or {}).items():
                    _summary_ops.scalar(f"evaluation_{name}_vs_iterations", value,
                                    step=optimizer.iterations)
        self._pop_writer()

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1
        if self.update_freq != "epoch":
            self._pop_writer()
            self._push_writer(self._train_writer, self._global_train_batch)
        if self.write_steps_per_second:
            self._batch_start_time = time.time()

    def on_train_batch_end(self, batch, logs=None):
        if self.write_steps_per_second:
            _summary_ops.scalar("batch_steps_per_second",
                            1.0 / (time.time() - self._batch_start_time),
                            step=self._global_train_batch)
        if isinstance(logs, dict):
            for name, value in logs.items():
                _summary_ops.scalar(f"batch_{name}", value, step=self._global_train_batch)

    def on_test_batch_begin(self, batch, logs=None):
        self._global_test_batch += 1
        if self.update_freq != "epoch":
            self._pop_writer()
            self._push_writer(self._val_writer, self._global_test_batch)

    def on_epoch_begin(self, epoch, logs=None):
        if self.write_steps_per_second:
            self._previous_epoch_iterations = float(self.model.optimizer.iterations.numpy())
            self._epoch_start_time = time.time()

    def on_epoch_end(self, epoch, logs=None):
        self._log_epoch_metrics(epoch, logs)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)

    # --- what gets written ---------------------------------------------------------------
    def _log_epoch_metrics(self, epoch, logs):
        if not logs:
            return
        train_logs = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val_logs = {k: v for k, v in logs.items() if k.startswith("val_")}
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None and hasattr(optimizer, "learning_rate"):
            train_logs["learning_rate"] = float(np.asarray(optimizer.learning_rate))
        if self.write_steps_per_second:
            seconds = time.time() - self._epoch_start_time
            steps = float(optimizer.iterations.numpy()) - self._previous_epoch_iterations
            train_logs["steps_per_second"] = steps / seconds
        if train_logs:
            with self._train_writer.as_default():
                for name, value in train_logs.items():
                    _summary_ops.scalar(f"epoch_{name}", value, step=epoch)
        if val_logs:
            with self._val_writer.as_default():
                for name, value in val_logs.items():
                    _summary_ops.scalar(f"epoch_{name[4:]}", value, step=epoch)

    def _log_weights(self, epoch):
        with self._train_writer.as_default():
            for layer in self.model.layers:
                for weight in layer.weights:
                    weight_name = weight.path.replace(":", "_")
                    _summary_ops.histogram(f"{weight_name}/histogram", weight, step=epoch)
                    if self.write_images:
                        self._log_weight_as_image(weight, f"{weight_name}/image", epoch)
            self._train_writer.flush()

    def _log_weight_as_image(self, weight, weight_name, epoch):
        """A weight as a grey image, as Keras draws it: a bias as one row, a Dense kernel
        wider than tall, each convolution kernel as an image of its own."""
        image = np.squeeze(np.asarray(weight))
        if image.ndim == 1:
            image = image.reshape(1, image.shape[0], 1, 1)
        elif image.ndim == 2:
            if image.shape[0] > image.shape[1]:
                image = image.T
            image = image.reshape(1, image.shape[0], image.shape[1], 1)
        elif image.ndim == 3:  # channels_last: one image per output channel
            image = np.transpose(image, [2, 0, 1])[..., None]
        if image.ndim == 4 and image.shape[-1] in (1, 3, 4):
            _summary_ops.image(weight_name, image, step=epoch)


def keras_model_summary(name, data, step=None):
    """Write a Keras model's JSON config under `name` (plugin `graph_keras_model`), which
    TensorBoard's Graphs tab draws as the model's conceptual graph."""
    from ...summary.protos import tensorboard
    summary_pb2 = tensorboard("compat.proto.summary_pb2")
    metadata = summary_pb2.SummaryMetadata()
    metadata.plugin_data.plugin_name = "graph_keras_model"
    metadata.plugin_data.content = b"1"
    return _summary_ops.write(name, data.to_json(), step=step, metadata=metadata)
