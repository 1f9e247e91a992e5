"""Each op's dtype and shape rules predict what eager execution produces.

Graph tracing (tf.function) never runs an op: it asks `op.output_dtypes(...)`
and `op.shape(...)`. These tests call the public functions eagerly, record
every `apply` they make (inputs, attributes, outputs), and check that the
rules, given those inputs and attributes, predict the outputs exactly. Each
case also names the dtype(s) TensorFlow 2.21 gives, so a rule and a forward
that are wrong in the same way still fail.

This does not use the forward wrapper in conftest.py: it checks the tensors
`apply` returned, for a table of calls chosen to cover every op family and
every op whose output dtype is not simply its first input's.
"""
import collections
import gc
import io
import sys

import numpy as np
import pytest

import minitf as tf
from minitf.framework import dtypes, errors, gradient_ops, op as op_module, variables
from minitf.framework.op import Op
from minitf.ops import (array_ops, clip_ops, conv_ops, creation_ops, depthwise_conv_ops,
                        einsum_ops, gather_ops, linalg_decompositions, linalg_ops,
                        linalg_solve_ops, logging_ops, manipulation_ops, math_ops,
                        matrix_diag_ops, nn_layer_ops, nn_losses, nn_ops, pool_ops, random_ops,
                        reduction_ops, scan_ops, scatter_ops, slicing_ops, sort_ops, unary_ops)
from minitf.ops.shape_rules import same_shape
from minitf.ops import (random_distribution_ops, random_stateless_ops, random_truncated_ops,
                        stateful_random_ops)

# How many True entries, distinct values or segments there are is known only at run time.
DATA_DEPENDENT = {"Where", "Unique", "SegmentSum"}

Call = collections.namedtuple("Call", "op inputs attrs outputs")


@pytest.fixture
def applied(monkeypatch):
    """Every `apply` made while the test runs, recorded as a `Call`."""
    real_apply = op_module.apply
    calls = []

    def recording_apply(op, inputs, attrs=None):
        result = real_apply(op, inputs, attrs)
        outputs = result if op.num_outputs != 1 else (result,)
        calls.append(Call(op, list(inputs), dict(attrs or {}), tuple(outputs)))
        return result

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("minitf") and \
                getattr(module, "apply", None) is real_apply:
            monkeypatch.setattr(module, "apply", recording_apply)
    return calls


def check_rules(call):
    """The op's rules, asked with the call's input dtypes/shapes and attributes, predict
    the dtypes and shapes of the tensors it returned."""
    op, inputs, attrs, outputs = call
    produced = tuple(t.dtype for t in outputs)
    predicted = op.output_dtypes([t.dtype for t in inputs], attrs, len(outputs))
    assert all(isinstance(d, dtypes.DType) for d in predicted), f"{op.name}: {predicted}"
    assert predicted == produced, f"{op.name}: dtype rule says {predicted}, eager gave {produced}"
    shapes = op.shape(*[t.shape for t in inputs], **attrs)
    shapes = shapes if isinstance(shapes, tuple) else (shapes,)
    got = tuple(t.shape for t in outputs)
    assert len(shapes) == len(got), f"{op.name}: {len(shapes)} shapes for {len(got)} outputs"
    for rule, actual in zip(shapes, got):
        if op.name in DATA_DEPENDENT:
            assert rule.is_compatible_with(actual), f"{op.name}: {rule} vs {actual}"
        else:
            assert rule == actual, f"{op.name}: shape rule says {rule}, eager gave {actual}"


# --- inputs (made when a case runs) ------------------------------------------------------------
def f32():
    return tf.constant([[1.0, 2.0], [3.0, 4.0]])


def f64():
    return tf.constant([[2.0, 1.0], [1.0, 2.0]], tf.float64)  # symmetric positive definite


def f16():
    return tf.constant([0.5, -1.5], tf.float16)


def i32():
    return tf.constant([[3, 1], [2, 4]])


def i64():
    return tf.constant([5, 1, 5], tf.int64)


def u8():
    return tf.constant([1, 6], tf.uint8)


