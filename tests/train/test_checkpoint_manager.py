"""save numbering, the `checkpoint` file, latest_checkpoint and CheckpointManager."""
import os

import pytest

import minitf as tf


def files(directory):
    return sorted(os.listdir(directory))


def test_save_numbers_and_writes_tfs_checkpoint_file(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    paths = [ckpt.save(str(tmp_path / "ck")) for _ in range(3)]
    assert [os.path.basename(p) for p in paths] == ["ck-1", "ck-2", "ck-3"]
    # exactly what TF 2.21's Checkpoint.save leaves (no timestamps: those are the manager's)
    assert (tmp_path / "checkpoint").read_text() == (
        'model_checkpoint_path: "ck-3"\nall_model_checkpoint_paths: "ck-3"\n')
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "ck-3")
    assert ckpt.save_counter.numpy() == 3


def test_latest_checkpoint_without_checkpoint_file_or_directory(tmp_path):
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    assert tf.train.latest_checkpoint(str(tmp_path / "nodir")) is None


def test_latest_checkpoint_ignores_a_named_but_missing_checkpoint(tmp_path):
    (tmp_path / "checkpoint").write_text('model_checkpoint_path: "ckpt-9"\n')
    assert tf.train.latest_checkpoint(str(tmp_path)) is None


def test_latest_checkpoint_warns_on_a_garbage_checkpoint_file(tmp_path):
    (tmp_path / "checkpoint").write_bytes(b"\xff\x00 not a text proto")
    with pytest.warns(UserWarning, match="Checkpoint ignored"):
        assert tf.train.latest_checkpoint(str(tmp_path)) is None


def test_manager_keeps_max_to_keep_and_deletes_old_files(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert manager.latest_checkpoint is None and manager.checkpoints == []
    saved = [manager.save() for _ in range(3)]
    assert saved == [str(tmp_path / f"ckpt-{i}") for i in (1, 2, 3)]
    assert manager.checkpoints == saved[1:]
    assert manager.latest_checkpoint == saved[2]
    assert files(tmp_path) == ["checkpoint", "ckpt-2.data-00000-of-00001", "ckpt-2.index",
                               "ckpt-3.data-00000-of-00001", "ckpt-3.index"]
    lines = (tmp_path / "checkpoint").read_text().splitlines()
    assert lines[:3] == ['model_checkpoint_path: "ckpt-3"',
                         'all_model_checkpoint_paths: "ckpt-2"',
                         'all_model_checkpoint_paths: "ckpt-3"']
    assert [line.split(":")[0] for line in lines[3:]] == [
        "all_model_checkpoint_timestamps", "all_model_checkpoint_timestamps",
        "last_preserved_timestamp"]
    # a new manager on the same directory picks the state up
    again = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert again.checkpoints == saved[1:] and again.latest_checkpoint == saved[2]
    assert again.save() == str(tmp_path / "ckpt-4")
    assert again.checkpoints == [saved[2], str(tmp_path / "ckpt-4")]
    assert not os.path.exists(saved[1] + ".index")


def test_manager_max_to_keep_none_keeps_everything(tmp_path):
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)),
                                         str(tmp_path), max_to_keep=None)
    for _ in range(4):
        manager.save()
    assert len(manager.checkpoints) == 4 and len(files(tmp_path)) == 9


def test_manager_checkpoint_interval(tmp_path):
    step = tf.Variable(0, dtype=tf.int64)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), str(tmp_path),
                                         max_to_keep=None, step_counter=step,
                                         checkpoint_interval=5)
    written = {}
    for s in range(12):
        step.assign(s)
        written[s] = manager.save()
    assert [s for s, p in written.items() if p is not None] == [0, 5, 10]  # as TF 2.21
    assert written[10] == str(tmp_path / "ckpt-3")
    assert manager.save(check_interval=False) == str(tmp_path / "ckpt-4")
    with pytest.raises(ValueError, match="`step_counter` should be passed if "
                       "`checkpoint_interval` is not None."):
        tf.train.CheckpointManager(manager.checkpoint, str(tmp_path), 1, checkpoint_interval=5)


def test_manager_checkpoint_number_and_restore_or_initialize(tmp_path):
    v = tf.Variable(1.0)
    called = []
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path), 3,
                                         init_fn=lambda: called.append(True))
    assert manager.restore_or_initialize() is None and called == [True]
    assert manager.save(checkpoint_number=100) == str(tmp_path / "ckpt-100")
    v.assign(5.0)
    assert manager.restore_or_initialize() == str(tmp_path / "ckpt-100")
    assert v.numpy() == 1.0


def test_manager_rejects_bad_max_to_keep(tmp_path):
    with pytest.raises(ValueError, match="positive integer"):
        tf.train.CheckpointManager(tf.train.Checkpoint(), str(tmp_path), max_to_keep=0)


def test_keep_checkpoint_every_n_hours_preserves_old_files(tmp_path, monkeypatch):
    from minitf.train import checkpoint_management

    clock = iter([0.0, 100.0, 4000.0, 4100.0])
    monkeypatch.setattr(checkpoint_management.time, "time", lambda: next(clock))
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)),
                                         str(tmp_path), max_to_keep=1,
                                         keep_checkpoint_every_n_hours=1)
    for _ in range(3):  # at t = 100 s, 4000 s, 4100 s
        manager.save()
    # ckpt-1 (100 s) was less than an hour after the start: deleted; ckpt-2 (4000 s) was
    # more than an hour after the last preserved time (0 s): kept on disk, no longer managed
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-3"]
    assert files(tmp_path) == ["checkpoint", "ckpt-2.data-00000-of-00001", "ckpt-2.index",
                               "ckpt-3.data-00000-of-00001", "ckpt-3.index"]
    assert (tmp_path / "checkpoint").read_text().endswith("last_preserved_timestamp: 4000.0\n")
