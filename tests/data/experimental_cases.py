"""tf.data cases written once for both engines (tests/data/test_data_experimental.py).

`results(tf)` runs every case with the given `tf` module (minitf there, TensorFlow 2.21
when the test runs this file under real TF) and gives {case: a JSON-friendly result}:
element values, specs and reprs, cardinalities, error classes and messages. Only
deterministic cases: random draws differ between the engines (minitf is not Philox).
"""
import json
import os
import shutil
import sqlite3
import tempfile

import numpy as np


def plain(value):
    """Elements as JSON: arrays as lists, bytes as str, dicts and tuples kept apart."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.generic):
        return value.item()
    return value


def vals(ds, n=None):
    ds = ds if n is None else ds.take(n)
    return plain(list(ds.as_numpy_iterator()))


def failure(fn, whole=False):
    """(error class, the first line of its message without TF's function-node prefix)."""
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the class is the result
        if whole:
            return [type(exc).__name__, str(exc)]
        text = str(exc).split("}}")[-1].strip()
        return [type(exc).__name__, text.split(" [Op:")[0].splitlines()[0]]
    return None


def described(ds, n=12):
    return [repr(ds), int(ds.cardinality()), vals(ds, n)]


def sources(tf):
    D = tf.data.Dataset
    a = D.from_tensor_slices(["a", "b", "c"])
    b = D.from_tensor_slices(["x", "y"])
    choice = D.from_tensor_slices(tf.constant([0, 1, 1, 1, 0, 0], tf.int64))
    E = tf.data.experimental
    return {
        "counter": described(D.counter(2, 3), 4),
        "Counter": described(E.Counter(1, 2, tf.int32), 3),
        "random_spec": [repr(D.random(seed=1).element_spec), int(D.random(seed=1).cardinality()),
                        all(0 <= v < 2 ** 32 for v in vals(D.random(seed=1), 20))],
        "RandomDataset": repr(E.RandomDataset(seed=1)),
        "choose_stop": described(D.choose_from_datasets([a, b], choice)),
        "choose_no_stop": described(D.choose_from_datasets([a, b], choice,
                                                            stop_on_empty_dataset=False)),
        "choose_experimental": vals(E.choose_from_datasets([a, b], choice)),
        "choose_bad_index": failure(lambda: list(D.choose_from_datasets(
            [a], D.from_tensor_slices(tf.constant([0, 3], tf.int64))))),
        "choose_bad_type": failure(lambda: D.choose_from_datasets([a], D.range(2).map(
            lambda x: tf.cast(x, tf.int32)))),
        "sample_zero_weight": vals(D.sample_from_datasets([D.range(2), D.range(5, 6)],
                                                          weights=[0.0, 1.0], seed=1)),
        "sample_all": sorted(vals(D.sample_from_datasets([D.range(5), D.range(100, 103)],
                                                         seed=3))),
        "sample_one": repr(D.sample_from_datasets([D.range(2)])),
        "sample_repr": repr(D.sample_from_datasets([D.range(2), D.range(3)])),
        "sample_bad_weights": failure(lambda: D.sample_from_datasets([D.range(2)],
                                                                     weights=[0.5, 0.5])),
        "sample_bad_specs": failure(lambda: D.sample_from_datasets(
            [D.range(2), D.from_tensors(1.0)])),
        "sample_empty": failure(lambda: D.sample_from_datasets([])),
        "from_list": described(E.from_list([(1, "a"), (2, "b")])),
    }


def grouping(tf):
    D = tf.data.Dataset
    E = tf.data.experimental
    keys = D.from_tensor_slices(tf.constant([5, -1, 2, 5, 7, -1], tf.int64))
    count = E.Reducer(lambda k: np.int64(0), lambda s, x: s + 1, lambda s: s)
    pair = E.Reducer(lambda k: (k, np.int64(0)), lambda s, x: (s[0], s[1] + x),
                     lambda k, s: {"k": k, "s": s})
    lengths = D.from_generator(lambda: ([1] * n for n in [1, 5, 2, 7, 3, 4, 8]),
                               output_signature=tf.TensorSpec([None], tf.int32))
    return {
        "gbw_sorted_flush": described(keys.group_by_window(
            lambda x: x, lambda k, w: w.batch(5), window_size=5)),
        "gbw_size_func": vals(D.range(10).group_by_window(
            lambda x: x % 3, lambda k, w: w.batch(9), window_size_func=lambda k: k + 1)),
        "gbw_experimental": vals(D.range(6).apply(E.group_by_window(
            lambda x: x % 2, lambda k, w: w.batch(2), window_size=2))),
        "gbw_no_size": failure(lambda: keys.group_by_window(lambda x: x, lambda k, w: w)),
        "gbw_zero": failure(lambda: list(keys.group_by_window(
            lambda x: x, lambda k, w: w.batch(2), window_size=0))),
        "gbr_count": described(keys.apply(E.group_by_reducer(lambda x: x, count))),
        "gbr_dict": [repr(keys.apply(E.group_by_reducer(lambda x: x, pair)).element_spec),
                     vals(keys.apply(E.group_by_reducer(lambda x: x, pair)))],
        "bucket": described(lengths.bucket_by_sequence_length(
            lambda x: tf.shape(x)[0], [3, 6], [2, 2, 2])),
        "bucket_to_boundary": described(lengths.take(6).bucket_by_sequence_length(
            lambda x: tf.shape(x)[0], [3, 6, 9], [2, 2, 2, 2], pad_to_bucket_boundary=True,
            padding_values=7)),
        # the text only: TF wraps the assertion in an InternalError (an error inside the
        # group_by_window function), minitf raises the assertion's InvalidArgumentError
        "bucket_past_boundary": "must have length < max(bucket_boundaries)" in str(failure(
            lambda: list(lengths.bucket_by_sequence_length(
                lambda x: tf.shape(x)[0], [3, 6], [2, 2, 2], pad_to_bucket_boundary=True)),
            whole=True)),
        "bucket_drop": vals(lengths.bucket_by_sequence_length(
            lambda x: tf.shape(x)[0], [3, 6], [2, 2, 2], drop_remainder=True)),
        "bucket_experimental_no_padding": vals(D.range(5).apply(E.bucket_by_sequence_length(
            lambda x: tf.cast(x, tf.int32), [2], [2, 3], no_padding=True))),
        "unique": described(D.from_tensor_slices([1, 3, 1, 2, 3, 5]).unique()),
        "unique_strings": vals(D.from_tensor_slices(["b", "a", "b"]).apply(E.unique())),
        "unique_float": failure(lambda: D.from_tensor_slices([1.5]).unique()),
    }


def checks(tf):
    D = tf.data.Dataset
    E = tf.data.experimental
    filtered = D.range(5).filter(lambda x: x < 3)
    bad = D.from_tensor_slices([1., 0., 2.]).map(
        lambda x: tf.debugging.check_numerics(1. / x, "bad"))
    sparse = D.from_tensor_slices([[1, 0], [0, 0], [2, 3]]).map(
        lambda x: x[:tf.reduce_sum(tf.cast(x > 0, tf.int32))]).sparse_batch(2, [3])
    return {
        "ignore_errors": described(bad.ignore_errors()),
        "ignore_errors_experimental": vals(bad.apply(E.ignore_errors())),
        "assert_cardinality": described(filtered.apply(E.assert_cardinality(3))),
        "assert_too_few": failure(lambda: list(filtered.apply(E.assert_cardinality(5)))),
        "assert_too_many": failure(lambda: list(D.range(5).filter(lambda x: True).apply(
            E.assert_cardinality(3)))),
        "at": plain(E.at(D.range(10, 20), 3)),
        "at_out_of_range": failure(lambda: E.at(D.range(5), 7)),
        "pad_to_cardinality": described(D.from_tensor_slices({"a": [1, 2]}).apply(
            E.pad_to_cardinality(4))),
        "rebatch": described(D.range(8).batch(4).rebatch(3)),
        "rebatch_list": vals(D.range(8).batch(4).rebatch([1, 3])),
        "single": plain(D.from_tensors(5).get_single_element()),
        "single_experimental": plain(E.get_single_element(D.range(7, 8))),
        "single_many": failure(lambda: D.range(2).get_single_element()),
        "single_none": failure(lambda: D.range(0).get_single_element()),
        "sparse_batch": [repr(sparse.element_spec), [
            plain([s.indices, s.values, s.dense_shape]) for s in sparse]],
        "dense_to_sparse_batch": plain(next(iter(D.from_tensors([7, 8]).apply(
            E.dense_to_sparse_batch(1, [3])))).dense_shape),
    }


def wrappers(tf):
    D = tf.data.Dataset
    E = tf.data.experimental
    return {
        "map_and_batch": described(D.range(7).apply(E.map_and_batch(lambda x: x * 2, 3))),
        "shuffle_and_repeat": [repr(D.range(3).apply(E.shuffle_and_repeat(3, 2, 1))),
                               int(D.range(3).apply(E.shuffle_and_repeat(3, 2)).cardinality()),
                               sorted(vals(D.range(3).apply(E.shuffle_and_repeat(3, 2, 1))))],
        "parallel_interleave": vals(D.range(1, 3).apply(E.parallel_interleave(
            lambda x: D.from_tensors(x).repeat(3), cycle_length=2))),
        "scan": described(D.range(4).apply(E.scan(np.int64(0), lambda s, x: (s + x, s)))),
        "take_while": vals(D.range(5).apply(E.take_while(lambda x: x < 2))),
        "unbatch": vals(D.from_tensors([1, 2]).apply(E.unbatch())),
        "enumerate_dataset": described(D.range(3).apply(E.enumerate_dataset(5))),
        "copy_to_device": described(D.range(3).apply(E.copy_to_device("/cpu:0"))),
        "prefetch_to_device": vals(D.range(3).apply(E.prefetch_to_device("/cpu:0"))),
        "get_structure": [repr(E.get_structure(D.range(2))),
                          repr(E.get_structure(iter(D.range(2).batch(2))))],
        "get_structure_bad": failure(lambda: E.get_structure(3)),
        "shard_hint": E.SHARD_HINT,
        "autotune": [E.AUTOTUNE, E.INFINITE_CARDINALITY, E.UNKNOWN_CARDINALITY],
    }


def options_and_iterators(tf):
    D = tf.data.Dataset
    E = tf.data.experimental
    o = tf.data.Options()
    out = {"defaults": [o.deterministic, o.experimental_slack, o.dataset_name,
                        repr(o.experimental_distribute.auto_shard_policy),
                        o.threading.private_threadpool_size, o.autotune.enabled,
                        o.experimental_optimization.map_fusion,
                        o.experimental_external_state_policy, o.experimental_service.pinned],
           "type_error": failure(lambda: setattr(tf.data.Options(), "deterministic", 1)),
           "unknown_field": failure(lambda: setattr(tf.data.Options(), "foo", 1)),
           "enums": [[repr(p) for p in E.AutoShardPolicy], [repr(p) for p in
                                                             E.ExternalStatePolicy],
                     [repr(p) for p in E.AutotuneAlgorithm]]}
    o.deterministic = False
    o.threading.private_threadpool_size = 2
    o.experimental_optimization.map_and_batch_fusion = True
    o2 = tf.data.Options()
    o2.experimental_distribute.auto_shard_policy = E.AutoShardPolicy.DATA
    o2.autotune.cpu_budget = 1
    ds = D.range(3).with_options(o).map(lambda x: x + 1).with_options(o2)
    got = ds.options()
    out["merged"] = [repr(ds.with_options(o)), vals(ds), got.deterministic,
                     got.threading.private_threadpool_size,
                     got.experimental_optimization.map_and_batch_fusion,
                     repr(got.experimental_distribute.auto_shard_policy),
                     got.autotune.cpu_budget, D.range(2).options() == tf.data.Options(),
                     got == tf.data.Options(), o.merge(o2).autotune.cpu_budget,
                     o.experimental_deterministic, o.experimental_threading is o.threading]
    out["frozen"] = failure(lambda: setattr(ds.options(), "deterministic", True))
    o.threading.private_threadpool_size = 5  # after with_options: changes nothing there
    out["copied"] = ds.options().threading.private_threadpool_size
    out["threading_class"] = type(tf.data.ThreadingOptions()).__name__
    it = iter(D.range(1))
    first, second = it.get_next_as_optional(), it.get_next_as_optional()
    out["iterator"] = [isinstance(it, tf.data.Iterator), repr(it.element_spec),
                       plain([first.has_value(), first.get_value(), second.has_value()]),
                       repr(first.element_spec), repr(tf.data.IteratorSpec(
                           tf.TensorSpec([], tf.int64))),
                       isinstance(D.range(2).as_numpy_iterator(), tf.data.Iterator),
                       type(D.range(2).as_numpy_iterator()) is tf.data.NumpyIterator,
                       plain(next(D.range(3).as_numpy_iterator()))]
    out["get_next_end"] = failure(lambda: iter(D.range(0)).get_next())
    out["optional_empty"] = failure(lambda: E.Optional.empty(
        tf.TensorSpec([], tf.int32)).get_value())
    out["optional_value"] = plain(E.get_next_as_optional(iter(D.range(4, 5))).get_value())
    out["optional_empty_spec"] = repr(E.Optional.empty(tf.TensorSpec([], tf.int32))
                                      .element_spec)
    return out


def files(tf):
    D = tf.data.Dataset
    E = tf.data.experimental
    folder = tempfile.mkdtemp()
    raw = os.path.join(folder, "records.bin")
    with open(raw, "wb") as f:
        f.write(b"HDR" + b"aabbcc" + b"FT")
    for j in range(2):
        with tf.io.TFRecordWriter(os.path.join(folder, f"ex{j}.tfrecord")) as writer:
            for i in range(4):
                feature = {"x": tf.train.Feature(int64_list=tf.train.Int64List(value=[i + 10 * j])),
                           "y": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 2]))}
                writer.write(tf.train.Example(features=tf.train.Features(
                    feature=feature)).SerializeToString())
    specs = {"x": tf.io.FixedLenFeature([], tf.int64), "y": tf.io.FixedLenFeature([], tf.float32)}
    batched = E.make_batched_features_dataset(os.path.join(folder, "ex*.tfrecord"), 3, specs,
                                              label_key="y", num_epochs=1, shuffle=False)
    out_path = os.path.join(folder, "out.tfrecord")
    E.TFRecordWriter(out_path).write(D.from_tensor_slices(["p", "qr"]))
    saved = os.path.join(folder, "saved")
    D.from_tensor_slices({"n": [1.5, 2.5], "s": ["a", "b"]}).save(saved)
    E.save(D.range(3).batch(2), os.path.join(folder, "saved2"))
    snap = D.range(3).snapshot(os.path.join(folder, "snap"))
    db_path = os.path.join(folder, "db.sqlite")
    db = sqlite3.connect(db_path)
    db.execute("create table t (name text, age integer, h real)")
    db.executemany("insert into t values (?, ?, ?)", [("ann", 30, 1.5), ("bob", 25, None)])
    db.commit()
    db.close()

    def sql(query, types):
        return E.SqlDataset("sqlite", db_path, query, types)
    out = {
        "sql": described(sql("select name, age, h from t", (tf.string, tf.int32, tf.float64))),
        "sql_single": described(sql("select age from t", tf.int64)),
        "sql_conversions": vals(sql("select age, name, h, age, name from t",
                                    (tf.bool, tf.int64, tf.string, tf.string, tf.float64))),
        "sql_float32": failure(lambda: sql("select h from t", tf.float32)),
        "sql_driver": failure(lambda: sql("select age from t", tf.int64).__class__(
            "mysql", db_path, "select 1", tf.int64)),
        "sql_columns": failure(lambda: list(sql("select age, h from t", tf.int64))),
        "sql_bad_query": failure(lambda: list(sql("select nope from t", tf.int64))),
        "fixed_length": described(tf.data.FixedLengthRecordDataset(raw, 2, header_bytes=3,
                                                                   footer_bytes=2)),
        "batched_features": [repr(batched.element_spec), vals(batched)],
        "batched_label_key": failure(lambda: E.make_batched_features_dataset(
            raw, 1, specs, label_key="z")),
        "parse_example_dataset": vals(tf.data.TFRecordDataset(os.path.join(
            folder, "ex0.tfrecord")).batch(4).apply(E.parse_example_dataset(specs))),
        "tfrecord_writer": vals(tf.data.TFRecordDataset(out_path)),
        "tfrecord_writer_bad": failure(lambda: E.TFRecordWriter(out_path).write(D.range(2))),
        "load": [sorted([k, repr(v)] for k, v in D.load(saved).element_spec.items()),
                 int(D.load(saved).cardinality()),
                 vals(D.load(saved))],
        "load_experimental": [repr(E.load(os.path.join(folder, "saved2")).element_spec),
                              vals(E.load(os.path.join(folder, "saved2")))],
        "snapshot": [repr(snap), vals(snap), vals(snap)],
    }
    shutil.rmtree(folder)
    return out


def results(tf):
    out = {}
    for group in (sources, grouping, checks, wrappers, options_and_iterators, files):
        out.update({f"{group.__name__}.{k}": v for k, v in group(tf).items()})
    return out


if __name__ == "__main__":  # under real TF: print the results as JSON
    import tensorflow
    tensorflow.get_logger().setLevel("ERROR")
    print(json.dumps(results(tensorflow)))
