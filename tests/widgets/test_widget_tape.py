"""Tape stepper: the trace is the engine's own recording and backward pass."""
from html import escape

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minitf as tf
from tests.gradcheck import numerical_gradient
from widgets import _render
from widgets.tape import TapeStepper, TapeTrace, frame_text

FUNCTIONS = {
    "product and sine": (lambda x, w: x * w + tf.sin(x), 2),
    "x used three times": (lambda x: x * x + x, 1),
    "chain": (lambda x, w: tf.tanh(tf.exp(x * 0.5) * w - x), 2),
    "broadcast": (lambda x, w: tf.reduce_sum(tf.square(x - w)), 2),
    "matmul": (lambda x, w: tf.reduce_sum(tf.nn.relu(tf.matmul(x, w))), 2),
}


def arguments(name, seed):
    rng = np.random.default_rng(seed)
    if name == "broadcast":
        return [rng.uniform(-1, 1, (3, 2)), rng.uniform(-1, 1, (2,))]
    if name == "matmul":
        return [rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (3, 2))]
    return [np.array(rng.uniform(-1.5, 1.5)) for _ in range(FUNCTIONS[name][1])]


def run(name, seed, **options):
    f, _ = FUNCTIONS[name]
    values = arguments(name, seed)
    return f, values, TapeTrace(f, *[tf.constant(v) for v in values], **options)


@given(st.sampled_from(sorted(FUNCTIONS)), st.integers(0, 1000))
def test_backward_order_is_a_reverse_topological_order(name, seed):
    _, _, trace = run(name, seed)
    position = {step.record: k for k, step in enumerate(trace.backward)}
    producer = {id(t): i for i, r in enumerate(trace.records) for t in r.outputs}
    for i, r in enumerate(trace.records):
        for t in r.inputs:
            j = producer.get(id(t))
            if j is not None and i in position and j in position:
                assert position[i] < position[j]  # the consumer is visited first


