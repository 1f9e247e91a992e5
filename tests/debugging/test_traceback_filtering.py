"""tf.debugging's traceback filtering: errors show the user's frames, not minitf's.

The shown tracebacks are checked where they are shown: a script's uncaught error
(sys.excepthook, in a subprocess) and an IPython cell (the hook IPython gives).
The three functions are compared with real TF's in test_check_numerics.py.
"""
import os
import subprocess
import sys
import textwrap
import threading


import pytest

import minitf as tf
from minitf.framework import traceback_utils

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# Each part fails, and its error is shown as an uncaught one would be (sys.excepthook).
SCRIPT = """
import sys
import minitf as tf

def show(part, fn):
    print("== " + part, file=sys.stderr)
    try:
        fn()
    except Exception:
        sys.excepthook(*sys.exc_info())

def add_mixed():
    return tf.constant([1.0, 2.0]) + tf.constant([1, 2])

class Broken(tf.keras.layers.Layer):
    def call(self, x):
        return tf.reshape(x, [7])

def fit_broken():
    model = tf.keras.Sequential([tf.keras.Input((2,)), Broken()])
    model.compile(loss="mse")
    model.fit(tf.ones((4, 2)), tf.ones((4, 2)), verbose=0)

@tf.function
def reshape_wrong(x):
    return tf.reshape(x, [3])

show("eager", add_mixed)
show("function", lambda: reshape_wrong(tf.constant([1.0, 2.0])))
show("fit", fit_broken)
tf.keras.config.disable_traceback_filtering()
show("fit showing keras", fit_broken)
tf.keras.config.enable_traceback_filtering()
tf.debugging.disable_traceback_filtering()
show("unfiltered", add_mixed)
"""


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    """part name -> the traceback text sys.excepthook printed for it."""
    script = tmp_path_factory.mktemp("tb") / "user_script.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT), timeout=120)
    assert done.returncode == 0, done.stderr
    parts = done.stderr.split("== ")[1:]
    return {part.split("\n", 1)[0]: part for part in parts}


def file_lines(text):
    return [line for line in text.splitlines() if line.strip().startswith("File ")]


def test_script_traceback_shows_only_user_frames(shown):
    files = file_lines(shown["eager"])
    assert len(files) == 2, shown["eager"]  # show's line and add_mixed's line
    assert all("user_script.py" in line for line in files)
    assert "in add_mixed" in files[1]
    assert "InvalidArgumentError: cannot compute AddV2" in shown["eager"]


def test_function_traceback_shows_the_traced_line(shown):
    text = shown["function"]
    files = file_lines(text)
    assert all("user_script.py" in line for line in files), text
    assert any("in reshape_wrong" in line or "in tf__reshape_wrong" in line for line in files)
    assert "in user code:" in text  # AutoGraph's header, as in TF


def test_keras_switch_governs_keras_frames_only(shown):
    text = shown["fit showing keras"]
    assert "minitf/keras/" in text, text  # Keras 3's own switch: its frames return
    assert "minitf/framework/" not in text and "minitf/ops/" not in text  # TF's stay hidden


def test_disabled_filtering_shows_minitf_frames(shown):
    text = shown["unfiltered"]
    assert "minitf/ops/math_ops.py" in text and "minitf/framework/op.py" in text, text
    assert "in apply" in text


def test_fit_errors_keep_user_frames(shown):
    files = file_lines(shown["fit"])
    assert files and all("user_script.py" in line for line in files), shown["fit"]
    assert any("in call" in line for line in files)  # the layer's own frame stays
    assert any("in fit_broken" in line for line in files)


def test_ipython_cell_traceback_is_filtered(tmp_path):
    code = textwrap.dedent("""
        from IPython.testing.globalipapp import start_ipython
        shell = start_ipython()
        shell.run_cell("import minitf as tf")
        shell.run_cell("tf.constant([1.0, 2.0]) + tf.constant([1, 2])")
        shell.run_cell("tf.debugging.disable_traceback_filtering()")
        shell.run_cell("tf.constant([1.0]) + tf.constant([1])")
        """)
    env = dict(os.environ, PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120)
    out = done.stdout + done.stderr
    first, second = out.split("InvalidArgumentError: cannot compute", 1)
    assert "Cell In[" in first and "----> 1 tf.constant" in first
    assert "op.py" not in first and "math_ops.py" not in first, first
    assert "minitf/framework/op.py" in second and "in apply" in second, second


def raise_from_minitf():
    return tf.reshape(tf.constant([1.0, 2.0]), [3])


def test_process_traceback_frames_keeps_user_frames_or_the_last():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        raise_from_minitf()
    full = info.value.__traceback__
    names = []
    tb = traceback_utils.process_traceback_frames(full)
    while tb is not None:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    assert names[-1] == "raise_from_minitf" and "apply" not in names
    # A traceback of minitf frames only keeps its innermost frame, as TF does.
    inner = full
    while traceback_utils.include_frame(inner.tb_frame.f_code.co_filename):
        inner = inner.tb_next
    only = traceback_utils.process_traceback_frames(inner)
    last = inner
    while last.tb_next is not None:
        last = last.tb_next
    assert only.tb_next is None and only.tb_frame is last.tb_frame


def test_filter_exception_follows_the_chain_and_the_setting():
    try:
        try:
            raise_from_minitf()
        except tf.errors.InvalidArgumentError as inner:
            raise ValueError("outer") from inner
    except ValueError as outer:
        error = outer
    cause_frames = _frame_files(error.__cause__.__traceback__)
    assert any("minitf" in f for f in cause_frames)
    tf.debugging.disable_traceback_filtering()
    try:
        assert traceback_utils.filter_exception(error) is error
        assert _frame_files(error.__cause__.__traceback__) == cause_frames  # untouched
    finally:
        tf.debugging.enable_traceback_filtering()
    traceback_utils.filter_exception(error)
    assert not any(f.startswith(traceback_utils._EXCLUDED_PATHS[0])
                   for f in _frame_files(error.__cause__.__traceback__))


def _frame_files(tb):
    files = []
    while tb is not None:
        files.append(os.path.abspath(tb.tb_frame.f_code.co_filename))
        tb = tb.tb_next
    return files


def test_setting_is_per_thread_and_hook_installed_once():
    seen = []
    tf.debugging.disable_traceback_filtering()
    try:
        worker = threading.Thread(
            target=lambda: seen.append(tf.debugging.is_traceback_filtering_enabled()))
        worker.start()
        worker.join()
        assert seen == [True] and not tf.debugging.is_traceback_filtering_enabled()
    finally:
        tf.debugging.enable_traceback_filtering()
    hook = sys.excepthook
    traceback_utils.install()
    assert sys.excepthook is hook and hasattr(hook, "minitf_previous")
