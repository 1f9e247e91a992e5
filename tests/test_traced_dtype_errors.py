"""Inside tf.function a dtype mismatch is a TypeError found while tracing, worded as
TensorFlow's graph builder words it (framework/arg_names.py); eagerly it stays the
kernel's InvalidArgumentError. Messages checked against TF 2.21."""
import numpy as np
import pytest

import minitf as tf
from minitf.framework.op import Op, apply
from minitf.framework.tensor_shape import TensorShape

CASES = [
    (lambda: tf.constant(1.0) - tf.constant(1),
     "Input 'y' of 'Sub' Op has type int32 that does not match type float32 of argument 'x'."),
    (lambda: tf.matmul(tf.ones([2, 2]), tf.ones([2, 2], tf.float64)),
     ("Input 'b' of 'MatMul' Op has type float64 that does not match type float32 of "
      "argument 'a'.")),
    (lambda: tf.constant(1.0) < tf.constant(1),
     "Input 'y' of 'Less' Op has type int32 that does not match type float32 of argument 'x'."),
    (lambda: tf.concat([tf.constant([1.0]), tf.constant([1])], 0),
     ("Tensors in list passed to 'values' of 'ConcatV2' Op have types [float32, int32] that "
      "don't all match.")),
    (lambda: tf.exp(tf.constant(1)),   # (TF lists bfloat16 too, which minitf does not have)
     ("Value passed to parameter 'x' has DataType int32 not in list of allowed values: "
      "float16, float32, float64, complex64, complex128.")),
]


@pytest.mark.parametrize("make, message", CASES, ids=[c[1][:30] for c in CASES])
def test_traced_dtype_errors_are_tensorflows_type_errors(make, message):
    with pytest.raises(TypeError) as info:
        tf.function(make, autograph=False)()
    assert message in str(info.value)
    assert "tf.cast" in str(info.value)  # and the sentence that says what to do
    with pytest.raises(tf.errors.InvalidArgumentError):  # eagerly: the kernel's error
        make()


def test_an_autograph_loop_that_mixes_dtypes_fails_while_tracing():
    @tf.function
    def total(n):
        s = 0
        for _ in tf.range(n):
            s = s + 1.5
        return s

    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type float32 that does "
                                        "not match type int32 of argument 'x'"):
        total(tf.constant(3))


def test_an_op_without_known_input_names_numbers_them():
    blend = Op("Blend", lambda a, b: a + b, shape=lambda a, b: TensorShape(a))
    f = tf.function(lambda: apply(blend, [tf.constant(np.float32(1)), tf.constant(2)]),
                    autograph=False)
    with pytest.raises(TypeError, match=r"Input #1\(zero-based\) of 'Blend' Op has type int32 "
                                        r"that does not match type float32 of argument "
                                        r"#0\(zero-based\)"):
        f()
