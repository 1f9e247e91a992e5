"""Sum over leading axes (a bias gradient) is one BLAS matrix-vector product;
it must give np.sum's answer for every case it covers, and leave the rest alone."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf
from minitf.ops.reduction_ops import _sum_forward

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("shape, axis", [
    ((32, 6, 6, 16), (0, 1, 2)),
    ((8, 5, 3), (0,)),
    ((8, 5, 3), (0, 1)),
    ((64, 10), (0,)),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("keepdims", [False, True])
def test_leading_axes_sum_matches_numpy(shape, axis, dtype, keepdims):
    x = RNG.standard_normal(shape).astype(dtype)
    got = tf.reduce_sum(tf.constant(x), axis, keepdims=keepdims)
    want = np.sum(x.astype(np.float64), axis=axis, keepdims=keepdims)
    assert got.dtype == tf.as_dtype(dtype) and got.shape == want.shape
    assert np.allclose(got.numpy(), want, rtol=1e-5, atol=1e-4)


def test_fast_path_is_used_and_exact_on_small_integers_as_floats():
    x = np.arange(24, dtype=np.float32).reshape(4, 3, 2)
    out = _sum_forward(x, (0, 1), False)
    assert out.tolist() == [132.0, 144.0]


@pytest.mark.parametrize("x, axis", [
    (np.arange(24).reshape(4, 3, 2), (0, 1)),                        # integers: np.sum
    (np.arange(24.0).reshape(4, 3, 2).transpose(2, 1, 0), (0, 1)),   # not contiguous
    (np.arange(24.0).reshape(4, 3, 2), (1, 2)),                      # trailing axes
    (np.zeros((0, 3)), (0,)),                                        # empty
    (np.array([[1.0, np.inf], [np.nan, 2.0]]), (0,)),                # inf and nan
])
def test_other_cases_agree_with_numpy(x, axis):
    out = _sum_forward(x, axis, False)
    want = np.sum(x, axis=axis, dtype=x.dtype)
    assert out.dtype == want.dtype
    np.testing.assert_array_equal(out, want)


def test_gradient_of_leading_axes_sum():
    check_grads(lambda x: tf.reduce_sum(x, [0, 1]), RNG.standard_normal((3, 4, 2)))
