"""Rows per second of Spark batch inference (minitf.integrations.spark) against a plain loop.

    python benchmarks/spark_inference.py [--rows 100000] [--rounds 3] [--batch-size 1024]

The model is Dense(32, relu) -> Dense(1) on 4 float features, exported with
`model.export`; the rows are a Parquet file written with pandas (row groups of
25,000 rows). Three ways score the same rows:

* plain: one Python process reads the Parquet file with pandas and calls the
  serving signature on batches of `--batch-size` rows (no Spark);
* local[1] and local[2]: a SparkSession on this machine with 1 or 2 task slots
  reads the file in 4 partitions (`spark.sql.files.maxPartitionBytes` a quarter of its size)
  and runs `df.mapInPandas(predict_udf(...))`, written to Spark's "noop" sink so
  every row is scored and nothing is collected.

Each Spark master lives in a process of its own, started once (Spark's start-up
and the first job, which forks the Python workers and loads the model, are
reported apart, not timed); then the three take turns, `--rounds` times, and
the median wall time of each is reported, so a burst of load from other
programs on a shared machine hits all three alike. Next to it: the CPU time of
the plain loop, and the CPU time Spark's Python workers spent inside
`predict_udf`'s function (summed with a Spark accumulator) -- the rest of a
Spark job's time is Spark's own: scheduling tasks, reading Parquet in the JVM
and moving the rows to Python and back through Arrow. Every process, Spark's
Python workers included, uses one BLAS thread (as benchmarks/run.py): local[2]
then uses at most two cores, the plain loop one.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402 - after the thread settings

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
import minitf as tf  # noqa: E402 - the checkout's minitf, whatever the working directory
from minitf.integrations.spark import predict_udf  # noqa: E402

FEATURES = ["x0", "x1", "x2", "x3"]


def prepare(workdir, rows):
    import pandas as pd
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(32, "relu"),
                                 tf.keras.layers.Dense(1)])
    model.export(os.path.join(workdir, "model"), verbose=False)
    x = np.random.default_rng(0).normal(size=(rows, 4)).astype("float32")
    pd.DataFrame({"id": np.arange(rows)} | {n: x[:, i] for i, n in enumerate(FEATURES)}
                 ).to_parquet(os.path.join(workdir, "rows.parquet"), row_group_size=25_000)


def plain_loop(workdir, batch_size):
    """(Wall seconds, CPU seconds) for one process to read the rows and score them in batches."""
    import pandas as pd
    started, cpu = time.perf_counter(), time.process_time()
    signature = tf.saved_model.load(os.path.join(workdir, "model")).signatures["serving_default"]
    (name,) = signature.structured_input_signature[1]
    x = pd.read_parquet(os.path.join(workdir, "rows.parquet"))[FEATURES].to_numpy()
    for start in range(0, len(x), batch_size):
        out = signature(**{name: tf.constant(x[start:start + batch_size])})
        next(iter(out.values())).numpy()
    return time.perf_counter() - started, time.process_time() - cpu


def child(master, workdir, batch_size):
    """One SparkSession: report start-up, then time one scoring job per line read on stdin."""
    from pyspark.sql import SparkSession
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, os.environ.get("PYTHONPATH"))
                                               if p)
    started = time.perf_counter()
    spark = (SparkSession.builder.master(master).appName("minitf-benchmark")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", "1g")
             .config("spark.sql.files.maxPartitionBytes",
                     str(os.path.getsize(os.path.join(workdir, "rows.parquet")) // 4 + 1))
             .config("spark.python.worker.reuse", "true").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    startup = time.perf_counter() - started
    df = spark.read.parquet(os.path.join(workdir, "rows.parquet"))
    score = predict_udf(os.path.join(workdir, "model"), FEATURES, batch_size=batch_size)
    model_cpu = spark.sparkContext.accumulator(0.0)  # CPU seconds the workers spend in score

    def timed_score(frames):
        for frame in frames:
            began = time.process_time()
            (scored_frame,) = score(iter([frame]))
            model_cpu.add(time.process_time() - began)
            yield scored_frame

    scored = df.mapInPandas(timed_score, schema=score.output_schema(df.schema))

    def job():
        cpu_before, began = model_cpu.value, time.perf_counter()
        scored.write.format("noop").mode("overwrite").save()
        return time.perf_counter() - began, model_cpu.value - cpu_before

    first, _ = job()  # forks the Python workers; each loads the model
    print(json.dumps({"startup": startup, "first_job": first,
                      "partitions": df.rdd.getNumPartitions()}), flush=True)
    for _ in sys.stdin:
        seconds, cpu = job()
        print(json.dumps({"seconds": seconds, "model_cpu": cpu}), flush=True)
    spark.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.workdir, args.batch_size)

    workdir = tempfile.mkdtemp(prefix="minitf-spark-bench-")
    prepare(workdir, args.rows)
    masters = ["local[1]", "local[2]"]
    children, setup = {}, {}
    for master in masters:
        children[master] = subprocess.Popen(
            [sys.executable, __file__, "--child", master, "--workdir", workdir,
             "--batch-size", str(args.batch_size)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        setup[master] = json.loads(children[master].stdout.readline())
    times = {"plain loop": [], **{m: [] for m in masters}}
    cpu = {name: [] for name in times}
    try:
        for _ in range(args.rounds):
            seconds, seconds_cpu = plain_loop(workdir, args.batch_size)
            times["plain loop"].append(seconds)
            cpu["plain loop"].append(seconds_cpu)
            for master in masters:
                children[master].stdin.write("run\n")
                children[master].stdin.flush()
                answer = json.loads(children[master].stdout.readline())
                times[master].append(answer["seconds"])
                cpu[master].append(answer["model_cpu"])
    finally:
        for process in children.values():
            process.stdin.close()
            process.wait()
    print(f"{args.rows:,} rows, batches of {args.batch_size}, median of {args.rounds} rounds "
          f"taking turns (wall time; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} CPUs)")
    plain = statistics.median(times["plain loop"])
    for name, seconds in times.items():
        median = statistics.median(seconds)
        print(f"  {name:10} {args.rows / median:10,.0f} rows/s   {plain / median:5.2f}x the "
              f"plain loop   {median:6.2f} s, of which {statistics.median(cpu[name]):5.2f} s "
              f"CPU {'of the whole loop' if name not in setup else 'in the workers scoring'}")
    for name, info in setup.items():
        print(f"  {name}: {info['partitions']} partitions; Spark started in "
              f"{info['startup']:.1f} s, first job (forks the workers, loads the model) "
              f"{info['first_job']:.1f} s -- neither timed above")


if __name__ == "__main__":
    main()
