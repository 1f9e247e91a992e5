"""Initializers (distributions, seeding), regularizers and constraints.

Regularizer and constraint values are TF 2.21's on the same matrix (verified against
TF 2.21). Random initializers cannot match TF's numbers (another generator), so their
distributions are checked by their statistics and bounds.
"""
import math

import numpy as np
import pytest

import minitf as tf

W = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -0.25]], np.float32)

# verified against TF 2.21
EXPECTED = {
    'l1': 0.675000011920929,
    'l2': 1.431249976158142,
    'l1l2': 3.5374999046325684,
    'l2_default': 0.1431249976158142,
    'orth_rows': 0.2084030956029892,
    'orth_cols': 0.22534604370594025,
    'maxnorm': [[0.6324555277824402, -2.0, 0.49999988079071045], [1.8973665237426758, 0.0, -0.24999994039535522]],
    'unitnorm': [[0.4364357590675354, -0.8728715181350708, 0.2182178795337677], [0.9965457916259766, 0.0, -0.08304548263549805]],
    'minmax': [[0.6320391297340393, -1.649999976158142, 0.49999988079071045], [1.8961174488067627, 0.0, -0.24999994039535522]],
    'nonneg': [[1.0, 0.0, 0.5], [3.0, 0.0, 0.0]],
}


def _regularizer_values():
    r, c = tf.keras.regularizers, tf.keras.constraints
    return {
        "l1": r.L1(0.1)(W), "l2": r.L2(0.1)(W), "l1l2": r.L1L2(0.1, 0.2)(W),
        "l2_default": r.get("l2")(W), "orth_rows": r.OrthogonalRegularizer(0.5)(tf.constant(W)),
        "orth_cols": r.OrthogonalRegularizer(0.5, mode="columns")(tf.constant(W)),
        "maxnorm": c.MaxNorm(2.0)(W), "unitnorm": c.UnitNorm(axis=1)(W),
        "minmax": c.MinMaxNorm(0.5, 1.5, rate=0.7)(W), "nonneg": c.NonNeg()(W)}


def test_regularizers_and_constraints_match_tensorflow():
    got = _regularizer_values()
    for name, expected in EXPECTED.items():
        np.testing.assert_allclose(np.asarray(got[name]), expected, atol=1e-6, err_msg=name)


def test_lookup_by_string_and_errors():
    assert isinstance(tf.keras.regularizers.get("l1"), tf.keras.regularizers.L1)
    assert isinstance(tf.keras.constraints.get("non_neg"), tf.keras.constraints.NonNeg)
    for module, kind in ((tf.keras.regularizers, "regularizer"),
                         (tf.keras.initializers, "initializer"),
                         (tf.keras.constraints, "constraint")):
        with pytest.raises(ValueError, match=f"Could not interpret {kind} identifier: nope"):
            module.get("nope")
    with pytest.raises(ValueError, match="not a valid regularization penalty"):
        tf.keras.regularizers.L2(-1.0)


def test_compute_fans():
    from minitf.keras.initializers import _compute_fans as compute_fans
    assert compute_fans(()) == (1, 1)
    assert compute_fans((5,)) == (5, 5)
    assert compute_fans((3, 4)) == (3, 4)
    assert compute_fans((3, 3, 16, 32)) == (144, 288)


@pytest.mark.parametrize("name,limit", [("glorot_uniform", math.sqrt(6 / (200 + 300))),
                                        ("he_uniform", math.sqrt(6 / 200)),
                                        ("lecun_uniform", math.sqrt(3 / 200))])
def test_uniform_variance_scaling_bounds_and_spread(name, limit):
    values = tf.keras.initializers.get(name)((200, 300)).numpy()
    assert values.dtype == np.float32
    assert np.abs(values).max() <= limit
    assert abs(values.std() - limit / math.sqrt(3)) < 0.02 * limit


@pytest.mark.parametrize("name,std", [("glorot_normal", math.sqrt(2 / 500)),
                                      ("he_normal", math.sqrt(2 / 200)),
                                      ("lecun_normal", math.sqrt(1 / 200))])
