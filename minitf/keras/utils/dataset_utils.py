"""`tf.keras.utils.timeseries_dataset_from_array` and `split_dataset`: tf.data pipelines
built from arrays.

>>> import minitf as tf, numpy as np
>>> ds = tf.keras.utils.timeseries_dataset_from_array(
...     np.arange(10), targets=np.arange(10) * 10, sequence_length=3, batch_size=4)
>>> x, y = next(iter(ds))
>>> x.numpy().tolist(), y.numpy().tolist()
([[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]], [0, 10, 20, 30])
>>> left, right = tf.keras.utils.split_dataset(np.arange(10), left_size=0.8)
>>> int(left.cardinality()), int(right.cardinality())
(8, 2)

In TensorFlow this is `keras/src/utils/timeseries_dataset_utils.py` and
`dataset_utils.py`. Keras gathers the windows lazily inside the pipeline;
minitf cuts them out with NumPy first (the same windows, in the same order).
"""
import random

import numpy as np

from ...framework.tf_export import tf_export


def _check_timeseries_arguments(n, start_index, end_index, sampling_rate, sequence_stride):
    if start_index:
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: "
                             f"start_index={start_index}")
        if start_index >= n:
            raise ValueError("`start_index` must be lower than the length of the data. "
                             f"Received: start_index={start_index}, for data of length {n}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError("`end_index` must be higher than `start_index`. Received: "
                             f"start_index={start_index}, and end_index={end_index} ")
        if end_index >= n:
            raise ValueError("`end_index` must be lower than the length of the data. "
                             f"Received: end_index={end_index}, for data of length {n}")
    for name, value in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if value <= 0:
            raise ValueError(f"`{name}` must be higher than 0. Received: {name}={value}")
        if value >= n:
            raise ValueError(f"`{name}` must be lower than the length of the data. Received: "
                             f"{name}={value}, for data of length {n}")


@tf_export("keras.utils.timeseries_dataset_from_array",
           "keras.preprocessing.timeseries_dataset_from_array")
def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False, seed=None,
                                  start_index=None, end_index=None):
    """Sliding windows over `data`: window i is data[s_i : s_i + sequence_length * rate : rate]
    with s_i = i * sequence_stride; its target is targets[s_i] (None: windows only)."""
    from ... import data as tf_data
    _check_timeseries_arguments(len(data), start_index, end_index, sampling_rate,
                                sequence_stride)
    start_index = start_index or 0
    end_index = end_index or len(data)
    num_seqs = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    starts = np.arange(0, max(num_seqs, 0), sequence_stride, dtype="int32")
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(starts)
    steps = np.asarray(data)[start_index:end_index]
    offsets = np.arange(sequence_length) * sampling_rate
    windows = steps[starts[:, None] + offsets[None, :]] if len(starts) else \
        np.zeros((0, sequence_length) + steps.shape[1:], steps.dtype)
    if targets is not None:
        labels = np.asarray(targets)[start_index:end_index][starts]
        dataset = tf_data.Dataset.from_tensor_slices((windows, labels))
    else:
        dataset = tf_data.Dataset.from_tensor_slices(windows)
    if shuffle:
        dataset = dataset.shuffle(buffer_size=(batch_size or 128) * 8, seed=seed)
    return dataset.batch(batch_size) if batch_size is not None else dataset


def _as_rows(dataset):
    """A list of examples: rows of an array, tuples of rows of arrays, or dataset elements."""
    from ...data.dataset_ops import Dataset
    if isinstance(dataset, Dataset):
        return [tuple(t.numpy() for t in e) if isinstance(e, tuple) else e.numpy()
                for e in dataset]
    if isinstance(dataset, (list, tuple)) and dataset and all(
            hasattr(a, "shape") and len(a) == len(dataset[0]) for a in dataset):
        arrays = [np.asarray(a) for a in dataset]
        return list(zip(*arrays))
    if isinstance(dataset, np.ndarray):
        return list(dataset)
    raise TypeError("The `dataset` argument must be either a `tf.data.Dataset` object, or a "
                    f"list/tuple of arrays. Received: dataset={dataset} of type "
                    f"{type(dataset)}")


def _split_sizes(left_size, right_size, total):
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if size is not None and type(size) not in (int, float):
            raise TypeError(f"Invalid `{name}` Type. Expected: int or float or None, "
                            f"Received: type({name})={type(size)}.")
    if left_size == 0 and right_size == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the "
                         "split sizes must be non-zero.")
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if (type(size) is int and not 0 < size < total) or \
                (type(size) is float and not 0 < size < 1):
            raise ValueError(f"`{name}` should be either a positive integer smaller than "
                             f"{total}, or a float within the range `[0, 1]`. Received: "
                             f"{name}={size}")
    if type(left_size) is float and type(right_size) is float and left_size + right_size > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must "
                         "be less than or equal to 1.")
    left = round(left_size * total) if type(left_size) is float else left_size
    right = round(right_size * total) if type(right_size) is float else right_size
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the "
                         f"{total}. Received: left_size + right_size = {left + right}and "
                         f"total_length = {total}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={left} and "
                             f"`right_size`={right}.Resulting {side} side dataset split will "
                             "be empty. Adjust any of the aforementioned parameters")
    return int(left), int(right)


def _from_rows(rows):
    from ... import data as tf_data
    if rows and isinstance(rows[0], tuple):
        return tf_data.Dataset.from_tensor_slices(tuple(np.stack(c) for c in zip(*rows)))
    return tf_data.Dataset.from_tensor_slices(np.stack(rows))


@tf_export("keras.utils.split_dataset")
def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None,
                  preferred_backend=None):
    """Two datasets: the first `left_size` examples and the last `right_size` ones
    (ints count examples, floats are fractions; one of them may be None: the rest)."""
    rows = _as_rows(dataset)
    if right_size is None and left_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. "
                         "Received: left_size=None and right_size=None")
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.seed(seed)  # as Keras: Python's generator, so the split equals Keras's
        random.shuffle(rows)
    left, right = _split_sizes(left_size, right_size, len(rows))
    return _from_rows(rows[:left]), _from_rows(rows[-right:])
