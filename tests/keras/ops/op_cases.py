"""The table `test_ops_vs_tf.py` runs under real TF and under minitf: (id, expression).

Each expression is evaluated with `ops` bound to `tf.keras.ops` (real TF) or
`minitf.keras.ops`, over the NumPy inputs SETUP makes; both results are
compared for dtype, shape and values.
"""
SETUP = """
import numpy as np
rng = np.random.RandomState(0)
f = rng.randn(3, 4).astype("float32")
g = rng.randn(3, 4).astype("float32")
d = rng.randn(3, 4)                                   # float64
h = f.astype("float16")
p = rng.uniform(0.1, 0.9, (3, 4)).astype("float32")   # in (0, 1)
big = (1.5 + rng.uniform(0, 2, (3, 4))).astype("float32")  # > 1
i = np.array([[1, -2, 3, 0], [4, 5, -6, 7], [0, 1, 2, 3]], "int32")
j = np.array([[2, 1, 3, 1], [1, 2, 2, 3], [3, 1, 1, 2]], "int32")
l = i.astype("int64")
i8 = i.astype("int8")
u8 = np.abs(i).astype("uint8")
b = i > 0
v = np.array([1.0, 2.0, 3.0], "float32")
w = np.array([0.5, -1.0, 2.0], "float32")
sq = (f[:, :3].T @ f[:, :3] + 3 * np.eye(3)).astype("float32")   # symmetric positive-definite
img = rng.randn(2, 5, 5, 3).astype("float32")
k2 = rng.randn(3, 3, 3, 2).astype("float32")
seq = rng.randn(2, 6, 3).astype("float32")
k1 = rng.randn(2, 3, 4).astype("float32")
fn = f.copy(); fn[0, 1] = np.nan; fn[2, [0, 3]] = np.nan   # with missing values
q4 = rng.randn(2, 3, 2, 4).astype("float32")                # (batch, steps, heads, size)
labels = np.array([[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]], "float32")
"""

UNARY_FLOAT = ["arccos(p)", "arccosh(big)", "arcsin(p)", "arcsinh(f)", "arctan(f)",
               "arctanh(p)", "cos(f)", "cosh(f)", "sin(f)", "sinh(f)", "tan(f)", "tanh(f)",
               "exp(f)", "exp2(f)", "expm1(f)", "log(p)", "log1p(p)", "log2(p)", "log10(p)",
               "sqrt(p)", "ceil(f)", "floor(f)", "fabs(f)", "sinc(f)", "cbrt(f)",
               "deg2rad(f)", "rad2deg(f)", "abs(f)", "absolute(i)", "negative(f)",
               "square(f)", "sign(f)", "round(f)", "round(f, decimals=1)", "trunc(f)",
               "reciprocal(p)", "isfinite(f)", "isinf(f)", "isnan(f)", "signbit(f)",
               "conj(f)", "real(f)", "imag(f)", "nan_to_num(f)", "clip(f, -0.5, 0.5)",
               "isposinf(f)", "isneginf(f)", "isreal(f)"]
UNARY_DTYPES = ["exp(i)", "exp(b)", "exp(h)", "exp(d)", "exp(l)", "sqrt(u8)", "log1p(i8)",
                "cbrt(l)", "cbrt(i)", "deg2rad(l)", "square(b)", "abs(i8)", "sign(i)",
                "round(i)", "trunc(i)", "floor(i)", "ceil(l)", "clip(b, 0, 1)", "isnan(i)",
                "negative(i8)", "clip(i, -1, 2)"]
