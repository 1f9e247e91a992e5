"""How long saving and loading a model takes (goal: <= 1 s each way).

    python benchmarks/saving.py [--repeats N]

The model is the lesson-sized CNN of benchmarks/keras_fit.py (Conv2D 16 3x3
ReLU -> MaxPooling2D -> Flatten -> Dense 10 on 8x8x1 digits), compiled with
Adam and trained one step so the file holds optimizer slots too. Each format is
one entry of `FORMATS`: a name, a save function and a load function taking
(model, folder). The checkpoint entry saves model and optimizer with
`tf.train.Checkpoint` and restores them into the same objects.

Times are wall-clock (files are I/O), best of `--repeats` runs, in a temporary
folder. The machine may be shared: read the figures as an upper bound.
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import minitf as tf  # noqa: E402 - the checkout's minitf, whatever the working directory

GOAL_SECONDS = 1.0


def lesson_cnn():
    layers = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input((8, 8, 1)),
                                 layers.Conv2D(16, 3, activation="relu"),
                                 layers.MaxPooling2D(), layers.Flatten(), layers.Dense(10)])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.random.default_rng(0).normal(size=(32, 8, 8, 1)).astype("float32")
    model.fit(x, np.arange(32) % 10, epochs=1, batch_size=32, verbose=0)
    return model


def keras_file(folder):
    return os.path.join(folder, "cnn.keras")


def weights_file(folder):
    return os.path.join(folder, "cnn.weights.h5")


def saved_model_dir(folder):
    return os.path.join(folder, "cnn_saved_model")


def checkpoint_of(model):
    """The model and its optimizer (slots, iteration count) as a tf.train.Checkpoint."""
    return tf.train.Checkpoint(model=model, optimizer=model.optimizer)


# (name, save(model, folder), load(model, folder) -> anything)
FORMATS = [
    ("model.save / load_model (.keras)",
     lambda model, folder: model.save(keras_file(folder)),
     lambda model, folder: tf.keras.models.load_model(keras_file(folder))),
    ("save_weights / load_weights (.weights.h5)",
     lambda model, folder: model.save_weights(weights_file(folder)),
     lambda model, folder: model.load_weights(weights_file(folder))),
    ("tf.train.Checkpoint write / read (checkpoint)",
     lambda model, folder: checkpoint_of(model).write(os.path.join(folder, "ckpt")),
     lambda model, folder: checkpoint_of(model).read(os.path.join(folder, "ckpt"))),
    ("tf.saved_model.save / load (SavedModel)",
     lambda model, folder: tf.saved_model.save(model, saved_model_dir(folder)),
     lambda model, folder: tf.saved_model.load(saved_model_dir(folder))),
]


def best_time(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    model = lesson_cnn()
    print(f"lesson CNN: {model.count_params()} parameters; best of {repeats} runs")
    with tempfile.TemporaryDirectory() as folder:
        for name, save, load in FORMATS:
            save_s = best_time(lambda: save(model, folder), repeats)
            load_s = best_time(lambda: load(model, folder), repeats)
            verdict = "ok" if max(save_s, load_s) <= GOAL_SECONDS else "OVER GOAL"
            print(f"{name:45s} save {save_s * 1000:7.1f} ms   load {load_s * 1000:7.1f} ms"
                  f"   [{verdict}: <= {GOAL_SECONDS:.0f} s each way]")


if __name__ == "__main__":
    main()
