"""A small PNG reader for what Pillow cannot give: 16-bit RGB, RGBA and grey + alpha.

Pillow keeps only the high byte of each of their 16-bit samples, so
`decode_png` reads such files here. A PNG is a signature
and chunks; the pixels are the IDAT chunks' zlib stream, one filter byte
before each row. Decoding undoes the filter row by row: each byte was stored
as the difference from a prediction made of its left (a), upper (b) and
upper-left (c) neighbours, `bpp` bytes apart:

    0 None: x    1 Sub: x + a    2 Up: x + b    3 Average: x + (a + b) // 2
    4 Paeth: x + whichever of a, b, c is closest to a + b - c     (all mod 256)

>>> import struct, zlib
>>> import numpy as np
>>> rows = np.array([[0, 1, 2, 3, 4, 5, 6]], np.uint8)           # filter 0, then 6 bytes
>>> ihdr = struct.pack(">IIBBBBB", 1, 1, 16, 2, 0, 0, 0)
>>> def chunk(kind, body):
...     return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
>>> png = (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", ihdr)
...        + chunk(b"IDAT", zlib.compress(rows.tobytes())) + chunk(b"IEND", b""))
>>> read_16bit_colour(png, "DecodePng")                       # big-endian 0x0102, ...
array([[[ 258,  772, 1286]]], dtype=uint16)
"""
import struct
import zlib

import numpy as np

from . import codec_common as cc


def _chunks(data, op_name):
    """(IHDR fields, joined IDAT bytes), checking every chunk fits inside the file."""
    pos, header, idat = 8, None, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if pos + 12 + length > len(data):
            raise cc.bad_data(op_name, f"Invalid PNG data, size {len(data)}",
                              f"The {kind!r} chunk runs past the end of the file.")
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        raise cc.bad_data(op_name, f"Invalid PNG data, size {len(data)}", "No IHDR chunk.")
    return header, b"".join(idat)


def _unfilter_row(kind, line, prev, bpp):
    """Undo one row's filter; `line` and `prev` are int arrays of the row's bytes."""
    if kind == 0:
        return line
    if kind == 1:  # Sub: a running sum along each byte lane
        return np.cumsum(line.reshape(-1, bpp), axis=0).reshape(-1) % 256
    if kind == 2:
        return (line + prev) % 256
    return np.array(_sequential(kind, line.tolist(), prev.tolist(), bpp), np.int32)


def _sequential(kind, line, prev, bpp):
    """Average (3) and Paeth (4) use the byte just decoded: plain Python ints, byte by byte
    (about 20x faster than NumPy calls on 3-byte slices)."""
    cur = [0] * len(line)
    for i, x in enumerate(line):
        a = cur[i - bpp] if i >= bpp else 0
        b = prev[i]
        if kind == 3:
            cur[i] = (x + (a + b) // 2) & 255
            continue
        c = prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        cur[i] = (x + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return cur


def read_16bit_colour(data, op_name):
    """The [height, width, 2, 3 or 4] uint16 pixels of a non-interlaced 16-bit LA/RGB/RGBA PNG."""
    (width, height, depth, colour, _, _, interlace), stream = _chunks(data, op_name)
    if depth != 16 or colour not in (2, 4, 6) or interlace:
        raise cc.bad_data(op_name, "minitf cannot decode an interlaced 16-bit PNG",
                          "Save it without interlacing (Adam7).")
    channels = {2: 3, 4: 2, 6: 4}[colour]
    bpp = 2 * channels
    stride = width * bpp
    expected = height * (1 + stride)
    raw = zlib.decompressobj().decompress(stream, expected)  # never more than the image
    if len(raw) < expected:
        raise cc.bad_data(op_name, "Invalid PNG data: the pixel data is truncated")
    rows = np.frombuffer(raw, np.uint8).reshape(height, 1 + stride).astype(np.int32)
    out = np.empty((height, stride), np.uint8)
    prev = np.zeros(stride, np.int32)
    for y in range(height):
        if rows[y, 0] > 4:
            raise cc.bad_data(op_name, f"Invalid PNG data: unknown filter type {rows[y, 0]}")
        prev = _unfilter_row(rows[y, 0], rows[y, 1:], prev, bpp)
        out[y] = prev
    return out.view(">u2").reshape(height, width, channels).astype(np.uint16)
