"""Lesson 18's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l18, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l18.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l18.check_ex1, l18.check_ex2, l18.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"
    assert verdict(check, None) == NOT_ATTEMPTED + "\n"


def test_unattempted_function_bodies(verdict):
    def next_value_pairs(series, size):
        ...

    def fast_pipeline(images):
        ...

    assert verdict(l18.check_ex2, next_value_pairs) == NOT_ATTEMPTED + "\n"
    assert verdict(l18.check_ex3, fast_pipeline) == NOT_ATTEMPTED + "\n"


# --- exercise 1 ----------------------------------------------------------------------------

@pytest.mark.parametrize("form", [list, tuple, np.array])
def test_ex1_every_form_of_the_right_sizes(form, verdict):
    assert "✓" in verdict(l18.check_ex1, form([3, 3, 1, 3, 3, 1]))


@pytest.mark.parametrize("wrong,hint", [
    ([3, 3, 3, 3, 2], "here batch comes first"),      # repeat(2).batch(3)
    ([3, 3, 3, 3], "drop_remainder=True"),             # as if the short batch were dropped
    ([3, 3, 1], "plays the batches twice"),            # one pass
    ([3, 3, 3, 3, 3, 3], "what does batch(3) make"),   # no targeted mistake: the ladder
])
def test_ex1_typical_mistakes_get_their_hint(wrong, hint, verdict):
    out = verdict(l18.check_ex1, wrong)
    assert out.startswith("✗") and hint in out
    assert "3, 3, 1, 3, 3, 1" not in out  # the answer is never shown


def test_ex1_odd_answers_do_not_raise(verdict):
    assert verdict(l18.check_ex1, "336").startswith("✗")
    assert verdict(l18.check_ex1, 6).startswith("✗")


# --- exercise 2 ----------------------------------------------------------------------------

def right_pairs(series, size):
    values = tf.data.Dataset.from_tensor_slices(series)
    stretches = values.window(size + 1, shift=1, drop_remainder=True)
    return stretches.flat_map(lambda w: w.batch(size + 1)).map(lambda s: (s[:-1], s[-1]))


def right_pairs_by_batching_twice(series, size):
    """Another correct form: windows of `size` zipped with the series shifted by `size`."""
    values = tf.data.Dataset.from_tensor_slices(series)
    inputs = values.window(size, shift=1, drop_remainder=True).flat_map(
        lambda w: w.batch(size))
    return tf.data.Dataset.zip(inputs, values.skip(size))


def keeps_short_windows(series, size):
    values = tf.data.Dataset.from_tensor_slices(series)
    stretches = values.window(size + 1, shift=1).flat_map(lambda w: w.batch(size + 1))
    return stretches.map(lambda s: (s[:-1], s[-1]))


def window_too_short(series, size):
    values = tf.data.Dataset.from_tensor_slices(series)
    stretches = values.window(size, shift=1, drop_remainder=True).flat_map(
        lambda w: w.batch(size))
    return stretches.map(lambda s: (s[:-1], s[-1]))


def hard_coded(series, size):
    return tf.data.Dataset.from_tensors((tf.constant([1.0, 2.0, 3.0]), tf.constant(4.0)))


@pytest.mark.parametrize("function", [right_pairs, right_pairs_by_batching_twice])
def test_ex2_right_answers(function, verdict):
    assert "✓" in verdict(l18.check_ex2, function)


@pytest.mark.parametrize("function,hint", [
    (keeps_short_windows, "drop_remainder=True"),
    (window_too_short, "one longer"),
    (hard_coded, "Each pair needs size + 1"),
    (lambda series, size: series, "not a dataset"),
    (lambda series, size: tf.data.Dataset.from_tensor_slices(series), "not (inputs, target)"),
    (lambda series, size: 1 / 0, "ZeroDivisionError"),
])
def test_ex2_mistakes(function, hint, verdict):
    out = verdict(l18.check_ex2, function)
    assert out.startswith("✗") and hint in out, out


def test_ex2_missing_return(verdict):
    def no_return(series, size):
        right_pairs(series, size)

    assert "`return` missing" in verdict(l18.check_ex2, no_return)


# --- exercise 3 ----------------------------------------------------------------------------

def brighten(image):
    return tf.minimum(tf.cast(image, tf.float32) * 1.5, 255.0)


def test_ex3_batch_then_map_is_right_also_with_prefetch(verdict):
    def fast(images):
        return tf.data.Dataset.from_tensor_slices(images).batch(32).map(brighten)

    def fast_parallel(images):
        return (tf.data.Dataset.from_tensor_slices(images).batch(32)
                .map(brighten, num_parallel_calls=2).prefetch(1))

    assert "✓" in verdict(l18.check_ex3, fast)
    assert "✓" in verdict(l18.check_ex3, fast_parallel)


def test_ex3_the_slow_pipeline_itself_is_caught(verdict):
    def slow(images):
        return tf.data.Dataset.from_tensor_slices(images).map(brighten).batch(32)

    out = verdict(l18.check_ex3, slow)
    assert out.startswith("✗") and "Batch first" in out


@pytest.mark.parametrize("function,hint", [
    (lambda images: tf.data.Dataset.from_tensor_slices(images).batch(16).map(brighten),
     "shapes"),
    (lambda images: tf.data.Dataset.from_tensor_slices(images).batch(32),  # no brighten
     "other values"),
    (lambda images: tf.data.Dataset.from_tensor_slices(images[:32]).batch(32).map(brighten),
     "shapes"),  # hard-coded to the first batch
    (lambda images: [brighten(images)], "not a dataset"),
])
def test_ex3_mistakes(function, hint, verdict):
    out = verdict(l18.check_ex3, function)
    assert out.startswith("✗") and hint in out, out
