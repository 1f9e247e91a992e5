"""`tf.keras.ops` without real TF: hand values, Keras's promotion table, gradients, tf.function.

The comparison with real TF is `test_ops_vs_tf.py`; these tests need only NumPy.
"""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from minitf.keras import ops
from minitf.keras.ops.dtype_rules import result_type

# --- Keras 3's promotion lattice (keras/src/backend/common/dtypes.py, TensorFlow backend) ----

PROMOTIONS = [
    (("int32", "float32"), "float32"), (("int8", "uint8"), "int16"),
    (("uint8", "int32"), "int32"), (("uint16", "int16"), "int32"),
    (("uint32", "int32"), "int64"), (("uint64", "int8"), "float32"),
    (("int64", "float16"), "float16"), (("float16", "float32"), "float32"),
    (("bool", "int8"), "int8"), (("bool", "bool"), "bool"), (("float64", "int64"), "float64"),
    (("int8", int), "int8"), (("int8", float), "float32"), (("float16", int), "float16"),
    (("float16", float), "float16"), (("bool", int), "int32"), (("uint8", int), "uint8"),
    ((int, float), "float32"), ((int,), "int32"), ((float,), "float32"), ((), "float32"),
    (("uint64",), "uint32"), (("int64",), "int64"), (("float32", "complex64"), "complex64"),
    ((None, "int8"), "float32"), ((tf.int16, np.dtype("uint8")), "int16"),
]


@pytest.mark.parametrize("dtypes,expected", PROMOTIONS)
def test_result_type(dtypes, expected):
    assert result_type(*dtypes) == expected
    assert tf.keras.backend.result_type(*dtypes) == expected


def test_result_type_errors():
    with pytest.raises(ValueError, match="Invalid dtype"):
        result_type("int33")
    with pytest.raises(ValueError, match="float8"):
        result_type("float8_e4m3fn", "float32")


def test_binary_ops_promote_where_tf_raises():
    x, y = tf.constant([1, 2]), tf.constant([0.5, 0.25])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.add(x, y)
    assert ops.add(x, y).numpy().tolist() == [1.5, 2.25]
    assert ops.add(x, y).dtype == tf.float32
    small = tf.constant([100, 27], tf.int8)
    assert ops.add(small, 1).dtype == tf.int8                       # a Python int is weak
    assert ops.add(small, 1.5).dtype == tf.float32                  # a Python float is too
    assert ops.add(small, tf.constant([1, 1], tf.uint8)).dtype == tf.int16
    assert ops.equal(small, tf.constant([100, 0], tf.uint8)).numpy().tolist() == [True, False]


def test_int_rules_differ_from_tf():
    ints = tf.constant([1, 2])
    assert ops.divide(ints, 2).dtype == tf.float32           # tf.divide: float64
    assert tf.divide(ints, 2).dtype == tf.float64
    assert ops.mean(ints).numpy() == 1.5                     # tf.reduce_mean: 1
    assert ops.sum(tf.constant([100, 100], tf.int8)).numpy() == 200   # no int8 wrap-around
    assert ops.sqrt(tf.constant([4, 9])).numpy().tolist() == [2.0, 3.0]


