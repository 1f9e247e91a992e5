"""`tf.image.generate_bounding_box_proposals`: a region proposal network's last step.

A Faster R-CNN style detector scores `num_anchors` anchor boxes at every
position of a feature map and predicts, for each, how to move and stretch it
(`bbox_deltas`, [dy, dx, dh, dw]). This op turns that into proposals, per image:

1. take the `pre_nms_topn` best scores (ties: the earlier position first);
2. decode each box: centre += size * (dy, dx); size *= exp(min(dh or dw,
   log(1000/16))); clip the box to the image (height, width from `image_info`);
3. drop boxes whose shorter side is below `min_size * image_info[:, 2]` (scale);
4. non-maximum suppression: in score order, keep a box unless it overlaps a kept
   one with IoU > `nms_threshold`; stop at `post_nms_topn` boxes;
5. return the boxes [y1, x1, y2, x2] and scores, zero-padded to `post_nms_topn`.

`anchors` holds the anchors already placed at every position:
[height, width, 4 * num_anchors] (TF's docstring says [num_anchors, 4], but its
kernel reads one anchor per position and anchor, as here).

In TensorFlow this op has only a GPU kernel (generate_box_proposals_op.cu.cc):
TF's CPU build raises NotFoundError ("no registered kernels"). minitf computes
what that kernel computes, step by step as above, in float32. There is no
gradient (TF registers none).

>>> import minitf as tf
>>> scores = tf.constant([[[[0.9, 0.3]]]])                 # 1 image, 1x1 map, 2 anchors
>>> deltas = tf.zeros([1, 1, 1, 8])                         # keep the anchors as they are
>>> anchors = tf.constant([[[0., 0., 20., 20., 0., 0., 20., 30.]]])
>>> rois, probs = tf.image.generate_bounding_box_proposals(
...     scores, deltas, [[32., 32., 1., 0., 0.]], anchors, post_nms_topn=3)
>>> rois.numpy()[0]          # the second box overlaps the first by IoU 2/3 < 0.7: kept
array([[ 0.,  0., 20., 20.],
       [ 0.,  0., 20., 30.],
       [ 0.,  0.,  0.,  0.]], dtype=float32)
>>> probs.numpy()[0]
array([0.9, 0.3, 0. ], dtype=float32)
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export

F32 = np.float32
BBOX_XFORM_CLIP = F32(np.log(1000.0 / 16.0))  # the largest dh, dw the kernel applies


def decode_boxes(deltas, anchors, image_info, min_size):
    """Step 2 and 3: boxes [x1, y1, x2, y2] from anchors [y1, x1, y2, x2] and deltas
    [dy, dx, dh, dw] (rows of both in score order), and which boxes are large enough."""
    y1, x1, y2, x2 = anchors.T
    dy, dx, dh, dw = deltas.T
    dw, dh = np.minimum(dw, BBOX_XFORM_CLIP), np.minimum(dh, BBOX_XFORM_CLIP)
    width, height = x2 - x1, y2 - y1
    ctr_x = x1 + F32(0.5) * width + width * dx
    ctr_y = y1 + F32(0.5) * height + height * dy
    pred_w, pred_h = width * np.exp(dw), height * np.exp(dh)
    img_h, img_w = image_info[0], image_info[1]
    x1 = np.clip(ctr_x - F32(0.5) * pred_w, 0, img_w)
    x2 = np.clip(ctr_x + F32(0.5) * pred_w, 0, img_w)
    y1 = np.clip(ctr_y - F32(0.5) * pred_h, 0, img_h)
    y2 = np.clip(ctr_y + F32(0.5) * pred_h, 0, img_h)
    keep = np.minimum(x2 - x1, y2 - y1) >= F32(min_size) * image_info[2]
    return np.stack([x1, y1, x2, y2], axis=1).astype(F32), keep


def nms(boxes, threshold, max_boxes):
    """Step 4, as TF's GPU NMS: boxes [x1, y1, x2, y2] in score order; a box is dropped
    when intersection > union * threshold with a kept box; empty boxes overlap nothing."""
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    suppressed = np.zeros(len(boxes), bool)
    kept = []
    for i in range(len(boxes)):
        if suppressed[i]:
            continue
        kept.append(i)
        if len(kept) == max_boxes:
            break
        box, rest = boxes[i], boxes[i + 1:]
        w = np.maximum(np.minimum(box[2], rest[:, 2]) - np.maximum(box[0], rest[:, 0]), F32(0))
        h = np.maximum(np.minimum(box[3], rest[:, 3]) - np.maximum(box[1], rest[:, 1]), F32(0))
        inter = w * h
        union = area[i] + area[i + 1:] - inter
        over = (inter > union * F32(threshold)) & (area[i] != 0) & (area[i + 1:] != 0)
        suppressed[i + 1:] |= over
    return np.array(kept, np.int64)


def _proposals_forward(scores, deltas, image_info, anchors, nms_threshold, pre_nms_topn,
                       min_size, post_nms_topn):
    num_images = scores.shape[0]
    rois = np.zeros((num_images, post_nms_topn, 4), F32)
    probs = np.zeros((num_images, post_nms_topn), F32)
    flat_anchors = anchors.reshape(-1, 4)
    for n in range(num_images):
        flat_scores = scores[n].reshape(-1)
        order = np.argsort(-flat_scores, kind="stable")[:min(flat_scores.size, pre_nms_topn)]
        boxes, keep = decode_boxes(deltas[n].reshape(-1, 4)[order], flat_anchors[order],
                                   image_info[n], min_size)
        boxes, box_scores = boxes[keep], flat_scores[order][keep]
        kept = nms(boxes, nms_threshold, post_nms_topn)
        rois[n, :len(kept)] = boxes[kept][:, [1, 0, 3, 2]]  # back to [y1, x1, y2, x2]
        probs[n, :len(kept)] = box_scores[kept]
    return rois, probs


def _proposals_shape(scores, deltas, image_info, anchors, post_nms_topn, **_):
    return (TensorShape([scores[0], post_nms_topn, 4]), TensorShape([scores[0], post_nms_topn]))


GenerateBoundingBoxProposals = Op(
    "GenerateBoundingBoxProposals", _proposals_forward, dtypes=(dtypes.float32,),
    shape=_proposals_shape, num_outputs=2)


def _check(scores, deltas, image_info, anchors, nms_threshold, pre_nms_topn, post_nms_topn):
    name = "GenerateBoundingBoxProposals"
    for label, tensor, rank in (("scores", scores, 4), ("bbox_deltas", deltas, 4),
                                ("image_info", image_info, 2), ("anchors", anchors, 3)):
        if tensor.shape.rank is not None and tensor.shape.rank != rank:
            raise errors.op_error(
                errors.InvalidArgumentError, name,
                f"Shape must be rank {rank} but is rank {tensor.shape.rank} for {label}",
                "scores [images, height, width, anchors], bbox_deltas [images, height, "
                "width, 4 * anchors], image_info [images, 5], anchors [height, width, "
                "4 * anchors].")
    if post_nms_topn <= 0:
        raise errors.op_error(errors.InvalidArgumentError, name,
                              "post_nms_topn can't be 0 or less")
    if not 0 <= nms_threshold <= 1:
        raise errors.op_error(errors.InvalidArgumentError, name,
                              f"nms_threshold should be between 0 and 1. Got {nms_threshold:g}")
    if pre_nms_topn <= 0:
        raise errors.op_error(errors.InvalidArgumentError, name,
                              f"pre_nms_topn should be greater than 0{pre_nms_topn}")
    a = scores.shape[3]
    if a is not None and anchors.shape[2] is not None and anchors.shape[2] != 4 * a:
        raise errors.op_error(
            errors.OutOfRangeError, name, "Box dimensions need to be 4",
            f"anchors' last axis must hold 4 numbers per anchor: 4 * {a}.")


@tf_export("image.generate_bounding_box_proposals")
def generate_bounding_box_proposals(scores, bbox_deltas, image_info, anchors,
                                    nms_threshold=0.7, pre_nms_topn=6000, min_size=16,
                                    post_nms_topn=300, name=None):
    """(rois [images, post_nms_topn, 4], roi_probabilities [images, post_nms_topn]):
    the best boxes decoded from anchors and deltas, after NMS (see the module)."""
    tensors = [convert_to_tensor(t, dtype=dtypes.float32)
               for t in (scores, bbox_deltas, image_info, anchors)]
    nms_threshold, pre_nms_topn = float(nms_threshold), int(pre_nms_topn)
    min_size, post_nms_topn = float(min_size), int(post_nms_topn)
    _check(*tensors, nms_threshold, pre_nms_topn, post_nms_topn)
    return apply(GenerateBoundingBoxProposals, tensors, {
        "nms_threshold": nms_threshold, "pre_nms_topn": pre_nms_topn,
        "min_size": min_size, "post_nms_topn": post_nms_topn})
