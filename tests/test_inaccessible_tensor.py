"""A tensor from a loop body used after the loop: TF's InaccessibleTensorError (a ValueError)."""
import pytest

import minitf as tf
from minitf.framework.graph import InaccessibleTensorError


@tf.function
def squares_in_python_list(n):
    out = []
    for i in tf.range(n):
        out.append(i * i)  # a tensor of the loop body's graph
    return tf.stack(out)


def test_loop_body_tensor_used_outside_raises_inaccessible_tensor_error():
    with pytest.raises(InaccessibleTensorError) as info:
        squares_in_python_list(tf.constant(4))
    message = str(info.value)
    assert "is out of scope and cannot be used here" in message
    assert "defined in graph while_body" in message
    assert "tf.TensorArray" in message


def test_inaccessible_tensor_error_is_a_value_error_and_not_exported():
    assert issubclass(InaccessibleTensorError, ValueError)
    assert not hasattr(tf.errors, "InaccessibleTensorError")  # as in TF: errors_impl only


def test_the_tensor_array_version_works():
    @tf.function
    def squares(n):
        out = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            out = out.write(i, i * i)
        return out.stack()

    assert squares(tf.constant(4)).numpy().tolist() == [0, 1, 4, 9]
