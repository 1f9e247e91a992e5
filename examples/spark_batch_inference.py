"""Batch inference with Apache Spark: a minitf SavedModel scores 100,000 rows of a Parquet file.

    python -m pip install -e ".[spark]"        # pyspark, pandas, pyarrow; Spark needs Java 17+
    python examples/spark_batch_inference.py [--rows 100000] [--master "local[2]"]

1. trains a small Keras model (4 features -> 1 number) and exports it as a SavedModel;
2. writes the rows to a Parquet file with pandas;
3. starts Spark on this machine, `local[2]`: one JVM with 2 task slots, whose
   Python worker processes each load the model once and score their partitions;
4. checks Spark's predictions against the same model run here, in one process:
   they must be equal bit for bit.

On a real cluster the scoring code is the same. Start it with
`spark-submit --master yarn|k8s://...|spark://... spark_batch_inference.py`, have
minitf installed on the executors, and put the model where they can read it
(a shared filesystem, or `--archives model.zip#model` and `predict_udf("model", ...)`).
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import minitf as tf  # noqa: E402 - this checkout's minitf, whatever the working directory
from minitf.integrations.spark import predict_udf  # noqa: E402

FEATURES = ["x0", "x1", "x2", "x3"]


def train_and_export(model_dir):
    """A small regression model, y = sin(x0) + x1 * x2 - x3 / 2, trained for a few seconds."""
    tf.keras.utils.set_random_seed(0)  # Python's, NumPy's and minitf's seeds: the same model
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4096, 4)).astype("float32")
    y = (np.sin(x[:, 0]) + x[:, 1] * x[:, 2] - x[:, 3] / 2).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input((4,)),
                                 tf.keras.layers.Dense(32, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    history = model.fit(x, y, batch_size=128, epochs=5, verbose=0)
    model.export(model_dir, verbose=False)
    return history.history["loss"][-1]


def write_rows(path, count):
    """`count` rows of an id and 4 float features, as Parquet (row groups of 25,000 rows)."""
    import pandas as pd
    x = np.random.default_rng(1).normal(size=(count, 4)).astype("float32")
    frame = pd.DataFrame({"id": np.arange(count)} | {n: x[:, i] for i, n in enumerate(FEATURES)})
    frame.to_parquet(path, row_group_size=25_000)
    return frame


def start_spark(master):
    from pyspark.sql import SparkSession
    # Spark starts its Python workers as new processes: the same Python as here, and
    # this checkout's minitf on their path (unnecessary once minitf is pip-installed).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.path.dirname(os.path.dirname(os.path.abspath(tf.__file__))),
                    os.environ.get("PYTHONPATH")) if p)
    spark = (SparkSession.builder.master(master).appName("minitf-batch-inference")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", "1g")
             .config("spark.sql.shuffle.partitions", "2")
             # Spark cuts a Parquet file into partitions of at most this many bytes (at
             # row-group boundaries; default 128 MB). Our 25,000-row groups are ~740 KB:
             # 100,000 rows become 4 partitions, 2 for each task slot of local[2].
             .config("spark.sql.files.maxPartitionBytes", "768k")
             .config("spark.python.worker.reuse", "true")         # the default: workers stay
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def score_with_spark(spark, model_dir, rows_path):
    """The Spark code a learner writes: read, score with mapInPandas, collect."""
    df = spark.read.parquet(rows_path)
    score = predict_udf(model_dir, input_cols=FEATURES, output_col="prediction")
    scored = df.mapInPandas(score, schema=score.output_schema(df.schema))
    return scored.toPandas(), df.rdd.getNumPartitions()


def check(result, rows, model_dir):
    """(Spark's predictions == this process's, exactly?, largest difference to one call)."""
    score = predict_udf(model_dir, input_cols=FEATURES, output_col="prediction")
    here = score.predict_columns(rows)           # the same model, in this one process
    result = result.sort_values("id")
    equal = (result["id"].to_numpy() == rows["id"].to_numpy()).all() and np.array_equal(
        result["prediction"].to_numpy(), here)
    (input_name,) = score.input_cols               # the signature's input: keras_tensor...
    signature = tf.saved_model.load(model_dir).signatures["serving_default"]
    outputs = signature(**{input_name: tf.constant(rows[FEATURES].to_numpy())})
    one_call = outputs[score.output_key].numpy()[:, 0]
    return bool(equal), float(np.abs(one_call - here).max())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--workdir", default=None, help="where the model and rows go "
                        "(default: a new temporary directory)")
    args = parser.parse_args()
    workdir = args.workdir or tempfile.mkdtemp(prefix="minitf-spark-")
    model_dir = os.path.join(workdir, "model")
    rows_path = os.path.join(workdir, "rows.parquet")

    loss = train_and_export(model_dir)
    print(f"model trained (final loss {loss:.4f}) and exported to {model_dir}")
    rows = write_rows(rows_path, args.rows)
    print(f"{len(rows):,} rows written to {rows_path}")

    started = time.perf_counter()
    spark = start_spark(args.master)
    print(f"Spark {spark.version} started on {args.master} in "
          f"{time.perf_counter() - started:.1f} s")
    try:
        started = time.perf_counter()
        result, partitions = score_with_spark(spark, model_dir, rows_path)
        seconds = time.perf_counter() - started
    finally:
        spark.stop()
    print(f"scored {len(result):,} rows in {partitions} partitions in {seconds:.1f} s "
          f"({len(result) / seconds:,.0f} rows/s; the workers' start and model loads, "
          "and collecting to the driver, included)")
    equal, difference = check(result, rows, model_dir)
    print(f"Spark's predictions equal the single-process ones exactly: {equal}")
    print(f"largest difference to one call over all rows at once: {difference:.3g} "
          "(BLAS may round other batch sizes differently)")
    print(result.sort_values("id").head(3).to_string(index=False))
    if not equal:
        sys.exit("FAILED: Spark's predictions differ from the single-process ones")


if __name__ == "__main__":
    main()
