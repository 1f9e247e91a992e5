"""Keras's default names: `Conv2DTranspose` -> "conv2d_transpose".

A layer or model made without `name=` is named after its class in snake case,
then numbered by `backend._unique_name` ("dense", "dense_1", ...). Keras has its
own rule for the snake case, and it differs from `tf.Module`'s (minitf/module.py
`camel_to_snake`, which TF also keeps): a digit is not a word boundary, so
`Conv2D` is "conv2d" for Keras but "conv2_d" for a `tf.Module`.

>>> to_snake_case("Conv2DTranspose"), to_snake_case("MyMLP2Block"), to_snake_case("PReLU")
('conv2d_transpose', 'my_mlp2_block', 'p_re_lu')

In TensorFlow this is `keras/src/utils/naming.py` `to_snake_case`.
"""
import re


def to_snake_case(name):
    """Drop non-word characters, then split before capitalised words and at lower->Upper."""
    name = re.sub(r"\W+", "", name)
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()
