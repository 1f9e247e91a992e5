"""`tf.nn.RNNCellDropoutWrapper`, `RNNCellResidualWrapper`, `RNNCellDeviceWrapper`.

In TF 2.21 these are Keras 2's cell wrappers (tensorflow.python.keras, kept inside TF):
they wrap a cell and are called like one, `output, new_state = wrapper(inputs, state)`.
TF 2.21's `tf.keras.layers.RNN` (Keras 3) does not accept them (it fails building the
initial state), so a step loop written by hand is where they are used - here too.

>>> import minitf as tf
>>> cell = lambda inputs, state: (2 * inputs, [s + 1 for s in state])   # any cell
>>> wrapped = tf.nn.RNNCellResidualWrapper(cell)
>>> output, state = wrapped(tf.constant([[1.0, 2.0]]), [tf.zeros([1, 2])])
>>> output.numpy(), state[0].numpy()
(array([[3., 6.]], dtype=float32), array([[1., 1.]], dtype=float32))

The wrapped cell may be a Keras cell (SimpleRNNCell, LSTMCell, ...) or any callable with
that calling convention; its weights stay the cell's (`wrapper.trainable_weights`).
"""
import hashlib
import numbers

from ..framework import nest
from ..framework.device import device as device_scope
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from . import random_ops
from .nn_layer_ops import dropout
from .unary_ops import floor


class _RNNCellWrapper:
    """What the three wrappers share: the wrapped cell, its sizes, weights and config."""

    _default_name = "wrapper"

    def __init__(self, cell, name=None, **kwargs):
        if not callable(cell):
            raise AttributeError(f"'{type(cell).__name__}' object has no attribute 'call'")
        self.cell = cell
        self.name = name or self._default_name

    state_size = property(lambda self: getattr(self.cell, "state_size", None))
    output_size = property(lambda self: getattr(self.cell, "output_size", None))
    trainable_weights = property(lambda self: list(getattr(self.cell, "trainable_weights", [])))
    weights = property(lambda self: list(getattr(self.cell, "weights", [])))

    def get_initial_state(self, *args, **kwargs):
        return self.cell.get_initial_state(*args, **kwargs)

    def get_config(self):
        cell_config = {"class_name": type(self.cell).__name__,
                       "config": self.cell.get_config() if hasattr(self.cell, "get_config")
                       else {}}
        return {"name": self.name, "trainable": True, "dtype": "float32", "cell": cell_config}

    def __call__(self, inputs, state, **kwargs):
        return self._call_wrapped_cell(inputs, state, self.cell, **kwargs)


@tf_export("nn.RNNCellResidualWrapper")
class RNNCellResidualWrapper(_RNNCellWrapper):
    """output = residual_fn(inputs, cell_output), by default inputs + cell_output (the
    inputs and outputs need the same shape); the state is the cell's.

    >>> tf.nn.RNNCellResidualWrapper(lambda x, s: (x, s), lambda i, o: i * o)(
    ...     tf.constant([3.0]), [])[0].numpy()
    array([9.], dtype=float32)
    """

    _default_name = "residual_wrapper"

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)
        default = lambda i, o: nest.map_structure(lambda a, b: a + b, i, o)  # noqa: E731
        return (self._residual_fn or default)(inputs, outputs), new_state


@tf_export("nn.RNNCellDeviceWrapper")
class RNNCellDeviceWrapper(_RNNCellWrapper):
    """Runs the cell under `tf.device(device)`.

    >>> out, _ = tf.nn.RNNCellDeviceWrapper(lambda x, s: (x + 1, s), "/cpu:0")(
    ...     tf.constant([1.0]), [])
    >>> out.device.endswith("CPU:0")
    True
    """

    _default_name = "device_wrapper"

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        with device_scope(self._device):
            return cell_call_fn(inputs, state, **kwargs)


def _gen_seed(seed, part, index):
    """TF's per-mask seed: an md5 of the wrapper's seed and the mask's name."""
    if seed is None:
        return None
    digest = hashlib.md5(f"{seed}{part}_{index}".encode("utf-8")).hexdigest()
    return int(digest[:8], 16) & 0x7FFFFFFF


def _check_keep_prob(name, value):
    if isinstance(value, numbers.Real) and not 0 <= value <= 1:
        raise ValueError(f"Parameter {name} must be between 0 and 1: {int(value)}")
    return value


@tf_export("nn.RNNCellDropoutWrapper")
class RNNCellDropoutWrapper(_RNNCellWrapper):
    """Dropout on the cell's inputs, outputs and new state, each kept with its
    *_keep_prob (kept values are scaled by 1 / keep_prob).

    With variational_recurrent=True one mask per wrapper is drawn at construction (the
    same for every step and every example), as in Gal & Ghahramani; it needs `dtype`,
    and `input_size` when inputs are dropped.

    >>> wrapped = tf.nn.RNNCellDropoutWrapper(lambda x, s: (x, s), output_keep_prob=0.5,
    ...                                       seed=1)
    >>> out, _ = wrapped(tf.ones([1, 4]), [])
    >>> sorted(set(out.numpy().ravel().tolist())) in ([0.0, 2.0], [0.0], [2.0])
    True
    """

    _default_name = "dropout_wrapper"

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._input_keep_prob = _check_keep_prob("input_keep_prob", input_keep_prob)
        self._state_keep_prob = _check_keep_prob("state_keep_prob", state_keep_prob)
        self._output_keep_prob = _check_keep_prob("output_keep_prob", output_keep_prob)
        self._variational = variational_recurrent
        self._seed = seed
        self._keep_state = dropout_state_filter_visitor or (lambda state: True)
        self._noise = {}
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")
            if input_keep_prob < 1 and input_size is None:
                raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 "
                                 "or is unknown, input_size must be provided")
            sizes = {"input": input_size, "state": self.state_size, "output": self.output_size}
            self._noise = {part: [random_ops.uniform([1, int(s)], dtype=dtype,
                                                     seed=_gen_seed(seed, part, i))
                                  for i, s in enumerate(nest.flatten(size))]
                           for part, size in sizes.items() if size is not None}

    def _drop(self, part, values, keep_prob, keep=lambda value: True):
        if isinstance(keep_prob, numbers.Real) and keep_prob == 1:
            return values
        flat = nest.flatten(values)
        dropped = []
        for i, value in enumerate(flat):
            if not keep(value):
                dropped.append(value)
            elif self._variational:  # TF: value / keep_prob * floor(keep_prob + noise)
                mask = floor(keep_prob + self._noise[part][i])
                dropped.append(convert_to_tensor(value) / keep_prob * mask)
            else:
                dropped.append(dropout(value, rate=1 - keep_prob,
                                       seed=_gen_seed(self._seed, part, i)))
        return nest.pack_sequence_as(values, dropped)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        inputs = self._drop("input", inputs, self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        new_state = self._drop("state", new_state, self._state_keep_prob, self._keep_state)
        output = self._drop("output", output, self._output_keep_prob)
        return output, new_state