HAND = [
    ("arange(1, 7, 2)", [1, 3, 5], "int32"),
    ("linspace(0, 1, 3)", [0.0, 0.5, 1.0], "float32"),
    ("take(tf.constant([10, 20, 30]), [-1, 0])", [30, 10], "int32"),
    ("where(tf.constant([True, False]), 1, 2.5)", [1.0, 2.5], "float32"),
    ("cumsum(tf.constant([[1, 2], [3, 4]]))", [1, 3, 6, 10], "int32"),
    ("argmax(tf.constant([[1, 9], [8, 2]]), axis=1)", [1, 0], "int32"),
    ("repeat(tf.constant([1, 2]), [2, 1])", [1, 1, 2], "int32"),
    ("tile(tf.constant([1, 2]), 2)", [1, 2, 1, 2], "int32"),
    ("median(tf.constant([3, 1, 4, 2]))", 2.5, "float32"),
    ("quantile(tf.constant([1.0, 2.0, 3.0, 4.0]), 0.25)", 1.75, "float32"),
    ("mod(tf.constant([-7, 7]), 3)", [2, 1], "int32"),
    ("fmod(tf.constant([-7, 7]), 3)", [-1, 1], "int32"),
    ("arctan2(tf.constant([0.0, 1.0, 0.0]), tf.constant([-1.0, 0.0, 0.0]))",
     [np.pi, np.pi / 2, 0.0], "float32"),
    ("hypot(3, 4)", 5.0, "float32"),
    ("trace(tf.reshape(tf.range(9), (3, 3)))", 12, "int32"),
    ("diagonal(tf.reshape(tf.range(9), (3, 3)), offset=-1)", [3, 7], "int32"),
    ("cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0]))", [0, 0, 1], "float32"),
    ("one_hot(tf.constant([1, -1]), 3)", [[0, 1, 0], [0, 0, 0]], "float32"),
    ("saturate_cast(tf.constant([-1.0, 1e6]), 'uint8')", [0, 255], "uint8"),
    ("fori_loop(0, 4, lambda i, x: x + i, 0)", 6, "int32"),
    ("while_loop(lambda x: x < 10, lambda x: x * 3, 1)", 27, "int32"),
    ("nan_to_num(tf.constant([np.nan, np.inf]), posinf=5.0)", [0.0, 5.0], "float32"),
    ("logaddexp(tf.constant(1000.0), tf.constant(1000.0))", 1000.0 + np.log(2), "float32"),
    ("left_shift(tf.constant([1, 3]), 2)", [4, 12], "int32"),
    ("right_shift(tf.constant([-8, 9]), 1)", [-4, 4], "int32"),
]


@pytest.mark.parametrize("expr,value,dtype", HAND, ids=[h[0] for h in HAND])
def test_hand_values(expr, value, dtype):
    result = eval("ops." + expr, {"ops": ops, "tf": tf, "np": np})
    assert result.dtype.name == dtype
    np.testing.assert_allclose(result.numpy(), value, rtol=1e-6, atol=1e-6)


# NumPy is the reference where Keras 3.15's TensorFlow backend has a bug (checked in TF 2.21,
# which gives the numbers in the comments): minitf follows NumPy, which Keras documents.
NUMPY_REFERENCE = [
    ("vstack([np.ones(3), np.zeros(3)])", "np.vstack([np.ones(3), np.zeros(3)])"),  # TF: shape (6,)
    ("rot90(np.arange(12).reshape(3, 4), k=2)", "np.rot90(np.arange(12).reshape(3, 4), k=2)"),
    ("eye(2, 4, k=1)", "np.eye(2, 4, k=1)"),                                         # TF: 3 x 5
    ("eye(4, 2, k=-1)", "np.eye(4, 2, k=-1)"),                                       # TF: 5 x 3
    ("pad(np.ones((2, 2)), 1)", "np.pad(np.ones((2, 2)), 1)"),                       # TF refuses
    ("moveaxis(np.ones((2, 3, 4)), [0, 1], [-1, 0])", "np.moveaxis(np.ones((2, 3, 4)), [0, 1], [-1, 0])"),
    ("kron(np.arange(4).reshape(2, 2), np.ones((2, 3)))", "np.kron(np.arange(4).reshape(2, 2), np.ones((2, 3)))"),
    ("unravel_index(np.array([[1, 5]]), (2, 3))[1]",                                # TF: [[1, 1]]
     "np.unravel_index(np.array([[1, 5]]), (2, 3))[1]"),
    ("nanquantile(np.array([[1.0, np.nan, 3.0], [np.nan] * 3]), 0.5, axis=1)",
     "np.array([2.0, np.nan])"),
    ("meshgrid(np.arange(3), np.arange(2), np.arange(4))[2]", "np.meshgrid(np.arange(3), np.arange(2), np.arange(4))[2]"),
]


