"""Memory layout: buffers, strides and the reshape / transpose permutation, against NumPy."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitf as tf
from widgets.layout import (
    LayoutChange,
    MemoryLayout,
    MemoryLayoutExplorer,
    layout_svg,
    reshape_targets,
    selection_text,
)

shapes = st.lists(st.integers(1, 4), min_size=0, max_size=4).map(tuple)


def source(shape, dtype=np.int32):
    values = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape) * 3 + 1
    return tf.constant(values), values


@settings(max_examples=60, deadline=None)
@given(shapes, st.sampled_from([np.int32, np.float32, np.float64, np.int64]))
def test_buffer_and_strides_are_numpys_row_major_ones(shape, dtype):
    x, values = source(shape, dtype)
    m = MemoryLayout(x)
    np.testing.assert_array_equal(m.flat, values.ravel(order="C"))
    assert m.shape == shape and m.itemsize == values.itemsize
    if values.size > 1:
        assert m.byte_strides == values.strides
    for index in itertools.product(*[range(d) for d in shape]):
        position = m.flat_index(index)
        assert position == np.ravel_multi_index(index, shape) if shape else position == 0
        assert m.multi_index(position) == tuple(index)
        assert m.flat[position] == values[index]


@st.composite
def reshapes(draw):
    shape = draw(shapes)
    size = int(np.prod(shape))
    target = draw(st.sampled_from(reshape_targets(size)))
    return shape, target


@settings(max_examples=60, deadline=None)
@given(reshapes())
def test_reshape_keeps_the_flat_order(case):
    shape, target = case
    x, values = source(shape)
    change = LayoutChange(x, "reshape", target)
    assert change.result.shape == target and change.keeps_order()
    np.testing.assert_array_equal(change.result.flat, change.source.flat)
    np.testing.assert_array_equal(change.result.values, values.reshape(target))
    assert "keeps the buffer" in change.describe()


@st.composite
def transposes(draw):
    shape = draw(shapes)
    perm = draw(st.permutations(range(len(shape))))
    return shape, tuple(perm)


@settings(max_examples=80, deadline=None)
@given(transposes())
def test_transpose_element_i_is_the_source_at_the_computed_index(case):
    shape, perm = case
    x, values = source(shape)
    change = LayoutChange(x, "transpose", perm)
    expected = np.transpose(values, perm)
    np.testing.assert_array_equal(change.result.values, expected)
    for i in range(change.result.size):
        assert change.result.flat[i] == change.source.flat[change.source_index[i]]
    # the permutation is a real permutation of the source buffer
    assert sorted(change.source_index.tolist()) == list(range(values.size))
    # NumPy's no-copy transpose reads the source buffer with exactly these strides
    view = np.transpose(values, perm)
    if values.size > 1 and all(d > 1 for d in shape):
        assert change.strided_view_strides() == tuple(s // values.itemsize
                                                      for s in view.strides)
    # the values are distinct, so "same order" means the buffers are equal
    assert change.keeps_order() == bool(np.array_equal(expected.ravel(), values.ravel()))


def test_transpose_of_a_matrix_reads_down_the_columns():
    change = LayoutChange(tf.reshape(tf.range(6), [2, 3]), "transpose")
    assert change.argument == (1, 0)
    assert change.source_index.tolist() == [0, 3, 1, 4, 2, 5]
    assert change.strided_view_strides() == (1, 3) and change.result.strides == (2, 1)
    assert not change.keeps_order() and "writes a new buffer" in change.describe()
    assert selection_text(change, 1) == (
        "result[0, 1]: position 0*2 + 1*1 = 1 of the result's buffer; it is x[1, 0], "
        "position 1*3 + 0*1 = 3 of x's buffer (value 3).")


def test_bad_input_is_refused_with_tfs_errors():
    x = tf.reshape(tf.range(6), [2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError):
        LayoutChange(x, "reshape", (4, 2))
    with pytest.raises(ValueError, match="reshape' or 'transpose"):
        LayoutChange(x, "flip", None)
    with pytest.raises(IndexError, match="not inside shape"):
        MemoryLayout(x).flat_index((2, 0))
    with pytest.raises(ValueError, match="too many"):
        MemoryLayoutExplorer((7, 8))


def test_reshape_targets_are_every_shape_with_that_size():
    targets = reshape_targets(12)
    assert (3, 4) in targets and (2, 2, 3) in targets and (12,) in targets
    assert all(int(np.prod(t)) == 12 for t in targets) and len(set(targets)) == len(targets)
    assert (5, 2) not in targets


# --- the view ----------------------------------------------------------------------------------
def test_view_controls_run_the_ops_and_outline_the_selection():
    view = MemoryLayoutExplorer((2, 3))
    assert view.change.op == "reshape" and view.change.keeps_order()
    view.op_buttons.value = "transpose"
    assert view.change.op == "transpose" and view.change.argument == (1, 0)
    assert view.shape_choice.layout.display == "none" and view.perm_choice.layout.display == ""
    view.element.value = 1
    assert "it is x[1, 0]" in view.text.value
    svg = view.picture.value
    assert svg.startswith("<svg") and svg.count('stroke-width="3"') == 4  # outlined 4 times
    assert view.static().svg == svg and "writes a new buffer" in view.static().text
    view.op_buttons.value = "reshape"
    view.shape_choice.value = (3, 2)
    assert view.change.result.shape == (3, 2) and view.error.value == ""


def test_view_errors_are_shown_not_swallowed():
    view = MemoryLayoutExplorer(tf.constant([[1.5, 2.5], [3.5, 4.5]]), "transpose", (1, 0))
    assert "3.5" in view.picture.value
    view.element.value = 3
    view.shape_choice.options = [("bad", (3, 3))]  # a shape with the wrong size
    view.op_buttons.value = "reshape"
    assert "InvalidArgumentError" in view.error.value


def test_picture_colours_follow_the_elements():
    change = LayoutChange(tf.reshape(tf.range(4), [2, 2]), "transpose", (1, 0))
    svg = layout_svg(change, 0)
    fills = [part.split('"')[0] for part in svg.split('fill="hsl(')[1:]]
    # 4 cells each in x's grid, x's buffer, the result's buffer and the result's grid
    assert len(fills) == 16
    x_buffer, result_buffer = fills[4:8], fills[8:12]
    assert result_buffer == [x_buffer[i] for i in change.source_index]
