"""The weights behind every `tf.image.resize` method: one matrix per axis.

Resizing is linear and separable: output = W_height @ image @ W_width^T, channel
by channel, where row `o` of `W` says how much each input pixel contributes to
output pixel `o`. Every method only differs in how it fills `W`, which this file
does in plain NumPy, in float32 like TF's kernels, so the numbers agree with TF's:

* bilinear, bicubic and nearest use half-pixel centres: output pixel `o` sits at
  input position `(o + 0.5) * in / out - 0.5` (TF's `HalfPixelScaler`);
* area averages the input cells each output cell covers;
* lanczos3/5, gaussian, mitchellcubic - and bilinear/bicubic with antialias -
  use TF's ScaleAndTranslate kernel: a sampling kernel that, when shrinking with
  antialias, is widened by in/out so it also blurs (a low-pass filter).

>>> bilinear_weights(2, 4)
array([[1.  , 0.  ],
       [0.75, 0.25],
       [0.25, 0.75],
       [0.  , 1.  ]], dtype=float32)

In TensorFlow these are `resize_bilinear_op.cc`, `resize_bicubic_op.cc`,
`resize_nearest_neighbor_op.cc`, `resize_area_op.cc`, `scale_and_translate_op.cc`
and `sampling_kernels.h`; they loop over pixels instead of building matrices.
"""
import numpy as np

F32 = np.float32


def _scale(in_size, out_size):
    """TF's CalculateResizeScale without align_corners: in / out, in float32."""
    return F32(in_size) / F32(out_size)


def _half_pixel_positions(in_size, out_size):
    """Where each output pixel's centre falls in input coordinates (float32)."""
    return (np.arange(out_size, dtype=F32) + F32(0.5)) * _scale(in_size, out_size) - F32(0.5)


def bilinear_weights(in_size, out_size):
    """Each output pixel mixes its two nearest input pixels, by distance."""
    pos = _half_pixel_positions(in_size, out_size)
    floor = np.floor(pos)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(pos).astype(np.int64), in_size - 1)
    lerp = pos - floor
    weights = np.zeros((out_size, in_size), F32)
    rows = np.arange(out_size)
    np.add.at(weights, (rows, lower), F32(1) - lerp)
    np.add.at(weights, (rows, upper), lerp)
    return weights


def nearest_indices(in_size, out_size):
    """The input pixel each output pixel copies: floor((o + 0.5) * in / out)."""
    pos = (np.arange(out_size, dtype=F32) + F32(0.5)) * _scale(in_size, out_size)
    return np.clip(np.floor(pos).astype(np.int64), 0, in_size - 1)


def nearest_weights(in_size, out_size):
    weights = np.zeros((out_size, in_size), F32)
    weights[np.arange(out_size), nearest_indices(in_size, out_size)] = 1
    return weights


_TABLE_SIZE = 1024


def _cubic_table(a=-0.5):
    """TF's tabulated Keys cubic (a = -0.5): weights of the near and far taps."""
    x = (np.arange(_TABLE_SIZE + 1) / _TABLE_SIZE).astype(F32).astype(np.float64)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    x = x + 1.0
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return near.astype(F32), far.astype(F32)


def bicubic_weights(in_size, out_size):
    """Four taps around each output position; taps outside the image get weight 0
    and the rest are renormalised to sum to 1 (TF's half-pixel bicubic)."""
    near, far = _cubic_table()
    pos = _half_pixel_positions(in_size, out_size)
    base = np.floor(pos).astype(np.int64)
    offset = np.rint((pos - base) * F32(_TABLE_SIZE)).astype(np.int64)
    taps = [far[offset], near[offset], near[_TABLE_SIZE - offset], far[_TABLE_SIZE - offset]]
    weights = np.zeros((out_size, in_size), F32)
    for o in range(out_size):
        row = [(base[o] - 1 + k, taps[k][o]) for k in range(4)
               if 0 <= base[o] - 1 + k < in_size]
        total = F32(sum(w for _, w in row))
        for index, w in row:
            weights[o, index] = w / total if abs(total) >= 1000 * np.finfo(F32).tiny else w
    return weights


