"""Every tf.keras.initializers / constraints / regularizers name, against Keras 3.15: configs,
serialized forms, shapes and dtypes (random initializers' numbers come from another generator,
so their statistics are checked in test_initializers_regularizers_constraints.py), and the
STFT initializer's values."""
import json

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

keras = tf.keras

# Run here and in real Keras; the `out` dicts must be equal (numbers rounded to 5 places).
# (Window names need SciPy in real Keras, which its test environment lacks: windows are
# passed as arrays here; test_stft_... checks the names against NumPy's windows.)
PROBE = """
initializers, constraints, regularizers = (keras.initializers, keras.constraints,
                                           keras.regularizers)
made = {
    "GlorotNormal": initializers.GlorotNormal(seed=1),
    "HeUniform": initializers.HeUniform(seed=2),
    "IdentityInitializer": initializers.IdentityInitializer(gain=2.0),
    "LecunNormal": initializers.LecunNormal(seed=3),
    "LecunUniform": initializers.LecunUniform(seed=4),
    "OrthogonalInitializer": initializers.OrthogonalInitializer(0.5, seed=5),
    "RandomNormal": initializers.RandomNormal(0.5, 2.0, seed=6),
    "RandomUniform": initializers.RandomUniform(-1.0, 3.0, seed=7),
    "TruncatedNormal": initializers.TruncatedNormal(0.0, 0.5, seed=8),
    "constant": initializers.constant(3.0),
    "glorot_normal": initializers.glorot_normal(seed=9),
    "glorot_uniform": initializers.glorot_uniform(seed=10),
    "he_normal": initializers.he_normal(seed=11),
    "he_uniform": initializers.he_uniform(seed=12),
    "identity": initializers.identity(),
    "lecun_normal": initializers.lecun_normal(seed=13),
    "lecun_uniform": initializers.lecun_uniform(seed=14),
    "ones": initializers.ones(),
    "orthogonal": initializers.orthogonal(seed=15),
    "random_normal": initializers.random_normal(seed=16),
    "random_uniform": initializers.random_uniform(seed=17),
    "truncated_normal": initializers.truncated_normal(seed=18),
    "variance_scaling": initializers.variance_scaling(2.0, "fan_out", "uniform", seed=19),
    "zeros": initializers.zeros(),
    "STFT": initializers.STFT("imag", np.hamming(5).tolist(), "spectrum", True),
    "STFTInitializer": initializers.STFTInitializer(window=np.hanning(5).tolist()),
    "stft": initializers.stft(window=None),
}
EXACT = ("constant", "ones", "zeros", "identity", "IdentityInitializer")
out = {"init": {}}
for name, init in made.items():
    shape = (5, 1, 4) if "stft" in name.lower() else (4, 4)
    value = np.asarray(init(shape, dtype="float32"))
    out["init"][name] = [type(init).__name__, init.get_config(),
                         initializers.serialize(init)["class_name"], list(value.shape),
                         str(value.dtype)]
    if "stft" in name.lower() or name in EXACT:
        out["init"][name].append(np.round(value, 5).tolist())
out["init_get"] = [type(initializers.get(n)).__name__
                   for n in ("IdentityInitializer", "OrthogonalInitializer")]
W = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -0.25]], "float32")
TW = keras.ops.convert_to_tensor(W)
cons = {"max_norm": constraints.max_norm(2.0),
        "min_max_norm": constraints.min_max_norm(0.5, 1.5, rate=0.7),
        "non_neg": constraints.non_neg(), "unit_norm": constraints.unit_norm(axis=1),
        "MaxNorm": constraints.MaxNorm(1.0, axis=1),
        "MinMaxNorm": constraints.MinMaxNorm(max_value=2.0)}
out["cons"] = {n: [type(c).__name__, c.get_config(), constraints.serialize(c),
                   np.round(np.asarray(c(TW)), 5).tolist()] for n, c in cons.items()}
out["cons_back"] = type(constraints.deserialize(
    constraints.serialize(constraints.MaxNorm(3.0)))).__name__
out["cons_base"] = [constraints.Constraint().get_config(),
                    np.asarray(constraints.Constraint()(TW)).tolist()]
regs = {"l1": regularizers.l1(0.1), "l2": regularizers.l2(0.2),
        "l1_l2": regularizers.l1_l2(0.1, 0.2),
        "orthogonal_regularizer": regularizers.orthogonal_regularizer(0.5, mode="columns")}
out["regs"] = {n: [type(r).__name__, r.get_config(), regularizers.serialize(r)["class_name"],
                   round(float(r(TW)), 5)] for n, r in regs.items()}
def outcome(f):
    try:
        return f()
    except Exception as e:
        return type(e).__name__
out["reg_base"] = [outcome(lambda: regularizers.Regularizer().get_config()),
                   type(regularizers.Regularizer.from_config({})).__name__,
                   outcome(lambda: regularizers.Regularizer()(W))]
"""


