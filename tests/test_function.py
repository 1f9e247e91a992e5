"""tf.function: tracing, the trace cache, TF's semantics for side effects and variables."""
import numpy as np
import pytest

import minitf as tf


def test_traces_once_per_shape_and_dtype():
    traces = []

    @tf.function
    def double(x):
        traces.append(x.shape)
        return x * 2

    assert double(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    double(tf.constant([3.0, 4.0]))
    assert double.experimental_get_tracing_count() == 1
    double(tf.constant([1.0, 2.0, 3.0]))          # new shape
    double(tf.constant([1, 2]))                   # new dtype
    assert double.experimental_get_tracing_count() == 3
    assert len(traces) == 3


def test_python_values_are_part_of_the_key():
    @tf.function
    def scale(x, factor):
        return x * factor

    scale(tf.constant(1.0), 2.0)
    scale(tf.constant(1.0), 2.0)
    assert scale.experimental_get_tracing_count() == 1
    assert float(scale(tf.constant(1.0), 3.0)) == 3.0
    assert scale.experimental_get_tracing_count() == 2


def test_numpy_arguments_are_tensors():
    @tf.function
    def total(x):
        return tf.reduce_sum(x)

    assert float(total(np.ones(3, np.float32))) == 3.0
    total(np.zeros(3, np.float32))
    assert total.experimental_get_tracing_count() == 1


def test_input_signature_with_unknown_dimension():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def norm(x):
        return tf.reduce_sum(x * x)

    assert float(norm(tf.constant([3.0, 4.0]))) == 25.0
    assert float(norm(tf.constant([1.0, 1.0, 1.0]))) == 3.0
    assert norm.experimental_get_tracing_count() == 1
    assert float(norm([1.0, 2.0])) == 5.0  # Python lists are converted to the spec's dtype


@pytest.mark.parametrize("value", [tf.constant([[1.0]]), tf.constant([1, 2])])
def test_input_signature_violation_is_a_type_error(value):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return x

    with pytest.raises(TypeError, match=r"Binding inputs to tf.function failed due to `Can not "
                                        r"cast TensorSpec"):
        f(value)


def test_input_signature_errors_name_the_function_the_argument_and_the_problem():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def scale(x):
        return x * 2.0

    # verified against TF 2.21: the class and the text before the teaching sentence
    with pytest.raises(TypeError, match=r"(?s)failed due to `Can not cast TensorSpec\(shape=\(2, 3, "
                                        r"1\), dtype=tf.float32.*signature: \(x: TensorSpec") as info:
        scale(tf.ones([2, 3, 1]))  # wrong rank
    assert "input_signature of scale() fixes the dtype and rank of 'x'" in str(info.value)
    with pytest.raises(TypeError, match=r"Can not cast TensorSpec\(shape=\(2, 3\), dtype=tf.int32"):
        scale(tf.ones([2, 3], tf.int32))  # wrong dtype
    with pytest.raises(TypeError, match="failed due to `too many positional arguments`") as info:
        scale(tf.ones([2, 3]), tf.ones([2, 3]))
    assert "scale() takes 1 argument(s)" in str(info.value)
    with pytest.raises(TypeError, match="failed due to `missing a required argument: 'x'`"):
        scale()


def test_concrete_function_called_with_a_wrong_dtype_or_shape():
    concrete = tf.function(lambda x: x * 2.0).get_concrete_function(
        tf.TensorSpec([None, 3], tf.float32))
    # verified against TF 2.21 (TF's function name carries a number: __inference_f_45)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute __inference_<lambda> as input #0\(zero-based\) "
                             "was expected to be a float tensor but is a int32 tensor"):
        concrete(tf.ones([2, 3], tf.int32))
    with pytest.raises(TypeError, match="does not match the traced input x:0"):
        concrete(tf.ones([2, 4]))  # TF would run it anyway; minitf refuses a wrong shape


def test_concrete_function_and_its_graph():
    @tf.function
    def f(x, y=2):
        return x * y + 1.0

    concrete = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="x"))
    assert concrete.structured_input_signature == (
        (tf.TensorSpec([None, 3], tf.float32, name="x"), 2), {})
    assert concrete.structured_outputs.shape.as_list() == [None, 3]
    text = str(concrete.graph)
    assert text.splitlines()[0] == "graph f(x: float32[?,3]) {"
    assert "Mul(x, 2.0)" in text and "AddV2(%0, 1.0)" in text
    assert concrete(tf.ones([2, 3])).numpy().tolist() == [[3.0] * 3] * 2
    dot = concrete.graph.to_dot()
    assert dot.startswith('digraph "f"') and '"x" -> "Mul"' in dot


