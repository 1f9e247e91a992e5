"""`tf.lookup`: tables that map keys (strings or integers) to values.

* `initializers.py` - `KeyValueTensorInitializer`, `TextFileInitializer`, `TextFileIndex`;
* `static_tables.py` - `StaticHashTable`, `StaticVocabularyTable` (filled once);
* `mutable_tables.py` - `tf.lookup.experimental.MutableHashTable` and `DenseHashTable`;
* `lookup_table.py` - what they share (dtype checks, dense/sparse/ragged lookup);
* `table_ops.py` - the ops they run through (`LookupTableFindV2`, ...).

(`tf.data.experimental.table_from_dataset`, `index_table_from_dataset` and
`DatasetInitializer` are in minitf/data/table_initializers.py.)

>>> import minitf as tf
>>> init = tf.lookup.KeyValueTensorInitializer(["red", "green"], [0, 1])
>>> tf.lookup.StaticHashTable(init, default_value=-1).lookup(tf.constant(["green", "blue"]))
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -1], dtype=int32)>

Importing this package imports every module below it, which registers the
public names they mark with `@tf_export("lookup....")`.
"""
import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
