"""tf.nn embeddings: embedding_lookup (partitioned tables, max_norm), embedding_lookup_sparse,
safe_embedding_lookup_sparse (real-TF comparisons: test_nn_real_tf.py)."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf

TABLE = np.arange(10.0, dtype=np.float32).reshape(5, 2)
IDS = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 0]], tf.constant([1, 3, 0, 1], tf.int64),
                      [5, 2])
WEIGHTS = tf.SparseTensor(IDS.indices, [2.0, 0.5, 1.0, 3.0], [5, 2])


def test_embedding_lookup_gathers_rows_and_splits_tables_like_div():
    out = tf.nn.embedding_lookup(TABLE, [[0, 4], [2, 2]])
    np.testing.assert_array_equal(out.numpy(), TABLE[[[0, 4], [2, 2]]])
    everything = np.arange(5)
    for parts in ([TABLE[:3], TABLE[3:]], [TABLE[:2], TABLE[2:4], TABLE[4:]], [TABLE]):
        np.testing.assert_array_equal(tf.nn.embedding_lookup(parts, everything).numpy(), TABLE)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[2\] = 2 is not in"):
        tf.nn.embedding_lookup([TABLE[:2], TABLE[2:]], everything)  # not the div layout
    with pytest.raises(ValueError, match="Need at least one param"):
        tf.nn.embedding_lookup([], [0])
    assert tf.nn.embedding_lookup(tf.Variable(TABLE), [1]).numpy().tolist() == [[2.0, 3.0]]


def test_embedding_lookup_max_norm_clips_each_embedding():
    out = tf.nn.embedding_lookup(TABLE, [0, 4], max_norm=5.0).numpy()
    np.testing.assert_allclose(out, [TABLE[0], TABLE[4] * 5 / np.linalg.norm(TABLE[4])],
                               rtol=1e-6)
    cube = np.arange(12.0).reshape(3, 2, 2)
    out = tf.nn.embedding_lookup(cube, [[2]], max_norm=5.0).numpy()[0, 0]
    np.testing.assert_allclose(out, cube[2] * 5 / np.linalg.norm(cube[2]))  # one norm per id


def test_embedding_lookup_gradient_scatters_back():
    check_grads(lambda t: tf.nn.embedding_lookup([t[:2], t[2:]], [[0, 2], [2, 1]]),
                np.random.default_rng(0).normal(size=(3, 2)))
    check_grads(lambda t: tf.nn.embedding_lookup(t, [0, 2], max_norm=1.0),
                np.random.default_rng(1).normal(size=(3, 2)))


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn", None])
def test_embedding_lookup_sparse_combiners(combiner):
    rows = {0: ([1, 3], [2.0, 0.5]), 1: ([0], [1.0]), 3: ([1], [3.0])}
    for weights in (None, WEIGHTS):
        out = tf.nn.embedding_lookup_sparse(TABLE, IDS, weights, combiner=combiner).numpy()
        assert out.shape == (4, 2)       # ends at the last row with ids, as in TF
        np.testing.assert_array_equal(out[2], [0.0, 0.0])
        for row, (ids, w) in rows.items():
            w = np.ones(len(ids)) if weights is None else np.array(w)
            total = (TABLE[ids] * w[:, None]).sum(0)
            scale = {"sum": 1.0, "mean": w.sum(), None: w.sum(),
                     "sqrtn": np.sqrt((w ** 2).sum())}[combiner]
            np.testing.assert_allclose(out[row], total / scale, rtol=1e-6)


def test_embedding_lookup_sparse_errors_and_gradient():
    with pytest.raises(ValueError, match="combiner must be one of 'mean', 'sqrtn' or 'sum', got"):
        tf.nn.embedding_lookup_sparse(TABLE, IDS, None, combiner="max")
    with pytest.raises(TypeError, match="sp_ids must be SparseTensor"):
        tf.nn.embedding_lookup_sparse(TABLE, tf.constant([[1]]), None)
    with pytest.raises(TypeError, match="sp_weights must be either None or SparseTensor"):
        tf.nn.embedding_lookup_sparse(TABLE, IDS, tf.constant([1.0]))
    check_grads(lambda t: tf.nn.embedding_lookup_sparse(t, IDS, WEIGHTS, combiner="sqrtn",
                                                        max_norm=3.0),
                np.random.default_rng(2).normal(size=(5, 2)))


def test_safe_embedding_lookup_sparse_prunes_and_fills():
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 0], [3, 1]],
                          tf.constant([1, -1, 0, 1, 2], tf.int64), [5, 2])
    weights = tf.SparseTensor(ids.indices, [2.0, 0.5, 1.0, 0.0, -1.0], [5, 2])
    plain = tf.nn.safe_embedding_lookup_sparse(TABLE, ids, combiner="sum").numpy()
    np.testing.assert_array_equal(plain, [TABLE[1], TABLE[0], [0, 0], TABLE[1] + TABLE[2],
                                          [0, 0]])                 # id -1 dropped
    mean = tf.nn.safe_embedding_lookup_sparse(TABLE, ids, weights).numpy()
    np.testing.assert_array_equal(mean, [TABLE[1], TABLE[0], [0, 0], [0, 0], [0, 0]])
    summed = tf.nn.safe_embedding_lookup_sparse(TABLE, ids, weights, combiner="sum").numpy()
    np.testing.assert_array_equal(summed[3], -TABLE[2])          # "sum" keeps weights <= 0
    filled = tf.nn.safe_embedding_lookup_sparse(TABLE, ids, weights, default_id=4).numpy()
    np.testing.assert_array_equal(filled[2:], [TABLE[4]] * 3)
    with pytest.raises(ValueError, match="Missing embedding_weights None"):
        tf.nn.safe_embedding_lookup_sparse(None, ids)


def test_safe_embedding_lookup_sparse_higher_rank_graph_and_gradient():
    ids = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 0, 0]], tf.constant([1, 2, 4], tf.int64),
                          [2, 2, 3])
    out = tf.nn.safe_embedding_lookup_sparse(TABLE, ids)
    np.testing.assert_array_equal(out.numpy(), [[TABLE[1], TABLE[2]], [TABLE[4], [0, 0]]])
    traced = tf.function(lambda t: tf.nn.safe_embedding_lookup_sparse(t, ids))(TABLE)
    np.testing.assert_array_equal(traced.numpy(), out.numpy())
    check_grads(lambda t: tf.nn.safe_embedding_lookup_sparse(t, ids, combiner="sqrtn"),
                np.random.default_rng(3).normal(size=(5, 2)))
