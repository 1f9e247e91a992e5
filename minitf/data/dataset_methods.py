"""More `tf.data.Dataset` methods: options, sampling, grouping, checks, saving.

`Dataset` (dataset_ops.py) inherits these; each one is a short entry point
that builds a dataset class from the module named in its body, so this file
reads as a table of contents. TensorFlow keeps all of them in one class too.

>>> import minitf as tf
>>> ds = tf.data.Dataset.from_tensor_slices([3, 1, 3, 2, 1]).unique()
>>> list(ds.as_numpy_iterator())
[np.int32(3), np.int32(1), np.int32(2)]
"""
from ..framework import dtypes


class DatasetMethods:
    """The methods below, mixed into `tf.data.Dataset`."""

    # --- options ----------------------------------------------------------------------------
    def options(self):
        """The `tf.data.Options` of this dataset and its inputs, merged (read-only).

        >>> tf.data.Dataset.range(3).options() == tf.data.Options()
        True
        """
        from .options import dataset_options
        return dataset_options(self)

    def with_options(self, options, name=None):
        """The same elements, with `options` set for the whole pipeline.

        >>> o = tf.data.Options()
        >>> o.experimental_slack = True
        >>> tf.data.Dataset.range(3).with_options(o).options().experimental_slack
        True
        """
        from .options import _OptionsDataset
        return _OptionsDataset(self, options)

    # --- sources ------------------------------------------------------------------------------
    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        """`start`, `start + step`, ... forever.

        >>> list(tf.data.Dataset.counter(5, 2).take(3).as_numpy_iterator())
        [np.int64(5), np.int64(7), np.int64(9)]
        """
        from .random_sources import _CounterDataset
        return _CounterDataset(start, step, dtype)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """Pseudo-random int64 values in [0, 2**32), forever.

        >>> ds = tf.data.Dataset.random(seed=4).take(3)
        >>> list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator())
        True
        """
        from .random_sources import _RandomDataset
        return _RandomDataset(seed, rerandomize_each_iteration)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """Element i comes from `datasets[choice_i]` (an int64 `choice_dataset`).

        >>> a = tf.data.Dataset.from_tensor_slices(["a1", "a2"])
        >>> b = tf.data.Dataset.from_tensor_slices(["b1"])
        >>> choice = tf.data.Dataset.from_tensor_slices(tf.constant([1, 0, 0], tf.int64))
        >>> list(tf.data.Dataset.choose_from_datasets([a, b], choice).as_numpy_iterator())
        [b'b1', b'a1', b'a2']
        """
        from .random_sources import choose_from_datasets
        return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Each element from a dataset drawn at random with probabilities `weights`.

        >>> ds = tf.data.Dataset.sample_from_datasets(
        ...     [tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12)], seed=1)
        >>> sorted(ds.as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2), np.int64(10), np.int64(11)]
        """
        from .random_sources import sample_from_datasets
        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                    rerandomize_each_iteration)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        """A dataset written by `Dataset.save` (see save_load.py).

        >>> import tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "ds")
        >>> tf.data.Dataset.range(3).save(path)
        >>> list(tf.data.Dataset.load(path).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2)]
        """
        from .save_load import load
        return load(path, element_spec, compression, reader_func)

    # --- grouping -------------------------------------------------------------------------------
    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                        name=None):
        """Group elements by an int64 `key_func`; every full window (and, at the end, each
        rest) becomes the dataset `reduce_func(key, window)`.

        >>> ds = tf.data.Dataset.range(6).group_by_window(
        ...     lambda x: x % 2, lambda key, window: window.batch(2), window_size=2)
        >>> [b.tolist() for b in ds.as_numpy_iterator()]
        [[0, 2], [1, 3], [4], [5]]
        """
        from .grouping import _GroupByWindowDataset
        return _GroupByWindowDataset(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None):
        """Batch elements of similar length together (padded per batch).

        >>> ds = tf.data.Dataset.range(1, 5).map(lambda n: tf.fill([n], n))
        >>> ds = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [2, 2])
        >>> [b.tolist() for b in ds.as_numpy_iterator()]
        [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]]
        """
        from .grouping import bucket_by_sequence_length
        return bucket_by_sequence_length(
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
            padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)

    def unique(self, name=None):
        """Each distinct element once, at its first appearance (int or string scalars).

        >>> list(tf.data.Dataset.from_tensor_slices(["b", "a", "b"]).unique().as_numpy_iterator())
        [b'b', b'a']
        """
        from .grouping import _UniqueDataset
        return _UniqueDataset(self)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                           name=None):
        """Resample to the class distribution `target_dist`: `(class, element)` pairs.

        >>> ds = tf.data.Dataset.from_tensor_slices([0, 0, 0, 1] * 25)
        >>> out = ds.rejection_resample(lambda x: x, [0.5, 0.5], [0.75, 0.25], seed=2)
        >>> out.element_spec
        (TensorSpec(shape=(), dtype=tf.int32, name=None), TensorSpec(shape=(), dtype=tf.int32, name=None))
        """
        from .resampling import rejection_resample
        return rejection_resample(self, class_func, target_dist, initial_dist, seed)

    # --- counts and errors ------------------------------------------------------------------------
    def ignore_errors(self, log_warning=False, name=None):
        """Drop the elements whose computation raised an error.

        >>> ds = tf.data.Dataset.from_tensor_slices([1., 0., 2.]).map(
        ...     lambda x: tf.debugging.check_numerics(1. / x, "division by zero"))
        >>> list(ds.ignore_errors().as_numpy_iterator())
        [np.float32(1.0), np.float32(0.5)]
        """
        from .checks import _IgnoreErrorsDataset
        return _IgnoreErrorsDataset(self, log_warning)

    def get_single_element(self, name=None):
        """The only element (`InvalidArgumentError` if there are none or several).

        >>> tf.data.Dataset.from_tensors(5).get_single_element().numpy()
        np.int32(5)
        """
        from .checks import get_single_element
        return get_single_element(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        """Cut the batched elements into batches of `batch_size` (or a list of sizes in turn).

        >>> ds = tf.data.Dataset.range(8).batch(4).rebatch(3)
        >>> [b.tolist() for b in ds.as_numpy_iterator()]
        [[0, 1, 2], [3, 4, 5], [6, 7]]
        """
        from .checks import _RebatchDataset
        return _RebatchDataset(self, batch_size, drop_remainder)

    def sparse_batch(self, batch_size, row_shape, name=None):
        """Batch elements of different shapes into `tf.sparse.SparseTensor`s of dense
        shape `[batch, *row_shape]`.

        >>> ds = tf.data.Dataset.from_tensor_slices([[1, 0], [2, 3]]).map(lambda x: x[:1])
        >>> sp = next(iter(ds.sparse_batch(2, [3])))
        >>> sp.indices.numpy().tolist(), sp.values.numpy().tolist()
        ([[0, 0], [1, 0]], [1, 2])
        """
        from .checks import _SparseBatchDataset
        return _SparseBatchDataset(self, batch_size, row_shape)

    # --- saving ----------------------------------------------------------------------------
    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Write the elements to the directory `path` (read back with `Dataset.load`)."""
        from .save_load import save
        save(self, path, compression, shard_func, checkpoint_args)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
        """Like `cache(path)` but in `save`'s format: the first complete pass writes the
        elements under `path`, later passes (and later programs) read them back.

        >>> import tempfile
        >>> ds = tf.data.Dataset.range(3).snapshot(tempfile.mkdtemp())
        >>> list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator())
        True
        """
        from .save_load import _SnapshotDataset
        return _SnapshotDataset(self, path, compression)
