"""tf.data.Options, iterators, Optional, and the tf.data(.experimental) transformations
(sampling, grouping, cardinality checks, save/load, readers).

The first tests need no TF; the last runs experimental_cases.py under real TF 2.21 (one
subprocess) and compares every case: values, specs, reprs, error classes and messages
(minitf's message may add a teaching sentence after TF's).
"""
import json
import os
import warnings

import numpy as np
import pytest

import experimental_cases
import minitf as tf
from real_tf import run_tf

D = tf.data.Dataset
E = tf.data.experimental


def values(ds):
    return experimental_cases.vals(ds)


# --- options --------------------------------------------------------------------------------
def test_options_fields_types_and_merging():
    o = tf.data.Options()
    assert o.deterministic is None and o.threading.private_threadpool_size is None
    assert o.experimental_distribute.auto_shard_policy is E.AutoShardPolicy.AUTO
    with pytest.raises(TypeError, match='Property "deterministic" must be of type'):
        o.deterministic = 1
    with pytest.raises(AttributeError, match="Cannot set the property foo on Options"):
        o.foo = 1
    with pytest.raises(TypeError):
        o.experimental_distribute.auto_shard_policy = 2  # an AutoShardPolicy, not an int
    a, b = tf.data.Options(), tf.data.Options()
    a.deterministic, b.deterministic = True, False
    b.threading.max_intra_op_parallelism = 1
    with pytest.warns(UserWarning, match="Changing the value of option field deterministic"):
        merged = a.merge(b)
    assert merged.deterministic is False and merged.threading.max_intra_op_parallelism == 1
    assert a.deterministic is True  # merging makes a new object
    a.framework_type, b.framework_type = ["keras"], ["jax"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert a.merge(b).framework_type == ["keras", "jax"]


def test_options_travel_through_the_pipeline_and_are_frozen_copies():
    o = tf.data.Options()
    o.autotune.ram_budget = 1024
    ds = D.range(3).with_options(o).map(lambda x: x * 2).batch(2)
    assert ds.options().autotune.ram_budget == 1024
    zipped = D.zip(D.range(2), D.range(2).with_options(o))
    assert zipped.options().autotune.ram_budget == 1024  # from any input
    o.autotune.ram_budget = 7
    assert ds.options().autotune.ram_budget == 1024
    with pytest.raises(ValueError, match="Mutating `tf.data.Options\\(\\)` returned by"):
        ds.options().autotune.ram_budget = 3
    with pytest.raises(TypeError, match="must be a `tf.data.Options`"):
        D.range(2).with_options({"deterministic": True})
    assert values(ds) == [[0, 2], [4]]


def test_options_enums_and_option_classes():
    assert [p.value for p in E.AutoShardPolicy] == [-1, 0, 1, 2, 3]
    assert E.AutoShardPolicy.FILE == 1  # an IntEnum
    assert [p.name for p in E.ExternalStatePolicy] == ["WARN", "IGNORE", "FAIL"]
    assert E.AutotuneAlgorithm.STAGE_BASED.value == 4
    assert isinstance(tf.data.Options().threading, tf.data.ThreadingOptions)
    assert E.ThreadingOptions is tf.data.ThreadingOptions
    for cls in (E.AutotuneOptions, E.DistributeOptions, E.OptimizationOptions,
                E.ServiceOptions):
        assert cls() == cls()
    opt = E.OptimizationOptions()
    opt.map_fusion = True
    assert opt != E.OptimizationOptions()


# --- iterators and Optional ---------------------------------------------------------------
def test_iterator_types_spec_and_optional():
    it = iter(D.range(2))
    assert isinstance(it, tf.data.Iterator)
    spec = tf.data.IteratorSpec.from_value(it)
    assert spec == tf.data.IteratorSpec(tf.TensorSpec([], tf.int64))
    assert spec.is_compatible_with(it) and not spec.is_compatible_with(
        tf.data.IteratorSpec(tf.TensorSpec([], tf.float32)))
    assert spec.value_type is tf.data.Iterator
    assert int(it.get_next()) == 0
    opt = E.get_next_as_optional(it)
    assert bool(opt.has_value()) and int(opt.get_value()) == 1
    end = it.get_next_as_optional()
    assert not bool(end.has_value()) and end.element_spec == tf.TensorSpec([], tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        end.get_value()
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()
    numpy_it = D.range(2).as_numpy_iterator()
    assert isinstance(numpy_it, tf.data.NumpyIterator)
    assert not isinstance(numpy_it, tf.data.Iterator)
    assert numpy_it.next() == 0 and list(numpy_it) == [1]


# --- sources and sampling -----------------------------------------------------------------------
def test_counter_random_and_their_seeds():
    assert values(D.counter(-1, -2).take(3)) == [-1, -3, -5]
    assert D.counter(dtype=tf.int32).element_spec.dtype is tf.int32
    seeded = D.random(seed=7).take(5)
    assert values(seeded) == values(seeded) == values(D.random(seed=7).take(5))
    assert values(seeded) != values(D.random(seed=8).take(5))
    fresh = D.random(seed=7, rerandomize_each_iteration=True).take(5)
    assert values(fresh) != values(fresh)
    draws = values(E.RandomDataset(seed=3).take(2000))
    assert min(draws) >= 0 and max(draws) < 2 ** 32 and np.mean(draws) / 2 ** 32 == \
        pytest.approx(0.5, abs=0.05)


def test_sample_from_datasets_follows_the_weights():
    ds = D.sample_from_datasets([D.range(0, 1).repeat(), D.range(1, 2).repeat()],
                                weights=[0.8, 0.2], seed=5).take(2000)
    assert np.mean(values(ds)) == pytest.approx(0.2, abs=0.04)
    again = D.sample_from_datasets([D.range(3), D.range(10, 13)], seed=5)
    assert values(again) == values(again)  # seeded: the same choices every epoch
    varying = D.sample_from_datasets(
        [D.range(3), D.range(10, 13)], seed=1,
        weights=D.from_tensors([0., 1.]).concatenate(D.from_tensors([1., 0.]).repeat(3)))
    assert values(varying) == [10, 0, 1, 2]
    with pytest.raises(ValueError, match="shape of `weights` should be compatible"):
        D.sample_from_datasets([D.range(2), D.range(2)], weights=tf.constant([1., 2., 3.]))


def test_choose_from_datasets_and_errors():
    letters = D.from_tensor_slices(["a", "b"])
    choice = D.from_tensor_slices(tf.constant([1, 0, 1], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Selector index out of range"):
        values(D.choose_from_datasets([letters], choice))
    assert values(E.choose_from_datasets([letters, letters.skip(1)], choice)) == ["b", "a"]
    with pytest.raises(TypeError, match="must be a list of `tf.data.Dataset`"):
        D.choose_from_datasets([letters, [1, 2]], choice)


# --- grouping ---------------------------------------------------------------------------------
def test_group_by_window_reduce_func_is_traced_once():
    traced = []

    def reduce_func(key, window):
        traced.append(1)
        return window.batch(10).map(lambda b: (key, tf.reduce_sum(b)))

    ds = D.range(7).group_by_window(lambda x: x % 2, reduce_func, window_size=3)
    assert values(ds) == [[0, 6], [1, 9], [0, 6]] and values(ds) == values(ds)
    assert len(traced) == 1
    with pytest.raises(ValueError, match="must return a single tf.int64 scalar"):
        D.range(3).group_by_window(lambda x: tf.cast(x, tf.int32), reduce_func, 2)
    with pytest.raises(TypeError, match="must return a `tf.data.Dataset`"):
        D.range(3).group_by_window(lambda x: x, lambda k, w: k, 2)


def test_bucket_by_sequence_length_pads_and_checks():
    ds = D.from_tensor_slices([[1, 2, 0], [3, 0, 0], [4, 5, 6]]).map(
        lambda x: x[:tf.reduce_sum(tf.cast(x > 0, tf.int32))])
    out = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [2], [2, 2],
                                       padded_shapes=[4], padding_values=-1)
    # bucket 1 (lengths >= 2) fills first; bucket 0's lone [3] comes at the end
    assert values(out) == [[[1, 2, -1, -1], [4, 5, 6, -1]], [[3, -1, -1, -1]]]
    with pytest.raises(ValueError, match="must equal `len\\(bucket_boundaries\\) \\+ 1`"):
        ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [2], [2])
    grid = D.from_generator(lambda: iter([np.ones([2, 1], np.int32)]),
                            output_signature=tf.TensorSpec([None, 1], tf.int32))
    grid = grid.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [4], [1, 1],
                                          pad_to_bucket_boundary=True)
    assert grid.element_spec == tf.TensorSpec([None, None, 1], tf.int32)
    assert values(grid) == [[[[1], [1], [0]]]]  # dimension 0 to 4 - 1; dimension 1 known
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have length <"):
        values(ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [2], [2, 2],
                                            pad_to_bucket_boundary=True))