def c64():
    return tf.constant([[2 + 0j, 1j], [-1j, 2 + 0j]], tf.complex64)  # Hermitian


def c128():
    return tf.constant([3 + 4j, -1j], tf.complex128)


def text():
    return tf.constant(["a", "b"])


def flags():
    return tf.constant([True, False])


def image():
    return tf.reshape(tf.range(16.0), [1, 4, 4, 1])


def case(op, call, *expected):
    """One row: calling `call()` applies `op`, whose outputs TF gives these dtypes."""
    return op, call, expected


F32, F64, F16, I32, I64, C64 = tf.float32, tf.float64, tf.float16, tf.int32, tf.int64, tf.complex64
ROWS = [
    # framework/gradient_ops.py: the three ops the tape itself uses
    case(gradient_ops.AddN, lambda: tf.add_n([f32(), f32()]), F32),
    case(gradient_ops.OnesLike, lambda: tf.ones_like(i32()), I32),
    case(gradient_ops.ZerosLike, lambda: tf.zeros_like(c64()), C64),
    # math_ops.py: arithmetic keeps the dtype; comparisons give bool
    case(math_ops.AddV2, lambda: tf.add(f32(), f32()), F32),
    case(math_ops.StringAdd, lambda: tf.add(text(), text()), tf.string),
    case(math_ops.Sub, lambda: tf.subtract(i64(), i64()), I64),
    case(math_ops.Mul, lambda: f16() * f16(), F16),
    case(math_ops.RealDiv, lambda: i32() / i32(), F64),  # integer true division runs on float64
    case(math_ops.FloorDiv, lambda: i32() // i32(), I32),
    case(math_ops.FloorMod, lambda: f64() % f64(), F64),
    case(math_ops.Pow, lambda: tf.pow(i32(), i32()), I32),
    case(math_ops.Maximum, lambda: tf.maximum(u8(), u8()), tf.uint8),
    case(math_ops.SquaredDifference, lambda: tf.math.squared_difference(f32(), f32()), F32),
    case(math_ops.Equal, lambda: tf.equal(text(), text()), tf.bool),
    case(math_ops.Equal, lambda: tf.equal(c64(), c64()), tf.bool),
    case(math_ops.NotEqual, lambda: tf.not_equal(i32(), 1), tf.bool),
    case(math_ops.Less, lambda: tf.less(f16(), f16()), tf.bool),
    case(math_ops.LessEqual, lambda: tf.less_equal(i64(), 2), tf.bool),
    case(math_ops.Greater, lambda: f32() > 2.0, tf.bool),
    case(math_ops.GreaterEqual, lambda: tf.greater_equal(u8(), u8()), tf.bool),
    case(math_ops.LogicalAnd, lambda: tf.logical_and(flags(), flags()), tf.bool),
    case(math_ops.LogicalOr, lambda: tf.logical_or(flags(), flags()), tf.bool),
    case(math_ops.LogicalNot, lambda: tf.logical_not(flags()), tf.bool),
    case(math_ops.SelectV2, lambda: tf.where(flags(), tf.constant([1.0, 2.0], F64), 0.0), F64),
    case(math_ops.Neg, lambda: -i64(), I64),
    case(math_ops.Log, lambda: tf.math.log(c128()), tf.complex128),
    case(math_ops.Conj, lambda: tf.math.conj(c64()), C64),
    case(math_ops.Sign, lambda: tf.sign(f64()), F64),
    case(math_ops.Cast, lambda: tf.cast(f32(), tf.int8), tf.int8),
    case(math_ops.Cast, lambda: tf.cast(c64(), tf.float64), F64),
    case(math_ops.Cast, lambda: tf.cast(i32(), tf.bool), tf.bool),
    case(math_ops.Cast, lambda: tf.cast(flags(), tf.complex128), tf.complex128),
    case(math_ops.Abs, lambda: tf.abs(i32()), I32),
    case(math_ops.ComplexAbs, lambda: tf.abs(c128()), F64),
    case(math_ops.ComplexAbs, lambda: tf.abs(c64()), F32),
    case(math_ops.BitwiseAnd, lambda: tf.bitwise.bitwise_and(u8(), u8()), tf.uint8),
    case(math_ops.BitwiseOr, lambda: tf.bitwise.bitwise_or(i64(), i64()), I64),
    case(math_ops.BitwiseXor, lambda: tf.bitwise.bitwise_xor(i32(), i32()), I32),
    case(math_ops.Invert, lambda: tf.bitwise.invert(u8()), tf.uint8),
    # unary_ops.py
    case(unary_ops.Sqrt, lambda: tf.sqrt(f64()), F64),
    case(unary_ops.Exp, lambda: tf.exp(f16()), F16),
    case(unary_ops.Sigmoid, lambda: tf.sigmoid(c64()), C64),
    case(unary_ops.Erf, lambda: tf.math.erf(f32()), F32),
    case(unary_ops.Round, lambda: tf.round(f64()), F64),
    case(unary_ops.Floor, lambda: tf.floor(f16()), F16),
    case(unary_ops.Reciprocal, lambda: tf.math.reciprocal(f64()), F64),
    case(unary_ops.IsNan, lambda: tf.math.is_nan(f64()), tf.bool),
    case(unary_ops.IsInf, lambda: tf.math.is_inf(f16()), tf.bool),
    case(unary_ops.IsFinite, lambda: tf.math.is_finite(f32()), tf.bool),
    # reduction_ops.py and scan_ops.py
    case(reduction_ops.Sum, lambda: tf.reduce_sum(i32(), axis=0), I32),
    case(reduction_ops.Mean, lambda: tf.reduce_mean(f64(), axis=1, keepdims=True), F64),
    case(reduction_ops.Max, lambda: tf.reduce_max(u8()), tf.uint8),
    case(reduction_ops.Prod, lambda: tf.reduce_prod(c64(), axis=0), C64),
    case(reduction_ops.All, lambda: tf.reduce_all(flags()), tf.bool),
    case(reduction_ops.Any, lambda: tf.reduce_any(flags()), tf.bool),
    case(reduction_ops.EuclideanNorm, lambda: tf.math.reduce_euclidean_norm(c64()), C64),
    case(reduction_ops.ReduceLogSumExp, lambda: tf.math.reduce_logsumexp(f64(), axis=0), F64),
    case(reduction_ops.Real, lambda: tf.math.reduce_variance(c64()), F32),  # Var of complex is real
    case(scan_ops.Cumsum, lambda: tf.math.cumsum(i64(), exclusive=True), I64),
    case(scan_ops.Cumprod, lambda: tf.math.cumprod(f32(), axis=1, reverse=True), F32),
    # sort_ops.py: positions are integers whatever the values are
    case(sort_ops.ArgMax, lambda: tf.argmax(f32()), I64),
    case(sort_ops.ArgMax, lambda: tf.argmax(f16(), output_type=tf.int32), I32),
    case(sort_ops.ArgMin, lambda: tf.argmin(i32(), axis=1), I64),
    case(sort_ops.Sort, lambda: tf.sort(f64(), direction="DESCENDING"), F64, I32),
    case(sort_ops.Sort, lambda: tf.argsort(i64()), I64, I32),
    case(sort_ops.TopKV2, lambda: tf.math.top_k(f32(), k=1), F32, I32),
    case(sort_ops.TopKV2, lambda: tf.math.top_k(i64(), k=2, index_type=tf.int64), I64, I64),
    case(sort_ops.Unique, lambda: tf.unique(i64()), I64, I32),
    case(sort_ops.Unique, lambda: tf.unique(text(), out_idx=tf.int64), tf.string, I64),
    # gather_ops.py and scatter_ops.py: the indices' dtype never reaches the output
    case(gather_ops.GatherV2, lambda: tf.gather(f32(), tf.constant([1, 0], tf.int64)), F32),
    case(gather_ops.GatherNd, lambda: tf.gather_nd(c64(), [[0, 1]]), C64),
    case(gather_ops.Where, lambda: tf.where(flags()), I64),
    case(gather_ops.Where, lambda: tf.where(f32()), I64),
    case(scatter_ops.ScatterNd, lambda: tf.scatter_nd(
        [[0], [2]], tf.constant([1.0, 2.0], F64), [3]), F64),
    case(scatter_ops.TensorScatterUpdate, lambda: tf.tensor_scatter_nd_update(
        i32(), [[0]], [[7, 7]]), I32),
    case(scatter_ops.TensorScatterAdd, lambda: tf.tensor_scatter_nd_add(
        f32(), [[1, 1]], [5.0]), F32),
    case(scatter_ops.UnsortedSegmentSum, lambda: tf.math.unsorted_segment_sum(
        f64(), tf.constant([1, 0], tf.int64), 3), F64),
    case(scatter_ops.SegmentSum, lambda: tf.math.segment_sum(i32(), [0, 0]), I32),
    # array_ops.py, manipulation_ops.py, slicing_ops.py, creation_ops.py
    case(array_ops.Reshape, lambda: tf.reshape(i32(), [4]), I32),
    case(array_ops.Transpose, lambda: tf.transpose(c64()), C64),
    case(array_ops.Pack, lambda: tf.stack([flags(), flags()], axis=1), tf.bool),
    case(array_ops.Unpack, lambda: tf.unstack(f32()), F32, F32),
    case(array_ops.ConcatV2, lambda: tf.concat([text(), text()], 0), tf.string),
    case(array_ops.Tile, lambda: tf.tile(i64(), [2]), I64),
    case(array_ops.BroadcastTo, lambda: tf.broadcast_to(f16(), [3, 2]), F16),
    case(array_ops.OneHot, lambda: tf.one_hot([0, 2], 3), F32),
    case(array_ops.OneHot, lambda: tf.one_hot(tf.constant([1], tf.uint8), 2, dtype=tf.int64), I64),
    case(manipulation_ops.Split, lambda: tf.split(f32(), 2, axis=1), F32, F32),
    case(manipulation_ops.SplitV, lambda: tf.split(i64(), [1, 2]), I64, I64),
    case(manipulation_ops.Pad, lambda: tf.pad(i32(), [[1, 0], [0, 1]]), I32),
    case(manipulation_ops.PadV2, lambda: tf.pad(f64(), [[1, 1], [0, 0]], constant_values=7.0), F64),
    case(manipulation_ops.MirrorPad, lambda: tf.pad(f32(), [[1, 1], [0, 0]], "REFLECT"), F32),
    case(manipulation_ops.ReverseV2, lambda: tf.reverse(text(), [0]), tf.string),
    case(slicing_ops.StridedSlice, lambda: f32()[1:, ::-1], F32),
    case(creation_ops.Identity, lambda: tf.identity(u8()), tf.uint8),
    case(creation_ops.StopGradient, lambda: tf.stop_gradient(c64()), C64),
    case(clip_ops.DivNoNan, lambda: tf.math.divide_no_nan(f32(), f32()), F32),
    case(clip_ops.Xlogy, lambda: tf.math.xlogy(c128(), c128()), tf.complex128),
    # einsum_ops.py, linalg_*.py, matrix_diag_ops.py
    case(einsum_ops.Einsum, lambda: tf.einsum("ij,jk->ik", f64(), f64()), F64),
    case(linalg_ops.MatMul, lambda: tf.matmul(i32(), i32()), I32),
    case(linalg_ops.Cross, lambda: tf.linalg.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]), F32),
    case(linalg_solve_ops.MatrixInverse, lambda: tf.linalg.inv(c64()), C64),
    case(linalg_solve_ops.MatrixDeterminant, lambda: tf.linalg.det(f64()), F64),
    case(linalg_solve_ops.LogMatrixDeterminant, lambda: tf.linalg.slogdet(c64()), C64, C64),
    case(linalg_solve_ops.MatrixSolve, lambda: tf.linalg.solve(f64(), f64()), F64),
    case(linalg_solve_ops.MatrixTriangularSolve, lambda: tf.linalg.triangular_solve(
        f32(), f32()), F32),
    case(linalg_solve_ops.MatrixSolveLs, lambda: tf.linalg.lstsq(f64(), f64(), fast=False), F64),
    case(linalg_decompositions.Cholesky, lambda: tf.linalg.cholesky(f64()), F64),
    case(linalg_decompositions.Qr, lambda: tf.linalg.qr(f32()), F32, F32),
    case(linalg_decompositions.SelfAdjointEigV2, lambda: tf.linalg.eigh(c64()), C64, C64),
    case(linalg_decompositions.Svd, lambda: tf.linalg.svd(c64()), F32, C64, C64),  # s is real
    case(linalg_decompositions.Svd, lambda: tf.linalg.svd(f64(), compute_uv=False), F64, F64, F64),
    case(matrix_diag_ops.MatrixDiagV3, lambda: tf.linalg.diag(i64()), I64),
    case(matrix_diag_ops.MatrixDiagPartV3, lambda: tf.linalg.diag_part(c64()), C64),
    case(matrix_diag_ops.MatrixSetDiagV3, lambda: tf.linalg.set_diag(f32(), [0.0, 0.0]), F32),
    case(matrix_diag_ops.MatrixBandPart, lambda: tf.linalg.band_part(i32(), 0, -1), I32),
    # conv_ops.py, depthwise_conv_ops.py, pool_ops.py: images in, images out
    case(conv_ops.Conv2D, lambda: tf.nn.conv2d(image(), tf.ones([2, 2, 1, 3]), 1, "VALID"), F32),
    case(conv_ops.Conv2DBackpropInput, lambda: tf.nn.conv2d_transpose(
        tf.ones([1, 3, 3, 3]), tf.ones([2, 2, 1, 3]), [1, 4, 4, 1], 1, "VALID"), F32),
    case(depthwise_conv_ops.DepthwiseConv2dNative, lambda: tf.nn.depthwise_conv2d(
        image(), tf.ones([2, 2, 1, 2]), [1, 1, 1, 1], "SAME"), F32),
    case(pool_ops.MaxPool, lambda: tf.nn.max_pool2d(image(), 2, 2, "VALID"), F32),
    case(pool_ops.AvgPool, lambda: tf.nn.avg_pool2d(tf.cast(image(), F64), 3, 1, "SAME"), F64),
    case(pool_ops.MaxPoolWithArgmax, lambda: tf.nn.max_pool_with_argmax(image(), 2, 2, "VALID"),
         F32, I64),
    case(pool_ops.MaxPoolWithArgmax, lambda: tf.nn.max_pool_with_argmax(
        tf.cast(image(), F16), 2, 2, "SAME", output_dtype=tf.int32), F16, I32),
    # nn_ops.py, nn_layer_ops.py, nn_losses.py
    case(nn_ops.Relu, lambda: tf.nn.relu(i32()), I32),
    case(nn_ops.LeakyRelu, lambda: tf.nn.leaky_relu(f16()), F16),
    case(nn_ops.Softmax, lambda: tf.nn.softmax(f64()), F64),
    case(nn_ops.LogSoftmax, lambda: tf.nn.log_softmax(f32()), F32),
    case(nn_layer_ops.BiasAdd, lambda: tf.nn.bias_add(i32(), [1, 2]), I32),
    case(nn_losses.SoftmaxCrossEntropyWithLogits, lambda: tf.nn.softmax_cross_entropy_with_logits(
        [[0.0, 1.0]], [[0.5, 0.5]]), F32, F32),
    case(nn_losses.SparseSoftmaxCrossEntropyWithLogits,
         lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
             tf.constant([1, 0], tf.int64), f64()), F64, F64),
    case(nn_losses.L2Loss, lambda: tf.nn.l2_loss(f16()), F16),
    # random_ops.py and stateful_random_ops.py: the dtype is an attribute, not an input's
    case(random_ops.RandomUniform, lambda: tf.random.uniform([2, 3], dtype=tf.float64), F64),
    case(random_ops.RandomUniform, lambda: tf.random.uniform([4], dtype=tf.float16), F16),
    case(random_ops.RandomUniformInt, lambda: tf.random.uniform([3], 0, 9, tf.int64), I64),
    case(random_ops.RandomStandardNormal, lambda: tf.random.normal([2], dtype=tf.float16), F16),
    case(random_ops.TruncatedNormal, lambda: tf.random.truncated_normal([5], dtype=F64), F64),
    case(random_ops.RandomShuffle, lambda: tf.random.shuffle(i32()), I32),
    case(random_ops.Multinomial, lambda: tf.random.categorical(f32(), 3), I64),
    case(random_ops.Multinomial, lambda: tf.random.categorical(f64(), 2, dtype=tf.int32), I32),
    case(random_ops.StatelessRandomUniformV2, lambda: tf.random.stateless_uniform(
        [2], seed=[1, 2], dtype=tf.float64), F64),
    case(random_ops.StatelessRandomUniformIntV2, lambda: tf.random.stateless_uniform(
        [2], seed=[1, 2], minval=3, maxval=9, dtype=tf.int32), I32),
    case(random_ops.StatelessRandomUniformFullIntV2, lambda: tf.random.stateless_uniform(
        [2], seed=[1, 2], minval=None, dtype=tf.uint32), tf.uint32),
    case(random_ops.StatelessRandomUniformFullIntV2, lambda: tf.random.stateless_uniform(
        [2], seed=[1, 2], minval=None, maxval=None, dtype=tf.uint64), tf.uint64),
    case(random_ops.StatelessRandomNormalV2, lambda: tf.random.stateless_normal(
        [3], seed=[4, 5], dtype=tf.float16), F16),
    case(random_ops.StatelessTruncatedNormalV2,
         lambda: tf.random.stateless_truncated_normal([3], [1, 2]), F32),
    # stateful_random_ops.py: a Generator's draws read its state (int64) and give `dtype`
    case(stateful_random_ops.StatefulUniformFullInt,
         lambda: tf.random.Generator.from_seed(3).uniform_full_int([2]), tf.uint64),
    case(stateful_random_ops.StatefulTruncatedNormal,
         lambda: tf.random.Generator.from_seed(3).truncated_normal([3]), F32),
    case(stateful_random_ops.StatefulStandardNormalV2,
         lambda: tf.random.Generator.from_seed(3).normal([3], dtype=tf.float16), F16),
    case(stateful_random_ops.StatefulUniform,
         lambda: tf.random.Generator.from_seed(3).uniform([3], dtype=tf.float64), F64),
    case(stateful_random_ops.StatefulUniformInt,
         lambda: tf.random.Generator.from_seed(3).uniform([3], 1, 9, dtype=tf.int32), I32),
    case(stateful_random_ops.RngSkip,
         lambda: tf.random.Generator.from_seed(3).normal([3]), I64),
    # logging_ops.py. In TF PrintV2 has no outputs; minitf's returns an empty int32 tensor.
    case(logging_ops.PrintV2, lambda: tf.print(f32(), output_stream=io.StringIO()), I32),
]
CASES = [pytest.param(*row, id=f"{row[0].name}-{n}") for n, row in enumerate(ROWS)]


