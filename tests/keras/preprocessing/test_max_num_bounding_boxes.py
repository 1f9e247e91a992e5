"""MaxNumBoundingBoxes: cut/pad against real TF 2.21 / Keras 3.15 (one subprocess), errors,
config round trip and Dataset.map."""
import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

L = tf.keras.layers
IMAGES = np.arange(2 * 3 * 3 * 1, dtype="float32").reshape(2, 3, 3, 1)
CASES = [(3, -1, 2), (3, -1, 5), (2, 0, 2), (4, 7, 1)]   # (max_number, fill_value, boxes per image)


def _data(count):
    return {"images": IMAGES,
            "bounding_boxes": {"boxes": np.arange(2 * count * 4, dtype="float32").reshape(2, count, 4),
                               "labels": np.arange(2 * count, dtype="int32").reshape(2, count)}}


@pytest.fixture(scope="module")
def real():
    require_tf()
    return run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        images = np.array({IMAGES.tolist()!r}, "float32")
        outs = []
        for number, fill, count in {CASES!r}:
            layer = tf.keras.layers.MaxNumBoundingBoxes(number, fill_value=fill,
                                                        bounding_box_format="xyxy")
            boxes = np.arange(2 * count * 4, dtype="float32").reshape(2, count, 4)
            labels = np.arange(2 * count, dtype="int32").reshape(2, count)
            out = layer({{"images": images, "bounding_boxes": {{"boxes": boxes, "labels": labels}}}})
            outs.append([np.asarray(out["bounding_boxes"]["boxes"]).tolist(),
                         np.asarray(out["bounding_boxes"]["labels"]).tolist(),
                         np.asarray(out["images"]).tolist()])
        try:
            tf.keras.layers.MaxNumBoundingBoxes(2)({{"images": images, "bounding_boxes": {{
                "boxes": boxes, "labels": labels}}}})
            message = None
        except ValueError as e:
            message = str(e)
        configs = [tf.keras.layers.MaxNumBoundingBoxes(4, fill_value=3).get_config(),
                   tf.keras.layers.MaxNumBoundingBoxes(2, bounding_box_format="yxyx").get_config()]
        print(json.dumps({{"outs": outs, "message": message, "configs": configs}}))
        """)


@pytest.mark.parametrize("index", range(len(CASES)))
def test_cut_and_pad_equal_keras(real, index):
    number, fill, count = CASES[index]
    layer = L.MaxNumBoundingBoxes(number, fill_value=fill, bounding_box_format="xyxy")
    out = layer(_data(count))
    boxes, labels, images = real["outs"][index]
    np.testing.assert_array_equal(out["bounding_boxes"]["boxes"].numpy(), boxes)
    np.testing.assert_array_equal(out["bounding_boxes"]["labels"].numpy(), labels)
    assert out["bounding_boxes"]["labels"].dtype == tf.int32
    np.testing.assert_array_equal(out["images"].numpy(), images)


def test_errors_and_configs_equal_keras(real):
    with pytest.raises(ValueError) as info:
        L.MaxNumBoundingBoxes(2)(_data(4))
    assert str(info.value) in real["message"]
    ours = [L.MaxNumBoundingBoxes(4, fill_value=3).get_config(),
            L.MaxNumBoundingBoxes(2, bounding_box_format="yxyx").get_config()]
    for mine, theirs in zip(ours, real["configs"]):
        assert mine == theirs
    with pytest.raises(KeyError, match="unsupported keys"):
        data = _data(2)
        data["bounding_boxes"]["scores"] = np.ones([2, 2], "float32")
        L.MaxNumBoundingBoxes(2, bounding_box_format="xyxy")(data)


def test_images_alone_round_trip_and_dataset_map():
    layer = L.MaxNumBoundingBoxes(3, bounding_box_format="xyxy")
    np.testing.assert_array_equal(layer(IMAGES).numpy(), IMAGES)
    clone = L.MaxNumBoundingBoxes.from_config(layer.get_config())
    assert (clone.max_number, clone.fill_value, clone.bounding_box_format) == (3, -1, "xyxy")
    ds = tf.data.Dataset.from_tensor_slices(_data(5)).batch(2).map(layer)
    batch = next(iter(ds))
    assert batch["bounding_boxes"]["boxes"].shape == (2, 3, 4)
    np.testing.assert_array_equal(batch["bounding_boxes"]["labels"].numpy(), [[0, 1, 2], [5, 6, 7]])
