"""Image codecs: PNG round trips, decodes equal to what real TF decoded (committed fixtures),
bounded loaders, TF's errors, and the ops inside tf.function."""
import io
import os
import struct
import zlib

import numpy as np
import pytest

import minitf as tf

HERE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "image")
TF_DECODED = np.load(os.path.join(HERE, "decoded_by_tf.npz"))
PIXELS = TF_DECODED["photo_pixels"]


def read(name):
    with open(os.path.join(HERE, name), "rb") as f:
        return f.read()


@pytest.mark.parametrize("dtype,channels", [(np.uint8, 1), (np.uint8, 2), (np.uint8, 3),
                                            (np.uint8, 4), (np.uint16, 1), (np.uint16, 2),
                                            (np.uint16, 3), (np.uint16, 4)])
def test_png_round_trip_is_bit_exact(dtype, channels):
    rng = np.random.default_rng(channels)
    x = rng.integers(0, np.iinfo(dtype).max + 1, size=(5, 7, channels)).astype(dtype)
    png = tf.io.encode_png(x)
    assert png.dtype == tf.string and png.numpy()[:8] == b"\x89PNG\r\n\x1a\n"
    if dtype == np.uint16:
        np.testing.assert_array_equal(tf.io.decode_png(png).numpy(), x >> 8)  # TF: high byte
    back = tf.io.decode_png(png, dtype=tf.as_dtype(dtype))
    assert back.dtype == tf.as_dtype(dtype)
    np.testing.assert_array_equal(back.numpy(), x)


def test_encode_png_writes_valid_chunks_and_honours_compression():
    x = np.zeros((16, 16, 3), np.uint8)
    small, big = tf.io.encode_png(x, compression=9).numpy(), tf.io.encode_png(x, 0).numpy()
    assert len(small) < len(big)
    length, kind = struct.unpack(">I4s", small[8:16])
    assert kind == b"IHDR" and length == 13
    width, height, depth, colour = struct.unpack(">IIBB", small[16:26])
    assert (width, height, depth, colour) == (16, 16, 8, 2)
    crc = struct.unpack(">I", small[29:33])[0]
    assert crc == zlib.crc32(small[12:29]) & 0xFFFFFFFF


@pytest.mark.parametrize("name,decode", [
    ("accurate_q90", lambda: tf.io.decode_jpeg(read("photo_q90.jpg"))),
    ("accurate_q90_gray", lambda: tf.io.decode_jpeg(read("photo_q90.jpg"), channels=1)),
    ("accurate_q90_ratio2", lambda: tf.io.decode_jpeg(read("photo_q90.jpg"), ratio=2)),
    ("accurate_q90_crop", lambda: tf.io.decode_and_crop_jpeg(read("photo_q90.jpg"),
                                                             [3, 5, 10, 12])),
    ("accurate_q50_444", lambda: tf.io.decode_jpeg(read("photo_q50_444.jpg"))),
    ("accurate_adjust_q60", lambda: tf.image.adjust_jpeg_quality(PIXELS, 60)),
    ("photo_png_gray", lambda: tf.io.decode_png(read("photo.png"), channels=1)),
    ("photo_png_rgba", lambda: tf.io.decode_png(read("photo.png"), channels=4)),
    ("gray16_as_uint8", lambda: tf.io.decode_png(read("gray16.png"))),
    ("gray16_as_uint16", lambda: tf.io.decode_png(read("gray16.png"), dtype=tf.uint16)),
    ("two_frames_gif", lambda: tf.io.decode_gif(read("two_frames.gif"))),
    ("photo_bmp", lambda: tf.io.decode_bmp(read("photo.bmp"))),
    ("webp_lossy", lambda: tf.io.decode_webp(read("photo_lossy.webp"))),
    ("webp_rgba", lambda: tf.io.decode_webp(read("photo_rgba_lossless.webp"))),
    ("webp_image_still", lambda: tf.io.decode_image(read("photo_lossy.webp"),
                                                    expand_animations=False)),
])
def test_decodes_equal_real_tf(name, decode):
    got = decode()
    assert got.dtype == tf.as_dtype(TF_DECODED[name].dtype)
    np.testing.assert_array_equal(got.numpy(), TF_DECODED[name])


