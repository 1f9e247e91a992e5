"""minitf.integrations.spark: a SavedModel scores Spark DataFrames, loaded once per process.

The first tests need only NumPy (and pandas where they say so); the last ones
start a real local Spark session, `local[2]`: one JVM with two task slots whose
Python workers are the "executor processes" that each load the model once.
"""
import importlib.util
import os
import pickle
import subprocess
import sys
import time

import numpy as np
import pytest

import minitf as tf
from minitf.integrations import spark as tfspark
from spark_support import REPO, local_session, require

FEATURES = ["x0", "x1", "x2", "x3"]


def small_model(seed=0):
    tf.keras.utils.set_random_seed(seed)
    # A named Input: the signature's argument is then "features" whatever other tests
    # made before (unnamed inputs are keras_tensor, keras_tensor_1, ... per process).
    return tf.keras.Sequential([tf.keras.Input((4,), name="features"),
                                tf.keras.layers.Dense(16, "relu"), tf.keras.layers.Dense(1)])


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("spark") / "model")
    small_model().export(path, verbose=False)
    return path


def rows(count, seed=0):
    x = np.random.default_rng(seed).normal(size=(count, 4)).astype("float32")
    return {"id": np.arange(count, dtype="int64")} | {n: x[:, i] for i, n in enumerate(FEATURES)}


def one_call(model_dir, columns):
    """The plain way: the serving signature called once on all rows."""
    x = np.stack([columns[n] for n in FEATURES], axis=1)
    signature = tf.saved_model.load(model_dir).signatures["serving_default"]
    return signature(features=tf.constant(x))["output_0"].numpy()[:, 0]


# --- without Spark ---------------------------------------------------------------------------

def test_predictions_are_the_models(model_dir):
    columns = rows(300)
    score = tfspark.predict_udf(model_dir, FEATURES, batch_size=64)
    predictions = score.predict_columns(columns)
    assert predictions.shape == (300,) and predictions.dtype == np.float32
    np.testing.assert_allclose(predictions, one_call(model_dir, columns), rtol=1e-5, atol=1e-6)


def test_a_rows_prediction_does_not_depend_on_where_batches_cut(model_dir):
    # Spark cuts rows into partitions and Arrow batches wherever it likes; a row's
    # prediction must be the same bits whichever slice of rows it arrives in.
    columns = rows(1000, seed=1)
    score = tfspark.predict_udf(model_dir, FEATURES, batch_size=128)
    whole = score.predict_columns(columns)
    for cuts in ([1, 999], [7, 300, 693], [500, 1, 499]):
        bounds = np.cumsum([0] + cuts)
        parts = [score.predict_columns({k: v[a:b] for k, v in columns.items()})
                 for a, b in zip(bounds[:-1], bounds[1:])]
        assert np.array_equal(np.concatenate(parts), whole), cuts


def test_without_padding_one_row_can_round_differently(model_dir):
    # Why predict_udf pads: one-row matmuls take another BLAS path. Shown, not required --
    # if this BLAS rounds identically, the test still checks the padded path agrees.
    columns = rows(2000, seed=2)
    signature = tf.saved_model.load(model_dir).signatures["serving_default"]
    x = np.stack([columns[n] for n in FEATURES], axis=1)
    singles = np.concatenate([signature(features=tf.constant(x[i:i + 1]))["output_0"]
                              .numpy()[:, 0] for i in range(50)])
    score = tfspark.predict_udf(model_dir, FEATURES, batch_size=256)
    padded = score.predict_columns({k: v[:50] for k, v in columns.items()})
    np.testing.assert_allclose(singles, padded, rtol=1e-5, atol=1e-6)
    first_50 = score.predict_columns(columns)[:50]
    assert np.array_equal(padded, first_50)


