"""widgets/structured_data.py: the flats table (read without minitf), its generator, the
DenseFeatures widths and the feature-matrix picture."""
import doctest
import hashlib
import os
import subprocess
import sys

import matplotlib
import numpy as np
import pytest

import minitf as tf
from widgets import structured_data

matplotlib.use("Agg")

FLATS_SHA256 = "88ca39bf570d6de65b36971ad7fd393edf10cb738f148cd31b351b53cdb115f7"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_examples():
    result = doctest.testmod(structured_data, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_flats_file_is_the_committed_one():
    with open(structured_data.FLATS, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == FLATS_SHA256


def test_flats_script_writes_the_same_file(tmp_path):
    path = tmp_path / "flats.csv"
    code = ("import sys; sys.path.insert(0, 'minitf/keras/datasets/data'); "
            f"import make_flats_csv as m; m.main({str(path)!r})")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == FLATS_SHA256


def test_flats_columns_hold_what_the_readme_says():
    flats = structured_data.load_flats()
    assert [str(t) for t in flats.dtypes] == ["float64", "int64", "int64", "object", "object",
                                              "int64"]
    assert flats["area"].between(22, 160).all() and flats["year_built"].between(1890, 2022).all()
    assert set(flats["rooms"]) <= {1, 2, 3, 4, 5}
    assert set(flats["heating"]) == {"gas", "electric", "heat_pump", "district"}
    assert flats["neighbourhood"].nunique() == 24 and set(flats["sold_fast"]) == {0, 1}


def test_the_generated_interaction_is_in_the_data():
    """A heat pump in a building from before 1950 sells slower than one in a newer building."""
    flats = structured_data.load_flats()
    pump = flats[flats["heating"] == "heat_pump"]
    old = pump["year_built"] < 1950
    assert pump[old]["sold_fast"].mean() + 0.25 < pump[~old]["sold_fast"].mean()


@pytest.mark.parametrize("content,message", [
    ("a,b\n1,2\n", "should have the columns"),
    ("area,year_built,rooms,heating,neighbourhood,sold_fast\n50.0,1990,2,gas,Elm Hill,2\n",
     "must be 0 or 1"),
    ("area,year_built,rooms,heating,neighbourhood,sold_fast\n50.0,1990,2,,Elm Hill,1\n",
     "every cell must be filled"),
])
def test_load_flats_refuses_a_wrong_file(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        structured_data.load_flats(str(path))


def test_load_flats_reads_small_tables_only(tmp_path, monkeypatch):
    monkeypatch.setattr(structured_data, "MAX_ROWS", 3)
    path = tmp_path / "big.csv"
    path.write_text("area,year_built,rooms,heating,neighbourhood,sold_fast\n"
                    + "50.0,1990,2,gas,Elm Hill,1\n" * 4)
    with pytest.raises(ValueError, match="more than 3 rows"):
        structured_data.load_flats(str(path))


def test_column_widths_are_the_slices_of_dense_features():
    fc = tf.feature_column
    kind = fc.categorical_column_with_vocabulary_list("kind", ["a", "b", "c"], num_oov_buckets=1)
    columns = [fc.numeric_column("z", shape=2), fc.indicator_column(kind),
               fc.embedding_column(kind, dimension=3)]
    widths = structured_data.column_widths(columns)
    assert widths == [("kind_embedding", 3), ("kind_indicator", 4), ("z", 2)]
    batch = {"z": np.array([[1.0, 2.0]], "float32"), "kind": np.array(["c"])}
    out = tf.keras.layers.DenseFeatures(columns)(batch).numpy()
    assert out.shape == (1, 9)
    assert out[0, 3:7].tolist() == [0, 0, 1, 0] and out[0, 7:].tolist() == [1, 2]


def test_picture_frames_each_slice():
    fig = structured_data.show_dense_features(np.arange(12.0).reshape(2, 6),
                                              [("a", 1), ("b", 2), ("c", 3)], ["x", "y"])
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.texts] == ["a", "b", "c"]
    assert [line.get_xdata()[0] for line in ax.lines] == [0.5, 2.5]  # between the slices
    assert [t.get_text() for t in ax.get_yticklabels()] == ["x", "y"]


def test_picture_refuses_widths_that_do_not_add_up():
    with pytest.raises(ValueError, match="add up to 5"):
        structured_data.show_dense_features(np.zeros((2, 6)), [("a", 2), ("b", 3)])
