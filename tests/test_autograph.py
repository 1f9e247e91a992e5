"""AutoGraph's conversion: `tf.autograph.to_code` for each construct, Python semantics
of converted code, which calls are converted, do_not_convert and the fallback warning.

(Tensor semantics inside tf.function and the error table: test_autograph_graph.py.)
"""
import ast
import inspect
import warnings

import numpy as np
import pytest

import minitf as tf
from minitf.autograph import conversion
from minitf.autograph.errors import ConversionError


def code_of(f):
    text = tf.autograph.to_code(f)
    ast.parse(text)  # the converted code is valid Python
    return text


def lines_of(f):
    return [line.strip() for line in code_of(f).splitlines()]


# --- to_code, construct by construct ------------------------------------------------------------
def test_to_code_if_else_passes_state_through_getters_and_setters():
    def f(x):
        if x > 0:
            y = x * 2
        else:
            y = -x
        return y

    lines = lines_of(f)
    assert lines[0] == "def tf__f(x):"
    for expected in ["def get_state():", "return (y,)", "def set_state(vars_):", "y, = vars_",
                     "def if_body():", "def else_body():", "nonlocal y", "y = x * 2",
                     "y = ag__.Undefined('y')",
                     "ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('y',), 1)",
                     "return ag__.ld(y)"]:
        assert expected in lines, expected


def test_to_code_elif_nests_a_second_if_stmt_in_the_else_body():
    def f(x):
        if x > 0:
            y = 1
        elif x < 0:
            y = -1
        else:
            y = 0
        return y

    text = code_of(f)
    assert text.count("ag__.if_stmt(") == 2
    inner = text.index("ag__.if_stmt(x < 0")
    assert text.index("def else_body_1():") < inner < text.index("ag__.if_stmt(x > 0")


def test_to_code_if_without_else_and_input_only_variables():
    def f(x, scale):
        if x > 0:
            x = x * scale
        return x

    lines = lines_of(f)
    assert "ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('x',), 1)" in lines
    assert "pass" in lines  # the empty else branch
    assert not any("Undefined" in line for line in lines)  # x is defined before the if


def test_to_code_while_has_test_and_body_functions():
    def f(n):
        i = 0
        total = 0
        while i < n:
            total += i
            i += 1
        return total

    lines = lines_of(f)
    assert "def loop_test():" in lines and "return i < n" in lines
    assert "def loop_body():" in lines and "nonlocal total, i" in lines
    assert "ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('total', 'i'))" in lines


def test_to_code_for_over_tf_range_names_the_body_parameter_after_the_target():
    def f(n):
        s = 0
        for i in tf.range(n):
            s += i
        return s

    lines = lines_of(f)
    assert "def loop_body(i):" in lines
    assert "ag__.for_stmt(tf.range(n), None, loop_body, get_state, set_state, ('s',))" in lines


def test_to_code_for_with_a_tuple_target_unpacks_the_iterate():
    def f(pairs):
        s = 0
        for a, b in pairs:
            s += a * b
        return s

    lines = lines_of(f)
    assert "def loop_body(itr):" in lines and "a, b = itr" in lines


def test_to_code_loop_local_variables_are_not_state():
    def f(xs):
        total = 0
        for x in xs:
            square = x * x
            total += square
        return total

    text = code_of(f)
    assert "('total',)" in text and "'square'" not in text and "'x'" not in text


def test_to_code_break_in_while_becomes_a_flag_in_the_test():
    def f(n):
        i = 0
        while i < n:
            if i > 3:
                break
            i += 1
        return i

    lines = lines_of(f)
    assert "break_ = False" in lines and "break_ = True" in lines
    assert "return ag__.and_(lambda: ag__.not_(break_), lambda: i < n)" in lines
    assert "ag__.if_stmt(ag__.not_(break_), if_body_1, else_body_1, get_state_1, set_state_1, " \
           "('i',), 1)" in lines  # the code after the break runs only without it


def test_to_code_break_in_for_becomes_an_extra_test():
    def f(xs):
        total = 0
        for x in xs:
            if x < 0:
                break
            total += x
        return total

    lines = lines_of(f)
    assert "def extra_test():" in lines and "return ag__.not_(break_)" in lines
    assert "ag__.for_stmt(xs, extra_test, loop_body, get_state_2, set_state_2, " \
           "('total', 'break_'))" in lines  # outputs first, then variables only read


def test_to_code_continue_resets_a_flag_each_iteration():
    def f(xs):
        total = 0
        for x in xs:
            if x < 0:
                continue
            total += x
        return total

    text = code_of(f)
    body = text[text.index("def loop_body(x):"):]
    assert body.splitlines()[2].strip() == "continue_ = False"
    assert "continue_ = True" in text
    assert "ag__.if_stmt(ag__.not_(continue_)" in text
    assert "('total',)" in text and "'continue_'" in text  # local to the body's own if


