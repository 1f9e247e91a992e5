"""The status object of restore/read: assert_consumed, assert_existing_objects_matched,
assert_nontrivial_match, expect_partial - with TF 2.21's messages (checked by hand in
/tmp/tfvenv; the same calls)."""
import pytest

import minitf as tf


@pytest.fixture
def saved(tmp_path):
    return tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).write(str(tmp_path / "a"))


def test_exact_match_passes_every_assert(saved):
    status = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0])).read(saved)
    assert status.assert_consumed() is status
    assert status.assert_existing_objects_matched() is status
    assert status.assert_nontrivial_match() is status
    assert status.expect_partial() is status


def test_an_extra_python_object_fails_both_asserts(saved):
    w = tf.Variable(1.0)
    status = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0]), w=w).read(saved)
    message = ("Found 1 Python objects that were not bound to checkpointed values, likely due "
               "to changes in the Python program. Showing 1 of 1 unmatched objects: "
               f"[{w!r}]")
    for check in (status.assert_consumed, status.assert_existing_objects_matched):
        with pytest.raises(AssertionError) as info:
            check()
        assert str(info.value) == message
    status.assert_nontrivial_match()  # v did match


def test_an_unused_checkpoint_value_fails_only_assert_consumed(saved):
    status = tf.train.Checkpoint().read(saved)
    status.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match=r"^Unresolved object in checkpoint \(root\)\.v: "):
        status.assert_consumed()
    with pytest.raises(AssertionError, match="Nothing except the root object matched"):
        status.assert_nontrivial_match()
    status.expect_partial()


def test_restore_makes_save_counter_and_reports_it_when_the_file_lacks_it(saved):
    status = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0])).restore(saved)
    with pytest.raises(AssertionError, match="save_counter:0"):
        status.assert_consumed()  # TF 2.21 says the same: the file has no save_counter


def test_restore_none_is_initialization_only():
    status = tf.train.Checkpoint(v=tf.Variable(1.0)).restore(None)
    assert type(status).__name__ == "InitializationOnlyStatus"
    for check in (status.assert_consumed, status.assert_existing_objects_matched,
                  status.assert_nontrivial_match):
        with pytest.raises(AssertionError, match=r"^No checkpoint specified \(save_path=None\); "
                           "nothing is being restored.$"):
            check()
    assert status.expect_partial() is status