BINARY = ["add(f, g)", "subtract(f, g)", "multiply(f, g)", "divide(f, p)", "true_divide(f, p)",
          "floor_divide(f, p)", "power(p, g)", "maximum(f, g)", "minimum(f, g)", "mod(f, p)",
          "fmod(f, p)", "arctan2(f, g)", "hypot(f, g)", "logaddexp(f, g)", "logaddexp2(f, g)",
          "heaviside(f, 0.5)", "equal(i, j)", "not_equal(i, j)", "greater(f, g)",
          "greater_equal(i, j)", "less(f, g)", "less_equal(i, j)", "isclose(f, f + 1e-7)",
          "allclose(f, g)", "logical_and(b, i)", "logical_or(b, j)", "logical_xor(b, j)",
          "logical_not(i)", "fmax(f, g)", "fmin(f, g)", "divide_no_nan(f, g * (i > 0))",
          "bitwise_and(i, j)", "bitwise_or(i, j)", "bitwise_xor(i, j)", "bitwise_invert(i)",
          "bitwise_not(j)", "left_shift(j, 2)", "right_shift(i, 1)", "bitwise_left_shift(j, j)",
          "bitwise_right_shift(i, j)"]
PROMOTION = ["add(i, f)", "add(i8, u8)", "add(i8, 1)", "add(i8, 1.5)", "add(h, 2)",
             "add(h, i)", "add(i, l)", "add(u8, 300)", "add(b, i8)", "add(1, 2)",
             "add(1.0, 2)", "multiply(u8, i8)", "subtract(l, 1.5)", "divide(i, j)",
             "divide(i8, 2)", "divide(h, 2)", "divide(l, j)", "floor_divide(i, 2)",
             "power(i, 2)", "power(i, 0.5)", "power(u8, 2)", "maximum(i8, 1.5)",
             "minimum(i, d)", "mod(i, 3)", "mod(i, 2.5)", "greater(i, 2.5)", "equal(i8, u8)",
             "arctan2(i, j)", "hypot(i, j)", "hypot(l, j)", "where(b, i, 0.5)",
             "where(b, i8, u8)", "where(b, f, d)", "concatenate([i, f])",
             "concatenate([i8, u8], axis=1)", "stack([i, f])", "matmul(i, f.T)",
             "matmul(i8, u8.T)", "dot(i, v[:3].tolist() + [1.0])", "einsum('ij,kj->ik', i, f)",
             "tensordot(i, d, axes=2)", "outer(i8, u8)"]
ARRAY = ["reshape(f, (4, 3))", "reshape(f, (-1,))", "ravel(f)", "transpose(f)",
         "transpose(img, (0, 3, 1, 2))", "expand_dims(f, 1)", "expand_dims(f, (0, -1))",
         "squeeze(f[None])", "squeeze(f[:1], 0)", "moveaxis(img, 0, -1)",
         "moveaxis(img, [0, 1], [-1, 0])", "swapaxes(img, 1, 3)", "broadcast_to(v, (2, 3))",
         "concatenate([f, g], axis=1)", "append(f, g)", "append(f, g, axis=0)",
         "stack([f, g], axis=1)", "hstack([f, g])", "hstack([v, w])",
         "vstack([f, g])", "dstack([f, g])", "dstack([v, w])", "split(f, 2, axis=1)",
         "split(f, [1, 3], axis=1)", "array_split(v, 2)", "hsplit(f, 2)", "vsplit(f, 3)",
         "tile(v, 2)", "tile(f, (2, 1))", "tile(v, (2, 1, 2))", "repeat(f, 2)",
         "repeat(f, 2, axis=1)", "repeat(v, [1, 0, 2])", "pad(f, ((0, 1), (2, 0)))",
         "pad(f, ((1, 1), (2, 2)), mode='reflect')", "pad(f, ((1, 1), (1, 1)), mode='symmetric')",
         "pad(i, ((2, 2), (0, 1)), constant_values=9)", "take(f, [0, -1])", "take(f, [2, 0], axis=0)",
         "take(f, [[0, 1], [1, 3]], axis=1)", "take_along_axis(f, argsort(f, axis=1), 1)",
         "take_along_axis(f, argsort(f, axis=0), 0)", "take_along_axis(v, [2, 0], None)",
         "where(f > 0, f, g)", "where(b, 1, 0)", "flip(f)", "flip(f, 1)", "fliplr(f)",
         "flipud(f)", "roll(f, 1)", "roll(f, -1, axis=1)", "roll(f, (1, 2), axis=(0, 1))",
         "rot90(f)", "rot90(img, k=3, axes=(1, 2))", "copy(f)", "ndim(img)",
         "size(f)", "get_item(f, 1)", "meshgrid(v, w[:2])", "meshgrid(v, w, indexing='ij')",
         "select([f > 0.5, f < -0.5], [f, g], 7)", "nonzero(i)", "where(b)"]
