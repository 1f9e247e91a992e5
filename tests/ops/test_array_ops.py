"""Shape ops (reshape, transpose, stack, concat, tile, ...) and split, pad, reverse,
sequence_mask: values against NumPy, dtypes, gradients, TF's errors."""
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minitf as tf
from minitf.ops import array_ops, manipulation_ops
from gradcheck import check_grads
from strategies import arrays, small_shapes

P = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 10.0


# --- reshape, expand_dims, squeeze ----------------------------------------------------------
@pytest.mark.parametrize("shape", [[4, 6], [-1, 4], [2, -1, 2], [24], [1, 24, 1], [-1]])
def test_reshape_values(shape):
    got = tf.reshape(P, shape)
    np.testing.assert_array_equal(got.numpy(), P.reshape(shape))
    assert got.dtype == tf.float64


def test_reshape_accepts_tensors_and_tensorshapes_and_keeps_int_dtype():
    x = tf.range(6)
    assert tf.reshape(x, tf.constant([3, 2])).shape == [3, 2]
    assert tf.reshape(x, tf.TensorShape([2, 3])).dtype == tf.int32
    assert tf.reshape(tf.constant(5.0), [1, 1]).shape == [1, 1]
    assert tf.reshape(tf.zeros([1, 1]), []).shape == []


def test_expand_dims_and_squeeze():
    x = tf.zeros([2, 3])
    assert tf.expand_dims(x, 0).shape == [1, 2, 3]
    assert tf.expand_dims(x, -1).shape == [2, 3, 1]
    assert tf.expand_dims(x, [1]).shape == [2, 1, 3]
    assert tf.expand_dims(tf.constant(1), 0).shape == [1]
    y = tf.zeros([1, 2, 1, 3, 1])
    assert tf.squeeze(y).shape == [2, 3]
    assert tf.squeeze(y, [0, -1]).shape == [2, 1, 3]
    assert tf.squeeze(y, 2).shape == [1, 2, 3, 1]
    assert tf.squeeze(tf.zeros([1, 1]), [0, -2]).shape == [1]


@given(shape=small_shapes)
def test_reshape_expand_squeeze_gradients(shape):
    x = arrays(shape)
    check_grads(lambda t: tf.reshape(t, [-1]), x)
    check_grads(lambda t: tf.squeeze(tf.expand_dims(t, 0) * 2.0, [0]), x)


# --- transpose --------------------------------------------------------------------------------
def test_transpose_values():
    np.testing.assert_array_equal(tf.transpose(P).numpy(), P.T)
    np.testing.assert_array_equal(tf.transpose(P, [1, 2, 0]).numpy(), P.transpose(1, 2, 0))
    np.testing.assert_array_equal(tf.transpose(P, [-1, 0, 1]).numpy(), P.transpose(2, 0, 1))
    z = tf.constant([[1 + 2j]], tf.complex64)
    np.testing.assert_array_equal(tf.transpose(z, conjugate=True).numpy(), [[1 - 2j]])


@given(shape=small_shapes, data=st.data())
def test_transpose_gradient(shape, data):
    perm = data.draw(st.permutations(range(len(shape))))
    check_grads(lambda t: tf.transpose(t, perm), arrays(shape))


# --- stack, unstack, concat ----------------------------------------------------------------
def test_stack_unstack_concat_values():
    a, b = np.arange(6).reshape(2, 3), -np.arange(6).reshape(2, 3)
    for axis in (0, 1, 2, -1):
        np.testing.assert_array_equal(tf.stack([a, b], axis=axis).numpy(),
                                      np.stack([a, b], axis=axis))
    for axis in (0, 1, -1):
        parts = tf.unstack(tf.constant(a), axis=axis)
        assert len(parts) == a.shape[axis]
        np.testing.assert_array_equal(parts[0].numpy(), np.take(a, 0, axis=axis))
        np.testing.assert_array_equal(tf.concat([a, b, a], axis).numpy(),
                                      np.concatenate([a, b, a], axis))
    assert tf.stack([[1, 2], [3, 4]], axis=1).dtype == tf.int32
    assert tf.stack([]).dtype == tf.float32 and tf.stack([]).shape == [0]
    assert tf.stack([tf.constant(1.0), 2]).dtype == tf.float32
    assert tf.concat([tf.zeros([2]), [1, 2]], 0).dtype == tf.float32
    assert tf.unstack(tf.zeros([0, 2])) == []
    single = tf.constant([1.0])
    assert tf.concat([single], 0) is single