def test_group_by_reducer_and_unique():
    mean = E.Reducer(lambda key: (np.float64(0), np.float64(0)),
                     lambda s, x: (s[0] + tf.cast(x, tf.float64), s[1] + 1),
                     lambda total, n: total / n)
    ds = D.range(9).apply(E.group_by_reducer(lambda x: x % 3, mean))
    assert values(ds) == [3.0, 4.0, 5.0]
    assert mean.init_func is not None and callable(mean.finalize_func)
    assert values(D.from_tensor_slices([[1, 2], [1, 2], [2, 1]]).unique()) == [[1, 2], [2, 1]]


# --- checks, save/load ----------------------------------------------------------------------
def test_ignore_errors_logs_and_keeps_going_through_map_and_filter():
    ds = D.from_tensor_slices([1., 0., 4., 0., 2.]).map(
        lambda x: tf.debugging.check_numerics(1. / x, "inf")).filter(lambda y: y < 1.)
    with pytest.warns(UserWarning, match="Error raised with error message"):
        assert values(ds.ignore_errors(log_warning=True)) == [0.25, 0.5]


def test_assert_pad_cardinality_and_at():
    ds = D.range(4).filter(lambda x: x > 0).apply(E.assert_cardinality(3))
    assert len(ds) == 3 and values(ds) == [1, 2, 3]
    with pytest.raises(ValueError, match="must have a known cardinality"):
        unknown = D.range(3).filter(lambda x: True)
        unknown.map(lambda n: {"x": n}).apply(E.pad_to_cardinality(5))
    with pytest.raises(ValueError, match="requires its input dataset to be a dictionary"):
        D.range(3).apply(E.pad_to_cardinality(5))
    assert int(E.at(D.range(5).filter(lambda x: x % 2 == 0), 1)) == 2
    with pytest.raises(tf.errors.OutOfRangeError):
        E.at(D.range(5).filter(lambda x: x < 2), 3)


