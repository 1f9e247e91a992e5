"""`MelSpectrogram`: raw audio in, a picture of its loudness per pitch band and time out.

Four steps, each a line of `call`:

1. `keras.ops.stft`: frames of `sequence_length` samples every
   `sequence_stride`, centred (reflect-padded by fft_length // 2), windowed,
   Fourier-transformed: a complex spectrum per frame;
2. `|X| ** mag_exp`: the magnitude (1) or power (2, the default) per
   frequency bin;
3. times the mel matrix: triangles that pool the linear frequency bins into
   `num_mel_bins` bands spaced like human pitch perception (the HTK mel scale,
   mel = 1127 ln(1 + f / 700));
4. with `power_to_db`: 10 log10(S / ref_power), floored at `top_db` below
   the loudest value of the whole batch (one maximum over all of it, as in Keras).

The result is (..., num_mel_bins, time): time is the last axis.

>>> import minitf as tf
>>> layer = tf.keras.layers.MelSpectrogram(fft_length=256, sequence_stride=128,
...                                        num_mel_bins=16, sampling_rate=8000)
>>> layer(tf.random.stateless_uniform((2, 1000), seed=(1, 2))).shape
TensorShape([2, 16, 8])

In TensorFlow this is `keras/src/layers/preprocessing/mel_spectrogram.py`.
`tf.signal.linear_to_mel_weight_matrix` builds the same kind of matrix.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from ... import ops
from .data_layer import DataLayer

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


@tf_export("keras.layers.MelSpectrogram")
class MelSpectrogram(DataLayer):
    """Audio (samples,) or (batch, samples) to a mel spectrogram (..., num_mel_bins, time).

    `sequence_length` (None: fft_length) must not exceed `fft_length`;
    `max_freq` None means sampling_rate / 2 (the Nyquist frequency).
    """

    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None,
                 window="hann", sampling_rate=16000, num_mel_bins=128, min_freq=20.0,
                 max_freq=None, power_to_db=True, top_db=80.0, mag_exp=2.0, min_power=1e-10,
                 ref_power=1.0, **kwargs):
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError(
                "`fft_length` must be greater than or equal to   `sequence_length`. Received: "
                f"`sequence_length`={self.sequence_length}, `fft_length`={self.fft_length}.")
        self.window = window
        self.sampling_rate = sampling_rate
        self.num_mel_bins = num_mel_bins
        self.min_freq = min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db = power_to_db
        self.top_db = top_db
        self.mag_exp = mag_exp
        self.min_power = min_power
        self.ref_power = ref_power
        super().__init__(**kwargs)

    def call(self, inputs):
        # ops.stft takes float32 and float64 only: float16 policies compute in float32
        dtype = self.compute_dtype if self.compute_dtype in ("float32", "float64") else "float32"
        inputs = ops.convert_to_tensor(inputs, dtype=dtype)
        outputs = self._melscale(self._spectrogram(inputs))
        if self.power_to_db:
            outputs = self._dbscale(outputs)
        outputs = ops.swapaxes(outputs, -1, -2)  # (..., time, mel) -> (..., mel, time)
        return ops.cast(outputs, self.compute_dtype)

    def _spectrogram(self, inputs):
        real, imag = ops.stft(inputs, sequence_length=self.sequence_length,
                              sequence_stride=self.sequence_stride,
                              fft_length=self.fft_length, window=self.window, center=True)
        magnitude = ops.sqrt(ops.add(ops.square(real), ops.square(imag)))
        return ops.power(magnitude, self.mag_exp)

    def _melscale(self, inputs):
        matrix = self.linear_to_mel_weight_matrix(
            num_mel_bins=self.num_mel_bins, num_spectrogram_bins=inputs.shape[-1],
            sampling_rate=self.sampling_rate, lower_edge_hertz=self.min_freq,
            upper_edge_hertz=self.max_freq)
        # Keras: tensordot(inputs, matrix, axes=1), the same product as this matmul
        return ops.matmul(inputs, ops.cast(matrix, inputs.dtype))

    def _dbscale(self, inputs):
        log_spec = 10.0 * ops.log10(ops.maximum(inputs, self.min_power))
        ref_value = ops.abs(ops.convert_to_tensor(self.ref_power))
        log_spec -= 10.0 * ops.log10(ops.maximum(ref_value, self.min_power))
        return ops.maximum(log_spec, ops.max(log_spec) - self.top_db)

    def _hertz_to_mel(self, frequencies_hertz):
        return _MEL_HIGH_FREQUENCY_Q * ops.log(1.0 + frequencies_hertz /
                                               _MEL_BREAK_FREQUENCY_HERTZ)

    def linear_to_mel_weight_matrix(self, num_mel_bins=20, num_spectrogram_bins=129,
                                    sampling_rate=8000, lower_edge_hertz=125.0,
                                    upper_edge_hertz=3800.0, dtype="float32"):
        """A (num_spectrogram_bins, num_mel_bins) matrix of triangles, each peaking at 1.0,
        that pools linear bins over [0, sampling_rate / 2] into mel bands over
        [lower_edge_hertz, upper_edge_hertz] (the DC bin gets no weight, as in HTK).

        >>> m = tf.keras.layers.MelSpectrogram().linear_to_mel_weight_matrix(4, 9, 8000, 0, 4000)
        >>> m.shape, float(ops.max(m)) <= 1.0
        (TensorShape([9, 4]), True)
        """
        sampling_rate = ops.cast(sampling_rate, dtype)
        lower_edge_hertz = ops.convert_to_tensor(lower_edge_hertz, dtype)
        upper_edge_hertz = ops.convert_to_tensor(upper_edge_hertz, dtype)
        zero = ops.convert_to_tensor(0.0, dtype)
        bands_to_zero = 1  # HTK excludes the DC bin
        linear_frequencies = ops.linspace(zero, sampling_rate / 2.0,
                                          num_spectrogram_bins)[bands_to_zero:]
        spectrogram_bins_mel = ops.expand_dims(self._hertz_to_mel(linear_frequencies), 1)
        # num_mel_bins triples (lower edge, centre, upper edge): num_mel_bins + 2 edges in mel,
        # where each band's centre is its neighbours' edge
        band_edges_mel = ops.extract_sequences(
            ops.linspace(self._hertz_to_mel(lower_edge_hertz),
                         self._hertz_to_mel(upper_edge_hertz), num_mel_bins + 2),
            sequence_length=3, sequence_stride=1)
        lower_edge_mel, center_mel, upper_edge_mel = (
            ops.reshape(t, [1, num_mel_bins]) for t in ops.split(band_edges_mel, 3, axis=1))
        # the two sides of each triangle, straight lines in mel (not in Hertz)
        lower_slopes = (spectrogram_bins_mel - lower_edge_mel) / (center_mel - lower_edge_mel)
        upper_slopes = (upper_edge_mel - spectrogram_bins_mel) / (upper_edge_mel - center_mel)
        mel_weights_matrix = ops.maximum(zero, ops.minimum(lower_slopes, upper_slopes))
        return ops.pad(mel_weights_matrix, [[bands_to_zero, 0], [0, 0]])

    def compute_output_shape(self, input_shape):
        """Keras's formula, (samples + stride + 1) // stride frames; the tensor `call` returns
        has 1 + samples // stride, which differs when stride divides samples + 1."""
        def frames(n):
            return None if n is None else (n + self.sequence_stride + 1) // self.sequence_stride

        if len(input_shape) == 1:
            return [self.num_mel_bins, frames(input_shape[0])]
        return [input_shape[0], self.num_mel_bins, frames(input_shape[1])]

    def get_config(self):
        config = super().get_config()
        config.update({
            "fft_length": self.fft_length, "sequence_stride": self.sequence_stride,
            "sequence_length": self.sequence_length, "window": self.window,
            "sampling_rate": self.sampling_rate, "num_mel_bins": self.num_mel_bins,
            "min_freq": self.min_freq, "max_freq": self.max_freq,
            "power_to_db": self.power_to_db, "top_db": self.top_db, "mag_exp": self.mag_exp,
            "min_power": self.min_power, "ref_power": self.ref_power})
        return config