@pytest.mark.parametrize("op, call, expected", CASES)
def test_rules_predict_eager_results(op, call, expected, applied):
    call()
    calls = [c for c in applied if c.op is op]
    assert calls, f"the call never applied {op.name}"
    for each in calls:
        check_rules(each)
    produced = tuple(t.dtype for t in calls[0].outputs)
    assert produced == expected, f"{op.name} gave {produced}; TensorFlow gives {expected}"


def all_ops():
    return [o for o in gc.get_objects() if isinstance(o, Op)]


# The op families the table covers. Graph machinery (placeholders, control flow,
# tensor arrays, fused grappler ops) is checked by its own tests.
FAMILIES = (gradient_ops, variables, array_ops, clip_ops, conv_ops, creation_ops,
            depthwise_conv_ops, einsum_ops, gather_ops, linalg_decompositions, linalg_ops,
            linalg_solve_ops, logging_ops, manipulation_ops, math_ops, matrix_diag_ops,
            nn_layer_ops, nn_losses, nn_ops, pool_ops, random_ops, reduction_ops, scan_ops,
            scatter_ops, slicing_ops, sort_ops, unary_ops)


def family_ops():
    """The Op objects (found with gc) that one of FAMILIES declares."""
    declared = {id(v) for m in FAMILIES for v in vars(m).values() if isinstance(v, Op)}
    return [op for op in all_ops() if id(op) in declared]