REDUCTIONS = ["sum(f)", "sum(f, axis=0)", "sum(f, axis=(0, 1), keepdims=True)", "sum(i8)",
              "sum(u8)", "sum(b)", "sum(l)", "prod(f, axis=1)", "prod(i8)", "mean(f)",
              "mean(f, axis=1, keepdims=True)", "mean(i)", "mean(h)", "mean(l)",
              "var(f, axis=0)", "var(i)", "std(f)", "std(h, axis=1)", "max(f)",
              "max(f, axis=1)", "max(i, initial=5)", "max(b)", "min(f, axis=0)", "min(b)",
              "amax(f, axis=1)", "amin(i)", "ptp(f, axis=1)", "all(i)", "all(b, axis=0)",
              "any(i, axis=1, keepdims=True)", "count_nonzero(i)", "count_nonzero(i, axis=0)",
              "logsumexp(f)", "logsumexp(f, axis=1)", "average(f)", "average(f, axis=1, weights=p)",
              "average(f, axis=1, weights=p[0])", "average(i)", "argmax(f)",
              "argmax(f, axis=1)", "argmax(f, axis=0, keepdims=True)", "argmin(i, axis=1)",
              "argmax(i)", "argmax(f, keepdims=True)", "cumsum(f)", "cumsum(f, axis=1)",
              "cumsum(b)", "cumprod(p, axis=0)", "cumsum(i8, axis=0)", "sort(f)",
              "sort(f, axis=0)", "sort(i, axis=None)", "sort(b)", "argsort(f)",
              "argsort(i, axis=0)", "argsort(v, axis=None)", "quantile(f, 0.3)",
              "quantile(f, [0.2, 0.9], axis=1)", "quantile(f, 0.5, axis=0, keepdims=True)",
              "quantile(f, 0.4, method='lower')", "quantile(f, 0.4, method='higher')",
              "quantile(f, 0.4, method='nearest')", "quantile(f, 0.4, method='midpoint')",
              "percentile(f, 25)", "median(f)", "median(f, axis=1)", "median(i)",
              "top_k(f, 2)", "in_top_k(np.array([1, 3, 0]), f, 2)"]
CREATION = ["arange(5)", "arange(1, 7, 2)", "arange(0, 1, 0.25)", "arange(2.0)",
            "arange(5, dtype='float32')", "linspace(0, 1, 5)", "linspace(0, 1, 4, endpoint=False)",
            "linspace(v, w, 3)", "linspace(v, w, 3, axis=1)", "linspace(0, 10, 3, dtype='int32')",
            "logspace(0, 2, 3)", "logspace(0, 3, 4, base=2)", "geomspace(1, 1000, 4)",
            "zeros((2, 3))", "ones((2,), dtype='int32')", "full((2, 2), 7)",
            "full((2,), 1.5, dtype='float64')", "zeros_like(i)", "ones_like(f)",
            "full_like(i, 2.7)", "full_like(f, 3, dtype='int32')", "eye(3)", "eye(3, k=1)",
            "eye(3, k=-1, dtype='int32')", "identity(2)", "tri(3)", "tri(3, 4, k=1)",
            "tril(f)", "tril(f, k=-1)", "triu(f)", "triu(f, 1)", "diagonal(f)",
            "diagonal(f, offset=1)", "diagonal(img, 0, 1, 2)", "trace(f)", "trace(i8)",
            "diag(v)", "diag(v, k=1)", "diag(f)", "diag(f, -1)", "diagflat(f[:1, :2])",
            "array([1, 2])", "array([1.5])", "array(i, dtype='float32')", "vander(v)",
            "vander(v, 2, increasing=True)"]
