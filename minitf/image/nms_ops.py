"""Non-maximum suppression: keep the best of each group of overlapping boxes.

Greedy, as in TF's kernel (non_max_suppression_op.cc): take the boxes by
descending score (ties: lower index first); keep a box unless it overlaps one
already kept by more than `iou_threshold`; stop after `max_output_size` boxes.
Overlap is intersection over union (IoU) of boxes [y1, x1, y2, x2], corners in
either order; a box with no area overlaps nothing. Boxes scoring at most
`score_threshold` are never taken.

Soft-NMS (`soft_nms_sigma` > 0) keeps every box but lowers the score of an
overlapping one by exp(-iou^2 / (2 sigma)) (its new score decides when it comes
up again, and whether it stays above `score_threshold`).

These ops pick indices: there is nothing to differentiate (TF registers none).

>>> import minitf as tf
>>> boxes = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]]
>>> tf.image.non_max_suppression(boxes, [0.9, 0.8, 0.7], max_output_size=3)
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>
"""
import heapq

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export

F32 = np.float32
NMS_TYPES = frozenset({dtypes.float16, dtypes.float32})


def iou_matrix(boxes_a, boxes_b):
    """IoU of every box of `boxes_a` with every box of `boxes_b` ([n, 4], [m, 4] -> [n, m])."""
    a, b = boxes_a.astype(F32), boxes_b.astype(F32)

    def corners(x):
        return (np.minimum(x[:, 0], x[:, 2]), np.minimum(x[:, 1], x[:, 3]),
                np.maximum(x[:, 0], x[:, 2]), np.maximum(x[:, 1], x[:, 3]))

    (ay0, ax0, ay1, ax1), (by0, bx0, by1, bx1) = corners(a), corners(b)
    area_a, area_b = (ay1 - ay0) * (ax1 - ax0), (by1 - by0) * (bx1 - bx0)
    inter = (np.maximum(np.minimum(ay1[:, None], by1) - np.maximum(ay0[:, None], by0), 0)
             * np.maximum(np.minimum(ax1[:, None], bx1) - np.maximum(ax0[:, None], bx0), 0))
    with np.errstate(all="ignore"):
        iou = inter / (area_a[:, None] + area_b[None, :] - inter)
    return np.where((area_a[:, None] <= 0) | (area_b[None, :] <= 0), F32(0), iou).astype(F32)


def greedy_nms(similarity, scores, max_output_size, threshold, score_threshold, sigma=0.0):
    """TF's DoNonMaxSuppressionOp: (selected indices, their final scores).

    similarity(i, js): the overlaps of box i with boxes js (computed when needed, so
    thousands of boxes never make a full n x n matrix). A candidate is compared with the
    boxes selected since it was last looked at, newest first: hard NMS drops it if one
    overlaps by more than `threshold`; soft-NMS multiplies its score by exp(-sim^2 / 2sigma)
    for each, and puts it back in line if it is still above `score_threshold`.
    """
    scores = scores.astype(F32)
    scale = F32(-0.5) / F32(sigma) if sigma > 0 else F32(0)
    queue = [(-s, i, 0) for i, s in enumerate(scores) if s > score_threshold]
    heapq.heapify(queue)  # highest score first; ties: lower index first
    selected, selected_scores = [], []
    while len(selected) < max_output_size and queue:
        negative, index, begin = heapq.heappop(queue)
        original = -negative
        sims = similarity(index, np.array(selected[begin:][::-1], np.int64))  # newest first
        if sigma <= 0:
            if np.any(sims > threshold):
                continue  # hard suppression
            score = original
        else:  # the running product, in TF's order, in float32
            score = np.multiply.reduce(np.exp(scale * sims * sims, dtype=F32),
                                       initial=original, dtype=F32)
        if score == original:
            selected.append(index)
            selected_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(queue, (-score, index, len(selected)))
    return np.array(selected, np.int32), np.array(selected_scores, F32)


def iou_with(boxes):
    """similarity(i, js) for greedy_nms: the IoU of box i with boxes js."""
    return lambda i, js: iou_matrix(boxes[i:i + 1], boxes[js])[0]


