"""`StackedRNNCells`: several cells acting as one, each feeding the next at every step.

>>> import minitf as tf
>>> cells = [tf.keras.layers.SimpleRNNCell(4), tf.keras.layers.LSTMCell(2)]
>>> rnn = tf.keras.layers.RNN(cells)              # a list of cells is stacked for you
>>> rnn(tf.ones([3, 5, 6])).shape
TensorShape([3, 2])
>>> rnn.cell.state_size
[4, 2, 2]

In TensorFlow this is `keras/src/layers/rnn/stacked_rnn_cells.py`.
"""
from ...framework.tf_export import tf_export
from ..engine import call_context
from .rnn_cells import AbstractRNNCell


@tf_export("keras.layers.StackedRNNCells")
class StackedRNNCells(AbstractRNNCell):
    """Cell 1's output is cell 2's input at the same step; the states are concatenated."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
                raise ValueError("All cells must have a `call` method and a `state_size` "
                                 f"attribute. Received cells={cells}")
        self.cells = list(cells)

    @staticmethod
    def _sizes(cell):
        size = cell.state_size
        return list(size) if isinstance(size, (list, tuple)) else [size]

    @property
    def state_size(self):
        return [s for cell in self.cells for s in self._sizes(cell)]

    @property
    def output_size(self):
        last = self.cells[-1]
        return getattr(last, "output_size", None) or self._sizes(last)[0]

    def build(self, input_shape):
        shape = tuple(input_shape)
        for cell in self.cells:
            if not cell.built:
                with call_context.name_scope(cell.name):  # 'rnn/stacked_rnn_cells/cell/kernel'
                    cell.build(shape)
                cell.built = True
            size = getattr(cell, "output_size", None) or self._sizes(cell)[0]
            shape = shape[:-1] + (size,)
        self.built = True

    def reset_dropout_mask(self):
        for cell in self.cells:
            if hasattr(cell, "reset_dropout_mask"):
                cell.reset_dropout_mask()

    def call(self, inputs, states, training=False):
        new_states, at = [], 0
        for cell in self.cells:
            n = len(self._sizes(cell))
            kwargs = {"training": training} if "training" in cell.call.__code__.co_varnames \
                else {}
            inputs, cell_states = cell(inputs, list(states[at:at + n]), **kwargs)
            cell_states = list(cell_states) if isinstance(cell_states, (list, tuple)) else [
                cell_states]
            new_states.extend(cell_states)
            at += n
        return inputs, new_states

    def get_config(self):
        from .serialization import serialize
        config = super().get_config()
        config["cells"] = [serialize(cell) for cell in self.cells]
        return config

    @classmethod
    def from_config(cls, config):
        from .serialization import deserialize
        config = dict(config)
        config["cells"] = [deserialize(c) for c in config["cells"]]
        return cls(**config)
