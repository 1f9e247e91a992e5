"""Self-checks for the lesson exercises.

An exercise cell ends with a check. It prints one line: a tick when the
answer is right, what is wrong and a hint when it is not, and a friendly
reminder while the answer is still `...` (or None). It never raises, so a
lesson runs top to bottom with its exercises unattempted.

>>> import minitf as tf
>>> check(tf.zeros([2, 3]), tf.zeros([2, 3]), label="Exercise 1")
✓ Exercise 1: correct.
>>> check(tf.zeros([3, 2]), tf.zeros([2, 3]), hint="tf.zeros takes the shape first.")
✗ The shape is (3, 2), but it should be (2, 3).
  Hint: tf.zeros takes the shape first.
>>> check(..., tf.zeros([2, 3]))
… Not attempted yet: replace the `...` with your answer and run the cell again.

A lesson's exercises use `Exercise` (through its lesson-check module in
`widgets/lesson_checks/`): the check computes the expected value itself, so
the exercise cell shows no answer, and its hints climb a ladder, from a nudge
after the first wrong answer to a stronger pointer after the next ones, with a
hint of its own for each mistake the exercise is about.
"""
import math

import numpy as np

MISSING_RETURN = ": is its `return` missing?"
NOT_ATTEMPTED = ("… Not attempted yet: replace the `...` with your answer "
                 "and run the cell again.")


def check(answer, expected, *, hint=None, label=None, rtol=1e-5, atol=1e-6):
    """Print whether `answer` matches `expected` (use `difference` for a value).

    Tensors and Variables are compared by shape, dtype and values (floats
    within `rtol`/`atol`); a NumPy array or a list where a tensor is expected
    is wrong (the lessons teach tensors). Shapes compare as tuples, dtypes by
    identity, numbers approximately, lists and tuples element by element.

    >>> import minitf as tf
    >>> check(tf.constant([1, 2]), tf.constant([1.0, 2.0]))
    ✗ The dtype is int32, but it should be float32.
    """
    if _unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    try:
        problem = difference(answer, expected, rtol=rtol, atol=atol)
    except Exception as exc:  # noqa: BLE001 - a check must never crash the lesson
        problem = f"The answer could not be compared: {type(exc).__name__}: {exc}"
    _report(problem, hint, label)


def check_function(function, reference, cases, *, hint=None, label=None, rtol=1e-5, atol=1e-6):
    """Call `function` and `reference` on each case and compare the results.

    cases: a list of argument tuples (a single argument may be given bare).
    The learner's function may raise: the error is reported, not re-raised.

    >>> import minitf as tf
    >>> check_function(lambda x: x * 2, lambda x: x + x, [tf.constant(1.0)], label="Double")
    ✓ Double: correct.
    """
    if _unattempted(function):
        print(NOT_ATTEMPTED)
        return
    problem = _first_failing_case(function, reference, cases, rtol, atol)
    if problem is NOT_ATTEMPTED:
        print(NOT_ATTEMPTED)
    else:
        _report(problem, hint, label)


def _first_failing_case(function, reference, cases, rtol, atol):
    for case in cases:
        args = case if isinstance(case, tuple) else (case,)
        try:
            got = function(*args)
        except Exception as exc:  # noqa: BLE001 - the learner's code may raise anything
            return (f"Called with {_describe_args(args)}, your function raised "
                    f"{type(exc).__name__}: {_shorten(str(exc))}")
        if _unattempted(got):
            if got is Ellipsis or _body_is_todo(function):
                return NOT_ATTEMPTED
            missing = "." if _returns_a_value(function) else MISSING_RETURN
            return (f"Called with {_describe_args(args)}, your function returned "
                    f"{'None' if got is None else '...'}{missing}")
        try:
            problem = difference(got, reference(*args), rtol=rtol, atol=atol)
        except Exception as exc:  # noqa: BLE001 - report, never crash the lesson
            problem = f"the result could not be compared: {type(exc).__name__}: {exc}"
        if problem:
            return f"Called with {_describe_args(args)}: {_lower_first(problem)}"
    return None


