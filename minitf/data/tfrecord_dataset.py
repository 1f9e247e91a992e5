"""`tf.data.TFRecordDataset`: one scalar `tf.string` element per record of TFRecord files.

>>> import os, tempfile
>>> import minitf as tf
>>> path = os.path.join(tempfile.mkdtemp(), "letters.tfrecord")
>>> with tf.io.TFRecordWriter(path) as writer:
...     for letter in [b"a", b"b", b"c"]:
...         writer.write(letter)
>>> ds = tf.data.TFRecordDataset(path)
>>> ds
<TFRecordDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>
>>> list(ds.as_numpy_iterator())
[b'a', b'b', b'c']

The records are usually serialized `tf.train.Example`s; parse them with
`tf.io.parse_single_example` in a `map` (minitf/io/example_parsing.py). The
file format and its checks are in minitf/io/tfrecord.py.
"""
from ..framework import dtypes, errors
from ..framework.function import TensorSpec
from ..framework.tf_export import tf_export
from ..io.tfrecord import TFRecordOptions, read_records
from .dataset_ops import Dataset
from .readers import _file_names, read_files
from .sources import static_int


@tf_export("data.TFRecordDataset")
class TFRecordDatasetV2(Dataset):
    """The records of one or more TFRecord files, file after file.

    filenames:          a path, a list of paths, a string tensor or a dataset of paths.
    compression_type:   None or "" (plain), "ZLIB" or "GZIP".
    buffer_size:        bytes of read buffer in TensorFlow (minitf reads 1 MiB at a time).
    num_parallel_reads: read that many files at once, interleaving their records
                        (`tf.data.AUTOTUNE`: all of them).
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        self._compression = TFRecordOptions.get_compression_type_string(compression_type)
        if buffer_size is not None and static_int(buffer_size) < 0:
            raise errors.InvalidArgumentError(
                None, "TFRecordDataset", "`buffer_size` must be >= 0 (0 = no buffering).")
        self._filenames = filenames
        self._buffer_size = buffer_size
        self._parallel = None if num_parallel_reads is None else static_int(num_parallel_reads)
        self._element_spec = TensorSpec([], dtypes.string)

    def _generate(self):
        yield from read_files(_file_names(self._filenames), self._parallel,
                          lambda name: read_records(name, self._compression), self._one_file)

    def _one_file(self, name):
        return TFRecordDatasetV2(name, self._compression, self._buffer_size)
