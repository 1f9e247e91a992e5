"""How many weight values a config may ask for while it is being loaded.

A config is data from a file, and `Dense(units=10**9)` in it would make the
loader allocate gigabytes before a single weight is read. So while a file is
being turned into layers, every `add_weight` is charged against a budget:
the number of values the weights file actually holds (for `load_model`), or a
fixed sane limit (for configs alone: `model_from_json`, `from_config`). A
weight over budget raises `ValueError` before anything is allocated.

>>> with WeightBudget(100, "tiny.keras"):
...     charge((10, 10), "dense/kernel")
...     try:
...         charge((1,), "dense/bias")
...     except ValueError as e:
...         print(str(e)[:72])
tiny.keras asks for weight dense/bias of shape (1,) (1 values), but only
"""
import threading

import numpy as np

# configs without a weights file may declare at most this many values (2**28 float32 = 1 GiB)
MAX_CONFIG_VALUES = 2 ** 28
_state = threading.local()


class WeightBudget:
    """While open (outermost one wins), `charge` counts values against `limit`."""

    def __init__(self, limit, source):
        self.limit, self.source, self.used = int(limit), source, 0

    def __enter__(self):
        self._outer = getattr(_state, "budget", None)
        if self._outer is None:
            _state.budget = self
        return self

    def __exit__(self, *exc):
        if self._outer is None:
            _state.budget = None


def charge(shape, path):
    """Count a new weight against the open budget (no budget open: nothing to check)."""
    budget = getattr(_state, "budget", None)
    if budget is None:
        return
    size = int(np.prod([int(d) for d in shape], dtype=object)) if shape else 1
    if any(int(d) < 0 for d in shape):
        raise ValueError(f"{budget.source} asks for weight {path} of shape {tuple(shape)}: "
                         "sizes cannot be negative. The file is corrupt or was edited.")
    if budget.used + size > budget.limit:
        raise ValueError(
            f"{budget.source} asks for weight {path} of shape {tuple(shape)} ({size} values), "
            f"but only {budget.limit - budget.used} of the {budget.limit} values it may hold "
            "are left. The config declares more weights than its file contains (or than "
            "minitf allows a config to ask for), so loading stops before allocating them.")
    budget.used += size
