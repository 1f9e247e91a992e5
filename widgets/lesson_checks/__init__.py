"""The exercise checks of each lesson: `widgets/lesson_checks/lNN.py` for lesson NN.

A lesson's exercise cell ends with `check_exN(your_answer)`. The check
computes the expected value itself (from the lesson's data, or by calling the
learner's function on inputs the lesson never showed, so a hard-coded result
fails), prints a verdict and a hint from the exercise's ladder, and never
raises. tests/widgets/test_checks_lNN.py drives each check with the
unattempted state, typical wrong answers and every accepted right answer.

>>> from widgets.lesson_checks import l01
>>> l01.check_ex3(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
"""


def reset(exercises):
    """Start every exercise's hint ladder again (tests call this between cases)."""
    for exercise in exercises:
        exercise.reset()