def test_truncated_normal_variance_scaling(name, std):
    values = tf.keras.initializers.get(name)((200, 300)).numpy()
    # the truncated draw is rescaled so its standard deviation is the target one
    assert abs(values.std() - std) < 0.03 * std
    assert np.abs(values).max() <= 2 * std / 0.87962566103423978 + 1e-6


def test_simple_initializers():
    I = tf.keras.initializers
    assert I.Zeros()((2,)).numpy().tolist() == [0, 0]
    assert I.Ones()((2,), dtype="float64").dtype == tf.float64
    assert I.Constant(3)((2,)).numpy().tolist() == [3.0, 3.0]
    np.testing.assert_array_equal(I.Identity(2.0)((2, 3)).numpy(), 2 * np.eye(2, 3))
    with pytest.raises(ValueError, match="Identity matrix initializer can only be used for 2D"):
        I.Identity()((2, 2, 2))
    u = I.RandomUniform(-0.1, 0.1, seed=3)((1000,)).numpy()
    assert u.min() >= -0.1 and u.max() < 0.1
    n = I.RandomNormal(1.0, 0.5, seed=3)((4000,)).numpy()
    assert abs(n.mean() - 1.0) < 0.05 and abs(n.std() - 0.5) < 0.05
    t = I.TruncatedNormal(0.0, 1.0, seed=3)((4000,)).numpy()
    assert np.abs(t).max() <= 2.0


def test_orthogonal_rows_or_columns_are_orthonormal():
    for shape in ((4, 4), (3, 5), (6, 2), (2, 2, 3)):
        q = tf.keras.initializers.Orthogonal(gain=1.0, seed=1)(shape).numpy()
        flat = q.reshape(-1, shape[-1])
        small = flat.T @ flat if flat.shape[0] >= flat.shape[1] else flat @ flat.T
        np.testing.assert_allclose(small, np.eye(len(small)), atol=1e-5)


def test_seeding():
    I = tf.keras.initializers
    a, b = I.GlorotUniform(seed=7)((3, 3)), I.GlorotUniform(seed=7)((3, 3))
    np.testing.assert_array_equal(a.numpy(), b.numpy())  # same seed, same values
    init = I.HeNormal()
    np.testing.assert_array_equal(init((3,)).numpy(), init((3,)).numpy())  # as in Keras 3
    tf.keras.utils.set_random_seed(5)  # Keras 3: seeds Python's random, where seed=None draws
    first = I.GlorotUniform()((4, 4)).numpy()
    second = I.GlorotUniform()((4, 4)).numpy()
    tf.keras.utils.set_random_seed(5)
    assert np.array_equal(I.GlorotUniform()((4, 4)).numpy(), first)  # replays
    assert not np.array_equal(first, second)  # but two initializers differ
    tf.random.set_seed(None)


def test_serialization_round_trip():
    init = tf.keras.initializers.VarianceScaling(2.0, "fan_out", "uniform", seed=4)
    config = tf.keras.initializers.serialize(init)
    assert config == {"module": "keras.initializers", "class_name": "VarianceScaling",
                      "config": {"scale": 2.0, "mode": "fan_out", "distribution": "uniform",
                                 "seed": 4, "input_axes": None, "output_axes": None},
                      "registered_name": None}  # Keras 3.15's keys (checked against TF 2.21)
    # input_axes/output_axes (Keras 3.15) choose the fans: here fan_out = 2 * 3, not 3 * 4
    by_axes = tf.keras.initializers.VarianceScaling(3.0, "fan_out", "uniform", seed=1,
                                                    input_axes=[0], output_axes=[1, 2])
    values = by_axes((4, 2, 3)).numpy()
    assert np.abs(values).max() <= np.sqrt(3 * 3.0 / 6) and np.abs(values).max() > np.sqrt(
        3 * 3.0 / 12)
    clone = tf.keras.initializers.deserialize(config)
    np.testing.assert_array_equal(clone((2, 2)).numpy(), init((2, 2)).numpy())
    reg = tf.keras.regularizers.deserialize(tf.keras.regularizers.serialize(
        tf.keras.regularizers.L1L2(0.1, 0.2)))
    assert (reg.l1, reg.l2) == (0.1, 0.2)
