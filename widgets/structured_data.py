"""The structured table of lesson 19 (flats for sale), and a picture of a feature matrix.

`load_flats()` reads `flats.csv`, 500 generated flats with a 0/1 label `sold_fast`
(how it is made: `minitf/keras/datasets/data/make_flats_csv.py`), as a pandas
DataFrame. It needs no minitf, so the lesson runs unchanged under real TensorFlow:

>>> flats = load_flats()
>>> flats.shape, list(flats.columns)
((500, 6), ['area', 'year_built', 'rooms', 'heating', 'neighbourhood', 'sold_fast'])

`column_widths(columns)` lists what `DenseFeatures(columns)` puts side by side: each
column's name and width, in the order the layer concatenates them (sorted by name):

>>> import minitf as tf
>>> fc = tf.feature_column
>>> column_widths([fc.numeric_column("area"),
...                fc.bucketized_column(fc.numeric_column("year_built"), [1950, 1990])])
[('area', 1), ('year_built_bucketized', 3)]

`show_dense_features(matrix, widths)` draws the rows of such a matrix, a band above
naming the column each slice comes from:

>>> import numpy as np
>>> fig = show_dense_features(np.eye(4), [("area", 1), ("year_built_bucketized", 3)])
>>> [t.get_text() for t in fig.axes[0].texts]
['area', 'year_built_bucketized']
"""
import os

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "minitf", "keras", "datasets", "data")
FLATS = os.path.join(DATA, "flats.csv")
FLATS_COLUMNS = ["area", "year_built", "rooms", "heating", "neighbourhood", "sold_fast"]
MAX_ROWS = 100_000


def load_flats(path=FLATS):
    """The table as a pandas DataFrame: area float64, year_built/rooms/sold_fast int64,
    heating/neighbourhood strings (object)."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - the lessons' environment has pandas
        raise ImportError("load_flats needs pandas: pip install pandas") from exc
    frame = pd.read_csv(path, nrows=MAX_ROWS + 1, dtype={
        "area": "float64", "year_built": "int64", "rooms": "int64", "heating": object,
        "neighbourhood": object, "sold_fast": "int64"})
    if list(frame.columns) != FLATS_COLUMNS:
        raise ValueError(f"{path} should have the columns {FLATS_COLUMNS}, "
                         f"not {list(frame.columns)}.")
    if len(frame) > MAX_ROWS:
        raise ValueError(f"{path} has more than {MAX_ROWS} rows; this loader reads small "
                         "tables only.")
    if frame.isna().any().any() or not frame["sold_fast"].isin([0, 1]).all():
        raise ValueError(f"{path}: every cell must be filled and sold_fast must be 0 or 1.")
    return frame


def column_widths(columns):
    """[(name, width)] of dense feature columns, in DenseFeatures' order (by name)."""
    return [(c.name, int(c.variable_shape.num_elements()))
            for c in sorted(columns, key=lambda c: c.name)]


def show_dense_features(matrix, widths, row_labels=None):
    """The matrix as an image (a row per example), slices of columns framed and named."""
    import matplotlib.pyplot as plt
    import numpy as np

    matrix = np.asarray(matrix, dtype=float)
    if matrix.ndim != 2 or matrix.shape[1] != sum(w for _, w in widths):
        raise ValueError(f"The matrix has shape {matrix.shape}, but the widths add up to "
                         f"{sum(w for _, w in widths)} columns.")
    rows, cols = matrix.shape
    fig, ax = plt.subplots(figsize=(min(0.32 * cols + 1.5, 12), 0.35 * rows + 1.4))
    ax.imshow(matrix, cmap="coolwarm", vmin=-np.abs(matrix).max(), vmax=np.abs(matrix).max(),
              aspect="auto")
    start = 0
    for i, (name, width) in enumerate(widths):
        if start:
            ax.axvline(start - 0.5, color="black", linewidth=1.5)
        ax.text(start + width / 2 - 0.5, -0.7 - 0.45 * (i % 2), name, ha="center",
                va="bottom", fontsize=8)
        start += width
    ax.set_ylim(rows - 0.5, -1.7)
    ax.set_yticks(range(rows), row_labels if row_labels is not None else range(rows))
    ax.set_xticks(range(cols))
    ax.tick_params(labelsize=7)
    ax.set_xlabel("position in the DenseFeatures output")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    return fig
