"""`tf.keras.utils.Progbar`: the progress bar `fit` prints.

Keras 3 draws it like this (the numbers after the bar are the elapsed time
and the time per step; then the running values of the logs):

    32/32 ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - accuracy: 0.5000 - loss: 0.6931

On a terminal the line is redrawn in place with "\\r" after every step. Anywhere
else - a notebook, a file, a pipe - minitf prints only the finished line, so
a 100-epoch `fit` writes 100 lines, not thousands. (Keras 3 redraws with
"\\r" in notebooks too; minitf keeps a notebook to one line per epoch.) `verbose=2` prints a
compact line at the end ("32/32 - 0s - 3ms/step - loss: 0.6931"), `verbose=0`
nothing.

>>> import io
>>> out = io.StringIO()
>>> bar = tf.keras.utils.Progbar(2, stateful_metrics=[], stream=out)
>>> bar.update(1, values=[("loss", 0.5)])
>>> bar.update(2, values=[("loss", 0.25)], finalize=True)
>>> print(out.getvalue().split(" ")[:2])
['2/2', '━━━━━━━━━━━━━━━━━━━━']
>>> out.getvalue().rstrip().endswith("- loss: 0.3750")   # the running mean
True
"""
import sys
import time

import numpy as np

from ...framework.tf_export import tf_export
from . import io_utils


def _format_time(seconds):
    return f"{seconds:.0f}s"


def _format_per_step(seconds, unit_name):
    if seconds >= 1 or seconds == 0:
        return f"{seconds:.0f}s/{unit_name}"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/{unit_name}"
    return f"{seconds * 1e6:.0f}us/{unit_name}"


def format_value(value):
    """Keras prints a metric as ' %.4f', or ' %.4e' when it is tiny."""
    value = float(np.mean(value))
    return f"{value:.4f}" if abs(value) > 1e-3 else f"{value:.4e}"


@tf_export("keras.utils.Progbar")
class Progbar:
    """A progress bar for `target` steps (None when the number is not known).

    `update(current, values)` moves it to step `current`; `values` are
    `(name, value)` pairs. As in Keras 3, values are shown as given (`fit`'s
    metrics are already running means) unless you pass `stateful_metrics`:
    then every *other* name is averaged over the steps seen.
    """

    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None,
                 unit_name="step", stream=None):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = None if stateful_metrics is None else set(stateful_metrics)
        self.stream = stream
        self._values = {}  # name -> [weighted sum, count] or the stateful value
        self._values_order = []
        self._start = time.time()
        self._last_update = 0.0
        self._seen_so_far = 0
        self._prev_width = 0

    @property
    def _out(self):
        return self.stream if self.stream is not None else sys.stdout

    def _dynamic_display(self):
        """Redraw in place only on a real terminal (notebooks get one final line)."""
        return hasattr(self._out, "isatty") and self._out.isatty()

    def _record(self, current, values):
        for name, value in values or []:
            if name not in self._values_order:
                self._values_order.append(name)
            if self.stateful_metrics is None or name in self.stateful_metrics:
                self._values[name] = value
            else:
                steps = max(current - self._seen_so_far, 1)
                total, count = self._values.get(name, [0.0, 0])
                self._values[name] = [total + float(np.mean(value)) * steps, count + steps]
        self._seen_so_far = current

    def _value_text(self):
        parts = []
        for name in self._values_order:
            value = self._values[name]
            if isinstance(value, list):
                value = value[0] / max(1, value[1])
            parts.append(f" - {name}: {format_value(value)}")
        return "".join(parts)

    def _bar(self, current, color):
        if self.target is None or self.target <= 0:
            return f"{current:7d}/Unknown"
        digits = len(str(self.target))
        count = f"{current:>{digits}}/{self.target}"
        done = int(self.width * current / self.target)
        if not color:  # a plain stream: only finished lines are printed, so no colours
            return f"{count} " + "━" * self.width
        green = f"\x1b[32m{'━' * done}\x1b[0m" if done > 0 else ""
        return f"\x1b[1m{count}\x1b[0m {green}\x1b[37m{'━' * (self.width - done)}\x1b[0m"

    def line(self, current, finalize=True, color=False):
        """The text of the bar at step `current` (no "\\r", no newline)."""
        elapsed = time.time() - self._start
        per_step = _format_per_step(elapsed / current if current else 0, self.unit_name)
        if self.verbose == 2:
            total = self.target if self.target is not None else current
            digits = len(str(total))
            return (f"{current:>{digits}}/{total} - {_format_time(elapsed)} - "
                    f"{per_step}{self._value_text()}")
        if finalize or not self.target:
            when = _format_time(elapsed)
        else:  # still running: the estimated time left, as Keras
            when = _format_time(elapsed / max(current, 1) * (self.target - current))
        if color:
            when = f"\x1b[1m{when}\x1b[0m"
        return f"{self._bar(current, color)} {when} {per_step}{self._value_text()}"

    def update(self, current, values=None, finalize=None):
        """Record step `current` and its `values`; draw if it is time to."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        self._record(current, values)
        if self.verbose == 0:
            return
        now = time.time()
        if not io_utils.is_interactive_logging_enabled():  # finished lines go to logging
            if finalize:
                io_utils.print_msg(self.line(current))
        elif self.verbose == 1 and self._dynamic_display():
            if finalize or now - self._last_update >= self.interval:
                text = self.line(current, finalize, color=True)
                padding = " " * max(0, self._prev_width - len(text))  # erase a longer line
                self._out.write("\r" + text + padding + ("\n" if finalize else ""))
                self._prev_width = len(text)
                self._out.flush()
                self._last_update = now
        elif finalize:
            self._out.write(self.line(current) + "\n")
            self._out.flush()

    def add(self, n, values=None):
        """Move forward `n` steps."""
        self.update(self._seen_so_far + n, values)
