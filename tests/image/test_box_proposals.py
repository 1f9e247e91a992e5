"""tf.image.generate_bounding_box_proposals, checked against TF's GPU kernel's steps.

TF 2.21's CPU build has no kernel for this op (NotFoundError, checked below with real
TF), so its numbers cannot be asked of TF here. The oracle is `reference`, a box-by-box
transcription of generate_box_proposals_op.cu.cc (sort, decode, clip, min size, NMS),
plus cases whose answers are worked out by hand.
"""
import math

import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

F32 = np.float32


def reference(scores, deltas, info, anchors, nms_threshold, pre_nms_topn, min_size, post):
    """One box at a time, as the CUDA kernels do."""
    n_img, h, w, a = scores.shape
    rois = np.zeros((n_img, post, 4), F32)
    probs = np.zeros((n_img, post), F32)
    clip = F32(math.log(1000.0 / 16.0))
    for n in range(n_img):
        flat = scores[n].reshape(-1)
        order = sorted(range(flat.size), key=lambda i: (-flat[i], i))[:pre_nms_topn]
        boxes = []
        for i in order:
            ay1, ax1, ay2, ax2 = anchors.reshape(-1, 4)[i]
            dy, dx, dh, dw = deltas[n].reshape(-1, 4)[i]
            dw, dh = min(dw, clip), min(dh, clip)
            bw, bh = F32(ax2 - ax1), F32(ay2 - ay1)
            cx = F32(F32(ax1 + F32(0.5) * bw) + bw * dx)
            cy = F32(F32(ay1 + F32(0.5) * bh) + bh * dy)
            pw, ph = F32(bw * np.exp(dw)), F32(bh * np.exp(dh))
            x1 = max(min(F32(cx - F32(0.5) * pw), info[n, 1]), 0)
            x2 = max(min(F32(cx + F32(0.5) * pw), info[n, 1]), 0)
            y1 = max(min(F32(cy - F32(0.5) * ph), info[n, 0]), 0)
            y2 = max(min(F32(cy + F32(0.5) * ph), info[n, 0]), 0)
            if min(x2 - x1, y2 - y1) >= F32(min_size) * info[n, 2]:
                boxes.append(((x1, y1, x2, y2), flat[i]))
        kept = []
        for box, score in boxes:
            if len(kept) == post:
                break
            if all(not _over(box, other, nms_threshold) for other, _ in kept):
                kept.append((box, score))
        for k, ((x1, y1, x2, y2), score) in enumerate(kept):
            rois[n, k] = (y1, x1, y2, x2)
            probs[n, k] = score
    return rois, probs


def _over(a, b, threshold):
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    if area_a == 0 or area_b == 0:
        return False
    inter = max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))
    return inter > (area_a + area_b - inter) * F32(threshold)


def proposals(*args, **kwargs):
    rois, probs = tf.image.generate_bounding_box_proposals(*args, **kwargs)
    return rois.numpy(), probs.numpy()


def test_hand_worked_case():
    # 1 image, a 1x3 map, 1 anchor per position, all anchors [0, 0, 10, 10] (y1 x1 y2 x2).
    scores = np.array([[[[0.5], [0.9], [0.7]]]], F32)
    deltas = np.zeros((1, 1, 3, 4), F32)
    deltas[0, 0, 1] = [0.1, 0.2, math.log(2.0), 0.0]  # moved by (1, 2), twice as tall
    deltas[0, 0, 2] = [0.0, 0.0, 0.0, 10.0]            # dw clipped to log(62.5)
    anchors = np.tile(np.array([0, 0, 10, 10], F32), (1, 3, 1))
    info = np.array([[15.0, 400.0, 1.0, 0, 0]], F32)
    rois, probs = proposals(scores, deltas, info, anchors, nms_threshold=0.7, min_size=5,
                            post_nms_topn=4)
    # best box: centre (6, 7), 20 tall, 10 wide -> y from -4 to 16, clipped to [0, 15]
    np.testing.assert_allclose(rois[0, 0], [0, 2, 15, 12], atol=1e-5)
    # next: 10 * 62.5 = 625 wide around x = 5 -> clipped to [0, 317.5]
    np.testing.assert_allclose(rois[0, 1], [0, 0, 10, 317.5], atol=1e-4)
    # the plain anchor [0, 0, 10, 10] overlaps the first box by 80 / 170: kept too
    np.testing.assert_allclose(rois[0, 2], [0, 0, 10, 10])
    np.testing.assert_array_equal(rois[0, 3], 0)
    np.testing.assert_allclose(probs[0], [0.9, 0.7, 0.5, 0.0])
    # pre_nms_topn keeps only the best; min_size drops boxes with a side below it
    _, probs = proposals(scores, deltas, info, anchors, pre_nms_topn=1, min_size=5)
    assert probs.shape == (1, 300) and probs[0, 0] == F32(0.9) and not probs[0, 1:].any()
    _, probs = proposals(scores, deltas, info, anchors, min_size=10.5)  # every side >= 10
    assert not probs.any()
    half_scale = info * np.array([1, 1, 0.5, 1, 1], F32)  # min_size is scaled by info[:, 2]
    _, probs = proposals(scores, deltas, half_scale, anchors, min_size=20)
    np.testing.assert_allclose(probs[0, :4], [0.9, 0.7, 0.5, 0.0])


