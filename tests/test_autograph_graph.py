"""AutoGraph inside tf.function: tensor conditions become tf.cond / tf.while_loop, and the
errors TF raises for control flow name the variable and the line of your code."""
import inspect
import warnings

import numpy as np
import pytest

import minitf as tf


def line_of(f, text):
    """The line number in this file of the first line of `f` that contains `text`."""
    f = getattr(f, "python_function", f)
    lines, start = inspect.getsourcelines(f)
    return start + next(i for i, line in enumerate(lines) if text in line)


def op_names(f, *args):
    return [node.op.name for node in f.get_concrete_function(*args).graph.nodes]


# --- if ---------------------------------------------------------------------------------------------
def test_if_elif_else_on_tensors_is_a_cond():
    @tf.function
    def sign(x):
        if x > 0:
            y = tf.constant(1.0)
        elif x < 0:
            y = tf.constant(-1.0)
        else:
            y = tf.constant(0.0)
        return y * 10.0

    assert [sign(tf.constant(v)).numpy() for v in (3.0, -2.0, 0.0)] == [10.0, -10.0, 0.0]
    assert sign.experimental_get_tracing_count() == 1  # one graph serves all three
    assert sum("If" in name for name in op_names(sign, tf.constant(1.0))) == 1


def test_tensor_if_traces_both_branches(capsys):
    @tf.function
    def f(x):
        print("before if")
        if x > 0:
            print("true branch")
            x = x + 1
        else:
            print("false branch")
        print("after if")
        return x

    assert f(tf.constant(1)).numpy() == 2
    assert capsys.readouterr().out == "before if\ntrue branch\nfalse branch\nafter if\n"
    assert f(tf.constant(-1)).numpy() == -1
    assert capsys.readouterr().out == ""  # the graph runs; Python does not


def test_return_in_both_branches_of_a_tensor_if():
    @tf.function
    def absolute(x):
        if x < 0:
            return -x
        return x

    assert absolute(tf.constant(-4.0)).numpy() == 4.0
    assert absolute(tf.constant(5.0)).numpy() == 5.0


def test_python_value_modified_in_a_tensor_if_becomes_a_tensor():
    @tf.function
    def f(x):
        count = 0
        if x > 0:
            count = 1
        return count

    result = f(tf.constant(3.0))
    assert isinstance(result, tf.Tensor) and result.dtype == tf.int32 and result.numpy() == 1


def test_boolean_operators_on_tensors_are_logical_ops():
    @tf.function
    def in_range(x):
        return x > 0 and x < 3 or not x > -10

    assert [bool(in_range(tf.constant(v))) for v in (1.0, 5.0, -20.0)] == [True, False, True]
    names = op_names(in_range, tf.constant(1.0))
    assert {"LogicalAnd", "LogicalOr", "LogicalNot"} <= set(names)


def test_conditional_expression_on_a_tensor():
    @tf.function
    def relu(x):
        return x if x > 0 else tf.zeros_like(x)

    assert relu(tf.constant(-2.0)).numpy() == 0.0 and relu(tf.constant(2.0)).numpy() == 2.0


def test_if_on_a_variable_condition():
    flag = tf.Variable(True)

    @tf.function
    def f(x):
        if flag:
            x = x + 1.0
        return x

    assert f(tf.constant(1.0)).numpy() == 2.0
    flag.assign(False)
    assert f(tf.constant(1.0)).numpy() == 1.0  # read when the graph runs


# --- while ----------------------------------------------------------------------------------------
def test_while_with_break_on_tensors():
    @tf.function
    def f(n):
        i = 0
        total = 0
        while i < n:
            i += 1
            if i % 3 == 0:
                continue
            if i > 7:
                break
            total += i
        return total, i

    for n in (0, 4, 20):
        total, i = f(tf.constant(n))
        expected = sum(k for k in range(1, min(n, 7) + 1) if k % 3)
        assert (total.numpy(), i.numpy()) == (expected, min(n, 8))
    assert f.experimental_get_tracing_count() == 1
    assert any("While" in name for name in op_names(f, tf.constant(1)))


