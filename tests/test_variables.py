"""tf.Variable: creation, printing, names, assignment rules, operators, gradients.

Every expectation here was first printed by TensorFlow 2.21.
"""
import numpy as np
import pytest

import minitf as tf

V = tf.Variable


def values(x):
    return np.asarray(x.numpy()).tolist()


# --- creation and printing ------------------------------------------------------------------
@pytest.mark.parametrize("variable, text", [
    (lambda: V(1.0), "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"),
    (lambda: V(1), "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=1>"),
    (lambda: V(0.1), "<tf.Variable 'Variable:0' shape=() dtype=float32, "
                     "numpy=0.10000000149011612>"),
    (lambda: V("ab"), "<tf.Variable 'Variable:0' shape=() dtype=string, numpy=b'ab'>"),
    (lambda: V([1.0, 2.0], name="w"),
     "<tf.Variable 'w:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>"),
    (lambda: V([[1, 2], [3, 4]]), "<tf.Variable 'Variable:0' shape=(2, 2) dtype=int32, numpy=\n"
                                  "array([[1, 2],\n       [3, 4]], dtype=int32)>"),
])
def test_repr_and_str(variable, text):
    v = variable()
    assert repr(v) == text and str(v) == text


def test_names():
    assert V(1.0, name="w").name == "w:0"
    assert V(1.0, name="x/y").name == "x/y:0"
    assert [V(1.0).name, V(2.0).name] == ["Variable:0", "Variable:0"]  # eager: no uniquifying


def test_initial_values_and_dtypes():
    assert V(1, dtype=tf.float32).dtype == tf.float32
    assert V(1.0, dtype=tf.float64).dtype == tf.float64
    assert V(np.float64(1.5)).dtype == tf.float64
    assert V(np.array([1, 2])).dtype == tf.int64
    v = V(lambda: tf.zeros([2]))
    assert v.shape == [2] and values(v) == [0.0, 0.0]
    assert V([[1, 2]]).shape == tf.TensorShape([1, 2]) and V(1.0).get_shape() == []
    assert isinstance(V(1.0), tf.Variable) and not isinstance(V(1.0), tf.Tensor)
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float64 for Tensor "
                                         "with dtype float32"):
        V(tf.constant(1.0), dtype=tf.float64)


def test_initial_value_is_required():
    for make in (lambda: V(None), lambda: V()):
        with pytest.raises(ValueError, match="The `initial_value` arg"):
            make()


def test_numpy_gives_a_copy_or_a_numpy_scalar():
    assert type(V(1.0).numpy()) is np.float32
    v = V([1.0, 2.0])
    out = v.numpy()
    out[0] = 9.0
    assert values(v) == [1.0, 2.0]
    assert np.asarray(v).tolist() == [1.0, 2.0]
    assert float(V(2.5)) == 2.5 and int(V(2)) == 2 and bool(V(1.0))


def test_variables_are_unhashable_but_refs_are():
    v = V(1.0)
    with pytest.raises(TypeError, match=r"Variable is unhashable. Instead, use variable.ref\(\) "
                                        r"as the key."):
        hash(v)
    assert {v.ref(): 1}[v.ref()] == 1 and v.ref().deref() is v
    assert V(1.0).ref() != V(1.0).ref()


# --- assignment ----------------------------------------------------------------------------
def test_assign_add_sub():
    v = V(1.0)
    assert float(v.assign(2.0)) == 2.0 and float(v) == 2.0
    assert float(v.assign_add(3.0)) == 5.0
    assert float(v.assign_sub(1.5)) == 3.5
    assert v.assign(1.0, read_value=False) is None and float(v) == 1.0
    w = V([1.0, 2.0])
    w.assign_add([10.0, 20.0])
    assert values(w) == [11.0, 22.0] and w.dtype == tf.float32


def test_assign_converts_python_and_numpy_values_to_the_variable_dtype():
    v = V(1.0)
    v.assign(2)
    assert values(v) == 2.0 and v.dtype == tf.float32
    v.assign(np.float64(2.5))
    assert values(v) == 2.5 and v.dtype == tf.float32
    w = V([1, 2])
    w.assign(np.array([1.5, 2.5]))  # NumPy values are cast, as TF does
    assert values(w) == [1, 2] and w.dtype == tf.int32
    v.assign(V(3.0))
    assert values(v) == 3.0