def test_to_code_return_in_branches_uses_retval():
    def f(x):
        if x > 0:
            return x
        return -x

    lines = lines_of(f)
    assert lines[1] == "retval_ = ag__.UndefinedReturnValue()"
    assert lines[-1] == "return ag__.retval(retval_)"
    assert "retval_ = x" in lines and "retval_ = -x" in lines
    assert "do_return = False" not in lines  # nothing tests it: both branches return


def test_to_code_return_inside_a_loop_stops_the_loop():
    def f(xs):
        for x in xs:
            if x > 2:
                return x
        return -1

    lines = lines_of(f)
    assert "do_return = False" in lines and "do_return = True" in lines
    assert "return ag__.not_(do_return)" in lines  # the loop's extra test


def test_to_code_boolean_operators_are_lazy_functions():
    def f(x, y):
        return x > 0 and y > 0 or not x

    assert lines_of(f)[-1] == ("return ag__.or_(lambda: ag__.and_(lambda: x > 0, lambda: y > 0),"
                               " lambda: ag__.not_(x))")


def test_to_code_conditional_expression():
    def f(x):
        return x if x > 0 else 0.0

    assert lines_of(f)[-1] == "return ag__.if_exp(x > 0, lambda: x, lambda: 0.0, 'x > 0')"


def helper_function(x):
    return x + 1


def test_to_code_converts_calls_of_user_functions_only():
    def f(x, xs):
        print("tracing", x)
        y = tf.cast(x, tf.float32) + helper_function(x)
        return y + len(xs) + sum(range(3)) + max(1, 2)

    lines = lines_of(f)
    assert "print('tracing', x)" in lines  # print runs while tracing, as in TF 2.21
    assert "y = tf.cast(x, tf.float32) + ag__.converted_call(helper_function, (x,), None)" \
        in lines
    assert "return y + ag__.len_(xs) + sum(ag__.range_(3)) + max(1, 2)" in lines


def test_to_code_method_calls_on_locals_go_through_converted_call():
    def f(ta, i):
        return ta.write(i, 1.0)

    assert lines_of(f)[-1] == "return ag__.converted_call(ta.write, (i, 1.0), None)"


def test_to_code_keyword_arguments_become_a_dict():
    def f(x):
        return helper_function(x=x)

    assert "ag__.converted_call(helper_function, (), {'x': x})" in code_of(f)


def test_to_code_attribute_state_uses_ldu():
    class Box:
        def f(self, n):
            for i in tf.range(n):
                self.total = self.total + i

    lines = lines_of(Box().f)
    assert "return (ag__.ldu(lambda: self.total, 'self.total'),)" in lines
    assert "self.total, = vars_" in lines


def test_to_code_set_loop_options_becomes_the_loop_options():
    def f(x):
        for i in tf.range(3):
            tf.autograph.experimental.set_loop_options(maximum_iterations=2)
            x = x + 1
        return x

    text = code_of(f)
    assert "set_loop_options" not in text
    assert "('x',), {'maximum_iterations': 2})" in text


def test_to_code_of_nested_functions_converts_them_too():
    def f(x):
        def inner(y):
            if y > 0:
                y = -y
            return y
        return inner(x)

    text = code_of(f)
    assert "def inner(y):" in text and "ag__.if_stmt(y > 0" in text
    assert "ag__.converted_call(inner, (x,), None)" in text


def test_to_code_accepts_tf_function_objects_and_methods():
    @tf.function
    def f(x):
        if x > 0:
            x = -x
        return x

    assert code_of(f).startswith("def tf__f(x):")

    class Model:
        def call(self, x):
            while x > 0:
                x -= 1
            return x

    assert code_of(Model().call).startswith("def tf__call(self, x):")


def test_to_code_without_source_raises_conversion_error():
    namespace = {}
    exec("def no_source(x):\n    return x\n", namespace)  # noqa: S102
    with pytest.raises(ConversionError, match="converting .*no_source.*could not get source code"):
        tf.autograph.to_code(namespace["no_source"])


# --- Python semantics ---------------------------------------------------------------------------
def p_while_continue_break(n):
    s, i = 0, 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i > 7:
            break
        s += i
    return s


def p_nested_for_break(n):
    s = 0
    for i in range(n):
        for j in range(i):
            if j == 2:
                break
            s += j
        if s > 10:
            break
    return s


def p_return_in_nested_ifs(n):
    if n > 5:
        if n > 10:
            return 2
        r = 1
    elif n < 0:
        r = -1
    else:
        r = 0
    return r * 10


