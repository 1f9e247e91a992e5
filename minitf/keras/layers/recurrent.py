"""`RNN` runs a cell along the time axis; SimpleRNN, LSTM and GRU are RNNs of their cells.

    states = initial_state (zeros by default)
    for t in range(steps):                 # reversed if go_backwards
        output_t, states = cell(inputs[:, t], states)

`return_sequences=True` keeps every output_t (batch, steps, units), else only
the last (batch, units); `return_state=True` also returns the final states.

>>> import minitf as tf
>>> lstm = tf.keras.layers.LSTM(4, return_sequences=True, return_state=True)
>>> seq, h, c = lstm(tf.ones([2, 5, 3]))
>>> seq.shape, h.shape, c.shape
(TensorShape([2, 5, 4]), TensorShape([2, 4]), TensorShape([2, 4]))
>>> lstm.count_params()                     # 4 * (3*4 + 4*4 + 4)
128

The loop is a Python loop over the time steps when their number is known
(eagerly it always is; inside `tf.function` the graph then holds one copy of
the cell per step, like Keras's `unroll=True`), and a `tf.while_loop` over a
`TensorArray` when it is not. Masks (from `Masking`/`Embedding(mask_zero=True)`)
are not supported: minitf raises instead of ignoring them.

In TensorFlow this is `keras/src/layers/rnn/rnn.py`, `lstm.py`, `gru.py`,
`simple_rnn.py` (Keras 3).
"""
import inspect

import minitf as tf

from ...framework.tf_export import tf_export
from ..engine import call_context
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec
from .conv_utils import KerasNamed
from .rnn_cells import GRUCell, LSTMCell, SimpleRNNCell


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _takes_training(cell):
    return "training" in inspect.signature(cell.call).parameters