def _error(op_name, message, hint=None):
    return errors.op_error(errors.InvalidArgumentError, op_name, message, hint)


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _check_common(op_name, scores, max_output_size, num_boxes, threshold, name):
    if np.ndim(max_output_size) != 0:
        raise _error(op_name, "max_output_size must be 0-D, got shape "
                     f"{_dims(np.shape(max_output_size))} (Shape must be rank 0 but is rank "
                     f"{np.ndim(max_output_size)})")
    if scores.ndim != 1:
        raise _error(op_name, f"scores must be 1-D{_dims(scores.shape)} (Shape must be rank 1 but "
                     f"is rank {scores.ndim})", "One score per box.")
    if scores.shape[0] != num_boxes:
        raise _error(op_name, "scores has incompatible shape (Dimensions must be equal, but are "
                     f"{num_boxes} and {scores.shape[0]})", "Give exactly one score per box.")
    if name == "iou_threshold" and not 0 <= threshold <= 1:
        raise _error(op_name, "iou_threshold must be in [0, 1]", "IoU lies between 0 and 1.")
    if max_output_size < 0:
        raise _error(op_name, "output size must be non-negative", "Ask for 0 or more boxes.")


def check_boxes(op_name, boxes):
    if boxes.ndim != 2:
        raise _error(op_name, f"boxes must be 2-D{_dims(boxes.shape)} (Shape must be rank 2 but is "
                     f"rank {boxes.ndim})", "boxes is [num_boxes, 4].")
    if boxes.shape[1] != 4:
        raise _error(op_name, f"boxes must have 4 columns (Dimension must be 4 but is "
                     f"{boxes.shape[1]})", "Each box is [y1, x1, y2, x2].")


def _nms_v5(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma,
            op_name="NonMaxSuppressionV5"):
    check_boxes(op_name, boxes)
    _check_common(op_name, scores, max_output_size, boxes.shape[0], iou_threshold,
                  "iou_threshold")
    if soft_nms_sigma < 0:
        raise _error(op_name, "soft_nms_sigma_val must be >= 0", "0 means hard NMS.")
    indices, kept = greedy_nms(iou_with(boxes), scores, int(max_output_size),
                               F32(iou_threshold), F32(score_threshold), float(soft_nms_sigma))
    return indices, kept.astype(scores.dtype)


def _nms_v3(boxes, scores, max_output_size, iou_threshold, score_threshold):
    return _nms_v5(boxes, scores, max_output_size, iou_threshold, score_threshold, 0.0,
                   "NonMaxSuppressionV3")[0]