@pytest.mark.parametrize("expr,reference", NUMPY_REFERENCE, ids=[n[0] for n in NUMPY_REFERENCE])
def test_numpy_semantics(expr, reference):
    got = eval("ops." + expr, {"ops": ops, "np": np})
    want = eval(reference, {"np": np})
    assert tuple(got.shape) == want.shape
    np.testing.assert_allclose(got.numpy(), want)


def test_vectorize_runs_element_by_element():
    # Keras 3.15 refuses vectorize on the TensorFlow backend; minitf maps pyfunc over the
    # broadcast elements (NumPy's vectorize without `signature`).
    calls = []

    def f(a, b):
        calls.append(1)
        return a * b + 1

    out = ops.vectorize(f)(tf.constant([[1, 2]]), tf.constant([[3], [4]]))
    assert out.numpy().tolist() == [[4, 7], [5, 9]]
    assert len(calls) == 4
    with pytest.raises(NotImplementedError, match="signature"):
        ops.vectorize(f, signature="(n)->()")


def test_sparsemax_is_a_distribution():
    # Keras 3.15's TensorFlow sparsemax sums the cumulative sums for its threshold and can
    # return all zeros; minitf computes the threshold of Martins & Astudillo (2016).
    x = tf.constant(np.random.RandomState(0).randn(3, 4).astype("float32"))
    out = ops.sparsemax(x).numpy()
    np.testing.assert_allclose(out.sum(axis=-1), 1.0, rtol=1e-6)
    assert (out >= 0).all()


# --- gradients against finite differences (float64 inputs) -----------------------------------

RNG = np.random.RandomState(1)
A = RNG.randn(3, 4)
B = RNG.randn(3, 4)
P = RNG.uniform(0.2, 0.8, (3, 4))
SPD = A[:, :3].T @ A[:, :3] + 3 * np.eye(3)

