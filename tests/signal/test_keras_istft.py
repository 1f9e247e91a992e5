"""keras.ops.istft (Keras 3.15's TensorFlow backend: inverse_stft with the inverse window,
the `center` padding cut off): a round trip without TF, errors, and values equal real Keras."""
import json

import numpy as np
import pytest

import minitf as tf
from minitf.keras import ops

RNG = np.random.default_rng(4)
S = RNG.normal(size=(2, 40)).astype(np.float32)


def test_round_trip_where_frames_fully_overlap():
    x = tf.constant(S)
    y = ops.istft(ops.stft(x, 16, 4, 16), 16, 4, 16, length=40)
    assert y.shape == (2, 40)
    np.testing.assert_allclose(y.numpy()[:, 12:28], S[:, 12:28], atol=1e-5)


def test_errors():
    pair = ops.stft(tf.constant(S), 8, 4, 8)
    with pytest.raises(ValueError, match="sequence_stride` must be a positive integer"):
        ops.istft(pair, 8, 0, 8)
    with pytest.raises(ValueError, match="shape of `window`"):
        ops.istft(pair, 8, 4, 8, window=tf.ones([3]))


CASES = {
    "center": "ops.istft(ops.stft(S, 16, 4, 16), 16, 4, 16)",
    "length": "ops.istft(ops.stft(S, 10, 3, 16), 10, 3, 16, length=37)",
    "no_center": "ops.istft(ops.stft(S, 8, 2, 8, center=False), 8, 2, 8, center=False)",
    "hamming": "ops.istft(ops.stft(S, 12, 4, 16, window='hamming'), 12, 4, 16, window='hamming')",
    "no_window": "ops.istft(ops.stft(S, 8, 4, 8, window=None), 8, 4, 8, window=None, center=False)",
}

TF_CODE = """
import json, numpy as np
from keras import ops
RNG = np.random.default_rng(4)
S = RNG.normal(size=(2, 40)).astype(np.float32)
result = {k: [list(np.shape(v)), np.asarray(v).ravel().tolist()]
          for k, v in ((k, eval(e)) for k, e in CASES.items())}
"""
TF_SNIPPET = f"CASES = {json.dumps(CASES)}\n" + TF_CODE


def check_against_tf(theirs):
    """Run by test_signal_real_tf.py, which runs every tf.signal file's snippet in one TF."""
    for key, expr in CASES.items():
        mine = eval(expr, {"ops": ops, "S": tf.constant(S)}).numpy()
        shape, values = theirs[key]
        assert list(mine.shape) == shape, key
        np.testing.assert_allclose(mine.ravel(), values, rtol=1e-4, atol=1e-4, err_msg=key)