PRODUCTS = ["matmul(f, g.T)", "matmul(v, sq)", "matmul(sq, v)", "matmul(v, w)",
            "dot(f, g.T)", "dot(v, w)", "dot(f, v.tolist() + [1.0])",
            "dot(img, k1[:, :, :2].reshape(3, 4))", "tensordot(f, g, axes=([1], [1]))",
            "tensordot(f, g, axes=2)", "einsum('ij,kj->ik', f, g)", "einsum('ii', sq)",
            "einsum('bij,bjk->bik', img[:, 0], img[:, 1].transpose(0, 2, 1))",
            "outer(v, w)", "inner(f, g)", "inner(v, w)", "vdot(f, g)", "kron(f[:2, :2], sq)",
            "cross(v, w)", "cross(f[:, :3], g[:, :3])"]
NN = ["relu(f)", "relu(i)", "relu6(f * 5)", "sigmoid(f)", "softplus(f)", "softsign(f)",
      "silu(f)", "swish(f)", "log_sigmoid(f)", "hard_sigmoid(f)", "hard_silu(f)",
      "hard_swish(f)", "selu(f)", "elu(f)", "elu(f, alpha=0.5)", "celu(f)", "glu(f)",
      "tanh_shrink(f)", "hard_tanh(f)", "hard_shrink(f)", "soft_shrink(f, 0.3)",
      "threshold(f, 0.1, -1.0)", "sparse_plus(f)", "squareplus(f)", "sparse_sigmoid(f)",
      "leaky_relu(f)", "leaky_relu(f, negative_slope=0.1)", "gelu(f)",
      "gelu(f, approximate=False)", "softmax(f)", "softmax(f, axis=0)", "log_softmax(f)",
      "one_hot(np.array([0, 2, 1]), 3)", "one_hot(np.array([0, 2, -1]), 3, dtype='int32')",
      "one_hot(np.array([[0, 2]]), 3, axis=0)", "multi_hot(np.array([[0, 2], [1, 1]]), 3)",
      "categorical_crossentropy(labels, p)", "categorical_crossentropy(labels, f, from_logits=True)",
      "sparse_categorical_crossentropy(np.array([1, 3, 0]), p)",
      "sparse_categorical_crossentropy(np.array([1, 3, 0]), f, from_logits=True)",
      "binary_crossentropy(labels, p)", "binary_crossentropy(labels, f, from_logits=True)",
      "moments(f, axes=[0])", "moments(img, axes=[0, 1, 2], keepdims=True)",
      "batch_normalization(f, np.array(v.tolist() + [0.0]), np.array(w.tolist() + [1.5]), axis=1)",
      "batch_normalization(f, p[0], big[0], axis=1, offset=g[0], scale=p[1], epsilon=0.01)",
      "normalize(f)", "normalize(f, axis=0, order=1)", "normalize(f * 1e-4)", "normalize(2.0)",
      "layer_normalization(f)",
      "layer_normalization(f, gamma=p[0], beta=g[0], epsilon=0.1)", "rms_normalization(f)",
      "rms_normalization(f, scale=p[0])", "psnr(p, p * 0.9, 1.0)",
      "conv(img, k2)", "conv(img, k2, strides=2, padding='same')",
      "conv(img, k2, dilation_rate=2, padding='same')", "conv(seq, k1)",
      "conv(seq, k1, padding='same', strides=2)",
      "depthwise_conv(img, k2[..., :1].transpose(0, 1, 3, 2).repeat(3, 2)[..., :1].reshape(3, 3, 3, 1))",
      "depthwise_conv(img, k2.reshape(3, 3, 3, 2), strides=2, padding='same')",
      "separable_conv(img, k2[..., :1].reshape(3, 3, 3, 1), k1[:1].reshape(1, 1, 3, 4))",
      "max_pool(img, 2)", "max_pool(img, 3, strides=1, padding='same')",
      "average_pool(img, 2, padding='same')", "average_pool(seq, 2)", "max_pool(seq, 3, 2)"]