def p_return_from_loop(n):
    for i in range(10):
        if i * i > n:
            return i
    return -1


def p_while_true(n):
    s, i = 0, 0
    while True:
        i += 1
        if i > n:
            break
        if i % 2 == 0:
            continue
        s += i
    return s


def p_boolean_and_list(n):
    out = []
    for i in range(n):
        if i % 2 == 0 and not i % 3 == 0 or i == 5:
            out.append(i)
    return sum(out)


def p_return_in_try(n):
    try:
        for i in range(n):
            if i == 3:
                return 100
    finally:
        n += 1
    return n


def p_nested_function(n):
    def square(v):
        if v < 0:
            return -v * v
        return v * v
    return square(n) + square(-n)


def p_tuple_assign_and_bare_return(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
        if a > 20:
            return
    return a


@pytest.mark.parametrize("f", [p_while_continue_break, p_nested_for_break,
                               p_return_in_nested_ifs, p_return_from_loop, p_while_true,
                               p_boolean_and_list, p_return_in_try, p_nested_function,
                               p_tuple_assign_and_bare_return])
def test_converted_code_computes_what_python_computes(f):
    converted = tf.autograph.to_graph(f)
    assert [converted(n) for n in range(-3, 15)] == [f(n) for n in range(-3, 15)]


def test_branch_not_taken_never_runs_for_python_conditions():
    calls = []

    @tf.function
    def f(x, training):
        if training:
            calls.append("training")
            x = x * 2.0
        else:
            calls.append("inference")
        return x

    assert f(tf.constant(1.0), True).numpy() == 2.0
    assert calls == ["training"]
    graph = f.get_concrete_function(tf.constant(1.0), False).graph
    assert calls == ["training", "inference"]
    assert not any("If" in node.op.name for node in graph.nodes)


def test_python_loop_is_unrolled_while_tracing():
    @tf.function
    def f(x, n):
        for _ in range(n):
            x = x * 2.0
        return x

    graph = f.get_concrete_function(tf.constant(1.0), 3).graph
    assert [node.op.name for node in graph.nodes].count("Mul") == 3
    assert f(tf.constant(1.0), 3).numpy() == 8.0


def test_lazy_boolean_operators_keep_python_semantics():
    def f(x):
        return x is not None and x > 0

    converted = tf.autograph.to_graph(f)
    assert converted(None) is False and converted(3) is True
    assert tf.autograph.to_graph(lambda a, b: a or b)(0, "b") == "b"


def test_reading_an_undefined_variable_raises_python_error():
    def f(n):
        for i in range(n):
            last = i
        return last

    converted = tf.autograph.to_graph(f)
    assert converted(3) == 2
    with pytest.raises(UnboundLocalError, match="'last' is used before assignment"):
        converted(0)


def test_converted_code_sees_globals_and_closures_live():
    scale = [2]

    def f(x):
        return x * scale[0] + OFFSET

    converted = tf.autograph.to_graph(f)
    scale[0] = 3
    assert converted(1) == 3 + OFFSET


OFFSET = 100


def test_print_runs_only_while_tracing(capsys):
    @tf.function
    def f(x):
        print("tracing")
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    assert capsys.readouterr().out == "tracing\n"


def test_eager_tensors_outside_tf_function_follow_python_semantics():
    def f(x):
        if x > 0:
            return x * 10
        return x

    converted = tf.autograph.to_graph(f)
    assert converted(tf.constant(2.0)).numpy() == 20.0
    assert converted(tf.constant(-2.0)).numpy() == -2.0


def test_conversion_is_cached_per_function():
    def f(x):
        return helper_function(x)

    assert conversion.converted_callable(f) is conversion.converted_callable(f)
    assert conversion.converted_callable(helper_function) is \
        conversion.converted_callable(helper_function)


def test_library_functions_and_builtins_are_not_converted():
    assert not conversion.should_convert(tf.cast)
    assert not conversion.should_convert(print)
    assert not conversion.should_convert(inspect.getsource)
    assert not conversion.should_convert(tf.TensorArray)
    assert conversion.should_convert(helper_function)


def test_methods_and_callable_objects_are_converted():
    class Doubler:
        def __call__(self, x):
            if x > 0:
                x = x * 2
            return x

        def twice(self, x):
            return self(self(x))

    d = Doubler()
    assert tf.autograph.to_graph(d.twice)(3) == 12
    assert conversion.converted_callable(d) is not d


# --- do_not_convert -------------------------------------------------------------------------------
def test_do_not_convert_runs_the_function_as_written():
    @tf.autograph.experimental.do_not_convert
    def plain(x):
        if x > 0:  # a Python `if` on a tensor: not allowed inside tf.function
            return x
        return -x

    assert plain(3) == 3
    assert conversion.converted_callable(plain) is plain
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(plain)(tf.constant(1.0))

    @tf.function
    def caller(x):
        return plain(x)

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="in user code"):
        caller(tf.constant(1.0))
    assert "ag__.converted_call(plain, (x,), None)" not in tf.autograph.to_code(caller)


