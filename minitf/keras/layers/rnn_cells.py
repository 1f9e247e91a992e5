"""Recurrent cells: one time step of SimpleRNN, LSTM and GRU.

A cell maps (input at step t, states from step t-1) to (output, new states).
The `RNN` layer (recurrent.py) runs a cell along the time axis.

    SimpleRNN:  h = tanh(x @ W + h_prev @ U + b)
    LSTM:       i, f, c~, o = split(x @ W + h_prev @ U + b)        gate order i, f, c, o
                c = sigmoid(f) * c_prev + sigmoid(i) * tanh(c~);  h = sigmoid(o) * tanh(c)
    GRU:        z, r = sigmoid(x @ W_zr + b_zr + h_prev @ U_zr + b'_zr)
                h~ = tanh(x @ W_h + b_h + r * (h_prev @ U_h + b'_h))   (reset_after=True)
                h = z * h_prev + (1 - z) * h~

>>> import minitf as tf
>>> cell = tf.keras.layers.LSTMCell(4)
>>> out, (h, c) = cell(tf.ones([2, 3]), [tf.zeros([2, 4]), tf.zeros([2, 4])])
>>> out.shape, cell.count_params()          # 4 * (3*4 + 4*4 + 4)
(TensorShape([2, 4]), 128)

In TensorFlow these are `keras/src/layers/rnn/simple_rnn.py`, `lstm.py`,
`gru.py` and `dropout_rnn_cell.py` (Keras 3).
"""
import minitf as tf

from ...framework.tf_export import tf_export
from .. import activations, constraints, initializers, regularizers
from ..engine.base_layer import Layer
from .conv_utils import KerasNamed
from .convolutional import deserialize_config, serialize_or_none


@tf_export("keras.layers.AbstractRNNCell")
class AbstractRNNCell(KerasNamed, Layer):
    """Base class for a cell: define `state_size`, `output_size` and `call(inputs, states)`.

    `call` returns `(output, new_states)` with `new_states` a list matching
    `state_size`. `get_initial_state(batch_size)` gives zeros by default.

    >>> class Accumulate(tf.keras.layers.AbstractRNNCell):
    ...     state_size = 2
    ...     output_size = 2
    ...     def call(self, inputs, states):
    ...         total = states[0] + inputs
    ...         return total, [total]
    >>> rnn = tf.keras.layers.RNN(Accumulate(), return_sequences=True)
    >>> rnn(tf.ones([1, 3, 2]))[0, :, 0]
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 2., 3.], dtype=float32)>
    """

    @property
    def state_size(self):
        raise NotImplementedError("An RNN cell must define `state_size` (an int or a list "
                                  "of ints, one per state tensor).")

    @property
    def output_size(self):
        raise NotImplementedError("An RNN cell must define `output_size`.")

    def get_initial_state(self, batch_size=None):
        sizes = self.state_size if isinstance(self.state_size, (list, tuple)) else [
            self.state_size]
        return [tf.zeros([batch_size, size], dtype=self.compute_dtype) for size in sizes]


class DropoutRNNCell(AbstractRNNCell):
    """Cells with `dropout` (on inputs) and `recurrent_dropout` (on the previous state).

    As in Keras, one mask is drawn per sequence and reused at every step, so a
    dropped input feature stays dropped for the whole sequence. The RNN layer
    calls `reset_dropout_mask()` before each sequence.
    """

    def reset_dropout_mask(self):
        self._dropout_mask = None
        self._recurrent_dropout_mask = None

    def _mask(self, attr, rate, like, training):
        if not training or rate <= 0:
            return None
        if getattr(self, attr, None) is None:
            keep = tf.random.uniform(tf.shape(like), dtype=like.dtype) >= rate
            setattr(self, attr, tf.cast(keep, like.dtype) / (1.0 - rate))
        return getattr(self, attr)

    def _dropped(self, x, h, training):
        mask = self._mask("_dropout_mask", self.dropout, x, training)
        recurrent_mask = self._mask("_recurrent_dropout_mask", self.recurrent_dropout, h,
                                    training)
        return (x if mask is None else x * mask,
                h if recurrent_mask is None else h * recurrent_mask)