def test_graph_nodes_remember_the_user_source_line():
    @tf.function
    def f(x):
        return x * 3.0  # the Mul node points here

    mul = [n for n in f.get_concrete_function(tf.constant(1.0)).graph.nodes if n.type == "Mul"]
    assert mul[0].source.startswith("test_function.py:")


def test_python_side_effects_happen_only_while_tracing(capsys):
    log = []

    @tf.function
    def f(x):
        print("python print")
        log.append(1)
        tf.print("tf.print", x)
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    captured = capsys.readouterr()
    assert captured.out.count("python print") == 1 and log == [1]
    assert captured.err.splitlines() == ["tf.print 1", "tf.print 2"]


def test_print_of_a_symbolic_tensor_shows_its_name(capsys):
    @tf.function
    def f(x):
        print(x)
        return x

    f(tf.constant(1.0))
    assert capsys.readouterr().out.strip() == 'Tensor("x:0", shape=(), dtype=float32)'


def test_variables_are_captured_by_reference():
    v = tf.Variable(1.0)

    @tf.function
    def add_to_v(x):
        v.assign_add(x)
        return v.read_value() * 10.0

    assert float(add_to_v(tf.constant(1.0))) == 20.0
    assert float(v) == 2.0                       # the assignment is visible outside
    v.assign(5.0)                                # and outside changes are visible inside
    assert float(add_to_v(tf.constant(1.0))) == 60.0
    assert add_to_v.experimental_get_tracing_count() == 1


def test_creating_a_variable_on_every_call_fails():
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return x * v

    with pytest.raises(ValueError, match="singleton tf.Variables created on the first call"):
        f(tf.constant(1.0))


def test_creating_a_variable_once_works():
    class Scale(tf.Module if hasattr(tf, "Module") else object):
        def __init__(self):
            self.w = None

        @tf.function
        def __call__(self, x):
            if self.w is None:
                self.w = tf.Variable(tf.random.normal([2]))
            return x * self.w

    model = Scale()
    y1 = model(tf.ones([2]))
    y2 = model(tf.ones([2]))
    assert y1.numpy().tolist() == y2.numpy().tolist() == model.w.numpy().tolist()


def test_bool_of_a_symbolic_tensor_without_autograph():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                       match="Using a symbolic `tf.Tensor` as a Python `bool` is not allowed"):
        f(tf.constant(1.0))


def test_symbolic_tensors_have_no_value():
    @tf.function
    def to_numpy(x):
        return x.numpy()

    with pytest.raises(AttributeError, match="has no attribute 'numpy'"):
        to_numpy(tf.constant(1.0))

    @tf.function(autograph=False)
    def iterate(x):
        return [a for a in x]

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Iterating over"):
        iterate(tf.constant([1.0]))


@pytest.mark.parametrize("setter", ["run_functions_eagerly",
                                    "experimental_run_functions_eagerly"])
def test_run_functions_eagerly(setter, capsys):
    @tf.function
    def f(x):
        print("body runs", float(x))  # float() only works eagerly
        return x

    getattr(tf.config, setter)(True)
    try:
        f(tf.constant(1.0))
        f(tf.constant(2.0))
        assert tf.config.functions_run_eagerly()
    finally:
        getattr(tf.config, setter)(False)
    assert capsys.readouterr().out.splitlines() == ["body runs 1.0", "body runs 2.0"]
    assert f.experimental_get_tracing_count() == 0


def test_gradient_tape_inside_a_function_builds_one_graph():
    w = tf.Variable([[1.0], [2.0]])

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(x, w) - y) ** 2)
        grad = tape.gradient(loss, w)
        w.assign_sub(0.1 * grad)
        return loss

    x, y = tf.constant([[1.0, 1.0], [2.0, 0.0]]), tf.constant([[1.0], [1.0]])
    expected_w = np.array([[1.0], [2.0]])
    for _ in range(3):
        error = x.numpy() @ expected_w - y.numpy()
        expected_loss = float(np.mean(error ** 2))
        expected_w = expected_w - 0.1 * (2 * x.numpy().T @ error / 2)
        assert np.isclose(float(train_step(x, y)), expected_loss)
    np.testing.assert_allclose(w.numpy(), expected_w, rtol=1e-6)
    assert train_step.experimental_get_tracing_count() == 1
    graph = train_step.get_concrete_function(x, y).graph
    assert {"MatMul", "AssignSubVariableOp"} <= {n.name for n in graph.nodes}


