"""Merge layers: combine a list of tensors into one (Add, Subtract, Multiply, Average,
Maximum, Minimum, Concatenate), plus the functional shortcuts `add`, `concatenate`, ...

The element-wise ones need shapes that broadcast (checked without the batch
axis when the layer is built); Concatenate needs equal shapes except along
`axis`. A residual connection is `Add()([x, f(x)])`:

>>> import minitf as tf
>>> x = tf.keras.Input((4,))
>>> y = tf.keras.layers.Add()([x, tf.keras.layers.Dense(4)(x)])
>>> y.shape
(None, 4)
>>> tf.keras.layers.Concatenate()([tf.ones([2, 3]), tf.zeros([2, 1])]).shape
TensorShape([2, 4])
"""
import functools

import minitf as tf

from ...framework.tf_export import tf_export
from ..engine.base_layer import Layer

_HINT = (" Element-wise merges need shapes that match or broadcast (size 1) after the "
         "batch axis.")


class Merge(Layer):
    """Base class of the element-wise merge layers: `_merge_function(list) -> tensor`."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def _merge_function(self, inputs):
        raise NotImplementedError

    def compute_mask(self, inputs, mask=None):
        """A step is real in the output when it is real in every masked input."""
        masks = [m for m in (mask or []) if m is not None]
        if not masks:
            return None
        return tf.reduce_all(tf.stack(masks, axis=0), axis=0)

    @staticmethod
    def _elementwise_shape(shape1, shape2):
        """The broadcast of two shapes (without batch axes), or Keras's ValueError."""
        if None in (shape1, shape2):
            return None
        if len(shape1) < len(shape2):
            return Merge._elementwise_shape(shape2, shape1)
        if not shape2:
            return shape1
        output = list(shape1[:-len(shape2)])
        for i, j in zip(shape1[-len(shape2):], shape2):
            if i is None or j is None:
                output.append(None)
            elif i == 1:
                output.append(j)
            elif j == 1 or i == j:
                output.append(i)
            else:
                raise ValueError("Inputs have incompatible shapes. Received shapes "
                                 f"{shape1} and {shape2}." + _HINT)
        return tuple(output)

    def build(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or not input_shape or \
                not isinstance(input_shape[0], (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs. Received: "
                             f"input_shape={input_shape} (not a list of shapes). Pass the "
                             "tensors as a list: layer([a, b]).")
        batch_sizes = {s[0] for s in input_shape if s} - {None}
        if len(batch_sizes) > 1:
            raise ValueError("Cannot merge tensors with different batch sizes. Received "
                             f"tensors with shapes {input_shape}")
        self.compute_output_shape(input_shape)
        self.built = True

    def compute_output_shape(self, input_shape):
        output = input_shape[0][1:] if input_shape[0] is not None else None
        for shape in input_shape[1:]:
            output = self._elementwise_shape(output, shape[1:] if shape is not None else None)
        batch_sizes = {s[0] for s in input_shape if s is not None} - {None}
        batch = list(batch_sizes)[0] if len(batch_sizes) == 1 else None
        return None if output is None else (batch,) + tuple(output)

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs. Received: "
                             f"inputs={inputs} (not a list of tensors)")
        return self._merge_function(list(inputs))


@tf_export("keras.layers.Add")
class Add(Merge):
    """The element-wise sum of the inputs."""

    def _merge_function(self, inputs):
        return functools.reduce(lambda a, b: a + b, inputs)


@tf_export("keras.layers.Subtract")
class Subtract(Merge):
    """inputs[0] - inputs[1] (exactly two inputs)."""

    def build(self, input_shape):
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: input_shape={input_shape}")

    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        return inputs[0] - inputs[1]


@tf_export("keras.layers.Multiply")
class Multiply(Merge):
    """The element-wise product of the inputs."""

    def _merge_function(self, inputs):
        return functools.reduce(lambda a, b: a * b, inputs)


@tf_export("keras.layers.Average")
class Average(Merge):
    """The element-wise mean of the inputs."""

    def _merge_function(self, inputs):
        return functools.reduce(lambda a, b: a + b, inputs) / len(inputs)


@tf_export("keras.layers.Maximum")
class Maximum(Merge):
    """The element-wise maximum of the inputs."""

    def _merge_function(self, inputs):
        return functools.reduce(tf.maximum, inputs)


@tf_export("keras.layers.Minimum")
class Minimum(Merge):
    """The element-wise minimum of the inputs."""

    def _merge_function(self, inputs):
        return functools.reduce(tf.minimum, inputs)


@tf_export("keras.layers.Concatenate")
class Concatenate(Merge):
    """Join the inputs along `axis` (default: the last); other axes must match."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) < 1 or \
                not isinstance(input_shape[0], (list, tuple)):
            raise ValueError("A `Concatenate` layer should be called on a list of at least 1 "
                             f"input. Received: input_shape={input_shape}")
        ranks = {len(s) for s in input_shape}
        message = ("A `Concatenate` layer requires inputs with matching shapes except for "
                   f"the concatenation axis. Received: input_shape={list(input_shape)}. "
                   "Every other axis (the batch axis too) must have the same size.")
        if len(ranks) != 1:
            raise ValueError(message)
        (rank,) = ranks
        axis = self.axis % rank
        for i in range(rank):
            sizes = {s[i] for s in input_shape if s[i] is not None}
            if i != axis and len(sizes) > 1:
                raise ValueError(message)
        self.built = True

    def compute_output_shape(self, input_shape):
        output = list(input_shape[0])
        axis = self.axis % len(output)
        for shape in input_shape[1:]:
            if output[axis] is None or shape[axis] is None:
                output[axis] = None
            else:
                output[axis] += shape[axis]
        return tuple(output)

    def _merge_function(self, inputs):
        from ..ops.dtype_rules import result_type  # Keras 3 promotes: int64 + float32 -> float32
        dtype = result_type(*[x.dtype for x in inputs])
        return tf.concat([x if x.dtype.name == dtype else tf.cast(x, dtype) for x in inputs],
                         axis=self.axis)

    def compute_mask(self, inputs, mask=None):
        """Masks concatenated like the inputs (an unmasked input counts as all real),
        then a step is real when any of its features is (Keras 3's rule)."""
        if mask is None or all(m is None for m in mask):
            return None
        masks = []
        for x, m in zip(inputs, mask):
            if m is None:
                masks.append(tf.ones_like(x, dtype=tf.bool))
            elif len(m.shape) < len(x.shape):
                masks.append(tf.broadcast_to(tf.expand_dims(m, -1), tf.shape(x)))
            else:
                masks.append(m)
        return tf.reduce_any(tf.concat(masks, axis=self.axis), axis=-1)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


def _functional(layer_class, doc, *names):
    def merge(inputs, **kwargs):
        return layer_class(**kwargs)(inputs)

    merge.__name__ = names[0].rsplit(".", 1)[1]
    merge.__doc__ = doc
    return tf_export(*names)(merge)


add = _functional(Add, "`Add()(inputs)`.", "keras.layers.add")
subtract = _functional(Subtract, "`Subtract()(inputs)`.", "keras.layers.subtract")
multiply = _functional(Multiply, "`Multiply()(inputs)`.", "keras.layers.multiply")
average = _functional(Average, "`Average()(inputs)`.", "keras.layers.average")
maximum = _functional(Maximum, "`Maximum()(inputs)`.", "keras.layers.maximum")
minimum = _functional(Minimum, "`Minimum()(inputs)`.", "keras.layers.minimum")


@tf_export("keras.layers.concatenate")
def concatenate(inputs, axis=-1, **kwargs):
    """`Concatenate(axis)(inputs)`."""
    return Concatenate(axis=axis, **kwargs)(inputs)


def _dot_axes(axes, ranks):
    """`axes` (an int, or one per input; negative counts from the end) -> two axes >= 0."""
    if isinstance(axes, int):
        return [axes % ranks[0], axes % ranks[1]] if axes < 0 else [axes, axes]
    return [a % rank if a < 0 else a for a, rank in zip(axes, ranks)]


def batch_dot(x, y, axes):
    """Per example b: the sum over axes[0] of x[b] times axes[1] of y[b] (Keras's batch_dot):
    x's other axes, then y's other axes; a result of one axis gets a trailing axis of 1."""
    if 0 in axes:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not "
                         "batched, add a dummy batch dimension to your inputs using "
                         "keras.ops.expand_dims(x, 0)")
    rank_x, rank_y = len(x.shape), len(y.shape)
    x_keep = [i for i in range(1, rank_x) if i != axes[0]]
    y_keep = [i for i in range(1, rank_y) if i != axes[1]]
    xs = tf.transpose(x, [0] + x_keep + [axes[0]])   # (batch, x's others..., k)
    ys = tf.transpose(y, [0, axes[1]] + y_keep)       # (batch, k, y's others...)
    x_dims = [tf.shape(x)[i] for i in x_keep]
    y_dims = [tf.shape(y)[i] for i in y_keep]
    batch, k = tf.shape(x)[0], tf.shape(x)[axes[0]]
    out = tf.matmul(tf.reshape(xs, tf.stack([batch, -1, k])),
                    tf.reshape(ys, tf.stack([batch, k, -1])))
    out = tf.reshape(out, tf.stack([batch] + x_dims + y_dims))
    return tf.expand_dims(out, -1) if not x_dims and not y_dims else out


@tf_export("keras.layers.Dot")
class Dot(Merge):
    """Dot products of two inputs along `axes`, one per example: `Dot(axes=1)([a, b])` on
    (batch, d) inputs gives (batch, 1). normalize=True takes cosine similarities
    (each input divided by its L2 norm along its axis first).

    >>> import minitf as tf
    >>> a, b = tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]])
    >>> tf.keras.layers.Dot(axes=1)([a, b]).numpy()
    array([[11.]], dtype=float32)
    >>> tf.keras.layers.dot([tf.ones([2, 3, 4]), tf.ones([2, 5, 4])], axes=2).shape
    TensorShape([2, 3, 5])
    """

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError("Invalid type for argument `axes`: it should be a list or an "
                                f"int. Received: axes={axes}")
            if len(axes) != 2:
                raise ValueError("Invalid format for argument `axes`: it should contain two "
                                 f"elements. Received: axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError("Invalid format for argument `axes`: list elements should be "
                                 f"integers. Received: axes={axes}")
        self.axes, self.normalize = axes, normalize

    def build(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) != 2 or \
                not isinstance(input_shape[0], (tuple, list)):
            raise ValueError("A `Dot` layer should be called on a list of 2 inputs. "
                             f"Received: input_shape={input_shape}")
        shape1, shape2 = input_shape
        axes = _dot_axes(self.axes, (len(shape1), len(shape2)))
        if shape1[axes[0]] != shape2[axes[1]]:
            raise ValueError(f"Incompatible input shapes: axis values {shape1[axes[0]]} (at "
                             f"axis {axes[0]}) != {shape2[axes[1]]} (at axis {axes[1]}). Full "
                             f"input shapes: {tuple(shape1)}, {tuple(shape2)}. The axes the "
                             "dot product sums over must have the same size.")
        self.built = True

    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError("A `Dot` layer should be called on exactly 2 inputs. Received: "
                             f"inputs={inputs}")
        x1, x2 = inputs
        axes = _dot_axes(self.axes, (len(x1.shape), len(x2.shape)))
        if self.normalize:  # Keras's ops.normalize: x * min(rsqrt(sum x^2), 1 / epsilon)
            x1, x2 = (x * tf.minimum(tf.math.rsqrt(tf.reduce_sum(tf.square(x), axis=a,
                                                                  keepdims=True)), 1e7)
                      for x, a in ((x1, axes[0]), (x2, axes[1])))
        return batch_dot(x1, x2, axes)

    def compute_output_shape(self, input_shape):
        if not isinstance(input_shape, (tuple, list)) or len(input_shape) != 2:
            raise ValueError("A `Dot` layer should be called on a list of 2 inputs. "
                             f"Received: input_shape={input_shape}")
        shape1, shape2 = list(input_shape[0]), list(input_shape[1])
        axes = _dot_axes(self.axes, (len(shape1), len(shape2)))
        shape1.pop(axes[0])
        shape2.pop(axes[1])
        output = shape1 + shape2[1:]
        return tuple(output + [1] if len(output) == 1 else output)

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        config = super().get_config()
        config.update({"axes": self.axes, "normalize": self.normalize})
        return config


@tf_export("keras.layers.dot")
def dot(inputs, axes=-1, **kwargs):
    """`Dot(axes, **kwargs)(inputs)`."""
    return Dot(axes=axes, **kwargs)(inputs)
