"""Composite tensors: values made of several tensors (RaggedTensor, SparseTensor).

A `tf.function` graph and a `tf.data` pipeline only move plain tensors. A
composite value crosses them taken apart into its *components*, and is put
back together on the other side. Its type spec says how, with TensorFlow's
method names (`tensorflow/python/framework/type_spec.py`):

* `value._type_spec` - the value's spec (a `tf.RaggedTensorSpec`, ...);
* `spec._component_specs` - one `tf.TensorSpec` per component;
* `spec._to_components(value)` - the value's component tensors;
* `spec._from_components(tensors)` - the value again.

>>> import minitf as tf
>>> rt = tf.ragged.constant([[1, 2], [3]])
>>> rt._type_spec._component_specs
[TensorSpec(shape=(None,), dtype=tf.int32, name=None), TensorSpec(shape=(3,), dtype=tf.int64, name=None)]
>>> [t.numpy().tolist() for t in components(rt)]
[[1, 2, 3], [0, 2, 3]]

So a RaggedTensor argument of a `tf.function` becomes two graph inputs
(`flat_values`, `row_splits`), and a SparseTensor three (`indices`, `values`,
`dense_shape`); the trace is keyed by the spec, as TF keys it.
"""


def is_composite(value):
    """True for a composite tensor value (it has a `_type_spec` with components)."""
    return getattr(value, "_is_composite_tensor", False) and hasattr(value, "_type_spec")


def is_composite_spec(spec):
    """True for the spec of a composite tensor (RaggedTensorSpec, SparseTensorSpec)."""
    return hasattr(spec, "_component_specs") and hasattr(spec, "_from_components")


def spec_of(value_or_spec):
    """The spec of a composite value; a spec stays itself."""
    return value_or_spec if is_composite_spec(value_or_spec) else value_or_spec._type_spec


def components(value_or_spec):
    """A composite value's component tensors, or a spec's component TensorSpecs."""
    if is_composite_spec(value_or_spec):
        return list(value_or_spec._component_specs)
    return list(value_or_spec._type_spec._to_components(value_or_spec))


def expand(leaves):
    """`leaves` with every composite replaced by its components (tf.nest's
    `expand_composites=True`)."""
    flat = []
    for leaf in leaves:
        if is_composite(leaf) or is_composite_spec(leaf):
            flat.extend(components(leaf))
        else:
            flat.append(leaf)
    return flat


def rebuild(leaves, flat):
    """The inverse of `expand`: each composite in `leaves` rebuilt from the next
    components of `flat` (by its spec); any other leaf takes the next item."""
    flat = iter(flat)
    result = []
    for leaf in leaves:
        if is_composite(leaf) or is_composite_spec(leaf):
            spec = spec_of(leaf)
            result.append(spec._from_components([next(flat) for _ in spec._component_specs]))
        else:
            result.append(next(flat))
    return result
