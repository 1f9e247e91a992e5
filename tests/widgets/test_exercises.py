"""widgets.exercises: the self-checks at the end of every lesson exercise."""
import doctest

import numpy as np
import pytest

import minitf as tf
from widgets import exercises
from widgets.exercises import NOT_ATTEMPTED, check, check_function, difference


def printed(capsys):
    return capsys.readouterr().out


@pytest.mark.parametrize("answer", [None, ...])
def test_unattempted_answer_prints_a_reminder_and_does_not_raise(answer, capsys):
    assert check(answer, tf.zeros([2])) is None
    assert printed(capsys) == NOT_ATTEMPTED + "\n"


@pytest.mark.parametrize("function", [None, ...])
def test_unattempted_function_prints_a_reminder(function, capsys):
    check_function(function, tf.square, [tf.constant(2.0)])
    assert printed(capsys) == NOT_ATTEMPTED + "\n"


def test_function_whose_body_is_still_ellipsis_counts_as_unattempted(capsys):
    def todo(x):
        ...

    check_function(todo, tf.square, [tf.constant(2.0)])
    assert printed(capsys) == NOT_ATTEMPTED + "\n"


def test_right_answer_prints_a_tick_with_the_label(capsys):
    check(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0]), label="Exercise 2")
    assert printed(capsys) == "✓ Exercise 2: correct.\n"


def test_wrong_shape_is_reported_before_values_with_the_hint(capsys):
    check(tf.zeros([3, 2]), tf.zeros([2, 3]), hint="Rows come first.")
    assert printed(capsys) == ("✗ The shape is (3, 2), but it should be (2, 3).\n"
                               "  Hint: Rows come first.\n")


def test_wrong_dtype_is_reported():
    assert difference(tf.constant([1, 2]), tf.constant([1.0, 2.0])) == (
        "The dtype is int32, but it should be float32.")


def test_wrong_values_show_both_arrays():
    problem = difference(tf.constant([1.0, 5.0]), tf.constant([1.0, 2.0]))
    assert problem.startswith("The values differ: got\n")
    assert "[1. 5.]" in problem and "[1. 2.]" in problem


def test_floats_compare_within_tolerance_and_nan_equals_nan():
    assert difference(tf.constant([0.1 + 1e-9, np.nan]), tf.constant([0.1, np.nan])) is None
    assert difference(tf.constant([0.1 + 1e-3]), tf.constant([0.1])) is not None


def test_integers_and_booleans_compare_exactly():
    assert difference(tf.constant([True, False]), tf.constant([True, False])) is None
    assert difference(tf.constant([True, True]), tf.constant([True, False])) is not None
    assert difference(tf.constant([3]), tf.constant([4])) is not None


def test_numpy_array_or_list_where_a_tensor_is_expected_is_explained():
    assert "a NumPy array, but a tensor is expected" in difference(
        np.zeros(2, np.float32), tf.zeros([2]))
    assert "a list, but a tensor is expected" in difference([0.0, 0.0], tf.zeros([2]))


def test_variable_is_accepted_where_a_tensor_is_expected():
    assert difference(tf.Variable([1.0, 2.0]), tf.constant([1.0, 2.0])) is None


def test_numpy_expected_accepts_array_like_answers():
    assert difference([[1, 2], [3, 4]], np.array([[1, 2], [3, 4]])) is None
    assert difference(tf.constant([1.0, 2.0]), np.array([1.0, 2.0])) is None
    assert difference([1, 2, 3], np.array([1, 2])).startswith("The shape is (3,)")


def test_shapes_compare_as_tuples():
    assert difference(tf.TensorShape([2, 3]), tf.TensorShape([2, 3])) is None
    assert difference((2, 3), tf.TensorShape([2, 3])) is None
    assert difference([3, 2], tf.TensorShape([2, 3])) == (
        "The shape is (3, 2), but it should be (2, 3).")
    assert difference(tf.shape(tf.zeros([2, 3])), tf.TensorShape([2, 3])) is None


def test_dtypes_compare_by_identity():
    assert difference(tf.float32, tf.float32) is None
    assert difference(tf.int32, tf.float32) == "The answer is int32, but it should be float32."


def test_numbers_accept_python_numpy_and_scalar_tensors():
    assert difference(6, 6) is None
    assert difference(np.float32(0.5), 0.5) is None
    assert difference(tf.constant(2.5), 2.5) is None
    assert difference(tf.constant([2.5]), 2.5) == (
        "The answer has shape (1,); a single number is expected.")
    assert difference("six", 6) == "The answer is a str, but a number is expected."
    assert difference(7, 6) == "The answer is 7, but it should be 6."


def test_lists_of_tensors_compare_item_by_item():
    expected = [tf.constant([1, 2]), tf.constant([3])]
    assert difference([tf.constant([1, 2]), tf.constant([3])], expected) is None
    assert difference([tf.constant([1, 2])], expected) == (
        "The answer has 1 items, but it should have 2.")
    assert difference([tf.constant([1, 2]), tf.constant([4])], expected).startswith(
        "Item 1: the values differ")
    assert difference(tf.constant([1, 2]), expected).startswith("The answer is a EagerTensor")


