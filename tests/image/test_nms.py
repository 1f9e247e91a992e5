"""Non-maximum suppression: hand-worked cases, tf.function, TF's errors, and every variant
against real TF 2.21 on random boxes (one subprocess)."""
import json

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

from minitf.image.nms_ops import iou_matrix

BOXES = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
         [0, 100, 1, 101]]
SCORES = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]


def test_iou_by_hand():
    iou = iou_matrix(np.array([[0, 0, 1, 1], [1, 1, 0, 0.5], [0, 0, 0, 1.0]]),
                     np.array([[0, 0.5, 1, 1.5]]))
    # [1, 1, 0, 0.5] is y 0..1, x 0.5..1 (corners in any order): inside the other box, 0.5 / 1;
    # a box with no area overlaps nothing
    np.testing.assert_allclose(iou[:, 0], [1 / 3, 0.5, 0], rtol=1e-6)


def test_greedy_selection():
    assert tf.image.non_max_suppression(BOXES, SCORES, 3).numpy().tolist() == [3, 0, 5]
    assert tf.image.non_max_suppression(BOXES, SCORES, 10, 0.5, 0.4).numpy().tolist() == [3, 0]
    # a threshold of 0.9 lets boxes 0 and 1 (IoU 0.818) both stay
    assert tf.image.non_max_suppression(BOXES, SCORES, 10, 0.9).numpy().tolist()[:4] == [3, 0, 1, 2]
    assert tf.image.non_max_suppression(BOXES, SCORES, 0).shape == (0,)


def test_with_scores_hard_and_soft():
    idx, scores = tf.image.non_max_suppression_with_scores(BOXES, SCORES, 10, 0.5)
    assert idx.numpy().tolist() == [3, 0, 5]
    np.testing.assert_allclose(scores, [0.95, 0.9, 0.3])
    idx, scores = tf.image.non_max_suppression_with_scores(BOXES, SCORES, 10, 0.5,
                                                           soft_nms_sigma=0.5)
    assert idx.numpy().tolist() == [3, 0, 1, 5, 4, 2]
    iou = 0.9 / 1.1  # boxes 0 and 1
    np.testing.assert_allclose(scores[2], 0.75 * np.exp(-iou ** 2 / (2 * 0.5)), rtol=1e-5)


def test_overlaps_and_combined():
    overlaps = [[1.0, 0.7, 0.2], [0.7, 1.0, 0.1], [0.2, 0.1, 1.0]]
    got = tf.image.non_max_suppression_overlaps(overlaps, [0.5, 0.9, 0.3], 3, 0.6)
    assert got.numpy().tolist() == [1, 2]
    boxes, scores, classes, valid = tf.image.combined_non_max_suppression(
        [[[[0, 0, 1, 1]], [[0, 0, 1, 0.9]], [[2, 2, 3, 3]]]],
        [[[0.9, 0.1], [0.8, 0.7], [0.2, 0.6]]], 2, 4)
    assert valid.numpy().tolist() == [4] and classes.numpy().tolist() == [[0, 1, 1, 0]]
    np.testing.assert_allclose(scores, [[0.9, 0.7, 0.6, 0.2]])
    np.testing.assert_allclose(boxes[0, 2], [1, 1, 1, 1])  # clipped to [0, 1]


def test_padded():
    idx, n = tf.image.non_max_suppression_padded(BOXES, SCORES, 4, pad_to_max_output_size=True)
    assert idx.numpy().tolist() == [3, 0, 5, 0] and int(n) == 3
    idx, n = tf.image.non_max_suppression_padded(tf.constant(BOXES), tf.constant(SCORES), 4)
    assert idx.numpy().tolist() == [3, 0, 5]
    batch = tf.image.non_max_suppression_padded([BOXES, BOXES], [SCORES, SCORES[::-1]], 5,
                                                pad_to_max_output_size=True)
    assert batch[0].shape == (2, 5) and batch[1].numpy().tolist() == [3, 3]


def test_in_tf_function():
    f = tf.function(lambda b, s: (tf.image.non_max_suppression(b, s, 3),
                                  tf.image.non_max_suppression_with_scores(b, s, 3)[1],
                                  tf.image.non_max_suppression_padded(b, s, 4)[0]))
    idx, scores, padded = f(tf.constant(BOXES, tf.float32), tf.constant(SCORES))
    assert idx.numpy().tolist() == [3, 0, 5] == padded.numpy().tolist()
    np.testing.assert_allclose(scores, [0.95, 0.9, 0.3])


