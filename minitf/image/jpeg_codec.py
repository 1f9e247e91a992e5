"""JPEG: `decode_jpeg`, `encode_jpeg`, `decode_and_crop_jpeg`, `extract_jpeg_shape`,
`is_jpeg`, and `adjust_jpeg_quality` (encode at a quality, decode again).

JPEG is lossy: encoding throws away detail the eye misses (8 x 8 blocks of
cosine frequencies, rounded; colour at half resolution), so a round trip
returns close, not equal, pixels. Pillow and TensorFlow both use
libjpeg-turbo, so decoding the same bytes gives the same pixels as TF's
`decode_jpeg(..., dct_method="INTEGER_ACCURATE")` (TF's default IDCT is the
faster INTEGER_FAST: a few levels apart; see `decode_jpeg`). Encoding gives
the very bytes TF writes:

>>> import minitf as tf
>>> x = tf.fill([8, 8, 3], tf.constant(100, tf.uint8))
>>> jpg = tf.io.encode_jpeg(x, quality=90)
>>> bool(tf.io.is_jpeg(jpg)), tf.io.extract_jpeg_shape(jpg).numpy()
(True, array([8, 8, 3], dtype=int32))
>>> tf.io.decode_jpeg(jpg)[0, 0].numpy()          # a flat colour survives exactly
array([100, 100, 100], dtype=uint8)
"""
import io

import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import codec_common as cc
from .dtype_conversion import convert_image_dtype
from .image_codecs import _decode


def _decode_jpeg(contents, op_name="DecodeJpeg", channels=0, ratio=1, crop=None):
    """Decode (any format, as TF's kernels do), asking libjpeg for grey or a smaller scale."""
    data = cc.as_bytes(contents)
    cc.check_channels(op_name, channels)
    if ratio not in (1, 2, 4, 8):
        raise cc.bad_data(op_name, f"ratio must be 1, 2, 4, or 8, got {ratio}")
    if cc.sniff(data) != "jpeg":  # TF's JPEG ops read the other formats too
        array = _decode(contents, op_name, channels)
        return array if crop is None else _crop(op_name, array, crop)
    if channels == 4:
        raise cc.bad_data(op_name, "JPEG does not support 4 channels")
    image = cc.jpeg_draft(cc.open_image(op_name, data), channels, ratio)
    array = cc.to_channels(cc.load(op_name, image), channels)
    return array if crop is None else _crop(op_name, array, crop)


def _crop(op_name, array, crop):
    y, x, h, w = (int(v) for v in crop)
    if y < 0 or x < 0 or h <= 0 or w <= 0 or y + h > array.shape[0] or x + w > array.shape[1]:
        raise cc.bad_data(op_name, "jpeg::Uncompress failed. Invalid JPEG data or crop window.",
                          f"The window [y={y}, x={x}, height={h}, width={w}] must lie inside "
                          f"the {array.shape[0]} x {array.shape[1]} image.")
    return array[y:y + h, x:x + w]


def _still(s, *rest, channels=0, **attrs):
    return TensorShape([None, None, channels or None])


DecodeJpeg = Op("DecodeJpeg", lambda c, **a: _decode_jpeg(c, **a), dtypes={dtypes.string},
                shape=_still, dtype=dtypes.uint8)
DecodeAndCropJpeg = Op("DecodeAndCropJpeg",
                       lambda c, w, **a: _decode_jpeg(c, "DecodeAndCropJpeg", crop=w, **a),
                       typed=(0,), dtypes={dtypes.string}, shape=_still, dtype=dtypes.uint8)


def _check_decode_options(fancy_upscaling=True, dct_method="", try_recover_truncated=False):
    if not fancy_upscaling or dct_method not in ("", "INTEGER_ACCURATE"):
        raise NotImplementedError(
            "minitf decodes JPEG with libjpeg's accurate integer IDCT and smooth chroma "
            "upsampling only (dct_method '' or 'INTEGER_ACCURATE', fancy_upscaling=True): "
            "Pillow, which it decodes with, offers no other combination.")
    if try_recover_truncated:
        raise NotImplementedError(
            "minitf does not recover truncated JPEGs (try_recover_truncated=True): TF fills the "
            "missing rows its own way, and a guess would be silently wrong.")