class _GatedCell(DropoutRNNCell):
    """The arguments, weights and config that the three cells share.

    `gates` is how many blocks of `units` columns the kernels have (1, 4 or 3).
    """

    gates = 1

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(units, int) or units <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units}.")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.seed = seed
        self.reset_dropout_mask()

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self):
        return self.units

    def _bias_shape(self):
        return (self.gates * self.units,)

    def _bias_initializer(self):
        return self.bias_initializer

    def build(self, input_shape):
        width = self.gates * self.units
        self.kernel = self.add_weight(
            name="kernel", shape=(input_shape[-1], width), initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            name="recurrent_kernel", shape=(self.units, width),
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = self.add_weight(
            name="bias", shape=self._bias_shape(), initializer=self._bias_initializer(),
            regularizer=self.bias_regularizer,
            constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units, **self._activation_config(),
                       "use_bias": self.use_bias})
        for kind, module in (("initializer", initializers), ("regularizer", regularizers),
                             ("constraint", constraints)):
            for name in ("kernel", "recurrent", "bias"):
                value = getattr(self, f"{name}_{kind}")
                config[f"{name}_{kind}"] = (module.serialize(value) if kind == "initializer"
                                            else serialize_or_none(module, value))
            if kind == "initializer":
                config.update(self._extra_initializer_config())
        config.update({"dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout,
                       "seed": self.seed})
        return config

    def _activation_config(self):
        return {"activation": activations.serialize(self.activation)}

    def _extra_initializer_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        keys = [f"{n}_{k}" for n in ("kernel", "recurrent", "bias")
                for k in ("initializer", "regularizer", "constraint")]
        return cls(**deserialize_config(config, keys))


def _first_state(states):
    return states[0] if isinstance(states, (list, tuple)) else states


@tf_export("keras.layers.SimpleRNNCell")
class SimpleRNNCell(_GatedCell):
    """The plain recurrent step: h = activation(x @ kernel + h_prev @ recurrent_kernel + bias).

    Weights: kernel (input_dim, units), recurrent_kernel (units, units), bias (units,).

    >>> cell = tf.keras.layers.SimpleRNNCell(3)
    >>> out, states = cell(tf.ones([2, 5]), [tf.zeros([2, 3])])
    >>> out.shape, cell.count_params()               # 5*3 + 3*3 + 3
    (TensorShape([2, 3]), 27)
    """

    gates = 1

    def call(self, inputs, states, training=False):
        h_prev = _first_state(states)
        x, h_dropped = self._dropped(inputs, h_prev, training)
        h = tf.matmul(x, self.kernel) + tf.matmul(h_dropped, self.recurrent_kernel)
        if self.use_bias:
            h = h + self.bias
        h = self.activation(h)
        return h, ([h] if isinstance(states, (list, tuple)) else h)


