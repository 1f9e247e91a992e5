"""Lesson 04 (reshaping and combining): checks for the three exercises.

>>> import minitf as tf
>>> check_ex1(lambda images: tf.reshape(images, [tf.shape(images)[0], -1]))
✓ Exercise 1: correct.
"""
import minitf as tf
from widgets.exercises import Exercise, outcome, same


def _batches():
    """Batches the lesson never showed: other batch sizes, image sizes and channels."""
    return [tf.reshape(tf.range(3 * 5 * 5 * 1), [3, 5, 5, 1]),
            tf.reshape(tf.range(96), [2, 4, 4, 3]),
            tf.reshape(tf.range(1 * 2 * 3 * 4), [1, 2, 3, 4])]


def _typed_a_size(flatten):
    return isinstance(outcome(flatten, _batches()[0]), Exception)


def _lost_batch_axis(flatten):
    return outcome(flatten, _batches()[0]).shape.rank == 1


ex1 = Exercise("Exercise 1", [
    "Keep the first axis (the batch) and merge all the others into one.",
    "In a reshape, -1 means 'whatever is left over'; the batch size can come from the "
    "tensor itself, tf.shape(images)[0].",
], mistakes=[
    (_typed_a_size, "Your function works for the lesson's batch only: a size is typed in. "
                    "Let -1 and the tensor's own shape work the sizes out."),
    (_lost_batch_axis, "Everything is in one long vector: keep the batch axis, one row per "
                       "image."),
])


def check_ex1(flatten):
    """flatten(images) -> (batch, features) on batches of other sizes."""
    ex1.check_function(flatten, lambda t: tf.reshape(t, [t.shape[0], -1]), _batches())


def _coordinates():
    return (tf.constant([0.0, 1.0, 2.0, 3.0]), tf.constant([5.0, 6.0, 7.0, 8.0]),
            tf.constant([-1.0, -2.0, -3.0, -4.0]))


ex2 = Exercise("Exercise 2", [
    "The result has an axis the inputs do not have. Which op makes a new axis: concat or stack?",
    "tf.stack puts the new axis where `axis` says; one point per row means the coordinates "
    "change along the last axis.",
], mistakes=[
    (lambda a: same(a, tf.stack(_coordinates())), "One row per coordinate: that is the "
                                                  "transpose. The new axis should come last."),
    (lambda a: a.shape.rank == 1, "tf.concat joins along an axis that exists already: the "
                                  "vectors end up one after the other."),
])


def check_ex2(answer):
    """The (4, 3) table of points."""
    ex2.check(answer, tf.stack(_coordinates(), axis=1))


def _tile():
    return tf.constant([[1, 2], [3, 4]])


ex3 = Exercise("Exercise 3", [
    "tf.pad adds entries around a tensor: how many before and after, on each axis?",
    "paddings holds one [before, after] pair per axis; the new entries take the value "
    "constant_values.",
], mistakes=[
    (lambda a: same(a, tf.pad(_tile(), [[1, 1], [1, 1]])), "The border is 0, tf.pad's default "
                                                           "value; it should be -1."),
    (lambda a: tuple(a.shape) == (3, 3), "Only one side is padded: each axis needs one entry "
                                         "before and one after."),
])


def check_ex3(answer):
    """tile_2x2 framed by -1."""
    ex3.check(answer, tf.pad(_tile(), [[1, 1], [1, 1]], constant_values=-1))


EXERCISES = [ex1, ex2, ex3]