def test_jpeg_default_idct_within_three_levels_of_tf_default():
    got = tf.io.decode_jpeg(read("photo_q90.jpg")).numpy().astype(int)
    diff = np.abs(got - TF_DECODED["photo_q90"].astype(int))
    assert 0 < diff.max() <= 3  # TF's INTEGER_FAST vs the accurate IDCT: close, not equal


def test_encode_jpeg_writes_tfs_bytes():
    assert tf.io.encode_jpeg(PIXELS, quality=90).numpy() == read("photo_q90.jpg")
    assert tf.io.encode_jpeg(PIXELS, quality=50, chroma_downsampling=False).numpy() == \
        read("photo_q50_444.jpg")


def test_decode_image_sniffs_the_format_and_converts():
    for name in ("photo_q90.jpg", "photo.png", "photo.bmp"):
        image = tf.io.decode_image(read(name))
        assert image.shape == (24, 32, 3) and image.dtype == tf.uint8
    gif = read("two_frames.gif")
    assert tf.io.decode_image(gif).shape == (2, 24, 32, 3)
    first = tf.io.decode_image(gif, expand_animations=False)
    np.testing.assert_array_equal(first.numpy(), TF_DECODED["two_frames_gif"][0])
    for name, dtype, source in [("image_png_float32", tf.float32, "photo.png"),
                                ("image_png_int32", tf.int32, "photo.png"),
                                ("image_gray16_float32", tf.float32, "gray16.png"),
                                ("gray16_as_uint16", tf.uint16, "gray16.png")]:
        got = tf.io.decode_image(read(source), dtype=dtype)
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.numpy(), TF_DECODED[name])  # bit for bit
    np.testing.assert_array_equal(tf.io.decode_image(gif, expand_animations=False).numpy(),
                                  TF_DECODED["image_gif_first"])


def test_grey_from_a_jpeg_is_libjpegs_luma_whichever_decoder_reads_it():
    for decode in (tf.io.decode_png, tf.io.decode_image, tf.io.decode_jpeg):
        np.testing.assert_array_equal(decode(read("photo_q90.jpg"), channels=1).numpy(),
                                      TF_DECODED["accurate_q90_gray"])


