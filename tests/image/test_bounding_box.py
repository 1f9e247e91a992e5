"""sample_distorted_bounding_box and its stateless twin: the crop obeys TF's rules over many
seeds, the stateless one is deterministic, TF's errors, and the cases whose answer is fixed
(the fallback to the whole image) against real TF 2.21."""
import json

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

OBJECT = [[[0.1, 0.2, 0.5, 0.9]]]


def _check_crop(begin, size, box, area_range=(0.05, 1.0), ratios=(0.75, 1.33), covered=0.1):
    (y, x, z), (h, w, c) = begin.numpy().tolist(), size.numpy().tolist()
    assert z == 0 and c == -1 and 0 <= y and y + h <= 40 and 0 <= x and x + w <= 60
    np.testing.assert_allclose(box.numpy(), [[[y / 40, x / 60, (y + h) / 40, (x + w) / 60]]],
                               rtol=1e-6)
    if (h, w) == (40, 60):
        return  # the fallback: the whole image
    assert area_range[0] * 2400 <= h * w <= area_range[1] * 2400
    assert ratios[0] - 0.05 <= w / h <= ratios[1] + 0.05  # the ratio, up to rounding w
    oy0, ox0, oy1, ox1 = 4, 12, 20, 54  # OBJECT in pixels
    inter = max(0, min(y + h, oy1) - max(y, oy0)) * max(0, min(x + w, ox1) - max(x, ox0))
    assert inter / ((oy1 - oy0) * (ox1 - ox0)) >= covered


@pytest.mark.parametrize("seed", range(30))
def test_stateless_crops_follow_the_rules(seed):
    out = tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], OBJECT, seed=[seed, 1])
    _check_crop(*out)
    tight = tf.image.stateless_sample_distorted_bounding_box(
        [40, 60, 3], OBJECT, seed=[seed, 2], min_object_covered=0.8, area_range=[0.2, 0.6],
        aspect_ratio_range=[0.5, 2.0])
    _check_crop(*tight, area_range=(0.2, 0.6), ratios=(0.5, 2.0), covered=0.8)


def test_stateful_crops_follow_the_rules_and_vary():
    sizes = set()
    for _ in range(20):
        out = tf.image.sample_distorted_bounding_box([40, 60, 3], OBJECT, seed=5)
        _check_crop(*out)
        sizes.add(tuple(out[1].numpy().tolist()))
    assert len(sizes) > 3


def test_stateless_is_deterministic_and_feeds_slice():
    runs = [tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], OBJECT, seed=[7, 8])
            for _ in range(2)]
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)
    begin, size, _ = runs[0]
    image = tf.reshape(tf.range(40 * 60 * 3), [40, 60, 3])
    crop = tf.slice(image, begin, size)
    assert crop.shape == (int(size[0]), int(size[1]), 3)


def test_in_tf_function():
    f = tf.function(lambda s: tf.image.stateless_sample_distorted_bounding_box(
        [40, 60, 3], OBJECT, seed=s))
    for a, b in zip(f(tf.constant([7, 8])), tf.image.stateless_sample_distorted_bounding_box(
            [40, 60, 3], OBJECT, seed=[7, 8])):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("kwargs,text", [
    (dict(bounding_boxes=np.zeros((1, 0, 4), np.float32)),
     "No bounding boxes provided as input. One must enable use_image_if_no_bounding_boxes"),
    (dict(bounding_boxes=[[[0.1, 0.2, 1.5, 0.9]]]),
     "All bounding box coordinates must be in [0.0, 1.0]: 1.5"),
    (dict(image_size=[40, 60]), "image_size must contain 3 elements[2]"),
    (dict(bounding_boxes=[[0.1, 0.2, 0.5, 0.9]]),
     "input boxes must be 3-dimensional [batch, num_boxes, coords]: [1,4]"),
    (dict(area_range=[0.5]), "Area range field must specify 2 dimensions"),
    (dict(aspect_ratio_range=[0.5]), "Aspect ratio range field must specify 2 dimensions"),
    (dict(area_range=[0.5, 1.5]), "Area range must be less then or equal to 1.0: [0.5, 1.5]"),
    (dict(max_attempts=0), "Max attempts must be non-negative: 0"),
    (dict(image_size=tf.constant([40, 60, 3], tf.float32)), "Value for attr 'T' of float"),
])
def test_errors_as_tf(kwargs, text):
    args = dict(image_size=[40, 60, 3], bounding_boxes=OBJECT, seed=[1, 2])
    args.update(kwargs)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.image.stateless_sample_distorted_bounding_box(**args)
    assert text in str(info.value)


FIXED = [dict(min_object_covered=1.0, area_range=[0.01, 0.02], max_attempts=5),
         dict(no_boxes=True, use_image_if_no_bounding_boxes=True, area_range=[1.0, 1.0]),
         dict(aspect_ratio_range=[1.5, 1.5], area_range=[1.0, 1.0])]


def test_fixed_answers_match_real_tf():
    got = run_tf_json(f"""
        import json, tensorflow as tf
        out = []
        for kwargs in json.loads('{json.dumps(FIXED)}'):
            args = dict(image_size=tf.constant([40, 60, 3], tf.int64),
                        bounding_boxes={OBJECT}, seed=[1, 2])
            args.update(kwargs)
            if args.pop("no_boxes", False):
                args["bounding_boxes"] = tf.zeros([1, 0, 4])
            out.append([t.numpy().tolist() for t in
                        tf.image.stateless_sample_distorted_bounding_box(**args)])
        print(json.dumps(out))
    """)
    for kwargs, want in zip(FIXED, got):
        args = dict(image_size=tf.constant([40, 60, 3], tf.int64), bounding_boxes=OBJECT,
                    seed=[1, 2])
        args.update(kwargs)
        if args.pop("no_boxes", False):
            args["bounding_boxes"] = tf.zeros([1, 0, 4])
        out = tf.image.stateless_sample_distorted_bounding_box(**args)
        assert out[0].dtype == tf.int64
        assert [t.numpy().tolist() for t in out] == want