LINALG = ["det(sq)", "inv(sq)", "solve(sq, v)", "solve(sq, f[:, :2])",
          "solve_triangular(tril(sq), f[:, :2], lower=True)", "solve_triangular(triu(sq), v)",
          "cholesky(sq)", "cholesky(sq, upper=True)", "cholesky_inverse(cholesky(sq))",
          "eigh(sq)[0]", "abs(eigh(sq)[1])", "abs(qr(f)[0])", "abs(qr(f)[1])",
          "abs(qr(f.T, mode='complete')[0])", "svd(f)[1]", "svd(f, compute_uv=False)",
          "abs(svd(f, full_matrices=False)[0])", "norm(f)", "norm(v)", "norm(f, axis=1)",
          "norm(f, ord=1, axis=1)", "norm(f, ord='fro')", "norm(f, ord=1, axis=(0, 1))",
          "norm(v, ord=np.inf)", "lstsq(f.T, v.tolist() + [0.0])", "logdet(sq)"]
CORE = ["convert_to_tensor([1, 2])", "convert_to_tensor([1.7, -2.2], dtype='int32')",
        "convert_to_tensor(f, dtype='float64')", "convert_to_tensor(3)", "cast(f, 'int32')",
        "cast(i, 'bool')", "saturate_cast(f * 300, 'uint8')", "saturate_cast(f * 1e5, 'int16')",
        "shape(f)", "dtype(f)", "dtype(i8)", "is_tensor(f)", "is_tensor(ops.ones(2))",
        "stop_gradient(f)", "cond(True, lambda: f, lambda: g)", "cond(f[0, 0] > 5, lambda: f, lambda: g)",
        "while_loop(lambda x: x < 100, lambda x: x * 2, 1)",
        "while_loop(lambda a, b: a < 5, lambda a, b: (a + 1, b * 2.0), (0, 1.0))",
        "fori_loop(0, 5, lambda k, t: t + k, 0)", "fori_loop(0, 3, lambda k, x: x * 2.0, v)",
        "scan(lambda c, x: (c + x, c * x), 0.0, v)", "scan(lambda c, x: (c + x, c), f[0], f)",
        "scan(lambda c, x: (c + x, c), 0.0, v, reverse=True)",
        "associative_scan(ops.add, v)", "associative_scan(ops.multiply, f, axis=1)",
        "associative_scan(ops.add, f, reverse=True)",
        "switch(1, [lambda x: x + 1, lambda x: x * 10], f)",
        "switch(5, [lambda x: x + 1, lambda x: x * 10], f)",
        "map(lambda x: x * x, f)", "vectorized_map(lambda x: ops.sum(x), f)",
        "slice(f, (0, 1), (2, 2))", "slice_update(f, (1, 1), ops.ones((2, 2)))",
        "scatter([[1], [3]], [5.0, 7.0], (4,))", "scatter_update(f, [[0, 0], [2, 3]], [1.0, 2.0])",
        "unstack(f)", "unstack(f, axis=1)", "convert_to_numpy(f)"]

NAN = ["nansum(fn)", "nansum(fn, axis=1)", "nanmean(fn)", "nanmean(fn, axis=0, keepdims=True)",
       "nanvar(fn, axis=1)", "nanstd(fn)", "nanmax(fn, axis=1)", "nanmin(fn)", "nanprod(fn, axis=0)",
       "nanargmax(fn, axis=1)", "nanargmin(fn)", "nancumsum(fn, axis=1)", "nancumprod(fn)",
       "nanmedian(fn, axis=1)", "nanquantile(fn, 0.3)", "nanquantile(fn, [0.2, 0.7], axis=1)",
       "nanpercentile(fn, 40, axis=0)", "nansum(i)", "nanmean(i)", "nanmax(i, axis=0)"]
