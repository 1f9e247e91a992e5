"""`EinsumDense`: a Dense layer whose product is any `tf.einsum` equation.

`equation` is "input,kernel->output" in einsum letters; `output_shape` gives
the sizes of the output's non-batch axes (None: same as the input's axis of
that letter). The kernel's shape follows from the letters: a kernel letter
found in the output takes the output's size, otherwise the input's. So
"ab,bc->ac" with output_shape=64 is `Dense(64)`, and "abc,cde->abde" projects
each step's features into (heads, head_size), as attention layers do.
"..." stands for axes passed through unchanged.

>>> import minitf as tf
>>> layer = tf.keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 4),
...                                     bias_axes="de")
>>> layer(tf.ones([3, 5, 6])).shape
TensorShape([3, 5, 2, 4])
>>> [(w.name, tuple(w.shape)) for w in layer.weights]
[('kernel', (6, 2, 4)), ('bias', (2, 4))]

In Keras this is `keras/src/layers/core/einsum_dense.py` (minitf leaves out its
quantization and LoRA modes).
"""
import re

import minitf as tf

from ...framework.tf_export import tf_export
from .. import activations, constraints, initializers, regularizers
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec
from .core import _serialize, deserialize_weight_options


def analyze_einsum_string(equation, bias_axes, input_shape, output_shape):
    """(kernel shape, bias shape, full output shape, kernel input axes, kernel output axes)."""
    dots = re.sub(r"\.\.\.", "0", equation)
    for pattern, left_elided in ((r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", False),
                                 (r"0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", True),
                                 (r"([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", False)):
        found = re.match(pattern, dots)
        if found:
            return _analyze_split(*found.groups(), bias_axes, input_shape, output_shape,
                                  left_elided)
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form "
                     "[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def _full_output_shape(input_shape, input_spec, output_shape, left_elided):
    elided = len(input_shape) - len(input_spec)
    output = [input_shape[0]] + list(output_shape)
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output.insert(1, input_shape[i])
    elif elided > 0:
        output.extend(input_shape[len(input_shape) - elided:])
    return output, elided


def _analyze_split(input_spec, weight_spec, output_spec, bias_axes, input_shape,
                   output_shape, left_elided):
    output_shape = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    output_shape, elided = _full_output_shape(input_shape, input_spec, output_shape,
                                              left_elided)
    if left_elided:
        input_map = {d: i + elided - len(input_shape) for i, d in enumerate(input_spec)}
        output_map = {d: i + elided for i, d in enumerate(output_spec)}
    else:
        input_map = {d: i for i, d in enumerate(input_spec)}
        output_map = {d: i for i, d in enumerate(output_spec)}
    for d in input_spec:
        if d in output_map:
            size = output_shape[output_map[d]]
            if size is not None and size != input_shape[input_map[d]]:
                raise ValueError(f"Input shape and output shape do not match at shared "
                                 f"dimension '{d}'. Input shape is {input_shape[input_map[d]]}"
                                 f", and output shape is {size}.")
    for d in output_spec:
        if d not in input_spec and d not in weight_spec:
            raise ValueError(f"Dimension '{d}' was specified in the output '{output_spec}' but "
                             f"has no corresponding dim in the input spec '{input_spec}' or "
                             f"weight spec '{output_spec}'")
    kernel_shape, input_axes, output_axes = [], [], []
    for i, d in enumerate(weight_spec):
        if d in output_map:
            kernel_shape.append(output_shape[output_map[d]])
            output_axes.append(i)
        elif d in input_map:
            kernel_shape.append(input_shape[input_map[d]])
            input_axes.append(i)
        else:
            raise ValueError(f"Weight dimension '{d}' did not have a match in either the input "
                             f"spec '{input_spec}' or the output spec '{output_spec}'. For "
                             "this layer, the weight must be fully specified.")
    return (kernel_shape, _bias_shape(bias_axes, output_spec, output_shape, elided,
                                      left_elided),
            output_shape, input_axes, output_axes)


def _bias_shape(bias_axes, output_spec, output_shape, elided, left_elided):
    """The bias spans the output from its first bias letter on (1 where not a bias axis)."""
    if bias_axes is None:
        return None
    offset = elided if left_elided else 0
    sizes = {c: output_shape[i + offset] for i, c in enumerate(output_spec)}
    for c in bias_axes:
        if c not in output_spec:
            raise ValueError(f"Bias dimension '{c}' was requested, but is not part of the "
                             f"output spec '{output_spec}'")
    first = min(output_spec.find(c) for c in bias_axes)
    shape = [sizes[c] if c in bias_axes else 1 for c in output_spec[first:]]
    return shape + ([1] * elided if not left_elided else [])


@tf_export("keras.layers.EinsumDense")
class EinsumDense(Layer):
    """`activation(einsum(equation, inputs, kernel) + bias)`; see the module docstring."""

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, lora_rank=None, lora_alpha=None,
                 gptq_unpacked_column_size=None, quantization_config=None, **kwargs):
        super().__init__(**kwargs)
        if lora_rank or gptq_unpacked_column_size or quantization_config is not None:
            raise NotImplementedError("minitf's EinsumDense has no LoRA or quantization "
                                      "modes; leave lora_rank, gptq_unpacked_column_size and "
                                      "quantization_config unset.")
        self.equation = equation
        self.partial_output_shape = (output_shape,) if isinstance(output_shape, int) \
            else tuple(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.lora_rank, self.lora_alpha, self.lora_enabled = None, None, False

    def _kernel_initializer_for(self, input_axes, output_axes):
        """Keras 3.15 tells a variance-scaling initializer which kernel axes are fan-in and
        fan-out (a 3-D kernel's fans are not its first and last axes)."""
        init = self.kernel_initializer
        if not isinstance(init, initializers.VarianceScaling) or \
                (init.input_axes is not None and init.output_axes is not None):
            return init
        config = dict(init.get_config(), seed=init.seed, input_axes=input_axes,
                      output_axes=output_axes)
        return type(init).from_config(config)

    def build(self, input_shape):
        kernel_shape, bias_shape, _, input_axes, output_axes = analyze_einsum_string(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape)
        self.input_spec = InputSpec(ndim=len(input_shape))
        self.kernel = self.add_weight(
            name="kernel", shape=tuple(kernel_shape),
            initializer=self._kernel_initializer_for(input_axes, output_axes),
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None if bias_shape is None else self.add_weight(
            name="bias", shape=tuple(bias_shape), initializer=self.bias_initializer,
            regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def compute_output_shape(self, input_shape):
        return tuple(analyze_einsum_string(self.equation, self.bias_axes, input_shape,
                                           self.partial_output_shape)[2])

    def call(self, inputs, training=None):
        x = tf.einsum(self.equation, inputs, tf.cast(self.kernel, inputs.dtype))
        if self.bias is not None:
            x = x + tf.cast(self.bias, x.dtype)
        return self.activation(x)

    def get_config(self):
        config = super().get_config()
        config.update({
            "output_shape": self.partial_output_shape, "equation": self.equation,
            "activation": activations.serialize(self.activation), "bias_axes": self.bias_axes,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": _serialize(regularizers, self.kernel_regularizer),
            "bias_regularizer": _serialize(regularizers, self.bias_regularizer),
            "activity_regularizer": _serialize(regularizers, self.activity_regularizer),
            "kernel_constraint": _serialize(constraints, self.kernel_constraint),
            "bias_constraint": _serialize(constraints, self.bias_constraint),
            "quantization_config": None})
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**deserialize_weight_options(config))