@given(st.sampled_from(sorted(FUNCTIONS)), st.integers(0, 1000))
def test_final_gradients_equal_tape_gradient_and_finite_differences(name, seed):
    f, values, trace = run(name, seed)
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    expected = tape.gradient(y, xs)
    table = trace.accumulated(len(trace.backward))
    for k, (x, g) in enumerate(zip(trace.inputs, expected)):
        np.testing.assert_allclose(trace.gradient_arrays[k], g.numpy(), rtol=1e-12)
        np.testing.assert_allclose(sum(table[id(x)]), g.numpy(), rtol=1e-12)  # the += list
        numeric = numerical_gradient(
            lambda args: float(f(*[tf.constant(a) for a in args]).numpy().sum()), values, k)
        np.testing.assert_allclose(trace.gradient_arrays[k], numeric, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("watched", [[], ["x"], ["w"], ["x", "w"]])
def test_unwatched_sources_show_none_exactly_when_the_tape_does(watched):
    x, w = tf.constant(1.5), tf.Variable(-0.5)
    f = lambda x, w: tf.sin(x) + w * w  # noqa: E731 - x and w never meet in one op
    trace = TapeTrace(f, x, w, watch=watched)
    with tf.GradientTape(watch_accessed_variables="w" in watched) as tape:
        if "x" in watched:
            tape.watch(x)
        if "w" in watched:
            tape.watch(w)
        y = f(x, w)
    expected = tape.gradient(y, [x, w])
    assert [g is None for g in trace.gradients] == [g is None for g in expected]
    assert [g is None for g in trace.gradients] == [n not in watched for n in "xw"]
    assert ("tape.watch(x)" in trace.code()) == ("x" in watched)


def displayed_gradients(trace, frame):
    """What the picture says each input's gradient is: the text after `grad ` in its label."""
    shown = []
    for k in range(len(trace.inputs)):
        label = trace.diagram(frame).nodes[f"in{k}"]["label"]
        shown.append(label.split("\ngrad ")[1] if "\ngrad " in label else "")
    return shown


@pytest.mark.parametrize("stopped", [[], ["x"], ["w"]])
@pytest.mark.parametrize("watched", [[], ["x"], ["w"], ["x", "w"]])
def test_pictured_gradients_are_what_tape_gradient_returned(watched, stopped):
    # Lesson 08's function: x is used twice, once with w. With x unwatched the Mul is still
    # recorded (w is watched), and the picture once labelled x "grad 3" beside [None, 2].
    f = lambda x, w: x * w + tf.sin(x)  # noqa: E731
    trace = TapeTrace(f, tf.constant(2.0), tf.Variable(3.0), watch=watched,
                      stop_gradient=stopped)
    last = len(trace.frames()) - 1
    expected = ["None" if g is None else f"{g:.4g}" for g in trace.gradients]
    assert displayed_gradients(trace, last) == expected
    assert f"[{', '.join(expected)}]" in frame_text(trace, last)  # the widget's result line
    for k, g in enumerate(trace.engine_result):  # the walk the stepper shows is tape.gradient's
        assert (g is None) == (trace.gradients[k] is None)
    for frame in range(last):  # while stepping, only a source the tape gives a gradient
        for k, shown in enumerate(displayed_gradients(trace, frame)):  # may collect one
            assert shown == "" or trace.gradients[k] is not None
    named = [line.split("]")[0][5:] for line in trace.accumulation_lines()]
    assert [n for n in "xw" if n in named] == [n for n, g in zip("xw", trace.gradients)
                                               if g is not None]


def test_stop_gradient_and_persistent():
    trace = TapeTrace(lambda x, w: x * w, tf.constant(2.0), tf.constant(3.0),
                      stop_gradient=["w"])
    assert "tf.stop_gradient(w)" in trace.code()
    assert trace.gradients[0] == 3.0 and trace.gradients[1] is None
    assert trace.second_call.startswith("RuntimeError: A non-persistent GradientTape")
    again = TapeTrace(lambda x: x * x, tf.constant(2.0), persistent=True)
    assert "works" in again.second_call and "persistent=True" in again.code()


def test_accumulation_where_a_value_is_used_twice():
    trace = TapeTrace(lambda x: x * x + x, tf.constant(3.0))
    lines = [line for line in trace.accumulation_lines() if line.startswith("grad[x]")]
    assert lines == ["grad[x] += 1 (from AddV2)", "grad[x] += 3 (from Mul)  → 4",
                     "grad[x] += 3 (from Mul)  → 7"]
    text = trace.backward_text(1)
    assert "∂t0/∂x = 3 (local) × 1 (upstream) = 3" in text


def test_from_a_finished_recording():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x * x
    trace = TapeTrace.from_tape(tape, y, [x], names=["x"])
    assert [r.type for r in trace.records] == ["ReadVariableOp", "Mul", "Mul"]
    assert trace.gradients == [12.0]
    assert "RuntimeError" in trace.second_call


def test_frames_and_texts():
    trace = TapeTrace(lambda x, w: x * w, tf.constant(2.0), tf.Variable(3.0))
    kinds = [kind for kind, _ in trace.frames()]
    assert kinds == ["start", "forward", "forward", "seed", "backward", "backward", "done"]
    assert trace.forward_text(1).startswith("y = Mul(x, w.read) = 6")
    assert "watches: x, w" in frame_text(trace, 0)
    assert "newest first" in frame_text(trace, 3)
    assert frame_text(trace, 6).startswith("tape.gradient(y, [x, w]) = [3, 2]")
    d = trace.diagram(1)
    assert d.nodes["op0"]["bold"] and d.nodes["op1"]["dashed"]  # current, not yet run
    assert "grad 2" in trace.diagram(6).nodes["in1"]["label"]


# --- the view ----------------------------------------------------------------------------------
def test_view_controls():
    view = TapeStepper(lambda x, w: x * w + tf.sin(x), tf.constant(2.0), tf.Variable(3.0))
    last = len(view.trace.frames()) - 1
    assert view.slider.value == last and "tape.gradient" in view.text.value
    view.slider.value = 1
    assert "forward step 1/4" in view.text.value and "background:#ffd54f" in view.table.value
    picture = view.graph.value
    view.forward.click()
    assert view.frame == 2 and view.graph.value != picture
    view.back.click()
    assert view.frame == 1
    view.stop_boxes[0].value = True
    assert view.trace.gradients[0] is None and "tf.stop_gradient(x)" in view.code.value
    view.persistent.value = True
    assert "works" in view.text.value
    view.watch_boxes[1].value = False
    assert "watch_accessed_variables=False" in view.code.value


def test_view_without_dot_uses_the_fallback_layout(monkeypatch):
    monkeypatch.setattr(_render.shutil, "which", lambda name: None)
    view = TapeStepper(lambda x: x * x, tf.constant(2.0))
    assert escape(_render.NO_DOT_NOTICE) in view.graph.value
    assert "class=\"graph\"" not in view.graph.value
    bundle = view._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<svg")


def test_static_svg_is_deterministic():
    make = lambda: TapeStepper(lambda x: tf.exp(x) * x, tf.constant(1.0))  # noqa: E731
    assert make().static().svg == make().static().svg


def test_errors_in_the_function_are_shown():
    view = TapeStepper(lambda x: x * x, tf.constant(2.0))
    view._f = lambda x: x * tf.constant(1)  # int32 * float32: the engine refuses
    view.persistent.value = True
    assert "InvalidArgumentError" in view.error.value


def test_no_description_is_cut_short():
    from widgets._view import cut_descriptions
    assert cut_descriptions(TapeStepper(lambda x: x * x, tf.constant(2.0))) == []