MORE = ["diff(f)", "diff(f, n=2, axis=0)", "diff(i)", "diff(b)", "isin(i, [1, 3, 7])",
        "isin(i, j, invert=True)", "searchsorted(np.sort(v), w)", "searchsorted(v, w, side='right')",
        "digitize(f, [-1.0, 0.0, 1.0])", "digitize(i, [0, 2, 4])", "bincount(np.array([0, 1, 1, 4]))",
        "bincount(np.array([0, 1, 1, 4]), weights=np.array([0.5, 1.0, 2.0, 3.0], 'float32'))",
        "bincount(np.array([0, 2]), minlength=5)", "histogram(v)", "histogram(f.ravel(), bins=4)",
        "histogram(f.ravel(), bins=3, range=(-1.0, 1.0))", "trapezoid(f)", "trapezoid(f, dx=0.5, axis=0)",
        "trapezoid(f, x=np.array([0.0, 1.0, 3.0, 4.0], 'float32'))", "trapezoid(i)", "corrcoef(f)",
        "corrcoef(i)", "correlate(v, w)", "correlate(f[0], v, mode='same')", "correlate(f[0], v, mode='full')",
        "correlate(np.array([1, 2, 3]), np.array([1, 1]))", "unravel_index(np.array([5, 7, 2]), (2, 4))",
        "gcd(i, j)", "gcd(np.array([12, 0, -8]), 18)",
        "lcm(i, j)", "ldexp(f, j)", "ldexp(v, np.array([1, 2, -1]))", "i0(f)", "i0(i)", "i0(l)", "angle(f)",
        "angle(i)", "bartlett(5)", "hamming(6)", "hanning(5)", "blackman(7)", "kaiser(6, 3.0)",
        "hamming(1)", "slogdet(sq)", "erf(f)", "erfc(f)", "erfinv(p)", "erfinv(f * 0.3)", "erfinv(d * 0.3)",
        "rsqrt(p)", "segment_sum(f, np.array([0, 0, 1]))", "segment_sum(f, np.array([0, 1, 1]), num_segments=3)",
        "segment_max(f, np.array([0, 0, 2]))", "segment_min(f, np.array([1, 1, 2]), num_segments=4)",
        "segment_prod(f, np.array([0, 0, 1]))", "segment_max(f, np.array([0, 0, 2]), sorted=True)",
        "segment_sum(v, np.array([0, 1, 1]), sorted=True)", "cdist(f, g)", "cdist(img[0, 0], img[0, 1])",
        "extract_sequences(f, 2, 1)", "extract_sequences(v, 2, 2)", "pinv(f)", "pinv(sq)",
        "matrix_rank(f)", "matrix_rank(np.ones((3, 3), 'float32'))", "matrix_rank(sq, tol=2.5)",
        "dot_product_attention(q4, q4, q4)", "dot_product_attention(q4, q4[::-1], q4, is_causal=True)",
        "dot_product_attention(q4, q4, q4, scale=0.1, mask=np.array([[True, False, True]] * 3))",
        "dot_product_attention(q4, q4, q4, bias=np.ones((1, 2, 3, 3), 'float32'))",
        "conv_transpose(img, k2.transpose(0, 1, 3, 2))", "conv_transpose(img, k2.transpose(0, 1, 3, 2), strides=2)",
        "conv_transpose(img, k2.transpose(0, 1, 3, 2), strides=2, padding='same')",
        "conv_transpose(seq, k1.transpose(0, 2, 1), padding='same')",
        "depth_to_space(np.arange(32, dtype='float32').reshape(1, 2, 2, 8), 2)",
        "space_to_depth(np.arange(48, dtype='float32').reshape(1, 4, 4, 3), 2)",
        "unique(np.array([3, 1, 3, 2]))", "unique(i, return_counts=True)",
        "unique(i, return_index=True, return_inverse=True)", "unique(f.round(0))",
        "unique(np.array([3, 1, 3, 2]), sorted=False, return_inverse=True)",
        "unique(np.array([[1, 2], [1, 2], [0, 5]]), axis=0)", "unique(i, size=3)",
        "unique(np.array([1, 1]), size=3, fill_value=-1)",
        "rearrange(img, 'b h w c -> b (h w) c')", "rearrange(img, 'b h w c -> c b w h')",
        "rearrange(f, '(a b) c -> b a c', a=3)", "rearrange(seq, 'b t (c d) -> b c t d', d=1)",
        "adaptive_average_pool(convert_to_tensor(img), 2)", "adaptive_max_pool(convert_to_tensor(img), (3, 2))",
        "adaptive_average_pool(convert_to_tensor(seq), 4)", "adaptive_max_pool(convert_to_tensor(seq), 5)",
        "adaptive_average_pool(img.transpose(0, 3, 1, 2), 3, data_format='channels_first')",
        "unfold(img.transpose(0, 3, 1, 2), 2)", "unfold(img.transpose(0, 3, 1, 2), 3, padding=1, stride=2)",
        "unfold(img.transpose(0, 3, 1, 2), (2, 3), dilation=2)",
        "fold(unfold(img.transpose(0, 3, 1, 2), 2), (5, 5), 2)",
        "fold(unfold(img.transpose(0, 3, 1, 2), 3, padding=1, stride=2), (5, 5), 3, padding=1, stride=2)",
        "fft((f, g))", "fft((img[..., 0], img[..., 1]))", "fft2((f, g))", "ifft2((f, g))",
        "fft2((img[..., 0], img[..., 1]))", "rfft(f)", "rfft(f, fft_length=6)", "rfft(v, 2)",
        "irfft((f, g))", "irfft((f, g), fft_length=5)", "irfft((f[:, :3], g[:, :3]), 3)",
        "jvp(lambda a: a * a, (convert_to_tensor(v),), (convert_to_tensor(w),))",
        "jvp(lambda a, c: (a * c, ops.sum(a)), (convert_to_tensor(f), convert_to_tensor(g)), "
        "(convert_to_tensor(g), convert_to_tensor(p)))",
        "jvp(lambda a: (ops.exp(a), 7), (convert_to_tensor(v),), (convert_to_tensor(w),), has_aux=True)",
        "conjugate(f)", "dsplit(img[0], 3)", "empty((2, 3))", "empty_like(i)", "nextafter(f, g)",
        "nextafter(v, 10.0)", "stft(f, 2, 1, 4)", "stft(seq[:, :, 0], 3, 2, 4, window='hamming')",
        "stft(img[0, 0].T, 3, 1, 3, window=None, center=False)",
        "stft(d, 4, 2, 4, window=np.array([1.0, 2.0, 2.0, 1.0]))",
        "view_as_real(view_as_complex(img[..., :2]))", "view_as_real(polar(p, f))",
        "real(view_as_complex(img[..., 1:]))", "imag(polar(p, f))", "angle(polar(p, f * 0.5))",
        "abs(view_as_complex(img[..., :2]))", "view_as_real(multiply(polar(p, g), polar(p, f)))",
        "view(f, 'int32')", "view(i, 'int16')", "view(i8, 'int32')", "view(f, 'uint8')",
        "view(d, 'float32')", "view(h, 'int16')", "view(u8[:, :2], 'float16')", "view(f)",
        "view(np.float32(1.5), 'int32')", "view(i[:, :2], 'int64')", "view(f[0:1, :], 'int64')"]

TABLE = [*NAN, *MORE, *UNARY_FLOAT, *UNARY_DTYPES, *BINARY, *PROMOTION, *ARRAY, *REDUCTIONS, *CREATION,
         *PRODUCTS, *NN, *LINALG, *CORE]

# Run after SETUP with `ops` and TABLE defined; prints {expression: description} as JSON.
EVALUATOR = """
import json, math
def describe(r):
    if isinstance(r, (tuple, list)):
        return {"items": [describe(x) for x in r]}
    if isinstance(r, str):
        return {"str": r}
    if isinstance(r, (bool, int, float)) and not hasattr(r, "dtype"):
        return {"python": r}
    a = np.asarray(r.numpy() if hasattr(r, "numpy") else r)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "value": a.tolist()}
names = {n: getattr(ops, n) for n in dir(ops) if not n.startswith("_")}
names.update({k: v for k, v in globals().items() if not k.startswith("_")})
results = {}
for expr in TABLE:
    try:
        results[expr] = describe(eval(expr, names))
    except Exception as e:
        results[expr] = {"error": type(e).__name__ + ": " + str(e)[:200]}
print(json.dumps(results))
"""