def _nms_overlaps(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    name = "NonMaxSuppressionWithOverlaps"
    if overlaps.ndim != 2:
        raise _error(name, f"overlaps must be 2-D{_dims(overlaps.shape)}")
    if overlaps.shape[0] != overlaps.shape[1]:
        raise _error(name, f"overlaps must be square{_dims(overlaps.shape)}",
                     "overlaps[i, j] is the overlap of box i with box j.")
    _check_common(name, scores, max_output_size, overlaps.shape[0], overlap_threshold, "")
    overlaps = overlaps.astype(F32)
    return greedy_nms(lambda i, js: overlaps[i, js], scores, int(max_output_size),
                      F32(overlap_threshold), F32(score_threshold))[0]


def _indices_shape(*shapes):
    return TensorShape([None])


NonMaxSuppressionV3 = Op("NonMaxSuppressionV3", _nms_v3, dtypes=NMS_TYPES, typed=[0, 1],
                         shape=_indices_shape, dtype=dtypes.int32)
NonMaxSuppressionV5 = Op("NonMaxSuppressionV5", _nms_v5, dtypes=NMS_TYPES, typed=[0, 1],
                         shape=lambda *s: (TensorShape([None]), TensorShape([None])),
                         num_outputs=2, dtype=lambda b, s, *rest: (dtypes.int32, b))
def raise_no_gradient(op, *dys):
    """TF registers no gradient for the ops that output scores or boxes, and says so."""
    raise LookupError(f"gradient registry has no entry for: {op.type} (NMS selects boxes: there "
                      "is nothing to differentiate; take the kept boxes with tf.gather, whose "
                      "gradient reaches them)")


NonMaxSuppressionV5.def_grad(raise_no_gradient)
NonMaxSuppressionWithOverlaps = Op("NonMaxSuppressionWithOverlaps", _nms_overlaps,
                                   dtypes=frozenset({dtypes.float32}), typed=[0, 1],
                                   shape=_indices_shape, dtype=dtypes.int32)


def _inputs(boxes, scores, max_output_size, *thresholds):
    boxes = convert_to_tensor(boxes, dtype_hint=dtypes.float32, name="boxes")
    scores = convert_to_tensor(scores, dtype_hint=dtypes.float32, name="scores")
    return [boxes, scores, convert_to_tensor(max_output_size, dtype=dtypes.int32)] + [
        convert_to_tensor(t, dtype=dtypes.float32) for t in thresholds]


@tf_export("image.non_max_suppression")
def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """The indices (int32) of the boxes greedy NMS keeps, best first.

    boxes: [num_boxes, 4] float32, rows [y1, x1, y2, x2]; scores: [num_boxes].
    Pick the kept boxes with `tf.gather(boxes, indices)`.

    >>> tf.image.non_max_suppression([[0, 0, 1, 1], [0, 0, 1, 0.9]], [0.6, 0.9], 2)
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>
    """
    return apply(NonMaxSuppressionV3, _inputs(boxes, scores, max_output_size, iou_threshold,
                                               score_threshold))


@tf_export("image.non_max_suppression_with_scores")
def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """(selected indices, their scores); with `soft_nms_sigma` > 0, Soft-NMS: overlapping
    boxes stay but their scores shrink by exp(-iou^2 / (2 * soft_nms_sigma)).

    >>> boxes = [[0, 0, 1, 1], [0, 0.5, 1, 1.5]]
    >>> idx, s = tf.image.non_max_suppression_with_scores(boxes, [0.9, 0.8], 2,
    ...                                                   soft_nms_sigma=0.5)
    >>> idx.numpy(), s.numpy().round(4)
    (array([0, 1], dtype=int32), array([0.9   , 0.7159], dtype=float32))
    """
    inputs = _inputs(boxes, scores, max_output_size, iou_threshold, score_threshold,
                     soft_nms_sigma)
    return apply(NonMaxSuppressionV5, inputs)


@tf_export("image.non_max_suppression_overlaps")
def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """Greedy NMS with overlaps given directly: overlaps[i, j] says how much boxes i and j
    overlap (any measure); a box is dropped when it overlaps a kept one by more than
    `overlap_threshold`.

    >>> tf.image.non_max_suppression_overlaps([[1.0, 0.7], [0.7, 1.0]], [0.5, 0.9], 2)
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>
    """
    inputs = _inputs(overlaps, scores, max_output_size, overlap_threshold, score_threshold)
    return apply(NonMaxSuppressionWithOverlaps, inputs)


# --- combined_non_max_suppression: NMS per class, then the best over all classes ---------
def _check_combined(boxes, scores, max_per_class, max_total, iou_threshold):
    name = "CombinedNonMaxSuppression"
    if boxes.ndim != 4:
        raise _error(name, f"boxes must be 4-D{_dims(boxes.shape)}",
                     "boxes is [batch, num_boxes, q, 4], q = 1 or num_classes.")
    if scores.ndim != 3:
        raise _error(name, f"scores must be 3-D{_dims(scores.shape)}",
                     "scores is [batch, num_boxes, num_classes].")
    if boxes.shape[2] not in (1, scores.shape[2]):
        raise _error(name, "third dimension of boxes must be either 1 or num classes")
    if boxes.shape[0] != scores.shape[0]:
        raise _error(name, "boxes and scores must have same batch size")
    if boxes.shape[1] != scores.shape[1]:
        raise _error(name, "scores has incompatible shape")
    if boxes.shape[3] != 4:
        raise _error(name, "boxes must have 4 columns")
    if max_per_class <= 0:
        raise _error(name, "max_size_per_class must be positive")
    if max_total <= 0:
        raise _error(name, "max_total_size must be > 0")
    if not 0 <= iou_threshold <= 1:
        raise _error(name, "iou_threshold must be in [0, 1]")


def _one_image(boxes, scores, max_per_class, iou_threshold, score_threshold):
    """(score, class, box) of every box kept by NMS within its class, best first."""
    kept = []
    for c in range(scores.shape[1]):
        class_boxes = boxes[:, c if boxes.shape[1] > 1 else 0]
        chosen, _ = greedy_nms(iou_with(class_boxes), scores[:, c],
                               min(max_per_class, len(class_boxes)), iou_threshold,
                               score_threshold)
        kept += [(scores[i, c], c, class_boxes[i]) for i in chosen]
    return sorted(kept, key=lambda k: -k[0])


def _combined_nms(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
                  score_threshold, pad_per_class, clip_boxes):
    max_per_class, max_total = int(max_output_size_per_class), int(max_total_size)
    _check_combined(boxes, scores, max_per_class, max_total, iou_threshold)
    batch, num_classes = boxes.shape[0], scores.shape[2]
    size = min(max_per_class * num_classes, max_total) if pad_per_class else max_total
    out_boxes = np.zeros((batch, size, 4), F32)
    out_scores, out_classes = np.zeros((batch, size), F32), np.zeros((batch, size), F32)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        kept = _one_image(boxes[b].astype(F32), scores[b].astype(F32), max_per_class,
                          F32(iou_threshold), F32(score_threshold))[:size]
        valid[b] = len(kept)
        for k, (score, c, box) in enumerate(kept):
            out_boxes[b, k] = np.clip(box, 0, 1) if clip_boxes else box
            out_scores[b, k], out_classes[b, k] = score, c
    return out_boxes, out_scores, out_classes, valid


CombinedNonMaxSuppression = Op(
    "CombinedNonMaxSuppression", _combined_nms, dtypes=frozenset({dtypes.float32}), typed=[0, 1],
    num_outputs=4, dtype=lambda *d, **a: (dtypes.float32,) * 3 + (dtypes.int32,),
    shape=lambda boxes, scores, *s, **a: (TensorShape([boxes[0], None, 4]),
                                          TensorShape([boxes[0], None]),
                                          TensorShape([boxes[0], None]), TensorShape([boxes[0]])))
CombinedNonMaxSuppression.def_grad(raise_no_gradient)


@tf_export("image.combined_non_max_suppression")
def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """Greedy NMS for every class of every image, then the `max_total_size` best boxes.

    boxes: [batch, num_boxes, q, 4] (q = 1: one box shared by all classes, or one box per
    class); scores: [batch, num_boxes, num_classes]. Returns (nmsed_boxes [batch, size, 4],
    nmsed_scores, nmsed_classes (float32), valid_detections [batch]); the slots past
    `valid_detections` are zeros. `clip_boxes` clips coordinates to [0, 1].

    >>> out = tf.image.combined_non_max_suppression(
    ...     [[[[0, 0, 1, 1]], [[0, 0, 1, 0.9]]]], [[[0.9, 0.1], [0.8, 0.7]]], 2, 3)
    >>> out[1].numpy(), out[2].numpy()
    (array([[0.9, 0.7, 0. ]], dtype=float32), array([[0., 1., 0.]], dtype=float32))
    >>> out[3]
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([2], dtype=int32)>
    """
    boxes = convert_to_tensor(boxes, dtype=dtypes.float32, name="boxes")
    scores = convert_to_tensor(scores, dtype=dtypes.float32, name="scores")
    inputs = [boxes, scores, convert_to_tensor(max_output_size_per_class, dtype=dtypes.int32),
              convert_to_tensor(max_total_size, dtype=dtypes.int32),
              convert_to_tensor(iou_threshold, dtype=dtypes.float32),
              convert_to_tensor(score_threshold, dtype=dtypes.float32)]
    return apply(CombinedNonMaxSuppression, inputs,
                 {"pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)})


# --- non_max_suppression_padded: TF's batched, tiled algorithm (image_ops_impl.py) -------
def _padded_one(boxes, scores, max_output_size, iou_threshold):
    """Greedy NMS in score order as TF's tiled version does it: a box is dropped when its
    IoU with a kept box is >= the threshold, and counts as kept only if one of its
    coordinates is > 0 (boxes zeroed by the score threshold never count)."""
    order = np.argsort(-scores, kind="stable")
    ordered = boxes[order]
    ymin, xmin, ymax, xmax = ordered.T
    area = (ymax - ymin) * (xmax - xmin)
    inter = (np.maximum(np.minimum(ymax[:, None], ymax) - np.maximum(ymin[:, None], ymin), 0)
             * np.maximum(np.minimum(xmax[:, None], xmax) - np.maximum(xmin[:, None], xmin), 0))
    iou = inter / (area[:, None] + area[None, :] - inter + F32(1e-8))
    kept = []
    for i in range(len(order)):
        if not any(iou[i, j] >= iou_threshold for j in kept):
            kept.append(i)
    counted = [order[i] for i in kept if np.any(ordered[i] > 0)]
    return counted[:max_output_size]


def _nms_padded(boxes, scores, max_output_size, iou_threshold, score_threshold,
                canonicalized_coordinates, pad_to_max_output_size):
    num_boxes = boxes.shape[-2]
    batch_boxes = boxes.reshape(-1, num_boxes, 4).astype(F32)
    batch_scores = scores.reshape(-1, num_boxes).astype(F32)
    if score_threshold != -np.inf:
        mask = (batch_scores > score_threshold).astype(F32)
        batch_scores, batch_boxes = batch_scores * mask, batch_boxes * mask[..., None]
    if not canonicalized_coordinates and batch_boxes.size:
        # TF looks at the first box only to decide which corner comes first, for all boxes
        y_swap = batch_boxes[0, 0, 0] > batch_boxes[0, 0, 2]
        x_swap = batch_boxes[0, 0, 1] > batch_boxes[0, 0, 3]
        batch_boxes = batch_boxes[..., [2 if y_swap else 0, 3 if x_swap else 1,
                                        0 if y_swap else 2, 1 if x_swap else 3]]
    size = int(max_output_size)
    idx = np.zeros((batch_boxes.shape[0], size), np.int32)
    num_valid = np.zeros(batch_boxes.shape[0], np.int32)
    for b in range(batch_boxes.shape[0]):
        chosen = _padded_one(batch_boxes[b], batch_scores[b], size, F32(iou_threshold))
        idx[b, :len(chosen)], num_valid[b] = chosen, len(chosen)
    if not pad_to_max_output_size:  # one image: only the valid indices
        return idx[0, :num_valid[0]], num_valid.reshape(())
    return idx.reshape(*boxes.shape[:-2], size), num_valid.reshape(boxes.shape[:-2])


# TF writes this one in Python from many ops; minitf gives it one op of its own.
NonMaxSuppressionPadded = Op(
    "NonMaxSuppressionPadded", _nms_padded, typed=[0, 1], num_outputs=2,
    dtype=lambda *d, **a: (dtypes.int32, dtypes.int32),
    shape=lambda boxes, scores, *s, **a: (TensorShape(boxes.as_list()[:-2] + [None]),
                                          TensorShape(boxes.as_list()[:-2])))


@tf_export("image.non_max_suppression_padded")
def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """(indices, num_valid): NMS for a batch of images at once, padded with zeros to
    `max_output_size` (pad_to_max_output_size=True, needed for a batch).

    boxes: [..., num_boxes, 4]; scores: [..., num_boxes]. As in TF, a box is dropped when
    its IoU with a kept one is >= iou_threshold (not >), and `tile_size` and
    `sorted_input` only change how TF's kernel schedules its work, not the result.

    >>> idx, n = tf.image.non_max_suppression_padded(
    ...     tf.constant([[0, 0, 1, 1], [0, 0, 1, 0.9], [0, 2, 1, 3]]), tf.constant([0.9, 0.8, 0.7]),
    ...     4, pad_to_max_output_size=True)
    >>> idx.numpy(), int(n)
    (array([0, 2, 0, 0], dtype=int32), 2)
    """
    boxes = convert_to_tensor(boxes, name="boxes")
    scores = convert_to_tensor(scores, name="scores")
    if not pad_to_max_output_size and boxes.shape.rank is not None and boxes.shape.rank > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be "
                         "True for batched input")
    idx, num_valid = apply(NonMaxSuppressionPadded, [boxes, scores], {
        "max_output_size": int(max_output_size), "iou_threshold": float(iou_threshold),
        "score_threshold": float(score_threshold),
        "canonicalized_coordinates": bool(canonicalized_coordinates),
        "pad_to_max_output_size": bool(pad_to_max_output_size)})
    return idx, num_valid