def difference(answer, expected, rtol=1e-5, atol=1e-6):
    """Why `answer` differs from `expected` (a sentence), or None when they match."""
    if _is_dtype(expected):
        return None if answer == expected else (
            f"The answer is {_name(answer)}, but it should be {_name(expected)}.")
    if _is_shape(expected):
        got = _as_shape(answer)
        want = _as_shape(expected)
        if got is not None and not isinstance(got, tuple):
            return (f"The answer is a {type(answer).__name__}, but a shape is expected "
                    "(a tuple, a list or a TensorShape).")
        return None if got == want else f"The shape is {_fmt(got)}, but it should be {_fmt(want)}."
    if _is_tensor(expected):
        return _tensor_difference(answer, expected, rtol, atol)
    if isinstance(expected, np.ndarray):
        return _array_difference(np.asarray(answer), expected, rtol, atol)
    if isinstance(expected, (list, tuple)):
        return _sequence_difference(answer, expected, rtol, atol)
    if isinstance(expected, (bool, np.bool_, str, bytes)):
        return None if answer == expected else f"The answer is {answer!r}, but it should be {expected!r}."
    if isinstance(expected, (int, float, np.number)):
        return _number_difference(answer, expected, rtol, atol)
    return None if answer == expected else f"The answer is {answer!r}, but it should be {expected!r}."


# --- exercises with a hint ladder ---------------------------------------------------


class Exercise:
    """The check of one lesson exercise: a verdict, and hints graded by attempts.

    hints: the ladder, gentlest first (a nudge, then a stronger pointer). The
    full solution is never a hint: it lives in the lesson's solution cell.
    Each wrong answer climbs one rung; the last rung repeats.
    mistakes: `(test, hint)` pairs for the mistakes the exercise is about.
    `test(answer)` returns True when the answer shows that mistake; the first
    that does gives its hint instead of the ladder's. A test that raises does
    not match (a check never raises).

    >>> import minitf as tf
    >>> ex = Exercise("Exercise 1", ["Which axis?", "Rows are axis 0."],
    ...               mistakes=[(lambda a: same(a, tf.TensorShape([3, 2])),
    ...                          "That is the transpose.")])
    >>> ex.check((2, 3), tf.TensorShape([2, 3]))
    ✓ Exercise 1: correct.
    >>> ex.check([3, 2], tf.TensorShape([2, 3]))
    ✗ Exercise 1: The shape is (3, 2), but it should be (2, 3).
      Hint: That is the transpose.
    >>> ex.check((4, 2), tf.TensorShape([2, 3]), show_expected=False)
    ✗ Exercise 1: The shape is (4, 2), which is not right.
      Hint: Rows are axis 0.
    """

    def __init__(self, label, hints, mistakes=()):
        self.label = label
        self.hints = list(hints)
        self.mistakes = list(mistakes)
        self.wrong = 0  # wrong answers so far: the rung of the ladder

    def reset(self):
        """Start the ladder again (a fresh kernel does this too)."""
        self.wrong = 0

    def check(self, answer, expected, *, rtol=1e-5, atol=1e-6, show_expected=True,
              none_is_an_answer=False):
        """Print the verdict on `answer` against `expected` (computed by the caller).

        show_expected=False keeps the expected value out of the message (for
        answers the learner is meant to work out, such as a predicted shape).
        none_is_an_answer=True: only `...` means "not attempted" (for exercises
        where None is the mistake, such as an unwatched gradient).
        """
        if answer is Ellipsis or (answer is None and not none_is_an_answer):
            print(NOT_ATTEMPTED)
            return
        try:
            problem = difference(answer, expected, rtol=rtol, atol=atol)
        except Exception as exc:  # noqa: BLE001 - a check must never crash the lesson
            problem = f"The answer could not be compared: {type(exc).__name__}: {exc}"
        if problem is not None and not show_expected:
            problem = _hide_expected(problem, answer)
        self.verdict(answer, problem)

    def check_function(self, function, reference, cases, *, rtol=1e-5, atol=1e-6):
        """Call the learner's `function` on `cases` (inputs the lesson never showed) and
        compare with `reference`; an exception from the learner's code is a wrong answer
        with a hint, never a traceback."""
        self.check_callable(
            function, lambda f: _first_failing_case(f, reference, cases, rtol, atol))

    def check_callable(self, function, problem_of):
        """Print the verdict on a function the learner wrote: `problem_of(function)`
        calls it on inputs of the check's own and returns the problem, or None when it
        is right (or NOT_ATTEMPTED when the function still returns `...`). `...`, None or
        a body that is still `...` is "not attempted"; an answer that is not callable is a
        wrong answer, never a traceback."""
        if unattempted(function):
            print(NOT_ATTEMPTED)
            return
        if not callable(function):
            self.verdict(function, f"The answer is a {type(function).__name__}, but a "
                                   "function is expected.")
            return
        problem = problem_of(function)
        if problem is NOT_ATTEMPTED:
            print(NOT_ATTEMPTED)
            return
        self.verdict(function, problem)

    def verdict(self, answer, problem):
        """Print a tick when `problem` is None, else the problem and the hint that fits."""
        if problem is None:
            _report(None, None, self.label)
            return
        self.wrong += 1
        if problem.endswith(MISSING_RETURN):
            _report(problem, "End the function with `return` and the result.", self.label)
            return
        hint = self._mistake_hint(answer)
        if hint is None and self.hints:
            hint = self.hints[min(self.wrong, len(self.hints)) - 1]
        _report(problem, hint, self.label)

    def _mistake_hint(self, answer):
        for test, hint in self.mistakes:
            try:
                if test(answer):
                    return hint
            except Exception:  # noqa: BLE001 - a test that cannot tell does not match
                continue
        return None


