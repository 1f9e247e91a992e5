"""Dtype rules shared by several ops: the dtype of an op's outputs, known without running it.

Graph tracing (`tf.function`) needs every output's dtype before any number
exists. Most ops need no rule: by default an output has the dtype of the
op's first typed input (`x + y` is float32 when x is). The others declare
it next to their forward, in one of three ways (see `Op` in framework/op.py):

    Less = Op("Less", np.less, dtype=dtypes.bool, ...)        # always the same dtype
    Cast = Op("Cast", _cast_forward, dtype=from_attr("DstT"), ...)   # chosen by an attribute
    ComplexAbs = Op("ComplexAbs", np.abs, dtype=real_part, ...)      # computed from the input's

In TensorFlow each op's `REGISTER_OP` states the same thing in its
signature, e.g. `Output("y: bool")` or `Output("y: DstT")`.
"""


def from_attr(name):
    """The rule "the output dtype is the attribute `name`" (Cast's `DstT`, the
    `dtype` of a random op, ArgMax's `output_type`).

    >>> from minitf.framework import dtypes
    >>> from_attr("DstT")(dtypes.float32, DstT=dtypes.int32)
    tf.int32
    """

    def rule(*input_dtypes, **attrs):
        return attrs[name]

    rule.__name__ = rule.__qualname__ = f"from_attr({name!r})"
    return rule


def real_part(dtype, **attrs):
    """The real dtype of a complex one, for |z| and Re z: complex64 -> float32.

    >>> from minitf.framework import dtypes
    >>> real_part(dtypes.complex128)
    tf.float64
    """
    return dtype.real_dtype


def values_and_indices(index_attr):
    """Two outputs: values in the input's dtype, and positions whose integer dtype is
    the attribute `index_attr` (TopKV2's `index_type`, Unique's `out_idx`).

    >>> from minitf.framework import dtypes
    >>> values_and_indices("index_type")(dtypes.float32, index_type=dtypes.int32)
    (tf.float32, tf.int32)
    """

    def rule(dtype, *other_input_dtypes, **attrs):
        return dtype, attrs[index_attr]

    rule.__name__ = rule.__qualname__ = f"values_and_indices({index_attr!r})"
    return rule
