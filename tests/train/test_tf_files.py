"""Files real TF 2.21 wrote (tests/fixtures/train, see its README): minitf reads TF's
`checkpoint` state file, and refuses TF's binary checkpoints with a clear DataLossError."""
import os
import shutil

import pytest

import minitf as tf

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "train",
                       "tf_manager")


def test_latest_checkpoint_reads_tfs_checkpoint_file():
    assert tf.train.latest_checkpoint(FIXTURE) == os.path.join(FIXTURE, "ckpt-3")


def test_manager_picks_up_tfs_state(tmp_path):
    directory = shutil.copytree(FIXTURE, tmp_path / "m")
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable([0.0, 0.0])),
                                         str(directory), max_to_keep=2)
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-2", "ckpt-3"]
    assert manager.latest_checkpoint == os.path.join(directory, "ckpt-3")
    manager.save(checkpoint_number=4)  # minitf's own ckpt-4; TF's ckpt-2 is swept away
    assert sorted(os.listdir(directory)) == [
        "checkpoint", "ckpt-3.data-00000-of-00001", "ckpt-3.index",
        "ckpt-4.data-00000-of-00001", "ckpt-4.index"]
    text = (directory / "checkpoint").read_text()
    assert text.startswith('model_checkpoint_path: "ckpt-4"\n'
                           'all_model_checkpoint_paths: "ckpt-3"\n'
                           'all_model_checkpoint_paths: "ckpt-4"\n')
    # TF's timestamps and last_preserved_timestamp are carried over
    assert "all_model_checkpoint_timestamps: 1795731831.3632448\n" in text
    assert text.endswith("last_preserved_timestamp: 1795731830.0193057\n")


def test_tfs_binary_checkpoint_is_refused_clearly():
    with pytest.raises(tf.errors.DataLossError, match="TensorFlow's own format") as info:
        tf.train.load_checkpoint(os.path.join(FIXTURE, "ckpt-3"))
    assert "ckpt-3.index" in str(info.value)
