"""tf.train.ExponentialMovingAverage: numbers, names and errors as TF 2.21's, eager and traced."""
import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

# One program, run by minitf here and by real TF in one subprocess; it returns plain JSON.
PROGRAM = '''
def program(tf):
    out = {}
    v = tf.Variable([1.0, 2.0], name="emaw")
    u = tf.Variable(3.0, name="emau")
    ema = tf.train.ExponentialMovingAverage(0.9)
    out["eager_return"] = repr(ema.apply([v, u]))
    out["name"] = ema.name
    out["shadow_name"] = ema.average(v).name
    out["trainable"] = ema.average(v).trainable
    out["average_name"] = [ema.average_name(v), ema.average_name(u)]
    steps = []
    for _ in range(3):
        v.assign_add([1.0, -1.0])
        u.assign(u * 2.0)
        ema.apply([v, u])
        steps.append([ema.average(v).numpy().tolist(), float(ema.average(u).numpy())])
    out["steps"] = steps
    n = tf.Variable(0)
    ema2 = tf.train.ExponentialMovingAverage(0.9, num_updates=n, zero_debias=True)
    w = tf.Variable(5.0, name="emaz")
    ema2.apply([w])
    w.assign(7.0)
    n.assign(4)
    ema2.apply([w])
    out["num_updates"] = float(ema2.average(w).numpy())
    out["unapplied"] = [ema.average(w) is None, ema.average_name(w)]
    step = tf.Variable(0)
    ema3 = tf.train.ExponentialMovingAverage(0.99, num_updates=step)
    z = tf.Variable([1.0, 2.0], dtype=tf.float64, name="emad")

    @tf.function(autograph=False)
    def train():
        z.assign_add([0.5, 1.0])
        step.assign_add(1)
        ema3.apply([z])

    traced = []
    for _ in range(3):
        train()
        traced.append(ema3.average(z).numpy().tolist())
    out["traced"] = traced
    out["traced_dtype"] = ema3.average(z).dtype.name
    errors = []
    for bad in (tf.constant(1.0), tf.Variable(1, name="emaint")):
        try:
            ema.apply([bad])
        except Exception as e:
            errors.append([type(e).__name__, str(e)])
    out["errors"] = errors
    out["restore_map"] = sorted(ema.variables_to_restore(moving_avg_variables=[v, u]))
    return out
'''


def run_here():
    scope = {}
    exec(PROGRAM, scope)
    return scope["program"](tf)


@pytest.fixture(scope="module")
def real():
    return run_tf_json(PROGRAM + "\nimport json, tensorflow as tf\nprint(json.dumps(program(tf)))")


def test_updates_by_hand():
    v = tf.Variable([1.0, 2.0])
    ema = tf.train.ExponentialMovingAverage(decay=0.5)
    assert ema.apply([v]) is None
    np.testing.assert_allclose(ema.average(v).numpy(), [1.0, 2.0])  # shadow starts as a copy
    v.assign([3.0, 0.0])
    ema.apply([v])
    np.testing.assert_allclose(ema.average(v).numpy(), [2.0, 1.0])  # 0.5 * old + 0.5 * new
    assert not ema.average(v).trainable


def test_num_updates_lowers_the_decay():
    step = tf.Variable(0)
    w = tf.Variable(0.0)
    ema = tf.train.ExponentialMovingAverage(0.99, num_updates=step)
    ema.apply([w])
    w.assign(10.0)
    ema.apply([w])  # decay = min(0.99, 1/10) = 0.1
    assert ema.average(w).numpy() == pytest.approx(9.0)


def test_errors_name_the_problem():
    ema = tf.train.ExponentialMovingAverage(0.9)
    with pytest.raises(TypeError, match="non-Variable tensors"):
        ema.apply([tf.constant(1.0)])
    with pytest.raises(TypeError, match="must be half, float, or double"):
        ema.apply([tf.Variable(1)])


def test_shadows_are_checkpointed_with_the_variables(tmp_path):
    v = tf.Variable([1.0, 2.0])
    ema = tf.train.ExponentialMovingAverage(0.5)
    ema.apply([v])
    v.assign([3.0, 4.0])
    ema.apply([v])
    path = tf.train.Checkpoint(v=v, v_avg=ema.average(v)).save(str(tmp_path / "ck"))
    v2 = tf.Variable([0.0, 0.0])
    ema2 = tf.train.ExponentialMovingAverage(0.5)
    ema2.apply([v2])
    tf.train.Checkpoint(v=v2, v_avg=ema2.average(v2)).restore(path).assert_consumed()
    np.testing.assert_allclose(ema2.average(v2).numpy(), [2.0, 3.0])
    np.testing.assert_allclose(v2.numpy(), [3.0, 4.0])
    with pytest.raises(ValueError, match="trackable"):
        tf.train.Checkpoint(ema=ema)  # as TF: the object itself is not trackable


def test_program_matches_real_tf(real):
    here = run_here()
    for key in ("eager_return", "name", "trainable", "average_name", "unapplied", "errors",
                "restore_map", "traced_dtype"):
        assert here[key] == real[key], key
    assert here["shadow_name"] == real["shadow_name"]
    np.testing.assert_allclose(here["steps"][0][0], real["steps"][0][0], rtol=1e-6)
    for mine, theirs in zip(here["steps"], real["steps"]):
        np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-6)
        assert mine[1] == pytest.approx(theirs[1], rel=1e-6)
    assert here["num_updates"] == pytest.approx(real["num_updates"], rel=1e-6)
    np.testing.assert_allclose(here["traced"], real["traced"], rtol=1e-12)
