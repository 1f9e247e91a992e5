"""`tf.keras.ops` against real TF 2.21's: ~480 calls, one TF subprocess, same dtype/shape/values.

The table is `op_cases.py`: each entry is an expression over fixed NumPy inputs.
It runs once under real TensorFlow (tests/real_tf.py) and once under minitf;
every entry must succeed in TF (so the table only holds meaningful calls) and
give the same dtype, shape and values (to float32 rounding) in minitf.
"""
import math

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

import op_cases

TF_CODE = ("import tensorflow as tf\nops = tf.keras.ops\n" + op_cases.SETUP
           + f"\nTABLE = {op_cases.TABLE!r}\n" + op_cases.EVALUATOR)


@pytest.fixture(scope="module")
def real_results():
    require_tf()
    return run_tf_json(TF_CODE)


@pytest.fixture(scope="module")
def minitf_results():
    scope = {"ops": tf.keras.ops, "TABLE": op_cases.TABLE}
    exec(op_cases.SETUP, scope)
    printed = []
    scope["print"] = printed.append
    exec(op_cases.EVALUATOR, scope)
    import json
    return json.loads(printed[-1])


def _tolerance(dtype):
    return {"float16": (2e-3, 2e-3), "float64": (1e-9, 1e-12)}.get(dtype, (2e-5, 2e-6))


def assert_same(got, want, where):
    assert set(got) == set(want), f"{where}: minitf gave {got}, TF gave {want}"
    if "items" in want:
        assert len(got["items"]) == len(want["items"]), where
        for k, (a, b) in enumerate(zip(got["items"], want["items"])):
            assert_same(a, b, f"{where}[{k}]")
    elif "python" in want or "str" in want:
        assert got == want, where
    else:
        assert got["dtype"] == want["dtype"], f"{where}: dtype {got['dtype']} != {want['dtype']}"
        assert got["shape"] == want["shape"], f"{where}: shape {got['shape']} != {want['shape']}"
        rtol, atol = _tolerance(want["dtype"])
        np.testing.assert_allclose(np.array(got["value"], dtype=np.float64),
                                   np.array(want["value"], dtype=np.float64),
                                   rtol=rtol, atol=atol, err_msg=where)


@pytest.mark.parametrize("expr", op_cases.TABLE)
def test_same_as_real_tf(expr, real_results, minitf_results):
    want = real_results[expr]
    assert "error" not in want, f"the table holds a call real TF refuses: {want['error']}"
    got = minitf_results[expr]
    assert "error" not in got, f"minitf failed: {got['error']}"
    assert_same(got, want, expr)


