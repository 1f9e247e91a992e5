"""Speed of minitf as ratios to plain NumPy (same workload, same run).

    python benchmarks/run.py

1. eager `a + b` on 10x10 float32: minitf's per-op overhead above NumPy, in µs.
2. one training step of a 64->128->10 ReLU MLP on 64 samples (forward, softmax
   cross-entropy, tape gradient, SGD update) in eager mode, as a ratio to a
   hand-written NumPy step computing the same numbers.
3. the same step under tf.function: ratio to NumPy and speed-up over eager.
4. a small CNN step (Conv2D 16 3x3 -> Conv2D 16 3x3 -> global average pool ->
   Dense 10, 28x28x1 inputs, batch 32, Adam): eager as a ratio to a hand-written
   NumPy step (im2col convolutions, same numbers), and tf.function vs eager.
5. the overhead of calling an already-traced function on tiny inputs.

Times are the CPU time of the process (best of several batches), so other
programs on a busy machine slow the numbers less. The CNN's three variants each
run in a process of their own, taking turns.
"""
import os
import subprocess
import sys
import time
import timeit

# One BLAS thread for both sides: on a small, busy machine OpenBLAS threads spin
# against each other and make tiny matmuls 100x slower, for NumPy and minitf alike.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402 - after the thread settings
from numpy.lib.stride_tricks import sliding_window_view  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import minitf as tf  # noqa: E402 - the checkout's minitf, whatever the working directory


def best_per_call(fn, number):
    """Seconds per call: the best of 7 batches, in CPU time of this process (on a busy
    machine, wall time also counts the time other processes held the CPU)."""
    return min(timeit.repeat(fn, number=number, repeat=7, timer=time.process_time)) / number


def eager_add_overhead():
    a_np = np.random.rand(10, 10).astype(np.float32)
    b_np = np.random.rand(10, 10).astype(np.float32)
    a, b = tf.constant(a_np), tf.constant(b_np)
    numpy_s = best_per_call(lambda: a_np + b_np, 20000)
    minitf_s = best_per_call(lambda: a + b, 20000)
    return numpy_s * 1e6, minitf_s * 1e6


def mlp_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((64, 64)).astype(np.float32)
    labels = rng.integers(0, 10, size=64)
    w1 = (rng.standard_normal((64, 128)) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((128, 10)) * 0.1).astype(np.float32)
    return x, labels, w1, np.zeros(128, np.float32), w2, np.zeros(10, np.float32)


def numpy_step(x, labels, params, lr=0.1):
    w1, b1, w2, b2 = params
    h_pre = x @ w1 + b1
    h = np.maximum(h_pre, 0)
    logits = h @ w2 + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    probs = exp / exp.sum(axis=1, keepdims=True)
    n = x.shape[0]
    loss = -np.log(probs[np.arange(n), labels]).mean()
    dlogits = probs.copy()
    dlogits[np.arange(n), labels] -= 1
    dlogits /= n
    dw2, db2 = h.T @ dlogits, dlogits.sum(axis=0)
    dh = dlogits @ w2.T
    dh[h_pre <= 0] = 0
    dw1, db1 = x.T @ dh, dh.sum(axis=0)
    for p, g in zip(params, (dw1, db1, dw2, db2)):
        p -= lr * g
    return loss


def minitf_step(x, onehot, params, lr=0.1):
    w1, b1, w2, b2 = params
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
        logits = tf.matmul(h, w2) + b2
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(onehot, logits))
    grads = tape.gradient(loss, params)
    for p, g in zip(params, grads):
        p.assign_sub(lr * g)
    return loss


def mlp_step_ratio():
    x, labels, *params = mlp_data()
    np_params = [p.copy() for p in params]
    tf_params = [tf.Variable(p) for p in params]
    tx, onehot = tf.constant(x), tf.one_hot(labels, 10)
    # Same numbers first: both implementations must agree before we time them.
    for _ in range(3):
        l_np = numpy_step(x, labels, np_params)
        l_tf = float(minitf_step(tx, onehot, tf_params))
        assert abs(l_np - l_tf) < 1e-4, (l_np, l_tf)
    numpy_s = best_per_call(lambda: numpy_step(x, labels, np_params, lr=0.0), 300)
    minitf_s = best_per_call(lambda: minitf_step(tx, onehot, tf_params, lr=0.0), 300)
    return numpy_s * 1e6, minitf_s * 1e6


