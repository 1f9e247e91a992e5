"""summary() of a compiled model whose optimizer is built adds Keras 3's "Optimizer params"
line (the optimizer's variables: its step counter, learning rate and slots) and counts them
in the total; compared with TF 2.21."""
import numpy as np

import minitf as tf
from real_tf import run_tf

SNIPPET = """
import numpy as np
import tensorflow as tf
{body}
"""

BODY = """
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)], name="net")
model.summary()
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
model.summary()
model.fit(np.ones((4, 3), "float32"), np.ones((4, 1), "float32"), verbose=0)
model.summary()
"""


def _printed(body):
    lines = []
    namespace = {"tf": tf, "np": np}
    original = tf.keras.Model.summary

    def capture(self, *args, **kwargs):
        return original(self, *args, print_fn=lambda text, **_: lines.append(text), **kwargs)

    tf.keras.Model.summary = capture
    try:
        exec(body, namespace)
    finally:
        tf.keras.Model.summary = original
    return "\n".join(lines)


def test_built_optimizer_adds_a_line_and_counts_in_the_total():
    text = _printed(BODY)
    assert text.count("Optimizer params") == 1  # not before compile, nor before it is built
    # Adam: iteration (int64) + learning_rate (float32) + m and v for 3 + 1 weights
    assert " Optimizer params: 10 (44.00 B)" in text
    assert " Total params: 14 (60.00 B)" in text


def test_matches_real_tf():
    theirs = [line for line in run_tf(SNIPPET.format(body=BODY)).splitlines()
              if line.startswith(" ") and "params" in line]
    ours = [line for line in _printed(BODY).splitlines()
            if line.startswith(" ") and "params" in line]
    assert ours == theirs