@tf_export("io.decode_jpeg", "image.decode_jpeg")
def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True,
                try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """A JPEG's pixels as uint8 [height, width, channels]; `ratio` 2, 4 or 8 decodes smaller.

    channels=1 asks the decoder for the luma (Y) channel directly, as TF does.
    minitf decodes as TF does with `dct_method="INTEGER_ACCURATE"`, bit for bit.
    TF's default `dct_method=""` picks libjpeg's faster, less exact IDCT
    (INTEGER_FAST), whose pixels differ from these by a few levels (at most 3
    of 255 on the test photo); Pillow offers no way to choose it with smooth
    chroma upsampling, so minitf refuses "INTEGER_FAST" and `fancy_upscaling=False`.

    >>> jpg = tf.io.encode_jpeg(tf.zeros([16, 16, 3], tf.uint8))
    >>> tf.io.decode_jpeg(jpg, ratio=2).shape
    TensorShape([8, 8, 3])
    """
    _check_decode_options(fancy_upscaling, dct_method, try_recover_truncated)
    return apply(DecodeJpeg, [convert_to_tensor(contents, dtypes.string)],
                 {"channels": channels, "ratio": ratio})


@tf_export("io.decode_and_crop_jpeg", "image.decode_and_crop_jpeg")
def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
    """`decode_jpeg`, then keep crop_window = [y, x, height, width].

    >>> jpg = tf.io.encode_jpeg(tf.zeros([16, 16, 3], tf.uint8))
    >>> tf.io.decode_and_crop_jpeg(jpg, [2, 4, 5, 6]).shape
    TensorShape([5, 6, 3])
    """
    _check_decode_options(fancy_upscaling, dct_method, try_recover_truncated)
    window = convert_to_tensor(crop_window, dtypes.int32)
    return apply(DecodeAndCropJpeg, [convert_to_tensor(contents, dtypes.string), window],
                 {"channels": channels, "ratio": ratio})


def _jpeg_shape(contents, output_type="int32"):
    data = cc.as_bytes(contents)
    if cc.sniff(data) != "jpeg":
        raise cc.bad_data("ExtractJpegShape", f"Invalid JPEG data, size {len(data)}",
                          "The bytes do not start with JPEG's signature FF D8 FF.")
    image = cc.open_image("ExtractJpegShape", data)  # the header only: no pixels decoded
    channels = {"L": 1, "RGB": 3, "YCbCr": 3, "CMYK": 4}.get(image.mode, 3)
    return np.array([image.size[1], image.size[0], channels], dtype=output_type)


ExtractJpegShape = Op("ExtractJpegShape", _jpeg_shape, dtypes={dtypes.string},
                      shape=lambda s, **a: TensorShape([3]),
                      dtype=lambda d, output_type="int32": dtypes.as_dtype(output_type))


@tf_export("io.extract_jpeg_shape", "image.extract_jpeg_shape")
def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """[height, width, channels] of a JPEG, read from its header without decoding it.

    >>> tf.io.extract_jpeg_shape(tf.io.encode_jpeg(tf.zeros([5, 7, 1], tf.uint8))).numpy()
    array([5, 7, 1], dtype=int32)
    """
    return apply(ExtractJpegShape, [convert_to_tensor(contents, dtypes.string)],
                 {"output_type": dtypes.as_dtype(output_type).name})


def _is_jpeg(contents):
    starts = np.vectorize(lambda b: bytes(b).startswith(b"\xff\xd8\xff"), otypes=[bool])
    return starts(contents)


# TF builds is_jpeg from Substr and Equal ops; minitf has no Substr yet, so one small op.
IsJpeg = Op("IsJpeg", _is_jpeg, dtypes={dtypes.string}, shape=lambda s: s, dtype=dtypes.bool)


@tf_export("io.is_jpeg", "image.is_jpeg")
def is_jpeg(contents, name=None):
    """Whether the bytes start with JPEG's signature FF D8 FF (it can be fooled).

    >>> bool(tf.io.is_jpeg(b"\\xff\\xd8\\xff\\xe0 and so on"))
    True
    """
    return apply(IsJpeg, [convert_to_tensor(contents, dtypes.string)])


_DENSITY_UNITS = {"in": 1, "cm": 2}