@pytest.mark.parametrize("call, error, message", [
    (lambda: V([1.0, 2.0]).assign([1.0, 2.0, 3.0]), ValueError,
     r"Cannot assign value to variable ' Variable:0': Shape mismatch.The variable shape \(2,\), "
     r"and the assigned value shape \(3,\) are incompatible."),
    (lambda: V([1, 2]).assign([[1, 2]]), ValueError, r"assigned value shape \(1, 2\)"),
    (lambda: V(1.0).assign(tf.constant(2.0, tf.float64)), ValueError,
     "Tensor conversion requested dtype float32 for Tensor with dtype float64"),
    (lambda: V(1).assign(2.5), TypeError, "Cannot convert 2.5 to EagerTensor of dtype int32"),
    (lambda: V(1).assign_add(2.5), TypeError, "Cannot convert 2.5 to EagerTensor of dtype int32"),
    (lambda: V(1.0).assign("a"), TypeError, "Cannot convert 'a' to EagerTensor of dtype float"),
    (lambda: V(1.0).assign(None), ValueError, r"Attempt to convert a value \(None\)"),
])
def test_assignment_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_unknown_shape_allows_other_shapes():
    v = V([1.0, 2.0], shape=tf.TensorShape(None))
    v.assign([1.0, 2.0, 3.0])
    assert values(v) == [1.0, 2.0, 3.0] and "shape=<unknown>" in repr(v)


def test_a_tensor_read_before_assign_keeps_the_old_value():
    v = V([1.0, 2.0])
    reads = [v.read_value(), v.value(), v + 0, tf.identity(v), tf.convert_to_tensor(v), v[0]]
    v.assign([5.0, 6.0])
    v.assign_add([1.0, 1.0])
    assert [values(r) for r in reads[:5]] == [[1.0, 2.0]] * 5 and values(reads[5]) == 1.0
    assert values(v.read_value()) == [6.0, 7.0]


# --- operators read the value ---------------------------------------------------------------
def test_operators_read_the_current_value():
    v = V(3.0)
    results = [v + 1, 2 * v, v - 1, 1 - v, v / 2, v ** 2, -v, abs(V(-1.0)), v // 2, v % 2]
    assert all(isinstance(r, tf.Tensor) and r.dtype == tf.float32 for r in results)
    assert [float(r) for r in results] == [4.0, 6.0, 2.0, -2.0, 1.5, 9.0, -3.0, 1.0, 1.0, 1.0]
    v.assign(10.0)
    assert float(v + 1) == 11.0 and float(V(2.0) + V(3.0)) == 5.0
    assert float(tf.constant(1.0) + v) == 11.0
    assert bool(v < 20) and bool(v == 10.0) and values(V([1.0, 2.0])[1]) == 2.0
    assert values(V([[1.0, 2.0]]) @ V([[1.0], [2.0]])) == [[5.0]]
    assert values(V(True) & V(False)) is False and values(V(5) // 2) == 2
    assert values(tf.constant(V(1.0))) == 1.0
    assert list(map(values, V([1, 2]))) == [1, 2]


def test_operators_keep_tf_dtype_rules():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="cannot compute AddV2 as input #1\\(zero-based\\) was expected to be "
                             "a int32 tensor but is a float tensor"):
        V([1, 2]) + tf.constant([1.0, 2.0])


# --- trainable and gradients ---------------------------------------------------------------
def test_trainable_flag():
    assert V(1.0).trainable and not V(1.0, trainable=False).trainable
    on_read = V(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                aggregation=tf.VariableAggregation.SUM)
    assert not on_read.trainable  # ON_READ variables default to non-trainable


def test_tape_watches_trainable_variables_only():
    a, b = V(2.0), V(3.0, trainable=False)
    with tf.GradientTape() as tape:
        y = a * b
    grad_a, grad_b = tape.gradient(y, [a, b])
    assert float(grad_a) == 3.0 and grad_b is None
