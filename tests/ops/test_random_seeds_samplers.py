"""tf.random.split/fold_in/create_rng_state/stateless_shuffle/index_shuffle, the candidate
samplers, compute_accidental_hits and the sampled losses, without real TF (see
test_random_real_tf.py for the comparisons with TF)."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf


@pytest.fixture(autouse=True)
def no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


# --- seeds ------------------------------------------------------------------------------------
def test_split_gives_distinct_reproducible_seeds_of_the_seed_dtype():
    seeds = tf.random.split(tf.constant([1, 2], tf.int64), num=4)
    assert seeds.dtype == tf.int64 and seeds.shape == [4, 2]
    assert len({tuple(r) for r in seeds.numpy().tolist()}) == 4
    assert np.array_equal(seeds.numpy(), tf.random.experimental.stateless_split(
        tf.constant([1, 2], tf.int64), 4).numpy())
    draws = [tf.random.stateless_uniform([5], s).numpy() for s in seeds]
    assert not np.array_equal(draws[0], draws[1])


def test_fold_in_keeps_data_and_separates_replicas():
    seeds = [tf.random.fold_in([7, 8], i) for i in range(3)]
    assert [int(s[1]) for s in seeds] == [0, 1, 2]
    assert len({int(s[0]) for s in seeds}) == 1  # the first word comes from the seed only
    with pytest.raises(ValueError, match="integer"):
        tf.random.fold_in([7, 8], 1.5)


def test_create_rng_state_cuts_big_ints_into_words():
    assert tf.random.create_rng_state(2**64 + 3, "philox").numpy().tolist() == [3, 1, 0]
    assert tf.random.create_rng_state(2**63, "threefry").numpy().tolist() == [-2**63, 0]
    with pytest.raises(ValueError, match="unsupported value"):
        tf.random.create_rng_state(1, "mersenne")


def test_stateless_shuffle_is_a_seeded_permutation_of_rows():
    x = tf.reshape(tf.range(20), [10, 2])
    a = tf.random.experimental.stateless_shuffle(x, seed=[1, 2])
    assert sorted(a.numpy().tolist()) == x.numpy().tolist()
    assert np.array_equal(a.numpy(), tf.random.experimental.stateless_shuffle(x, [1, 2]).numpy())
    assert not np.array_equal(a.numpy(),
                              tf.random.experimental.stateless_shuffle(x, [1, 3]).numpy())
    traced = tf.function(lambda v: tf.random.experimental.stateless_shuffle(v, [1, 2]))
    assert np.array_equal(traced(x).numpy(), a.numpy())


@pytest.mark.parametrize("max_index", [0, 1, 2, 6, 17, 1000])
def test_index_shuffle_is_a_permutation(max_index):
    out = tf.random.experimental.index_shuffle(tf.range(max_index + 1), [4, 2], max_index)
    assert sorted(out.numpy().tolist()) == list(range(max_index + 1))


def test_index_shuffle_one_index_at_a_time_and_huge_ranges():
    seed, top = [5, 9], 2**40
    some = [0, 1, 12345, top]
    batch = tf.random.experimental.index_shuffle(tf.constant(some, tf.int64), seed,
                                                 tf.constant(top, tf.int64)).numpy()
    singles = [int(tf.random.experimental.index_shuffle(tf.constant(i, tf.int64), seed,
                                                        tf.constant(top, tf.int64)))
               for i in some]
    assert batch.tolist() == singles and len(set(singles)) == 4
    assert all(0 <= v <= top for v in singles)
    other = tf.random.experimental.index_shuffle(tf.range(50), [5, 10], 49).numpy()
    assert not np.array_equal(other, tf.random.experimental.index_shuffle(
        tf.range(50), seed, 49).numpy())


def test_index_shuffle_in_a_dataset_map():
    ds = tf.data.Dataset.range(8).map(lambda i: tf.random.experimental.index_shuffle(i, [5, 8], 7))
    assert sorted(int(v) for v in ds) == list(range(8))


def test_random_index_shuffle_rounds_change_the_permutation():
    a = tf.random_index_shuffle(tf.range(64), [1, 2, 3], 63, rounds=4).numpy()
    b = tf.random_index_shuffle(tf.range(64), [1, 2, 3], 63, rounds=6).numpy()
    assert sorted(a.tolist()) == sorted(b.tolist()) == list(range(64))
    assert not np.array_equal(a, b)


# --- candidate samplers -----------------------------------------------------------------------
LABELS = tf.constant([[1], [3]], tf.int64)


def test_unique_samplers_draw_distinct_classes():
    for sampler in (tf.random.uniform_candidate_sampler, tf.random.log_uniform_candidate_sampler,
                    tf.random.learned_unigram_candidate_sampler):
        s = sampler(LABELS, 1, 8, True, 10, seed=3).sampled_candidates.numpy()
        assert len(set(s.tolist())) == 8 and s.min() >= 0 and s.max() < 10


def test_log_uniform_frequencies():
    s = tf.random.log_uniform_candidate_sampler(LABELS, 1, 20000, False, 5,
                                                seed=1).sampled_candidates.numpy()
    k = np.arange(5)
    probs = np.log((k + 2) / (k + 1)) / np.log(6)
    np.testing.assert_allclose(np.bincount(s, minlength=5) / 20000, probs, atol=0.012)


def test_unique_expected_counts_follow_tfs_formula():
    s = tf.random.uniform_candidate_sampler(LABELS, 1, 6, True, 8, seed=2)
    p = 1 / 8
    count = float(s.sampled_expected_count[0])
    tries = np.log1p(-count) / np.log1p(-p)  # 1 - (1 - p)^tries = count
    assert abs(tries - round(tries)) < 1e-3 and round(tries) >= 6
    np.testing.assert_allclose(s.true_expected_count.numpy(), count)


def test_learned_unigram_counts_grow_after_each_call():
    first = tf.random.learned_unigram_candidate_sampler([[2]], 1, 4, False, 4, seed=11)
    second = tf.random.learned_unigram_candidate_sampler([[2]], 1, 4, False, 4, seed=11)
    np.testing.assert_allclose(first.true_expected_count.numpy(), [[1.0]])       # 4 * 1/4
    np.testing.assert_allclose(second.true_expected_count.numpy(), [[4 * 2 / 5]])  # 2 of 5


def test_fixed_unigram_from_a_vocab_file_with_sharding(tmp_path):
    vocab = tmp_path / "vocab.csv"
    vocab.write_text("the,8\ncat,2\nsat,4\nmat,1\n")
    s = tf.random.fixed_unigram_candidate_sampler([[0], [1]], 1, 2, False, 2,
                                                  vocab_file=str(vocab), num_shards=2, shard=0)
    # shard 0 keeps ids 0 and 2 (counts 8 and 4)
    np.testing.assert_allclose(s.true_expected_count.numpy(), [[2 * 8 / 12], [2 * 4 / 12]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="exactly one"):
        tf.random.fixed_unigram_candidate_sampler([[0]], 1, 2, False, 2)


def test_samplers_follow_tf_seed_rules():
    tf.random.set_seed(3)
    a = tf.random.uniform_candidate_sampler(LABELS, 1, 5, False, 100).sampled_candidates
    b = tf.random.uniform_candidate_sampler(LABELS, 1, 5, False, 100).sampled_candidates
    tf.random.set_seed(3)
    assert np.array_equal(tf.random.uniform_candidate_sampler(
        LABELS, 1, 5, False, 100).sampled_candidates.numpy(), a.numpy())
    assert not np.array_equal(a.numpy(), b.numpy())


# --- sampled losses ---------------------------------------------------------------------------
W = np.linspace(-1, 1, 18).reshape(6, 3)
B = np.array([0.1, -0.2, 0.3, 0.0, 0.5, -0.4])
X = np.array([[1.0, -1.0, 0.5], [0.2, 0.3, -0.7]])
SAMPLED = (tf.constant([4, 0, 5], tf.int64), tf.constant([[0.5], [0.3]]),
           tf.constant([0.2, 0.4, 0.6]))


@pytest.mark.parametrize("loss", [tf.nn.sampled_softmax_loss, tf.nn.nce_loss])
def test_sampled_loss_gradients_match_finite_differences(loss):
    def f(w, b, x):
        return loss(w, b, tf.constant([[1], [4]]), x, 3, 6, sampled_values=SAMPLED,
                    remove_accidental_hits=True)
    check_grads(f, W, B, X)


def test_sampled_softmax_with_every_class_is_the_full_softmax():
    labels = tf.constant([[1], [4]])
    every = tf.random.all_candidate_sampler(tf.cast(labels, tf.int64), 1, 6, True)
    loss = tf.nn.sampled_softmax_loss(tf.constant(W), tf.constant(B), labels, tf.constant(X), 6, 6,
                                      sampled_values=every)
    logits = X @ W.T + B
    full = -(logits[[0, 1], [1, 4]] - np.log(np.exp(logits).sum(1)))
    np.testing.assert_allclose(loss.numpy(), full, rtol=1e-12)


def test_sampled_softmax_trains_a_classifier_in_a_function():
    w = tf.Variable(tf.zeros([20, 4]))
    b = tf.Variable(tf.zeros([20]))
    x = tf.random.stateless_normal([16, 4], [1, 2])
    labels = tf.reshape(tf.cast(tf.argmax(x, axis=1), tf.int64) * 5, [-1, 1])

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(w, b, labels, x, 5, 20, seed=1))
        for v, g in zip((w, b), tape.gradient(loss, (w, b))):
            v.assign_sub(0.5 * g)
        return loss

    losses = [float(step()) for _ in range(30)]
    assert losses[-1] < 0.5 * losses[0]
