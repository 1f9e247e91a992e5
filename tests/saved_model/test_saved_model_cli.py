"""python -m minitf.tools.saved_model_cli show/run (no real TF needed; the text is
compared with real TF's in test_saved_model_real_tf.py)."""
import os
import subprocess
import sys

import pytest

import minitf as tf
from minitf.tools import saved_model_cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Scorer(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)

    @tf.function
    def f(self, x, times=2):
        return x * self.v * times

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([], tf.int32, name="k")])
    def g(self, a, k):
        return [a * self.v, tf.cast(k, tf.float32)]


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    m = Scorer()
    m.f(tf.constant(1.0))
    m.f(tf.constant([1.0, 2.0]), times=3)
    path = str(tmp_path_factory.mktemp("cli") / "m")
    tf.saved_model.save(m, path, signatures={
        "g": m.g, "f1": m.f.get_concrete_function(tf.TensorSpec([], tf.float32))})
    return path


def cli(*args):
    done = subprocess.run([sys.executable, "-m", "minitf.tools.saved_model_cli", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_show_all(path, capsys):
    saved_model_cli.main(["show", "--dir", path, "--all"])
    out = capsys.readouterr().out
    assert out.startswith("\nMetaGraphDef with tag-set: 'serve' contains the following "
                          "SignatureDefs:\n\nsignature_def['f1']:\n")
    assert """signature_def['g']:
  The given SavedModel SignatureDef contains the following input(s):
    inputs['a'] tensor_info:
        dtype: DT_FLOAT
        shape: (-1, 3)
        name: g_a:0
    inputs['k'] tensor_info:
        dtype: DT_INT32
        shape: ()
        name: g_k:0
  The given SavedModel SignatureDef contains the following output(s):
    outputs['output_0'] tensor_info:
        dtype: DT_FLOAT
        shape: (-1, 3)
        name: StatefulPartitionedCall_1:0
    outputs['output_1'] tensor_info:
        dtype: DT_FLOAT
        shape: ()
        name: StatefulPartitionedCall_1:1
  Method name is: tensorflow/serving/predict
The MetaGraph with tag set ['serve'] contains the following ops: {'Cast', """ in out
    assert out.endswith("""
Concrete Functions:
  Function Name: 'f'
    Option #1
      Callable with:
        Argument #1
          x: TensorSpec(shape=(), dtype=tf.float32, name='x')
        Argument #2
          DType: int
          Value: 2
    Option #2
      Callable with:
        Argument #1
          x: TensorSpec(shape=(2,), dtype=tf.float32, name='x')
        Argument #2
          DType: int
          Value: 3

  Function Name: 'g'
    Option #1
      Callable with:
        Argument #1
          a: TensorSpec(shape=(None, 3), dtype=tf.float32, name='a')
        Argument #2
          k: TensorSpec(shape=(), dtype=tf.int32, name='k')
""")


def test_show_levels(path, capsys):
    saved_model_cli.main(["show", "--dir", path])
    saved_model_cli.main(["show", "--dir", path, "--tag_set", "serve"])
    assert capsys.readouterr().out == (
        "The given SavedModel contains the following tag-sets:\n'serve'\n"
        "The given SavedModel MetaGraphDef contains SignatureDefs with the following keys:\n"
        'SignatureDef key: "f1"\nSignatureDef key: "g"\n')
    with pytest.raises(ValueError, match='Could not find signature "nope"'):
        saved_model_cli.main(["show", "--dir", path, "--tag_set", "serve",
                              "--signature_def", "nope"])
    with pytest.raises(RuntimeError, match="tag-set train could not be found"):
        saved_model_cli.main(["show", "--dir", path, "--tag_set", "train"])


def test_run_in_a_subprocess(path):
    code, out, err = cli("run", "--dir", path, "--tag_set", "serve", "--signature_def", "g",
                         "--input_exprs", "a=[[1.0,2.0,3.0]];k=4")
    assert code == 0, err
    assert out == "Result for output key output_0:\n[[2. 4. 6.]]\nResult for output key " \
                  "output_1:\n4.0\n"
    code, out, err = cli("run", "--dir", path, "--signature_def", "g", "--input_exprs", "b=1")
    assert (code, out) == (1, "") and err.startswith("ValueError: \"b\" is not a valid input")


def test_run_refuses_code_and_bad_keys(path, tmp_path):
    with pytest.raises(ValueError, match="not a Python literal"):
        saved_model_cli.main(["run", "--dir", path, "--signature_def", "g",
                              "--input_exprs", "a=__import__('os').getcwd();k=1"])
    with pytest.raises(ValueError, match='"b" is not a valid input key'):
        saved_model_cli.main(["run", "--dir", path, "--signature_def", "g",
                              "--input_exprs", "b=1"])
    with pytest.raises(ValueError, match=r"Missing input\(s\) \['k'\]"):
        saved_model_cli.main(["run", "--dir", path, "--signature_def", "g",
                              "--input_exprs", "a=[[1.0,2.0,3.0]]"])
    with pytest.raises(OSError, match="SavedModel file does not exist at:"):
        saved_model_cli.main(["show", "--dir", str(tmp_path / "missing"), "--all"])


def test_input_exprs_parsing():
    assert saved_model_cli.parse_input_exprs("x=[[1.0,2.0]]; k = 4") == {"x": [[1.0, 2.0]],
                                                                        "k": 4}
    with pytest.raises(RuntimeError, match="format is incorrect"):
        saved_model_cli.parse_input_exprs("[1.0]")


def test_output_names_count_stateful_and_stateless_calls_apart_as_tf_does(tmp_path, capsys):
    # TF 2.21's saved_model_cli for these signatures (checked in a scratch venv): by sorted
    # key, StatefulPartitionedCall[_N] where a variable is read, PartitionedCall[_N] elsewhere.
    class Mixed(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def scaled(self, x):
            return x * self.v

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def total(self, x):
            return tf.reduce_sum(x)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def shifted(self, x):
            return x - 1.0

    m = Mixed()
    tf.saved_model.save(m, str(tmp_path), signatures={
        "aa": m.scaled, "scaled": m.scaled, "shifted": m.shifted, "total": m.total})
    saved_model_cli.main(["show", "--dir", str(tmp_path), "--all"])
    names = [line.split("name: ")[1] for line in capsys.readouterr().out.splitlines()
             if "name: " in line and not line.strip().startswith("name: aa_")
             and "_x:0" not in line]
    assert names == ["StatefulPartitionedCall:0", "StatefulPartitionedCall_1:0",
                     "PartitionedCall:0", "PartitionedCall_1:0"]
