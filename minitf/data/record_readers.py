"""Fixed-length records, writing a dataset to TFRecord, and batches of parsed Examples.

`FixedLengthRecordDataset` cuts files into records of `record_bytes` bytes
(after `header_bytes`, before `footer_bytes`), as for CIFAR-10's binary files:

>>> import minitf as tf, os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "records.bin")
>>> _ = open(path, "wb").write(b"HDR" + b"aabbcc" + b"F")
>>> ds = tf.data.FixedLengthRecordDataset(path, 2, header_bytes=3, footer_bytes=1)
>>> list(ds.as_numpy_iterator())
[b'aa', b'bb', b'cc']

`make_batched_features_dataset` is TF's ready-made pipeline for TFRecord files
of `tf.train.Example`s: list the files, interleave their records, shuffle,
repeat, batch, then parse each batch with `tf.io.parse_example`.
"""
import gzip
import warnings
import zlib

from ..framework import dtypes, errors
from ..framework.function import TensorSpec
from ..framework.tf_export import tf_export
from ..io.tfrecord import TFRecordOptions
from .dataset_ops import AUTOTUNE, Dataset
from .readers import _file_names, read_files
from .sources import static_int


def _file_bytes(name, compression):
    try:
        with open(name, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise errors.NotFoundError(None, "FixedLengthRecordDataset",
                                   f"{name}; No such file or directory") from None
    if compression == "GZIP":
        return gzip.decompress(data)
    if compression == "ZLIB":
        return zlib.decompress(data)
    return data


def _records(name, record_bytes, header, footer, compression):
    data = _file_bytes(name, compression)
    body = data[header:len(data) - footer]
    if len(body) % record_bytes:
        warnings.warn(f"Excluding the header ({header} bytes) and footer ({footer} bytes), "
                      f"file {name!r} has body length {len(body)}, which is not an exact "
                      f"multiple of the record length ({record_bytes} bytes); the last "
                      f"{len(body) % record_bytes} bytes are dropped.")
    for start in range(0, len(body) - record_bytes + 1, record_bytes):
        yield body[start:start + record_bytes]  # read_files makes it a string tensor


@tf_export("data.FixedLengthRecordDataset")
class FixedLengthRecordDatasetV2(Dataset):
    """Records of `record_bytes` bytes from one or more files, as scalar strings."""

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
                 buffer_size=None, compression_type=None, num_parallel_reads=None, name=None):
        self._record = static_int(record_bytes)
        if self._record <= 0:
            raise errors.InvalidArgumentError(None, "FixedLengthRecordDataset",
                                              f"record_bytes must be > 0, got {self._record}.")
        self._header = 0 if header_bytes is None else static_int(header_bytes)
        self._footer = 0 if footer_bytes is None else static_int(footer_bytes)
        if self._header < 0 or self._footer < 0:
            raise errors.InvalidArgumentError(None, "FixedLengthRecordDataset",
                                              "header_bytes and footer_bytes must be >= 0.")
        self._compression = TFRecordOptions.get_compression_type_string(compression_type)
        self._filenames = filenames
        self._parallel = None if num_parallel_reads is None else static_int(num_parallel_reads)
        self._element_spec = TensorSpec([], dtypes.string)

    def _generate(self):
        yield from read_files(_file_names(self._filenames), self._parallel, self._read,
                              self._one_file)

    def _read(self, name):
        return _records(name, self._record, self._header, self._footer, self._compression)

    def _one_file(self, name):
        return FixedLengthRecordDatasetV2(name, self._record, self._header, self._footer,
                                          compression_type=self._compression)


@tf_export("data.experimental.TFRecordWriter")
class TFRecordWriter:
    """Write a dataset of scalar strings to one TFRecord file.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "out.tfrecord")
    >>> tf.data.experimental.TFRecordWriter(path).write(
    ...     tf.data.Dataset.from_tensor_slices([b"x", b"yz"]))
    >>> list(tf.data.TFRecordDataset(path).as_numpy_iterator())
    [b'x', b'yz']
    """

    def __init__(self, filename, compression_type=None):
        self._filename = filename
        self._compression = compression_type

    def write(self, dataset):
        """Write every element of `dataset` (scalar `tf.string`s) as one record."""
        spec = dataset.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype is not dtypes.string or \
                spec.shape.rank != 0:
            raise TypeError("Invalid `dataset`. Expected a`dataset` that produces scalar "
                            "`tf.string` elements, but got a dataset which produces elements "
                            f"with shapes {getattr(spec, 'shape', spec)} and types "
                            f"{_dtype_text(spec)}.")
        from ..io.tfrecord import TFRecordWriter as _Writer
        with _Writer(self._filename, self._compression) as writer:
            for record in dataset._iterate():
                writer.write(record.numpy())


def _dtype_text(spec):
    dtype = getattr(spec, "dtype", None)
    return f"<dtype: '{dtype.name}'>" if dtype is not None else repr(spec)


@tf_export("data.experimental.parse_example_dataset")
def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """A transformation for `apply`: batches of serialized `tf.train.Example`s become
    dicts of feature tensors (`tf.io.parse_example` in a `map`)."""
    from ..io.example_parsing import parse_example
    if features is None:
        raise ValueError("Invalid `features`. `features` cannot be None.")
    def transform(dataset):
        spec = dataset.element_spec
        if not isinstance(spec, TensorSpec) or not TensorSpec(
                [None], dtypes.string).is_compatible_with(spec):  # batch the Examples first
            raise TypeError(f"Input dataset should be a dataset of vectors of strings. Instead "
                            f"it is `{spec!r}`.")
        return dataset.map(lambda serialized: parse_example(serialized, features),
                           num_parallel_calls=num_parallel_calls, deterministic=deterministic)
    return transform


@tf_export("data.experimental.make_batched_features_dataset")
def make_batched_features_dataset(file_pattern, batch_size, features, reader=None,
                                  label_key=None, reader_args=None, num_epochs=None,
                                  shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False,
                                  drop_final_batch=False):
    """Batches of parsed Examples (dicts of tensors; `(features, label)` with `label_key`)
    from the TFRecord files matching `file_pattern`, `num_epochs` times (None: forever)."""
    from .tfrecord_dataset import TFRecordDatasetV2
    if label_key is not None and label_key not in features:
        raise ValueError(f"The `label_key` provided ({label_key}) must be one of the "
                         f"`features` keys: {features.keys()}.")
    reader = TFRecordDatasetV2 if reader is None else reader
    args = list(reader_args or [])
    files = Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    dataset = files.interleave(lambda name: reader(name, *args),
                               cycle_length=reader_num_threads or 1, block_length=1,
                               num_parallel_calls=reader_num_threads,
                               deterministic=False if sloppy_ordering else None)
    if isinstance(dataset.element_spec, tuple):  # (key, value) records: keep the value
        dataset = dataset.map(lambda _, value: value)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch)
    dataset = dataset.apply(parse_example_dataset(features, parser_num_threads or 1))
    if label_key is not None:
        dataset = dataset.map(lambda x: ({k: v for k, v in x.items() if k != label_key},
                                         x[label_key]))
    return dataset.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


del tf_export
