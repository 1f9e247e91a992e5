"""The universal oracle: compare tape gradients with finite differences.

`check_grads(f, *args)` evaluates `f` on float64 copies of `args`, takes the
tape gradient of `sum(f(*args) * w)` for a fixed random weight `w`, and
compares it with central differences. `order=2` checks the gradient of
that gradient (nested tapes) against differences of first-order gradients.
"""
import numpy as np

import minitf as tf

EPS = 1e-6


def _weighted_sum(y, w):
    return tf.reduce_sum(y * w)


def _weights(f, args):
    y = f(*[tf.constant(a) for a in args])
    rng = np.random.default_rng(7)
    return tf.constant(rng.uniform(0.5, 1.5, size=y.shape.as_list()))


def numerical_gradient(scalar_fn, args, index, eps=EPS):
    """Central differences of `scalar_fn` (NumPy arrays -> float) w.r.t. args[index]."""
    base = [np.array(a, dtype=np.float64, order="C") for a in args]
    grad = np.zeros_like(base[index])
    flat = grad.reshape(-1)
    for i in range(flat.size):
        plus = [a.copy() for a in base]
        minus = [a.copy() for a in base]
        plus[index].reshape(-1)[i] += eps
        minus[index].reshape(-1)[i] -= eps
        flat[i] = (scalar_fn(plus) - scalar_fn(minus)) / (2 * eps)
    return grad


def tape_gradient(f, args, w):
    xs = [tf.constant(np.array(a, dtype=np.float64, order="C")) for a in args]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = _weighted_sum(f(*xs), w)
    return [None if g is None else g.numpy() for g in tape.gradient(y, xs)]


def check_grads(f, *args, order=1, rtol=1e-5, atol=1e-6, wrt=None):
    """Assert the tape gradient of `f` at `args` matches finite differences.

    wrt: indices of the arguments to check (default: all).
    """
    args = [np.array(a, dtype=np.float64, order="C") for a in args]
    wrt = range(len(args)) if wrt is None else wrt
    w = _weights(f, args)

    def value(arrays):
        return float(_weighted_sum(f(*[tf.constant(a) for a in arrays]), w).numpy())

    analytic = tape_gradient(f, args, w)
    for i in wrt:
        expected = numerical_gradient(value, args, i)
        got = np.zeros_like(expected) if analytic[i] is None else analytic[i]
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol,
                                   err_msg=f"first-order gradient of argument {i}")
    if order >= 2:
        _check_second_order(f, args, w, wrt, rtol, atol)


def _check_second_order(f, args, w, wrt, rtol, atol):
    """d/dx_j <grad_i f, v>: nested tapes vs differences of first-order gradients."""
    rng = np.random.default_rng(11)
    for i in wrt:
        v = rng.uniform(0.5, 1.5, size=np.shape(args[i]))

        def directional(arrays, i=i, v=v):
            g = tape_gradient(f, arrays, w)[i]
            return 0.0 if g is None else float(np.sum(g * v))

        xs = [tf.constant(a) for a in args]
        with tf.GradientTape(persistent=True) as outer:
            for x in xs:
                outer.watch(x)
            with tf.GradientTape() as inner:
                for x in xs:
                    inner.watch(x)
                y = _weighted_sum(f(*xs), w)
            g = inner.gradient(y, xs[i])
            z = tf.reduce_sum(g * v) if g is not None else None
        for j in wrt:
            expected = numerical_gradient(directional, args, j, eps=1e-5)
            got = outer.gradient(z, xs[j]) if z is not None else None
            got = np.zeros_like(expected) if got is None else got.numpy()
            np.testing.assert_allclose(got, expected, rtol=max(rtol, 1e-4), atol=max(atol, 1e-5),
                                       err_msg=f"second-order d/dx{j} of gradient {i}")
