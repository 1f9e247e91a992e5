"""Grouping elements by a key: `group_by_window`, `group_by_reducer`, buckets, `unique`.

`group_by_window` keeps one open window per key. When a key's window is full,
`reduce_func(key, window_dataset)` turns it into a dataset whose elements come
out at once; when the input ends, the unfinished windows follow in key order
(TensorFlow keeps them in a sorted map):

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(7).group_by_window(
...     key_func=lambda x: x % 3, reduce_func=lambda key, w: w.batch(2), window_size=2)
>>> [b.tolist() for b in ds.as_numpy_iterator()]
[[0, 3], [1, 4], [2, 5], [6]]

`bucket_by_sequence_length` is built from it, as in TensorFlow: the key is the
bucket an element's length falls in, and `reduce_func` pads the window.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.function import TensorSpec
from ..framework.tf_export import tf_export
from .dataset_ops import Dataset
from .graph_inputs import iterate_bound
from .interleave_op import DatasetFunction
from .sources import _VariantDataset, static_int
from .structure import DatasetSpec, flatten, pack
from .structured_function import StructuredFunction


def _int64_scalar_function(func, input_spec, what, transformation):
    function = StructuredFunction(func, input_spec, transformation)
    spec = function.output_spec
    if not isinstance(spec, TensorSpec) or spec.dtype is not dtypes.int64 or spec.shape.rank:
        raise ValueError(f"Invalid `{what}`. `{what}` must return a single tf.int64 scalar "
                         f"tensor, but it returns {spec!r}. Use tf.cast(..., tf.int64).")
    return function


class _GroupByWindowDataset(Dataset):
    """Windows of elements with equal keys, each turned into a dataset by `reduce_func`."""

    def __init__(self, dataset, key_func, reduce_func, window_size, window_size_func):
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` "
                             "argument must be specified.")
        self._input = dataset
        spec = dataset.element_spec
        self._key = _int64_scalar_function(key_func, spec, "key_func",
                                           "Dataset.group_by_window")
        key_spec = TensorSpec([], dtypes.int64)
        if window_size_func is None:
            size = static_int(window_size)
            window_size_func = lambda key: np.int64(size)  # noqa: E731 - TF's own wrapper
        self._size = _int64_scalar_function(window_size_func, key_spec, "window_size_func",
                                            "Dataset.group_by_window")
        self._reduce = DatasetFunction(reduce_func, (key_spec, DatasetSpec(spec)),
                                       "Dataset.group_by_window")
        self._element_spec = self._reduce.output_spec

    def _generate(self):
        groups = {}
        for element in self._input._iterate():
            key = self._key(element)
            k = int(key.numpy())
            group = groups.setdefault(k, [])
            group.append(element)
            size = int(self._size(key).numpy())
            if size <= 0:
                raise errors.InvalidArgumentError(
                    None, "GroupByWindowDataset", f"Window size must be greater than zero, "
                    f"but got {size}.")
            if len(group) >= size:
                del groups[k]
                yield from self._reduced(key, group)
        for k in sorted(groups):
            yield from self._reduced(_key_tensor(k), groups[k])

    def _reduced(self, key, window):
        window_dataset = _VariantDataset(self._input.element_spec, window)
        yield from iterate_bound(*self._reduce((key, window_dataset)))


def _key_tensor(k):
    from ..framework.tensor import EagerTensor
    return EagerTensor(np.array(k, dtype=np.int64), dtypes.int64)


@tf_export("data.experimental.Reducer")
class Reducer:
    """What `group_by_reducer` does per key: `init_func(key)` makes a state,
    `reduce_func(state, element)` folds each element in, `finalize_func(state)` gives
    the output element.

    >>> count = tf.data.experimental.Reducer(lambda key: np.int64(0),
    ...                                      lambda state, x: state + 1, lambda state: state)
    >>> ds = tf.data.Dataset.range(5).apply(
    ...     tf.data.experimental.group_by_reducer(lambda x: x % 2, count))
    >>> list(ds.as_numpy_iterator())
    [np.int64(3), np.int64(2)]
    """

    def __init__(self, init_func, reduce_func, finalize_func):
        self._init_func = init_func
        self._reduce_func = reduce_func
        self._finalize_func = finalize_func

    @property
    def init_func(self):
        return self._init_func

    @property
    def reduce_func(self):
        return self._reduce_func

    @property
    def finalize_func(self):
        return self._finalize_func


class _GroupByReducerDataset(Dataset):
    """One element per key, once the input ends: the key's finalized state (keys sorted)."""

    def __init__(self, dataset, key_func, reducer):
        from .functional import _state_function
        self._input = dataset
        spec = dataset.element_spec
        self._key = _int64_scalar_function(key_func, spec, "key_func", "group_by_reducer")
        self._init = StructuredFunction(reducer.init_func, TensorSpec([], dtypes.int64),
                                        "group_by_reducer")
        self._reduce = _state_function(reducer.reduce_func, self._init.output_spec, spec,
                                       "group_by_reducer", lambda s: s)
        self._finalize = StructuredFunction(reducer.finalize_func, self._reduce.output_spec,
                                            "group_by_reducer")
        self._element_spec = self._finalize.output_spec

    def _generate(self):
        states = {}
        for element in self._input._iterate():
            key = self._key(element)
            k = int(key.numpy())
            state = states[k] if k in states else self._init(key)
            states[k] = self._reduce((state, element))
        for k in sorted(states):
            yield self._finalize(states[k])