def test_save_load_round_trip_shards_and_checks(tmp_path):
    ds = D.from_tensor_slices(({"v": np.arange(6.0).reshape(3, 2)}, ["x", "yy", "z"]))
    ds.save(str(tmp_path / "a"),  # "x" and "z" to shard 1, "yy" to shard 0
            shard_func=lambda feats, s: tf.cast(tf.strings.length(s) % 2, tf.int64))
    loaded = D.load(str(tmp_path / "a"))
    assert loaded.element_spec == ds.element_spec
    assert sorted(values(loaded), key=str) == sorted(values(ds), key=str)
    assert sorted(os.listdir(tmp_path / "a")) == [
        "element_spec.json", "shard_00000.data-00000-of-00001", "shard_00000.index",
        "shard_00001.data-00000-of-00001", "shard_00001.index"]
    with pytest.raises(tf.errors.NotFoundError, match="not a dataset written by"):
        D.load(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="does not match the saved one"):
        D.load(str(tmp_path / "a"), element_spec=tf.TensorSpec([], tf.int64))
    with pytest.raises(ValueError, match="Unsupported compression"):
        D.range(2).save(str(tmp_path / "b"), compression="LZ4")


def test_snapshot_writes_after_a_full_pass_and_reads_back(tmp_path):
    calls = []
    ds = D.range(3).map(lambda x: tf.py_function(lambda v: calls.append(1) or v, [x],
                                                 tf.int64))
    snap = ds.snapshot(str(tmp_path))
    assert values(snap.take(2)) == [0, 1] and not os.path.exists(
        tmp_path / "element_spec.json")  # a partial pass saves nothing
    assert values(snap) == [0, 1, 2] and values(snap) == [0, 1, 2]
    assert len(calls) == 5  # 2 + 3: the third pass read the snapshot
    assert values(D.range(3).snapshot(str(tmp_path))) == [0, 1, 2]


