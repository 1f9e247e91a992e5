"""`ConvLSTM1D/2D/3D`: an LSTM whose matrix products are convolutions (Shi et al., 2015).

ConvLSTM2D's input is (batch, time, rows, cols, channels); the states h and c are
images (batch, rows', cols', filters). ConvLSTM1D reads sequences of 1-D signals
(batch, time, steps, channels), ConvLSTM3D sequences of volumes (batch, time,
d1, d2, d3, channels); all three share one cell. At every step, with * a
convolution of that rank:

    i, f, c~, o = split(x_t * kernel + bias + h_prev * recurrent_kernel)
    c = sigmoid(f) c_prev + sigmoid(i) tanh(c~);   h = sigmoid(o) tanh(c)

The input convolution uses the layer's strides/padding/dilation; the
recurrent one is always stride 1 with "same" padding, so h keeps its size.

>>> import minitf as tf
>>> layer = tf.keras.layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True)
>>> layer(tf.ones([1, 4, 5, 5, 1])).shape
TensorShape([1, 4, 5, 5, 2])
>>> layer.count_params()                 # 4*2 * (3*3*1 + 3*3*2 + 1)
224

In TensorFlow this is `keras/src/layers/rnn/conv_lstm.py` and `conv_lstm{1,2,3}d.py`.
"""
import minitf as tf

from ...framework.tf_export import tf_export
from .. import activations, constraints, initializers, regularizers
from ..engine.input_spec import InputSpec
from .conv_utils import conv_output_length, standardize_padding, standardize_tuple
from .convolutional import deserialize_config, serialize_or_none
from .recurrent import RNN
from .rnn_cells import DropoutRNNCell, LSTMCell


