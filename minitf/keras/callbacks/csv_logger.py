"""`tf.keras.callbacks.CSVLogger`: write each epoch's logs as a row of a CSV file.

>>> import os, tempfile, numpy as np
>>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> _ = model.fit(np.ones((2, 1)), np.ones((2, 1)), epochs=2, verbose=0,
...               callbacks=[tf.keras.callbacks.CSVLogger(path)])
>>> [line.split(",")[0] for line in open(path).read().splitlines()]
['epoch', '0', '1']
"""
import collections
import csv
import os

import numpy as np

from ...framework.tf_export import tf_export
from .callback import Callback


@tf_export("keras.callbacks.CSVLogger")
class CSVLogger(Callback):
    """Stream epoch results ("epoch", then the log keys sorted) to `filename`."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        self.csv_file = None

    def on_train_begin(self, logs=None):
        mode = "a" if self.append else "w"
        if self.append and os.path.exists(self.filename):
            with open(self.filename) as f:
                self.append_header = not bool(len(f.readline()))
        # closed in on_train_end, so no `with` block here
        self.csv_file = open(self.filename, mode, newline="")  # noqa: SIM115

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}

        def handle_value(k):
            is_zero_dim_ndarray = isinstance(k, np.ndarray) and k.ndim == 0
            if isinstance(k, str):
                return k
            if hasattr(k, "__iter__") and not is_zero_dim_ndarray:
                return f"\"[{', '.join(map(str, k))}]\""
            return k

        if self.keys is None:
            self.keys = sorted(logs.keys())
            val_keys_found = any(key.startswith("val_") for key in self.keys)
            self.keys = [k for k in self.keys if not k.startswith("val_")] + \
                [f"val_{k}" for k in self.keys if not k.startswith("val_")] \
                if not val_keys_found else self.keys
        if not self.writer:
            class CustomDialect(csv.excel):
                delimiter = self.sep
            fieldnames = ["epoch"] + self.keys
            self.writer = csv.DictWriter(self.csv_file, fieldnames=fieldnames,
                                         dialect=CustomDialect)
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict({"epoch": epoch})
        row.update((key, handle_value(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file is not None:
            self.csv_file.close()
        self.writer = None
