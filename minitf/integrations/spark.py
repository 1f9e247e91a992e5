"""Batch inference with Apache Spark: score a DataFrame with a SavedModel, one model per process.

The helper writes the function you hand to PySpark's `DataFrame.mapInPandas`;
the rest is plain PySpark:

    from minitf.integrations.spark import predict_udf
    score = predict_udf("/models/churn", input_cols=["x0", "x1", "x2"], output_col="prediction")
    scored = df.mapInPandas(score, schema=score.output_schema(df.schema))

Spark sends each partition of `df` to a Python worker as an iterator of pandas
DataFrames (Arrow batches of at most `spark.sql.execution.arrow.maxRecordsPerBatch`
rows, 10,000 by default). `score` loads the SavedModel with
`tf.saved_model.load` the first time a worker process needs it and keeps it in
a module-level cache, so every later batch and partition in that process
reuses it: a model is loaded once per process, not once per batch. Rows are
cut into batches of exactly `batch_size` (the last one padded with zeros whose
predictions are dropped), stacked into one tensor and passed to the serving
signature; the predictions come back as a new column.

Why fixed-size batches: NumPy's matrix product (BLAS) may round a row's sum
differently depending on how many rows it multiplies at once (one row takes
another code path than a thousand). Padding every batch to `batch_size` makes
each row's prediction independent of where Spark's partitions and Arrow batches
happen to cut, so Spark's answers equal a single-process loop with the same
`batch_size` bit for bit. (TF Serving's batching pads too: up to one of its
`allowed_batch_sizes`, there so that the model sees few distinct shapes.)

What "executor process" means here: with `SparkSession.builder.master("local[2]")`
the driver's JVM is also the one executor, with 2 task slots; Python code runs
in worker processes that `pyspark.daemon` forks. With
`spark.python.worker.reuse=true` (the default) a worker stays alive between
tasks, so its cache does too: about one load per task slot. On a real cluster
the code is the same; what changes is around it: the job is started with
`spark-submit --master yarn|k8s://...|spark://...`; every executor machine needs
minitf installed (or shipped with `--py-files`/a packed environment), and the
model directory must be readable there as a local path (minitf reads no hdfs:// or
s3:// URLs), either on a shared filesystem every node mounts (NFS, a mounted
bucket) or shipped with the job,
`spark-submit --archives model.zip#model ...` and `predict_udf("model", ...)`,
which each executor unpacks into its working directory. Each executor's Python
workers then load their own copy once.

A runnable check without Spark (`predict_columns` takes a pandas DataFrame or
any mapping of column name to values):

>>> import os, tempfile
>>> import numpy as np
>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((2,)),
...                              tf.keras.layers.Dense(1, kernel_initializer="ones")])
>>> path = os.path.join(tempfile.mkdtemp(), "model")
>>> model.export(path, verbose=False)
>>> score = predict_udf(path, input_cols=["a", "b"], output_col="prediction", batch_size=4)
>>> score.predict_columns({"a": np.array([1.0, 2.0, 3.0]), "b": np.array([10.0, 20.0, 30.0])})
array([11., 22., 33.], dtype=float32)
>>> loads_in_this_process(path)         # predict_udf loaded it here once, to check the columns
1
>>> df = spark.read.parquet("rows.parquet")                     # doctest: +SKIP
>>> df.mapInPandas(score, schema=score.output_schema(df.schema)).show(2)   # doctest: +SKIP
+---+----+----------+
|  a|   b|prediction|
+---+----+----------+
|1.0|10.0|      11.0|
|2.0|20.0|      22.0|
+---+----+----------+
only showing top 2 rows

In TensorFlow the same job is usually written by hand the same way (a
`mapInPandas` or pandas UDF that calls `tf.saved_model.load` once per worker);
this module is minitf's, not part of TensorFlow's API.
"""
import os
import threading

import numpy as np

from ..framework.tensor import EagerTensor
from ..saved_model.load import load
from ..saved_model.save import SAVED_MODEL_FILENAME

INSTALL_HINT = ('python -m pip install "minitf[spark]"   (pyspark, pandas and pyarrow; '
                "Spark also needs Java 17 or newer, e.g. apt-get install default-jre-headless)")

_models = {}        # absolute model directory -> (mtime of its saved_model.json, loaded model)
_loads = {}         # absolute model directory -> how many times this process has loaded it
_models_lock = threading.Lock()


