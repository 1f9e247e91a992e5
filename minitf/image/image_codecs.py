"""PNG, BMP, GIF, WebP: `decode_png`, `encode_png`, `decode_bmp`, `decode_gif`, `decode_webp`,
`decode_image`.

Decoded images are uint8 tensors `[height, width, channels]` (GIF: a 4-D
`[frames, height, width, 3]`); `channels=0` keeps the file's own count, 1, 3 or
4 convert (grey, RGB, RGBA). As in TensorFlow, each decoder reads any of the
formats, and `decode_image` also converts to `dtype`:

>>> import minitf as tf
>>> pixels = tf.constant([[[0, 128, 255], [7, 8, 9]]], tf.uint8)
>>> png = tf.io.encode_png(pixels)
>>> bool(tf.reduce_all(tf.io.decode_png(png) == pixels))   # PNG is lossless
True
>>> tf.io.decode_image(png, dtype=tf.float32).dtype
tf.float32

`encode_png` is written out below (a PNG is a signature and three chunks,
the pixels zlib-compressed row by row); decoding goes through Pillow
(codec_common.py), bounded before it allocates.
"""
import struct
import zlib

import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import codec_common as cc, jxl_codec
from .dtype_conversion import convert_image_dtype
from .png_reader import read_16bit_colour

# --- encode_png: a PNG writer in a few lines ----------------------------------------------
_COLOR_TYPE = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> PNG colour type (grey, grey+alpha, RGB, RGBA)


def _chunk(kind, body):
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def _encode_png(image, compression=-1):
    """PNG bytes of one [h, w, c] image, or a tf.string array of them for a batch (TF too)."""
    if image.ndim < 3:
        raise cc.bad_data("EncodePng", "images must be at least rank 3"
                          f"[{','.join(str(d) for d in image.shape)}]",
                          "Give the channels an axis: tf.expand_dims(image, -1).")
    if image.shape[-1] not in _COLOR_TYPE:
        raise cc.bad_data("EncodePng", f"image must have 1, 2, 3, or 4 channels, got "
                          f"{image.shape[-1]}")
    if image.ndim > 3:
        out = np.empty(image.shape[:-3], object)
        for index in np.ndindex(out.shape):
            out[index] = _encode_png(image[index], compression)[()]
        return out
    height, width, channels = image.shape
    depth = 16 if image.dtype == np.uint16 else 8
    header = struct.pack(">IIBBBBB", width, height, depth, _COLOR_TYPE[channels], 0, 0, 0)
    rows = image.astype(">u2" if depth == 16 else np.uint8).reshape(height, -1).view(np.uint8)
    raw = np.concatenate([np.zeros((height, 1), np.uint8), rows], axis=1)  # filter 0 per row
    out = np.empty((), object)
    out[()] = (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
               + _chunk(b"IDAT", zlib.compress(raw.tobytes(), compression))
               + _chunk(b"IEND", b""))
    return out


EncodePng = Op("EncodePng", _encode_png, dtypes={dtypes.uint8, dtypes.uint16},
               shape=lambda s, **a: TensorShape(None if s.rank is None else s[:-3]),
               dtype=dtypes.string)


@tf_export("io.encode_png", "image.encode_png")
def encode_png(image, compression=-1, name=None):
    """PNG bytes of a uint8 or uint16 image [height, width, channels] (1 to 4 channels).

    A batch [..., height, width, channels] gives a tf.string tensor of shape [...].

    compression: zlib's level, 0 (none) to 9 (smallest); -1 is zlib's default.

    >>> png = tf.io.encode_png(tf.zeros([2, 3, 1], tf.uint8))
    >>> png.numpy()[:4]
    b'\\x89PNG'
    """
    if not -1 <= int(compression) <= 9:
        raise ValueError(f"compression must be between -1 and 9, got {compression}")
    return apply(EncodePng, [convert_to_tensor(image)], {"compression": int(compression)})