GRADIENTS = [
    ("add", lambda x, y: ops.add(x, y), (A, B)),
    ("multiply", lambda x, y: ops.multiply(x, y), (A, B)),
    ("divide", lambda x, y: ops.divide(x, y + 3.0), (A, B)),
    ("power", lambda x, y: ops.power(x, y), (P, B)),
    ("arctan2", lambda x, y: ops.arctan2(x, y), (A, B)),
    ("hypot", lambda x, y: ops.hypot(x, y), (A, B)),
    ("logaddexp", lambda x, y: ops.logaddexp(x, y), (A, B)),
    ("maximum", lambda x, y: ops.maximum(x, y), (A, B)),
    ("arcsinh", ops.arcsinh, (A,)), ("arccosh", lambda x: ops.arccosh(x + 2.0), (P,)),
    ("arctanh", ops.arctanh, (P,)), ("log2", ops.log2, (P,)), ("exp2", ops.exp2, (A,)),
    ("cbrt", lambda x: ops.cbrt(x + 3.0), (P,)), ("sinc", ops.sinc, (A,)),
    ("sum", lambda x: ops.sum(x, axis=1), (A,)), ("mean", lambda x: ops.mean(x, 0), (A,)),
    ("std", lambda x: ops.std(x, axis=1), (A,)), ("var", ops.var, (A,)),
    ("max", lambda x: ops.max(x, axis=0), (A,)), ("logsumexp", ops.logsumexp, (A,)),
    ("cumsum", lambda x: ops.cumsum(x, axis=1), (A,)), ("cumprod", lambda x: ops.cumprod(x, 1), (P,)),
    ("sort", lambda x: ops.sort(x, axis=0), (A,)), ("median", lambda x: ops.median(x, 1), (A,)),
    ("quantile", lambda x: ops.quantile(x, 0.3), (A,)),
    ("take", lambda x: ops.take(x, [2, 0, 0], axis=1), (A,)),
    ("take_along_axis", lambda x: ops.take_along_axis(x, np.array([[0], [3], [1]]), 1), (A,)),
    ("where", lambda x, y: ops.where(x > 0, x, y), (A, B)),
    ("concatenate", lambda x, y: ops.concatenate([x, y], axis=1), (A, B)),
    ("stack", lambda x, y: ops.stack([x, y], axis=-1), (A, B)),
    ("pad", lambda x: ops.pad(x, ((1, 0), (0, 2)), mode="reflect"), (A,)),
    ("repeat", lambda x: ops.repeat(x, 2, axis=0), (A,)), ("tile", lambda x: ops.tile(x, 2), (A,)),
    ("roll", lambda x: ops.roll(x, 1, axis=1), (A,)), ("rot90", ops.rot90, (A,)),
    ("moveaxis", lambda x: ops.moveaxis(x, 0, 1), (A,)), ("flip", ops.flip, (A,)),
    ("tril", ops.tril, (A,)), ("diagonal", lambda x: ops.diagonal(x, 1), (A,)),
    ("trace", ops.trace, (A,)), ("diag", lambda x: ops.diag(x[0]), (A,)),
    ("matmul", lambda x, y: ops.matmul(x, ops.transpose(y)), (A, B)),
    ("dot", lambda x, y: ops.dot(x[0], y[0]), (A, B)),
    ("einsum", lambda x, y: ops.einsum("ij,kj->ik", x, y), (A, B)),
    ("outer", lambda x, y: ops.outer(x[0], y[1]), (A, B)), ("kron", lambda x, y: ops.kron(x, y), (A, B)),
    ("cross", lambda x, y: ops.cross(x[:, :3], y[:, :3]), (A, B)),
    ("softmax", ops.softmax, (A,)), ("log_softmax", ops.log_softmax, (A,)),
    ("gelu", ops.gelu, (A,)), ("silu", ops.silu, (A,)), ("elu", ops.elu, (A,)),
    ("categorical_crossentropy", lambda t, x: ops.categorical_crossentropy(t, x, from_logits=True),
     (P / P.sum(axis=1, keepdims=True), A)),  # TF's gradient assumes rows that sum to 1
    ("binary_crossentropy", lambda t, x: ops.binary_crossentropy(t, x), (P, P[::-1])),
    ("layer_normalization", ops.layer_normalization, (A,)),
    ("normalize", ops.normalize, (A,)),
    ("conv", lambda x, k: ops.conv(ops.reshape(x, (1, 3, 4, 1)), ops.reshape(k[:2, :2], (2, 2, 1, 1))),
     (A, B)),
    ("average_pool", lambda x: ops.average_pool(ops.reshape(x, (1, 3, 4, 1)), 2, padding="same"), (A,)),
    ("det", ops.det, (SPD,)), ("inv", ops.inv, (SPD,)),
    ("solve", lambda a, b: ops.solve(a, b[0, :3]), (SPD, B)),
    ("cholesky", lambda a: ops.cholesky((a + ops.transpose(a)) / 2), (SPD,)), ("norm", ops.norm, (A,)),
    ("scan", lambda x: ops.scan(lambda c, r: (c * r, c + r), ops.ones(4, "float64"), x)[1], (A,)),
    ("associative_scan", lambda x: ops.associative_scan(ops.multiply, x, axis=1), (A,)),
    ("fori_loop", lambda x: ops.fori_loop(0, 3, lambda i, v: v * x, ops.ones_like(x)), (A,)),
    ("slice_update", lambda x, y: ops.slice_update(x, (1, 1), y[:2, :2]), (A, B)),
]