def graph_mlp_ratios():
    x, labels, *params = mlp_data()
    np_params = [p.copy() for p in params]
    eager_params = [tf.Variable(p) for p in params]
    graph_params = [tf.Variable(p) for p in params]
    tx, onehot = tf.constant(x), tf.one_hot(labels, 10)
    graph_step = tf.function(lambda lr: minitf_step(tx, onehot, graph_params, lr))
    for _ in range(3):  # same numbers first
        l_np = numpy_step(x, labels, np_params)
        l_graph = float(graph_step(0.1))
        assert abs(l_np - l_graph) < 1e-4, (l_np, l_graph)
    numpy_s = best_per_call(lambda: numpy_step(x, labels, np_params, lr=0.0), 300)
    eager_s = best_per_call(lambda: minitf_step(tx, onehot, eager_params, lr=0.0), 300)
    graph_s = best_per_call(lambda: graph_step(0.0), 300)
    return numpy_s * 1e6, eager_s * 1e6, graph_s * 1e6


def cnn_model(seed=0):
    rng = np.random.default_rng(seed)
    shapes = [(3, 3, 1, 16), (16,), (3, 3, 16, 16), (16,), (16, 10), (10,)]
    return [tf.Variable((rng.standard_normal(s) * 0.1).astype(np.float32)) for s in shapes]


def cnn_step(x, onehot, params, slots, step, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-7):
    """Forward, loss, gradients and an Adam update written with minitf ops."""
    k1, c1, k2, c2, w, b = params
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.nn.conv2d(x, k1, 1, "SAME") + c1)
        h = tf.nn.relu(tf.nn.conv2d(h, k2, 1, "SAME") + c2)
        logits = tf.matmul(tf.reduce_mean(h, axis=[1, 2]), w) + b
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(onehot, logits))
    grads = tape.gradient(loss, params)
    step.assign_add(1.0)
    correction = tf.sqrt(1.0 - beta2 ** step) / (1.0 - beta1 ** step)
    for p, g, (m, v) in zip(params, grads, slots):
        m.assign(beta1 * m + (1.0 - beta1) * g)
        v.assign(beta2 * v + (1.0 - beta2) * g * g)
        p.assign_sub(lr * correction * m / (tf.sqrt(v) + eps))
    return loss


def numpy_conv_same(x, k):
    """3x3 'SAME' convolution by im2col: the window matrix and the result."""
    n, h, w, c = x.shape
    xp = np.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)])
    cols = sliding_window_view(xp, (3, 3), axis=(1, 2)).transpose(0, 1, 2, 4, 5, 3)
    cols = cols.reshape(n * h * w, 9 * c)
    return cols, (cols @ k.reshape(9 * c, -1)).reshape(n, h, w, -1)


def numpy_cnn_step(x, onehot, params, slots, t, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-7):
    """The CNN step by hand in NumPy: what a careful NumPy programmer would write."""
    k1, c1, k2, c2, w, b = params
    n = x.shape[0]
    cols1, z1 = numpy_conv_same(x, k1)
    h1 = np.maximum(z1 + c1, 0)
    cols2, z2 = numpy_conv_same(h1, k2)
    h2 = np.maximum(z2 + c2, 0)
    pooled = h2.mean(axis=(1, 2))
    logits = pooled @ w + b
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    loss = -np.mean(np.sum(onehot * np.log(probs), axis=1))
    dlogits = (probs - onehot) / n
    dpool = dlogits @ w.T
    dz2 = np.where(h2 > 0, dpool[:, None, None, :] / (h2.shape[1] * h2.shape[2]), 0)
    dz2 = dz2.astype(np.float32)
    # dL/dh1: a 'SAME' convolution of dz2 with the flipped, channel-swapped filter.
    _, dh1 = numpy_conv_same(dz2, k2[::-1, ::-1].transpose(0, 1, 3, 2))
    dz1 = np.where(h1 > 0, dh1, 0).astype(np.float32)
    grads = [(cols1.T @ dz1.reshape(-1, 16)).reshape(k1.shape), dz1.sum(axis=(0, 1, 2)),
             (cols2.T @ dz2.reshape(-1, 16)).reshape(k2.shape), dz2.sum(axis=(0, 1, 2)),
             pooled.T @ dlogits, dlogits.sum(axis=0)]
    t[0] += 1
    correction = np.sqrt(1 - beta2 ** t[0]) / (1 - beta1 ** t[0])
    for p, g, (m, v) in zip(params, grads, slots):
        m *= beta1
        m += (1 - beta1) * g
        v *= beta2
        v += (1 - beta2) * g * g
        p -= (lr * correction * m / (np.sqrt(v) + eps)).astype(np.float32)
    return loss


