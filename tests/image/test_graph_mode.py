"""tf.image inside tf.function with an unknown batch size (input_signature with None):
values and gradients as eagerly, and a clear error where minitf needs a size while tracing."""
import numpy as np
import pytest

import minitf as tf

SPEC = tf.TensorSpec([None, 8, 8, 3], tf.float32)
X = tf.constant(np.random.default_rng(0).uniform(size=(2, 8, 8, 3)).astype(np.float32))

OPS = {
    "resize": lambda im: tf.image.resize(im, [5, 7], method="bicubic"),
    "lanczos": lambda im: tf.image.resize(im, [5, 7], method="lanczos3", antialias=True),
    "crop_and_resize": lambda im: tf.image.crop_and_resize(im, [[0, 0, 1, 1.0]], [1], [3, 3]),
    "pad": lambda im: tf.image.resize_with_pad(im, 10, 12),
    "patches": lambda im: tf.image.extract_patches(im, [1, 3, 3, 1], [1, 1, 1, 1],
                                                   [1, 1, 1, 1], "SAME"),
    "rot90": lambda im: tf.image.rot90(im, 3),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_values_and_gradients_with_unknown_batch(name):
    op = OPS[name]

    @tf.function(input_signature=[SPEC])
    def value_and_grad(im):
        with tf.GradientTape() as tape:
            tape.watch(im)
            y = op(im)
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, im)

    y, grad = value_and_grad(X)
    with tf.GradientTape() as tape:
        tape.watch(X)
        eager = op(X)
        loss = tf.reduce_sum(eager * eager)
    np.testing.assert_allclose(y.numpy(), eager.numpy(), rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), tape.gradient(loss, X).numpy(), rtol=1e-5,
                               atol=1e-6)


def test_sobel_edges_with_unknown_batch():
    # values only: the gradient of tf.nn.depthwise_conv2d in a graph with an unknown batch
    # is not available in minitf yet (DepthwiseConv2dNativeBackpropInput needs the batch)
    f = tf.function(tf.image.sobel_edges, input_signature=[SPEC])
    np.testing.assert_allclose(f(X).numpy(), tf.image.sobel_edges(X).numpy(), rtol=1e-6)


@pytest.mark.parametrize("call,text", [
    (lambda im: tf.image.random_flip_left_right(im), "minitf's random ops need their shape"),
    (lambda im: tf.image.resize(im, tf.shape(im)[1:3] * 2), "minitf needs 'size' while tracing"),
])
def test_sizes_minitf_needs_while_tracing(call, text):
    with pytest.raises(ValueError, match=text):
        tf.function(call, input_signature=[SPEC])(X)


def test_preserve_aspect_ratio_needs_the_image_size():
    spec = tf.TensorSpec([None, None, None, 3], tf.float32)
    with pytest.raises(ValueError, match="preserve the aspect ratio"):
        tf.function(lambda im: tf.image.resize(im, [4, 4], preserve_aspect_ratio=True),
                    input_signature=[spec])(X)