@pytest.mark.parametrize("name,f,args", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradients_match_finite_differences(name, f, args):
    check_grads(f, *args)


def test_ops_inside_tf_function():
    @tf.function
    def step(x, y):
        z = ops.where(ops.greater(x, 0), ops.multiply(x, y), ops.exp(y))
        carry, ys = ops.scan(lambda c, r: (c + r, c), ops.zeros(4), z)
        return ops.mean(ys) + ops.sum(carry) + ops.take(z, [0, -1])[0]

    x = tf.constant(A.astype("float32"))
    y = tf.constant(B.astype("float32"))
    expected = step.python_function(x, y)
    np.testing.assert_allclose(step(x, y).numpy(), expected.numpy(), rtol=1e-6)
    ops_in_graph = {node.type for node in step.get_concrete_function(x, y).graph.nodes}
    assert {"Mul", "Exp", "GatherV2"} <= ops_in_graph, ops_in_graph


def test_bad_input_errors():
    with pytest.raises(ValueError, match="equal division"):
        ops.split(tf.range(5), 2)
    with pytest.raises(ValueError, match="both should"):
        ops.where(tf.constant([True]), 1)
    with pytest.raises(ValueError, match="same shape"):
        ops.binary_crossentropy(tf.ones((2, 1)), tf.ones((2, 3)))
    with pytest.raises(ValueError, match="num"):
        ops.linspace(0, 1, -1)
    with pytest.raises(ValueError, match="`mode`"):
        ops.qr(tf.eye(2), mode="r")
    with pytest.raises(ValueError, match="padding"):
        ops.conv(tf.ones((1, 4, 1)), tf.ones((2, 1, 1)), padding="full")


def test_namespaces():
    assert tf.keras.ops.numpy.matmul is tf.keras.ops.matmul
    assert tf.keras.ops.nn.softmax is tf.keras.ops.softmax
    assert tf.keras.ops.linalg.solve is tf.keras.ops.solve
    assert ops.convert_to_numpy(ops.ones(2)).tolist() == [1.0, 1.0]
    assert ops.shape(tf.zeros((2, 3))) == (2, 3)


FN = A.copy()
FN[0, 1] = np.nan
Q4 = RNG.randn(2, 3, 2, 4)
IMG = RNG.randn(1, 4, 5, 2)

MORE_GRADIENTS = [
    ("nansum", lambda x: ops.nansum(x + FN * 0, axis=1), (A,)),
    ("nanmean", lambda x: ops.nanmean(x + FN * 0, axis=0), (A,)),
    ("nanvar", lambda x: ops.nanvar(x + FN * 0), (A,)),
    ("nanmax", lambda x: ops.nanmax(x + FN * 0, axis=1), (A,)),
    ("nanquantile", lambda x: ops.nanquantile(x + FN * 0, 0.4, axis=1), (A,)),
    ("segment_sum", lambda x: ops.segment_sum(x, np.array([0, 0, 1])), (A,)),
    ("segment_max", lambda x: ops.segment_max(x, np.array([1, 0, 1]), num_segments=2), (A,)),
    ("trapezoid", lambda x: ops.trapezoid(x, axis=0), (A,)),
    ("corrcoef", ops.corrcoef, (A,)), ("cdist", ops.cdist, (A, B)),
    ("correlate", lambda x, y: ops.correlate(x[0], y[1, :2], mode="full"), (A, B)),
    ("diff", lambda x: ops.diff(x, n=2), (A,)),
    ("pinv", ops.pinv, (A,)), ("slogdet", lambda a: ops.slogdet(a)[1], (SPD,)),
    ("erfinv", lambda x: ops.erfinv(x * 0.3), (A,)),
    ("rearrange", lambda x: ops.rearrange(x, "(a b) c -> c b a", a=1), (A,)),
    ("dot_product_attention", lambda q: ops.dot_product_attention(q, q[::-1], q, is_causal=True),
     (Q4,)),
    ("conv_transpose", lambda x, k: ops.conv_transpose(x, ops.reshape(k[:2, :4], (2, 2, 1, 2)),
                                                       strides=2), (IMG, A)),
    ("adaptive_average_pool", lambda x: ops.adaptive_average_pool(x, (2, 3)), (IMG,)),
    ("adaptive_max_pool", lambda x: ops.adaptive_max_pool(x, 3), (IMG,)),
    ("unfold", lambda x: ops.unfold(ops.transpose(x, (0, 3, 1, 2)), 2, stride=1), (IMG,)),
    ("fold", lambda x: ops.fold(ops.reshape(x, (1, 2, 6)), (2, 4), (1, 2)), (A,)),
    ("depth_to_space", lambda x: ops.depth_to_space(ops.reshape(x, (1, 1, 3, 4)), 2), (A,)),
    ("fft", lambda x, y: ops.fft((x, y))[1], (A, B)), ("fft2", lambda x, y: ops.fft2((x, y))[0], (A, B)),
    ("irfft", lambda x, y: ops.irfft((x, y)), (A, B)),
    ("jvp", lambda x, t: ops.jvp(lambda a: ops.sin(a) * a, (x,), (t,))[1], (A, B)),
]


@pytest.mark.parametrize("name,f,args", MORE_GRADIENTS, ids=[g[0] for g in MORE_GRADIENTS])
def test_more_gradients_match_finite_differences(name, f, args):
    check_grads(f, *args)


@pytest.mark.parametrize("call,hint", [
    (lambda x: ops.bincount(x), "largest value"),
    (lambda x: ops.unique(x), "distinct"),
    (lambda x: ops.segment_sum(tf.cast(x, "float32"), x), "num_segments"),
])
def test_value_dependent_shapes_in_tf_function_say_what_to_do(call, hint):
    with pytest.raises(ValueError, match=hint):
        tf.function(call)(tf.constant([0, 1, 1, 3]))


def test_segment_sum_in_tf_function_with_num_segments():
    f = tf.function(lambda d, i: ops.segment_sum(d, i, num_segments=2))
    out = f(tf.constant([1.0, 2.0, 4.0]), tf.constant([0, 1, 0]))
    assert out.numpy().tolist() == [5.0, 2.0]


def test_fourier_round_trips():
    x = tf.constant(A)
    real, imag = ops.ifft2(ops.fft2((x, tf.constant(B))))
    np.testing.assert_allclose(real.numpy(), A, atol=1e-12)
    np.testing.assert_allclose(imag.numpy(), B, atol=1e-12)
    np.testing.assert_allclose(ops.irfft(ops.rfft(x), fft_length=4).numpy(), A, atol=1e-12)
    with pytest.raises(ValueError, match="real and imaginary"):
        ops.fft(x)


def test_jvp_equals_jacobian_times_tangent():
    x, t = tf.constant(A[0]), tf.constant(B[0])
    out, tangent = ops.jvp(lambda a: ops.softmax(a), (x,), (t,))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.softmax(x)
    jacobian = tape.jacobian(y, x).numpy()
    np.testing.assert_allclose(tangent.numpy(), jacobian @ B[0], rtol=1e-10)


def test_argpartition_puts_the_kth_smallest_in_place():
    x = tf.constant([[5.0, 1.0, 4.0, 2.0, 3.0], [0.5, 0.1, 0.9, 0.3, 0.7]])
    order = ops.argpartition(x, 2, axis=1).numpy()
    values = np.take_along_axis(x.numpy(), order, axis=1)
    assert values[:, 2].tolist() == [3.0, 0.5]
    assert (values[:, :2].max(axis=1) <= values[:, 2]).all()
    assert (values[:, 3:].min(axis=1) >= values[:, 2]).all()


def test_normalize_caps_the_inverse_norm_not_the_squared_sum():
    """Keras: x * min(rsqrt(sum(x**2)), 1/epsilon); a tiny vector still becomes a unit vector."""
    tiny = ops.normalize(tf.constant([[1e-4, 0.0]]))  # sum 1e-8 < epsilon 1e-7
    np.testing.assert_allclose(tiny.numpy(), [[1.0, 0.0]], rtol=1e-6)
    assert ops.normalize(tf.constant([[0.0, 0.0]])).numpy().tolist() == [[0.0, 0.0]]
    assert ops.normalize(2.0).numpy().tolist() == [1.0]  # a scalar is one vector of one
    for bad in (0, 1.5):
        with pytest.raises(ValueError, match="must be an int >= 1"):
            ops.normalize(tf.constant([1.0]), order=bad)