def test_loaded_once_per_process_and_again_after_a_new_save(tmp_path):
    path = str(tmp_path / "model")
    small_model(seed=1).export(path, verbose=False)
    assert tfspark.loads_in_this_process(path) == 0
    score = tfspark.predict_udf(path, FEATURES, batch_size=8)   # checks columns: one load
    for _ in range(5):
        score.predict_columns(rows(20))
    assert tfspark.loads_in_this_process(path) == 1
    assert tfspark.load_cached(path) is tfspark.load_cached(path)
    before = score.predict_columns(rows(20))
    time.sleep(0.01)  # a new mtime for saved_model.json, even on coarse clocks
    small_model(seed=2).export(path, verbose=False)
    after = score.predict_columns(rows(20))
    assert tfspark.loads_in_this_process(path) == 2
    assert not np.array_equal(before, after)


def test_the_function_spark_pickles_holds_a_path_not_a_model(model_dir):
    score = tfspark.predict_udf(model_dir, FEATURES, output_col="p")
    data = pickle.dumps(score)
    assert len(data) < 1000
    again = pickle.loads(data)
    assert (again.model_dir, list(again.input_cols.values()), again.output_col) == (
        os.path.abspath(model_dir), [FEATURES], "p")


def test_several_inputs_a_flat_input_and_a_vector_output(tmp_path):
    a = tf.keras.Input((2,), name="a")
    b = tf.keras.Input((1,), name="b")
    out = tf.keras.layers.Dense(3, kernel_initializer="ones")(tf.keras.layers.Concatenate()([a, b]))
    path = str(tmp_path / "two")
    tf.keras.Model([a, b], out).export(path, verbose=False)
    score = tfspark.predict_udf(path, {"a": ["p", "q"], "b": ["r"]}, batch_size=2)
    got = score.predict_columns({"p": np.array([1.0, 2.0, 3.0]), "q": np.array([1.0, 0.0, 0.0]),
                                 "r": np.array([0.5, 0.5, 0.5])})
    assert got.shape == (3, 3)
    np.testing.assert_array_equal(got, [[2.5] * 3, [2.5] * 3, [3.5] * 3])

    module = tf.Module()
    module.f = tf.function(lambda x: {"y": 2.0 * x},
                           input_signature=[tf.TensorSpec([None], tf.float32, "x")])
    flat = str(tmp_path / "flat")
    tf.saved_model.save(module, flat)
    score = tfspark.predict_udf(flat, ["v"], batch_size=4)
    np.testing.assert_array_equal(score.predict_columns({"v": np.arange(5.0)}),
                                  np.arange(5.0, dtype="float32") * 2)


def test_mapinpandas_function_adds_the_column(model_dir):
    require("pandas")
    import pandas as pd
    frames = [pd.DataFrame(rows(5, seed=s)) for s in range(3)]
    score = tfspark.predict_udf(model_dir, FEATURES, output_col="prediction", batch_size=4)
    out = list(score(iter(frames)))
    assert [list(f.columns) for f in out] == [["id", *FEATURES, "prediction"]] * 3
    for frame, scored in zip(frames, out):
        assert scored["prediction"].dtype == np.float32
        np.testing.assert_array_equal(scored["prediction"], score.predict_columns(frame))
        assert "prediction" not in frame  # the input batch is not changed


# --- bad input: errors that say what to do --------------------------------------------------

def test_missing_model_dir(tmp_path):
    with pytest.raises(OSError, match="SavedModel file does not exist at"):
        tfspark.predict_udf(str(tmp_path / "nowhere"), FEATURES)


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(input_cols=["x0", "x1"]), ValueError, r"needs 4 column\(s\), got 2"),
    (dict(input_cols="x0"), TypeError, r"not the string 'x0': write \['x0'\]"),
    (dict(input_cols={"other": FEATURES}), ValueError, "signature's inputs are"),
    (dict(input_cols=FEATURES, signature="predict"), ValueError,
     r"no signature 'predict'; it has \['serve', 'serving_default'\]"),
    (dict(input_cols=FEATURES, output_key="logits"), ValueError, "no output 'logits'"),
    (dict(input_cols=FEATURES, batch_size=0), ValueError, "batch_size must be a positive"),
])
def test_wrong_arguments_fail_on_the_driver(model_dir, kwargs, error, text):
    with pytest.raises(error, match=text):
        tfspark.predict_udf(model_dir, **kwargs)