def test_while_that_only_updates_a_variable():
    counter = tf.Variable(0)

    @tf.function
    def count_to(n):
        while counter < n:
            counter.assign_add(1)
        return counter.read_value()

    assert count_to(tf.constant(3)).numpy() == 3
    assert counter.numpy() == 3


def test_variable_first_defined_in_a_loop_gets_a_starting_value():
    @tf.function
    def f(x):
        i = tf.constant(0)
        while i < 3:
            i += 1
            last = x * tf.cast(i, tf.float32)
        return last

    assert f(tf.constant(2.0)).numpy() == 6.0


def test_a_loop_that_must_define_a_variable_checks_that_it_ran():
    @tf.function
    def last_multiple(x, n):
        i = tf.constant(0)
        while i < n:
            i += 1
            last = x * tf.cast(i, tf.float32)
        return last

    assert last_multiple(tf.constant(2.0), tf.constant(3)).numpy() == 6.0
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="loop must iterate at least once to initialize last"):
        last_multiple(tf.constant(2.0), tf.constant(0))  # same graph: fails when it runs


def test_python_while_loop_is_unrolled_inside_tf_function():
    @tf.function
    def f(x):
        i = 0
        while i < 3:
            x = x + 1.0
            i += 1
        return x

    assert f(tf.constant(0.0)).numpy() == 3.0
    assert not any("While" in name for name in op_names(f, tf.constant(0.0)))


# --- for ------------------------------------------------------------------------------------------
def test_for_over_tf_range_accumulates_into_a_tensor_array():
    @tf.function
    def squares():
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(5):
            ta = ta.write(i, tf.cast(i * i, tf.float32))
        return ta.stack()

    np.testing.assert_array_equal(squares().numpy(), [0.0, 1.0, 4.0, 9.0, 16.0])
    assert any("While" in name for name in op_names(squares))


def test_nested_tensor_loops():
    @tf.function
    def f(n):
        total = 0
        for i in tf.range(3):
            for j in tf.range(4):
                if j > i:
                    total += i * j + n
        return total

    expected = sum(i * j + 1 for i in range(3) for j in range(4) if j > i)
    assert f(tf.constant(1)).numpy() == expected


def test_for_over_a_tensor_iterates_its_rows():
    @tf.function
    def column_sums(m):
        s = tf.zeros([2])
        for row in m:
            s += row
        return s

    np.testing.assert_array_equal(column_sums(tf.constant([[1.0, 2.0], [3.0, 4.0]])).numpy(),
                                  [4.0, 6.0])


def test_for_over_a_tensor_with_break_and_continue():
    @tf.function
    def f(xs):
        total = 0.0
        for x in xs:
            if x < 0:
                continue
            if x > 100:
                break
            total += x
        return total

    assert f(tf.constant([1.0, -5.0, 2.0, 200.0, 7.0])).numpy() == 3.0


def test_python_range_with_a_tensor_argument_makes_a_tf_loop():
    @tf.function
    def f(x):
        total = x
        for i in range(tf.constant(4)):
            total += tf.cast(i, tf.float32)
        return total

    assert f(tf.constant(1.0)).numpy() == 7.0
    assert any("While" in name for name in op_names(f, tf.constant(1.0)))


def test_len_of_a_tensor_with_known_shape_is_a_python_int():
    @tf.function
    def f(x):
        s = 0
        for i in range(len(x)):  # a Python loop: len is static here
            s += x[i]
        return s

    assert f(tf.constant([1, 2, 3])).numpy() == 6
    assert not any("While" in name for name in op_names(f, tf.constant([1, 2, 3])))


def test_attribute_state_in_a_loop():
    class Accumulator:
        def __init__(self):
            self.total = tf.constant(0)

        @tf.function
        def add_up(self, n):
            for i in tf.range(n):
                self.total = self.total + i
            return self.total

    assert Accumulator().add_up(5).numpy() == 10


def test_shape_invariants_let_a_loop_variable_grow():
    @tf.function
    def doubled():
        x = tf.ones([1])
        for _ in tf.range(3):
            tf.autograph.experimental.set_loop_options(
                shape_invariants=[(x, tf.TensorShape([None]))])
            x = tf.concat([x, x], axis=0)
        return x

    assert doubled().shape == (8,)


