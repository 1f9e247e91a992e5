"""`STFTSpectrogram`: a short-time Fourier transform computed as a 1-D convolution.

The DFT of one windowed frame is a matrix product, so sliding it along the
signal is a convolution with stride `frame_step`: the kernels (frame_length,
1, fft_length // 2 + 1) hold cos and -sin waves times the window
(`keras.initializers.STFT`). They are ordinary weights, so the layer can be
fine-tuned (`trainable=True`, the default) or frozen as preprocessing.

`mode` picks what comes out, per channel and frequency bin:

* "real", "imag": the two convolutions (only the needed kernel is built);
* "stft": both, concatenated along the frequency axis;
* "angle": arctan2(imag, real), the phase;
* "psd": real^2 + imag^2 with the bins other than 0 and the last doubled
  (each stands for a positive and a negative frequency);
* "magnitude": sqrt(max(power, epsilon)); "log" (the default): its log.

Inputs are (batch, time, channels) ("channels_last") or (batch, channels,
time); each channel goes through the same kernels. Outputs are (batch, time',
channels * bins), or with `expand_dims` (batch, time', bins, channels), an
image for image models.

>>> import minitf as tf
>>> layer = tf.keras.layers.STFTSpectrogram(frame_length=16, frame_step=8, window=None)
>>> layer(tf.ones((2, 64, 3))).shape
TensorShape([2, 7, 27])

In TensorFlow this is `keras/src/layers/preprocessing/stft_spectrogram.py`.
"""
import math
import warnings

import minitf as tf

from ....framework.tf_export import tf_export
from ... import initializers, ops
from ...engine.base_layer import Layer
from ...engine.input_spec import InputSpec
from ..conv_utils import conv_output_length, standardize_data_format

MODES = ["log", "magnitude", "psd", "real", "imag", "angle", "stft"]


