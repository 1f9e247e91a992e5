"""How fast `model.fit` trains, and what the Keras loop costs on top of a bare train step.

    python benchmarks/keras_fit.py [--quick]

Data: the 8x8 digits shipped with minitf (1437 training images), batch 32,
shuffled, so one epoch is 45 steps. Two models:

- MLP 64 -> 64 (ReLU) -> 10, SGD(0.1), sparse softmax cross-entropy from logits;
- CNN (the lesson-sized one): Conv2D 16 3x3 ReLU -> MaxPooling2D -> Flatten ->
  Dense 10, same optimizer and loss, on 8x8x1 images.

For each model the script prints epochs per second of:
  numpy     the same MLP written by hand in NumPy (forward, backward, SGD);
  eager     `fit` with `compile(run_eagerly=True)` (every op dispatched from Python);
  graph     `fit` as normally run: `train_step` traced once into a `tf.function`;
  bare      a hand-written `@tf.function` train step (tape, loss, apply_gradients)
            looped over the same batches already made into tensors - no Keras loop.
and the fit loop overhead: fit's time per batch / the bare step's time per batch
(target <= 1.5x), split into the step Keras runs (loss tracker and metrics
included: `model.train_function` on ready batches, over bare) and the loop
around it (slicing and shuffling the data, callbacks: fit over train_function).

The machine may be shared: times are CPU time of this (single-threaded) process,
each figure is the best of many interleaved repeats, and only ratios measured in
the same run should be compared.
"""
import os
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402 - after the thread settings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import minitf as tf  # noqa: E402 - the checkout's minitf, whatever the working directory

BATCH = 32
LEARNING_RATE = 0.1


def digits(images):
    (x, y), _ = tf.keras.datasets.digits.load_data()
    x = x.astype("float32") / 16.0
    x = x[..., None] if images else x.reshape(len(x), 64)
    return x, y.astype("int64")


def make_model(kind, run_eagerly=False, seed=0):
    tf.random.set_seed(seed)
    L = tf.keras.layers
    if kind == "mlp":
        layers = [tf.keras.Input((64,)), L.Dense(64, activation="relu"), L.Dense(10)]
    else:
        layers = [tf.keras.Input((8, 8, 1)), L.Conv2D(16, 3, activation="relu"),
                  L.MaxPooling2D(), L.Flatten(), L.Dense(10)]
    model = tf.keras.Sequential(layers)
    model.compile(optimizer=tf.keras.optimizers.SGD(LEARNING_RATE),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  run_eagerly=run_eagerly)
    return model


# --- the MLP by hand in NumPy ------------------------------------------------------------------
def numpy_mlp_epoch(params, x, y, rng):
    """One shuffled epoch of SGD on the MLP; the gradients written out by hand."""
    w1, b1, w2, b2 = params
    order = rng.permutation(len(x))
    for start in range(0, len(x), BATCH):
        rows = order[start:start + BATCH]
        xb, yb = x[rows], y[rows]
        h_pre = xb @ w1 + b1
        h = np.maximum(h_pre, 0)
        logits = h @ w2 + b2
        exp = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs = exp / exp.sum(axis=1, keepdims=True)
        d_logits = probs
        d_logits[np.arange(len(rows)), yb] -= 1
        d_logits /= len(rows)
        d_h = (d_logits @ w2.T) * (h_pre > 0)
        w2 -= LEARNING_RATE * (h.T @ d_logits)
        b2 -= LEARNING_RATE * d_logits.sum(axis=0)
        w1 -= LEARNING_RATE * (xb.T @ d_h)
        b1 -= LEARNING_RATE * d_h.sum(axis=0)


def numpy_params(seed=0):
    rng = np.random.default_rng(seed)
    limit1, limit2 = np.sqrt(6 / (64 + 64)), np.sqrt(6 / (64 + 10))
    return [rng.uniform(-limit1, limit1, (64, 64)).astype("float32"), np.zeros(64, "float32"),
            rng.uniform(-limit2, limit2, (64, 10)).astype("float32"), np.zeros(10, "float32")]


# --- the bare tf.function step -----------------------------------------------------------------
def bare_step_for(model):
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = tf.keras.optimizers.SGD(LEARNING_RATE)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    return train_step


def tensor_batches(x, y):
    order = np.random.default_rng(0).permutation(len(x))
    return [(tf.constant(x[order[i:i + BATCH]]), tf.constant(y[order[i:i + BATCH]]))
            for i in range(0, len(x), BATCH)]


def seconds(fn):
    """CPU seconds `fn()` took. Everything here runs on one thread (BLAS included), so CPU
    time is the work done, and time spent waiting for a busy machine's cores is left out."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def measure(kind, repeats):
    """{name: best seconds per epoch} for one model, measured in interleaved rounds."""
    x, y = digits(images=kind == "cnn")
    graph, eager = make_model(kind), make_model(kind, run_eagerly=True)
    bare_model = make_model(kind)
    bare = bare_step_for(bare_model)
    batches = tensor_batches(x, y)
    from minitf.keras.engine.trainer import _as_tensors
    ready = [_as_tensors(b) for b in batches]
    rng = np.random.default_rng(0)
    params = numpy_params()
    runs = {
        "graph": lambda: graph.fit(x, y, batch_size=BATCH, epochs=1, verbose=0),
        "eager": lambda: eager.fit(x, y, batch_size=BATCH, epochs=1, verbose=0),
        "bare": lambda: [bare(xb, yb) for xb, yb in batches],
        "train_function": lambda: [graph.train_function(d) for d in ready],
    }
    if kind == "mlp":
        runs["numpy"] = lambda: numpy_mlp_epoch(params, x, y, rng)
    for run in runs.values():  # warm up: trace, build, fill caches
        run()
    best = {name: float("inf") for name in runs}
    for round_index in range(repeats):
        for name, run in runs.items():
            if name == "eager" and round_index >= max(1, repeats // 8):
                continue  # eager is slow and steady: fewer rounds
            best[name] = min(best[name], seconds(run))
    best["steps"] = len(batches)
    return best


def report(kind, best):
    steps = best["steps"]
    print(f"\n{kind.upper()} on digits ({steps} batches of {BATCH} per epoch)")
    for name in ("numpy", "eager", "graph", "bare"):
        if name in best:
            print(f"  {name:<6} {1 / best[name]:8.1f} epochs/s   "
                  f"{best[name] / steps * 1e6:8.0f} us/batch")
    if "numpy" in best:
        print(f"  graph fit vs hand-written NumPy: {best['graph'] / best['numpy']:.1f}x slower")
    print(f"  graph fit vs eager fit:          {best['eager'] / best['graph']:.1f}x faster")
    overhead = best["graph"] / best["bare"]
    verdict = "meets" if overhead <= 1.5 else "MISSES"
    print(f"  fit overhead per batch vs bare tf.function step: {overhead:.2f}x "
          f"({verdict} the <= 1.5x target)")
    print(f"    = Keras's step (loss tracker, metrics) {best['train_function'] / best['bare']:.2f}x"
          f" * the loop (data, callbacks) {best['graph'] / best['train_function']:.2f}x")
    return overhead


def main(argv):
    repeats = 5 if "--quick" in argv else 25
    overheads = [report(kind, measure(kind, repeats)) for kind in ("mlp", "cnn")]
    return overheads


if __name__ == "__main__":
    main(sys.argv[1:])