def test_every_op_with_its_own_dtype_rule_is_in_the_table():
    """Ops whose dtype is not their first input's are where rules go wrong: each needs a case."""
    tested = {id(op) for op, _, _ in ROWS} | {id(random_ops.MultinomialByTensor)}  # below
    declared = [op for op in family_ops() if op.dtype is not None]
    assert len(declared) > 30
    missing = sorted(op.name for op in declared if id(op) not in tested)
    assert missing == [], "add a case for these ops to ROWS"


def test_categorical_with_a_run_time_num_samples_keeps_the_dtype_rule():
    """MultinomialByTensor is Multinomial with num_samples as an input: it exists only while
    tracing (its static shape has None samples), so its row is a traced call."""
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def draw(n):
        return tf.random.categorical(tf.zeros([2, 4]), n, dtype=tf.int32)

    graph = draw.get_concrete_function().graph
    assert [node.op for node in graph.nodes].count(random_ops.MultinomialByTensor) == 1
    assert draw.get_concrete_function().structured_outputs.dtype == tf.int32
    assert draw(tf.constant(3)).dtype == tf.int32 and draw(tf.constant(3)).shape == (2, 3)


# --- every element-wise op, every dtype it accepts ----------------------------------------------
def is_elementwise(op):
    rule = op.shape
    return op.forward is not None and (
        rule is same_shape or getattr(rule, "__qualname__", "").startswith("broadcast."))