def test_strings_and_booleans():
    assert difference("row-major", "row-major") is None
    assert difference(False, True) == "The answer is False, but it should be True."


def test_a_comparison_that_fails_internally_is_reported_not_raised(capsys):
    class Weird:
        numpy = dtype = None

        @property
        def shape(self):
            raise RuntimeError("no shape today")

    check(Weird(), tf.zeros([2]))
    assert printed(capsys) == (
        "✗ The answer could not be compared: RuntimeError: no shape today\n")


def test_check_function_reports_the_first_failing_case(capsys):
    cases = [tf.constant(1.0), tf.constant([1.0, -2.0])]
    check_function(lambda x: x * x, tf.square, cases, label="Square")
    assert printed(capsys) == "✓ Square: correct.\n"
    check_function(lambda x: x * 2, tf.square, cases, hint="Multiply x by itself.")
    out = printed(capsys)
    assert out.startswith("✗ Called with a float32 tensor of shape (): the values differ")
    assert out.endswith("  Hint: Multiply x by itself.\n")


def test_check_function_reports_an_exception_from_the_learners_code(capsys):
    def broken(x, y):
        return x + y  # float32 + int32: TF refuses

    check_function(broken, lambda x, y: x, [(tf.constant(1.0), tf.constant(1))])
    out = printed(capsys)
    assert out.startswith("✗ Called with a float32 tensor of shape (), a int32 tensor of shape "
                          "(), your function raised InvalidArgumentError: ")


def test_docstring_examples_run():
    result = doctest.testmod(exercises)
    assert result.attempted > 0 and result.failed == 0


def test_exercise_ladder_climbs_and_repeats_its_last_rung(capsys):
    ex = exercises.Exercise("Ex", ["nudge", "stronger"])
    for _ in range(3):
        ex.check(tf.constant(1.0), tf.constant(2.0))
    hints = [line for line in printed(capsys).splitlines() if "Hint" in line]
    assert hints == ["  Hint: nudge", "  Hint: stronger", "  Hint: stronger"]
    ex.reset()
    ex.check(tf.constant(1.0), tf.constant(2.0))
    assert printed(capsys).endswith("  Hint: nudge\n")


def test_exercise_mistake_hint_wins_and_a_raising_test_does_not_match(capsys):
    def boom(answer):
        raise RuntimeError("cannot tell")

    ex = exercises.Exercise("Ex", ["nudge"], mistakes=[
        (boom, "never"), (lambda a: exercises.same(a, 3), "off by one")])
    ex.check(3, 2)
    assert printed(capsys) == "✗ Ex: The answer is 3, but it should be 2.\n  Hint: off by one\n"
    ex.check(7, 2)
    assert printed(capsys).endswith("  Hint: nudge\n")


def test_exercise_can_keep_the_expected_value_out_of_the_message(capsys):
    ex = exercises.Exercise("Ex", ["nudge"])
    ex.check((3, 2), tf.TensorShape([2, 3]), show_expected=False)
    ex.check(tf.constant([1.0]), tf.constant([2.0]), show_expected=False)
    out = printed(capsys)
    assert "(2, 3)" not in out and "2." not in out.replace("(3, 2)", "")
    assert "The shape is (3, 2), which is not right." in out
    assert "The values are not right." in out


def test_exercise_check_function_turns_every_failure_into_a_hint(capsys):
    ex = exercises.Exercise("Ex", ["nudge"], mistakes=[
        (lambda f: isinstance(exercises.outcome(f, tf.constant(1.0)), ZeroDivisionError),
         "do not divide")])
    ex.check_function(lambda x: 1 / 0, tf.square, [tf.constant(2.0)])
    assert printed(capsys).endswith("your function raised ZeroDivisionError: division by "
                                    "zero\n  Hint: do not divide\n")
    ex.check_function(42, tf.square, [tf.constant(2.0)])
    assert printed(capsys).startswith("✗ Ex: The answer is a int, but a function is expected.")
    ex.check_function(tf.square, tf.square, [tf.constant(2.0)])
    assert printed(capsys) == "✓ Ex: correct.\n"


def test_strings_of_digits_are_not_shapes():
    assert difference("23", tf.TensorShape([2, 3])) is not None


def test_a_function_that_forgets_return_is_told_so_not_called_unattempted(capsys):
    def forgot(x):
        y = x * x  # noqa: F841 - the mistake under test

    @tf.function
    def todo(x):
        ...

    check_function(forgot, tf.square, [tf.constant(2.0)])
    assert printed(capsys) == ("✗ Called with a float32 tensor of shape (), your function "
                               "returned None: is its `return` missing?\n")
    check_function(todo, tf.square, [tf.constant(2.0)])
    assert printed(capsys) == NOT_ATTEMPTED + "\n"


def test_none_can_be_the_answer_under_test(capsys):
    ex = exercises.Exercise("Ex", ["watch it"])
    ex.check(None, tf.constant(1.0), none_is_an_answer=True)
    assert printed(capsys).startswith("✗ Ex: The answer is a NoneType, but a tensor is expected")
    ex.check(..., tf.constant(1.0), none_is_an_answer=True)
    assert printed(capsys) == NOT_ATTEMPTED + "\n"
