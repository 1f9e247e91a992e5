"""`tf.io.decode_png`, `tf.io.encode_jpeg`, ...: TensorFlow exports its image codecs under
both `tf.io` and `tf.image`. They live in minitf/image/ (image_codecs.py, jpeg_codec.py);
importing `tf.io` imports that package, which puts them in place under both names.

>>> import minitf as tf
>>> tf.io.decode_png is tf.image.decode_png
True
"""
from .. import image  # noqa: F401 - registers the codecs' "io.*" names