# Every keras.ops name the table calls, spelled out (tests/api_coverage reads names got with
# getattr(tf.keras.ops, name) as evidence); the test below keeps it equal to the table's calls.
CALLED = (
    "abs", "absolute", "adaptive_average_pool", "adaptive_max_pool", "add", "all", "allclose",
    "amax", "amin", "angle", "any", "append", "arange", "arccos", "arccosh", "arcsin", "arcsinh",
    "arctan", "arctan2", "arctanh", "argmax", "argmin", "argsort", "array", "array_split",
    "associative_scan", "average", "average_pool", "bartlett", "batch_normalization",
    "binary_crossentropy", "bincount", "bitwise_and", "bitwise_invert", "bitwise_left_shift",
    "bitwise_not", "bitwise_or", "bitwise_right_shift", "bitwise_xor", "blackman", "broadcast_to",
    "cast", "categorical_crossentropy", "cbrt", "cdist", "ceil", "celu", "cholesky",
    "cholesky_inverse", "clip", "concatenate", "cond", "conj", "conjugate", "conv",
    "conv_transpose", "convert_to_numpy", "convert_to_tensor", "copy", "corrcoef", "correlate",
    "cos", "cosh", "count_nonzero", "cross", "cumprod", "cumsum", "deg2rad", "depth_to_space",
    "depthwise_conv", "det", "diag", "diagflat", "diagonal", "diff", "digitize", "divide",
    "divide_no_nan", "dot", "dot_product_attention", "dsplit", "dstack", "dtype", "eigh",
    "einsum", "elu", "empty", "empty_like", "equal", "erf", "erfc", "erfinv", "exp", "exp2",
    "expand_dims", "expm1", "extract_sequences", "eye", "fabs", "fft", "fft2", "flip", "fliplr",
    "flipud", "floor", "floor_divide", "fmax", "fmin", "fmod", "fold", "fori_loop", "full",
    "full_like", "gcd", "gelu", "geomspace", "get_item", "glu", "greater", "greater_equal",
    "hamming", "hanning", "hard_shrink", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh",
    "heaviside", "histogram", "hsplit", "hstack", "hypot", "i0", "identity", "ifft2", "imag",
    "in_top_k", "inner", "inv", "irfft", "is_tensor", "isclose", "isfinite", "isin", "isinf",
    "isnan", "isneginf", "isposinf", "isreal", "jvp", "kaiser", "kron", "layer_normalization",
    "lcm", "ldexp", "leaky_relu", "left_shift", "less", "less_equal", "linspace", "log", "log10",
    "log1p", "log2", "log_sigmoid", "log_softmax", "logaddexp", "logaddexp2", "logdet",
    "logical_and", "logical_not", "logical_or", "logical_xor", "logspace", "logsumexp", "lstsq",
    "map", "matmul", "matrix_rank", "max", "max_pool", "maximum", "mean", "median", "meshgrid",
    "min", "minimum", "mod", "moments", "moveaxis", "multi_hot", "multiply", "nan_to_num",
    "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmean", "nanmedian",
    "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar", "ndim",
    "negative", "nextafter", "nonzero", "norm", "normalize", "not_equal", "one_hot", "ones",
    "ones_like", "outer", "pad", "percentile", "pinv", "polar", "power", "prod", "psnr", "ptp",
    "qr", "quantile", "rad2deg", "ravel", "real", "rearrange", "reciprocal", "relu", "relu6",
    "repeat", "reshape", "rfft", "right_shift", "rms_normalization", "roll", "rot90", "round",
    "rsqrt", "saturate_cast", "scan", "scatter", "scatter_update", "searchsorted", "segment_max",
    "segment_min", "segment_prod", "segment_sum", "select", "selu", "separable_conv", "shape",
    "sigmoid", "sign", "signbit", "silu", "sin", "sinc", "sinh", "size", "slice", "slice_update",
    "slogdet", "soft_shrink", "softmax", "softplus", "softsign", "solve", "solve_triangular",
    "sort", "space_to_depth", "sparse_categorical_crossentropy", "sparse_plus", "sparse_sigmoid",
    "split", "sqrt", "square", "squareplus", "squeeze", "stack", "std", "stft", "stop_gradient",
    "subtract", "sum", "svd", "swapaxes", "swish", "switch", "take", "take_along_axis", "tan",
    "tanh", "tanh_shrink", "tensordot", "threshold", "tile", "top_k", "trace", "transpose",
    "trapezoid", "tri", "tril", "triu", "true_divide", "trunc", "unfold", "unique",
    "unravel_index", "unstack", "vander", "var", "vdot", "vectorized_map", "view", "view_as_complex",
    "view_as_real", "vsplit", "vstack", "where", "while_loop", "zeros", "zeros_like",
)


def test_called_names_are_the_tables():
    called = {name for expr in op_cases.TABLE for name in _names_in(expr)
              if callable(getattr(tf.keras.ops, name, None))}
    assert sorted(called) == list(CALLED)
    assert all(callable(getattr(tf.keras.ops, name)) for name in CALLED)


def test_table_covers_most_names():
    """Every name the table calls is a real `keras.ops` name, and it calls most of minitf's."""
    called = {name for expr in op_cases.TABLE for name in _names_in(expr)}
    ours = {n for n in dir(tf.keras.ops) if not n.startswith("_")}
    untested = sorted(n for n in ours - called if callable(getattr(tf.keras.ops, n))
                      and not _is_module_name(n))
    assert len(untested) < 0.1 * len(ours), f"names no table entry calls: {untested}"


def _names_in(expr):
    import re
    return re.findall(r"(?<![\w.])([a-z_][a-z0-9_]*)\(", expr)  # calls, not np.x( or ops.x(


def _is_module_name(name):
    return isinstance(getattr(tf.keras.ops, name), type(math))