def _cnn_setup():
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((32, 28, 28, 1)).astype(np.float32)
    onehot_np = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 32)]
    x, onehot = tf.constant(x_np), tf.constant(onehot_np)

    def state():
        params = cnn_model()
        slots = [(tf.Variable(tf.zeros_like(p)), tf.Variable(tf.zeros_like(p))) for p in params]
        return params, slots, tf.Variable(0.0)

    np_params = [p.numpy().copy() for p in cnn_model()]
    np_slots = [(np.zeros_like(p), np.zeros_like(p)) for p in np_params]
    eager_state, graph_state, np_t = state(), state(), [0]

    def graph_step():
        return cnn_step(x, onehot, *graph_state)

    return {"numpy": lambda: numpy_cnn_step(x_np, onehot_np, np_params, np_slots, np_t),
            "eager": lambda: cnn_step(x, onehot, *eager_state),
            "graph": tf.function(graph_step)}


def cnn_same_numbers():
    """The three CNN steps compute the same losses, step after step."""
    steps = _cnn_setup()
    for _ in range(3):
        losses = [float(steps[name]()) for name in ("numpy", "eager", "graph")]
        assert max(losses) - min(losses) < 1e-4, losses


def cnn_step_ms(variant):
    """One variant's CNN step, in ms (best of 9 batches of 5), in this process alone."""
    step = _cnn_setup()[variant]
    step()
    step()
    return best_per_call(step, 5) * 1e3


def graph_cnn_ratio(rounds=3):
    """numpy, eager and graph CNN steps in ms. Each variant runs in a process of its own
    (a program runs one of them: in one process, the memory one variant frees is warm,
    ready memory for the next, which flatters whichever runs second), and the variants
    take turns for `rounds` rounds, so a change in the machine's load hits all alike."""
    cnn_same_numbers()
    best = {}
    for _ in range(rounds):
        for variant in ("numpy", "eager", "graph"):
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--cnn", variant],
                                 capture_output=True, text=True, check=True).stdout
            best[variant] = min(best.get(variant, float("inf")), float(out))
    return best["numpy"], best["eager"], best["graph"]


def call_overhead():
    x = tf.constant(1.0)
    f = tf.function(lambda a: a + 1.0)
    f(x)
    x_np = np.float32(1.0)
    numpy_s = best_per_call(lambda: x_np + np.float32(1.0), 20000)
    return (best_per_call(lambda: f(x), 20000) - numpy_s) * 1e6


def main():
    np_us, tf_us = eager_add_overhead()
    print(f"eager a + b (10x10 float32): numpy {np_us:.2f} µs, minitf {tf_us:.2f} µs, "
          f"overhead {tf_us - np_us:.2f} µs per op (target <= 3 µs; TF 2.21 ~11 µs)")
    np_us, tf_us = mlp_step_ratio()
    print(f"MLP 64-128-10 training step (batch 64): numpy {np_us:.0f} µs, minitf {tf_us:.0f} µs, "
          f"ratio {tf_us / np_us:.2f}x (target <= 4x; TF 2.21 eager ~20x)")
    np_us, eager_us, graph_us = graph_mlp_ratios()
    print(f"MLP step under tf.function: {graph_us:.0f} µs, {graph_us / np_us:.2f}x NumPy "
          f"(target <= 1.3x), {eager_us / graph_us:.2f}x faster than eager (target >= 3x)")
    np_ms, eager_ms, graph_ms = graph_cnn_ratio()
    print(f"CNN step (2 conv + pool + dense, Adam, batch 32): numpy {np_ms:.1f} ms, eager "
          f"{eager_ms:.1f} ms ({eager_ms / np_ms:.2f}x NumPy), tf.function {graph_ms:.1f} ms "
          f"({graph_ms / np_ms:.2f}x NumPy), {eager_ms / graph_ms:.2f}x faster than eager "
          "(target >= 1.5x)")
    print(f"calling a traced function on a scalar: {call_overhead():.1f} µs overhead "
          "(target <= 20 µs; TF 2.21 ~100 µs)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--cnn"]:
        print(cnn_step_ms(sys.argv[2]))
    else:
        main()