def test_gradient_tape_around_a_function_call():
    v = tf.Variable(3.0)
    f = tf.function(lambda x: x * v * v)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    dx, dv = tape.gradient(y, [x, v])
    assert float(dx) == 9.0 and float(dv) == 12.0


def test_nested_structures_in_and_out():
    @tf.function
    def f(inputs):
        return {"sum": inputs["a"] + inputs["b"][0], "pair": (inputs["a"], 7)}

    out = f({"a": tf.constant(1.0), "b": [tf.constant(2.0)]})
    assert float(out["sum"]) == 3.0
    assert float(out["pair"][0]) == 1.0
    assert out["pair"][1].dtype == tf.int32 and int(out["pair"][1]) == 7  # Python -> tensor


def test_methods_get_one_cache_per_instance():
    class Doubler:
        def __init__(self, k):
            self.k = k

        @tf.function
        def __call__(self, x):
            return x * self.k

    a, b = Doubler(2.0), Doubler(3.0)
    assert float(a(tf.constant(1.0))) == 2.0 and float(b(tf.constant(1.0))) == 3.0


def test_calling_a_function_inside_another_inlines_it():
    inner = tf.function(lambda x: x + 1.0)

    @tf.function
    def outer(x):
        return inner(x) * 2.0

    assert float(outer(tf.constant(1.0))) == 4.0
    types = [n.type for n in outer.get_concrete_function(tf.constant(1.0)).graph.nodes]
    assert types == ["Placeholder", "Const", "AddV2", "Const", "Mul"]


def test_runtime_errors_name_the_traced_line():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)] * 2)
    def product(a, b):
        return tf.matmul(a, b)

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Matrix size-incompatible.*traced at test_function.py:\d+"):
        product(tf.ones([2, 3]), tf.ones([2, 3]))


def test_graph_mode_gives_eager_numbers_for_an_mlp_step():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((8, 4)).astype(np.float32))
    labels = tf.one_hot([0, 1, 2, 0, 1, 2, 0, 1], 3)

    def make():
        return [tf.Variable(rng_w) for rng_w in (np.full((4, 5), 0.1, np.float32),
                                                 np.zeros(5, np.float32),
                                                 np.full((5, 3), -0.2, np.float32))]

    def step(params):
        w1, b1, w2 = params
        with tf.GradientTape() as tape:
            logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2)
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels, logits))
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(0.5 * g)
        return loss

    eager, graph = make(), make()
    graph_step = tf.function(lambda: step(graph))
    for _ in range(4):
        np.testing.assert_allclose(float(step(eager)), float(graph_step()), rtol=1e-6)
    for a, b in zip(eager, graph):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_fast_calls_key_python_scalars_by_value():
    @tf.function
    def scale(x, k):
        return x * k

    assert float(scale(tf.constant(2.0), 3.0)) == 6.0
    assert float(scale(tf.constant(2.0), 3.0)) == 6.0
    assert float(scale(tf.constant(2.0), 4.0)) == 8.0   # another value: another trace
    assert float(scale(tf.constant(2.0), 4)) == 8.0     # another type: another trace
    assert scale.experimental_get_tracing_count() == 3


def test_returning_code_instead_of_tensors_is_a_type_error_naming_the_function():
    def numbers(x):
        yield x  # a generator function: tf.function cannot trace it

    with pytest.raises(TypeError, match=r"must return zero or more Tensors.*in compilation "
                       r"of <function .*numbers.*found return value of type generator.*"
                       r"tf\.TensorArray"), \
            pytest.warns(UserWarning, match="generators are not supported"):  # as TF warns
        tf.function(numbers)(tf.constant(1.0))
    with pytest.raises(TypeError, match=r"found return value of type function.*call the "
                       r"function inside"):
        tf.function(lambda x: (lambda: x))(tf.constant(1.0))
    # Python numbers, strings, NumPy arrays and None are fine, as in TF.
    got = tf.function(lambda x: (1, "a", np.ones(2), None))(tf.constant(1.0))
    assert got[0].dtype == tf.int32 and got[1].numpy() == b"a" and got[3] is None
