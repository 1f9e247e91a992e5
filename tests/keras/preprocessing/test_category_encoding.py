"""keras.layers.CategoryEncoding: one_hot / multi_hot / count by hand, then against TF 2.21."""
import os
import tempfile

import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

L = tf.keras.layers
IDS = np.array([[0, 1], [0, 0], [1, 2], [3, 1]])


def test_multi_hot_marks_each_rows_ids_once():
    out = L.CategoryEncoding(4)(IDS)
    np.testing.assert_array_equal(out.numpy(), [[1, 1, 0, 0], [1, 0, 0, 0], [0, 1, 1, 0],
                                                [0, 1, 0, 1]])
    assert out.dtype == tf.float32


def test_count_counts_and_sums_count_weights():
    counts = L.CategoryEncoding(4, output_mode="count")
    np.testing.assert_array_equal(counts(IDS).numpy()[1], [2, 0, 0, 0])
    weighted = counts(np.array([[0, 1], [0, 0]]), count_weights=np.array([[.1, .2], [.1, .4]]))
    np.testing.assert_allclose(weighted.numpy(), [[.1, .2, 0, 0], [.5, 0, 0, 0]], rtol=1e-6)


def test_one_hot_gives_one_vector_per_id_and_replaces_a_trailing_1_axis():
    one_hot = L.CategoryEncoding(3, output_mode="one_hot")
    np.testing.assert_array_equal(one_hot(np.array([2, 0])).numpy(), [[0, 0, 1], [1, 0, 0]])
    assert one_hot(np.array([[2], [0]])).shape == (2, 3)
    assert one_hot(np.array([[2, 1]])).shape == (1, 2, 3)
    assert one_hot(np.array(1)).shape == (1, 3)


def test_a_1d_input_is_one_example_for_multi_hot():
    np.testing.assert_array_equal(L.CategoryEncoding(4)(np.array([3, 0, 3])).numpy(),
                                  [1, 0, 0, 1])


def test_out_of_range_ids_are_dropped_and_negative_ids_refused_as_keras_does():
    np.testing.assert_array_equal(L.CategoryEncoding(4)(np.array([[4, 1]])).numpy(),
                                  [[0, 1, 0, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be non-negative"):
        L.CategoryEncoding(4)(np.array([[-1, 1]]))
    np.testing.assert_array_equal(L.CategoryEncoding(2, output_mode="one_hot")(
        np.array([-1])).numpy(), [[0, 0]])


def test_bad_arguments():
    with pytest.raises(ValueError, match="Unknown arg for output_mode: int"):
        L.CategoryEncoding(4, output_mode="int")
    with pytest.raises(ValueError, match="num_tokens must be set"):
        L.CategoryEncoding()
    with pytest.raises(ValueError, match="must be >= 1"):
        L.CategoryEncoding(0)
    with pytest.raises(ValueError, match="`count_weights` is not used"):
        L.CategoryEncoding(4)(IDS, count_weights=np.ones((4, 2)))


def test_rank_3_inputs_reduce_axis_1_as_keras():
    ids = np.array([[[0, 1], [1, 2]]])  # (1, 2, 2): Keras one-hots, then reduces axis 1
    np.testing.assert_array_equal(L.CategoryEncoding(3, output_mode="count")(ids).numpy(),
                                  [[[1, 1, 0], [0, 1, 1]]])


def test_in_a_model_in_dataset_map_and_saved():
    inputs = tf.keras.Input((2,), dtype="int32")
    encoded = L.CategoryEncoding(4)(inputs)
    assert encoded.shape == (None, 4) and encoded.dtype == tf.float32
    model = tf.keras.Model(inputs, L.Dense(1)(encoded))
    ds = tf.data.Dataset.from_tensor_slices(IDS).batch(4).map(L.CategoryEncoding(4))
    assert ds.element_spec.shape.as_list() == [None, 4]
    np.testing.assert_array_equal(next(iter(ds)).numpy()[3], [0, 1, 0, 1])
    path = os.path.join(tempfile.mkdtemp(), "m.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_allclose(loaded(IDS).numpy(), model(IDS).numpy())
    config = L.CategoryEncoding(5, output_mode="count").get_config()
    assert config["num_tokens"] == 5 and L.CategoryEncoding.from_config(config).output_mode \
        == "count"


REAL_TF = """
import json, numpy as np, tensorflow as tf
L = tf.keras.layers
cases = [[3, 2, 0, 1], [[0, 1], [0, 0], [1, 2], [3, 1]], [[0], [3]], 2, [[5, 1]],
         [[[0, 1], [1, 2]]]]
out = []
for mode in ("one_hot", "multi_hot", "count"):
    for ids in cases:
        y = L.CategoryEncoding(4, output_mode=mode)(np.array(ids))
        out.append([y.numpy().tolist(), y.dtype.name])
w = L.CategoryEncoding(4, output_mode="count")(np.array([[0, 1]]), count_weights=np.array([[.5, 2.]]))
out.append([w.numpy().tolist(), w.dtype.name])
try:
    L.CategoryEncoding(4)(np.array([[-1, 1]]))
except Exception as e:
    out.append(type(e).__name__)
print(json.dumps(out))
"""


def test_same_outputs_as_real_tf():
    real = run_tf_json(REAL_TF)
    cases = [[3, 2, 0, 1], [[0, 1], [0, 0], [1, 2], [3, 1]], [[0], [3]], 2, [[5, 1]],
             [[[0, 1], [1, 2]]]]
    mine = []
    for mode in ("one_hot", "multi_hot", "count"):
        for ids in cases:
            y = L.CategoryEncoding(4, output_mode=mode)(np.array(ids))
            mine.append([y.numpy().tolist(), y.dtype.name])
    w = L.CategoryEncoding(4, output_mode="count")(np.array([[0, 1]]),
                                                  count_weights=np.array([[.5, 2.]]))
    mine.append([w.numpy().tolist(), w.dtype.name])
    try:
        L.CategoryEncoding(4)(np.array([[-1, 1]]))
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        mine.append(type(e).__name__)
    assert mine == real