def _check_arguments(mode, frame_length, frame_step, fft_length, window, scaling, padding):
    """Keras's argument errors (and its power-of-two warning), in its order."""
    if frame_step is not None and (frame_step > frame_length or frame_step < 1):
        raise ValueError("`frame_step` should be a positive integer not greater than "
                         f"`frame_length`. Received frame_step={frame_step}, "
                         f"frame_length={frame_length}")
    if fft_length is not None and fft_length < frame_length:
        raise ValueError("`fft_length` should be not less than `frame_length`. "
                         f"Received fft_length={fft_length}, frame_length={frame_length}")
    if fft_length is not None and (fft_length & -fft_length) != fft_length:
        warnings.warn(f"`fft_length` is recommended to be a power of two. Received "
                      f"fft_length={fft_length}", stacklevel=3)
    if mode not in MODES:
        raise ValueError("Output mode is invalid, it must be one of "
                         f"{', '.join(MODES)}. Received: mode={mode}")
    if scaling is not None and scaling not in ["density", "spectrum"]:
        raise ValueError("Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                         f"Received scaling={scaling}")
    if padding not in ["valid", "same"]:
        raise ValueError(f"Padding is invalid, it should be 'valid', 'same'. Received: "
                         f"padding={padding}")
    if isinstance(window, str):
        initializers._window(window, 1, False)  # an unknown window name fails here


@tf_export("keras.layers.STFTSpectrogram")
class STFTSpectrogram(Layer):
    """Spectrograms of (batch, time, channels) signals by strided convolution with DFT kernels.

    `frame_step` None means frame_length // 2; `fft_length` None means the
    smallest power of two >= frame_length.
    """

    def __init__(self, mode="log", frame_length=256, frame_step=None, fft_length=None,
                 window="hann", periodic=False, scaling="density", padding="valid",
                 expand_dims=False, data_format=None, **kwargs):
        _check_arguments(mode, frame_length, frame_step, fft_length, window, scaling, padding)
        super().__init__(**kwargs)
        self.mode = mode
        self.frame_length = frame_length
        self.frame_step = frame_step
        self._frame_step = frame_step or self.frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or (2 ** int(math.ceil(math.log2(frame_length))))
        self.window = window
        self.periodic = periodic
        self.scaling = scaling
        self.padding = padding
        self.expand_dims = expand_dims
        self.data_format = standardize_data_format(
            data_format or tf.keras.backend.image_data_format())
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        if self.mode != "imag":
            self.real_kernel = self.add_weight(name="real_kernel", shape=shape,
                                               initializer=initializers.STFT(
                                                   "real", self.window, self.scaling,
                                                   self.periodic))
        if self.mode != "real":
            self.imag_kernel = self.add_weight(name="imag_kernel", shape=shape,
                                               initializer=initializers.STFT(
                                                   "imag", self.window, self.scaling,
                                                   self.periodic))
        self.built = True

    def _apply_conv(self, inputs, kernel):
        """Every channel as its own one-channel signal through the kernel:
        (batch, channels, bins, time)."""
        if self.data_format == "channels_last":
            _, time_seq, channels = inputs.shape
            inputs = ops.reshape(ops.transpose(inputs, [0, 2, 1]), [-1, time_seq, 1])
        else:
            _, channels, time_seq = inputs.shape
            inputs = ops.reshape(inputs, [-1, 1, time_seq])
        outputs = ops.conv(inputs, ops.cast(kernel, inputs.dtype), padding=self.padding,
                           strides=self._frame_step, data_format=self.data_format)
        if self.data_format == "channels_last":
            _, time_seq, freq_channels = outputs.shape
            outputs = ops.transpose(outputs, [0, 2, 1])
        else:
            _, freq_channels, time_seq = outputs.shape
        return ops.reshape(outputs, [-1, channels, freq_channels, time_seq])

    def _adjust_shapes(self, outputs):
        """(batch, channels, bins, time) to the layer's output layout."""
        _, channels, freq_channels, time_seq = outputs.shape
        if self.expand_dims:
            order = [0, 3, 2, 1] if self.data_format == "channels_last" else [0, 1, 3, 2]
            return ops.transpose(outputs, order)
        outputs = ops.reshape(outputs, [-1, channels * freq_channels, time_seq])
        if self.data_format == "channels_last":
            outputs = ops.transpose(outputs, [0, 2, 1])
        return outputs

    def call(self, inputs):
        if inputs.dtype.name not in {"float16", "float32", "float64"}:
            raise TypeError("Invalid input type. Expected `float16`, `float32` or `float64`. "
                            f"Received: input type={inputs.dtype}")
        real = self._apply_conv(inputs, self.real_kernel) if self.mode != "imag" else None
        imag = self._apply_conv(inputs, self.imag_kernel) if self.mode != "real" else None
        if self.mode in ("real", "imag"):
            return self._adjust_shapes(real if self.mode == "real" else imag)
        if self.mode == "angle":
            return self._adjust_shapes(ops.arctan2(imag, real))
        if self.mode == "stft":
            return self._adjust_shapes(ops.concatenate([real, imag], axis=2))
        power = ops.square(real) + ops.square(imag)
        if self.mode == "psd":  # double the bins that also stand for negative frequencies
            return self._adjust_shapes(
                power + ops.pad(power[:, :, 1:-1, :], [[0, 0], [0, 0], [1, 1], [0, 0]]))
        epsilon = tf.keras.backend.epsilon()
        linear_stft = self._adjust_shapes(ops.sqrt(ops.maximum(power, epsilon)))
        if self.mode == "magnitude":
            return linear_stft
        return ops.log(ops.maximum(linear_stft, epsilon))

    def compute_output_shape(self, input_shape):
        last = self.data_format == "channels_last"
        batch_size = input_shape[0]
        channels, time = (input_shape[2], input_shape[1]) if last else \
            (input_shape[1], input_shape[2])
        freq_channels = (self._fft_length // 2 + 1) * (2 if self.mode == "stft" else 1)
        time_seq = conv_output_length(time, self.frame_length, self.padding, self._frame_step)
        if self.expand_dims:
            return ((batch_size, time_seq, freq_channels, channels) if last else
                    (batch_size, channels, time_seq, freq_channels))
        features = None if channels is None else freq_channels * channels
        return (batch_size, time_seq, features) if last else (batch_size, features, time_seq)

    def get_config(self):
        config = super().get_config()
        config.update({
            "mode": self.mode, "frame_length": self.frame_length,
            "frame_step": self.frame_step, "fft_length": self.fft_length,
            "window": self.window, "periodic": self.periodic, "scaling": self.scaling,
            "padding": self.padding, "data_format": self.data_format,
            "expand_dims": self.expand_dims})
        return config
