"""Lesson 03 (indexing and slicing): checks for the three exercises on `scores`.

>>> check_ex2(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
"""
import minitf as tf
from widgets.exercises import Exercise, same


def _scores():
    """The lesson's table: 4 students (rows), 3 tests (columns)."""
    return tf.constant([[71, 64, 90], [55, 80, 47], [88, 92, 95], [40, 58, 61]])


ex1 = Exercise("Exercise 1", [
    "Students are rows and tests are columns: you want one column, for every row.",
    "Index both axes: `:` for all rows, and an integer for the last column.",
], mistakes=[
    (lambda a: same(a, _scores()[-1]), "That is the last row: one student's marks. The tests "
                                       "are the columns."),
    (lambda a: same(a, _scores()[:, -1:]), "The right marks, but a slice keeps its axis "
                                           "(shape (4, 1)); an integer index removes it."),
])


def check_ex1(answer):
    """The last test's marks, shape (4,)."""
    ex1.check(answer, _scores()[:, -1])


ex2 = Exercise("Exercise 2", [
    "Square brackets take one index or a slice, not a list of positions. Which op picks "
    "rows by their positions?",
    "tf.gather(params, indices) picks along axis 0, in the order the indices give.",
], mistakes=[
    (lambda a: same(a, tf.gather(_scores(), [0, 2])), "The right rows, in the wrong order: "
                                                      "student 2 comes first."),
    (lambda a: same(a, tf.gather(_scores(), [2, 0], axis=1)), "Those are columns 2 and 0 "
                                                              "(tests); students are rows."),
])


def check_ex2(answer):
    """Rows 2 and 0 of scores, in that order."""
    ex2.check(answer, tf.gather(_scores(), [2, 0]))


ex3 = Exercise("Exercise 3", [
    "Every mark stays, but those below 50 are replaced: a choice made entry by entry.",
    "tf.where(condition, x, y) takes x where the condition holds and y elsewhere "
    "(tf.maximum works too).",
], mistakes=[
    (lambda a: same(a, tf.where(_scores() < 50, _scores(), 50)), "x and y are swapped: "
                                                                 "tf.where takes x where the "
                                                                 "condition is True."),
    (lambda a: tuple(a.shape) != (4, 3), "The table keeps its shape (4, 3): replace marks, "
                                         "do not pick them out (that is boolean_mask)."),
])


def check_ex3(answer):
    """scores with every mark below 50 raised to 50."""
    scores = _scores()
    ex3.check(answer, tf.where(scores < 50, 50, scores))


EXERCISES = [ex1, ex2, ex3]