def test_input_shapes_the_columns_cannot_fill(tmp_path):
    module = tf.Module()
    module.image = tf.function(lambda x: {"y": tf.reduce_sum(x, axis=[1, 2])},
                               input_signature=[tf.TensorSpec([None, 2, 2], tf.float32, "x")])
    tf.saved_model.save(module, str(tmp_path / "image"))
    with pytest.raises(ValueError, match=r"Input 'x' has shape \(None, 2, 2\): predict_udf "
                                         r"feeds numeric columns as \[batch\]"):
        tfspark.predict_udf(str(tmp_path / "image"), ["a", "b", "c", "d"])

    fixed = tf.Module()      # a signature that takes batches of exactly 8 rows
    fixed.f = tf.function(lambda x: {"y": tf.reduce_sum(x, axis=1)},
                          input_signature=[tf.TensorSpec([8, 2], tf.float32, "x")])
    tf.saved_model.save(fixed, str(tmp_path / "fixed"))
    with pytest.raises(ValueError, match="takes batches of exactly 8 rows: pass batch_size=8"):
        tfspark.predict_udf(str(tmp_path / "fixed"), ["a", "b"])
    score = tfspark.predict_udf(str(tmp_path / "fixed"), ["a", "b"], batch_size=8)
    got = score.predict_columns({"a": np.arange(11.0), "b": np.ones(11)})  # 8 + 3 padded
    np.testing.assert_array_equal(got, np.arange(11.0, dtype="float32") + 1)


def test_a_missing_column_or_a_null_is_named(model_dir):
    score = tfspark.predict_udf(model_dir, FEATURES)
    columns = rows(10)
    with pytest.raises(ValueError, match=r"Column\(s\) \['x3'\] are not in this batch"):
        score.predict_columns({k: v for k, v in columns.items() if k != "x3"})
    columns["x1"] = columns["x1"].copy()
    columns["x1"][[2, 5]] = np.nan
    with pytest.raises(ValueError, match="Column 'x1' has 2 null or NaN value"):
        score.predict_columns(columns)


def test_importing_the_integration_needs_neither_pyspark_nor_pandas(model_dir, monkeypatch):
    code = ("import sys, minitf.integrations.spark; "
            "print(sorted(m for m in ('pyspark', 'pandas', 'pyarrow') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO)
    assert out.stdout.strip() == "[]"
    monkeypatch.setitem(sys.modules, "pyspark", None)      # as if it were not installed
    monkeypatch.setitem(sys.modules, "pyspark.sql", None)
    score = tfspark.predict_udf(model_dir, FEATURES)
    with pytest.raises(ImportError, match=r'output_schema needs PySpark: python -m pip install '
                                          r'"minitf\[spark\]"'):
        score.output_schema(None)


def test_missing_spark_skips_with_the_install_command_unless_ci_requires_it(monkeypatch):
    import spark_support
    monkeypatch.setattr(spark_support, "missing", lambda: "pyspark, java")
    monkeypatch.delenv("MINITF_REQUIRE_SPARK", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r'pip install -e ".\[spark\]".*'
                                                    r"missing: pyspark, java"):
        require()
    monkeypatch.setenv("MINITF_REQUIRE_SPARK", "1")
    with pytest.raises(pytest.fail.Exception, match="MINITF_REQUIRE_SPARK=1 but Spark is not"):
        require()


# --- a real local Spark session ----------------------------------------------------------------

@pytest.fixture(scope="module")
def spark():
    with local_session("local[2]") as session:
        yield session


@pytest.fixture(scope="module")
def parquet_rows(tmp_path_factory):
    require()
    import pandas as pd
    columns = rows(20_000, seed=3)
    path = str(tmp_path_factory.mktemp("spark") / "rows.parquet")
    pd.DataFrame(columns).to_parquet(path, row_group_size=2_500)
    return path, columns


def test_two_executors_give_the_single_process_predictions_exactly(spark, model_dir,
                                                                   parquet_rows):
    path, columns = parquet_rows
    df = spark.read.parquet(path).repartition(4)
    score = tfspark.predict_udf(model_dir, FEATURES, output_col="prediction", batch_size=512)
    schema = score.output_schema(df.schema)
    assert schema.simpleString() == ("struct<id:bigint,x0:float,x1:float,x2:float,x3:float,"
                                     "prediction:float>")
    scored = df.mapInPandas(score, schema=schema)
    assert scored.rdd.getNumPartitions() == 4
    result = scored.toPandas().sort_values("id")
    assert list(result["id"]) == list(range(20_000))
    expected = score.predict_columns(columns)       # the same model, in this one process
    assert np.array_equal(result["prediction"].to_numpy(), expected)
    np.testing.assert_allclose(expected, one_call(model_dir, columns), rtol=1e-5, atol=1e-6)


def _load_report(score, path):
    """A mapInPandas function: for every batch, the worker's pid and its model loads so far."""
    import pandas as pd

    def report(frames):
        for frame in frames:
            score.predict_columns(frame)
            yield pd.DataFrame({"pid": [os.getpid()], "rows": [len(frame)],
                                "loads": [tfspark.loads_in_this_process(path)]})
    return report


def test_the_model_is_loaded_once_per_executor_process(spark, tmp_path):
    path = str(tmp_path / "fresh")          # a path no worker has loaded yet
    small_model(seed=4).export(path, verbose=False)
    score = tfspark.predict_udf(path, FEATURES, batch_size=100)
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "250")
    try:
        df = spark.range(0, 8_000, numPartitions=8).selectExpr(
            "id", *[f"cast(sin(id * {i + 1}) as float) as {n}" for i, n in enumerate(FEATURES)])
        report = df.mapInPandas(_load_report(score, path),
                                schema="pid long, rows long, loads long").toPandas()
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    assert report["rows"].sum() == 8_000
    assert len(report) >= 32                 # 8 partitions of 1,000 rows, batches of <= 250
    pids = set(report["pid"])
    assert 1 <= len(pids) <= 4 and len(pids) < len(report)
    assert set(report["loads"]) == {1}, report.groupby("pid")["loads"].max()
    assert os.getpid() not in pids           # the driver's own load was not the workers'


