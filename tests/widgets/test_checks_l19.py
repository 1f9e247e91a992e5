"""Lesson 19's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l19, reset

layers = tf.keras.layers


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l19.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


def _todo(words): ...


@pytest.mark.parametrize("check,answer", [(l19.check_ex1, ...), (l19.check_ex1, None),
                                          (l19.check_ex2, ...), (l19.check_ex3, ...),
                                          (l19.check_ex3, _todo)])
def test_unattempted(check, answer, verdict):
    assert verdict(check, answer) == NOT_ATTEMPTED + "\n"


# --- exercise 1 ---------------------------------------------------------------------

def test_ex1_expected_width_is_dense_features_own():
    batch = {"area": np.array([50.0]), "year_built": np.array([1950.0]),
             "heating": np.array(["gas"]), "neighbourhood": np.array(["Elm Hill"]),
             "rooms": np.array([3])}
    out = tf.keras.layers.DenseFeatures(l19.exercise_columns())(batch)
    assert out.shape[1] == l19._width() == 1 + 6 + 6 + 4 + 12


@pytest.mark.parametrize("right", [29, np.int64(29), np.int32(29)])
def test_ex1_right_forms(right, verdict):
    assert "✓ Exercise 1: correct." in verdict(l19.check_ex1, right)


@pytest.mark.parametrize("wrong,hint", [
    (28, "n + 1 buckets"), (27, "two more ids"), (75, "as wide as its dimension"),
    (37, "whatever the number of combinations"), (31, "Add up one width per column"),
])
def test_ex1_wrong_answers_get_their_hint(wrong, hint, verdict):
    out = verdict(l19.check_ex1, wrong)
    assert out.startswith("✗ Exercise 1") and hint in out and "29" not in out


@pytest.mark.parametrize("wrong", [29.0, "29", True, [29]])
def test_ex1_not_a_whole_number(wrong, verdict):
    assert "a whole number is expected" in verdict(l19.check_ex1, wrong)


# --- exercise 2 ---------------------------------------------------------------------

@pytest.mark.parametrize("right", [[1919, 1946, 1990], (1919, 1946, 1990),
                                   np.array([1919, 1946, 1990]), [1918.5, 1945.5, 1989.5],
                                   [1919.0, 1946.0, 1990.0]])
def test_ex2_right_forms(right, verdict):
    assert "✓ Exercise 2: correct." in verdict(l19.check_ex2, right)


def test_ex2_right_answer_is_what_the_layers_do():
    years = np.arange(1850, 2031)
    want = np.array([0 if y <= 1918 else 1 if y <= 1945 else 2 if y <= 1989 else 3
                     for y in years])
    got = layers.Discretization(bin_boundaries=[1919, 1946, 1990])(years).numpy()
    assert np.array_equal(got, want)
    era = tf.feature_column.bucketized_column(tf.feature_column.numeric_column("y"),
                                              [1919.0, 1946.0, 1990.0])
    one_hot = tf.keras.layers.DenseFeatures([era])({"y": years.astype("float32")}).numpy()
    assert np.array_equal(one_hot.argmax(axis=1), want)


@pytest.mark.parametrize("wrong,hint", [
    ([1918, 1945, 1989], "the upper bucket"),
    ([1919, 1946], "four eras need three boundaries"),
    ([1919, 1946, 1990, 2010], "four eras need three boundaries"),
    ([1990, 1946, 1919], "sorted"),
    ([1919, 1946, 1991], "Which bucket does a year equal to a boundary go into?"),
])
def test_ex2_wrong_answers_get_their_hint(wrong, hint, verdict):
    out = verdict(l19.check_ex2, wrong)
    assert out.startswith("✗ Exercise 2") and hint in out


def test_ex2_counts_the_misplaced_years(verdict):
    assert "1 year lands in the wrong era (1990)" in verdict(l19.check_ex2, [1919, 1946, 1991])
    assert "2 years land in the wrong era (the first is 1990)" in verdict(l19.check_ex2,
                                                                          [1919, 1946, 1992])


@pytest.mark.parametrize("wrong", ["1919, 1946, 1990", 1919, [1919, "1946", 1990],
                                   {"a": 1}])
def test_ex2_not_a_list_of_numbers(wrong, verdict):
    assert "a list of numbers" in verdict(l19.check_ex2, wrong)


# --- exercise 3 ---------------------------------------------------------------------

VOCABULARY = ["gas", "electric", "heat_pump", "district"]


def two_layers(words):
    lookup = layers.StringLookup(vocabulary=VOCABULARY)
    return layers.CategoryEncoding(num_tokens=lookup.vocabulary_size(),
                                   output_mode="one_hot")(lookup(words))


def lookup_one_hot(words):  # StringLookup's own one_hot mode: int64 rows
    return layers.StringLookup(vocabulary=VOCABULARY, output_mode="one_hot")(words)


@pytest.mark.parametrize("right", [two_layers, lookup_one_hot, tf.function(two_layers)])
def test_ex3_right_forms(right, verdict):
    assert "✓ Exercise 3: correct." in verdict(l19.check_ex3, right)


def ids_only(words):
    return layers.StringLookup(vocabulary=VOCABULARY)(words)


def four_tokens(words):
    ids = layers.StringLookup(vocabulary=VOCABULARY)(words)
    return layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")(ids)


def sorted_vocabulary(words):
    return layers.StringLookup(vocabulary=sorted(VOCABULARY), output_mode="one_hot")(words)


def no_return(words):
    layers.StringLookup(vocabulary=VOCABULARY, output_mode="one_hot")(words)


def raises(words):
    return layers.CategoryEncoding(num_tokens=5)(words)  # strings are not ids


def hard_coded(words):  # the lesson's own example, whatever the words
    return tf.constant(np.eye(5, dtype="float32")[[4, 0]])


@pytest.mark.parametrize("wrong,hint", [
    (ids_only, "These are the ids"),
    (four_tokens, "Index 0 is the OOV token's"),
    (sorted_vocabulary, "vocabulary's order"),
    (no_return, "End the function with `return`"),
    (raises, "How many different ids"),
    (hard_coded, "How many different ids"),
])
def test_ex3_wrong_answers_get_their_hint(wrong, hint, verdict):
    out = verdict(l19.check_ex3, wrong)
    assert out.startswith("✗ Exercise 3") and hint in out


def test_ex3_not_a_function(verdict):
    assert "a function is expected" in verdict(l19.check_ex3, 3)


def test_ex3_raising_function_is_reported_not_raised(verdict):
    out = verdict(l19.check_ex3, raises)
    assert "your function raised" in out


def test_hints_climb_the_ladder(capsys):
    reset(l19.EXERCISES)
    l19.check_ex1(31)
    l19.check_ex1(30)
    first, second = capsys.readouterr().out.split("✗")[1:]
    assert l19.ex1.hints[0] in first and l19.ex1.hints[1] in second