def test_maximum_iterations_from_loop_options():
    @tf.function
    def f(x):
        while x < 100:
            tf.autograph.experimental.set_loop_options(maximum_iterations=3)
            x += 1
        return x

    assert f(tf.constant(0)).numpy() == 3


# --- calls ----------------------------------------------------------------------------------------
def clip_below(x, low):
    if x < low:
        return low
    return x


def test_user_functions_called_from_converted_code_are_converted():
    @tf.function
    def f(x):
        return clip_below(x, 0.0) + 1.0

    assert f(tf.constant(-5.0)).numpy() == 1.0 and f(tf.constant(2.0)).numpy() == 3.0


def test_nested_functions_and_methods_are_converted():
    class Model:
        def __init__(self, scale):
            self.scale = scale

        def step(self, x):
            if x > 0:
                x = x * self.scale
            return x

    model = Model(3.0)

    @tf.function
    def f(x):
        def twice(y):
            return model.step(model.step(y))
        return twice(x)

    assert f(tf.constant(2.0)).numpy() == 18.0 and f(tf.constant(-2.0)).numpy() == -2.0


def test_gradient_flows_through_converted_control_flow():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(3):
                y = y * x
            if y > 10.0:
                y = y * 2.0
        return tape.gradient(y, x)

    assert f(tf.constant(2.0)).numpy() == 64.0  # d/dx 2x^4 at 2
    assert f(tf.constant(1.0)).numpy() == 4.0  # d/dx x^4 at 1


# --- the error table ------------------------------------------------------------------------------
def one_branch(x):
    if x > 0:
        y = x * 2
    return y


def only_else(x):
    if x > 0:
        pass
    else:
        y = x
    return y


def branch_dtypes(x):
    if x > 0:
        y = tf.constant(1)
    else:
        y = tf.constant(1.0)
    return y


def return_in_one_branch(x):
    if x > 0:
        return x


def loop_dtype(x):
    s = tf.constant(0)
    while s < 3:
        s = tf.cast(s, tf.float32) + 1.0
    return s


def loop_shape(x):
    s = tf.constant(0.0)
    for i in tf.range(3):
        s = tf.stack([s, s])
    return s


def loop_none(x):
    y = None
    while x < 3:
        x += 1
        y = y + x
    return y


def loop_uses_before_defining(x):
    for i in tf.range(3):
        total = total + x
    return total


def return_in_tf_loop(x):
    for i in tf.range(3):
        if x > 2:
            return x
        x += 1
    return x


def python_loop_tensor_break(x):
    while True:
        if tf.equal(x, 0):
            break
        x -= 1
    return x


def python_for_tensor_break(x):
    for i in [1, 2, 3]:
        if x > i:
            break
    return x


def float_condition(x):
    if x:
        x = x + 1.0
    return x


def vector_condition(x):
    if x > 0:
        x = x + 1.0
    return x


ERRORS = [
    (one_branch, "if x > 0", ValueError, "'y' must also be initialized in the else branch"),
    (only_else, "if x > 0", ValueError, "'y' must also be initialized in the main branch"),
    (branch_dtypes, "if x > 0", TypeError,
     "'y' has dtype int32 in the main branch, but dtype float32 in the else branch"),
    (return_in_one_branch, "if x > 0", ValueError,
     "the else branch must also have a return statement."),
    (loop_dtype, "while s < 3", TypeError,
     "'s' has dtype int32 before the loop, but dtype float32 after one iteration"),
    (loop_shape, "for i in", ValueError,
     r"'s' has shape \(\) before the loop, but shape \(2,\) after one iteration. Use "
     r"tf.autograph.experimental.set_loop_options to set shape invariants."),
    (loop_none, "while x < 3", ValueError, "'y' is not allowed to be None before the loop"),
    (loop_uses_before_defining, "for i in", ValueError,
     "'total' must be defined before the loop\n    Note: AutoGraph tried to define it "
     "automatically, but ran into a UnboundLocalError: 'total' is used before assignment"),
    (return_in_tf_loop, "for i in", NotImplementedError,
     "a return statement cannot be placed inside this TensorFlow loop"),
    (python_loop_tensor_break, "while True", NotImplementedError,
     "The condition of while loop started as non-Tensor, then changed to Tensor"),
    (python_for_tensor_break, "for i in", NotImplementedError,
     "break and return statements which depend on a TF condition are not supported in "
     "Python for loops"),
    (float_condition, "if x:", ValueError,
     r"condition of if statement expected to be `tf.bool` scalar, got Tensor\(\"x:0\", "
     r"shape=\(\), dtype=float32\); to use as boolean Tensor, use `tf.cast`"),
]


