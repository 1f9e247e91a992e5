"""tf.io.decode_jxl / tf.image.decode_jxl, and JPEG XL in the other decoders (as TF 2.21).

Fixtures (tests/fixtures/jxl/README.md): .jxl files made with pillow-jxl-plugin and what
real TF's decode_jxl returns for them. Lossless files decode exactly as TF's; the lossy
one within one level (two conforming decoders round differently).
"""
import os

import numpy as np
import pytest

import minitf as tf
from minitf.image import jxl_codec
from tests.real_tf import run_tf_json

pytest.importorskip("pillow_jxl", reason="pip install 'pillow-jxl-plugin>=1.3'")

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "jxl")
NAMES = ("rgb", "gray", "rgba", "gray_alpha", "lossy")


def read(name):
    with open(os.path.join(FIXTURES, f"{name}.jxl"), "rb") as f:
        return f.read()


def message(fn):
    try:
        fn()
    except tf.errors.InvalidArgumentError as e:
        return str(e).split(" [Op:")[0]
    return None


def test_fixtures_decode_as_tf_decodes_them():
    decoded = np.load(os.path.join(FIXTURES, "decoded_by_tf.npz"))
    sources = np.load(os.path.join(FIXTURES, "source_pixels.npz"))
    for name in NAMES:
        got = tf.io.decode_jxl(read(name))
        assert got.dtype == tf.uint8 and got.shape == decoded[name].shape, name
        if name == "lossy":
            diff = np.abs(got.numpy().astype(int) - decoded[name])
            assert diff.max() <= 1 and diff.mean() < 0.5
        else:
            np.testing.assert_array_equal(got.numpy(), decoded[name])
            np.testing.assert_array_equal(got.numpy().reshape(sources[name].shape),
                                          sources[name])


def test_channels_must_be_the_files():
    assert tf.io.decode_jxl(read("gray"), channels=1).shape == (3, 4, 1)
    assert tf.image.decode_jxl(read("rgba"), channels=4).shape == (3, 4, 4)
    assert message(lambda: tf.io.decode_jxl(read("rgb"), channels=1)) == \
        "Number of channels requested does not match input"
    assert message(lambda: tf.io.decode_jxl(read("rgb"), channels=2)) == \
        "`channels` must be 0, 1, 3 or 4 but got 2"
    assert tf.io.decode_jxl is tf.image.decode_jxl


def test_every_decoder_reads_jxl_and_decode_jxl_reads_the_rest():
    rgb = tf.io.decode_jxl(read("rgb")).numpy()
    for decode in (tf.io.decode_png, tf.io.decode_jpeg, tf.io.decode_image, tf.io.decode_bmp):
        np.testing.assert_array_equal(decode(read("rgb")).numpy(), rgb)
    png = tf.io.encode_png(tf.constant([[[1, 2, 3]]], tf.uint8))
    assert tf.io.decode_jxl(png).numpy().tolist() == [[[1, 2, 3]]]
    assert message(lambda: tf.io.decode_png(read("rgb"), dtype=tf.uint16)) == \
        "JXL only supports uint8 for dtype"


def test_bad_bytes():
    assert message(lambda: tf.io.decode_jxl(b"abc")).startswith(
        "Unknown image file format. One of JPEG, JPEG XL, PNG")
    assert message(lambda: tf.io.decode_jxl(b"\xff\x0a")) == "Failed to decode JXL header"
    assert message(lambda: tf.io.decode_jxl(read("rgb")[:40])) == "Failed to decode JXL image"
    assert message(lambda: tf.io.decode_jxl(tf.constant([read("rgb")]))).startswith(
        "`contents` must be scalar")
    assert message(lambda: tf.io.decode_jxl(read("rgb"), dtype=tf.uint16)).startswith(
        "Value for attr 'dtype' of uint16")


def test_size_header_is_read_before_decoding():
    assert jxl_codec.image_size(read("rgb")) == (5, 4)
    assert jxl_codec.image_size(read("gray")) == (4, 3)
    # FF 0A, then: not div8; height - 1 = 2**30 - 1 (selector 3, 30 bits); ratio 1 (square)
    bits = "0" + "11" + "1" * 30 + "100"
    value = int(bits[::-1], 2)  # fields are read least significant bit first
    bomb = b"\xff\x0a" + value.to_bytes(5, "little")
    assert jxl_codec.image_size(bomb) == (2 ** 30, 2 ** 30)
    assert message(lambda: tf.io.decode_jxl(bomb)).startswith("Image dimensions are too large")


def test_in_tf_function():
    decode = tf.function(lambda b: tf.io.decode_jxl(b, channels=3))
    out = decode(tf.constant(read("rgb")))
    np.testing.assert_array_equal(out.numpy(), tf.io.decode_jxl(read("rgb")).numpy())


def test_errors_and_values_equal_real_tf():
    cases = {
        "mismatch": "tf.io.decode_jxl(RGB, channels=4)",
        "bad_channels": "tf.io.decode_jxl(RGB, channels=2)",
        "header": "tf.io.decode_jxl(RGB[:2])",
        "image": "tf.io.decode_jxl(RGB[:40])",
        "unknown": "tf.io.decode_jxl(b'abc')",
        "png_uint16": "tf.io.decode_png(RGB, dtype=tf.uint16)",
    }
    code = f"""
        import json, tensorflow as tf
        RGB = open({os.path.join(FIXTURES, 'rgb.jxl')!r}, 'rb').read()
        out = {{}}
        for name, expr in {cases!r}.items():
            try:
                eval(expr)
                out[name] = None
            except tf.errors.InvalidArgumentError as e:
                out[name] = str(e).split("}}}} ")[-1].split(" [Op:")[0]
        png = tf.io.encode_png(tf.constant([[[1, 2, 3]]], tf.uint8))
        out["png"] = tf.io.decode_jxl(png).numpy().tolist()
        out["gif_of_jxl"] = tf.io.decode_gif(RGB).shape.as_list()
        print(json.dumps(out))
        """
    want = run_tf_json(code)
    RGB = read("rgb")  # noqa: N806 - TF's snippet's name
    for name, expr in cases.items():
        assert message(lambda: eval(expr, {"tf": tf, "RGB": RGB})) == want[name], name
    png = tf.io.encode_png(tf.constant([[[1, 2, 3]]], tf.uint8))
    assert tf.io.decode_jxl(png).numpy().tolist() == want["png"]
    # TF's decode_gif gives a 3-D image for a JXL file, though it promises 4-D frames;
    # minitf refuses instead (a deliberate difference, see image_codecs._decode).
    assert want["gif_of_jxl"] == [4, 5, 3]
    assert message(lambda: tf.io.decode_gif(RGB)).startswith(
        "Trying to decode JXL format using DecodeGif op")