def test_no_gradient_through_the_selection_as_tf():
    b, s = tf.constant(BOXES, tf.float32), tf.constant(SCORES)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([b, s])
        idx = tf.image.non_max_suppression(b, s, 3)
        picked = tf.reduce_sum(tf.gather(b, idx))
        idx5, scores5 = tf.image.non_max_suppression_with_scores(b, s, 3)
        picked5 = tf.reduce_sum(tf.gather(b, idx5))
        combined = tf.image.combined_non_max_suppression(tf.reshape(b, [1, 6, 1, 4]),
                                                         tf.reshape(s, [1, 6, 1]), 2, 2)
    expected = np.zeros((6, 4), np.float32)
    expected[[3, 0, 5]] = 1
    np.testing.assert_array_equal(tape.gradient(picked, b), expected)  # through gather only
    np.testing.assert_array_equal(tape.gradient(picked5, b), expected)
    for target, name in [(scores5, "NonMaxSuppressionV5"), (combined[1],
                                                            "CombinedNonMaxSuppression")]:
        with pytest.raises(LookupError, match=f"gradient registry has no entry for: {name}"):
            tape.gradient(target, s)


@pytest.mark.parametrize("call,text", [
    (lambda: tf.image.non_max_suppression(BOXES, SCORES, -1), "output size must be non-negative"),
    (lambda: tf.image.non_max_suppression(BOXES, SCORES, 3, 1.5),
     "iou_threshold must be in [0, 1]"),
    (lambda: tf.image.non_max_suppression(BOXES, SCORES[:5], 3),
     "scores has incompatible shape (Dimensions must be equal, but are 6 and 5)"),
    (lambda: tf.image.non_max_suppression(BOXES[0], SCORES, 3),
     "boxes must be 2-D[4] (Shape must be rank 2 but is rank 1)"),
    (lambda: tf.image.non_max_suppression([b[:3] for b in BOXES], SCORES, 3),
     "boxes must have 4 columns (Dimension must be 4 but is 3)"),
    (lambda: tf.image.non_max_suppression(BOXES, [SCORES], 3),
     "scores must be 1-D[1,6] (Shape must be rank 1 but is rank 2)"),
    (lambda: tf.image.non_max_suppression(BOXES, SCORES, [3]),
     "max_output_size must be 0-D, got shape [1] (Shape must be rank 0 but is rank 1)"),
    (lambda: tf.image.non_max_suppression(tf.constant(BOXES, tf.float64),
                                          tf.constant(SCORES, tf.float64), 3),
     "Value for attr 'T' of double is not in the list of allowed values: half, float"),
    (lambda: tf.image.non_max_suppression_with_scores(BOXES, SCORES, 3, soft_nms_sigma=-0.5),
     "soft_nms_sigma_val must be >= 0"),
    (lambda: tf.image.non_max_suppression_overlaps(np.ones((5, 6), np.float32), SCORES, 3),
     "overlaps must be square[5,6]"),
    (lambda: tf.image.combined_non_max_suppression(np.ones((2, 6, 4)), np.ones((2, 6, 3)), 2, 5),
     "boxes must be 4-D[2,6,4]"),
    (lambda: tf.image.combined_non_max_suppression(np.ones((2, 6, 2, 4)), np.ones((2, 6, 3)),
                                                   2, 5),
     "third dimension of boxes must be either 1 or num classes"),
    (lambda: tf.image.combined_non_max_suppression(np.ones((2, 6, 1, 4)), np.ones((2, 5, 3)),
                                                   2, 5), "scores has incompatible shape"),
    (lambda: tf.image.combined_non_max_suppression(np.ones((2, 6, 1, 4)), np.ones((2, 6, 3)),
                                                   0, 5), "max_size_per_class must be positive"),
    (lambda: tf.image.combined_non_max_suppression(np.ones((2, 6, 1, 4)), np.ones((2, 6, 3)),
                                                   2, 0), "max_total_size must be > 0"),
])
def test_errors_as_tf(call, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        call()
    assert text in str(info.value)


def test_padded_batch_needs_padding():
    with pytest.raises(ValueError, match=r"'pad_to_max_output_size' \(value False\) must be True"):
        tf.image.non_max_suppression_padded([BOXES, BOXES], [SCORES, SCORES], 3)


def _random_cases():
    rng = np.random.default_rng(7)
    corners = rng.uniform(-0.2, 1.2, size=(3, 40, 2, 2))
    boxes = np.concatenate([corners.min(axis=2), corners.max(axis=2)], axis=-1)  # y1<y2, x1<x2
    boxes = boxes.round(4).astype(np.float32)
    scores = rng.uniform(size=(3, 40)).astype(np.float32)
    multi = rng.uniform(-0.1, 1.1, size=(2, 30, 3, 4)).round(4).astype(np.float32)
    multi_scores = rng.uniform(size=(2, 30, 3)).astype(np.float32)
    return boxes, scores, multi, multi_scores


def test_matches_real_tf():
    boxes, scores, multi, multi_scores = _random_cases()
    code = f"""
        import json, numpy as np, tensorflow as tf
        boxes = tf.constant({json.dumps(boxes.tolist())}, tf.float32)
        scores = tf.constant({json.dumps(scores.tolist())}, tf.float32)
        multi = tf.constant({json.dumps(multi.tolist())}, tf.float32)
        multi_scores = tf.constant({json.dumps(multi_scores.tolist())}, tf.float32)
        overlaps = tf.constant({json.dumps(scores[:, None, :].repeat(40, 1)[0].tolist())},
                               tf.float32)
        def run(flip):
            b = boxes[..., ::-1] if flip else boxes  # corners in the other order
            out = []
            for i in range(3):
                for thr, sthr, sigma in [(0.5, float('-inf'), 0.0), (0.3, 0.4, 0.0),
                                         (0.5, 0.1, 0.6), (0.7, float('-inf'), 0.2)]:
                    nms = tf.image.non_max_suppression(b[i], scores[i], 12, thr, sthr)
                    out.append(nms.numpy().tolist())
                    idx, s = tf.image.non_max_suppression_with_scores(b[i], scores[i], 12, thr,
                                                                      sthr, sigma)
                    out.append([idx.numpy().tolist(), s.numpy().tolist()])
            for thr, sthr in [(0.5, float('-inf')), (0.3, 0.5)]:
                idx, n = tf.image.non_max_suppression_padded(b, scores, 15, thr, sthr,
                                                             pad_to_max_output_size=True)
                out.append([idx.numpy().tolist(), n.numpy().tolist()])
            return out
        out = run(False) + run(True)
        kept = tf.image.non_max_suppression_overlaps(overlaps, scores[1], 10, 0.5)
        out.append(kept.numpy().tolist())
        for per_class, total, pad, clip, sthr in [(4, 7, False, True, float('-inf')),
                                                  (3, 20, True, False, 0.3)]:
            r = tf.image.combined_non_max_suppression(multi, multi_scores, per_class, total, 0.4,
                                                      sthr, pad, clip)
            out.append([x.numpy().tolist() for x in r])
            r = tf.image.combined_non_max_suppression(multi[:, :, :1], multi_scores, per_class,
                                                      total, 0.4, sthr, pad, clip)
            out.append([x.numpy().tolist() for x in r])
        print(json.dumps(out))
    """
    want = iter(run_tf_json(code))
    overlaps = scores[:, None, :].repeat(40, 1)[0]
    for flip in (False, True):
        b = boxes[..., ::-1] if flip else boxes
        for i in range(3):
            for thr, sthr, sigma in [(0.5, float("-inf"), 0.0), (0.3, 0.4, 0.0), (0.5, 0.1, 0.6),
                                     (0.7, float("-inf"), 0.2)]:
                got = tf.image.non_max_suppression(b[i], scores[i], 12, thr, sthr)
                assert got.numpy().tolist() == next(want)
                idx, s = tf.image.non_max_suppression_with_scores(b[i], scores[i], 12, thr, sthr,
                                                                  sigma)
                want_idx, want_s = next(want)
                assert idx.numpy().tolist() == want_idx
                np.testing.assert_allclose(s, want_s, rtol=1e-6)
        for thr, sthr in [(0.5, float("-inf")), (0.3, 0.5)]:
            idx, n = tf.image.non_max_suppression_padded(b, scores, 15, thr, sthr,
                                                         pad_to_max_output_size=True)
            assert [idx.numpy().tolist(), n.numpy().tolist()] == next(want)
    got = tf.image.non_max_suppression_overlaps(overlaps, scores[1], 10, 0.5)
    assert got.numpy().tolist() == next(want)
    for per_class, total, pad, clip, sthr in [(4, 7, False, True, float("-inf")),
                                              (3, 20, True, False, 0.3)]:
        for m in (multi, multi[:, :, :1]):
            r = tf.image.combined_non_max_suppression(m, multi_scores, per_class, total, 0.4,
                                                      sthr, pad, clip)
            for mine, theirs in zip(r, next(want)):
                np.testing.assert_allclose(mine.numpy(), theirs, rtol=1e-6)
