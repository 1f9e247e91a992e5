"""`rejection_resample`: change a dataset's class distribution to `target_dist`.

TensorFlow's construction, step by step. With the classes' initial distribution
p (given, or estimated as the data flows) and the target t, the ratios r = t/p
give each class an acceptance probability a = (r - min r) / (max r - min r).
The result mixes two passes over the data: with probability m = min r an
element of the original data, otherwise one of a filtered pass that keeps an
element of class c with probability a[c]. Elements come out as (class, element):

>>> import minitf as tf
>>> ds = tf.data.Dataset.from_tensor_slices([0] * 90 + [1] * 10).shuffle(100, seed=1)
>>> out = ds.rejection_resample(lambda x: x, [0.5, 0.5], [0.9, 0.1], seed=1).take(40)
>>> classes = [int(c) for c, _ in out.as_numpy_iterator()]
>>> 10 <= sum(classes) <= 30     # about half are class 1 now, not a tenth
True

Each pass draws new random numbers, so (as in TF) an element of the input can
appear more than once or not at all.
"""
import warnings

import numpy as np

from ..framework import dtypes
from ..framework.function import TensorSpec
from ..framework.tensor import EagerTensor
from ..framework.tf_export import tf_export
from .dataset_ops import Dataset
from .structured_function import StructuredFunction

_TINY = np.finfo(np.float32).tiny


def _acceptance(initial, target):
    """TF's `_calculate_acceptance_probs_with_mixing`: (a, m)."""
    ratio = target / (initial + _TINY)
    low, high = ratio.min(), ratio.max()
    with np.errstate(invalid="ignore", divide="ignore"):
        accept = (ratio - low) / (high - low)
    return np.nan_to_num(accept).astype(np.float32), np.float32(low)


class _EstimatedDistribution(Dataset):
    """The running estimate of the class distribution TF uses when `initial_dist` is None:
    counts start at 10 per class and are updated once per 32 elements."""

    def __init__(self, dataset, class_func, num_classes):
        self._input, self._n = dataset, num_classes
        self._class = StructuredFunction(class_func, dataset.element_spec,
                                         "Dataset.rejection_resample")
        self._element_spec = TensorSpec([num_classes], dtypes.float32)

    def _generate(self):
        counts = np.full(self._n, 10, np.int64)
        batch = []
        for element in self._input._iterate():
            batch.append(int(self._class(element).numpy()))
            if len(batch) == 32:
                yield from self._flush(counts, batch)
                batch = []
        yield from self._flush(counts, batch)

    def _flush(self, counts, batch):
        for c in batch:
            counts[c] += 1
        dist = (counts / counts.sum()).astype(np.float32)
        for _ in batch:
            yield EagerTensor(dist, dtypes.float32)


def rejection_resample(dataset, class_func, target_dist, initial_dist, seed):
    from ..ops.gather_ops import gather
    from ..ops.random_ops import uniform as random_uniform
    target = np.asarray(getattr(target_dist, "numpy", lambda: target_dist)(), np.float32)

    def with_class(*x):
        return class_func(*x), (x[0] if len(x) == 1 else x)

    original = dataset.map(with_class)
    if initial_dist is not None:
        initial = np.asarray(getattr(initial_dist, "numpy", lambda: initial_dist)(), np.float32)
        accept, mix = _acceptance(initial, target)
        if float(((1 - accept) * initial).sum()) >= 0.5:
            warnings.warn(f"Proportion of examples rejected by sampler is high: "
                          f"{float(((1 - accept) * initial).sum()):.3g}")
        filtered = original.filter(lambda c, x: random_uniform([], seed=seed)
                                   < gather(accept, c))
        if mix == 1:
            return original
        if mix == 0:
            return filtered
        return Dataset.sample_from_datasets([original, filtered], [float(mix), 1 - float(mix)],
                                            seed=seed, stop_on_empty_dataset=True)
    estimate = _EstimatedDistribution(dataset, class_func, len(target))
    mixes = estimate.map(lambda p: _acceptance_ops(p, target))
    filtered = Dataset.zip((mixes, original)).filter(
        lambda am, cx: random_uniform([], seed=seed) < gather(am[0], cx[0])).map(
        lambda am, cx: cx)
    weights = mixes.map(lambda a, m: _pair(m))
    return Dataset.sample_from_datasets([original, filtered], weights, seed=seed,
                                        stop_on_empty_dataset=True)


def _acceptance_ops(p, target):
    """`_acceptance` in tensor ops, for the estimated distribution inside a map."""
    from ..ops.reduction_ops import reduce_max, reduce_min
    ratio = target / (p + _TINY)
    low, high = reduce_min(ratio), reduce_max(ratio)
    return (ratio - low) / (high - low), low


def _pair(m):
    from ..ops.array_ops import stack
    return stack([m, 1 - m])


@tf_export("data.experimental.rejection_resample")
def experimental_rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """`Dataset.rejection_resample` as a transformation for `apply`.

    >>> ds = tf.data.Dataset.from_tensor_slices([0, 1, 1, 1]).repeat(10)
    >>> out = ds.apply(tf.data.experimental.rejection_resample(
    ...     lambda x: x, [0.5, 0.5], [0.25, 0.75], seed=3))
    >>> out.element_spec[0]
    TensorSpec(shape=(), dtype=tf.int32, name=None)
    """
    return lambda dataset: rejection_resample(dataset, class_func, target_dist, initial_dist,
                                              seed)


del tf_export