@tf_export("keras.layers.RNN")
class RNN(KerasNamed, Layer):
    """Wraps a cell (anything with `call(inputs, states)` and `state_size`) into a layer."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            from .stacked_cells import StackedRNNCells
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
            raise ValueError("The RNN cell should have a `state_size` attribute (single "
                             "integer or list of integers, one integer per RNN state). "
                             f"Received: cell={cell}")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll  # accepted: the loop is unrolled whenever steps are known
        self.zero_output_for_mask = zero_output_for_mask
        self.supports_masking = True
        self.input_spec = InputSpec(min_ndim=3)
        self.__dict__["_state_variables"] = None  # stateful=True: the carried states

    # --- shapes -----------------------------------------------------------------------
    @property
    def _state_sizes(self):
        return _as_list(self.cell.state_size)

    def _output_size(self):
        size = getattr(self.cell, "output_size", None)
        return size if size is not None else self._state_sizes[0]

    def build(self, sequences_shape, initial_state_shape=None):
        step_shape = (sequences_shape[0],) + tuple(sequences_shape[2:])
        if not self.cell.built:
            with call_context.name_scope(self.cell.name):  # paths 'lstm/lstm_cell/kernel'
                self.cell.build(step_shape)
            self.cell.built = True
        self.built = True

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch, steps = sequences_shape[0], sequences_shape[1]
        output = (batch, steps, self._output_size()) if self.return_sequences else (
            batch, self._output_size())
        if not self.return_state:
            return output
        return [output] + [(batch, size) for size in self._state_sizes]

    # --- states -----------------------------------------------------------------------
    def get_initial_state(self, batch_size):
        if hasattr(self.cell, "get_initial_state"):
            return _as_list(self.cell.get_initial_state(batch_size=batch_size))
        return [tf.zeros(tf.stack([batch_size, size]), dtype=self.compute_dtype)
                for size in self._state_sizes]

    def _stateful_states(self, batch_size):
        if self._state_variables is None:
            if not isinstance(batch_size, int):
                raise ValueError("If an RNN is stateful, it needs to know its batch size: "
                                 "give the Input a fixed `batch_size`, so the states carried "
                                 "between calls have a fixed shape.")
            self.__dict__["_state_variables"] = [
                tf.Variable(s, trainable=False, name="rnn_state")
                for s in self.get_initial_state(batch_size)]
        return [v.read_value() for v in self._state_variables]

    def reset_states(self):
        """Stateful RNNs: set the carried states back to zeros."""
        for v in self._state_variables or []:
            v.assign(tf.zeros_like(v))

    reset_state = reset_states

    # --- the loop ---------------------------------------------------------------------
    def _step(self, x_t, states, training):
        kwargs = {"training": training} if _takes_training(self.cell) else {}
        output, new_states = self.cell(x_t, states, **kwargs)
        return output, _as_list(new_states)

    def call(self, sequences, initial_state=None, mask=None, training=None):
        if mask is not None:  # [batch, steps]: False at padding, which the loop skips
            mask = tf.cast(mask, tf.bool)
        batch = sequences.shape[0] if sequences.shape[0] is not None else tf.shape(
            sequences)[0]
        if initial_state is not None:
            states = _as_list(initial_state)
        elif self.stateful:
            states = self._stateful_states(batch)
        else:
            states = self.get_initial_state(batch)
        if hasattr(self.cell, "reset_dropout_mask"):
            self.cell.reset_dropout_mask()
        if sequences.shape[1] is not None:
            last, outputs, states = self._static_loop(sequences, states, training, mask)
        else:
            last, outputs, states = self._while_loop(sequences, states, training, mask)
        if self.stateful:
            for v, s in zip(self._state_variables, states):
                v.assign(s)
        output = outputs if self.return_sequences else last
        return [output] + list(states) if self.return_state else output

    def _masked_step(self, x_t, mask_t, states, training):
        """One step; where `mask_t` is False (padding) the states stay as they were and
        the output repeats the previous one (zeros with `zero_output_for_mask`), as in
        Keras's backend `rnn`."""
        output, new_states = self._step(x_t, states, training)
        if mask_t is None:
            return output, new_states
        real = tf.expand_dims(mask_t, -1)
        previous = tf.zeros_like(output) if self.zero_output_for_mask else states[0]
        return (tf.where(real, output, previous),
                [tf.where(real, new, old) for new, old in zip(new_states, states)])

    def _static_loop(self, sequences, states, training, mask=None):
        steps = tf.unstack(sequences, axis=1)
        masks = tf.unstack(mask, axis=1) if mask is not None else [None] * len(steps)
        if self.go_backwards:
            steps, masks = steps[::-1], masks[::-1]
        outputs = []
        for x_t, mask_t in zip(steps, masks):
            output, states = self._masked_step(x_t, mask_t, states, training)
            outputs.append(output)
        stacked = tf.stack(outputs, axis=1) if self.return_sequences else None
        return outputs[-1], stacked, states

    def _while_loop(self, sequences, states, training, mask=None):
        """Unknown number of steps (a graph with shape (batch, None, d)): tf.while_loop."""
        time_major = tf.transpose(sequences, [1, 0] + list(range(2, len(sequences.shape))))
        masks = None if mask is None else tf.transpose(mask, [1, 0])
        if self.go_backwards:
            time_major = tf.reverse(time_major, [0])
            masks = None if masks is None else tf.reverse(masks, [0])
        steps = tf.shape(time_major)[0]
        inputs = tf.TensorArray(sequences.dtype, size=steps).unstack(time_major)
        if masks is not None:
            masks = tf.TensorArray(tf.bool, size=steps).unstack(masks)
        first, _ = self._step(inputs.read(0), states, training)
        outputs = tf.TensorArray(first.dtype, size=steps)

        def body(t, last, outputs, *states):
            mask_t = None if masks is None else masks.read(t)
            output, new_states = self._masked_step(inputs.read(t), mask_t, list(states),
                                                   training)
            return (t + 1, output, outputs.write(t, output), *new_states)

        loop = tf.while_loop(lambda t, *_: t < steps, body,
                             (tf.constant(0), tf.zeros_like(first), outputs, *states))
        last, outputs, states = loop[1], loop[2], list(loop[3:])
        stacked = None
        if self.return_sequences:
            stacked = tf.transpose(outputs.stack(),
                                   [1, 0] + list(range(2, len(first.shape) + 1)))
        return last, stacked, states

    def compute_mask(self, inputs, mask=None):
        """The sequence's mask goes on with the sequence of outputs; a final output or
        a state has no steps, so no mask."""
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(self._state_sizes)
        return output_mask

    def get_config(self):
        config = super().get_config()
        config.update({"return_sequences": self.return_sequences,
                       "return_state": self.return_state, "go_backwards": self.go_backwards,
                       "stateful": self.stateful, "unroll": self.unroll,
                       "zero_output_for_mask": self.zero_output_for_mask})
        if type(self) is RNN:
            from .serialization import serialize
            config["cell"] = serialize(self.cell)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if isinstance(config.get("cell"), dict):
            from .serialization import deserialize
            config["cell"] = deserialize(config["cell"])
        return cls(**config)


