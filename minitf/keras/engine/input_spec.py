"""`tf.keras.InputSpec`: what a layer accepts, checked on every call.

A Dense layer declares `InputSpec(min_ndim=2)`, and after it is built also
the size of the last axis; calling it with something else fails before any
math runs, with Keras's message:

>>> import minitf as tf
>>> tf.keras.layers.Dense(3)(tf.ones([4]))
Traceback (most recent call last):
...
ValueError: Input 0 with name 'None' of layer 'dense...' is incompatible with the layer: expected min_ndim=2, found ndim=1. Full shape received: (4,)...
"""
from ...framework import nest
from ...framework.tf_export import tf_export

def _rank_hint(shape, expected):
    """One teaching sentence for a rank mismatch, using the shape received."""
    if len(shape) == expected - 1:
        return (" Layers work on batches: the first axis counts examples and the last one "
                "features (or channels). Add the missing axis: one example is shape "
                f"{(1,) + tuple(shape)} (tf.expand_dims(x, 0)); a batch with one "
                f"feature/channel is shape {tuple(shape) + (1,)} (tf.expand_dims(x, -1)).")
    return (f" The layer expects inputs of rank {expected}, the first axis counting examples; "
            "reshape the data (tf.reshape) to that rank.")


@tf_export("keras.InputSpec", "keras.layers.InputSpec")
class InputSpec:
    """Constraints on one input: dtype, exact shape, rank (ndim/min/max) or axis sizes."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = None if dtype is None else getattr(dtype, "name", dtype)
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.name, self.optional = name, optional
        self.axes = dict(axes or {})
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim is not None else self.max_ndim) - 1
            if max(self.axes) > max_dim:
                raise ValueError(f"Axis {max(self.axes)} is greater than the maximum allowed "
                                 f"value: {max_dim}")

    def __repr__(self):
        spec = [f"dtype={self.dtype}" if self.dtype else "",
                f"shape={self.shape}" if self.shape else "",
                f"ndim={self.ndim}" if self.ndim else "",
                f"max_ndim={self.max_ndim}" if self.max_ndim else "",
                f"min_ndim={self.min_ndim}" if self.min_ndim else "",
                f"axes={self.axes}" if self.axes else ""]
        return f"InputSpec({', '.join(x for x in spec if x)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes,
                "optional": self.optional}


def shape_tuple(x):
    """A tensor's shape as a tuple of ints and None (Keras 3's standardize_shape)."""
    shape = x.shape
    if hasattr(shape, "as_list"):
        return tuple(shape.as_list()) if shape.rank is not None else None
    return tuple(shape)


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raise Keras's ValueError if `inputs` do not satisfy `input_spec`."""
    if not input_spec:
        return
    specs = nest.flatten(input_spec)
    inputs = nest.flatten(inputs)
    if len(inputs) != len(specs):
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it '
                         f"received {len(inputs)} input tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(inputs, specs)):
        if spec is None or (x is None and spec.optional):
            continue
        if not hasattr(x, "shape"):
            raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type "
                             f"{type(x)}) as input for layer '{layer_name}'.")
        _check_one(index, shape_tuple(x), getattr(x.dtype, "name", x.dtype), spec, layer_name)


def _check_one(index, shape, dtype, spec, layer_name):
    ndim = len(shape)
    where = (f"Input {index} with name '{spec.name}' of layer '{layer_name}' is incompatible "
             "with the layer: ")
    if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
        raise ValueError(where + f"expected ndim={spec.ndim}, found ndim={ndim}. Full shape "
                         f"received: {shape}." + _rank_hint(shape, spec.ndim))
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise ValueError(where + f"expected max_ndim={spec.max_ndim}, found ndim={ndim}.")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise ValueError(where + f"expected min_ndim={spec.min_ndim}, found ndim={ndim}. Full "
                         f"shape received: {shape}." + _rank_hint(shape, spec.min_ndim))
    if spec.dtype is not None and dtype != spec.dtype:
        raise ValueError(where + f"expected dtype={spec.dtype}, found dtype={dtype}. Use "
                         "tf.cast to convert the input.")
    for axis, value in spec.axes.items():
        if value is not None and shape[axis] not in (value, None):
            raise ValueError(where + f"expected axis {axis} of input shape to have value "
                             f"{value}, but received input with shape {shape}. A built layer "
                             "keeps the input size it was built for.")
    if spec.shape is not None:
        spec_shape = spec.shape
        if spec.allow_last_axis_squeeze:
            shape = shape[:-1] if shape and shape[-1] == 1 else shape
            spec_shape = spec_shape[:-1] if spec_shape and spec_shape[-1] == 1 else spec_shape
        for spec_dim, dim in zip(spec_shape, shape):
            if spec_dim is not None and dim is not None and spec_dim != dim:
                raise ValueError(where + f"expected shape={spec.shape}, found shape={shape}. "
                                 "The model was built for inputs of the first shape (None "
                                 "matches any size).")
