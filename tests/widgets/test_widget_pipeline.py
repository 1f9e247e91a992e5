"""Pipeline timeline: tested on structure (timings vary between runs, numbers do not)."""
import doctest
import time

import pytest

import minitf as tf
from widgets import pipeline
from widgets.pipeline import (
    PipelineRun,
    PipelineTimeline,
    TimelineFigure,
    draw_timeline,
    nice_ceiling,
    pipeline_stages,
)

N = 6


@tf.autograph.experimental.do_not_convert
def slow(x):
    """An element function that takes 3 ms (a Python sleep inside the pipeline)."""
    return tf.py_function(lambda v: (time.sleep(0.003), v)[1], [x], tf.int64)


def train(_):
    time.sleep(0.004)


def variants():
    base = tf.data.Dataset.range(N)
    return {"sequential": base.map(slow),
            "prefetch": base.map(slow).prefetch(2),
            "parallel map + prefetch": base.map(slow, num_parallel_calls=2).prefetch(2)}


def test_pipeline_stages_follow_the_chain():
    base = tf.data.Dataset.range(4)
    assert pipeline_stages(base.map(slow).batch(2).prefetch(1)) == \
        ["Range", "Map/fn", "Map", "Batch", "Prefetch"]
    assert pipeline_stages(base.map(slow, num_parallel_calls=2)) == \
        ["Range", "ParallelMap/fn", "ParallelMap"]
    zipped = tf.data.Dataset.zip((base.map(slow), base)).batch(2)
    assert pipeline_stages(zipped) == ["Range", "Map/fn", "Map", "Zip", "Batch"]


@pytest.mark.parametrize("variant", sorted(variants()))
def test_every_element_appears_in_every_stage_in_order(variant):
    run = PipelineRun(variants()[variant], steps=N, train_step=train)
    assert run.indices("train") == list(range(N))
    for stage in run.stage_order:
        # prefetch may read ahead, so a stage can hold more elements, never fewer
        assert set(range(N)) <= set(run.indices(stage)), stage
    assert run.order_violations() == []
    assert run.stage_order[-1] == "train" and run.stage_order[0] == "Range"
    for (lane, events) in run.lanes():
        thread, stage = lane.split(": ")
        assert all(e.thread == thread and e.stage == stage for e in events)
    assert run.total > 0 and set(run.stage_totals()) == set(run.stage_order)


def test_overlap_is_detected_exactly_when_prefetch_is_on():
    runs = {name: PipelineRun(ds, steps=N, train_step=train) for name, ds in variants().items()}
    assert runs["sequential"].overlaps() == []
    assert {e.thread for e in runs["sequential"].events} == {"MainThread"}
    for name in ("prefetch", "parallel map + prefetch"):
        pairs = runs[name].overlaps()
        assert pairs, name
        for t, other in pairs:  # a real overlap: another thread, the same moment
            assert t.stage == "train" and other.thread != "MainThread"
            assert other.start < t.end and t.start < other.end
    lanes = [lane for lane, _ in runs["parallel map + prefetch"].lanes()]
    assert "Prefetch: Range" in lanes and lanes[-1] == "MainThread: train"
    assert sum(lane.endswith("ParallelMap/fn") for lane in lanes) >= 1


def test_batches_count_their_own_elements():
    run = PipelineRun(tf.data.Dataset.range(8).map(slow).batch(4), steps=2)
    assert run.indices("Batch") == [0, 1] and run.indices("Range") == list(range(8))
    assert run.order_violations() == []


def test_a_stage_that_finished_late_is_reported():
    run = PipelineRun(tf.data.Dataset.range(2).map(slow), steps=2)
    late = run.event("Range", 1)
    run.events[run.events.index(late)] = late._replace(end=late.end + 10.0)
    assert (1, "Range", "Map/fn") in run.order_violations()


def test_timeline_figure_has_one_row_per_lane():
    run = PipelineRun(variants()["parallel map + prefetch"], steps=N, train_step=train)
    fig = draw_timeline(run, "demo")
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == [lane for lane, _ in run.lanes()]
    assert "total" in fig.axes[0].get_title()


# --- the view ----------------------------------------------------------------------------------
def test_view_switches_variants_and_shows_totals():
    view = PipelineTimeline(variants(), steps=N, train_step=train)
    assert view.toggle.options == ("sequential", "prefetch", "parallel map + prefetch")
    first = bytes(view.image.value)
    assert first.startswith(b"\x89PNG") and "▶ sequential" in view.table.value
    view.toggle.value = "prefetch"
    assert bytes(view.image.value) != first and "▶ prefetch" in view.table.value
    assert view.table.value.count(" ms</td>") == 3 and "overlaps training" in view.table.value
    old = view.runs
    view.again.click()
    assert view.runs is not old and view.variant == "prefetch" and view.error.value == ""
    assert view.static().png == bytes(view.image.value) and "sequential:" in view.static().text


def test_speedups_are_the_first_variants_total_over_each_total():
    view = PipelineTimeline(variants(), steps=N, train_step=train)
    runs = view.runs
    speedups = view.speedups()
    assert speedups["sequential"] == 1.0
    for name, run in runs.items():
        assert speedups[name] == pytest.approx(runs["sequential"].total / run.total)
        assert f"{speedups[name]:.1f}×</td>" in view.table.value


def test_view_of_a_single_dataset_and_errors_shown():
    view = PipelineTimeline(tf.data.Dataset.range(3), steps=None)
    assert list(view.runs) == ["pipeline"] and view.runs["pipeline"].indices("train") == [0, 1, 2]
    view.train_step = lambda element: element + tf.constant(1.5)  # int64 + float: refused
    view.again.click()
    assert "InvalidArgumentError" in view.error.value


def test_timeline_figure_keeps_its_background_between_similar_runs():
    run = PipelineRun(variants()["prefetch"], steps=N, train_step=train)
    figure = TimelineFigure("prefetch")
    first = figure.draw(run)
    assert first.startswith(b"\x89PNG") and figure.full_draws == 1
    assert figure.draw(run) == first and figure.full_draws == 1  # same run: same bytes
    assert [t.get_text() for t in figure.ax.get_yticklabels()] == \
        [lane for lane, _ in run.lanes()]
    assert figure.ax.get_xlim() == (0, nice_ceiling(1000 * run.total * 1.01))
    assert not figure.ax.texts and len(figure.ax.collections) == 0  # bars are not kept
    run.total *= 3  # a slower run crosses the axis end: the background is redrawn
    assert figure.draw(run) != first and figure.full_draws == 2


def test_run_again_draws_only_the_chart_shown():
    view = PipelineTimeline(variants(), steps=N, train_step=train)
    assert list(view._pictures) == ["sequential"]
    view.again.click()
    assert list(view._pictures) == ["sequential"]
    view.toggle.value = "prefetch"  # drawn when first shown, then kept
    assert list(view._pictures) == ["sequential", "prefetch"]
    assert bytes(view.image.value) == view._pictures["prefetch"]


def test_examples():
    result = doctest.testmod(pipeline, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