_LAYER_CONFIG_ORDER = (
    "name", "trainable", "dtype", "return_sequences", "return_state", "go_backwards",
    "stateful", "unroll", "zero_output_for_mask", "units", "activation",
    "recurrent_activation", "use_bias", "kernel_initializer", "recurrent_initializer",
    "bias_initializer", "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer",
    "bias_regularizer", "activity_regularizer", "kernel_constraint", "recurrent_constraint",
    "bias_constraint", "dropout", "recurrent_dropout", "reset_after", "seed")
_RNN_ARGS = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll")


class _CellLayer(RNN):
    """SimpleRNN/LSTM/GRU: build the cell from the layer's own arguments.

    The cell's arguments (units, activation, initializers, ...) are readable on
    the layer too (`lstm.units`), and its config merges both.
    """

    cell_class = SimpleRNNCell
    cell_name = "simple_rnn_cell"

    def __init__(self, units, **kwargs):
        rnn_kwargs = {k: kwargs.pop(k) for k in _RNN_ARGS + ("zero_output_for_mask",)
                      if k in kwargs}
        layer_kwargs = {k: kwargs.pop(k) for k in ("name", "trainable", "dtype",
                                                   "activity_regularizer", "input_shape",
                                                   "batch_input_shape", "input_dim")
                        if k in kwargs}
        kwargs.pop("use_cudnn", None)  # Keras 3's GPU switch: nothing to switch here
        cell = self.cell_class(units, dtype=layer_kwargs.get("dtype"),
                               trainable=layer_kwargs.get("trainable", True),
                               name=self.cell_name, **kwargs)
        super().__init__(cell, **rnn_kwargs, **layer_kwargs)
        self.input_spec = InputSpec(ndim=3)  # [batch, timesteps, features], as Keras

    def __getattr__(self, name):
        cell = self.__dict__.get("_cell_ref")
        if cell is not None and not name.startswith("_") and hasattr(cell, name):
            return getattr(cell, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        if name == "cell":
            self.__dict__["_cell_ref"] = value
        super().__setattr__(name, value)

    def call(self, sequences, initial_state=None, mask=None, training=None):
        return super().call(sequences, initial_state=initial_state, mask=mask,
                            training=training)

    def get_config(self):
        config = super().get_config()
        config.update({k: v for k, v in self.cell.get_config().items()
                       if k not in ("name", "trainable", "dtype")})
        config["activity_regularizer"] = config.get("activity_regularizer")
        if type(self) is SimpleRNN:
            config.pop("seed")  # Keras's SimpleRNN leaves it out of its config
        ordered = [k for k in _LAYER_CONFIG_ORDER if k in config]
        return {k: config[k] for k in ordered}

    @classmethod
    def from_config(cls, config):
        return cls(**config)  # every key is an argument of __init__


@tf_export("keras.layers.SimpleRNN")
class SimpleRNN(_CellLayer):
    """A fully connected RNN: h_t = tanh(x_t @ kernel + h_(t-1) @ recurrent_kernel + bias).

    >>> tf.keras.layers.SimpleRNN(3)(tf.ones([2, 4, 5])).shape
    TensorShape([2, 3])
    """

    cell_class = SimpleRNNCell


@tf_export("keras.layers.LSTM")
class LSTM(_CellLayer):
    """Long short-term memory (Hochreiter & Schmidhuber, 1997); states [h, c]."""

    cell_class = LSTMCell
    cell_name = "lstm_cell"


@tf_export("keras.layers.GRU")
class GRU(_CellLayer):
    """Gated recurrent unit (Cho et al., 2014); `reset_after=True` as in TF 2.

    >>> gru = tf.keras.layers.GRU(4)
    >>> gru(tf.ones([2, 5, 3])).shape, gru.count_params()   # 3 * (3*4 + 4*4 + 2*4)
    (TensorShape([2, 4]), 108)
    """

    cell_class = GRUCell
    cell_name = "gru_cell"
