"""MaxNumBoundingBoxes: give every image of a batch the same number of bounding boxes.

Object-detection data comes as a dict: `{"images": [batch, h, w, c],
"bounding_boxes": {"boxes": [batch, n, 4], "labels": [batch, n]}}`. A model
needs the same `n` everywhere, so this layer cuts the boxes (and their
labels) after `max_number`, or pads them up to it with `fill_value` (-1:
"no box"). Images pass through unchanged. As in Keras 3.15 a dict with
"bounding_boxes" needs `bounding_box_format` (e.g. "xyxy"); the boxes are
not converted here, only cut or padded.

>>> import minitf as tf
>>> layer = tf.keras.layers.MaxNumBoundingBoxes(3, bounding_box_format="xyxy")
>>> data = {"images": tf.ones([1, 4, 4, 3]),
...         "bounding_boxes": {"boxes": tf.ones([1, 2, 4]), "labels": tf.constant([[7, 8]])}}
>>> layer(data)["bounding_boxes"]["labels"].numpy()
array([[ 7,  8, -1]], dtype=int32)

In Keras: `keras/src/layers/preprocessing/image_preprocessing/max_num_bounding_box.py`
(where, as here, `fill_value` is not saved in the config).
"""
import minitf as tf

from ....framework.tf_export import tf_export
from .image_preprocessing import BaseImagePreprocessingLayer


@tf_export("keras.layers.MaxNumBoundingBoxes")
class MaxNumBoundingBoxes(BaseImagePreprocessingLayer):
    """Cut or pad `bounding_boxes` to `max_number` per image; images unchanged.

    >>> tf.keras.layers.MaxNumBoundingBoxes(5, fill_value=0.5).fill_value     # int(), as Keras
    0
    """

    _USE_BASE_FACTOR = False
    _autocast = True

    def __init__(self, max_number, fill_value=-1, bounding_box_format=None, **kwargs):
        super().__init__(**kwargs)
        self.max_number = int(max_number)
        self.fill_value = int(fill_value)
        self.bounding_box_format = bounding_box_format

    def call(self, data, training=True):
        if not isinstance(data, dict) or "bounding_boxes" not in data:
            return super().call(data, training=training)
        if not self.bounding_box_format:
            raise ValueError("You passed an input with a 'bounding_boxes' key, but you didn't "
                             "specify a bounding box format. Pass a `bounding_box_format` argument "
                             f"to your {type(self).__name__} layer, e.g. "
                             "`bounding_box_format='xyxy'`.")
        out = {key: value for key, value in data.items() if key != "bounding_boxes"}
        if "images" in out:
            out = super().call(out, training=training)
        out["bounding_boxes"] = self.transform_bounding_boxes(data["bounding_boxes"])
        return out

    def transform_images(self, images, transformation=None, training=True):
        return images

    def transform_bounding_boxes(self, bounding_boxes, transformation=None, training=True):
        extra = sorted(set(bounding_boxes) - {"boxes", "labels"})
        if extra:
            raise KeyError(f"There are unsupported keys in `bounding_boxes`: {extra}. "
                           "Only `boxes` and `labels` are supported.")
        boxes = tf.convert_to_tensor(bounding_boxes["boxes"])
        labels = tf.convert_to_tensor(bounding_boxes["labels"])
        pad = tf.maximum(self.max_number - tf.shape(boxes)[1], 0)
        batch = tf.shape(boxes)[0]
        boxes = tf.concat([boxes[:, :self.max_number],
                           tf.fill(tf.stack([batch, pad, 4]), tf.cast(self.fill_value, boxes.dtype))],
                          axis=1)
        labels = tf.concat([labels[:, :self.max_number],
                            tf.fill(tf.stack([batch, pad]), tf.cast(self.fill_value, labels.dtype))],
                           axis=1)
        out = dict(bounding_boxes)
        out["boxes"] = tf.reshape(boxes, [-1, self.max_number, 4])
        out["labels"] = tf.reshape(labels, [-1, self.max_number])
        return out

    def get_config(self):
        config = super().get_config()
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        config["max_number"] = self.max_number
        return config