@tf_export("keras.layers.LSTMCell")
class LSTMCell(_GatedCell):
    """Long short-term memory step, with a cell state `c` beside the output `h`.

    Kernels hold four blocks of `units` columns, in the order input gate i,
    forget gate f, candidate c~, output gate o: kernel (input_dim, 4*units),
    recurrent_kernel (units, 4*units), bias (4*units,). With
    `unit_forget_bias=True` the forget-gate bias starts at 1 (remember by default).

    >>> cell = tf.keras.layers.LSTMCell(2)
    >>> _ = cell(tf.ones([1, 3]), [tf.zeros([1, 2]), tf.zeros([1, 2])])
    >>> cell.bias.numpy()                              # i, f (ones), c, o
    array([0., 0., 1., 1., 0., 0., 0., 0.], dtype=float32)
    """

    gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, **kwargs):
        kwargs.pop("implementation", None)  # tf.keras 2's speed switch; one path here
        super().__init__(units, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias

    @property
    def state_size(self):
        return [self.units, self.units]

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        units, init = self.units, self.bias_initializer

        def forget_ones(shape, dtype=None, **kwargs):
            return tf.concat([init((units,), dtype=dtype), tf.ones((units,), dtype=dtype),
                              init((2 * units,), dtype=dtype)], axis=0)
        return forget_ones

    def call(self, inputs, states, training=False):
        h_prev, c_prev = states[0], states[1]
        x, h_dropped = self._dropped(inputs, h_prev, training)
        z = tf.matmul(x, self.kernel) + tf.matmul(h_dropped, self.recurrent_kernel)
        if self.use_bias:
            z = z + self.bias
        z_i, z_f, z_c, z_o = tf.split(z, 4, axis=-1)
        i = self.recurrent_activation(z_i)
        f = self.recurrent_activation(z_f)
        c = f * c_prev + i * self.activation(z_c)
        h = self.recurrent_activation(z_o) * self.activation(c)
        return h, [h, c]

    def _activation_config(self):
        return {"activation": activations.serialize(self.activation),
                "recurrent_activation": activations.serialize(self.recurrent_activation)}

    def get_config(self):
        config = super().get_config()
        at = list(config).index("use_bias") + 1
        items = list(config.items())
        items.insert(at, ("unit_forget_bias", self.unit_forget_bias))
        return dict(items)


@tf_export("keras.layers.GRUCell")
class GRUCell(_GatedCell):
    """Gated recurrent unit step; kernels hold blocks for update z, reset r, candidate h~.

    `reset_after=True` (TF 2 default, the cuDNN variant) applies the reset gate
    after the recurrent matmul and so has two bias vectors: bias (2, 3*units),
    row 0 for the input part and row 1 for the recurrent part.

    >>> cell = tf.keras.layers.GRUCell(4)
    >>> _ = cell(tf.ones([2, 3]), [tf.zeros([2, 4])])
    >>> tuple(cell.bias.shape), cell.count_params()     # 3 * (3*4 + 4*4 + 2*4)
    ((2, 12), 108)
    """

    gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 reset_after=True, **kwargs):
        kwargs.pop("implementation", None)
        super().__init__(units, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _split_bias(self):
        if not self.use_bias:
            return None, None
        if self.reset_after:
            return self.bias[0], self.bias[1]
        return self.bias, None

    def call(self, inputs, states, training=False):
        h_prev = _first_state(states)
        x, h_dropped = self._dropped(inputs, h_prev, training)
        input_bias, recurrent_bias = self._split_bias()
        x_all = tf.matmul(x, self.kernel)
        if input_bias is not None:
            x_all = x_all + input_bias
        x_z, x_r, x_h = tf.split(x_all, 3, axis=-1)
        u = self.units
        if self.reset_after:
            inner = tf.matmul(h_dropped, self.recurrent_kernel)
            if recurrent_bias is not None:
                inner = inner + recurrent_bias
            r_z, r_r, r_h = tf.split(inner, 3, axis=-1)
            z = self.recurrent_activation(x_z + r_z)
            r = self.recurrent_activation(x_r + r_r)
            candidate = self.activation(x_h + r * r_h)
        else:  # reset before the matmul: r scales h_prev
            zr = tf.matmul(h_dropped, self.recurrent_kernel[:, :2 * u])
            z = self.recurrent_activation(x_z + zr[:, :u])
            r = self.recurrent_activation(x_r + zr[:, u:])
            candidate = self.activation(
                x_h + tf.matmul(r * h_dropped, self.recurrent_kernel[:, 2 * u:]))
        h = z * h_prev + (1.0 - z) * candidate
        return h, ([h] if isinstance(states, (list, tuple)) else h)

    def _activation_config(self):
        return {"activation": activations.serialize(self.activation),
                "recurrent_activation": activations.serialize(self.recurrent_activation)}

    def get_config(self):
        config = super().get_config()
        seed = config.pop("seed")
        config.update({"reset_after": self.reset_after, "seed": seed})
        return config
