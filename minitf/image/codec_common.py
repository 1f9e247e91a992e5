"""What every image decoder shares: Pillow (imported lazily), format sniffing, size limits.

minitf decodes through Pillow, which links the same libjpeg-turbo, libpng and
zlib as TensorFlow, so decoding the same bytes gives the same pixels. Pillow
is imported on first use, so `import minitf` still needs only NumPy.

A decoder first reads only the header and refuses absurd dimensions (more
than `MAX_PIXELS` pixels, or a side over `MAX_SIDE`) before anything is
allocated: a 100-byte file claiming to be 60000 x 60000 pixels is an error,
not a 10 GB allocation.

>>> sniff(b"\\x89PNG\\r\\n\\x1a\\n....")
'png'
>>> sniff(b"\\xff\\xd8\\xff\\xe0....")
'jpeg'
"""
import io

import numpy as np

from ..framework import errors

MAX_SIDE = 1 << 16          # JPEG cannot go past 65535 a side; no real photo is larger
MAX_PIXELS = 1 << 28        # 268M pixels: about 1 GB as RGBA uint8

_SIGNATURES = [(b"\xff\xd8\xff", "jpeg"), (b"\x89PNG", "png"), (b"GIF8", "gif"), (b"BM", "bmp"),
               (b"\xff\x0a", "jxl"), (b"\x00\x00\x00\x0cJXL \x0d\x0a\x87\x0a", "jxl")]


def pillow_image():
    """PIL.Image, or an ImportError saying how to install Pillow."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("minitf's image codecs (tf.io.decode_png, encode_jpeg, ...) use "
                          "Pillow: pip install 'Pillow>=10' (or pip install 'minitf[image]')."
                          ) from None
    return Image


def as_bytes(contents):
    """The bytes of a scalar tf.string value (a 0-d object array holding bytes)."""
    value = contents[()] if isinstance(contents, np.ndarray) else contents
    return value.encode() if isinstance(value, str) else bytes(value)


def sniff(data):
    """'jpeg', 'png', 'gif', 'bmp', 'webp', 'jxl' from the first bytes, or None."""
    for magic, kind in _SIGNATURES:
        if data.startswith(magic):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def bad_data(op_name, message, hint=None):
    return errors.op_error(errors.InvalidArgumentError, op_name, message, hint)


def unknown_format(op_name):
    return bad_data(op_name, "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, "
                    "WebP required.",
                    "The bytes start with none of their signatures: pass the file's "
                    "contents (tf.io.read_file), not its name.")


def check_channels(op_name, channels, allowed=(0, 1, 3, 4)):
    if channels not in allowed:
        names = ", ".join(str(c) for c in allowed[:-1]) + f" or {allowed[-1]}"
        kind = " for BMP," if op_name == "DecodeBmp" else ""
        raise bad_data(op_name, f"`channels` must be {names}{kind} but got {channels}",
                       "0 keeps the file's channels; 1 is grey, 3 RGB, 4 RGBA.")


def open_image(op_name, data):
    """Read the header with Pillow and check the declared size; nothing is decoded yet."""
    image_module = pillow_image()
    try:
        image = image_module.open(io.BytesIO(data))
    except image_module.DecompressionBombError as exc:  # Pillow's own size limit
        raise too_large(op_name, str(exc)) from None
    except Exception:  # Pillow raises several classes for unreadable headers
        raise bad_data(op_name, f"Invalid {sniff(data) or 'image'} data, size {len(data)}",
                       "The header cannot be read: the file is truncated or not an image."
                       ) from None
    width, height = image.size
    if width >= MAX_SIDE or height >= MAX_SIDE or width * height > MAX_PIXELS:
        raise too_large(op_name, f"{width} x {height}")
    return image


def too_large(op_name, size):
    return bad_data(op_name, f"Image dimensions are too large: {size}",
                    f"minitf refuses images with a side of {MAX_SIDE} or more pixels, or more "
                    f"than {MAX_PIXELS} pixels, before allocating them.")


def jpeg_draft(image, channels, ratio=1):
    """Ask libjpeg for grey (its Y channel, as TF gets it) or a 1/ratio scale, before decoding."""
    if image.format != "JPEG":
        return image
    width, height = image.size
    mode = "L" if channels == 1 else image.mode
    if mode != image.mode or ratio != 1:
        image.draft(mode, (-(-width // ratio), -(-height // ratio)))
    return image


def load(op_name, image):
    """Decode the pixels, turning Pillow's errors on corrupt data into TF's class."""
    try:
        image.load()
    except Exception as exc:
        raise bad_data(op_name, f"Invalid image data: {exc}",
                       "The file is corrupt or truncated.") from None
    return image


def to_channels(image, channels):
    """A decoded Pillow image as an [h, w, c] uint8 array with `channels` (0: as stored)."""
    mode = image.mode
    if mode in ("1", "P", "PA", "CMYK", "YCbCr", "RGBX", "I", "F", "LAB", "HSV"):
        mode = "RGBA" if mode in ("PA",) or "transparency" in image.info else "RGB"
        if image.mode in ("1",):
            mode = "L"
    natural = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4}.get(mode, 3)
    want = channels or natural
    if want == 1 and mode not in ("L", "LA"):  # TF's grey: floor(0.299 r + 0.587 g + 0.114 b)
        rgb = np.asarray(image.convert("RGB"), dtype=np.int64)
        grey = (rgb @ np.array([299, 587, 114])) // 1000
        return grey.astype(np.uint8)[..., None]
    target = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}[want]
    if image.mode != target:
        image = image.convert(target)
    array = np.asarray(image, dtype=np.uint8)
    return array.reshape(array.shape[0], array.shape[1], want)
