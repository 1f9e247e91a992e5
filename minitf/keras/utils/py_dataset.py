"""`tf.keras.utils.PyDataset` (and its old name `Sequence`): batches by index, from Python.

Subclass it, say how many batches there are (`__len__`) and how to make batch
`i` (`__getitem__`); `fit` asks for the batches of each epoch - in a shuffled
order when `fit(shuffle=True)`, the default - and calls `on_epoch_end()` after
each epoch (reshuffle your examples there). With `workers > 1` the next
`max_queue_size` batches are made ahead of time in a pool of threads, while the
model trains on the current one.

>>> import minitf as tf, numpy as np
>>> class Squares(tf.keras.utils.PyDataset):
...     def __init__(self, **kwargs):
...         super().__init__(**kwargs)
...     def __len__(self):
...         return 4
...     def __getitem__(self, index):
...         x = np.full((8, 1), index, "float32")
...         return x, x ** 2
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile("sgd", "mse")
>>> len(model.fit(Squares(workers=2), epochs=2, verbose=0).history["loss"])
2

In TensorFlow this is `keras/src/trainers/data_adapters/py_dataset_adapter.py`.
Keras can also run the workers as processes (`use_multiprocessing=True`); minitf
always uses threads (the batches and their order are the same).
"""
import concurrent.futures
import itertools
import random
import warnings

import numpy as np

from ...framework.tf_export import tf_export


@tf_export("keras.utils.PyDataset", "keras.utils.Sequence")
class PyDataset:
    """Base class: define `__len__` (or `num_batches`) and `__getitem__(index)`."""

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    def _warn_if_super_not_called(self):
        missing = False
        for name, default in (("_workers", 1), ("_use_multiprocessing", False),
                              ("_max_queue_size", 10)):
            if not hasattr(self, name):
                setattr(self, name, default)
                missing = True
        if missing:
            warnings.warn("Your `PyDataset` class should call `super().__init__(**kwargs)` in "
                          "its constructor. `**kwargs` can include `workers`, "
                          "`use_multiprocessing`, `max_queue_size`. Do not pass these "
                          "arguments to `fit()`, as they will be ignored.", stacklevel=3)

    @property
    def workers(self):
        self._warn_if_super_not_called()
        return self._workers

    @workers.setter
    def workers(self, value):
        self._workers = value

    @property
    def use_multiprocessing(self):
        self._warn_if_super_not_called()
        return self._use_multiprocessing

    @use_multiprocessing.setter
    def use_multiprocessing(self, value):
        self._use_multiprocessing = value

    @property
    def max_queue_size(self):
        self._warn_if_super_not_called()
        return self._max_queue_size

    @max_queue_size.setter
    def max_queue_size(self, value):
        self._max_queue_size = value

    def __getitem__(self, index):
        """Batch number `index`: `(x,)`, `(x, y)` or `(x, y, sample_weight)`."""
        raise NotImplementedError

    def __iter__(self):
        try:
            count = self.num_batches
        except NotImplementedError:
            count = None
        for index in range(count) if count is not None else itertools.count():
            yield self[index]

    @property
    def num_batches(self):
        """The number of batches (`len(self)`), or None for an endless dataset."""
        if hasattr(self, "__len__"):
            return len(self)
        raise NotImplementedError("You need to implement the `num_batches` property:\n\n"
                                  "@property\ndef num_batches(self):\n  return ...")

    def on_epoch_begin(self):
        """Called at the start of every epoch."""

    def on_epoch_end(self):
        """Called at the end of every epoch."""


class PyDatasetAdapter:
    """What `fit`/`evaluate`/`predict` read a PyDataset through (see data_adapter.py)."""

    def __init__(self, py_dataset, shuffle=False, class_weight=None, steps=None):
        self.py_dataset = py_dataset
        self.shuffle = shuffle
        self.class_weight = class_weight
        self._steps = steps

    @property
    def num_batches(self):
        return self._steps if self._steps is not None else self.py_dataset.num_batches

    def _standardize_batch(self, batch):
        if isinstance(batch, dict):
            return (batch,)
        if isinstance(batch, np.ndarray):
            batch = (batch,)
        if isinstance(batch, list):
            batch = tuple(batch)
        if not isinstance(batch, tuple) or len(batch) not in {1, 2, 3}:
            raise ValueError("PyDataset.__getitem__() must return a tuple or a dict. If a "
                             "tuple, it must be ordered either (input,) or (inputs, targets) or "
                             "(inputs, targets, sample_weights). "
                             f"Received: {str(batch)[:100]}... of type {type(batch)}")
        if self.class_weight is not None:
            if len(batch) == 3:
                raise ValueError("You cannot specify `class_weight` and `sample_weight` at the "
                                 "same time.")
            if len(batch) == 2:
                from .data_adapter import class_weight_to_sample_weight
                batch = batch + (class_weight_to_sample_weight(batch[1], self.class_weight),)
        return batch

    def _indices(self):
        count = self.py_dataset.num_batches
        if count is None:
            return itertools.count()
        if count == 0:
            raise ValueError("The PyDataset has length 0")
        indices = list(range(count))
        if self.shuffle:
            random.shuffle(indices)
        return indices

    def get_iterator(self):
        """One epoch of batches; `on_epoch_begin`/`on_epoch_end` around it."""
        self.py_dataset.on_epoch_begin()
        try:
            if self.py_dataset.workers > 1:
                batches = self._threaded(self._indices())
            else:
                batches = (self.py_dataset[i] for i in self._indices())
            for batch in batches:
                yield self._standardize_batch(batch)
        finally:
            self.py_dataset.on_epoch_end()

    def _threaded(self, indices):
        """Batches in `indices` order, up to `max_queue_size` of them made ahead by threads."""
        if self.py_dataset.use_multiprocessing:
            warnings.warn("minitf runs PyDataset workers as threads (use_multiprocessing=True "
                          "makes processes in Keras); the batches are the same.", stacklevel=4)
        indices = iter(indices)
        ahead = max(1, self.py_dataset.max_queue_size)
        with concurrent.futures.ThreadPoolExecutor(self.py_dataset.workers) as pool:
            pending = [pool.submit(self.py_dataset.__getitem__, i)
                       for i in itertools.islice(indices, ahead)]
            while pending:
                batch = pending.pop(0).result()
                for i in itertools.islice(indices, 1):
                    pending.append(pool.submit(self.py_dataset.__getitem__, i))
                yield batch