# --- decoding ------------------------------------------------------------------------------
def _frames(image):
    """Every frame of an animation (GIF), composed as a viewer shows it, as RGB."""
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frames.append(np.asarray(image.convert("RGB"), dtype=np.uint8))
    return np.stack(frames)


def _pixels(op_name, image, channels, dtype):
    """One still image as an array of `dtype` (uint8 or uint16), 16-bit files kept exact."""
    if image.mode.startswith("I;16") and channels in (0, 1):
        wide = np.asarray(image, dtype=np.uint16)[..., None]
        return wide if dtype == np.uint16 else (wide >> 8).astype(np.uint8)
    narrow = cc.to_channels(image, channels)
    return narrow.astype(np.uint16) * 257 if dtype == np.uint16 else narrow


def _decode(contents, op_name, channels=0, dtype="uint8", animated="first"):
    """The one decoder behind every op: sniff, check the header, decode, convert.

    animated: 'first' (a 3-D image: the first frame), 'all' (always 4-D frames),
    'expand' (4-D for a GIF, 3-D for the rest: decode_image's expand_animations)."""
    data = cc.as_bytes(contents)
    cc.check_channels(op_name, channels)
    kind = cc.sniff(data)
    if kind is None:
        raise cc.unknown_format(op_name)
    if kind == "jxl":  # TF 2.21 decodes JPEG XL in every decoder, as 3-D uint8
        if dtype != "uint8":
            raise cc.bad_data(op_name, "JXL only supports uint8 for dtype")
        if animated == "all":
            raise cc.bad_data(op_name, f"Trying to decode JXL format using {op_name} op. "
                              "Use `decode_jxl` or `decode_image` instead.",
                              "(TF 2.21 returns a 3-D image here, where this op promises "
                              "4-D frames; minitf refuses rather than break the promise.)")
        return jxl_codec.decode_pixels(op_name, data, channels)
    if op_name == "DecodeBmp" and kind != "bmp":
        raise cc.bad_data(op_name, f"Trying to decode {kind.upper()} format using DecodeBmp op. "
                          f"Use `decode_{kind}` or `decode_image` instead.")
    if kind == "jpeg" and channels == 4:
        raise cc.bad_data(op_name, "JPEG does not support 4 channels")
    image = cc.open_image(op_name, data)
    frames = getattr(image, "n_frames", 1)
    if animated == "first" and op_name != "DecodeImage" and frames > 1:
        raise cc.bad_data(op_name, f"Got {frames} frames, but animated gifs can only be "
                          "decoded by tf.io.decode_gif or tf.io.decode_image")
    raw_mode = str(image.tile[0][3]) if image.tile else ""
    if raw_mode in _WIDE_RAW_MODES:  # Pillow would keep only the high bytes
        pixels = _wide_colour(op_name, data, channels)
        return pixels if dtype == "uint16" else (pixels >> 8).astype(np.uint8)
    image = cc.load(op_name, cc.jpeg_draft(image, channels))
    if kind == "webp" or op_name == "DecodeWebP":
        pixels = _webp(op_name, image, kind, channels, animated)
        return pixels.astype(np.uint16) * 257 if dtype == "uint16" else pixels
    if animated == "all" or (animated == "expand" and kind == "gif"):
        if channels not in (0, 3):
            raise cc.bad_data(op_name, f"channels must be 0 or 3 for GIF, got {channels}")
        return _frames(image)
    return _pixels(op_name, image, channels, np.dtype(dtype))


_WIDE_RAW_MODES = ("RGB;16B", "RGBA;16B", "LA;16B")


