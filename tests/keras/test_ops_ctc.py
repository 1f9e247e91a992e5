"""keras.ops.ctc_loss / ctc_decode (Keras 3 on the TF backend; real-TF comparisons:
tests/ops/test_nn_real_tf.py)."""
import numpy as np
import pytest

import minitf as tf
from minitf.keras import ops

LOGITS = np.random.default_rng(8).normal(size=(2, 5, 4)).astype(np.float32)  # batch-major


def test_ctc_loss_is_tf_nn_ctc_loss_batch_major():
    target = np.array([[1, 2, 0], [3, 3, 0]])
    loss = ops.ctc_loss(target, LOGITS, [2, 2], [5, 4])
    want = tf.nn.ctc_loss(target, LOGITS, [2, 2], [5, 4], logits_time_major=False)
    assert loss.dtype == tf.float32
    np.testing.assert_allclose(loss.numpy(), want.numpy())
    wide = ops.ctc_loss(target, LOGITS.astype(np.float64), [2, 2], [5, 4])
    assert wide.dtype == tf.float64                     # computed in float32, cast back
    np.testing.assert_allclose(wide.numpy(), want.numpy(), rtol=1e-6)
    last = ops.ctc_loss(target - 0, LOGITS, [2, 2], [5, 4], mask_index=3)
    np.testing.assert_allclose(last.numpy(), tf.nn.ctc_loss(
        target, LOGITS, [2, 2], [5, 4], logits_time_major=False, blank_index=3).numpy())
    assert tf.keras.ops.nn.ctc_loss is tf.keras.ops.ctc_loss


def test_ctc_decode_greedy_pads_with_minus_one():
    best = [[1, 1, 0, 2, 2], [3, 0, 3, 3, 0]]
    logits = np.full((2, 5, 4), -1.0, np.float32)
    for b, row in enumerate(best):
        logits[b, np.arange(5), row] = 1.0
    decoded, scores = ops.ctc_decode(logits, [5, 4])
    assert decoded.dtype == tf.int32 and decoded.shape == (1, 2, 5)
    assert decoded.numpy()[0].tolist() == [[1, 2, -1, -1, -1], [3, 3, -1, -1, -1]]
    assert scores.numpy().tolist() == [[-5.0], [-4.0]]
    unmerged, _ = ops.ctc_decode(logits, [5, 4], merge_repeated=False)
    assert unmerged.numpy()[0].tolist() == [[1, 1, 2, 2, -1], [3, 3, 3, -1, -1]]


def test_ctc_decode_beam_search_moves_the_blank_back():
    decoded, log_probs = ops.ctc_decode(LOGITS, [5, 4], strategy="beam_search", top_paths=2)
    raw, raw_probs = tf.nn.ctc_beam_search_decoder(
        tf.transpose(tf.concat([LOGITS[..., 1:], LOGITS[..., :1]], -1), [1, 0, 2]), [5, 4],
        top_paths=2)
    np.testing.assert_allclose(log_probs.numpy(), raw_probs.numpy())
    for path, sparse in zip(decoded.numpy(), raw):
        dense = tf.sparse.to_dense(tf.SparseTensor(sparse.indices, sparse.values, [2, 5]),
                                   default_value=-1).numpy()
        assert path.tolist() == np.where(dense >= 0, dense + 1, dense).tolist()
    with pytest.raises(ValueError, match="Invalid strategy max"):
        ops.ctc_decode(LOGITS, [5, 4], strategy="max")