@given(shape=small_shapes, data=st.data())
def test_stack_unstack_concat_gradients(shape, data):
    x, y = arrays(shape), arrays(shape, seed=1)
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    check_grads(lambda s, t: tf.stack([s, 2.0 * t, s], axis=axis), x, y)
    if shape:
        k = data.draw(st.integers(0, len(shape) - 1))
        check_grads(lambda s, t: tf.concat([s, t, s], axis=k), x, y)
        check_grads(lambda s: tf.unstack(s, axis=k)[-1] * 3.0, x)


# --- tile, broadcast_to -----------------------------------------------------------------------
def test_tile_and_broadcast_to_values():
    x = np.array([[1, 2]])
    np.testing.assert_array_equal(tf.tile(x, [2, 3]).numpy(), np.tile(x, [2, 3]))
    assert tf.tile(x, [0, 1]).shape == [0, 2]
    np.testing.assert_array_equal(tf.broadcast_to(x, [3, 2]).numpy(), np.broadcast_to(x, [3, 2]))
    np.testing.assert_array_equal(tf.broadcast_to(5, [2]).numpy(), [5, 5])


@given(shape=small_shapes, data=st.data())
def test_tile_and_broadcast_to_gradients(shape, data):
    multiples = data.draw(st.lists(st.integers(1, 3), min_size=len(shape), max_size=len(shape)))
    check_grads(lambda t: tf.tile(t, multiples), arrays(shape))
    target = [data.draw(st.integers(1, 3))] + [d if d != 1 else data.draw(st.integers(1, 3))
                                               for d in shape]
    check_grads(lambda t: tf.broadcast_to(t, target), arrays(shape))


@pytest.mark.parametrize("f", [
    lambda x: tf.reshape(x, [4, -1]) ** 3,
    lambda x: tf.transpose(x, [2, 0, 1]) ** 3,
    lambda x: tf.stack([x, x * x], axis=1),
    lambda x: tf.unstack(x ** 3, axis=2)[1],
    lambda x: tf.concat([x ** 2, x[:, :1]], axis=1),
    lambda x: tf.tile(x, [1, 2, 1]) ** 3,
    lambda x: tf.broadcast_to(x[:, :1], [3, 2, 3, 4]) ** 2,
    lambda x: tf.squeeze(tf.expand_dims(x, 1) ** 3, [1]),
])
def test_second_order_of_shape_ops(f):
    check_grads(f, P, order=2)


# --- one_hot, shape, rank, size ---------------------------------------------------------------
def test_one_hot():
    got = tf.one_hot([0, 2, -1, 5], 3)
    assert got.dtype == tf.float32
    np.testing.assert_array_equal(got.numpy(), [[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]])
    np.testing.assert_array_equal(tf.one_hot([0, 1], 3, axis=0).numpy(), [[1, 0], [0, 1], [0, 0]])
    ints = tf.one_hot([0, 5, -1], 3, on_value=5, off_value=-1)
    assert ints.dtype == tf.int32
    np.testing.assert_array_equal(ints.numpy(), [[5, -1, -1], [-1, -1, -1], [-1, -1, -1]])
    assert tf.one_hot([0, 1], 3, off_value=2).dtype == tf.int32
    assert tf.one_hot([[0]], 2, dtype=tf.float64).shape == [1, 1, 2]
    assert tf.one_hot(tf.constant([0, 1], tf.uint8), 3).dtype == tf.float32


def test_one_hot_has_no_gradient():
    on = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(on)
        y = tf.one_hot([0, 1], 2, on_value=on, off_value=0.0)
    assert tape.gradient(y, on) is None


def test_shape_rank_size():
    x = tf.zeros([2, 3])
    assert tf.shape(x).dtype == tf.int32 and tf.shape(x).numpy().tolist() == [2, 3]
    assert tf.shape(x, out_type=tf.int64).dtype == tf.int64
    assert int(tf.rank(x)) == 2 and int(tf.rank(5)) == 0
    assert int(tf.size(x)) == 6 and tf.size(x, out_type=tf.float32).dtype == tf.float32