def _wide_colour(op_name, data, channels):
    """A 16-bit LA/RGB/RGBA PNG at full precision, with the channels asked (TF: alpha 65535)."""
    pixels = read_16bit_colour(data, op_name)
    if pixels.shape[-1] == 2:  # grey + alpha
        grey, alpha = pixels[..., :1], pixels[..., 1:]
        return {0: pixels, 1: grey, 3: np.repeat(grey, 3, -1),
                4: np.concatenate([np.repeat(grey, 3, -1), alpha], -1)}[channels]
    if channels == 1:
        raise cc.bad_data(op_name, "minitf cannot turn 16-bit colour into grey as TF does",
                          "Decode with channels=3 and use tf.image.rgb_to_grayscale.")
    if channels == 3:
        return pixels[..., :3]
    if channels == 4 and pixels.shape[-1] == 3:
        opaque = np.full(pixels.shape[:2] + (1,), 65535, np.uint16)
        return np.concatenate([pixels, opaque], axis=-1)
    return pixels


def _webp(op_name, image, kind, channels, animated):
    """TF's WebP rules: always frames [n, h, w, c] (a still is one frame), channels as stored."""
    if kind != "webp":
        raise cc.bad_data(op_name, f"Trying to decode {kind.upper()} format using DecodeWebP "
                          f"op. Use `decode_{kind}` or `decode_image` instead.")
    if op_name not in ("DecodeWebP", "DecodeImage"):
        raise cc.bad_data(op_name, "minitf decodes WebP with tf.io.decode_webp or "
                          "tf.io.decode_image only", "(TF returns 4-D frames here.)")
    mode = "RGBA" if "A" in image.mode or getattr(image, "n_frames", 1) > 1 else "RGB"
    if channels not in (0, len(mode)):
        raise cc.bad_data(op_name, "Number of channels requested does not match input",
                          f"This WebP file has {len(mode)} channels: pass channels=0.")
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frames.append(np.asarray(image.convert(mode), dtype=np.uint8))
    return frames[0] if animated == "first" else np.stack(frames)


def _still_shape(channels):
    return TensorShape([None, None, channels or None])


DecodePng = Op("DecodePng", lambda c, **a: _decode(c, "DecodePng", **a), dtypes={dtypes.string},
               shape=lambda s, channels=0, **a: _still_shape(channels),
               dtype=lambda d, dtype="uint8", **a: dtypes.as_dtype(dtype))
DecodeBmp = Op("DecodeBmp", lambda c, **a: _decode(c, "DecodeBmp", **a), dtypes={dtypes.string},
               shape=lambda s, channels=0, **a: _still_shape(channels), dtype=dtypes.uint8)
DecodeGif = Op("DecodeGif", lambda c, **a: _decode(c, "DecodeGif", animated="all"),
               dtypes={dtypes.string}, shape=lambda s, **a: TensorShape([None, None, None, 3]),
               dtype=dtypes.uint8)
DecodeWebP = Op("DecodeWebP", lambda c, **a: _decode(c, "DecodeWebP", animated="all", **a),
                dtypes={dtypes.string}, dtype=dtypes.uint8,
                shape=lambda s, channels=0, **a: TensorShape([None, None, None,
                                                              channels or None]))
DecodeImage = Op("DecodeImage", lambda c, **a: _decode(c, "DecodeImage", **a),
                 dtypes={dtypes.string},
                 shape=lambda s, channels=0, animated="expand", **a: (
                     TensorShape(None) if animated == "expand" else _still_shape(channels)),
                 dtype=lambda d, dtype="uint8", **a: dtypes.as_dtype(dtype))


def _contents(contents):
    return convert_to_tensor(contents, dtypes.string)


