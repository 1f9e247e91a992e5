"""A restored training run continues with exactly the numbers it would have had.

One process trains 10 steps, saves (model + Adam: slots, iteration count),
trains 10 more and records the weights. A fresh process builds the model
with different initial weights and an unbuilt optimizer, restores, trains
the same 10 steps: the weights agree to 1e-6.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import minitf as tf

    mode, directory, seed, with_optimizer = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        sys.argv[4] == "1"
    tf.keras.utils.set_random_seed(seed)
    model = tf.keras.Sequential([
        tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
        tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(0.05)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 16, 4)).astype("float32")
    y = rng.normal(size=(20, 16, 1)).astype("float32")

    def train(steps):
        for i in steps:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x[i], training=True) - y[i]) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))

    objects = dict(model=model, optimizer=optimizer) if with_optimizer else dict(model=model)
    checkpoint = tf.train.Checkpoint(**objects)
    manager = tf.train.CheckpointManager(checkpoint, directory, max_to_keep=1)
    if mode == "first":
        train(range(10))
        manager.save()
    else:
        status = checkpoint.restore(manager.latest_checkpoint)
        status.assert_existing_objects_matched()
        assert int(optimizer.iterations.numpy()) == (10 if with_optimizer else 0)
    train(range(10, 20))
    if mode != "first" and with_optimizer:
        status.assert_consumed()  # the slots were made by the first step, and restored
    np.savez(directory + "/" + mode + ".npz", *[v.numpy() for v in model.variables],
             iterations=optimizer.iterations.numpy())
""")


def run(mode, directory, seed, with_optimizer=True):
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode, str(directory), str(seed),
                           "1" if with_optimizer else "0"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return np.load(os.path.join(directory, mode + ".npz"), allow_pickle=False)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The first process's directory (its checkpoint and final weights), made once."""
    directory = tmp_path_factory.mktemp("resume")
    run("first", directory, seed=1)
    return directory


def test_restored_run_continues_with_the_same_numbers(trained):
    first = np.load(os.path.join(trained, "first.npz"))
    resumed = run("resumed", trained, seed=2)  # other initial weights: only the restore helps
    assert int(resumed["iterations"]) == int(first["iterations"]) == 20
    arrays = [k for k in first.files if k.startswith("arr_")]
    assert len(arrays) == 8  # kernel, bias, gamma, beta, moving mean/variance, kernel, bias
    for key in arrays:
        np.testing.assert_allclose(resumed[key], first[key], rtol=0, atol=1e-6)


def test_without_the_optimizer_the_numbers_differ(trained):
    """The control: the equality above is not automatic - Adam's slots and step count matter."""
    first = np.load(os.path.join(trained, "first.npz"))
    resumed = run("resumed_without_optimizer", trained, seed=1, with_optimizer=False)
    assert int(resumed["iterations"]) == 10
    assert np.abs(resumed["arr_0"] - first["arr_0"]).max() > 1e-3