# --- split --------------------------------------------------------------------------------------
def test_split_values():
    parts = tf.split(P, 2)
    assert [p.shape for p in parts] == [[1, 3, 4]] * 2
    parts = tf.split(P, [1, -1, 1], axis=2)
    assert [p.shape.as_list() for p in parts] == [[2, 3, 1], [2, 3, 2], [2, 3, 1]]
    np.testing.assert_array_equal(parts[1].numpy(), P[:, :, 1:3])
    assert [p.shape[0] for p in tf.split(tf.zeros([6, 2]), [0, -1])] == [0, 6]
    assert len(tf.split(tf.zeros([6, 2]), tf.constant([3, 3], tf.int64))) == 2
    assert len(tf.split(tf.zeros([6, 2]), np.int64(3), axis=-2)) == 3
    assert tf.split(tf.range(4), 2)[0].dtype == tf.int32


def test_split_gradient():
    check_grads(lambda x: tf.split(x, [1, -1, 1], axis=2)[1] ** 2, P, order=2)
    check_grads(lambda x: tf.concat(tf.split(x, 3, axis=1)[::-1], axis=1), P)


# --- pad --------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC", "reflect"])
def test_pad_matches_numpy(mode):
    paddings = [[1, 0], [2, 1], [3, 2]]
    np_mode = {"CONSTANT": "constant", "REFLECT": "reflect"}.get(mode.upper(), "symmetric")
    got = tf.pad(P, paddings, mode=mode)
    np.testing.assert_array_equal(got.numpy(), np.pad(P, paddings, mode=np_mode))


def test_pad_constant_values_and_dtypes():
    got = tf.pad(tf.constant([1.0, 2.0]), [[1, 1]], constant_values=1.5)
    np.testing.assert_array_equal(got.numpy(), [1.5, 1, 2, 1.5])
    np.testing.assert_array_equal(tf.pad([[1, 2]], [[1, 0], [0, 1]]).numpy(),
                                  [[0, 0, 0], [1, 2, 0]])
    assert tf.pad(tf.constant([1, 2]), [[1, 1]], constant_values=7).dtype == tf.int32
    np.testing.assert_array_equal(tf.pad(tf.constant(["a"]), [[1, 1]]).numpy(), [b"", b"a", b""])
    assert tf.pad(tf.constant(1.0), tf.zeros([0, 2], tf.int32)).shape == []
    np.testing.assert_array_equal(tf.pad([1, 2, 3], [[2, 2]], mode="REFLECT").numpy(),
                                  [3, 2, 1, 2, 3, 2, 1])


@pytest.mark.parametrize("mode, paddings", [
    ("CONSTANT", [[1, 0], [0, 2], [1, 1]]), ("REFLECT", [[1, 1], [2, 1], [3, 3]]),
    ("SYMMETRIC", [[2, 1], [3, 0], [4, 2]]), ("SYMMETRIC", [[0, 0], [1, 1], [0, 0]])])
def test_pad_gradients(mode, paddings):
    check_grads(lambda x: tf.pad(x, paddings, mode=mode), P)
    check_grads(lambda x: tf.pad(x, paddings, mode=mode) ** 2, P, order=2)


def test_pad_constant_values_gets_no_gradient():
    c = tf.constant(3.0)
    x = tf.constant([1.0])
    with tf.GradientTape() as tape:
        tape.watch([c, x])
        y = tf.pad(x, [[1, 1]], constant_values=c)
    dx, dc = tape.gradient(y, [x, c])
    assert dc is None and dx.numpy().tolist() == [1.0]


# --- reverse, sequence_mask ----------------------------------------------------------------
def test_reverse():
    np.testing.assert_array_equal(tf.reverse(P, [0, -1]).numpy(), P[::-1, :, ::-1])
    np.testing.assert_array_equal(tf.reverse(P, []).numpy(), P)
    assert tf.reverse(tf.constant(3.0), []).numpy() == 3.0
    check_grads(lambda x: tf.reverse(x, [1]) ** 2, P, order=2)