@tf_export("io.decode_png", "image.decode_png")
def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """A PNG's pixels, uint8 (or uint16: 16-bit files keep their precision, 8-bit ones x 257).

    >>> png = tf.io.encode_png(tf.constant([[[0], [255]]], tf.uint8))
    >>> tf.io.decode_png(png, dtype=tf.uint16)[..., 0]
    <tf.Tensor: shape=(1, 2), dtype=uint16, numpy=array([[    0, 65535]], dtype=uint16)>
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"Value for attr 'dtype' of {dtype.name} is not in the list of allowed "
                        "values: uint8, uint16")
    return apply(DecodePng, [_contents(contents)], {"channels": channels, "dtype": dtype.name})


@tf_export("io.decode_bmp", "image.decode_bmp")
def decode_bmp(contents, channels=0, name=None):
    """A BMP's pixels as uint8 [height, width, channels] (channels 0, 3 or 4).

    >>> import io
    >>> from PIL import Image
    >>> f = io.BytesIO(); Image.new("RGB", (2, 1), (10, 20, 30)).save(f, "BMP")
    >>> tf.io.decode_bmp(f.getvalue())[0, 0].numpy()
    array([10, 20, 30], dtype=uint8)
    """
    cc.check_channels("DecodeBmp", channels, (0, 3, 4))
    return apply(DecodeBmp, [_contents(contents)], {"channels": channels})


@tf_export("io.decode_gif", "image.decode_gif")
def decode_gif(contents, name=None):
    """Every frame of a GIF: uint8 [num_frames, height, width, 3], each frame as shown.

    Frames are composed as a viewer shows them (Pillow honours transparency and each
    frame's disposal). TF's docs say GIFs "with frame or transparency compression
    are not supported": TF shows transparent pixels of the first frame as black and
    ignores disposal, so on such files its frames differ; on the others they agree.

    >>> import io
    >>> from PIL import Image
    >>> f = io.BytesIO()
    >>> frames = [Image.new("RGB", (4, 2), c) for c in [(255, 0, 0), (0, 0, 255)]]
    >>> frames[0].save(f, "GIF", save_all=True, append_images=frames[1:])
    >>> gif = tf.io.decode_gif(f.getvalue())
    >>> gif.shape, gif[1, 0, 0].numpy()
    (TensorShape([2, 2, 4, 3]), array([  0,   0, 255], dtype=uint8))
    """
    return apply(DecodeGif, [_contents(contents)])


@tf_export("io.decode_webp", "image.decode_webp")
def decode_webp(contents, channels=0, dtype=dtypes.uint8, name=None):
    """A WebP's frames as uint8 [num_frames, height, width, channels], as TF returns them
    (a still image is one frame); channels must be 0 or the file's own (3, or 4 with alpha).

    >>> import io
    >>> from PIL import Image
    >>> f = io.BytesIO(); Image.new("RGB", (4, 2), (9, 99, 199)).save(f, "WEBP", lossless=True)
    >>> webp = tf.io.decode_webp(f.getvalue())
    >>> webp.shape, webp[0, 0, 0].numpy()
    (TensorShape([1, 2, 4, 3]), array([  9,  99, 199], dtype=uint8))
    """
    if dtypes.as_dtype(dtype) != dtypes.uint8:
        raise TypeError(f"Value for attr 'dtype' of {dtypes.as_dtype(dtype).name} is not in "
                        "the list of allowed values: uint8")
    return apply(DecodeWebP, [_contents(contents)], {"channels": channels})


@tf_export("io.decode_image", "image.decode_image")
def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None,
                 expand_animations=True):
    """Decode a JPEG, PNG, GIF or BMP, whichever the bytes are; convert to `dtype`.

    A GIF gives 4-D frames unless `expand_animations=False` (then its first frame);
    float32 images are scaled into [0, 1] (`convert_image_dtype`).

    >>> png = tf.io.encode_png(tf.constant([[[255]]], tf.uint8))
    >>> tf.io.decode_image(png, dtype=tf.float32).numpy()
    array([[[1.]]], dtype=float32)
    """
    channels = 0 if channels is None else channels
    dtype = dtypes.as_dtype(dtype)
    # as TF: other dtypes go through uint16 (an 8-bit file as x * 257), then convert_image_dtype
    decode_as = dtype if dtype in (dtypes.uint8, dtypes.uint16) else dtypes.uint16
    image = apply(DecodeImage, [_contents(contents)],
                  {"channels": channels, "dtype": decode_as.name,
                   "animated": "expand" if expand_animations else "first"})
    return image if decode_as == dtype else convert_image_dtype(image, dtype)