def test_do_not_convert_without_arguments_returns_the_decorator():
    decorator = tf.autograph.experimental.do_not_convert()
    assert decorator(abs)(-2) == 2


# --- functions AutoGraph cannot convert ---------------------------------------------------------
def _warnings_about(record, text):
    return [w for w in record if text in str(w.message)]


def test_function_without_source_runs_unconverted_with_one_warning():
    namespace = {}
    exec("def no_source(x):\n    return x * 2\n", namespace)  # noqa: S102
    f = tf.function(namespace["no_source"])
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert f(tf.constant(2.0)).numpy() == 4.0
        assert f(tf.constant(2)).numpy() == 4  # a second trace: no second warning
    found = _warnings_about(record, "could not transform")
    assert len(found) == 1
    message = str(found[0].message)
    assert "no_source" in message and "could not get source code" in message
    assert "@tf.autograph.experimental.do_not_convert" in message


def test_repl_lambda_falls_back_with_a_warning():
    namespace = {}
    exec("double = lambda x: x * 2", namespace)  # noqa: S102
    with pytest.warns(UserWarning, match="could not transform <function <lambda>"):
        assert tf.function(namespace["double"])(tf.constant(3)).numpy() == 6


def test_lambda_with_source_is_converted():
    f = tf.function(lambda x: x * 2 if x > 0 else -x)
    assert f(tf.constant(-3.0)).numpy() == 3.0
    assert "ag__.if_exp(x > 0" in tf.autograph.to_code(lambda x: x * 2 if x > 0 else -x)


def test_builtins_run_unconverted_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tf.function(abs)(tf.constant(-2.0)).numpy() == 2.0


def test_generator_functions_fall_back_with_a_warning():
    def numbers(n):
        for i in range(n):
            yield i

    def f(n):
        return sum(numbers(n))

    with pytest.warns(UserWarning, match="generators are not supported"):
        assert tf.autograph.to_graph(f)(4) == 6


# --- assert (converted only with Feature.ASSERT_STATEMENTS; tests/test_autograph_asserts.py) --
def test_assert_on_a_tensor_checks_every_time_the_graph_runs():
    @tf.function(experimental_autograph_options=tf.autograph.experimental.Feature.ASSERT_STATEMENTS)
    def root(x):
        assert tf.reduce_all(x >= 0.0), "x must not be negative"
        return tf.sqrt(x)

    np.testing.assert_allclose(root(tf.constant([4.0, 9.0])).numpy(), [2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must not be negative"):
        root(tf.constant([-1.0, 4.0]))  # same trace: the check is a node of the graph
    assert root.experimental_get_tracing_count() == 1
    assert "ag__.assert_stmt(tf.reduce_all(x >= 0.0), lambda: 'x must not be negative')" \
        in tf.autograph.to_code(root.python_function, experimental_optional_features=(
            tf.autograph.experimental.Feature.ASSERT_STATEMENTS,))


def test_assert_on_python_values_stays_a_python_assert():
    @tf.function
    def scale(x, n):
        assert n > 0
        return x * n

    assert float(scale(tf.constant(1.5), 2)) == 3.0
    with pytest.raises(AssertionError, match="AssertionError: \n"):
        scale(tf.constant(1.5), -2)  # checked while tracing, as in TF


class _Foreign:
    """Stands for a tree another tool hung on a shared AST node; copying it is an error."""

    def __deepcopy__(self, memo):
        raise AssertionError("AutoGraph deep-copied a tree that is not its own")


def test_conversion_leaves_what_other_tools_hang_on_shared_ast_nodes_alone():
    # CPython shares one ast.Load() among all trees, and IPython's traceback formatter
    # (the `executing` package) sets `.parent` on it: after one traceback in a notebook,
    # a deep copy of a converted function dragged a whole module along (a second each).
    load = ast.parse("x").body[0].value.ctx
    assert load is ast.parse("y").body[0].value.ctx
    load.parent = _Foreign()
    try:
        def doubled_three_times(x):
            for _ in tf.range(3):
                x = x * 2.0
            return x

        assert float(tf.function(doubled_three_times)(tf.constant(1.0))) == 8.0
        assert "ag__.for_stmt" in tf.autograph.to_code(doubled_three_times)
    finally:
        del load.parent
