"""In a real Jupyter kernel: the race finishes its runs while the kernel is idle, and the
training monitor replaces its output with the final curves when fit ends."""
import os

import pytest

jupyter_client = pytest.importorskip("jupyter_client")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def kernel():
    with open(os.devnull, "w") as quiet:
        manager, client = jupyter_client.manager.start_new_kernel(
            kernel_name="python3", cwd=ROOT, stderr=quiet)
        yield client
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def run(client, code, timeout=120):
    """Execute `code`; returns (stdout text, [iopub messages of this cell])."""
    msg_id = client.execute(code)
    out, messages = [], []
    while True:
        message = client.get_iopub_msg(timeout=timeout)
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        messages.append(message)
        kind, content = message["msg_type"], message["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            raise AssertionError("\n".join(content["traceback"]))
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(out), messages


def test_race_slices_run_on_the_kernels_loop(kernel):
    out, _ = run(kernel, "from widgets.optimizer_race import OptimizerRace\n"
                         "view = OptimizerRace('rosenbrock', ['SGD', 'Adam'], steps=60)\n"
                         "view.FIRST_SLICE = view.SLICE = 0.0\n"
                         "view.x0.value = -1.0   # as if the learner moved the slider\n"
                         "print(bool(view.race.pending))")
    assert out.split() == ["True"]  # the callback returned with work left for later
    out, _ = run(kernel, "import asyncio\n"
                         "for _ in range(400):\n"
                         "    if not view.race.pending:\n"
                         "        break\n"
                         "    await asyncio.sleep(0.01)  # the kernel's loop runs the slices\n"
                         "print(view.race.pending, view.race.trajectories['Adam'].steps,\n"
                         "      'computing' in view.summary.value, view.error.value == '')")
    assert out.split() == ["[]", "60", "False", "True"]


def test_training_monitor_output_ends_with_the_final_picture(kernel):
    _, messages = run(kernel, "import numpy as np, minitf as tf\n"
                              "from widgets.training import TrainingMonitor\n"
                              "model = tf.keras.Sequential([tf.keras.Input((2,)),\n"
                              "                             tf.keras.layers.Dense(1)])\n"
                              "model.compile(optimizer='sgd', loss='mse')\n"
                              "x = np.ones((8, 2), 'float32')\n"
                              "_ = model.fit(x, x[:, :1], epochs=2, verbose=0,\n"
                              "              callbacks=[TrainingMonitor()])")
    kinds = [m["msg_type"] for m in messages]
    assert "display_data" in kinds and "update_display_data" in kinds
    final = [m for m in messages if m["msg_type"] == "update_display_data"][-1]["content"]
    assert "image/png" in final["data"]
    assert "application/vnd.jupyter.widget-view+json" in final["data"]
    assert final["data"]["text/plain"].startswith("epoch 2: loss=")