def test_each_decoder_reads_the_formats_tf_lets_it():
    assert tf.io.decode_jpeg(read("photo.png")).shape == (24, 32, 3)
    np.testing.assert_array_equal(tf.io.decode_png(read("photo.bmp")).numpy(), PIXELS)
    assert tf.io.decode_gif(read("photo.png")).shape == (1, 24, 32, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Got 2 frames, but animated gifs"):
        tf.io.decode_png(read("two_frames.gif"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="PNG format using DecodeBmp"):
        tf.io.decode_bmp(read("photo.png"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="JPEG does not support 4 channels"):
        tf.io.decode_jpeg(read("photo_q90.jpg"), channels=4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="channels must be 0 or 3 for GIF"):
        tf.io.decode_image(read("two_frames.gif"), channels=1)


def test_encode_png_of_a_batch_gives_a_string_per_image():
    batch = np.stack([PIXELS, 255 - PIXELS])
    pngs = tf.io.encode_png(batch)
    assert pngs.shape == (2,) and pngs.dtype == tf.string
    np.testing.assert_array_equal(tf.io.decode_png(pngs[1]).numpy(), 255 - PIXELS)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"at least rank 3\[2,2\]"):
        tf.io.encode_png(np.zeros((2, 2), np.uint8))


def test_jpeg_shape_and_signature():
    jpg = read("photo_q90.jpg")
    np.testing.assert_array_equal(tf.io.extract_jpeg_shape(jpg).numpy(), [24, 32, 3])
    assert tf.io.extract_jpeg_shape(jpg, tf.int64).dtype == tf.int64
    flags = tf.io.is_jpeg(tf.constant([jpg, read("photo.png")]))
    np.testing.assert_array_equal(flags.numpy(), [True, False])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid JPEG data, size"):
        tf.io.extract_jpeg_shape(read("photo.png"))


def test_io_and_image_names_are_the_same_functions():
    for name in ("decode_png", "encode_png", "decode_jpeg", "encode_jpeg", "decode_bmp",
                 "decode_gif", "decode_webp", "decode_image", "decode_and_crop_jpeg",
                 "extract_jpeg_shape", "is_jpeg"):
        assert getattr(tf.io, name) is getattr(tf.image, name)


@pytest.mark.parametrize("call,message", [
    (lambda: tf.io.decode_png(b"garbage"), "Unknown image file format"),
    (lambda: tf.io.decode_jpeg(b"garbage"), "Unknown image file format"),
    (lambda: tf.io.decode_png(read("photo.png"), channels=5), "`channels` must be 0, 1, 3 or 4"),
    (lambda: tf.io.decode_image(read("photo.png"), channels=2), "`channels` must be"),
    (lambda: tf.io.decode_bmp(read("photo.bmp"), channels=1), "0, 3 or 4 for BMP"),
    (lambda: tf.io.encode_png(np.zeros((4, 5, 5), np.uint8)), "1, 2, 3, or 4 channels, got 5"),
    (lambda: tf.io.encode_jpeg(np.zeros((4, 5, 2), np.uint8)), "1 or 3 channels, got"),
    (lambda: tf.io.decode_and_crop_jpeg(read("photo_q90.jpg"), [1, 1, 30, 2]),
     "Invalid JPEG data or crop window"),
    (lambda: tf.io.decode_png(read("photo.png")[:60]), "Invalid"),
])
def test_bad_input_raises_tfs_error(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()


def test_encode_png_refuses_float_images():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.io.encode_png(np.zeros((2, 2, 1), np.float32))


def _png_header_claiming(width, height):
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = (struct.pack(">I", 13) + b"IHDR" + header
             + struct.pack(">I", zlib.crc32(b"IHDR" + header) & 0xFFFFFFFF))
    idat = b"\x00\x00\x00\x02IDAT\x78\x9c" + b"\x00" * 4
    return b"\x89PNG\r\n\x1a\n" + chunk + idat


def test_absurd_dimensions_are_refused_before_decoding():
    with pytest.raises(tf.errors.InvalidArgumentError, match="too large: .*60000"):
        tf.io.decode_png(_png_header_claiming(60000, 60000))


def test_codecs_inside_tf_function():
    @tf.function
    def round_trip(image):
        return tf.io.decode_png(tf.io.encode_png(image), channels=3)

    out = round_trip(tf.constant(PIXELS))
    assert out.shape == (24, 32, 3)
    np.testing.assert_array_equal(out.numpy(), PIXELS)

    @tf.function
    def jpeg(contents):
        return tf.image.convert_image_dtype(tf.io.decode_jpeg(contents), tf.float32)

    np.testing.assert_allclose(jpeg(tf.constant(read("photo_q90.jpg"))).numpy(),
                               TF_DECODED["accurate_q90"] / 255.0, rtol=1e-6)


def test_missing_pillow_gives_an_install_hint(monkeypatch):
    import builtins

    from minitf.image import codec_common

    real_import = builtins.__import__

    def no_pil(name, *args, **kwargs):
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError("No module named 'PIL'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pil)
    with pytest.raises(ImportError, match="pip install 'Pillow>=10'"):
        codec_common.pillow_image()


def test_gif_frames_from_pillow():
    from PIL import Image

    frames = [Image.new("RGB", (3, 2), c) for c in [(255, 0, 0), (0, 255, 0), (0, 0, 255)]]
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:])
    gif = tf.io.decode_gif(buffer.getvalue())
    assert gif.shape == (3, 2, 3, 3)
    np.testing.assert_array_equal(gif[:, 0, 0].numpy(), [[255, 0, 0], [0, 255, 0], [0, 0, 255]])


def test_truncated_jpeg_is_an_error_and_unsupported_options_say_so():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.io.decode_jpeg(read("photo_q90.jpg")[:400])
    for options in (dict(dct_method="INTEGER_FAST"), dict(fancy_upscaling=False),
                    dict(try_recover_truncated=True)):
        with pytest.raises(NotImplementedError, match="minitf"):
            tf.io.decode_jpeg(read("photo_q90.jpg"), **options)
    accurate = tf.io.decode_jpeg(read("photo_q90.jpg"), dct_method="INTEGER_ACCURATE")
    np.testing.assert_array_equal(accurate.numpy(), TF_DECODED["accurate_q90"])


def _filtered_png(pixels, filters):
    """A 16-bit RGB PNG whose rows use the given filter types (encode_png writes only type 0)."""
    height, width, channels = pixels.shape
    bpp = 2 * channels
    rows = pixels.astype(">u2").reshape(height, -1).view(np.uint8).astype(np.int32)
    out, prev = [], np.zeros(rows.shape[1], np.int32)
    for y, kind in zip(range(height), filters):
        line, enc = rows[y], rows[y].copy()
        left = np.concatenate([np.zeros(bpp, np.int32), line[:-bpp]])
        upleft = np.concatenate([np.zeros(bpp, np.int32), prev[:-bpp]])
        if kind == 1:
            enc = line - left
        elif kind == 2:
            enc = line - prev
        elif kind == 3:
            enc = line - (left + prev) // 2
        elif kind == 4:
            p = left + prev - upleft
            pa, pb, pc = np.abs(p - left), np.abs(p - prev), np.abs(p - upleft)
            enc = line - np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, prev, upleft))
        out.append(np.concatenate([[kind], enc % 256]))
        prev = line
    png = tf.io.encode_png(pixels).numpy()
    start = png.index(b"IDAT") - 4
    body = zlib.compress(np.array(out, np.uint8).tobytes())
    idat = (struct.pack(">I", len(body)) + b"IDAT" + body
            + struct.pack(">I", zlib.crc32(b"IDAT" + body) & 0xFFFFFFFF))
    return png[:start] + idat + png[png.index(b"IEND") - 4:]


