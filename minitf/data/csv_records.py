"""`tf.data.experimental.CsvDataset`: the records of CSV files as tuples of scalars.

Lower-level than `make_csv_dataset`: no header parsing, no type inference, no
batching. You give one `record_defaults` entry per column read: a default
value (`0`, `0.0`, `""`: its dtype is the column's, and it fills empty fields)
or a dtype (the field is required: an empty one is an error). `select_cols` or
`exclude_cols` (strictly increasing indices) pick the columns.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "scores.csv")
>>> _ = open(path, "w").write("name,score,rank\\nada,9.5,1\\nbob,,2\\n")
>>> rows = tf.data.experimental.CsvDataset(path, [tf.string, 0.0], header=True,
...                                        select_cols=[0, 1])
>>> rows.element_spec[1]
TensorSpec(shape=(), dtype=tf.float32, name=None)
>>> list(rows.as_numpy_iterator())
[(b'ada', np.float32(9.5)), (b'bob', np.float32(0.0))]
"""
from ..framework import errors
from ..framework.function import TensorSpec
from ..framework.tf_export import tf_export
from .csv_dataset import _CsvDataset
from .dataset_ops import Dataset
from .readers import _default_for, _file_names, _string


def _invalid(message):
    return errors.InvalidArgumentError(None, "CSVDatasetV2", f"{message} [Op:CSVDatasetV2]")


def _increasing(name, cols):
    if cols is None:
        return None
    cols = [int(c) for c in cols]
    if any(b <= a for a, b in zip(cols, cols[1:])) or any(c < 0 for c in cols):
        raise _invalid(f"{name} should be strictly increasing indices")
    return cols


def _checked_defaults(record_defaults):
    defaults = []
    for i, value in enumerate(record_defaults):
        default = _default_for(value)
        if default.shape.rank != 1 or default.shape[0] > 1:
            raise _invalid(f"There should only be 1 default per field but field {i} has "
                           f"{default.shape.num_elements()}")
        defaults.append(default)
    return defaults


@tf_export("data.experimental.CsvDataset")
class CsvDatasetV2(Dataset):
    """One tuple of scalar tensors per CSV record, file after file (see the module doc)."""

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=",", use_quote_delim=True, na_value="",
                 select_cols=None, exclude_cols=None):
        if compression_type not in (None, ""):
            raise ValueError("minitf's CsvDataset reads uncompressed files only "
                             f"(compression_type={compression_type!r}).")
        defaults = _checked_defaults(record_defaults)
        if select_cols and exclude_cols:
            raise _invalid("Either select_cols or exclude_cols should be empty")
        if select_cols and len(select_cols) != len(defaults):
            raise _invalid("select_cols should match output size")
        select_cols = _increasing("select_cols", select_cols) or None
        exclude_cols = _increasing("exclude_cols", exclude_cols)
        self._filenames = filenames
        self._defaults = defaults
        self._options = dict(header=header, field_delim=field_delim,
                             use_quote_delim=use_quote_delim, na_value=na_value)
        self._select_cols, self._exclude_cols = select_cols, exclude_cols
        self._element_spec = tuple(TensorSpec([], d.dtype) for d in defaults)

    def _columns(self):
        """The indices to read: select_cols, or all but exclude_cols."""
        if not self._exclude_cols:
            return self._select_cols
        n = len(self._defaults) + len(self._exclude_cols)
        return [c for c in range(n) if c not in self._exclude_cols]

    def _generate(self):
        o = self._options
        for name in _file_names(self._filenames):
            yield from _CsvDataset(_string(name.encode()), self._defaults, o["header"],
                                   o["field_delim"], o["use_quote_delim"], o["na_value"],
                                   self._columns(), False)._generate()
