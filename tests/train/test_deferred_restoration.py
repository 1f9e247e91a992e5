"""Deferred restoration: what is created after `restore` gets its saved value on creation."""
import gc

import numpy as np

import minitf as tf

keras = tf.keras


def saved_module(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(3.0)
    m.sub = tf.Module()
    m.sub.w = tf.Variable([1.0, 2.0])
    return tf.train.Checkpoint(model=m).write(str(tmp_path / "m"))


def test_module_attribute_assigned_after_read_is_restored(tmp_path):
    path = saved_module(tmp_path)
    fresh = tf.Module()
    status = tf.train.Checkpoint(model=fresh).read(path)
    status.assert_existing_objects_matched()  # nothing exists yet: trivially matched
    fresh.v = tf.Variable(0.0)
    assert fresh.v.numpy() == 3.0
    fresh.sub = tf.Module()  # a deferred module: its own children wait in turn
    fresh.sub.w = tf.Variable([0.0, 0.0])
    np.testing.assert_array_equal(fresh.sub.w.numpy(), [1.0, 2.0])
    status.assert_consumed()


def test_unfinished_deferral_fails_assert_consumed_with_tf_text(tmp_path):
    path = saved_module(tmp_path)
    fresh = tf.Module()
    fresh.v = tf.Variable(0.0)
    status = tf.train.Checkpoint(model=fresh).read(path)
    assert fresh.v.numpy() == 3.0
    status.assert_existing_objects_matched()
    try:
        status.assert_consumed()
    except AssertionError as e:
        assert str(e).startswith("Unresolved object in checkpoint (root).model.sub.w: ")
        assert "model/sub/w/.ATTRIBUTES/VARIABLE_VALUE" in str(e)
    else:
        raise AssertionError("assert_consumed passed with model.sub.w unrestored")


def test_a_variable_assigned_later_with_the_wrong_shape_is_refused(tmp_path):
    path = saved_module(tmp_path)
    fresh = tf.Module()
    tf.train.Checkpoint(model=fresh).read(path)
    try:
        fresh.v = tf.Variable([0.0, 0.0])
    except ValueError as e:
        assert "Received incompatible tensor with shape () " in str(e)
    else:
        raise AssertionError("a (2,) variable took a () value")


def test_sequential_built_after_restore(tmp_path):
    source = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3)])
    path = tf.train.Checkpoint(model=source).write(str(tmp_path / "k"))
    target = keras.Sequential([keras.layers.Dense(3)])
    status = tf.train.Checkpoint(model=target).read(path)
    assert not target.built
    target.build((None, 2))
    np.testing.assert_array_equal(target.layers[0].kernel.numpy(),
                                  source.layers[0].kernel.numpy())
    status.assert_consumed()


def test_subclassed_model_built_after_restore(tmp_path):
    """minitf restores these too; TF 2.21 + Keras 3 leaves them unrestored (see report)."""
    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(3)

        def call(self, x):
            return self.d(x)

    source = Sub()
    source(np.ones((1, 2), "float32"))
    path = tf.train.Checkpoint(model=source).write(str(tmp_path / "s"))
    target = Sub()
    status = tf.train.Checkpoint(model=target).read(path)
    target(np.ones((1, 2), "float32"))
    np.testing.assert_array_equal(target.d.kernel.numpy(), source.d.kernel.numpy())
    np.testing.assert_array_equal(target.d.bias.numpy(), source.d.bias.numpy())
    status.assert_consumed()


def test_save_counter_is_restored_when_restore_makes_it(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    ckpt.save(str(tmp_path / "c"))
    path = ckpt.save(str(tmp_path / "c"))
    fresh = tf.train.Checkpoint(v=tf.Variable(0.0))
    fresh.restore(path).assert_consumed()
    assert fresh.save_counter.numpy() == 2
    assert fresh.save(str(tmp_path / "c")).endswith("c-3")  # numbering continues


def test_nothing_is_pending_after_everything_is_restored(tmp_path):
    from minitf import module
    from minitf.train import restore

    gc.collect()  # objects of earlier tests, with restores still waiting, are gone now
    # (an object another test file on this worker still holds may keep its own restore waiting)
    waiting_before = set(restore._PENDING)
    assert bool(module._on_assign) == bool(waiting_before)
    path = saved_module(tmp_path)
    fresh = tf.Module()
    tf.train.Checkpoint(model=fresh).read(path)
    assert module._on_assign  # the hook is armed while something waits
    fresh.v = tf.Variable(0.0)
    fresh.sub = tf.Module()
    fresh.sub.w = tf.Variable([0.0, 0.0])
    assert set(restore._PENDING) == waiting_before  # this checkpoint waits no more
    assert bool(module._on_assign) == bool(waiting_before)  # the hook disarmed if nothing waits