ELEMENTWISE = sorted((op for op in family_ops() if is_elementwise(op) and op.name != "Cast"),
                     key=lambda op: op.name)
# Element-wise ops that take more than their shape rule suggests. A new op that fails
# with a TypeError below belongs here.
EXTRA = {"SelectV2": ("condition", 2, {}), "ReluGrad": (None, 2, {}),
         "Cumsum": (None, 1, {"axis": 0, "exclusive": False, "reverse": False}),
         "Cumprod": (None, 1, {"axis": 0, "exclusive": False, "reverse": True}),
         "CumulativeLogsumexp": (None, 1, {"axis": 0, "exclusive": False, "reverse": False}),
         "LeakyRelu": (None, 1, {"alpha": 0.2})}


def sample(dtype):
    if dtype is tf.string:
        return text()
    if dtype is tf.bool:
        return flags()
    return tf.constant(np.array([1, 2], dtype.as_numpy_dtype))


def test_the_element_wise_ops_are_all_found():
    names = {op.name for op in ELEMENTWISE}
    assert {"AddV2", "Equal", "IsNan", "ComplexAbs", "LogicalNot", "Sigmoid"} <= names


@pytest.mark.parametrize("op", ELEMENTWISE, ids=lambda op: op.name)
def test_element_wise_rules_hold_for_every_accepted_dtype(op):
    first, count, attrs = EXTRA.get(op.name, (None, 1 if op.shape is same_shape else 2, {}))
    ran = []
    for dtype in sorted(op.dtypes or dtypes.ALL, key=dtypes.ALL.index):
        inputs = [flags()] if first == "condition" else []
        inputs += [sample(dtype)] * count
        try:
            result = op_module.apply(op, inputs, attrs)
        except errors.NotFoundError:
            continue  # like TF, no kernel for this dtype (e.g. Reciprocal of integers)
        check_rules(Call(op, inputs, attrs, (result,)))
        ran.append(dtype)
    assert ran, f"{op.name} ran for no dtype at all"


