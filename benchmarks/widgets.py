"""How fast each widget control responds: every update path, called directly.

    python benchmarks/widgets.py

Each line is the best of 5 runs of one control's update (what the callback
does when a slider moves or a button is clicked), in milliseconds, against
the 150 ms budget. Renders are cached by their DOT text, so a graph picture
is timed on its first drawing (the slow case) by clearing the cache first.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import minitf as tf  # noqa: E402
from widgets import _render  # noqa: E402
from widgets.broadcast import BroadcastExplorer  # noqa: E402
from widgets.graph import PASS_KEYS, GraphExplorer  # noqa: E402
from widgets.optimizer_race import OptimizerRace  # noqa: E402
from widgets.pipeline import PipelineTimeline  # noqa: E402
from widgets.tape import TapeStepper  # noqa: E402

BUDGET_MS = 150.0


def best_ms(update, repeat=5):
    times = []
    for _ in range(repeat):
        _render._CACHE.clear()
        start = time.perf_counter()
        update()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def broadcast_controls():
    view = BroadcastExplorer((2, 1, 3), (4, 1), (3,))
    yield "broadcast: step slider", lambda: view.set_step(3)
    yield "broadcast: result cell", lambda: view.select(7)
    yield "broadcast: gradient toggle", lambda: view.set_gradient(not view.show_gradient)
    yield "broadcast: new shapes", lambda: view.set_shapes((4, 3), (3,))
    yield "broadcast: failing preset", lambda: view.set_shapes((3, 2), (4,))


def tape_controls():
    view = TapeStepper(lambda x, w: tf.tanh(x * w + tf.sin(x)) * x, tf.constant(0.5),
                       tf.Variable(2.0))
    yield "tape: step slider (forward)", lambda: view.set_frame(3)
    yield "tape: step slider (backward)", lambda: view.set_frame(9)
    yield "tape: watch / persistent / stop_gradient (re-record)", view.rerun


def graph_controls():
    @tf.function
    def f(x, w, b):
        scale = tf.constant(2.0) * 0.5
        hidden = tf.nn.relu(tf.matmul(x, w) + b) * scale
        return tf.reduce_sum(tf.exp(hidden * 1.0 + 1.0))

    view = GraphExplorer(f, tf.ones([2, 3]), tf.ones([3, 4]), tf.ones([4]))
    yield "graph: pass checkbox", lambda: view.set_passes(PASS_KEYS[1:])
    yield "graph: pass slider", lambda: view.set_step(1)
    yield "graph: retrace button (new shape)", lambda: view.call_variation(
        "new shape (first tensor's leading axis + 1)")
    yield "graph: call with same signature", lambda: view.call_variation(
        "same signature, new values")


def optimizer_race_controls():
    view = OptimizerRace("rosenbrock")  # 8 optimizers, 100 steps each, precomputed
    steps = iter(range(10, 10_000))
    yield "optimizer race: step slider (redraw only)", lambda: view.set_step(
        next(steps) % 100)
    yield "optimizer race: optimizer checkbox", lambda: setattr(
        view.boxes["SGD"], "value", not view.boxes["SGD"].value)
    yield "optimizer race: state-of dropdown", lambda: setattr(
        view.selected, "value", "Adam" if view.selected.value != "Adam" else "Nadam")
    rates = iter([0.05, 0.02] * 10)
    yield "optimizer race: learning rate (re-runs 1 optimizer)", lambda: \
        view.set_learning_rate(next(rates))
    starts = iter([(-1.0, 2.0), (-1.5, 2.0)] * 10)
    yield "optimizer race: start point (re-runs all 8)", lambda: view.set_start(*next(starts))


def pipeline_controls():
    slow = tf.autograph.experimental.do_not_convert(
        lambda x: tf.py_function(lambda v: (time.sleep(0.002), v)[1], [x], tf.int64))
    base = tf.data.Dataset.range(8)
    view = PipelineTimeline({"sequential": base.map(slow),
                             "parallel + prefetch": base.map(slow, num_parallel_calls=2)
                             .prefetch(2)}, train_step=lambda _: time.sleep(0.002))
    names = iter(["sequential", "parallel + prefetch"] * 10)
    yield "pipeline: variant toggle", lambda: view.show(next(names))
    yield "pipeline: run again (measures + draws every variant)", view.measure


def main():
    worst = 0.0
    for controls in (broadcast_controls, tape_controls, graph_controls,
                     optimizer_race_controls, pipeline_controls):
        for name, update in controls():
            ms = best_ms(update)
            worst = max(worst, ms)
            flag = "ok" if ms < BUDGET_MS else "SLOW"
            print(f"{name:55s} {ms:7.1f} ms  {flag}")
    print(f"{'slowest control':55s} {worst:7.1f} ms  (budget {BUDGET_MS:.0f} ms)")


if __name__ == "__main__":
    main()