@tf_export("data.experimental.group_by_reducer")
def group_by_reducer(key_func, reducer):
    """A transformation for `apply`: one output per key (see `Reducer`)."""
    return lambda dataset: _GroupByReducerDataset(dataset, key_func, reducer)


class _UniqueDataset(Dataset):
    """Each distinct element once, in order of first appearance."""

    def __init__(self, dataset):
        spec = dataset.element_spec
        if not isinstance(spec, TensorSpec):
            raise TypeError("`tf.data.Dataset.unique` does not support a structure of "
                            f"{spec!r}: its elements must be single tensors.")
        if spec.dtype not in (dtypes.int32, dtypes.int64, dtypes.string):
            raise TypeError(f"`tf.data.Dataset.unique` does not support type <dtype: "
                            f"'{spec.dtype.name}'> -- "
                            "only `tf.int32`, `tf.int64`, and `tf.string` are supported.")
        self._input = dataset
        self._element_spec = spec

    def _generate(self):
        seen = set()
        for element in self._input._iterate():
            value = np.asarray(element.numpy())
            key = (value.shape, value.tobytes() if value.dtype != object else tuple(value.flat))
            if key not in seen:
                seen.add(key)
                yield element


def _bucket_of(boundaries):
    """length -> bucket index: bucket i holds lengths in [boundaries[i-1], boundaries[i])."""
    from ..ops.math_ops import cast, greater_equal
    from ..ops.reduction_ops import reduce_sum

    def bucket(length):
        # int32 boundaries, as in TF: the length must be an int32 (as tf.shape gives)
        hits = greater_equal(length, np.asarray(boundaries, np.int32))
        return reduce_sum(cast(hits, dtypes.int64))
    return bucket


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries,
                              bucket_batch_sizes, padded_shapes, padding_values,
                              pad_to_bucket_boundary, no_padding, drop_remainder):
    """TF's construction: `group_by_window` keyed by the bucket, each window
    `padded_batch`-ed (or `batch`-ed with `no_padding`)."""
    boundaries, sizes = list(bucket_boundaries), list(bucket_batch_sizes)
    if len(sizes) != len(boundaries) + 1:
        raise ValueError("`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` "
                         f"but `len(bucket_batch_sizes)={len(sizes)}` and "
                         f"`len(bucket_boundaries)={len(boundaries)}`.")
    if sorted(boundaries) != boundaries:
        raise ValueError(f"`bucket_boundaries` must be sorted, got {boundaries}.")
    bucket = _bucket_of(boundaries)

    def key_func(*element):
        return bucket(element_length_func(*element))

    def batching(key, window):
        size = _batch_size_of(sizes, key)
        if no_padding:
            return window.batch(size, drop_remainder=drop_remainder)
        batches = window.padded_batch(size, padded_shapes, padding_values,
                                      drop_remainder=drop_remainder)
        if pad_to_bucket_boundary:
            return batches.map(_boundary_padder(batches.element_spec, boundaries, key,
                                                padding_values))
        return batches

    return dataset.group_by_window(key_func, batching,
                                   window_size_func=lambda key: _batch_size_of(sizes, key))


