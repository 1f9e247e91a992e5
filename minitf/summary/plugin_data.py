"""What each TensorBoard plugin stores, computed in NumPy when a summary op runs.

TensorFlow 2 writes every summary as a tensor plus metadata naming the
TensorBoard plugin that draws it:

| summary   | plugin       | tensor                                                 |
| --------- | ------------ | ------------------------------------------------------ |
| scalar    | `scalars`    | float32, shape `[]`                                    |
| histogram | `histograms` | float64 `[k, 3]`: rows `[left_edge, right_edge, count]` |
| text      | `text`       | string, the data's shape                               |
| image     | `images`     | string `[2 + n]`: width, height, then n PNG files       |
| audio     | `audio`      | string `[n, 2]`: rows `[WAV file, label]`               |

>>> histogram_buckets(np.array([0.0, 1.0, 1.0, 3.0]), 3)
array([[0., 1., 1.],
       [1., 2., 2.],
       [2., 3., 1.]])

In TensorFlow the same work is done by graph ops inside TensorBoard's
`summary_v2` modules (`tf.linspace`, `tf.image.encode_png`, `tf.audio.encode_wav`).
"""
import io
import wave

import numpy as np

DEFAULT_BUCKET_COUNT = 30  # TensorBoard's histogram default


def histogram_buckets(data, bucket_count=DEFAULT_BUCKET_COUNT):
    """`[k, 3]` float64 buckets of `data`, exactly as TensorBoard's `_buckets` makes them.

    `bucket_count` equal-width buckets from min to max (the last one closed);
    a single distinct value gives buckets of zero width with every count in the
    last; empty data gives `bucket_count` rows of zeros; `bucket_count <= 0` gives
    no rows.
    """
    bucket_count = max(0, int(bucket_count))
    data = np.asarray(data, dtype=np.float64).reshape(-1)
    if data.size == 0 or bucket_count == 0:
        return np.zeros((bucket_count, 3), np.float64)
    low, high = data.min(), data.max()
    if high == low:
        counts = np.zeros(bucket_count, np.float64)
        counts[-1] = data.size
        edges = np.full(bucket_count, high)
        return np.stack([edges, edges, counts], axis=1)
    width = (high - low) / bucket_count
    index = np.minimum(np.floor((data - low) / width).astype(np.int32), bucket_count - 1)
    counts = np.bincount(index, minlength=bucket_count).astype(np.float64)
    edges = np.linspace(low, high, bucket_count + 1)
    edges[-1] = high  # as TensorBoard does: the last edge is the maximum itself
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def to_uint8_pixels(images):
    """`tf.image.convert_image_dtype(images, tf.uint8, saturate=True)`: floats in [0, 1]
    scale by 255.5 and are clipped then truncated; uint8 stays; other integers keep
    their range rescaled onto 0..255 (negative values become 0)."""
    images = np.asarray(images)
    if images.dtype == np.uint8:
        return images
    if images.dtype.kind == "f":
        return np.clip(images.astype(np.float64) * 255.5, 0, 255).astype(np.uint8)
    if images.dtype.kind in "iu":  # rescale the integer range onto 0..255
        top = int(np.iinfo(images.dtype).max) + 1
        wide = images.astype(np.int64)
        scaled = wide // (top // 256) if top > 256 else wide * (256 // top)
        return np.clip(scaled, 0, 255).astype(np.uint8)
    raise TypeError(f"images of dtype {images.dtype} cannot be shown: pass floats in [0, 1] "
                    "or uint8 pixels in [0, 255].")


def png_bytes(pixels):
    """One `[h, w, c]` uint8 image (c = 1, 2, 3 or 4) as a PNG file, through Pillow."""
    try:
        from PIL import Image
    except ImportError as exc:
        raise ImportError("tf.summary.image encodes PNG files with Pillow: "
                          "pip install 'Pillow>=9.0' (or pip install 'minitf[lab]').") from exc
    # Pillow reads the mode from the shape: [h, w] L, [h, w, 2] LA, 3 RGB, 4 RGBA.
    image = Image.fromarray(np.ascontiguousarray(
        pixels[..., 0] if pixels.shape[-1] == 1 else pixels))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def image_strings(images, max_outputs):
    """The `images` plugin's tensor: [width, height, png_1, ..., png_n] (n <= max_outputs)."""
    pixels = to_uint8_pixels(images)
    channels = pixels.shape[-1]
    if channels not in (1, 2, 3, 4):
        raise ValueError(f"image must have 1, 2, 3, or 4 channels, got {channels}. The last "
                         "axis holds the channels: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA.")
    head = [str(pixels.shape[2]).encode(), str(pixels.shape[1]).encode()]
    return np.array(head + [png_bytes(p) for p in pixels[:max_outputs]], dtype=object)


def wav_bytes(samples, sample_rate):
    """One `[frames, channels]` float clip as a 16-bit PCM WAV file, through `wave`.

    Samples are clipped to [-1, 1] and scaled by 32768 with rounding, as TF's
    `tf.audio.encode_wav` does.
    """
    pcm = np.clip(np.round(np.asarray(samples, np.float64) * 32768.0), -32768, 32767)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(samples.shape[1])
        out.setsampwidth(2)
        out.setframerate(int(sample_rate))
        out.writeframes(pcm.astype("<i2").tobytes())
    return buffer.getvalue()


def audio_strings(clips, sample_rate, max_outputs):
    """The `audio` plugin's tensor: one row `[WAV file, label ""]` per clip (n <= max_outputs)."""
    rows = [[wav_bytes(clip, sample_rate), b""] for clip in clips[:max_outputs]]
    return np.array(rows, dtype=object).reshape(len(rows), 2)
