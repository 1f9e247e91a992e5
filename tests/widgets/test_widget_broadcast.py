"""Broadcasting explorer: the plan follows NumPy's rules and reads the engine's answers."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitf as tf
from widgets import broadcast
from widgets.broadcast import PRESETS, BroadcastExplorer, BroadcastPlan, parse_shape

shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)
pairs = st.one_of(
    st.tuples(shapes, shapes),  # mostly incompatible
    hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4).map(
        lambda s: s.input_shapes),
    hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3).map(
        lambda s: s.input_shapes))


def numpy_result(shapes_):
    try:
        return np.broadcast_shapes(*shapes_)
    except ValueError:
        return None


@given(pairs)
def test_plan_agrees_with_numpy_and_fails_exactly_when_numpy_fails(shapes_):
    plan = BroadcastPlan(*shapes_)
    expected = numpy_result(shapes_)
    assert plan.ok == (expected is not None)
    assert plan.result_shape == expected
    if not plan.ok:
        assert any(rule.status == "incompatible" for rule in plan.axes)


@given(pairs)
def test_error_text_is_exactly_what_minitf_raises(shapes_):
    plan = BroadcastPlan(*shapes_)
    if plan.ok:
        assert plan.error() is None
        return
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        total = tf.zeros(shapes_[0])
        for s in shapes_[1:]:
            total = total + tf.zeros(s)
    assert plan.error() == ("InvalidArgumentError", str(info.value))


@given(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=4, max_side=3))
def test_source_index_map_agrees_with_broadcast_to(drawn):
    shapes_ = drawn.input_shapes
    plan = BroadcastPlan(*shapes_)
    for k, shape in enumerate(shapes_):
        source = np.arange(int(np.prod(shape))).reshape(shape)
        stretched = np.broadcast_to(source, plan.result_shape)
        for index in np.ndindex(*plan.result_shape):
            assert stretched[index] == source[plan.source_index(index)[k]]


@given(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=3))
def test_reduced_axes_agree_with_the_tapes_gradients(drawn):
    plan = BroadcastPlan(*drawn.input_shapes)
    for k, (shape, grad) in enumerate(zip(plan.shapes, plan.gradients())):
        assert grad.shape == shape
        summed = np.ones(plan.result_shape).sum(axis=plan.reduced_axes(k)).reshape(shape)
        np.testing.assert_array_equal(grad, summed)


def test_gradients_come_from_the_tape():
    plan = BroadcastPlan((3, 1), (4,))
    a, b = plan.operands()
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = tf.reduce_sum(a + b)
    ga, gb = tape.gradient(y, [a, b])
    np.testing.assert_array_equal(plan.gradients()[0], ga.numpy())
    np.testing.assert_array_equal(plan.gradients()[1], gb.numpy())
    np.testing.assert_array_equal(plan.gradients()[0], [[4.0], [4.0], [4.0]])


def test_values_are_the_engines_sum():
    plan = BroadcastPlan((2, 1, 3), (4, 1), (3,))
    a, b, c = plan.operands()
    np.testing.assert_array_equal(plan.values(), (a + b + c).numpy())


def test_steps_explain_each_rule():
    plan = BroadcastPlan((3, 1), (4,))
    assert plan.aligned(0) == [[3, 1], [None, 4]]
    assert plan.aligned(1) == [[3, 1], [1, 4]]
    assert "right-aligned" in plan.explain(0)
    assert "b[1, 4]" in plan.explain(1)
    assert "3 vs 1 → 3 (stretch b)" in plan.explain(2)
    assert "b is copied 3× along axis -2" in plan.explain(3)
    assert plan.explain(4) == "The result has shape [3, 4]."
    failing = BroadcastPlan((3, 2), (4,))
    assert "Axis -1" in failing.explain(3) and "InvalidArgumentError" in failing.explain(3)
    assert [status for _, status in failing.table(2)[-1][1]] == ["stretched", "incompatible"]


def test_bad_arguments():
    with pytest.raises(ValueError, match="2 or 3 shapes"):
        BroadcastPlan((3,))
    with pytest.raises(ValueError, match="non-negative"):
        BroadcastPlan((3,), (-1,))
    with pytest.raises(ValueError, match="do not broadcast"):
        BroadcastPlan((3,), (4,)).source_index((0,))
    assert parse_shape("(3, 1)") == (3, 1) and parse_shape(" ") == () and parse_shape("[4]") == (4,)
    with pytest.raises(ValueError, match="Could not read"):
        parse_shape("3, x")


# --- the view -------------------------------------------------------------------------------
def test_view_controls_change_the_drawing():
    view = BroadcastExplorer((3, 1), (4,), step=0)
    first = view.grid.value
    view.forward.click()
    view.forward.click()
    view.forward.click()
    assert view.step == 3 and view.step_slider.value == 3 and view.grid.value != first
    assert "stretched copy" not in view.grid.value  # the HTML marks copies by colour
    view.step_slider.value = 4
    assert "result[" in view.selection.value
    before = view.selection.value
    view.cell.value = 5
    assert view.selected_index() == (1, 1) and view.selection.value != before
    assert "= a[1, 0] + b[1] = 11" in view.selection.value
    view.gradient.value = True
    assert "summed over result axes (1,)" in view.gradient_text.value
    assert "gradient of a" in view.grid.value
    view.back.click()
    assert view.step == 3


def test_view_presets_boxes_and_errors():
    view = BroadcastExplorer((3, 1), (4,))
    view.preset.value = "failing pair: (3, 2) + (4,)"
    assert view.plan.shapes == [(3, 2), (4,)]
    assert view.boxes[0].value == "3, 2" and view.boxes[1].value == "4"
    assert "Incompatible shapes: [3,2] vs. [4]" in view.selection.value
    assert view.cell.disabled
    view.boxes[2].value = "2, 1, 1"
    assert view.plan.shapes == [(3, 2), (4,), (2, 1, 1)]
    view.boxes[0].value = "nonsense"
    assert "Could not read the shape" in view.error.value  # shown, not swallowed
    view.boxes[0].value = "3, 1"
    assert view.error.value == ""
    for name, shapes_ in PRESETS.items():
        view.preset.value = name
        assert view.plan.shapes == [tuple(s) for s in shapes_]


def test_static_picture_is_a_deterministic_png(monkeypatch):
    import matplotlib.pyplot as plt

    view = BroadcastExplorer((2, 1, 3), (4, 1), (3,))
    open_before = len(plt.get_fignums())
    one, two = view.static(), view.static()
    assert one.png[:8] == b"\x89PNG\r\n\x1a\n" and one.png == two.png
    assert len(plt.get_fignums()) == open_before
    bundle = view._repr_mimebundle_()
    assert "image/png" in bundle and "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("BroadcastExplorer: (2, 1, 3)")


def test_big_shapes_are_not_drawn_cell_by_cell():
    plan = BroadcastPlan((40, 40), (40,))
    assert not broadcast.drawable(plan, 4)
    assert "Too many cells" in broadcast.grid_html(plan, 4)