CASTABLE = sorted(dtypes.NUMERIC | {tf.bool}, key=dtypes.ALL.index)


@pytest.mark.parametrize("target", CASTABLE, ids=lambda d: d.name)
def test_cast_rule_is_the_target_dtype(target):
    for source in CASTABLE:
        x = sample(source)
        attrs = {"DstT": target}
        y = op_module.apply(math_ops.Cast, [x], attrs)
        assert y.dtype is target
        check_rules(Call(math_ops.Cast, [x], attrs, (y,)))


# --- stateful: may two identical calls give different results? ------------------------------------
RANDOM_CALLS = [
    (random_ops.RandomUniform, lambda: tf.random.uniform([50])),
    (random_ops.RandomUniformInt, lambda: tf.random.uniform([50], 0, 1000, tf.int64)),
    (random_ops.RandomStandardNormal, lambda: tf.random.normal([50])),
    (random_ops.TruncatedNormal, lambda: tf.random.truncated_normal([50])),
    (random_ops.RandomShuffle, lambda: tf.random.shuffle(tf.range(50))),
    (random_ops.Multinomial, lambda: tf.random.categorical(tf.zeros([1, 50]), 50)),
    (random_ops.StatelessRandomUniformV2, lambda: tf.random.stateless_uniform([50], [1, 2])),
    (random_ops.StatelessRandomUniformIntV2,
     lambda: tf.random.stateless_uniform([50], [1, 2], 0, 1000, tf.int32)),
    (random_ops.StatelessRandomUniformFullIntV2,
     lambda: tf.random.stateless_uniform([50], [1, 2], None, None, tf.int64)),
    (random_ops.StatelessRandomNormalV2, lambda: tf.random.stateless_normal([50], [1, 2])),
    (random_ops.StatelessTruncatedNormalV2,
     lambda: tf.random.stateless_truncated_normal([50], [1, 2])),
    # a Generator's draws are pure functions of its state: a new generator repeats them
    (stateful_random_ops.StatefulTruncatedNormal,
     lambda: tf.random.Generator.from_seed(3).truncated_normal([50])),
    (random_distribution_ops.RandomGamma, lambda: tf.random.gamma([50], 2.0)),
    (random_distribution_ops.RandomPoissonV2, lambda: tf.random.poisson([50], 3.0)),
    (random_distribution_ops.StatelessRandomGammaV3,
     lambda: tf.random.stateless_gamma([50], [1, 2], 2.0)),
    (random_distribution_ops.StatelessRandomPoisson,
     lambda: tf.random.stateless_poisson([50], [1, 2], 3.0)),
    (random_distribution_ops.StatelessRandomBinomial,
     lambda: tf.random.stateless_binomial([50], [1, 2], 10, 0.5)),
    (random_distribution_ops.StatelessMultinomial,
     lambda: tf.random.stateless_categorical(tf.zeros([1, 50]), 50, [1, 2])),
    (random_truncated_ops.StatelessParameterizedTruncatedNormal,
     lambda: tf.random.stateless_parameterized_truncated_normal([50], [1, 2])),
    (random_stateless_ops.RandomIndexShuffle,
     lambda: tf.random.experimental.index_shuffle(tf.range(50), [1, 2], 1000)),
]


