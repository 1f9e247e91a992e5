"""tf.einsum: values against np.einsum, implicit outputs, ellipsis broadcasting,
repeated letters, more than two operands, gradients (first and second order)
and TF's error messages."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis.extra import numpy as hnp
from strategies import arrays

import minitf as tf

EQUATIONS = [  # equation, operand shapes
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ba", [(2, 3)]),
    ("ij->ji", [(2, 3)]),
    ("ii->", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("iij,jk->ik", [(2, 2, 3), (3, 2)]),
    ("i,i->", [(3,), (3,)]),
    ("i,j->ij", [(3,), (2,)]),
    ("ij,ij->", [(2, 3), (2, 3)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("abc,cd->ad", [(2, 3, 4), (4, 2)]),
    ("aabbcd->ca", [(2, 2, 3, 3, 2, 2)]),
    ("...ij,...jk->...ik", [(5, 1, 2, 3), (4, 3, 2)]),
    ("ij,...jk->...ik", [(2, 3), (4, 3, 2)]),
    ("...i->...", [(2, 3, 4)]),
    ("i...->...", [(3, 2)]),
    ("...ij->...ji", [(3,)*3]),
    ("i J, J k -> i k", [(2, 3), (3, 4)]),
    (",ij->ij", [(), (2, 3)]),
]


@pytest.mark.parametrize("equation,shapes", EQUATIONS)
def test_values_match_numpy(equation, shapes):
    operands = [arrays(s, seed=i) for i, s in enumerate(shapes)]
    expected = np.einsum(equation.replace(" ", ""), *operands)
    np.testing.assert_allclose(tf.einsum(equation, *operands).numpy(), expected, rtol=1e-12)
    assert tf.linalg.einsum is tf.einsum


@pytest.mark.parametrize("equation,shapes", EQUATIONS)
def test_gradients_first_and_second_order(equation, shapes):
    operands = [arrays(s, seed=i + 3) for i, s in enumerate(shapes)]
    check_grads(lambda *xs: tf.einsum(equation, *xs), *operands, order=2)


def test_three_and_four_operands():
    a, b, c, d = arrays((2, 3), seed=1), arrays((3, 4), seed=2), arrays((4, 2), seed=3), \
        arrays((2,), seed=4)
    np.testing.assert_allclose(tf.einsum("ij,jk,kl->il", a, b, c).numpy(),
                               np.einsum("ij,jk,kl->il", a, b, c), rtol=1e-12)
    np.testing.assert_allclose(tf.einsum("ij,jk,kl,l->i", a, b, c, d).numpy(),
                               np.einsum("ij,jk,kl,l->i", a, b, c, d), rtol=1e-12)
    np.testing.assert_allclose(tf.einsum("i,ij,i->j", d, a, d).numpy(),
                               np.einsum("i,ij,i->j", d, a, d), rtol=1e-12)
    check_grads(lambda x, y, z: tf.einsum("ij,jk,kl->il", x, y, z), a, b, c, order=2)
    check_grads(lambda x, y, z: tf.einsum("...ij,jk,kl->...il", x, y, z),
                arrays((2, 2, 3)), b, c)


@given(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=2, max_side=2))
def test_ellipsis_batch_axes_broadcast(shapes):
    a = arrays(shapes.input_shapes[0] + (2, 3), seed=1)
    b = arrays(shapes.input_shapes[1] + (3, 2), seed=2)
    out = tf.einsum("...ij,...jk->...ik", a, b)
    np.testing.assert_allclose(out.numpy(), np.matmul(a, b), rtol=1e-12)
    check_grads(lambda x, y: tf.einsum("...ij,...jk->...ik", x, y), a, b)


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64, tf.int32, tf.int64,
                                   tf.complex128])
def test_dtypes(dtype):
    a = tf.ones([2, 3], dtype)
    out = tf.einsum("ij,kj->ik", a, a)
    assert out.dtype is dtype
    np.testing.assert_array_equal(out.numpy(), np.full((2, 2), 3))


def test_python_lists_adopt_the_tensor_dtype():
    out = tf.einsum("ij,jk->ik", [[1.0, 2.0]], tf.constant([[3.0], [4.0]], tf.float64))
    assert out.dtype is tf.float64 and out.numpy().tolist() == [[11.0]]


def test_complex_gradient_conjugates():
    x, y = tf.constant([1 + 2j, 3j]), tf.constant([2.0 + 0j, 1 - 1j])
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.einsum("i,i->", x, y)
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), np.conj(y.numpy()))


ERRORS = [
    (lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([2, 3])),
     tf.errors.InvalidArgumentError,
     r"Expected dimension 3 at axis 0 of the input shaped \[2,3\] but got dimension 2"),
    (lambda: tf.einsum("ij,ij->ij", tf.ones([1, 3]), tf.ones([2, 3])),
     tf.errors.InvalidArgumentError,
     r"Expected dimension 1 at axis 0 of the input shaped \[2,3\] but got dimension 2"),
    (lambda: tf.einsum("ijk,jk->ik", tf.ones([2, 3]), tf.ones([3, 4])),
     tf.errors.InvalidArgumentError, "Expected input 0 to have rank 3 but got: 2"),
    (lambda: tf.einsum("...ijk->k", tf.ones([2, 3])),
     tf.errors.InvalidArgumentError, "Expected input 0 to have rank at least 3 but got: 2"),
    (lambda: tf.einsum("...ij,...jk->...ik", tf.ones([5, 2, 3]), tf.ones([4, 3, 4])),
     tf.errors.InvalidArgumentError,
     r"Invalid broadcasting dimensions: \[5,2,3\] vs. \[4,3,4\]"),
    (lambda: tf.einsum("...ij,...jk->ik", tf.ones([5, 2, 3]), tf.ones([5, 3, 4])),
     tf.errors.InvalidArgumentError,
     r"Output contains 1 broadcasting dimension\(s\) but no ellipsis"),
    (lambda: tf.einsum("...ij,...jk", tf.ones([5, 2, 3]), tf.ones([5, 3, 4])),
     tf.errors.InvalidArgumentError,
     r"Output contains 1 broadcasting dimension\(s\) but no ellipsis"),
    (lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3])), ValueError,
     'Got 1 inputs for equation "ij,jk->ik", expecting 2'),
    (lambda: tf.einsum("i->ii", tf.ones([3])), ValueError,
     "Output subscripts contain a label appearing more than once: i->ii"),
    (lambda: tf.einsum("ij,jk->iz", tf.ones([2, 3]), tf.ones([3, 4])), ValueError,
     "Output subscripts contain the label z not present in the input subscripts"),
    (lambda: tf.einsum("ij->i1", tf.ones([2, 3])), ValueError,
     "Subscripts have incorrect format"),
    (lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([3, 4], tf.float64)),
     tf.errors.InvalidArgumentError, "expected to be a float tensor but is a double tensor"),
    (lambda: tf.einsum("ij->ji", tf.ones([2, 3], tf.bool)),
     tf.errors.InvalidArgumentError, "Value for attr 'T' of bool is not in the list"),
    (lambda: tf.einsum("ij->ji", tf.ones([2, 3]), bogus=1), TypeError,
     "Invalid keyword arguments for einsum: bogus"),
]


@pytest.mark.parametrize("call,error,message", ERRORS)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