def test_16bit_colour_png_undoes_every_filter():
    pixels = np.random.default_rng(8).integers(0, 65536, (5, 4, 3)).astype(np.uint16)
    png = _filtered_png(pixels, [0, 1, 2, 3, 4])
    np.testing.assert_array_equal(tf.io.decode_png(png, dtype=tf.uint16).numpy(), pixels)
    rgba = tf.io.decode_png(png, channels=4, dtype=tf.uint16).numpy()
    assert (rgba[..., 3] == 65535).all()
    with pytest.raises(tf.errors.InvalidArgumentError, match="16-bit colour into grey"):
        tf.io.decode_png(png, channels=1, dtype=tf.uint16)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid PNG data"):
        tf.io.decode_png(_filtered_png(pixels, [0] * 5).replace(b"IEND", b"IENX")[:-60] +
                         b"\x00" * 8, dtype=tf.uint16)


def test_decoding_in_a_tf_data_pipeline():
    files = [os.path.join(HERE, name) for name in ("photo_q90.jpg", "photo.png", "photo.bmp")]

    def load(path):
        image = tf.io.decode_image(tf.io.read_file(path), channels=3, expand_animations=False)
        return tf.image.convert_image_dtype(image, tf.float32)

    images = list(tf.data.Dataset.from_tensor_slices(files).map(load))
    assert [x.shape for x in images] == [(24, 32, 3)] * 3
    np.testing.assert_allclose(images[1].numpy(), TF_DECODED["image_png_float32"], rtol=1e-6)


def test_webp_frames_channels_and_animation():
    from PIL import Image

    assert tf.io.decode_image(read("photo_lossy.webp")).shape == (1, 24, 32, 3)  # as TF
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not match input"):
        tf.io.decode_webp(read("photo_lossy.webp"), channels=4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="PNG format using DecodeWebP"):
        tf.io.decode_webp(read("photo.png"))
    frames = [Image.fromarray(PIXELS), Image.fromarray(255 - PIXELS)]
    buffer = io.BytesIO()
    frames[0].save(buffer, "WEBP", save_all=True, append_images=frames[1:], lossless=True)
    anim = tf.io.decode_webp(buffer.getvalue())  # animations come as RGBA (TF's rule)
    assert anim.shape == (2, 24, 32, 4)
    np.testing.assert_array_equal(anim.numpy()[1, ..., :3], 255 - PIXELS)
    wide = tf.io.decode_image(read("photo_rgba_lossless.webp"), dtype=tf.uint16)
    np.testing.assert_array_equal(wide.numpy(), TF_DECODED["webp_rgba"].astype(np.uint16) * 257)