def _encode_jpeg(image, quality=95, progressive=False, optimize_size=False,
                 chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                 fmt="", xmp=b""):
    if image.ndim != 3 or image.shape[-1] not in (1, 3):
        raise cc.bad_data("EncodeJpeg", "image must have 1 or 3 channels, got "
                          f"[{','.join(str(d) for d in image.shape)}]")
    want = {"grayscale": 1, "rgb": 3}.get(fmt)
    if want is not None and want != image.shape[-1]:
        raise cc.bad_data("EncodeJpeg", f"format {fmt} expects {want} channels, got "
                          f"[{','.join(str(d) for d in image.shape)}]")
    grey = image.shape[-1] == 1
    picture = cc.pillow_image().fromarray(image[..., 0] if grey else image)
    buffer = io.BytesIO()
    options = {"xmp": xmp.encode() if isinstance(xmp, str) else xmp} if xmp else {}
    picture.save(buffer, "JPEG", quality=int(quality), progressive=progressive,
                 optimize=optimize_size, dpi=(x_density, y_density),
                 subsampling=2 if chroma_downsampling and not grey else 0, **options)
    data = bytearray(buffer.getvalue())
    data[13] = _DENSITY_UNITS[density_unit]  # the JFIF header's unit byte (Pillow writes 'in')
    out = np.empty((), object)
    out[()] = bytes(data)
    return out


EncodeJpeg = Op("EncodeJpeg", _encode_jpeg, dtypes={dtypes.uint8},
                shape=lambda s, **a: TensorShape([]), dtype=dtypes.string)
EncodeJpegVariableQuality = Op(
    "EncodeJpegVariableQuality", lambda image, quality: _encode_jpeg(image, int(quality)),
    typed=(0,), dtypes={dtypes.uint8}, shape=lambda s, q: TensorShape([]), dtype=dtypes.string)


@tf_export("io.encode_jpeg", "image.encode_jpeg")
def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                xmp_metadata="", name=None):
    """JPEG bytes of a uint8 image [height, width, 1 or 3] at `quality` (0-100).

    chroma_downsampling=True stores colour at half resolution (4:2:0), as TF does; the
    bytes are TF's for every option (density in the JFIF header, XMP in an APP1 segment).

    >>> x = tf.fill([8, 8, 1], tf.constant(7, tf.uint8))
    >>> tf.io.decode_jpeg(tf.io.encode_jpeg(x, quality=50)).numpy().ravel()[:3]  # as TF: lossy
    array([6, 6, 6], dtype=uint8)
    """
    if not 0 <= quality <= 100:
        raise ValueError(f"quality must be in [0, 100], got {quality}")
    if density_unit not in _DENSITY_UNITS:
        raise ValueError(f"density_unit must be 'in' or 'cm', got {density_unit!r}")
    return apply(EncodeJpeg, [convert_to_tensor(image)],
                 {"quality": quality, "progressive": progressive,
                  "optimize_size": optimize_size, "chroma_downsampling": chroma_downsampling,
                  "density_unit": density_unit, "x_density": x_density, "y_density": y_density,
                  "fmt": format, "xmp": xmp_metadata})


@tf_export("image.adjust_jpeg_quality")
def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image after a JPEG round trip at `jpeg_quality` (a data augmentation).

    The decode uses the accurate IDCT: equal to TF's with `dct_method="INTEGER_ACCURATE"`;
    TF's default (INTEGER_FAST) is a level or so away (see `decode_jpeg`).

    >>> x = tf.fill([8, 8, 3], 0.5)
    >>> y = tf.image.adjust_jpeg_quality(x, 75)
    >>> y.dtype, round(float(y[0, 0, 0]), 3)
    (tf.float32, 0.498)
    """
    _check_decode_options(dct_method=dct_method)
    image = convert_to_tensor(image)
    channels = image.shape[-1]
    as_uint8 = convert_image_dtype(image, dtypes.uint8, saturate=True)
    quality = convert_to_tensor(jpeg_quality, dtypes.int32)
    encoded = apply(EncodeJpegVariableQuality, [as_uint8, quality])
    decoded = apply(DecodeJpeg, [encoded], {"channels": channels, "ratio": 1})
    return convert_image_dtype(decoded, image.dtype, saturate=True)