def test_nms_suppresses_overlaps_above_threshold():
    scores = np.array([[[[0.9, 0.8]]]], F32)
    anchors = np.array([[[0, 0, 10, 10, 0, 1, 10, 11]]], F32)  # IoU 90 / 110 = 0.818
    deltas = np.zeros((1, 1, 1, 8), F32)
    info = np.array([[20.0, 20.0, 1.0, 0, 0]], F32)
    _, probs = proposals(scores, deltas, info, anchors, nms_threshold=0.8, min_size=1,
                         post_nms_topn=2)
    np.testing.assert_allclose(probs[0], [0.9, 0.0])
    _, probs = proposals(scores, deltas, info, anchors, nms_threshold=0.82, min_size=1,
                         post_nms_topn=2)
    np.testing.assert_allclose(probs[0], [0.9, 0.8])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_cases_equal_the_kernel_steps(seed):
    rng = np.random.default_rng(seed)
    n, h, w, a = 2, 3, 4, 3
    scores = rng.random((n, h, w, a)).astype(F32)
    scores[0, 0, 0, :2] = scores[0, 1, 1, 0]  # ties: the earlier position first
    deltas = (rng.normal(size=(n, h, w, 4 * a)) * 0.3).astype(F32)
    anchors = np.sort(rng.random((h, w, a, 2, 2)) * 40, axis=3).transpose(0, 1, 2, 4, 3)
    anchors = anchors.reshape(h, w, 4 * a).astype(F32)
    info = np.array([[40, 48, 1.0, 0, 0], [30, 20, 0.5, 0, 0]], F32)
    args = (scores, deltas, info, anchors, 0.5, 20, 3.0, 10)
    got = proposals(*args[:4], nms_threshold=0.5, pre_nms_topn=20, min_size=3.0,
                    post_nms_topn=10)
    want = reference(*args)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6, atol=1e-5)
    np.testing.assert_array_equal(got[1], want[1])


def test_in_tf_function_and_errors():
    scores = tf.random.uniform([1, 2, 2, 1])
    deltas = tf.zeros([1, 2, 2, 4])
    anchors = tf.constant([[[0., 0., 8., 8.], [0., 8., 8., 16.]],
                           [[8., 0., 16., 8.], [8., 8., 16., 16.]]])
    info = tf.constant([[16., 16., 1., 0., 0.]])
    eager = proposals(scores, deltas, info, anchors, min_size=1, post_nms_topn=3)
    traced = tf.function(lambda s: tf.image.generate_bounding_box_proposals(
        s, deltas, info, anchors, min_size=1, post_nms_topn=3))(scores)
    np.testing.assert_array_equal(traced[0].numpy(), eager[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="post_nms_topn can't be 0"):
        tf.image.generate_bounding_box_proposals(scores, deltas, info, anchors, post_nms_topn=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="nms_threshold should be"):
        tf.image.generate_bounding_box_proposals(scores, deltas, info, anchors, 1.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank 3 but is rank 2"):
        tf.image.generate_bounding_box_proposals(scores, deltas, info, anchors[0])
    with pytest.raises(tf.errors.OutOfRangeError, match="Box dimensions need to be 4"):
        tf.image.generate_bounding_box_proposals(scores, deltas, info, anchors[:, :, :3])


def test_real_tf_has_no_cpu_kernel_and_same_signature():
    out = run_tf_json("""
        import inspect, json, tensorflow as tf
        s = tf.zeros([1, 2, 2, 1]); d = tf.zeros([1, 2, 2, 4])
        try:
            tf.image.generate_bounding_box_proposals(s, d, tf.zeros([1, 5]), tf.zeros([2, 2, 4]))
            error = None
        except Exception as e:
            error = [type(e).__name__, "no registered kernels" in str(e)]
        f = tf.function(tf.image.generate_bounding_box_proposals).get_concrete_function(
            s, d, tf.zeros([1, 5]), tf.zeros([2, 2, 4]), post_nms_topn=7)
        shapes = [o.shape.as_list() for o in f.outputs]
        sig = str(inspect.signature(tf.image.generate_bounding_box_proposals))
        print(json.dumps([error, shapes, sig]))
        """)
    import inspect
    assert out[0] == ["NotFoundError", True]
    fn = tf.function(tf.image.generate_bounding_box_proposals).get_concrete_function(
        tf.zeros([1, 2, 2, 1]), tf.zeros([1, 2, 2, 4]), tf.zeros([1, 5]), tf.zeros([2, 2, 4]),
        post_nms_topn=7)
    assert [o.shape.as_list() for o in fn.outputs] == out[1] == [[1, 7, 4], [1, 7]]
    assert str(inspect.signature(tf.image.generate_bounding_box_proposals)) == out[2]
