"""get_checkpoint_state, checkpoints_iterator, CheckpointOptions and Coordinator, as TF 2.21's."""
import os
import threading
import time

import pytest

import minitf as tf
from tests.real_tf import run_tf_json


def test_get_checkpoint_state_fields(tmp_path):
    assert tf.train.get_checkpoint_state(str(tmp_path)) is None
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)),
                                         str(tmp_path), max_to_keep=3)
    first, second = manager.save(), manager.save()
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == second
    assert state.all_model_checkpoint_paths == [first, second]
    assert len(state.all_model_checkpoint_timestamps) == 2
    assert state.last_preserved_timestamp > 0
    assert str(state).startswith(f'model_checkpoint_path: "{second}"\n')


def test_get_checkpoint_state_bad_files(tmp_path):
    (tmp_path / "checkpoint").write_text("garbage")
    with pytest.warns(UserWarning, match="Checkpoint ignored"):
        assert tf.train.get_checkpoint_state(str(tmp_path)) is None
    (tmp_path / "checkpoint").write_text('all_model_checkpoint_paths: "a"\n')
    with pytest.raises(ValueError, match="Invalid checkpoint state loaded from"):
        tf.train.get_checkpoint_state(str(tmp_path))


def test_checkpoints_iterator_yields_each_new_checkpoint_once(tmp_path):
    start = time.time()
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0)) == []
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    first = ckpt.save(str(tmp_path / "ck"))
    seen = []
    calls = []

    def timeout_fn():  # a training job that writes one more checkpoint, then ends
        calls.append(1)
        if len(calls) == 1:
            seen.append(ckpt.save(str(tmp_path / "ck")))
            return False
        return True

    got = list(tf.train.checkpoints_iterator(str(tmp_path), min_interval_secs=0.05,
                                             timeout=0, timeout_fn=timeout_fn))
    assert got == [first, seen[0]]
    assert time.time() - start < 2.0


def test_checkpoint_options_are_accepted_everywhere(tmp_path):
    options = tf.train.CheckpointOptions(enable_async=True)
    assert options.experimental_enable_async_checkpoint is True
    assert options.experimental_io_device is None
    v = tf.Variable(2.0)
    ckpt = tf.train.Checkpoint(v=v)
    path = ckpt.save(str(tmp_path / "s"), options=options)
    written = ckpt.write(str(tmp_path / "w"), options=options)
    v.assign(0.0)
    ckpt.read(written, options=options).assert_consumed()
    assert v.numpy() == 2.0
    v.assign(0.0)
    ckpt.restore(path, options=options).assert_consumed()
    assert v.numpy() == 2.0


def test_coordinator_stops_threads_and_reraises():
    coord = tf.train.Coordinator()
    assert not coord.should_stop()

    def worker(n):
        with coord.stop_on_exception():
            if n == 1:
                raise KeyError("boom")
            coord.wait_for_stop()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    with pytest.raises(KeyError, match="boom"):
        coord.join(threads, stop_grace_period_secs=5)
    assert coord.should_stop() and coord.joined
    coord.clear_stop()
    assert not coord.should_stop() and not coord.joined


def test_coordinator_clean_stop_and_stragglers():
    coord = tf.train.Coordinator()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "end of input"))
    coord.join([])  # OutOfRangeError is a clean stop: nothing raised
    coord.clear_stop()
    release = threading.Event()
    t = threading.Thread(target=release.wait, name="slow")
    t.start()
    coord.register_thread(t)
    coord.request_stop()
    with pytest.raises(RuntimeError, match="threads still running: slow"):
        coord.join(stop_grace_period_secs=0.01)
    release.set()
    t.join()
    with pytest.raises(ValueError, match="late"):
        coord.request_stop(ValueError("late"))  # after join: raised at once


TF_PROGRAM = '''
import json, os, time, threading, tensorflow as tf
mine, theirs = MINE, THEIRS
out = {}
s = tf.train.get_checkpoint_state(mine)
out["reads_mine"] = [s.model_checkpoint_path, list(s.all_model_checkpoint_paths),
                     list(s.all_model_checkpoint_timestamps), s.last_preserved_timestamp]
m = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), theirs, max_to_keep=2)
m.save(); m.save(); m.save()
s = tf.train.get_checkpoint_state(theirs)
out["theirs_str"] = str(s)
out["iter"] = list(tf.train.checkpoints_iterator(theirs, timeout=0))
o = tf.train.CheckpointOptions()
out["options"] = [o.experimental_io_device, o.experimental_enable_async_checkpoint,
                  o.experimental_write_callbacks, o.enable_async,
                  o.experimental_skip_slot_variables, o.experimental_sharding_callback]
c = tf.train.Coordinator()
c.request_stop(tf.errors.OutOfRangeError(None, None, "x"))
out["coord"] = [c.should_stop(), c.joined]
c.join([])
out["coord"].append(c.joined)
print(json.dumps(out))
'''


def test_matches_real_tf(tmp_path):
    mine, theirs = str(tmp_path / "mine"), str(tmp_path / "theirs")
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), mine,
                                         max_to_keep=2)
    manager.save()
    manager.save()
    state = tf.train.get_checkpoint_state(mine)
    real = run_tf_json(TF_PROGRAM.replace("MINE", repr(mine)).replace("THEIRS", repr(theirs)))
    assert real["reads_mine"] == [state.model_checkpoint_path,
                                  state.all_model_checkpoint_paths,
                                  state.all_model_checkpoint_timestamps,
                                  state.last_preserved_timestamp]
    assert str(tf.train.get_checkpoint_state(theirs)) == real["theirs_str"]
    assert list(tf.train.checkpoints_iterator(theirs, timeout=0)) == real["iter"]
    o = tf.train.CheckpointOptions()
    assert [o.experimental_io_device, o.experimental_enable_async_checkpoint,
            o.experimental_write_callbacks, o.enable_async,
            o.experimental_skip_slot_variables,
            o.experimental_sharding_callback] == real["options"]
    c = tf.train.Coordinator()
    c.request_stop(tf.errors.OutOfRangeError(None, None, "x"))
    coord = [c.should_stop(), c.joined]
    c.join([])
    assert coord + [c.joined] == real["coord"]
    assert os.path.basename(real["iter"][0]) == "ckpt-3"


def test_state_prints_doubles_as_a_protobuf_message_does():
    """str() of TF's CheckpointState (upb) gives 15 significant digits, or 17 when 15 do not
    round-trip, and 1 for 1.0; the file keeps Python's shortest repr (checked with real TF)."""
    from minitf.train.checkpoint_watch import CheckpointState
    text = str(CheckpointState("a", ["a"], [1795778481.6839471, 0.5], 1.0))
    assert "all_model_checkpoint_timestamps: 1795778481.6839471\n" in text
    assert "all_model_checkpoint_timestamps: 0.5\n" in text
    assert text.endswith("last_preserved_timestamp: 1\n")