@pytest.mark.parametrize("op, call", RANDOM_CALLS, ids=[op.name for op, _ in RANDOM_CALLS])
def test_stateful_exactly_when_repeating_a_call_changes_the_result(op, call, applied):
    first, second = call(), call()
    assert any(c.op is op for c in applied), f"the call never applied {op.name}"
    differs = not np.array_equal(first.numpy(), second.numpy())
    assert op.stateful == differs, (
        f"{op.name}: stateful={op.stateful}, but two identical calls "
        f"{'differ' if differs else 'agree'}")


def test_every_random_op_is_in_the_stateful_table():
    random_names = {op.name for op in all_ops()  # a gradient op draws nothing
                    if any(word in op.name for word in ("Random", "Truncated", "Multinomial"))
                    and not op.name.endswith("Grad")}
    assert random_names == {op.name for op, _ in RANDOM_CALLS}


def test_pure_ops_are_not_stateful():
    """A stateful op cannot be folded or merged, so only effects and random draws may say so."""
    effects = {"PrintV2", "ReadVariableOp"}
    stateful = {op.name for op in family_ops() if op.stateful}
    in_families = {id(op) for op in family_ops()}
    random_names = {op.name for op, _ in RANDOM_CALLS if op.stateful and id(op) in in_families}
    assert stateful - effects == random_names
    assert len(random_names) == 6

