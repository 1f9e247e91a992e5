"""Codecs against real TensorFlow 2.21, in one TF process: encode_jpeg writes TF's very bytes
for every option, and TF decodes the PNGs minitf writes back to the same pixels."""
import base64
import json

import numpy as np
import pytest

import minitf as tf
from tests.image.test_codecs import PIXELS
from tests.real_tf import run_tf_json

JPEG_OPTIONS = [dict(quality=75), dict(quality=95, progressive=True), dict(optimize_size=True),
                dict(x_density=72, y_density=96),
                dict(density_unit="cm", x_density=50, y_density=50), dict(format="rgb"),
                dict(quality=20, chroma_downsampling=False), dict(xmp_metadata="hello")]
RNG = np.random.default_rng(4)
PNG_CASES = [RNG.integers(0, 256, (3, 5, c)).astype(np.uint8) for c in (1, 2, 3, 4)] + \
            [RNG.integers(0, 65536, (3, 5, c)).astype(np.uint16) for c in (1, 2, 3, 4)] + \
            [np.add.outer(np.arange(20), np.arange(30))[..., None].repeat(3, -1).astype(np.uint16)
             * 1000]  # smooth: libpng's filters other than None pay off

TF_CODE = """
import base64, json, numpy as np, tensorflow as tf
data = json.loads(open({path!r}).read())
px = np.array(data["pixels"], np.uint8)
out = {{"jpeg": [base64.b64encode(tf.io.encode_jpeg(px, **o).numpy()).decode()
                 for o in data["options"]]}}
out["jpeg_grey"] = base64.b64encode(tf.io.encode_jpeg(px[..., :1]).numpy()).decode()
out["png"], out["tf_png"] = [], []
for case in data["png_cases"]:  # libpng picks a filter per row: every filter type appears
    x = np.array(case[0], case[1])
    out["tf_png"].append(base64.b64encode(tf.io.encode_png(x).numpy()).decode())
for blob, dtype in data["pngs"]:
    image = tf.io.decode_png(base64.b64decode(blob), dtype=getattr(tf, dtype))
    out["png"].append(image.numpy().tolist())
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    pngs = [(base64.b64encode(tf.io.encode_png(x).numpy()).decode(), x.dtype.name)
            for x in PNG_CASES]
    path = tmp_path_factory.mktemp("codecs") / "inputs.json"
    path.write_text(json.dumps({"pixels": PIXELS.tolist(), "options": JPEG_OPTIONS,
                                "pngs": pngs,
                                "png_cases": [(x.tolist(), x.dtype.name) for x in PNG_CASES]}))
    return run_tf_json(TF_CODE.format(path=str(path)))


@pytest.mark.parametrize("index", range(len(JPEG_OPTIONS)))
def test_encode_jpeg_bytes_equal_tfs(real, index):
    mine = tf.io.encode_jpeg(PIXELS, **JPEG_OPTIONS[index]).numpy()
    assert mine == base64.b64decode(real["jpeg"][index])


def test_grey_jpeg_bytes_equal_tfs(real):
    assert tf.io.encode_jpeg(PIXELS[..., :1]).numpy() == base64.b64decode(real["jpeg_grey"])


@pytest.mark.parametrize("index", range(len(PNG_CASES)))
def test_tf_decodes_minitf_pngs_exactly(real, index):
    np.testing.assert_array_equal(np.array(real["png"][index]), PNG_CASES[index])


@pytest.mark.parametrize("index", range(len(PNG_CASES)))
def test_minitf_decodes_tfs_pngs_exactly(real, index):
    png = base64.b64decode(real["tf_png"][index])
    x = PNG_CASES[index]
    np.testing.assert_array_equal(tf.io.decode_png(png, dtype=tf.as_dtype(x.dtype)).numpy(), x)
    if x.dtype == np.uint16:
        np.testing.assert_array_equal(tf.io.decode_png(png).numpy(), x >> 8)