def _boundary_padder(spec, boundaries, key, padding_values):
    """`pad_to_bucket_boundary`: every unknown dimension grows to the bucket's boundary - 1
    (filled with the padding value); the last bucket has no boundary, which TF checks."""
    from ..ops.array_ops import concat, reshape
    from ..ops.creation_ops import fill
    from ..ops.check_ops import assert_less
    from ..ops.gather_ops import gather
    from ..ops.shape_ops import shape
    # a stateful Assert node: minitf runs every node of the traced graph, in order
    assert_less(key, np.int64(len(boundaries)), message=(
        "When pad_to_bucket_boundary=True, elements must have length < "
        "max(bucket_boundaries)."))
    limit = gather(np.asarray(boundaries + [1], np.int32), key) - 1
    specs = flatten(spec)
    fills = flatten(padding_values) if padding_values is not None else [None] * len(specs)

    def grow(t, dims, fill_value):
        for i, d in enumerate(dims):
            if i == 0 or d is not None:
                continue
            size = shape(t)
            extra = concat([size[:i], reshape(limit - size[i], [1]), size[i + 1:]], 0)
            value = fill_value if fill_value is not None else (
                b"" if t.dtype is dtypes.string else 0)
            t = concat([t, fill(extra, _as(value, t.dtype))], i)
        return t

    def pad_all(*element):
        parts = [grow(t, s.shape.as_list() if s.shape.rank is not None else [], f)
                 for t, s, f in zip(flatten(element), specs, fills)]
        return pack(spec, parts)
    return pad_all


def _as(value, dtype):
    from ..framework.tensor import convert_to_tensor
    from ..ops.math_ops import cast
    value = convert_to_tensor(value)
    return value if value.dtype is dtype else cast(value, dtype)


def _batch_size_of(sizes, key):
    from ..ops.gather_ops import gather
    return gather(np.asarray(sizes, np.int64), key)


@tf_export("data.experimental.group_by_window")
def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """`Dataset.group_by_window` as a transformation for `apply`.

    >>> ds = tf.data.Dataset.range(4).apply(tf.data.experimental.group_by_window(
    ...     lambda x: x % 2, lambda k, w: w.batch(2), window_size=2))
    >>> [b.tolist() for b in ds.as_numpy_iterator()]
    [[0, 2], [1, 3]]
    """
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size,
                                                   window_size_func)


@tf_export("data.experimental.bucket_by_sequence_length")
def experimental_bucket_by_sequence_length(element_length_func, bucket_boundaries,
                                           bucket_batch_sizes, padded_shapes=None,
                                           padding_values=None, pad_to_bucket_boundary=False,
                                           no_padding=False, drop_remainder=False):
    """`Dataset.bucket_by_sequence_length` as a transformation for `apply`.

    >>> ds = tf.data.Dataset.range(5).apply(tf.data.experimental.bucket_by_sequence_length(
    ...     lambda x: tf.cast(x, tf.int32), [2], [2, 3], no_padding=True))  # 0-1, and 2 on
    >>> [b.tolist() for b in ds.as_numpy_iterator()]
    [[0, 1], [2, 3, 4]]
    """
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
        padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


@tf_export("data.experimental.unique")
def unique():
    """`Dataset.unique` as a transformation for `apply`.

    >>> ds = tf.data.Dataset.from_tensor_slices([2, 2, 1]).apply(tf.data.experimental.unique())
    >>> list(ds.as_numpy_iterator())
    [np.int32(2), np.int32(1)]
    """
    return lambda dataset: dataset.unique()


del tf_export
