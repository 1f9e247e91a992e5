"""`tf.io.decode_jxl` / `tf.image.decode_jxl`: a JPEG XL image's pixels, uint8.

JPEG XL is the ISO successor of JPEG (lossless and lossy, alpha, up to 16-bit).
TF 2.21 decodes it with a JPEG XL decoder of its own; minitf decodes it with
the `pillow-jxl-plugin` package (a Pillow plugin in Rust), imported on first
use: `pip install 'pillow-jxl-plugin>=1.3'` (or `minitf[image]`).

The result is uint8 [height, width, channels] with the file's own channels
(1 grey, 2 grey + alpha, 3 RGB, 4 RGBA). `channels` may be 0 (the file's) or
must equal the file's: TF's decoder converts nothing and says "Number of
channels requested does not match input" otherwise. Only 8-bit files are
decoded (TF returns 8-bit samples only; minitf refuses deeper files rather than
risk rounding them differently). Lossless files decode to exactly TF's pixels;
lossy ones may differ by one level here and there (two conforming decoders).

>>> import io
>>> from PIL import Image
>>> import pillow_jxl  # noqa: F401 - registers the JXL format with Pillow
>>> f = io.BytesIO()
>>> Image.new("RGB", (3, 2), (10, 20, 30)).save(f, "JXL", lossless=True)
>>> pixels = tf.io.decode_jxl(f.getvalue())
>>> pixels.shape, pixels[0, 0].numpy()
(TensorShape([2, 3, 3]), array([10, 20, 30], dtype=uint8))
"""
import io

import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import codec_common as cc

# A bare codestream starts with FF 0A; the ISO box container with a 12-byte "JXL " box.
_SIGNATURES = (b"\xff\x0a", b"\x00\x00\x00\x0cJXL \x0d\x0a\x87\x0a")
_CHANNELS = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4}
_NAME = "DecodeJxl"


def jxl_image():
    """PIL.Image with the JPEG XL plugin registered, or an ImportError on how to get it."""
    image_module = cc.pillow_image()
    try:
        import pillow_jxl  # noqa: F401 - registers "JXL" with Pillow
    except ImportError:
        raise ImportError("tf.io.decode_jxl uses the pillow-jxl-plugin package: "
                          "pip install 'pillow-jxl-plugin>=1.3' (or pip install "
                          "'minitf[image]').") from None
    return image_module


def _header_error():
    return cc.bad_data(_NAME, "Failed to decode JXL header",
                       "The bytes are not a JPEG XL file (it starts with FF 0A, or with a "
                       "'JXL ' box), or too few of them to hold its size.")


class _Bits:
    """Reads a JPEG XL codestream's header fields: bits, least significant first."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def read(self, count):
        value = 0
        for i in range(count):
            byte = self.pos >> 3
            if byte >= len(self.data):
                raise _header_error()
            value |= ((self.data[byte] >> (self.pos & 7)) & 1) << i
            self.pos += 1
        return value

    def u32(self, bits):  # the spec's U32(Bits(a), Bits(b), ...): a 2-bit selector first
        return self.read(bits[self.read(2)])


_RATIOS = {1: (1, 1), 2: (12, 10), 3: (4, 3), 4: (3, 2), 5: (16, 9), 6: (5, 4), 7: (2, 1)}


def _codestream(data):
    """The codestream of a bare file, or the start of the first jxlc/jxlp box's."""
    if data.startswith(_SIGNATURES[0]):
        return data
    pos = 0
    while pos + 8 <= len(data):
        size, kind = int.from_bytes(data[pos:pos + 4], "big"), data[pos + 4:pos + 8]
        start = pos + 8
        if size == 1:  # a 64-bit size follows
            size, start = int.from_bytes(data[pos + 8:pos + 16], "big"), pos + 16
        if kind == b"jxlc":
            return data[start:]
        if kind == b"jxlp":
            return data[start + 4:]  # after the part's 4-byte index
        if size == 0:
            break
        pos += size
    raise _header_error()


def image_size(data):
    """(width, height) from the SizeHeader (ISO/IEC 18181-1), read before any decoding so
    that a small file claiming a huge image is refused before anything is allocated."""
    bits = _Bits(_codestream(data))
    bits.read(16)  # FF 0A
    small = bits.read(1)
    dims = (9, 13, 18, 30)
    height = (bits.read(5) + 1) * 8 if small else bits.u32(dims) + 1
    ratio = bits.read(3)
    if ratio:
        num, den = _RATIOS[ratio]
        return height * num // den, height
    width = (bits.read(5) + 1) * 8 if small else bits.u32(dims) + 1
    return width, height


def decode_pixels(op_name, data, channels):
    """JPEG XL bytes as uint8 [height, width, channels] (TF's rules, see the module)."""
    width, height = image_size(data)
    if width >= cc.MAX_SIDE or height >= cc.MAX_SIDE or width * height > cc.MAX_PIXELS:
        raise cc.too_large(op_name, f"{width} x {height}")
    image_module = jxl_image()
    try:
        image = image_module.open(io.BytesIO(data), formats=["JXL"])  # decodes it all
        image.load()
    except Exception:  # noqa: BLE001 - the plugin raises several classes for bad data
        raise cc.bad_data(op_name, "Failed to decode JXL image",
                          "The file is truncated or corrupt.") from None
    natural = _CHANNELS.get(image.mode)
    if natural is None:
        raise cc.bad_data(op_name, f"minitf decodes 8-bit JPEG XL images only; this one is "
                                   f"{image.mode!r}",
                          "TF returns 8-bit samples only; convert the file to 8 bits.")
    if channels and channels != natural:
        raise cc.bad_data(op_name, "Number of channels requested does not match input",
                          f"The file has {natural} channel(s): pass channels=0 or "
                          f"{natural}, then convert (e.g. tf.image.rgb_to_grayscale).")
    array = np.asarray(image, dtype=np.uint8)
    return np.ascontiguousarray(array.reshape(height, width, natural))


def _decode_jxl(contents, channels=0):
    """TF's DecodeJxl is its general image decoder: PNG, JPEG, ... bytes decode too."""
    if np.ndim(contents) != 0:
        raise cc.bad_data(_NAME, "`contents` must be scalar but got "
                                 f"shape{list(np.shape(contents))}")
    from .image_codecs import _decode  # the decoder behind decode_image and the rest
    return _decode(contents, _NAME, channels=channels)


DecodeJxl = Op("DecodeJxl", _decode_jxl, dtypes={dtypes.string}, dtype=dtypes.uint8,
               shape=lambda s, channels=0: TensorShape([None, None, channels or None]))


@tf_export("io.decode_jxl", "image.decode_jxl")
def decode_jxl(contents, channels=0, dtype=dtypes.uint8, name=None):
    """A JPEG XL image as uint8 [height, width, channels] (see the module docstring).

    As in TF, this is the general image decoder: PNG, JPEG, GIF and BMP bytes decode
    too, and `tf.io.decode_png`, `decode_image`, ... decode JPEG XL.

    >>> tf.io.decode_jxl(b"\\xff\\x0a")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minitf.framework.errors.InvalidArgumentError: Failed to decode JXL header [Op:DecodeJxl] ...
    """
    if dtypes.as_dtype(dtype) != dtypes.uint8:
        raise cc.bad_data(_NAME, f"Value for attr 'dtype' of {dtypes.as_dtype(dtype).name} is "
                                 "not in the list of allowed values: uint8")
    return apply(DecodeJxl, [convert_to_tensor(contents, dtypes.string)],
                 {"channels": channels})
