"""tf.data.experimental.CsvDataset: records, defaults, required fields, column choice, errors.

The expected values and messages were read from TF 2.21 (the last test compares live)."""
import json

import numpy as np
import pytest

import minitf as tf

CsvDataset = tf.data.experimental.CsvDataset


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("a,b,c\n1,2.5,x\n3,,y\n")
    return str(path)


def rows(dataset):
    return [tuple(np.asarray(v).tolist() for v in row) for row in dataset.as_numpy_iterator()]


def test_records_as_tuples_with_defaults_filling_empty_fields(table):
    ds = CsvDataset(table, [tf.int32, 0.0, tf.string], header=True)
    assert ds.element_spec == (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.float32),
                               tf.TensorSpec([], tf.string))
    assert rows(ds) == [(1, 2.5, b"x"), (3, 0.0, b"y")]
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    assert repr(ds).startswith("<CsvDatasetV2 element_spec=(TensorSpec(")


def test_a_dtype_makes_the_field_required(table):
    ds = CsvDataset(table, [tf.int32, tf.float32, tf.string], header=True)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Field 1 is required but missing in record"):
        list(ds)


def test_select_and_exclude_cols_over_several_files(table):
    ds = CsvDataset([table, table], [0, "z"], header=True, select_cols=[0, 2])
    assert rows(ds) == [(1, b"x"), (3, b"y"), (1, b"x"), (3, b"y")]
    assert rows(CsvDataset(table, [0.0], header=True, exclude_cols=[0, 2])) == [(2.5,), (0.0,)]
    assert rows(CsvDataset(table, [0, 0.0], header=True, exclude_cols=[2])) == [(1, 2.5),
                                                                                (3, 0.0)]


def test_without_header_the_header_is_a_record(table):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Field 0 in record is not a valid int64: a"):
        list(CsvDataset(table, [tf.int64, 1.5, ""]))


@pytest.mark.parametrize("kwargs,message", [
    (dict(record_defaults=[0], select_cols=[2, 0]), "select_cols should match output size"),
    (dict(record_defaults=[0, 0], select_cols=[2, 0]),
     "select_cols should be strictly increasing indices"),
    (dict(record_defaults=[0, 0], exclude_cols=[1, 1]),
     "exclude_cols should be strictly increasing indices"),
    (dict(record_defaults=[0], select_cols=[0], exclude_cols=[1]),
     "Either select_cols or exclude_cols should be empty"),
    (dict(record_defaults=[[1, 2], 0, 0]), "There should only be 1 default per field but "
                                           "field 0 has 2"),
])
def test_bad_arguments_raise_tfs_errors_at_construction(table, kwargs, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        CsvDataset(table, **kwargs)


def test_compressed_files_are_refused_with_a_clear_error(table):
    with pytest.raises(ValueError, match="uncompressed files only"):
        CsvDataset(table, [0, 0.0, ""], compression_type="GZIP")


def test_a_bad_field_names_the_file_and_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,b,c\n1,oops,x\n")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Field 1 in record is not a valid float: oops.*line 2"):
        list(CsvDataset(str(path), [0, 0.0, ""], header=True))


def test_inside_a_pipeline_and_a_tf_function(table):
    ds = CsvDataset(table, [0, 0.0, ""], header=True).map(lambda a, b, c: a * 10)
    assert list(ds.as_numpy_iterator()) == [10, 30]

    @tf.function
    def total():
        return CsvDataset(table, [0, 0.0, ""], header=True).reduce(0.0, lambda s, r: s + r[1])
    assert float(total()) == 2.5


def test_the_same_records_as_real_tf(table):
    from real_tf import run_tf_json

    code = f"""
        import json, tensorflow as tf
        C = tf.data.experimental.CsvDataset
        out = [[[v.tolist() if hasattr(v, "tolist") else v.decode() for v in r]
                for r in d.as_numpy_iterator()]
               for d in [C({table!r}, [tf.int32, 0.0, tf.string], header=True),
                         C({table!r}, [0, "z"], header=True, select_cols=[0, 2]),
                         C({table!r}, [0.0], header=True, exclude_cols=[0, 2])]]
        print(json.dumps(out))
    """
    mine = [[[v.tolist() if hasattr(v, "tolist") else v.decode() for v in r]
             for r in d.as_numpy_iterator()]
            for d in [CsvDataset(table, [tf.int32, 0.0, tf.string], header=True),
                      CsvDataset(table, [0, "z"], header=True, select_cols=[0, 2]),
                      CsvDataset(table, [0.0], header=True, exclude_cols=[0, 2])]]
    assert json.loads(json.dumps(mine)) == run_tf_json(code)
