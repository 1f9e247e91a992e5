"""tf.nn CTC: ctc_loss (dense and SparseTensor labels), ctc_greedy_decoder,
ctc_beam_search_decoder, collapse_repeated, ctc_unique_labels - checked against
enumerating every path (real-TF comparisons: test_nn_real_tf.py)."""
import itertools

import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf
from minitf.ops.nn_ctc_ops import ctc_neg_log_likelihood

f32 = np.float32
LOGITS = np.random.default_rng(3).normal(size=(4, 2, 3)).astype(f32)   # [time, batch, classes]


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _label_probabilities(steps, blank):
    """{label tuple: probability} over every path through `steps` ([time, classes] logits)."""
    probs, out = _softmax(steps.astype(np.float64)), {}
    for path in itertools.product(range(steps.shape[1]), repeat=len(steps)):
        merged = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
        label = tuple(c for c in merged if c != blank)
        out[label] = out.get(label, 0.0) + np.prod(probs[np.arange(len(path)), path])
    return out


# --- ctc_loss -----------------------------------------------------------------------------------
@pytest.mark.parametrize("blank_index", [None, 1, -1])
def test_ctc_loss_dense_equals_enumerated_paths(blank_index):
    blank = {None: 0, 1: 1, -1: 2}[blank_index]
    others = [c for c in range(3) if c != blank]
    labels = np.array([[others[0], others[1], 0], [others[1], others[1], 0]])
    loss = tf.nn.ctc_loss(labels, LOGITS, label_length=[2, 1], logit_length=[4, 3],
                          blank_index=blank_index)
    want = [-np.log(_label_probabilities(LOGITS[:4, 0], blank)[tuple(labels[0, :2])]),
            -np.log(_label_probabilities(LOGITS[:3, 1], blank)[tuple(labels[1, :1])])]
    assert loss.dtype == tf.float32
    np.testing.assert_allclose(loss.numpy(), want, rtol=1e-5)


def test_ctc_loss_batch_major_sparse_labels_and_float16():
    labels = np.array([[1, 2, 0], [2, 2, 0]])
    dense = tf.nn.ctc_loss(labels, LOGITS, [2, 2], [4, 4]).numpy()
    batch_major = tf.nn.ctc_loss(labels, LOGITS.transpose(1, 0, 2), [2, 2], [4, 4],
                                 logits_time_major=False)
    np.testing.assert_allclose(batch_major.numpy(), dense)
    sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 2, 2, 2], [2, 3])
    np.testing.assert_allclose(tf.nn.ctc_loss(sparse, LOGITS, None, [4, 4], blank_index=0),
                               dense, rtol=1e-6)
    half = tf.nn.ctc_loss(labels, LOGITS.astype(np.float16), [2, 2], [4, 4])
    assert half.dtype == tf.float16
    np.testing.assert_allclose(half.numpy(), dense, rtol=2e-3)
    unique = tf.nn.ctc_unique_labels(labels)
    np.testing.assert_allclose(tf.nn.ctc_loss(labels, LOGITS, [2, 2], [4, 4], unique=unique),
                               dense)


def test_ctc_loss_sparse_blank_last_renumbers_like_tf():
    sparse = tf.SparseTensor([[0, 0], [1, 0]], [1, 0], [2, 2])
    loss = tf.nn.ctc_loss(sparse, LOGITS, None, [4, 4], blank_index=-1).numpy()
    want = [-np.log(_label_probabilities(LOGITS[:, b], 2)[(label,)])
            for b, label in enumerate([1, 0])]
    np.testing.assert_allclose(loss, want, rtol=1e-5)


def test_ctc_loss_empty_label_and_impossible_labels():
    empty = tf.nn.ctc_loss([[0]], LOGITS[:, :1], [0], [4]).numpy()   # blanks only
    np.testing.assert_allclose(empty, [-np.log(_softmax(LOGITS[:, 0])[:, 0]).sum()], rtol=1e-5)
    assert tf.nn.ctc_loss([[1, 1, 1]], LOGITS[:3, :1], [3], [3]).numpy()[0] > 1e29
    assert tf.nn.ctc_loss([[1]], LOGITS[:, :1], [1], [0]).numpy()[0] > 1e29  # no step at all
    sparse = tf.SparseTensor([[0, 0], [0, 1], [0, 2]], [1, 1, 1], [1, 3])
    assert tf.nn.ctc_loss(sparse, LOGITS[:3, :1], None, [3], blank_index=0).numpy()[0] == np.inf