@pytest.mark.parametrize("f, statement, error, message", ERRORS,
                         ids=[e[0].__name__ for e in ERRORS])
def test_error_names_the_variable_and_the_line(f, statement, error, message):
    with pytest.raises(error, match=message) as info:
        tf.function(f)(tf.constant(1.0))
    text = str(info.value)
    assert text.startswith("in user code:")
    assert f'File "{__file__}", line {line_of(f, statement)}, in {f.__name__}  *' in text
    assert statement in text  # the source line is quoted


def test_condition_with_more_than_one_element():
    with pytest.raises(ValueError, match="condition of if statement expected to be `tf.bool` "
                                         "scalar, got Tensor"):
        tf.function(vector_condition)(tf.constant([1.0, 2.0]))


def test_op_error_inside_a_branch_keeps_its_class_and_lists_every_frame():
    @tf.function
    def f(x):
        for i in tf.range(2):
            if i > 0:
                x = x + tf.ones([3])
        return x

    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes") as info:
        f(tf.constant([1.0, 2.0]))
    text = str(info.value)
    lines = [line_of(f, text_) for text_ in ("for i in", "if i > 0", "x = x + tf.ones")]
    positions = [text.index(f"line {n}, in f  *") for n in lines]
    assert positions == sorted(positions)  # outermost first, as Python prints tracebacks


def test_user_exception_from_converted_code_keeps_its_class():
    @tf.function
    def f(x):
        if x.shape.rank != 0:
            raise ValueError("expected a scalar")
        return x

    with pytest.raises(ValueError, match="in user code:(.|\n)*expected a scalar"):
        f(tf.constant([1.0]))


# --- constructs AutoGraph does not convert ----------------------------------------------------------
def for_else(xs):
    total = 0.0
    for x in xs:
        total += x
    else:
        total += 1.0
    return total


def while_else(x):
    while x > 0:
        x -= 1
    else:
        x = 10
    return x


UNSUPPORTED = [
    (for_else, "for x in xs", "for/else statement not yet supported",
     "Iterating over a symbolic `tf.Tensor`"),
    (while_else, "while x > 0", "while/else statement not yet supported",
     "Using a symbolic `tf.Tensor`"),
]


@pytest.mark.parametrize("f, statement, cause, error", UNSUPPORTED,
                         ids=[u[0].__name__ for u in UNSUPPORTED])
def test_unsupported_syntax_warns_then_fails_at_its_line(f, statement, cause, error):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match=error) as info:
            tf.function(f)(tf.constant([1.0, 2.0]))
    warned = [str(w.message) for w in record if "could not transform" in str(w.message)]
    assert len(warned) == 1 and f"Cause: {cause} (line {line_of(f, statement)})" in warned[0]
    text = str(info.value)
    assert f"line {line_of(f, statement)}, in {f.__name__}" in text
    assert f"AutoGraph did not convert {f.__name__}: {cause}" in text


def test_python_values_in_unsupported_syntax_still_work():
    def for_else_again(xs):
        total = 0.0
        for x in xs:
            total += x
        else:
            total += 1.0
        return total

    with pytest.warns(UserWarning, match="for/else"):
        assert tf.function(for_else_again)([1.0, 2.0]).numpy() == 4.0


def test_none_before_a_loop_is_replaced_when_the_loop_defines_it():
    @tf.function
    def f(x):
        y = None
        while x < 3:
            x += 1
            previous = y
            y = x
        return y

    assert f(tf.constant(1.0)).numpy() == 3.0
