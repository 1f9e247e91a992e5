"""Sizes are int64 end to end (issue 18): nothing wraps at 2**31 or 2**32.

A size past int32 used to wrap through an int32 conversion, so
`tf.random.uniform([3, 2**32 + 2])` made a (3, 2) tensor. Now shapes keep every
size; a shape with no elements is made, one with too many elements for int64
raises TF's InvalidArgumentError, and one too big for memory raises TF's
ResourceExhaustedError ("OOM when allocating tensor with shape[...]"). Those
run in a child process whose address space is capped, so nothing is ever
allocated (and the cap makes the failure certain on any machine).
"""
import json
import os
import subprocess
import sys

import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

BIG = 2**32 + 2

EMPTY_BUT_WIDE = [  # shapes with a size past 2**32 but no elements: made, never wrapped
    "tf.random.uniform([0, 2**32 + 2])",
    "tf.random.normal([0, 2**32 + 2])",
    "tf.random.truncated_normal([0, 2**32 + 2])",
    "tf.random.stateless_uniform([0, 2**32 + 2], seed=[1, 2])",
    "tf.random.uniform([0, 2**32 + 2], maxval=5, dtype=tf.int64)",
    "tf.zeros([0, 2**32 + 2])",
    "tf.ones(tf.constant([0, 2**32 + 2]))",
    "tf.fill([0, 2**32 + 2], 1.0)",
    "tf.reshape(tf.zeros([0]), [0, 2**32 + 2])",
    "tf.broadcast_to(tf.zeros([1]), [0, 2**32 + 2])",
]


@pytest.mark.parametrize("code", EMPTY_BUT_WIDE)
def test_wide_empty_shapes_keep_their_sizes(code):
    assert eval(code).shape.as_list() == [0, BIG]


@pytest.mark.parametrize("code", EMPTY_BUT_WIDE[:4])
def test_wide_empty_shapes_in_a_function(code):
    f = tf.function(eval(f"lambda: {code}"), autograph=False)
    assert f().shape.as_list() == [0, BIG]


def test_the_shape_argument_becomes_int64_past_int32():
    from minitf.ops.random_ops import shape_argument

    assert shape_argument("RandomUniform", [3, BIG]) == (3, BIG)
    assert shape_argument("RandomUniform", [2**31]) == (2**31,)
    assert shape_argument("RandomUniform", []) == ()


TOO_MANY = [
    ("tf.random.uniform([2**62, 8])", "RandomUniform"),
    ("tf.random.normal([2**62, 8])", "RandomStandardNormal"),
    ("tf.zeros([2**62, 8])", "Fill"),
    ("tf.ones([2**62, 2**62])", "Fill"),
]


@pytest.mark.parametrize("code, op", TOO_MANY)
def test_more_elements_than_int64_is_tfs_error(code, op):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Shape \[4611686018427387904,\d+\] would have more than 2\*\*63 - 1 "
                             rf"elements \[Op:{op}\]"):
        eval(code)


def test_shape_as_int32_refuses_a_size_past_int32():
    x = tf.zeros([0, BIG])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Shape output type is 32-bit  but dim 1 is 4294967298 \[Op:Shape\]"):
        tf.shape(x)
    assert tf.shape(x, out_type=tf.int64).numpy().tolist() == [0, BIG]


def test_shape_op_in_a_graph_refuses_a_size_past_int32():
    f = tf.function(lambda x: tf.shape(x), input_signature=[tf.TensorSpec([None, None])],
                    autograph=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shape output type is 32-bit"):
        f(tf.zeros([0, BIG]))


OOM = [  # (code, op TF names, the shape it cannot allocate)
    ("tf.random.uniform([3, 2**32 + 2])", "RandomUniform", "3,4294967298"),
    ("tf.random.normal([3, 2**32 + 2])", "RandomStandardNormal", "3,4294967298"),
    ("tf.zeros([3, 2**32 + 2])", "Fill", "3,4294967298"),
    ("tf.keras.layers.Dense(units=2**32 + 2)(tf.zeros([3, 2]))", "StatelessRandomUniformV2",
     "2,4294967298"),
    ("tf.function(lambda: tf.random.uniform([3, 2**32 + 2]), autograph=False)()",
     "RandomUniform", "3,4294967298"),
]

CAPPED = """
import json, resource, sys
{imports}
def vm_bytes():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
limit = vm_bytes() + 2 * 2**30  # 2 GiB more than now: a 48 GiB tensor cannot be had
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
out = []
for code in {codes!r}:
    try:
        out.append(["ok", list(eval(code).shape)])
    except Exception as e:
        out.append([type(e).__name__, str(e)])
print(json.dumps(out))
"""


def _capped_minitf(codes):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root, OPENBLAS_NUM_THREADS="1")
    script = CAPPED.format(imports="import minitf as tf", codes=codes)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc and RLIMIT_AS")
def test_tensors_too_big_for_memory_raise_tfs_oom_error():
    results = _capped_minitf([code for code, _, _ in OOM])
    for (code, op, dims), (cls, text) in zip(OOM, results):
        assert cls == "ResourceExhaustedError", (code, cls, text)
        assert f"OOM when allocating tensor with shape[{dims}] and type float on " \
               "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu" in text, text
        assert f"[Op:{op}]" in text, text


def test_same_errors_in_real_tf():
    require_tf()
    codes = [c for c, _, _ in OOM[:4]] + [c for c, _ in TOO_MANY[:2]] + EMPTY_BUT_WIDE[:3] + [
        "tf.shape(tf.zeros([0, 2**32 + 2]))"]
    script = CAPPED.format(imports="import tensorflow as tf", codes=codes)
    results = run_tf_json(script)
    mine = _capped_minitf(codes)
    for code, (tf_cls, tf_text), (cls, text) in zip(codes, results, mine):
        assert cls == tf_cls, (code, tf_text, text)
        if cls == "ok":
            assert text == tf_text, code
        else:  # TF's words, less its "{{function_node ...}}" prefix and trailing "name: "
            words = tf_text.split("}} ", 1)[-1].split(" [Op:")[0]
            assert words in text, (code, tf_text, text)