def test_ctc_loss_errors():
    sparse = tf.SparseTensor([[0, 0], [0, 1], [0, 2]], [1, 2, 1], [1, 3])
    with pytest.raises(ValueError, match="`blank_index` must be provided"):
        tf.nn.ctc_loss(sparse, LOGITS[:, :1], None, [4])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Not enough time for target transition sequence \(required: 3, "
                             r"available: 2\)0"):
        tf.nn.ctc_loss(sparse, LOGITS[:, :1], None, [2], blank_index=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute Mul"):
        tf.nn.ctc_loss([[1]], LOGITS.astype(np.float64), [1, 1], [4, 4])


def test_ctc_loss_gradient_and_graph():
    labels, lengths = tf.constant([[1, 1, 0], [2, 1, 2]]), tf.constant([2, 3])
    steps = tf.constant([4, 3])
    check_grads(lambda x: ctc_neg_log_likelihood(tf.nn.log_softmax(x), labels, lengths, steps),
                np.random.default_rng(4).normal(size=(2, 4, 3)))
    fn = tf.function(lambda x: tf.nn.ctc_loss(labels, x, lengths, steps))
    np.testing.assert_allclose(fn(LOGITS).numpy(),
                               tf.nn.ctc_loss(labels, LOGITS, lengths, steps).numpy())


# --- decoders ------------------------------------------------------------------------------------
def test_greedy_decoder_merges_repeats_and_drops_blanks():
    best = [0, 0, 2, 1, 1]        # blank is class 2 (the last)
    logits = np.full((5, 1, 3), -1.0, f32)
    logits[np.arange(5), 0, best] = 2.0
    (decoded,), score = tf.nn.ctc_greedy_decoder(logits, [5])
    assert decoded.values.dtype == tf.int64 and decoded.values.numpy().tolist() == [0, 1]
    assert decoded.dense_shape.numpy().tolist() == [1, 2] and score.numpy().tolist() == [[-10.0]]
    (decoded,), _ = tf.nn.ctc_greedy_decoder(logits, [5], merge_repeated=False)
    assert decoded.values.numpy().tolist() == [0, 0, 1, 1]
    (decoded,), score = tf.nn.ctc_greedy_decoder(logits, [3], blank_index=0)
    assert tf.sparse.to_dense(decoded).numpy().tolist() == [[2]]   # class 0 is now the blank
    assert score.numpy().tolist() == [[-6.0]]


def test_beam_search_finds_the_most_probable_labels():
    decoded, log_probs = tf.nn.ctc_beam_search_decoder(LOGITS, [4, 3], top_paths=3)
    assert len(decoded) == 3 and log_probs.shape == (2, 3)
    for b, steps in enumerate([LOGITS[:4, 0], LOGITS[:3, 1]]):
        exact = sorted(_label_probabilities(steps, 2).items(), key=lambda kv: -kv[1])[:3]
        found = [tf.sparse.to_dense(d).numpy()[b] for d in decoded]
        for (label, prob), row, log_prob in zip(exact, found, log_probs.numpy()[b]):
            assert tuple(row[:len(label)]) == label and not row[len(label):].any()
            np.testing.assert_allclose(log_prob, np.log(prob), rtol=1e-5)


def test_beam_search_errors_and_graph():
    with pytest.raises(tf.errors.InvalidArgumentError, match="more paths than the beam width"):
        tf.nn.ctc_beam_search_decoder(LOGITS, [4, 4], beam_width=2, top_paths=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"sequence_length\(0\) <= 4"):
        tf.nn.ctc_beam_search_decoder(LOGITS, [5, 4])
    fn = tf.function(lambda x: [tf.sparse.to_dense(d) for d in
                                tf.nn.ctc_beam_search_decoder(x, [4, 3], top_paths=2)[0]])
    eager = tf.nn.ctc_beam_search_decoder(LOGITS, [4, 3], top_paths=2)[0]
    for traced, d in zip(fn(LOGITS), eager):
        assert traced.numpy().tolist() == tf.sparse.to_dense(d).numpy().tolist()


# --- collapse_repeated, ctc_unique_labels ------------------------------------------------------
def test_collapse_repeated_and_unique_labels():
    labels, lengths = tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], [5, 2])
    assert labels.numpy().tolist() == [[1, 2, 3], [4, 0, 0]]
    assert lengths.dtype == tf.int32 and lengths.numpy().tolist() == [3, 1]
    y, idx = tf.nn.ctc_unique_labels([[3, 4, 4, 3], [1, 1, 2, 0]])
    assert y.dtype == tf.int64 and y.numpy().tolist() == [[3, 4, 0, 0], [1, 2, 0, 0]]
    assert idx.dtype == tf.int32 and idx.numpy().tolist() == [[0, 1, 1, 0], [0, 0, 1, 2]]
