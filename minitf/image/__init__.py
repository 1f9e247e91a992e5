"""`tf.image`: resizing, cropping, flipping, colour and codecs for image tensors.

An image is a 3-D tensor `[height, width, channels]`, a batch of them a 4-D
tensor `[batch, height, width, channels]` (TF's "NHWC"). Every op here takes
both, like TensorFlow's.

* `resize_ops.py`, `resize_kernels.py` - `resize` (every `ResizeMethod`);
* `crop_ops.py` - `central_crop`, `crop_to_bounding_box`, `pad_to_bounding_box`,
  `resize_with_crop_or_pad`, `resize_with_pad`;
* `crop_and_resize_ops.py` - `crop_and_resize`; `glimpse_ops.py` - `extract_glimpse`;
* `flip_ops.py` - flips, `rot90`, `transpose`, `random_*` and `stateless_random_*`;
* `bounding_box_ops.py` - `sample_distorted_bounding_box` and its stateless twin;
* `filter_ops.py` - `extract_patches`, `image_gradients`, `sobel_edges`,
  `total_variation`;
* `nms_ops.py` - `non_max_suppression` and its variants;
* `box_proposals_ops.py` - `generate_bounding_box_proposals` (a region proposal
  network's decoding and NMS);
* the colour, quality and codec modules (`adjust_*`, `rgb_to_*`, `psnr`/`ssim`,
  `decode_*`/`encode_*`) sit beside them.

`tf.image` is imported on first use (framework/api_namespace.py). Importing
this package imports every module below it, which registers the public names
they mark with `@tf_export("image....")`.
"""
import importlib as _importlib
import pkgutil as _pkgutil

for _info in _pkgutil.iter_modules(__path__):
    _importlib.import_module(f"{__name__}.{_info.name}")
