"""`import minitf` needs neither protobuf nor tensorboard; using TFRecord / Example code
without them says what to install."""
import subprocess
import sys

BLOCKED = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("google", "tensorboard", "google_crc32c"):
            raise ImportError("blocked " + name)
sys.meta_path.insert(0, Block())
import minitf as tf
assert not [m for m in sys.modules if m.startswith(("google", "tensorboard"))]
for use in (lambda: tf.train.Example, lambda: tf.io.serialize_tensor(tf.constant(1)),
            lambda: tf.io.TFRecordWriter(sys.argv[1]).write(b"x")):
    try:
        use()
        print("no error")
    except ImportError as e:
        print(e)
"""


def test_install_hints_without_protobuf_or_tensorboard(tmp_path):
    done = subprocess.run([sys.executable, "-c", BLOCKED, str(tmp_path / "x.tfrecord")],
                          capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert "pip install 'protobuf>=4.22'" in lines[0]
    assert "serialize_tensor" in lines[1] and "pip install 'tensorboard>=2.16'" in lines[1]
    assert "pip install 'google-crc32c>=1.5'" in lines[2]