class ConvLSTMCell(DropoutRNNCell):
    """One ConvLSTM step on channels-last inputs of `rank` spatial axes (1, 2 or 3)."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.filters = filters
        self.units = filters  # the LSTM bias initializer below reads `units`
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.padding = standardize_padding(padding)
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = unit_forget_bias
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout, self.recurrent_dropout, self.seed = dropout, recurrent_dropout, seed
        self.reset_dropout_mask()

    @property
    def state_size(self):
        return [self.filters, self.filters]

    @property
    def output_size(self):
        return self.filters

    def output_spatial(self, *sizes):
        return tuple(conv_output_length(n, k, self.padding, s, d) for n, k, s, d in zip(
            sizes, self.kernel_size, self.strides, self.dilation_rate))

    def build(self, input_shape):
        self._spatial = self.output_spatial(*input_shape[1:1 + self.rank])
        width = 4 * self.filters
        self.kernel = self.add_weight(
            name="kernel", shape=self.kernel_size + (input_shape[-1], width),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            name="recurrent_kernel", shape=self.kernel_size + (self.filters, width),
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = self.add_weight(
            name="bias", shape=(width,), initializer=LSTMCell._bias_initializer(self),
            regularizer=self.bias_regularizer,
            constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def get_initial_state(self, batch_size=None):
        shape = [batch_size, *self._spatial, self.filters]
        if not isinstance(batch_size, int):
            shape = tf.stack(shape)
        return [tf.zeros(shape, dtype=self.compute_dtype) for _ in range(2)]

    def call(self, inputs, states, training=False):
        h_prev, c_prev = states[0], states[1]
        x, h_dropped = self._dropped(inputs, h_prev, training)
        z = tf.nn.convolution(x, self.kernel, strides=list(self.strides),
                              padding=self.padding.upper(), dilations=list(self.dilation_rate))
        z = z + tf.nn.convolution(h_dropped, self.recurrent_kernel, padding="SAME")
        if self.use_bias:
            z = z + self.bias
        z_i, z_f, z_c, z_o = tf.split(z, 4, axis=-1)
        c = self.recurrent_activation(z_f) * c_prev + \
            self.recurrent_activation(z_i) * self.activation(z_c)
        h = self.recurrent_activation(z_o) * self.activation(c)
        return h, [h, c]


_CELL_ARGS = ("filters", "kernel_size", "strides", "padding", "dilation_rate", "activation",
              "recurrent_activation", "use_bias", "kernel_initializer", "recurrent_initializer",
              "bias_initializer", "unit_forget_bias", "kernel_regularizer",
              "recurrent_regularizer", "bias_regularizer", "kernel_constraint",
              "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout", "seed")


_CONFIG_ORDER = (
    "name", "trainable", "dtype", "return_sequences", "return_state", "go_backwards",
    "stateful", "unroll", "zero_output_for_mask", "filters", "kernel_size", "strides",
    "padding", "data_format", "dilation_rate", "activation", "recurrent_activation",
    "use_bias", "kernel_initializer", "recurrent_initializer", "bias_initializer",
    "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
    "activity_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint",
    "dropout", "recurrent_dropout", "seed")


class ConvLSTM(RNN):
    """ConvLSTM over (batch, time, *spatial, channels) sequences; `rank` spatial axes."""
    rank = None

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, **kwargs):
        name = type(self).__name__
        if data_format not in (None, "channels_last"):
            raise ValueError(f"minitf's {name} supports data_format='channels_last' only. "
                             f"Received: data_format={data_format}. Transpose the input to "
                             "(batch, time, *spatial, channels).")
        cell_kwargs = {k: kwargs.pop(k) for k in _CELL_ARGS if k in kwargs}
        cell = ConvLSTMCell(self.rank, filters, kernel_size, strides=strides, padding=padding,
                            dilation_rate=dilation_rate, dtype=kwargs.get("dtype"),
                            name="conv_lstm_cell", **cell_kwargs)
        kwargs.pop("unroll", None)
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, **kwargs)
        self.input_spec = InputSpec(ndim=self.rank + 3)
        self.data_format = "channels_last"

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch, steps = sequences_shape[0], sequences_shape[1]
        spatial = self.cell.output_spatial(*sequences_shape[2:2 + self.rank])
        image = spatial + (self.cell.filters,)
        output = (batch, steps) + image if self.return_sequences else (batch,) + image
        return [output, (batch,) + image, (batch,) + image] if self.return_state else output

    def get_config(self):
        config = super().get_config()
        cell = self.cell
        config.update({
            "filters": cell.filters, "kernel_size": cell.kernel_size, "strides": cell.strides,
            "padding": cell.padding, "data_format": self.data_format,
            "dilation_rate": cell.dilation_rate,
            "activation": activations.serialize(cell.activation),
            "recurrent_activation": activations.serialize(cell.recurrent_activation),
            "use_bias": cell.use_bias, "unit_forget_bias": cell.unit_forget_bias,
            "dropout": cell.dropout, "recurrent_dropout": cell.recurrent_dropout,
            "seed": cell.seed})
        for kind, module in (("initializer", initializers), ("regularizer", regularizers),
                             ("constraint", constraints)):
            for name in ("kernel", "recurrent", "bias"):
                value = getattr(cell, f"{name}_{kind}")
                config[f"{name}_{kind}"] = (module.serialize(value) if kind == "initializer"
                                            else serialize_or_none(module, value))
        config["activity_regularizer"] = config.get("activity_regularizer")
        return {k: config[k] for k in _CONFIG_ORDER}

    @classmethod
    def from_config(cls, config):
        keys = [f"{n}_{k}" for n in ("kernel", "recurrent", "bias")
                for k in ("initializer", "regularizer", "constraint")]
        return cls(**deserialize_config(config, keys))


@tf_export("keras.layers.ConvLSTM1D")
class ConvLSTM1D(ConvLSTM):
    """Convolutional LSTM over (batch, time, steps, channels) sequences of 1-D signals."""
    rank = 1


@tf_export("keras.layers.ConvLSTM2D")
class ConvLSTM2D(ConvLSTM):
    """Convolutional LSTM over (batch, time, rows, cols, channels) sequences of images."""
    rank = 2


@tf_export("keras.layers.ConvLSTM3D")
class ConvLSTM3D(ConvLSTM):
    """Convolutional LSTM over (batch, time, d1, d2, d3, channels) sequences of volumes."""
    rank = 3
