"""How fast minitf's image codecs and colour ops are next to real TF.

    python benchmarks/image_codecs.py [rounds]

minitf decodes JPEG and 8-bit PNG through Pillow (the same C libraries as TF), writes PNG
with zlib, reads 16-bit colour PNG row by row in Python (minitf/image/png_reader.py), and
adjusts hue/saturation with NumPy over whole arrays. Each round runs one fresh process
per contender - minitf, then real TF if MINITF_TF_PYTHON is set - that times every case
(best of 5 calls after a warm-up); the report gives the median over rounds and minitf's
time as a multiple of TF's.
"""
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = ["decode_jpeg 512x512", "encode_jpeg 512x512", "decode_png 512x512",
         "encode_png 512x512", "decode_png 16-bit RGB 128x128", "adjust_hue 8x224x224",
         "adjust_saturation 8x224x224", "ssim 8x224x224"]

PROBE = """
import json, time, numpy as np
import {module} as tf
rng = np.random.default_rng(0)
y, x = np.mgrid[0:512, 0:512]
photo = np.clip(np.stack([x / 2, y / 2, (x + y) / 4], -1) + rng.normal(0, 8, (512, 512, 3)),
                0, 255).astype(np.uint8)
wide = (photo[:128, :128].astype(np.uint16) * 257)
jpg, png = tf.io.encode_jpeg(photo).numpy(), tf.io.encode_png(photo).numpy()
png16 = tf.io.encode_png(wide).numpy()
batch = tf.constant(rng.uniform(size=(8, 224, 224, 3)).astype(np.float32))
other = tf.constant(rng.uniform(size=(8, 224, 224, 3)).astype(np.float32))
calls = [lambda: tf.io.decode_jpeg(jpg), lambda: tf.io.encode_jpeg(photo),
         lambda: tf.io.decode_png(png), lambda: tf.io.encode_png(photo),
         lambda: tf.io.decode_png(png16, dtype=tf.uint16),
         lambda: tf.image.adjust_hue(batch, 0.2), lambda: tf.image.adjust_saturation(batch, 1.5),
         lambda: tf.image.ssim(batch, other, 1.0)]
out = []
for call in calls:
    call()
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        call().numpy()
        best = min(best, time.perf_counter() - start)
    out.append(best)
print(json.dumps(out))
"""


def run(python, module):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=ROOT)
    if module == "tensorflow":
        env.pop("PYTHONPATH")
    done = subprocess.run([python, "-c", PROBE.format(module=module)], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(rounds=3):
    contenders = {"minitf": (sys.executable, "minitf")}
    if os.environ.get("MINITF_TF_PYTHON"):
        contenders["tensorflow"] = (os.environ["MINITF_TF_PYTHON"], "tensorflow")
    times = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, (python, module) in contenders.items():
            times[name].append(run(python, module))
    medians = {name: [statistics.median(r[i] for r in runs) for i in range(len(CASES))]
               for name, runs in times.items()}
    print(f"{'case':32s} {'minitf ms':>10s} {'TF ms':>8s} {'ratio':>7s}")
    for i, case in enumerate(CASES):
        mine = medians["minitf"][i] * 1000
        theirs = medians["tensorflow"][i] * 1000 if "tensorflow" in medians else float("nan")
        print(f"{case:32s} {mine:10.2f} {theirs:8.2f} {mine / theirs:7.1f}x")
    return medians


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
