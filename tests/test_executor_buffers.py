"""Buffers reused where safe (framework/executor.py).

A graph node whose op `accepts_out` gets back the array it made in the previous
run, when nobody else holds that array or its memory, and writes its next
result there. These tests check that the reuse happens, and above all that
it never changes anything a caller, a variable or another view can still see.
"""
import threading

import numpy as np
import pytest

import minitf as tf
from minitf.framework import executor
from minitf.framework.op import Op, usable_out
from minitf.grappler.conv_kernels import Conv2DFromPatches, ConvPatches
from minitf.grappler.elementwise import FusedElementwise, Program, Step
from minitf.ops.manipulation_ops import Pad
from minitf.ops.nn_ops import ReluGrad

pytestmark = pytest.mark.usefixtures("default_grappler_options")


@pytest.fixture
def every_size(monkeypatch):
    """Reuse arrays of any size (the executor leaves arrays under 64 KB to malloc)."""
    monkeypatch.setattr(executor, "SMALL", 0)


def _plan(fn):
    (concrete,) = fn._cache.values()
    return concrete._plan


def _address(array):
    return array.__array_interface__["data"][0]


def _held_once(make):
    """`executor._unshared` called the way the executor calls it: on a value it just
    took out of its list of slots, named once."""
    values = [make()]
    array, values[0] = values[0], None
    return executor._unshared(array)


def test_unshared_sees_every_other_holder():
    def big():
        return np.zeros(1 << 15)

    def named_twice():
        a = big()
        held.append(a)
        return a

    def base_held():
        a = big()
        held.append(a)
        return a.reshape(2, -1)

    def base_viewed_twice():
        a = big().reshape(2, -1)
        held.append(a.reshape(-1))
        return a

    held = []
    assert _held_once(big)
    assert _held_once(lambda: big().reshape(2, -1))  # a view whose memory only it holds
    assert not _held_once(named_twice)
    assert not _held_once(base_held)
    assert not _held_once(base_viewed_twice)
    assert not _held_once(lambda: np.zeros(4))  # small: left to malloc
    assert not _held_once(lambda: np.frombuffer(bytearray(1 << 17), np.uint8))  # not NumPy's


def test_a_node_writes_into_its_array_of_the_previous_run(every_size):
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.pad(x, [[1, 1], [2, 0]]) * 2.0)

    first = f(tf.ones([3, 4]))
    plan = _plan(f)
    (address,) = [_address(a) for a in plan.spares.values()]  # the padded array, given back
    second = f(tf.fill([3, 4], 3.0))
    assert [_address(a) for a in plan.spares.values()] == [address]  # refilled, not new
    assert (float(first), float(second)) == (24.0, 72.0)


def test_results_variables_and_views_are_never_overwritten(every_size):
    v = tf.Variable(tf.zeros([5, 6]))

    @tf.function
    def f(x):
        padded = tf.pad(x, [[1, 1], [1, 1]])
        v.assign(tf.pad(x * 2.0, [[1, 1], [1, 1]]))    # a variable keeps this one
        return padded, tf.reshape(tf.pad(x, [[1, 1], [1, 1]]), [-1]), padded * 1.0

    x1, x2 = tf.ones([3, 4]), tf.fill([3, 4], 7.0)
    out1 = f(x1)
    held = v.value()
    out2 = f(x2)
    expect1, expect2 = np.pad(np.ones((3, 4)), 1), np.pad(np.full((3, 4), 7.0), 1)
    np.testing.assert_array_equal(out1[0], expect1)               # a returned result
    np.testing.assert_array_equal(out1[1], expect1.reshape(-1))   # a view of an intermediate
    np.testing.assert_array_equal(out1[2], expect1)
    np.testing.assert_array_equal(held, 2.0 * expect1)            # what the variable held
    np.testing.assert_array_equal(v.numpy(), 2.0 * expect2)
    np.testing.assert_array_equal(out2[0], expect2)
    np.testing.assert_array_equal(out2[1], expect2.reshape(-1))


def test_threads_calling_one_function_each_get_their_own_numbers(every_size):
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.pad(x, [[2, 2]]) * tf.pad(x, [[2, 2]]))

    f(tf.ones([100]))
    wrong = []

    def work(k):
        x = tf.fill([100], float(k))
        for _ in range(50):
            got = float(f(x))
            if got != 100.0 * k * k:
                wrong.append((k, got))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


# --- every kernel that accepts `out` ---------------------------------------------------
def _cases():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 5, 5, 3)).astype(np.float32)
    window = {"ksize": (3, 3), "strides": (1, 1), "dilations": (1, 1)}
    xt = np.pad(x.transpose(3, 0, 1, 2), [(0, 0), (0, 0), (1, 1), (1, 1)])
    patches = ConvPatches.forward(xt, **window)
    f = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
    dy, y = rng.standard_normal((2, 5)).astype(np.float32), rng.standard_normal((2, 5))
    relu_mask = Program([Step("Greater", (0, 1)), Step("Cast", (3,), (("DstT", tf.float32),)),
                         Step("Mul", (2, 4), reuse=4)], inputs=3)
    relu_mask = Program([s._replace(final=s.op == "Cast") for s in relu_mask], inputs=3)
    return {
        Pad: ((x,), {"paddings": ((0, 0), (1, 2), (0, 1), (0, 0))}),
        ReluGrad: ((dy, y.astype(np.float32)), {}),
        ConvPatches: ((xt,), window),
        Conv2DFromPatches: ((patches, f, np.ones(4, np.float32)),
                            {"output_spatial": (5, 5), "fused_ops": ("BiasAdd", "Relu")}),
        FusedElementwise: ((x, np.float32(0), rng.standard_normal((2, 1, 1, 3)).astype(
            np.float32)), {"program": relu_mask}),
    }


def test_every_op_that_accepts_out_writes_there_with_the_same_numbers():
    cases = _cases()
    ops = {o for o in __import__("gc").get_objects() if isinstance(o, Op) and o.accepts_out}
    assert ops == set(cases), "add a case for each op whose forward takes out="
    for op, (arrays, attrs) in cases.items():
        want = op.forward(*arrays, **attrs)
        spare = np.full_like(want, np.nan)
        got = op.forward(*arrays, out=spare, **attrs)
        np.testing.assert_array_equal(got, want, err_msg=op.name)
        assert np.shares_memory(got, spare), op.name
        wrong_shape = np.zeros(want.size + 1, want.dtype)
        np.testing.assert_array_equal(op.forward(*arrays, out=wrong_shape, **attrs), want)
        assert not wrong_shape.any(), f"{op.name} wrote into an array that does not fit"


def test_usable_out_wants_the_exact_shape_dtype_and_a_writable_contiguous_array():
    a = np.zeros((4, 6), np.float32)
    assert usable_out(a, (4, 6), np.float32) is a
    assert usable_out(None, (4, 6), np.float32) is None
    assert usable_out(a, (4, 6), np.float64) is None
    assert usable_out(a.T, (6, 4), np.float32) is None          # not C-contiguous
    frozen = a.copy()
    frozen.flags.writeable = False
    assert usable_out(frozen, (4, 6), np.float32) is None
