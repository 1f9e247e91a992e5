"""Lesson 19 (Feature columns): checks for the three exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex2([1919, 1946, 1990])
✓ Exercise 2: correct.
"""
import numbers

import numpy as np

import minitf as tf
from widgets.exercises import (MISSING_RETURN, NOT_ATTEMPTED, Exercise, as_tuple, difference,
                               unattempted)

HEATING = ["gas", "electric", "heat_pump", "district"]


# --- exercise 1: the width of a DenseFeatures output ---------------------------------

def exercise_columns():
    """The exercise's columns, as the lesson shows them."""
    fc = tf.feature_column
    heating = fc.categorical_column_with_vocabulary_list("heating", HEATING, num_oov_buckets=2)
    return [
        fc.numeric_column("area"),
        fc.bucketized_column(fc.numeric_column("year_built"),
                             boundaries=[1900, 1930, 1960, 1990, 2010]),
        fc.indicator_column(heating),
        fc.embedding_column(fc.categorical_column_with_hash_bucket("neighbourhood", 50),
                            dimension=4),
        fc.indicator_column(fc.crossed_column(["heating", "rooms"], hash_bucket_size=12)),
    ]


def _width():
    return sum(int(c.variable_shape.num_elements()) for c in exercise_columns())


def _off_by(answer, delta):
    return isinstance(answer, numbers.Number) and answer == _width() + delta


ex1 = Exercise("Exercise 1", [
    "Add up one width per column. Which columns are one number wide, which one slot per "
    "category, which a fixed size you chose?",
    "numeric: its shape; bucketized: one slot per bucket; indicator: one slot per id the "
    "categorical column can produce; embedding: its dimension.",
], mistakes=[
    (lambda a: _off_by(a, -1), "n boundaries cut the line into n + 1 buckets."),
    (lambda a: _off_by(a, -2), "num_oov_buckets=2 gives unknown words two more ids, and the "
                               "indicator a slot for each."),
    (lambda a: _off_by(a, 50 - 4), "An embedding column is as wide as its dimension, however "
                                   "many buckets it looks up."),
    (lambda a: _off_by(a, 4 * 5 - 12), "A crossed column hashes every combination into "
                                       "hash_bucket_size ids: its indicator has that many "
                                       "slots, whatever the number of combinations."),
])


def check_ex1(answer):
    """The predicted width of DenseFeatures(exercise_columns()) output (a whole number)."""
    if unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, (numbers.Integral,
                                                                       np.integer)):
        ex1.verdict(answer, f"The answer is a {type(answer).__name__}, but a whole number is "
                            "expected.")
        return
    ex1.check(int(answer), _width(), show_expected=False)


# --- exercise 2: bucket boundaries for eras ---------------------------------------------

ERAS = [(None, 1918), (1919, 1945), (1946, 1989), (1990, None)]  # inclusive, by year
YEARS = np.arange(1850, 2031)


def _era_of(year):
    return next(i for i, (first, last) in enumerate(ERAS)
                if (first is None or year >= first) and (last is None or year <= last))


def _numbers(answer):
    values = as_tuple(answer)
    if not isinstance(values, tuple) or not all(
            isinstance(v, (numbers.Real, np.number)) and not isinstance(v, (bool, np.bool_))
            for v in values):
        return None
    return [float(v) for v in values]


def _buckets(boundaries):
    """The bucket of every year in YEARS, as bucketized_column/Discretization put them."""
    return np.searchsorted(np.asarray(boundaries, dtype=float), YEARS, side="right")


ex2 = Exercise("Exercise 2", [
    "Four eras need three boundaries. Which bucket does a year equal to a boundary go into?",
    "Bucket i holds the values from boundaries[i-1] (included) up to boundaries[i] "
    "(excluded): a boundary is the first year of the next era.",
], mistakes=[
    (lambda a: np.array_equal(_buckets([b + 1 for b in _numbers(a)]),
                              [_era_of(y) for y in YEARS]),
     "A year equal to a boundary goes into the upper bucket: give each era's first year, "
     "not the last year of the era before."),
    (lambda a: len(_numbers(a)) != len(ERAS) - 1,
     "n boundaries make n + 1 buckets: four eras need three boundaries."),
    (lambda a: _numbers(a) != sorted(_numbers(a)), "Boundaries must be sorted, smallest first."),
])


