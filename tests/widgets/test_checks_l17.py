"""Lesson 17's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l17, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l17.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l17.check_ex1, l17.check_ex2, l17.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"
    assert verdict(check, None) == NOT_ATTEMPTED + "\n"


def test_unattempted_function_body(verdict):
    def parse_record(serialized):
        ...

    assert verdict(l17.check_ex3, parse_record) == NOT_ATTEMPTED + "\n"


# --- exercise 1 ----------------------------------------------------------------------------

@pytest.mark.parametrize("answer", [(28, 28), [28, 28], np.array([28, 28]),
                                    tf.TensorShape([28, 28])])
def test_ex1_every_form_of_the_right_shape(answer, verdict):
    assert "✓" in verdict(l17.check_ex1, answer)


@pytest.mark.parametrize("wrong,hint", [
    ((6, 28, 28), "from_tensors' single element"),
    ((6,), "how many elements there are"),
    ((28,), "Only the first axis"),
    ((6, 28), "Only the first axis"),
    ((1, 28, 28), "cuts its input along one axis"),    # no targeted mistake: the ladder
])
def test_ex1_typical_mistakes_get_their_hint(wrong, hint, verdict):
    out = verdict(l17.check_ex1, wrong)
    assert out.startswith("✗") and hint in out
    assert "(28, 28)" not in out  # the answer is never shown


def test_ex1_expected_comes_from_minitf_not_a_literal(monkeypatch, verdict):
    monkeypatch.setattr(l17, "_ex1_images", lambda: np.zeros((5, 7, 3), np.float32))
    assert "✓" in verdict(l17.check_ex1, (7, 3))
    assert verdict(l17.check_ex1, (28, 28)).startswith("✗")


# --- exercise 2 ----------------------------------------------------------------------------

@pytest.mark.parametrize("answer", [tf.TensorSpec([None], tf.int32),
                                    tf.TensorSpec(shape=(None,), dtype=tf.int64),
                                    tf.TensorSpec([None], tf.int16)])
def test_ex2_right_signatures(answer, verdict):
    assert "✓" in verdict(l17.check_ex2, answer)


@pytest.mark.parametrize("wrong,hint", [
    (tf.TensorSpec([], tf.int32), "Shape [] is a single number"),
    (tf.TensorSpec([3], tf.int32), "A fixed length fails"),
    (tf.TensorSpec([4], tf.int64), "A fixed length fails"),
    (tf.TensorSpec(None, tf.int32), "shape=None accepts anything"),
    (tf.TensorSpec([None], tf.float32), "give an integer dtype"),
    (tf.TensorSpec([None, None], tf.int32), "Look at what one yield produces"),   # the ladder
    ([None], "output_signature wants a tf.TensorSpec"),
    (tf.int32, "output_signature wants a tf.TensorSpec"),
])
def test_ex2_typical_mistakes_get_their_hint(wrong, hint, verdict):
    out = verdict(l17.check_ex2, wrong)
    assert out.startswith("✗") and hint in out


def test_ex2_reads_rows_the_lesson_never_showed():
    rows = l17._ex2_rows()
    assert [len(r) for r in rows] == [3, 1, 4, 2]
    assert rows != [[12, 40, 7], [3], [18, 18, 2, 9]]
    assert l17._ex2_values(tf.TensorSpec([None], tf.int32)) == rows


# --- exercise 3 ----------------------------------------------------------------------------

SPEC = {"point": tf.io.FixedLenFeature([2], tf.float32),
        "label": tf.io.FixedLenFeature([], tf.int64)}


def right(serialized):
    parsed = tf.io.parse_single_example(serialized, SPEC)
    return parsed["point"], parsed["label"]


def right_in_graph(serialized):
    parsed = tf.function(lambda s: tf.io.parse_example(tf.reshape(s, [1]), SPEC))(serialized)
    return tf.reshape(parsed["point"], [2]), tf.reshape(parsed["label"], [])


@pytest.mark.parametrize("answer", [right, right_in_graph])
def test_ex3_right_answers(answer, verdict):
    assert "✓" in verdict(l17.check_ex3, answer)


def point_as_scalar(serialized):
    parsed = tf.io.parse_single_example(serialized, {
        "point": tf.io.FixedLenFeature([], tf.float32), "label": SPEC["label"]})
    return parsed["point"], parsed["label"]


def label_as_float(serialized):
    parsed = tf.io.parse_single_example(serialized, {
        "point": SPEC["point"], "label": tf.io.FixedLenFeature([], tf.float32)})
    return parsed["point"], parsed["label"]


def the_dict(serialized):
    return tf.io.parse_single_example(serialized, SPEC)


def swapped(serialized):
    point, label = right(serialized)
    return label, point


def hard_coded(serialized):
    return tf.constant([0.5, -1.0]), tf.constant(1, tf.int64)


def no_return(serialized):
    right(serialized)


@pytest.mark.parametrize("wrong,hint", [
    (point_as_scalar, "a FixedLenFeature's shape is the number of values"),
    (label_as_float, "int64_list -> tf.int64"),
    (the_dict, "return (parsed['point'], parsed['label'])"),
    (swapped, "Describe each feature"),          # no targeted mistake: the ladder
    (hard_coded, "Describe each feature"),
    (no_return, "`return`"),
    (42, "a function is expected"),
])
def test_ex3_typical_mistakes_get_their_hint(wrong, hint, verdict):
    out = verdict(l17.check_ex3, wrong)
    assert out.startswith("✗") and hint in out


def test_ex3_records_are_the_checks_own():
    points = [point.tolist() for _, point, _ in l17._ex3_records()]
    assert len({tuple(p) for p in points}) == 4


def test_the_hint_ladder_climbs(capsys):
    reset(l17.EXERCISES)
    l17.check_ex1((1, 28, 28))
    l17.check_ex1((2, 28, 28))
    out = capsys.readouterr().out.split("\n✗")
    assert "cuts its input along one axis" in out[0] and "The first axis (6 images)" in out[1]


def test_ex1_odd_answers_do_not_raise(verdict):
    assert verdict(l17.check_ex1, [[28], [28]]).startswith("✗")
    assert verdict(l17.check_ex1, "28, 28").startswith("✗")