def load_cached(model_dir):
    """The SavedModel in `model_dir`, loaded once per process (again only if it is re-saved)."""
    path = os.path.abspath(os.fspath(model_dir))
    stamp = _mtime(os.path.join(path, SAVED_MODEL_FILENAME))
    with _models_lock:
        cached = _models.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        loaded = load(path)  # OSError with TF's text if there is no SavedModel there
        _models[path] = (stamp, loaded)
        _loads[path] = _loads.get(path, 0) + 1
        return loaded


def loads_in_this_process(model_dir):
    """How many times `load_cached` has loaded `model_dir` in this process (0: never)."""
    return _loads.get(os.path.abspath(os.fspath(model_dir)), 0)


def _mtime(path):
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def predict_udf(model_dir, input_cols, output_col="prediction", signature="serving_default",
                batch_size=1024, output_key=None):
    """A function for `df.mapInPandas(f, schema=f.output_schema(df.schema))` that adds predictions.

    `input_cols`: the columns stacked, in this order, into the signature's one
    input of shape `[batch, len(input_cols)]` (one column may also feed an
    input of shape `[batch]`); or a dict `{input name: [columns]}` for a
    signature with several inputs. `output_key`: which output to keep when the
    signature has several. The model is loaded here once, on the driver, so a
    wrong path or column count fails now rather than inside a Spark task.
    """
    return SavedModelPredictor(model_dir, input_cols, output_col, signature, batch_size,
                               output_key)


class SavedModelPredictor:
    """What `predict_udf` returns: picklable (it holds the path, never the loaded model)."""

    def __init__(self, model_dir, input_cols, output_col, signature, batch_size, output_key):
        self.model_dir = os.fspath(model_dir)  # relative: to each process's working directory
        self.output_col = output_col
        self.signature = signature
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}.")
        self.batch_size = batch_size
        self._input_cols, self._output_key = input_cols, output_key  # as given
        self.input_cols, self.output_key, self.output_spec = self._resolve(
            self._signature_function())

    def _resolve(self, function):
        """(columns per input, output key, output spec) for the signature `function`."""
        specs = function.structured_input_signature[1]
        input_cols = _input_columns(self._input_cols, specs, self.batch_size)
        outputs, output_key = function.structured_outputs, self._output_key
        if output_key is None:
            if len(outputs) != 1:
                raise ValueError(f"Signature {self.signature!r} has several outputs "
                                 f"{sorted(outputs)}: pass output_key= to choose one.")
            output_key = next(iter(outputs))
        elif output_key not in outputs:
            raise ValueError(f"Signature {self.signature!r} has no output {output_key!r}; "
                             f"its outputs are {sorted(outputs)}.")
        spec = outputs[output_key]
        if spec.shape.rank not in (1, 2):
            raise ValueError(
                f"Output {output_key!r} has shape {spec.shape}: a DataFrame column holds one "
                "number ([batch] or [batch, 1]) or one list ([batch, n]) per row.")
        return input_cols, output_key, spec

    def _signature_function(self):
        signatures = getattr(load_cached(self.model_dir), "signatures", None) or {}
        if self.signature not in signatures:
            raise ValueError(f"The SavedModel in {self.model_dir} has no signature "
                             f"{self.signature!r}; it has {sorted(signatures)}.")
        return signatures[self.signature]

    def __call__(self, frames):
        """mapInPandas's function: each pandas DataFrame comes back with the output column."""
        for frame in frames:
            predictions = self.predict_columns(frame)
            frame = frame.copy(deep=False)
            frame[self.output_col] = (list(predictions) if predictions.ndim == 2
                                      else predictions)
            yield frame

    def predict_columns(self, columns):
        """Predictions for a pandas DataFrame (or a dict of column -> values), one per row."""
        function = self._signature_function()  # from this process's cache after the first call
        specs = function.structured_input_signature[1]
        # (resolved again: the model may have been re-saved since, with new input names)
        input_cols, output_key, output_spec = self._resolve(function)
        inputs = {name: _stack(columns, cols, specs[name].dtype.as_numpy_dtype,
                               flat=specs[name].shape.rank == 1)
                  for name, cols in input_cols.items()}
        count = len(next(iter(inputs.values())))
        parts = []
        for start in range(0, count, self.batch_size):
            batch = {name: _padded(array[start:start + self.batch_size], self.batch_size)
                     for name, array in inputs.items()}
            result = function(**{name: EagerTensor(a) for name, a in batch.items()})
            parts.append(result[output_key].numpy()[:min(self.batch_size, count - start)])
        dtype = output_spec.dtype.as_numpy_dtype
        out = np.concatenate(parts) if parts else np.zeros((0,), dtype)
        if out.ndim == 2 and output_spec.shape[1] == 1:
            out = out[:, 0]
        return out

    def output_schema(self, input_schema):
        """`input_schema` (a pyspark StructType) plus the prediction column."""
        try:
            from pyspark.sql import types
        except ImportError:
            raise ImportError("output_schema needs PySpark: " + INSTALL_HINT) from None
        missing = [c for cols in self.input_cols.values() for c in cols
                   if c not in input_schema.names]
        if missing:
            raise ValueError(f"Column(s) {missing} are not in the DataFrame; its columns are "
                             f"{input_schema.names}.")
        if self.output_col in input_schema.names:
            raise ValueError(f"The DataFrame already has a column {self.output_col!r}: choose "
                             "another output_col.")
        element = _spark_type(self.output_spec.dtype.name, types)
        shape = self.output_spec.shape
        column = (types.ArrayType(element, containsNull=False)
                  if shape.rank == 2 and shape[1] != 1 else element)
        return types.StructType(list(input_schema.fields)
                                + [types.StructField(self.output_col, column, nullable=False)])