def test_fixed_length_records_compression_and_partial_tail(tmp_path):
    import gzip
    path = tmp_path / "r.gz"
    path.write_bytes(gzip.compress(b"abcdefg"))
    ds = tf.data.FixedLengthRecordDataset(str(path), 3, compression_type="GZIP")
    with pytest.warns(UserWarning, match="not an exact multiple"):
        assert values(ds) == ["abc", "def"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="record_bytes must be > 0"):
        tf.data.FixedLengthRecordDataset(str(path), 0)
    with pytest.raises(tf.errors.NotFoundError):
        values(tf.data.FixedLengthRecordDataset(str(tmp_path / "none"), 2))


# --- against real TensorFlow ----------------------------------------------------------------------
def _same(mine, real):
    """Equal, except that an error message of minitf's may go on after TF's."""
    if (isinstance(real, list) and len(real) == 2 and isinstance(real[0], str)
            and real[0].endswith("Error") and isinstance(mine, list) and len(mine) == 2):
        return mine[0] == real[0] and mine[1].startswith(real[1])
    return mine == real


def test_every_case_matches_real_tensorflow():
    path = os.path.join(os.path.dirname(__file__), "experimental_cases.py")
    real = json.loads(run_tf(open(path).read()).strip().splitlines()[-1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = experimental_cases.results(tf)
    assert set(mine) == set(real)
    different = [key for key in sorted(real) if not _same(mine[key], real[key])]
    assert not different, [(key, mine[key], real[key]) for key in different]


def test_option_groups_by_their_public_names():
    o = tf.data.Options()
    assert isinstance(o.autotune, tf.data.experimental.AutotuneOptions)
    assert isinstance(o.experimental_distribute, tf.data.experimental.DistributeOptions)
    assert isinstance(o.experimental_optimization, tf.data.experimental.OptimizationOptions)
    assert isinstance(o.experimental_service, tf.data.experimental.ServiceOptions)
    o.experimental_service.pinned = True
    assert o.merge(tf.data.Options()).experimental_service.pinned is True
    # SHARD_HINT marks where a distribution strategy puts its own shard arguments
    assert tf.data.experimental.SHARD_HINT == -1
    assert values(D.range(6).shard(3, 1)) == [1, 4]


def test_make_batched_features_dataset_and_parse_example_dataset(tmp_path):
    path = str(tmp_path / "ex.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for i in range(5):
            feature = {"x": tf.train.Feature(int64_list=tf.train.Int64List(value=[i, -i]))}
            writer.write(tf.train.Example(features=tf.train.Features(
                feature=feature)).SerializeToString())
    specs = {"x": tf.io.FixedLenFeature([2], tf.int64)}
    ds = tf.data.experimental.make_batched_features_dataset(
        path, 2, specs, num_epochs=2, shuffle=True, shuffle_seed=1, drop_final_batch=True)
    assert ds.element_spec == {"x": tf.TensorSpec([2, 2], tf.int64)}
    rows = [r for batch in values(ds) for r in batch["x"]]
    assert len(rows) == 10 and sorted(r[0] for r in rows) == sorted(list(range(5)) * 2)
    parsed = tf.data.TFRecordDataset(path).batch(5).apply(
        tf.data.experimental.parse_example_dataset(specs))
    assert values(parsed) == [{"x": [[i, -i] for i in range(5)]}]
    with pytest.raises(ValueError, match="`features` cannot be None"):
        tf.data.experimental.parse_example_dataset(None)


def test_sql_dataset_reads_read_only(tmp_path):
    import sqlite3
    path = str(tmp_path / "d.db")
    db = sqlite3.connect(path)
    db.execute("create table t (v integer)")
    db.executemany("insert into t values (?)", [(3,), (4,)])
    db.commit()
    db.close()
    ds = tf.data.experimental.SqlDataset("sqlite", path, "select v * 2 from t", tf.int64)
    assert values(ds) == [6, 8] and values(ds) == [6, 8]
    with pytest.raises(tf.errors.UnknownError, match="readonly|read-only|Prepare"):
        values(tf.data.experimental.SqlDataset("sqlite", path, "delete from t", tf.int64))
    assert values(ds) == [6, 8]
    with pytest.raises(tf.errors.UnknownError, match="Failed to open"):
        values(tf.data.experimental.SqlDataset("sqlite", str(tmp_path / "no.db"),
                                               "select 1", tf.int64))
