"""`tf.io`: files and records - TFRecord files, `tf.train.Example` parsing, tensor bytes.

* `tfrecord.py` - `TFRecordWriter`, `TFRecordOptions`, and the record reader
  that `tf.data.TFRecordDataset` (minitf/data/tfrecord_dataset.py) uses;
* `example_parsing.py` - `FixedLenFeature`, `VarLenFeature`,
  `FixedLenSequenceFeature`, `parse_single_example`, `parse_example`;
* `sequence_example_parsing.py` - `parse_single_sequence_example`;
* `tensor_serialization.py` - `serialize_tensor`, `parse_tensor`.

(`read_file`, `write_file` and `decode_csv` are ops in minitf/ops/io_ops.py;
`tf.train.Example` and its messages are in minitf/train/example.py;
`tf.SparseTensor`, which VarLenFeature parses into, in minitf/ops/sparse_tensor.py.)
Importing this package imports every module below it, which registers the
public names they mark with `@tf_export("io....")`.
"""
import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