def _input_columns(input_cols, specs, batch_size):
    """{signature input name: [column, ...]}, checked against the signature's input specs."""
    if isinstance(input_cols, str):
        raise TypeError(f"input_cols must be a list of column names, not the string "
                        f"{input_cols!r}: write [{input_cols!r}].")
    if not isinstance(input_cols, dict):
        if len(specs) != 1:
            raise ValueError(f"The signature has several inputs {sorted(specs)}: pass "
                             "input_cols as a dict {input name: [columns]}.")
        input_cols = {next(iter(specs)): input_cols}
    if set(input_cols) != set(specs):
        raise ValueError(f"input_cols names the inputs {sorted(input_cols)}, but the "
                         f"signature's inputs are {sorted(specs)}.")
    result = {}
    for name, cols in input_cols.items():
        cols = [cols] if isinstance(cols, str) else list(cols)
        shape = specs[name].shape
        if shape.rank not in (1, 2):
            raise ValueError(f"Input {name!r} has shape {shape}: predict_udf feeds numeric "
                             "columns as [batch] or [batch, columns]. Give the model an input "
                             "of that shape (a Reshape layer can restore other shapes).")
        width = shape[1] if shape.rank == 2 else 1
        if width is not None and width != len(cols) or not cols:
            raise ValueError(f"Input {name!r} has shape {shape}: it needs "
                             f"{'one or more' if width is None else width} column(s), got "
                             f"{len(cols)} ({cols}).")
        if shape[0] not in (None, batch_size):
            raise ValueError(f"Input {name!r} takes batches of exactly {shape[0]} rows: "
                             f"pass batch_size={shape[0]}.")
        result[name] = cols
    return result


def _stack(columns, names, dtype, flat):
    """The columns `names` of `columns` as one array: [rows, len(names)], or [rows] if flat."""
    missing = [n for n in names if n not in columns]
    if missing:
        have = list(columns.keys()) if hasattr(columns, "keys") else list(columns)
        raise ValueError(f"Column(s) {missing} are not in this batch of rows; it has {have}.")
    arrays = []
    for name in names:
        values = np.asarray(columns[name])
        if values.dtype == object:  # nulls in an integer column, or Python objects
            raise ValueError(f"Column {name!r} holds {values.dtype} values (nulls in an "
                             "integer column, or values that are not numbers): cast or "
                             "fill it first, e.g. df.na.fill(0, [name]).")
        if values.dtype.kind == "f" and np.isnan(values).any():
            raise ValueError(f"Column {name!r} has {int(np.isnan(values).sum())} null or NaN "
                             "value(s) in this batch: the model would predict NaN for them. "
                             "Drop or fill them first: df.na.drop(subset=[...]) or df.na.fill.")
        arrays.append(values.astype(dtype, copy=False))
    return arrays[0] if flat else np.stack(arrays, axis=1)


def _padded(array, size):
    """`array` with zero rows appended up to `size` rows (every batch then has one shape)."""
    if len(array) == size:
        return array
    padding = np.zeros((size - len(array),) + array.shape[1:], array.dtype)
    return np.concatenate([array, padding])


def _spark_type(dtype_name, types):
    known = {"float32": types.FloatType, "float64": types.DoubleType,
             "int32": types.IntegerType, "int64": types.LongType, "bool": types.BooleanType}
    if dtype_name not in known:
        raise ValueError(f"An output of dtype {dtype_name} has no Spark column type here; "
                         f"cast it in the model to one of {sorted(known)}.")
    return known[dtype_name]()