def test_sequence_mask():
    np.testing.assert_array_equal(tf.sequence_mask([1, 3], 4).numpy(),
                                  [[True, False, False, False], [True, True, True, False]])
    got = tf.sequence_mask([[1, 3]])  # maxlen defaults to max(lengths)
    assert got.shape == [1, 2, 3] and got.dtype == tf.bool
    flt = tf.sequence_mask([1, 3], 2, dtype=tf.float32)
    assert flt.dtype == tf.float32 and flt.numpy().tolist() == [[1, 0], [1, 1]]
    assert tf.sequence_mask([1, 3], 2.5).shape == [2, 3]
    assert tf.sequence_mask([-1, -1]).shape == [2, 0]
    np.testing.assert_array_equal(tf.sequence_mask(3, 4).numpy(), [True, True, True, False])


# --- shape rules with unknown dims ------------------------------------------------------------
def test_shape_rules_tolerate_unknown_dims():
    s = tf.TensorShape
    assert array_ops.Reshape.shape(s([None, 3]), shape=(-1, 3)).as_list() == [None, 3]
    assert array_ops.Transpose.shape(s([None, 3]), perm=(1, 0)).as_list() == [3, None]
    assert array_ops.Pack.shape(s([None, 3]), s([2, 3]), axis=0).as_list() == [2, None, 3]
    assert array_ops.ConcatV2.shape(s([None, 3]), s([2, 3]), axis=0).as_list() == [None, 3]
    assert array_ops.Tile.shape(s([None, 3]), multiples=(2, 2)).as_list() == [None, 6]
    assert manipulation_ops.SplitV.shape(s([None, 6]), size_splits=(2, 4), axis=1)[1].as_list() \
        == [None, 4]
    assert manipulation_ops.MirrorPad.shape(s([None, 3]), paddings=((1, 1), (2, 2)),
                                            mode="REFLECT").as_list() == [None, 7]


