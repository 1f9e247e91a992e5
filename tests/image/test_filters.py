"""extract_patches, image_gradients, sobel_edges, total_variation: hand-worked numbers,
gradients against finite differences, tf.function, TF's errors, and real TF 2.21."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json

X = np.arange(2 * 5 * 6 * 2, dtype=np.float32).reshape(2, 5, 6, 2)
PATCH_CASES = [([1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
               ([1, 3, 3, 1], [1, 2, 2, 1], [1, 2, 1, 1], "SAME"),
               ([1, 2, 4, 1], [1, 1, 3, 1], [1, 1, 1, 1], "SAME"),
               ([1, 7, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")]


def test_extract_patches_by_hand():
    got = tf.image.extract_patches(X, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1], "VALID")
    assert got.shape == (2, 2, 4, 12)
    np.testing.assert_array_equal(got[1, 1, 2], X[1, 2:4, 2:5].reshape(-1))  # (row, col, ch)
    assert tf.image.extract_patches(X.astype(np.uint8), [1, 3, 3, 1], [1, 2, 2, 1],
                                    [1, 1, 1, 1], "VALID").dtype == tf.uint8


@pytest.mark.parametrize("sizes,strides,rates,padding", PATCH_CASES[:3])
def test_extract_patches_gradient(sizes, strides, rates, padding):
    x = np.random.default_rng(0).uniform(size=(1, 5, 6, 2))
    check_grads(lambda im: tf.image.extract_patches(im, sizes, strides, rates, padding), x,
                order=2)


def test_image_gradients_and_total_variation_by_hand():
    image = tf.constant([[[[0.0], [1.0]], [[3.0], [0.0]]]])
    dy, dx = tf.image.image_gradients(image)
    np.testing.assert_array_equal(dy[0, ..., 0], [[3, -1], [0, 0]])
    np.testing.assert_array_equal(dx[0, ..., 0], [[1, 0], [-3, 0]])
    np.testing.assert_array_equal(tf.image.total_variation(image), [8.0])
    assert tf.image.total_variation(tf.zeros([2, 3, 4], tf.int32)).dtype == tf.int32


def test_sobel_edges_of_a_ramp():
    ramp = tf.reshape(tf.range(9.0), [1, 3, 3, 1])
    edges = tf.image.sobel_edges(ramp)
    assert edges.shape == (1, 3, 3, 1, 2)
    np.testing.assert_array_equal(edges[0, 1, 1, 0], [24.0, 8.0])  # 4 * (3 per row, 1 per col)


def test_gradients_of_composites():
    x = np.random.default_rng(1).uniform(size=(2, 4, 5, 2))
    check_grads(lambda im: tf.stack(tf.image.image_gradients(im)), x)
    check_grads(tf.image.sobel_edges, x)
    check_grads(tf.image.total_variation, x)


def test_in_tf_function():
    f = tf.function(lambda im: (tf.image.extract_patches(im, [1, 3, 3, 1], [1, 2, 2, 1],
                                                         [1, 1, 1, 1], "SAME"),
                                tf.image.sobel_edges(im), tf.image.total_variation(im)))
    for got, want in zip(f(tf.constant(X)), (
            tf.image.extract_patches(X, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME"),
            tf.image.sobel_edges(X), tf.image.total_variation(X))):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("call,cls,text", [
    (lambda: tf.image.extract_patches(X, [1, 3, 3], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
     tf.errors.InvalidArgumentError, "Length for attr 'ksizes' of 3 must be at least minimum 4"),
    (lambda: tf.image.extract_patches(X, [2, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
     tf.errors.UnimplementedError, "Only support ksizes across space."),
    (lambda: tf.image.extract_patches(X, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "FOO"),
     tf.errors.InvalidArgumentError, "Value for attr 'padding' of \"FOO\" is not in the list"),
    (lambda: tf.image.extract_patches(X[0], [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
     tf.errors.InvalidArgumentError, "input must be 4-dimensional[5,6,2]"),
    (lambda: tf.image.image_gradients(X[0]), ValueError,
     "image_gradients expects a 4D tensor [batch_size, h, w, d], not (5, 6, 2)."),
    (lambda: tf.image.total_variation(tf.zeros([2, 3])), ValueError,
     "'images' must be either 3 or 4-dimensional."),
    (lambda: tf.image.sobel_edges(tf.cast(X, tf.int32)), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values: half"),
])
def test_errors_as_tf(call, cls, text):
    with pytest.raises(cls) as info:
        call()
    assert text in str(info.value)


def test_matches_real_tf():
    x = np.random.default_rng(3).uniform(size=(2, 5, 6, 2)).round(4)
    got = run_tf_json(f"""
        import json, numpy as np, tensorflow as tf
        x = tf.constant({json.dumps(x.tolist())}, tf.float32)
        out = []
        for sizes, strides, rates, padding in {json.dumps(PATCH_CASES)}:
            with tf.GradientTape() as tape:
                tape.watch(x)
                p = tf.image.extract_patches(x, sizes, strides, rates, padding)
                w = tf.reshape(tf.cast(tf.range(tf.size(p)), tf.float32) / 100.0, tf.shape(p))
                loss = tf.reduce_sum(p * w)
            out.append([p.numpy().tolist(), tape.gradient(loss, x).numpy().tolist()])
        dy, dx = tf.image.image_gradients(x)
        out.append([dy.numpy().tolist(), dx.numpy().tolist(),
                    tf.image.sobel_edges(x).numpy().tolist(),
                    tf.image.total_variation(x).numpy().tolist(),
                    tf.image.total_variation(x[0]).numpy().tolist()])
        print(json.dumps(out))
    """)
    xt = tf.constant(x, tf.float32)
    for (sizes, strides, rates, padding), (patches, grad) in zip(PATCH_CASES, got):
        with tf.GradientTape() as tape:
            tape.watch(xt)
            p = tf.image.extract_patches(xt, sizes, strides, rates, padding)
            w = tf.reshape(tf.cast(tf.range(tf.size(p)), tf.float32) / 100.0, tf.shape(p))
            loss = tf.reduce_sum(p * w)
        np.testing.assert_array_equal(p.numpy(), np.array(patches, np.float32).reshape(p.shape))
        np.testing.assert_allclose(tape.gradient(loss, xt).numpy(), grad, rtol=1e-6, atol=1e-5)
    dy, dx, sobel, tv, tv3 = got[-1]
    mine_dy, mine_dx = tf.image.image_gradients(xt)
    np.testing.assert_allclose(mine_dy.numpy(), dy, rtol=1e-6)
    np.testing.assert_allclose(mine_dx.numpy(), dx, rtol=1e-6)
    np.testing.assert_allclose(tf.image.sobel_edges(xt).numpy(), sobel, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tf.image.total_variation(xt).numpy(), tv, rtol=1e-6)
    np.testing.assert_allclose(tf.image.total_variation(xt[0]).numpy(), tv3, rtol=1e-6)
