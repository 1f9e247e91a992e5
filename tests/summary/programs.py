"""The programs written both with real TF (tests/fixtures/summary/make_fixtures.py and the
real-TF tests) and with minitf: plain source text, run with `tf` (or `keras`) and `LOGDIR` set."""

# tf.summary of every kind, eagerly and inside a tf.function: `tf` is TensorFlow or minitf.
SUMMARIES = r'''
import numpy as np
rng = np.random.RandomState(0)
writer = tf.summary.create_file_writer(LOGDIR)
with writer.as_default(step=3):
    tf.summary.scalar("loss", 0.25)
    tf.summary.scalar("count", 7)
    with tf.name_scope("outer"):
        tf.summary.scalar("inner", 1.5, step=4)
    tf.summary.histogram("normal", rng.randn(500))
    tf.summary.histogram("few", rng.rand(20).astype(np.float32), buckets=4)
    tf.summary.histogram("same", np.full(6, 2.0))
    tf.summary.histogram("empty", np.zeros(0, np.float32))
    tf.summary.text("note", "hello *world*")
    tf.summary.text("notes", ["a", "b"])
    tf.summary.image("float_images", rng.rand(3, 4, 5, 3).astype(np.float32), max_outputs=2)
    tf.summary.image("grey", rng.randint(0, 256, (1, 3, 2, 1)).astype(np.uint8))
    tf.summary.audio("clip", np.linspace(-1.2, 1.2, 40, dtype=np.float32).reshape(2, 10, 2),
                     8000, max_outputs=1)
    tf.summary.scalar("negative_step", 1.0, step=tf.constant(-2, tf.int64))

@tf.function(autograph=False)
def step_fn(x, step):
    tf.summary.scalar("in_function", x * 2.0, step=step)
    return x

with writer.as_default():
    for i in range(3):
        step_fn(tf.constant(float(i)), tf.constant(i, tf.int64))
    tf.summary.graph(tf.function(lambda x: x * 2.0, autograph=False).get_concrete_function(
        tf.TensorSpec([2], tf.float32)).graph)
writer.close()
'''

# Keras fit with the TensorBoard callback: `keras` is Keras 3 or minitf's tf.keras.
KERAS_FIT = r'''
import numpy as np
rng = np.random.RandomState(0)
x = rng.rand(8, 2).astype("float32")
y = x.sum(1, keepdims=True)
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, activation="relu", name="d1"),
                          keras.layers.Dense(1, name="d2")], name="sequential")
model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
callback = keras.callbacks.TensorBoard(LOGDIR, histogram_freq=1, update_freq="epoch")
model.fit(x, y, epochs=2, batch_size=4, validation_data=(x, y), callbacks=[callback], verbose=0)
weights = {w.path: np.asarray(w).tolist() for w in model.weights}
'''