def outcome(function, *args):
    """`function(*args)`, or the exception it raised (for mistake tests; never raises)."""
    try:
        return function(*args)
    except Exception as exc:  # noqa: BLE001 - the learner's code may raise anything
        return exc


def same(answer, expected, rtol=1e-5, atol=1e-6):
    """True when `answer` matches `expected` as `check` compares them (never raises)."""
    try:
        return difference(answer, expected, rtol=rtol, atol=atol) is None
    except Exception:  # noqa: BLE001
        return False


def unattempted(answer):
    """True for `...`, None, and a function whose body is still `...`."""
    return _unattempted(answer) or (callable(answer) and _body_is_todo(answer))


def _hide_expected(problem, answer):
    if problem.startswith("Item "):
        return f"The answer {answer!r} is not right."
    if ", but it should" in problem:
        return problem.split(", but it should")[0] + ", which is not right."
    if problem.startswith("The values differ"):
        return "The values are not right."
    return problem


def as_tuple(answer):
    """A list, NumPy array or TensorShape as a tuple (any other answer unchanged), so that
    every form of a sequence answer is accepted."""
    if isinstance(answer, np.ndarray):
        return tuple(answer.tolist())
    if isinstance(answer, list):
        return tuple(answer)
    if _is_shape(answer):
        return _as_shape(answer)
    return answer


# --- comparisons ------------------------------------------------------------------


def _tensor_difference(answer, expected, rtol, atol):
    if not _is_tensor(answer):
        kind = "a NumPy array" if isinstance(answer, np.ndarray) else f"a {type(answer).__name__}"
        return (f"The answer is {kind}, but a tensor is expected "
                "(tf.constant or a tf op makes one).")
    got_shape, want_shape = _as_shape(answer.shape), _as_shape(expected.shape)
    if got_shape != want_shape:
        return f"The shape is {_fmt(got_shape)}, but it should be {_fmt(want_shape)}."
    if answer.dtype != expected.dtype:
        return f"The dtype is {answer.dtype.name}, but it should be {expected.dtype.name}."
    return _values_difference(np.asarray(answer.numpy()), np.asarray(expected.numpy()), rtol, atol)


def _array_difference(answer, expected, rtol, atol):
    if answer.shape != expected.shape:
        return f"The shape is {_fmt(answer.shape)}, but it should be {_fmt(expected.shape)}."
    return _values_difference(answer, expected, rtol, atol)


def _values_difference(got, want, rtol, atol):
    if want.dtype.kind in "fc" and got.dtype.kind in "fciub":
        same = np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        same = got.shape == want.shape and bool(np.all(got == want))
    if same:
        return None
    return f"The values differ: got\n{_indent(got)}\n  but expected\n{_indent(want)}"


