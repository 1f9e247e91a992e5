"""tf.signal.stft/inverse_stft and mdct/inverse_mdct: transforms of framed, windowed signals.

`stft` = `frame` -> multiply by the window -> `rfft` with fft_length (default: the
smallest power of 2 >= frame_length), so an input [..., samples] gives
[..., frames, fft_length // 2 + 1] complex bins. `inverse_stft` runs it backwards: `irfft`,
crop or pad to frame_length, window, `overlap_and_add`. For a perfect round trip the
inverse window must undo the overlapping forward windows: `inverse_stft_window_fn(step)`
divides the forward window by the sum of its squares over the overlapping frames.
`mdct` (the MDCT of audio codecs) frames with half overlap and takes a DCT-IV.
All of these are built from minitf ops, so their gradients are those ops' gradients.

>>> import minitf as tf
>>> x = tf.sin(tf.range(64.0) / 3.0)
>>> s = tf.signal.stft(x, frame_length=16, frame_step=4)
>>> s.shape, s.dtype
(TensorShape([13, 9]), tf.complex64)
>>> y = tf.signal.inverse_stft(s, 16, 4, window_fn=tf.signal.inverse_stft_window_fn(4))
>>> bool(abs(y[12:52] - x[12:52]).numpy().max() < 1e-5)
True
"""
import numpy as np

from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .signal_window_ops import _static_int, frame, hann_window, overlap_and_add, vorbis_window


def _enclosing_power_of_two(value):
    return int(2 ** np.ceil(np.log(value) / np.log(2.0)))


@tf_export("signal.stft")
def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """The short-time Fourier transform of [..., samples] real signals.

    >>> tf.signal.stft(tf.ones(8), 4, 2, window_fn=None).numpy()[0]
    array([4.+0.j, 0.+0.j, 0.+0.j], dtype=complex64)
    """
    from .signal_fft_ops import rfft

    signals = convert_to_tensor(signals)
    signals.shape.with_rank_at_least(1)
    length = _static_int(frame_length, "frame_length")
    step = _static_int(frame_step, "frame_step")
    fft_length = (_enclosing_power_of_two(length) if fft_length is None
                  else _static_int(fft_length, "fft_length"))
    framed = frame(signals, length, step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(length, dtype=framed.dtype)
    return rfft(framed, [fft_length])


@tf_export("signal.inverse_stft_window_fn")
def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window_fn for `inverse_stft` that undoes `forward_window_fn`'s overlapping frames.

    >>> tf.signal.inverse_stft_window_fn(2)(4, dtype=tf.float32).numpy()
    array([0., 1., 1., 1.], dtype=float32)
    """
    def inverse_stft_window_fn_inner(frame_length, dtype):
        from .array_ops import reshape, tile
        from .creation_ops import zeros_like
        from .manipulation_ops import pad
        from .math_ops import where
        from .reduction_ops import reduce_sum

        step = _static_int(frame_step, "frame_step")
        length = _static_int(frame_length, "frame_length")
        forward = forward_window_fn(length, dtype=dtype)
        overlaps = -(-length // step)  # ceiling division
        denom = reshape(pad(forward * forward, [[0, overlaps * step - length]]), [overlaps, step])
        denom = reshape(tile(reduce_sum(denom, 0, keepdims=True), [overlaps, 1]), [-1])[:length]
        return where(denom == 0.0, zeros_like(forward), forward / denom)

    return inverse_stft_window_fn_inner


@tf_export("signal.inverse_stft")
def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """Signals [..., samples] from [..., frames, bins] STFTs: irfft, window, overlap-add.

    >>> tf.signal.inverse_stft(tf.ones([2, 3], tf.complex64), 4, 2, window_fn=None).numpy()
    array([1., 0., 1., 0., 0., 0.], dtype=float32)
    """
    from .manipulation_ops import pad
    from .signal_fft_ops import irfft

    stfts = convert_to_tensor(stfts)
    stfts.shape.with_rank_at_least(2)
    length = _static_int(frame_length, "frame_length")
    step = _static_int(frame_step, "frame_step")
    fft_length = (_enclosing_power_of_two(length) if fft_length is None
                  else _static_int(fft_length, "fft_length"))
    frames = irfft(stfts, [fft_length])
    have = frames.shape[-1]
    if have > length:
        frames = frames[..., :length]
    elif have < length:
        frames = pad(frames, [[0, 0]] * (frames.shape.rank - 1) + [[0, length - have]])
    if window_fn is not None:
        frames = frames * window_fn(length, dtype=frames.dtype)
    return overlap_and_add(frames, step)


@tf_export("signal.mdct")
def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """The MDCT of [..., samples] real signals: [..., frames, frame_length // 2].

    >>> tf.signal.mdct(tf.ones(8), 4, window_fn=None).shape
    TensorShape([3, 2])
    """
    from .array_ops import concat
    from .manipulation_ops import reverse
    from .signal_dct_ops import dct

    signals = convert_to_tensor(signals)
    signals.shape.with_rank_at_least(1)
    length = _static_int(frame_length, "frame_length")
    if length % 4 != 0:
        raise ValueError("The frame length must be a multiple of 4.")
    framed = frame(signals, length, length // 2, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(length, dtype=framed.dtype)
    else:
        framed = framed * (1.0 / np.sqrt(2))
    q = length // 4
    a, b, c, d = (framed[..., i * q:(i + 1) * q] for i in range(4))
    rearranged = concat([-reverse(c, [-1]) - d, a - reverse(b, [-1])], axis=-1)
    return dct(rearranged, type=4, norm=norm)


@tf_export("signal.inverse_mdct")
def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """Signals [..., samples] from [..., frames, half] MDCTs; windowed overlap-add cancels
    the aliasing when the window satisfies w[n]^2 + w[n + half]^2 = 1.

    >>> tf.signal.inverse_mdct(tf.ones([2, 2]), window_fn=None).shape
    TensorShape([6])
    """
    from .array_ops import concat
    from .manipulation_ops import reverse
    from .signal_dct_ops import dct

    mdcts = convert_to_tensor(mdcts)
    mdcts.shape.with_rank_at_least(2)
    half = mdcts.shape[-1]
    if norm is None:
        result = dct(mdcts, type=4) * (0.5 / half)
    else:
        result = dct(mdcts, type=4, norm="ortho")
    first, second = result[..., :half // 2], result[..., half // 2:]
    frames = concat([second, -reverse(second, [-1]), -reverse(first, [-1]), -first], axis=-1)
    if window_fn is not None:
        frames = frames * window_fn(2 * half, dtype=mdcts.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2))
    return overlap_and_add(frames, half)