def check_ex2(boundaries):
    """Boundaries (a list, tuple or array of numbers) putting every year of 1850..2030 in its
    era; every list that does is right (1918.5 works as well as 1919)."""
    if unattempted(boundaries):
        print(NOT_ATTEMPTED)
        return
    values = _numbers(boundaries)
    if values is None:
        ex2.verdict(boundaries, "The answer should be a list of numbers, such as [1, 2, 3].")
        return
    got = _buckets(values) if values == sorted(values) else None
    want = np.array([_era_of(y) for y in YEARS])
    if got is not None and np.array_equal(got, want):
        ex2.verdict(boundaries, None)
        return
    wrong = [int(y) for y, g, w in zip(YEARS, got if got is not None else want + 9, want)
             if g != w]
    where = (f"{len(wrong)} years land in the wrong era (the first is {wrong[0]})"
             if len(wrong) > 1 else f"1 year lands in the wrong era ({wrong[0]})")
    ex2.verdict(boundaries, f"With these boundaries, {where}.")


# --- exercise 3: StringLookup + CategoryEncoding ----------------------------------------

CASES = [np.array(["district", "solar", "gas", "heat_pump", "electric", "gas"]),
         np.array(["wood", "electric"])]


def _reference(words):
    ids = [HEATING.index(w) + 1 if w in HEATING else 0 for w in np.asarray(words).tolist()]
    return tf.constant(np.eye(len(HEATING) + 1, dtype="float32")[ids])


def _call(function, words):
    """The learner's output as float32 (StringLookup's own one_hot mode gives int64), or
    the exception it raised."""
    try:
        out = function(tf.constant(words))
        if hasattr(out, "dtype") and hasattr(out, "numpy") and out.dtype.is_integer:
            out = tf.cast(out, "float32")
        return out
    except Exception as exc:  # noqa: BLE001 - the learner's code may raise anything
        return exc


def _result(function, words):
    out = _call(function, words)
    return None if isinstance(out, Exception) or not hasattr(out, "numpy") else out.numpy()


def _is_ids(function):
    out = _result(function, CASES[0])
    return out is not None and out.ndim == 1 and out.tolist() == [4, 0, 1, 3, 2, 1]


def _drops_last(function):
    out = _result(function, CASES[0])
    return out is not None and out.shape == (6, 4) and not out[0].any()


def _other_order(function):
    out = _result(function, CASES[0])
    want = _reference(CASES[0]).numpy()
    return (out is not None and out.shape == want.shape and not np.array_equal(out, want)
            and np.array_equal(out[:, 0], want[:, 0]))


def _problem(function):
    for words in CASES:
        shown = words.tolist()
        out = _call(function, words)
        if isinstance(out, Exception):
            return (f"Called with {shown}, your function raised {type(out).__name__}: "
                    f"{str(out).splitlines()[0][:200] if str(out) else ''}")
        if out is Ellipsis:
            return NOT_ATTEMPTED
        if out is None:
            return f"Called with {shown}, your function returned None{MISSING_RETURN}"
        problem = difference(out, _reference(words))
        if problem:
            return f"Called with {shown}: {problem[0].lower()}{problem[1:]}"
    return None


ex3 = Exercise("Exercise 3", [
    "Two steps: words to ids with StringLookup, then ids to one-hot rows with "
    "CategoryEncoding. How many different ids can StringLookup return?",
    "With one OOV index, StringLookup returns 0 for an unknown word and 1..4 for the four "
    "words: CategoryEncoding needs num_tokens=lookup.vocabulary_size(), which is 5.",
], mistakes=[
    (_is_ids, "These are the ids: encode them as one-hot rows with CategoryEncoding("
              "num_tokens=..., output_mode=\"one_hot\")."),
    (_other_order, "The rows have the right size, but the words' ids are not in the "
                   "vocabulary's order: gas, electric, heat_pump, district."),
    (_drops_last, "Index 0 is the OOV token's, so the four words use ids 1..4: num_tokens "
                  "must count it too (lookup.vocabulary_size())."),
])


def check_ex3(heating_one_hot):
    """heating_one_hot(words) -> [n, 5] one-hot rows (column 0: unknown word; float32, or
    the int64 of StringLookup's own one_hot mode); it is called on words the lesson never
    showed, some unknown."""
    ex3.check_callable(heating_one_hot, _problem)


EXERCISES = [ex1, ex2, ex3]