def test_errors_inside_a_task_reach_the_driver_with_their_sentence(spark, model_dir):
    df = spark.range(0, 10).selectExpr("id", "cast(id as float) as x0", "cast(id as float) as x1",
                                       "cast(id as float) as x2", "cast(null as float) as x3")
    score = tfspark.predict_udf(model_dir, FEATURES)
    from pyspark.errors import PythonException
    with pytest.raises(PythonException, match=r"ValueError: Column 'x3' has \d+ null or NaN "
                                              r"value\(s\) in this batch: the model would"):
        df.mapInPandas(score, schema=score.output_schema(df.schema)).collect()


def test_output_schema_checks_columns_before_spark_runs_anything(spark, model_dir):
    df = spark.range(0, 3).selectExpr("id", "cast(id as float) as x0")
    score = tfspark.predict_udf(model_dir, FEATURES)
    with pytest.raises(ValueError, match=r"Column\(s\) \['x1', 'x2', 'x3'\] are not in the "
                                         r"DataFrame; its columns are \['id', 'x0'\]"):
        score.output_schema(df.schema)
    taken = tfspark.predict_udf(model_dir, FEATURES, output_col="id")
    with pytest.raises(ValueError, match="already has a column 'id'"):
        taken.output_schema(spark.range(1).selectExpr("id", *[f"1.0f as {n}" for n in FEATURES])
                            .schema)


def test_the_example_scores_its_rows_exactly(spark, tmp_path):
    # examples/spark_batch_inference.py's own steps, on fewer rows and this module's session.
    spec = importlib.util.spec_from_file_location(
        "spark_batch_inference", os.path.join(os.path.dirname(__file__), "..", "..",
                                              "examples", "spark_batch_inference.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    model_dir, rows_path = str(tmp_path / "model"), str(tmp_path / "rows.parquet")
    assert example.train_and_export(model_dir) < 0.5        # it learned something
    rows = example.write_rows(rows_path, 3_000)
    result, partitions = example.score_with_spark(spark, model_dir, rows_path)
    assert len(result) == 3_000 and partitions >= 1
    equal, difference = example.check(result, rows, model_dir)
    assert equal and difference < 1e-5
    result["prediction"] = result["prediction"] + 1e-3      # and check() can say False
    assert not example.check(result, rows, model_dir)[0]