def test_stft_kernels_are_windowed_dft_rows():
    frame, bins = 8, 5
    real = keras.initializers.STFT("real", window="hann", scaling="density")((frame, 1, bins))
    imag = keras.initializers.STFTInitializer("imag", window=None)((frame, 1, bins))
    win = np.hanning(frame)
    t, f = np.arange(frame)[:, None], np.arange(bins)[None, :]
    dft = np.exp(-2j * np.pi * t * f / ((bins - 1) * 2))
    np.testing.assert_allclose(real.numpy()[:, 0], dft.real * win[:, None] / np.sqrt(
        np.sum(win ** 2)), atol=1e-6)
    np.testing.assert_allclose(imag.numpy()[:, 0], dft.imag, atol=1e-6)
    periodic = keras.initializers.STFT(window="hamming", scaling=None, periodic=True)((4, 1, 3))
    np.testing.assert_allclose(periodic.numpy()[:, 0, 0], np.hamming(5)[:4], atol=1e-6)
    with pytest.raises(ValueError, match="side should be 'real' or 'imag'"):
        keras.initializers.stft(side="both")
    with pytest.raises(ValueError, match="must be equal to \\[frame_length\\]"):
        keras.initializers.STFT(window=[1.0, 2.0])((3, 1, 2))


def test_alias_names_build_the_same_classes():
    initializers = keras.initializers
    pairs = [
        (initializers.glorot_normal, initializers.GlorotNormal),
        (initializers.he_uniform, initializers.HeUniform),
        (initializers.lecun_normal, initializers.LecunNormal),
        (initializers.lecun_uniform, initializers.LecunUniform),
        (initializers.identity, initializers.IdentityInitializer),
        (initializers.orthogonal, initializers.OrthogonalInitializer),
        (initializers.random_normal, initializers.RandomNormal),
        (initializers.random_uniform, initializers.RandomUniform),
        (initializers.truncated_normal, initializers.TruncatedNormal),
        (initializers.variance_scaling, initializers.VarianceScaling),
        (initializers.zeros, initializers.Zeros), (initializers.ones, initializers.Ones),
        (initializers.constant, initializers.Constant),
        (initializers.glorot_uniform, initializers.GlorotUniform),
        (initializers.he_normal, initializers.HeNormal), (initializers.stft, initializers.STFT)]
    for alias, cls in pairs:
        assert alias is cls
    constraints, regularizers = keras.constraints, keras.regularizers
    assert [constraints.max_norm, constraints.min_max_norm, constraints.non_neg,
            constraints.unit_norm] == [constraints.MaxNorm, constraints.MinMaxNorm,
                                       constraints.NonNeg, constraints.UnitNorm]
    assert [regularizers.l1, regularizers.l2, regularizers.l1_l2,
            regularizers.orthogonal_regularizer] == [regularizers.L1, regularizers.L2,
                                                     regularizers.L1L2,
                                                     regularizers.OrthogonalRegularizer]
    assert issubclass(constraints.MaxNorm, constraints.Constraint)
    assert issubclass(regularizers.L1, regularizers.Regularizer)


def test_seeded_initializers_repeat_and_keep_their_bounds():
    initializers = keras.initializers
    a = initializers.RandomUniform(-1.0, 3.0, seed=7)((50, 50)).numpy()
    assert np.array_equal(a, initializers.RandomUniform(-1.0, 3.0, seed=7)((50, 50)).numpy())
    assert a.min() >= -1.0 and a.max() < 3.0
    t = initializers.TruncatedNormal(0.0, 0.5, seed=8)((100, 100)).numpy()
    assert np.abs(t).max() <= 1.0 + 1e-6
    n = initializers.RandomNormal(0.5, 2.0, seed=6)((200, 200)).numpy()
    assert abs(n.mean() - 0.5) < 0.05 and abs(n.std() - 2.0) < 0.05
    q = initializers.OrthogonalInitializer(0.5, seed=5)((4, 4)).numpy()
    np.testing.assert_allclose(q @ q.T, 0.25 * np.eye(4), atol=1e-5)


def test_same_configs_and_values_as_real_keras():
    theirs = run_tf_json("import json, numpy as np, keras\n" + PROBE + "print(json.dumps(out))")
    scope = {"np": np, "keras": keras}
    exec(PROBE, scope)
    ours = json.loads(json.dumps(scope["out"]))
    for key in theirs:
        if key in ("init", "cons", "regs"):
            for name in theirs[key]:
                if name in ("identity", "IdentityInitializer"):
                    # Keras 3.15's Identity.get_config() forgets `gain` ({}); minitf keeps it,
                    # which Keras's from_config(**config) reads back
                    assert ours[key][name][1].pop("gain") in (1.0, 2.0)
                assert ours[key][name] == theirs[key][name], (key, name)
        else:
            assert ours[key] == theirs[key], key
