"""The NumPy kernels behind `adjust_hue` and `adjust_saturation` (TF's CPU kernels, vectorized).

TensorFlow's C++ kernels (`adjust_hue_op.cc`, `adjust_saturation_op.cc`) walk
the pixels one by one; these do the same arithmetic on whole arrays, in
float32 like TF, so the results agree to the last bit or two.

* Hue: the pixel's channels sorted as (max, mid, min) give one of six sectors
  of the colour wheel and a position in it, h in [0, 6). Turning the wheel by
  `delta` (a fraction of a turn) moves h and keeps max and min, so brightness
  and saturation stay.
* Saturation: RGB -> HSV, S times the factor (clipped to [0, 1]), HSV -> RGB.

>>> import numpy as np
>>> shift_hue(np.array([[1.0, 0.0, 0.0]], np.float32), np.float32(1 / 3))  # red -> green
array([[0., 1., 0.]], dtype=float32)
"""
import numpy as np

_F = np.float32

# TF's table: sector -> which channel (0 r, 1 g, 2 b) is the max, the mid and the min.
_SECTORS = {
    0: (0, 1, 2), 1: (1, 0, 2), 2: (1, 2, 0), 3: (2, 1, 0), 4: (2, 0, 1), 5: (0, 2, 1)}
# ... and the inverse: for sector s, channel i takes (max, mid, min)[_PICK[s, i]]
_PICK = np.array([[order.index(i) for i in range(3)] for _, order in sorted(_SECTORS.items())])
# Saturation's hsv_to_rgb: for sector s, channel i takes (c, x, 0)[_CHROMA[s, i]]; 6 is black
_CHROMA = np.array([[0, 1, 2], [1, 0, 2], [2, 0, 1], [2, 1, 0], [1, 2, 0], [0, 2, 1], [2, 2, 2]])


def _sector(r, g, b):
    """TF's `rgb_to_hv_range` branch: which of the six sectors each pixel is in."""
    return np.where(r < g,
                    np.where(b < r, 1, np.where(b > g, 3, 2)),
                    np.where(b < g, 0, np.where(b > r, 4, 5)))


def shift_hue(rgb, delta):
    """Turn each pixel's hue by `delta` turns, keeping its max and min channel."""
    rgb = rgb.astype(_F, copy=False)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    sector = _sector(r, g, b)
    vmax, vmin = np.maximum(np.maximum(r, g), b), np.minimum(np.minimum(r, g), b)
    vmid = np.maximum(np.minimum(r, g), np.minimum(np.maximum(r, g), b))  # the median
    span = vmax - vmin
    ratio = np.where(span > 0, (vmid - vmin) / np.where(span > 0, span, _F(1)), _F(0))
    h = np.where(sector % 2 == 0, sector + ratio, sector + (_F(1) - ratio)).astype(_F)
    h = np.where(span > 0, h, _F(0))
    h = np.mod(h + _F(delta) * _F(6), _F(6)).astype(_F)
    h = np.where(h >= 6, h - _F(6), h)  # np.mod can round up to exactly 6
    return _from_sector(h, vmin, vmax)


def _from_sector(h, vmin, vmax):
    """TF's `hv_range_to_rgb`: the sector's channel order, the mid value from the position."""
    sector = np.minimum(h.astype(np.int64), 5)  # TF's switch sends anything past 5 to 5
    ratio = h - h.astype(np.int64)
    ratio = np.where(sector % 2 == 0, ratio, _F(1) - ratio)
    vmid = vmin + ratio * (vmax - vmin)
    pick = _PICK[sector]
    channels = [np.choose(pick[..., i], (vmax, vmid, vmin)) for i in range(3)]
    return np.stack(channels, axis=-1).astype(_F)


def scale_saturation(rgb, factor):
    """RGB -> HSV, S * factor clipped to [0, 1], -> RGB (TF's per-pixel formulas)."""
    rgb = rgb.astype(_F, copy=False)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = np.maximum(np.maximum(r, g), b)
    span = v - np.minimum(np.minimum(r, g), b)
    s = np.where(v > 0, span / np.where(v > 0, v, _F(1)), _F(0))
    norm = _F(1) / (_F(6) * np.where(span > 0, span, _F(1)))
    h = np.where(r == v, norm * (g - b),
                 np.where(g == v, norm * (b - r) + _F(2 / 6), norm * (r - g) + _F(4 / 6)))
    h = np.where(span > 0, h, _F(0))
    h = np.where(h < 0, h + _F(1), h).astype(_F)
    s = np.minimum(_F(1), np.maximum(_F(0), s * _F(factor))).astype(_F)
    return _hsv_to_rgb_sectors(h, s, v)


def _hsv_to_rgb_sectors(h, s, v):
    """TF's `hsv_to_rgb` of the saturation kernel: chroma c, the second-largest x, offset m."""
    c = s * v
    m = v - c
    dh = h * _F(6)
    sector = dh.astype(np.int64)
    x = c * (_F(1) - np.abs(np.mod(dh, _F(2)) - _F(1)))
    pick = _CHROMA[np.clip(sector, 0, 6)]
    out = np.stack([np.choose(pick[..., i], (c, x, _F(0))) for i in range(3)], axis=-1)
    return (out + m[..., None]).astype(_F)