def _sequence_difference(answer, expected, rtol, atol):
    if _is_tensor(answer) or not isinstance(answer, (list, tuple)):
        return (f"The answer is a {type(answer).__name__}, but a {type(expected).__name__} "
                f"of {len(expected)} items is expected.")
    if len(answer) != len(expected):
        return f"The answer has {len(answer)} items, but it should have {len(expected)}."
    for i, (got, want) in enumerate(zip(answer, expected)):
        problem = difference(got, want, rtol, atol)
        if problem:
            return f"Item {i}: {_lower_first(problem)}"
    return None


def _number_difference(answer, expected, rtol, atol):
    if _is_tensor(answer):
        if answer.shape.rank != 0:
            return f"The answer has shape {_fmt(_as_shape(answer.shape))}; a single number is expected."
        answer = answer.numpy()
    try:
        value = complex(answer) if isinstance(expected, complex) else float(answer)
    except (TypeError, ValueError):
        return f"The answer is a {type(answer).__name__}, but a number is expected."
    if isinstance(value, complex):
        same = abs(value - expected) <= atol + rtol * abs(expected)
    else:
        same = math.isclose(value, expected, rel_tol=rtol, abs_tol=atol) or (
            math.isnan(value) and math.isnan(expected))
    if same:
        return None
    return f"The answer is {answer!r}, but it should be {expected!r}."


# --- helpers ----------------------------------------------------------------------


def _report(problem, hint, label):
    """Print the verdict. Checks return None, so a notebook shows no extra `Out[ ]`."""
    prefix = f"{label}: " if label else ""
    if problem is None:
        print(f"✓ {prefix}correct.")
        return
    message = f"✗ {prefix}{problem}"
    if hint:
        message += f"\n  Hint: {hint}"
    print(message)


def _unattempted(answer):
    return answer is None or answer is Ellipsis


def _todo(): ...


def _returns_a_value(function):
    """Whether some `return` in the function's own code gives back more than None."""
    import dis

    function = getattr(function, "python_function", function)
    code = getattr(function, "__code__", None)
    if code is None:
        return True  # a callable object: assume it returns what it computes
    previous = None
    for instruction in dis.get_instructions(code):
        if instruction.opname == "RETURN_VALUE" and not (
                previous is not None and previous.opname == "LOAD_CONST"
                and previous.argval is None):
            return True
        previous = instruction
    return False


def _body_is_todo(function):
    """True for a function whose body is still only `...` (the exercise as handed out)."""
    function = getattr(function, "python_function", function)  # a tf.function's Python body
    code = getattr(function, "__code__", None)
    return code is not None and code.co_code == _todo.__code__.co_code


def _is_tensor(value):
    return all(hasattr(value, a) for a in ("numpy", "dtype", "shape")) and not isinstance(
        value, np.ndarray)


def _is_dtype(value):
    return type(value).__name__ == "DType" or isinstance(value, np.dtype)


def _is_shape(value):
    return type(value).__name__ == "TensorShape"


def _as_shape(value):
    if isinstance(value, (str, bytes)):
        return value  # never a shape, even when its characters are digits
    if hasattr(value, "as_list"):
        try:
            return tuple(value.as_list())
        except ValueError:  # unknown rank
            return None
    if _is_tensor(value):
        return tuple(int(d) for d in np.asarray(value.numpy()).ravel())
    try:
        return tuple(int(d) if d is not None else None for d in value)
    except TypeError:
        return value


def _name(value):
    return getattr(value, "name", repr(value))


def _fmt(shape):
    if shape is None:
        return "unknown"
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _indent(array):
    return "\n".join("    " + row for row in np.array2string(array).splitlines())


def _shorten(text, limit=400):
    """An error message short enough to read in a check's verdict."""
    return text if len(text) <= limit else text[:limit].rstrip() + " …"


def _lower_first(text):
    return text[:1].lower() + text[1:]


def _describe_args(args):
    shown = []
    for a in args:
        if _is_tensor(a):
            shown.append(f"a {a.dtype.name} tensor of shape {_fmt(_as_shape(a.shape))}")
        else:
            shown.append(repr(a))
    return ", ".join(shown)