# --- errors --------------------------------------------------------------------------------
E = tf.errors.InvalidArgumentError
Z = tf.zeros([2, 3])
ERRORS = [
    (lambda: tf.reshape(Z, [2, 4]), E,
     "Input to reshape is a tensor with 6 values, but the requested shape has 8"),
    (lambda: tf.reshape(Z, [-1, 4]), E,
     "Input to reshape is a tensor with 6 values, but the requested shape requires a multiple "
     "of 4"),
    (lambda: tf.reshape(Z, [-1, -1]), E, "Only one input size may be -1, not both 0 and 1"),
    (lambda: tf.reshape(Z, [-2, 3]), E, "Size 0 must be non-negative, not -2"),
    (lambda: tf.reshape(Z, [1.0, 6.0]), E,
     "Value for attr 'Tshape' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.expand_dims(Z, 4), E, "Tried to expand dim index 4 for tensor with 2 dimensions."),
    (lambda: tf.expand_dims(Z, -4), E,
     "Tried to expand dim index -4 for tensor with 2 dimensions."),
    (lambda: tf.expand_dims(tf.zeros([2]), [1, 2]), E,
     "'dim' must be a tensor with a single value"),
    (lambda: tf.squeeze(tf.zeros([2, 1]), 0), E,
     "Can not squeeze dim[0], expected a dimension of 1, got 2"),
    (lambda: tf.squeeze(tf.zeros([2, 1]), 2), E,
     "Tried to squeeze dim index 2 for tensor with 2 dimensions."),
    (lambda: tf.transpose(Z, [0, 0]), E, "1 is missing from {0,0}."),
    (lambda: tf.transpose(tf.zeros([2, 3, 4]), [0, -3, 2]), E, "1 is missing from {0,0,2}."),
    (lambda: tf.transpose(Z, [0, 2]), E, "2 is out of range [0 .. 2)"),
    (lambda: tf.transpose(Z, [-3, 0]), E, "-1 is out of range [0 .. 2)"),
    (lambda: tf.transpose(Z, [0, 1, 2]), E,
     "transpose expects a vector of size 2. But input(1) is a vector of size 3"),
    (lambda: tf.transpose(Z, [0.0, 1.0]), E,
     "Value for attr 'Tperm' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.concat([Z, tf.zeros([3, 2])], 0), E,
     "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [2,3] vs. shape[1] = [3,2]"),
    (lambda: tf.concat([Z, tf.zeros([3])], 0), E,
     "ConcatOp : Ranks of all input tensors should match: shape[0] = [2,3] vs. shape[1] = [3]"),
    (lambda: tf.concat([Z, Z], 2), E,
     "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got 2"),
    (lambda: tf.concat([tf.constant(1.0), tf.constant(2.0)], 0), E,
     "ConcatOp : Can't concatenate scalars (use tf.stack instead)"),
    (lambda: tf.concat([tf.constant([1.0]), tf.constant([2.0], tf.float64)], 0), E,
     "cannot compute ConcatV2 as input #1(zero-based) was expected to be a float tensor but is "
     "a double tensor"),
    (lambda: tf.stack([Z, tf.zeros([3, 2])]), E,
     "Shapes of all inputs must match: values[0].shape = [2,3] != values[1].shape = [3,2]"),
    (lambda: tf.stack([Z, Z], axis=3), ValueError, "Argument `axis` = 3 not in range [-3, 3)"),
    (lambda: tf.stack([tf.constant(1.0), tf.constant(2.0, tf.float64)]), E,
     "cannot compute Pack as input #1(zero-based) was expected to be a float tensor but is a "
     "double tensor"),
    (lambda: tf.unstack(Z, num=3), E, "Input shape axis 0 must equal 3, got shape [2,3]"),
    (lambda: tf.unstack(Z, num=2, axis=2), E, "axis = 2 not in [-2, 2)"),
    (lambda: tf.unstack(Z, axis=2), ValueError, "Argument `axis` = 2 not in range [-2, 2)"),
    (lambda: tf.unstack(tf.constant(1.0)), ValueError, "Argument `axis` = 0 not in range [0, 0)"),
    (lambda: tf.tile(Z, [1]), E,
     "Expected multiples argument to be a vector of length 2 but got length 1"),
    (lambda: tf.tile(Z, [1, -1]), E, "Expected multiples[1] >= 0, but got -1"),
    (lambda: tf.tile(Z, [1.0, 2.0]), E,
     "Value for attr 'Tmultiples' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.broadcast_to(Z, [3, 3]), E, "Incompatible shapes: [2,3] vs. [3,3]"),
    (lambda: tf.broadcast_to(np.ones([3, 1]), [2, 1, 1]), E,
     "Unable to broadcast tensor of shape [3,1] to tensor of shape [2,1,1]"),
    (lambda: tf.broadcast_to(Z, [3]), E,
     "Rank of input (2) must be no greater than rank of output shape (1)."),
    (lambda: tf.broadcast_to(tf.zeros([3]), [2, -1]), E, "Dimension -1 must be >= 0"),
    (lambda: tf.one_hot([0.0, 1.0], 3), E,
     "Value for attr 'TI' of float is not in the list of allowed values: uint8, int8, int32, "
     "int64"),
    (lambda: tf.one_hot([0, 1], 3, axis=3), E,
     "Expected axis to be -1 or between [0, 2).  But received: 3"),
    (lambda: tf.one_hot([0, 1], 3, dtype=tf.int32, on_value=1.0), TypeError,
     "dtype <dtype: 'float32'> of on_value does not match dtype parameter <dtype: 'int32'>"),
    (lambda: tf.one_hot([0, 1], 3, on_value=1.0, off_value=0), TypeError,
     "dtype <dtype: 'float32'> of on_value does not match dtype <dtype: 'int32'> of off_value"),
    (lambda: tf.split(tf.zeros([5]), 2), E,
     "Number of ways to split should evenly divide the split dimension, but got split_dim 0 "
     "(size = 5) and num_split 2"),
    (lambda: tf.split(tf.zeros([5]), [2, 2]), E,
     "Determined shape must either match input shape along split_dim exactly if fully "
     "specified, or be less than the size of the input along split_dim if not fully specified."
     "  Got: 4"),
    (lambda: tf.split(tf.zeros([5]), [6, -1]), E, "if not fully specified.  Got: 6"),
    (lambda: tf.split(tf.zeros([5]), [2, -1, -1]), E, "There can only be one -1 in the input."),
    (lambda: tf.split(tf.zeros([6]), [7, -2, -1]), E, "Split size at index 1 must be >= 0. Got: -2"),
    (lambda: tf.split(tf.zeros([5]), [3]), E, "If there is only one output, it must have the "
                                              "same size as the input. Input size: 5 output size: 3"),
    (lambda: tf.split(tf.zeros([5, 2]), 2, axis=2), E,
     "-input rank(-2) <= split_dim < input rank (2), but got 2"),
    (lambda: tf.split(tf.zeros([5]), 0), E, "Value for attr 'num_split' of 0 must be at least "
                                            "minimum 1"),
    (lambda: tf.split(tf.zeros([5]), [3, -1], num=3), E,
     "size of the split_tensor must be 1-D and have the same elements as outputs got 1 -D and "
     "2 elements"),
    (lambda: tf.split(tf.zeros([5]), [1.5, 3.5]), E,
     "Value for attr 'Tlen' of float is not in the list of allowed values: int8, int32, int64"),
    (lambda: tf.split(tf.zeros([6]), 2.0), ValueError,
     "Rank-0 tensors are not supported as the num_or_size_splits argument to split. Argument "
     "provided: 2.0"),
    (lambda: tf.split(tf.zeros([6]), tf.constant(3)), ValueError,
     "Argument provided: tf.Tensor(3, shape=(), dtype=int32)"),
    (lambda: tf.pad(Z, [[1, 1]]), E,
     "The first dimension of paddings must be the rank of inputs[1,2] [2,3]"),
    (lambda: tf.pad(Z, [[-1, 1], [2, 2]]), E, "Paddings must be non-negative: -1 1"),
    (lambda: tf.pad(Z, [1, 1]), E, "paddings must be a matrix with 2 columns: [2]"),
    (lambda: tf.pad(Z, [[1.0, 1], [1, 1]]), E,
     "Value for attr 'Tpaddings' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.pad(Z, [[2, 1], [2, 2]], mode="REFLECT"), E,
     "paddings must be less than the dimension size: 2, 1 not less than 2"),
    (lambda: tf.pad(Z, [[3, 1], [2, 2]], mode="SYMMETRIC"), E,
     "paddings must be no greater than the dimension size: 3, 1 greater than 2"),
    (lambda: tf.pad(Z, [[1, -1], [2, 2]], mode="REFLECT"), E,
     "paddings must be non-negative: 1 -1"),
    (lambda: tf.pad(Z, [[1, 1], [2, 2]], mode="bogus"), ValueError,
     'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
     'Received `mode` = BOGUS'),
    (lambda: tf.pad(Z, [[1, 1], [2, 2]], constant_values=tf.constant(2, tf.float64)), E,
     "cannot compute PadV2 as input #2(zero-based) was expected to be a float tensor but is a "
     "double tensor"),
    (lambda: tf.pad(tf.zeros([2, 3], tf.int32), [[1, 1], [2, 2]], constant_values=1.5),
     TypeError, "Cannot convert 1.5 to EagerTensor of dtype int32"),
    (lambda: tf.reverse(Z, [2]), E, "'axis'[0] = 2 is out of valid range [0, 1"),
    (lambda: tf.reverse(Z, [0, -2]), E, "axis 0 specified more than once."),
    (lambda: tf.reverse(Z, 1), E, "'dims' must be 1-dimension, not 0"),
    (lambda: tf.reverse(Z, [0.0]), E,
     "Value for attr 'Tidx' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.sequence_mask([1, 3], [2]), ValueError,
     "Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = [2] with shape "
     "'(1,)' instead"),
    (lambda: tf.sequence_mask([1, 3], -1), E, "Requires start <= limit when delta > 0: 0/-1"),
    # issue 18: each was accepted (a wrong shape) before; graph mode in test_bad_inputs_18.py
    (lambda: tf.one_hot([1, 0], depth=-1), E, "depth must be non-negative, got: -1"),
    (lambda: tf.ones([2.5]), TypeError, "Cannot convert [2.5] to EagerTensor of dtype int32"),
    (lambda: tf.zeros(2.5), TypeError, "Cannot convert 2.5 to EagerTensor of dtype int32"),
    (lambda: tf.fill([2.5], 1), E,
     "Value for attr 'index_type' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.reshape(tf.zeros([6]), [[2, 3]]), E, "sizes input must be 1-D, not [1,2]"),
]


@pytest.mark.parametrize("make, cls, message", ERRORS)
def test_errors(make, cls, message):
    with pytest.raises(cls, match=re.escape(message)):
        make()


def test_errors_name_op_and_teach():
    with pytest.raises(E) as info:
        tf.reshape(Z, [2, 4])
    assert "[Op:Reshape]" in str(info.value) and "exactly as many" in str(info.value)