def area_weights(in_size, out_size):
    """Output cell `o` covers input span [o * s, (o + 1) * s), s = in / out: each
    input cell weighs the length of its overlap with that span, divided by s."""
    s = _scale(in_size, out_size)
    weights = np.zeros((out_size, in_size), F32)
    for o in range(out_size):
        start, stop = F32(o) * s, F32(o + 1) * s
        for i in range(int(np.floor(start)), int(np.ceil(stop))):
            if i < start:
                part = s if i + 1 > stop else F32(i + 1) - start
            else:
                part = stop - F32(i) if i + 1 > stop else F32(1)
            weights[o, min(max(i, 0), in_size - 1)] += part / s
    return weights


# --- ScaleAndTranslate's sampling kernels (TF's sampling_kernels.h) ---------------------
def _lanczos(radius):
    def kernel(x):
        x = np.abs(x)
        with np.errstate(all="ignore"):
            value = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / (np.pi ** 2 * x * x)
        return np.where(x > radius, 0, np.where(x <= 1e-3, 1, value))
    return kernel, radius


def _gaussian(x):
    x = np.abs(x)
    return np.where(x >= 1.5, 0, np.exp(-x * x / (2 * 0.5 * 0.5)))


def _triangle(x):
    x = np.abs(x)
    return np.where(x < 1, 1 - x, 0)


def _keys_cubic(x):
    x = np.abs(x)
    return np.where(x >= 2, 0, np.where(x >= 1, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0,
                                        (1.5 * x - 2.5) * x * x + 1.0))


def _mitchell_cubic(x):
    x = np.abs(x)
    outer = (((-7.0 / 18.0) * x + 2.0) * x - 10.0 / 3.0) * x + 16.0 / 9.0
    inner = ((7.0 / 6.0) * x - 2.0) * x * x + 8.0 / 9.0
    return np.where(x >= 2, 0, np.where(x >= 1, outer, inner))


# kernel_type attribute of ScaleAndTranslate -> (kernel, radius)
KERNELS = {"lanczos3": _lanczos(3), "lanczos5": _lanczos(5), "gaussian": (_gaussian, 1.5),
           "triangle": (_triangle, 1), "keyscubic": (_keys_cubic, 2),
           "mitchellcubic": (_mitchell_cubic, 2)}


def scale_and_translate_weights(in_size, out_size, scale, kernel_type, antialias,
                                translate=0.0):
    """Output pixel `o` samples at input position p = (o + 0.5) / scale - translate / scale;
    input pixel `i` weighs kernel((i + 0.5 - p) / k), k = max(1/scale, 1) with
    antialias (else 1), over the pixels within the kernel's radius, normalised to sum 1."""
    kernel, radius = KERNELS[kernel_type]
    inv_scale = F32(1.0 / F32(scale))
    kernel_scale = max(inv_scale, F32(1)) if antialias else F32(1)
    weights = np.zeros((out_size, in_size), F32)
    for o in range(out_size):
        sample = (F32(o) + F32(0.5)) * inv_scale + (-inv_scale * F32(translate))
        if sample < 0 or sample > in_size:
            continue
        start = int(np.ceil(sample - F32(radius) * kernel_scale - F32(0.5)))
        end = int(np.floor(sample + F32(radius) * kernel_scale - F32(0.5)))
        start, end = min(max(start, 0), in_size - 1), min(max(end, 0), in_size - 1) + 1
        pos = (np.arange(start, end, dtype=F32) + F32(0.5) - sample) * (F32(1) / kernel_scale)
        row = kernel(pos.astype(F32)).astype(F32)
        total = F32(row.sum(dtype=F32))
        if abs(total) >= 1000 * np.finfo(F32).tiny:
            weights[o, start:end] = row * (F32(1) / total)
    return weights
