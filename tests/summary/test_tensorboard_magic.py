"""`%load_ext tensorboard` / `%tensorboard --logdir ...` in a Jupyter kernel show TensorBoard on
minitf's logs: the magic starts a real TensorBoard server, which lists the runs and tags minitf
wrote; with TENSORBOARD_PROXY_URL (set by binder/start) the iframe goes through the proxy."""
import json

import nbformat
from nbclient import NotebookClient

import minitf as tf

# Runs in the kernel while TensorBoard lives (it ends with the kernel): ask the server what
# it found, then stop it.
ASK_TENSORBOARD = r'''
import json, os, signal, time, urllib.request
from tensorboard import notebook
(info,) = [i for i in notebook.manager.get_all() if i.logdir == LOGDIR]
def get(path):
    with urllib.request.urlopen(f"http://localhost:{info.port}{path}", timeout=30) as reply:
        return json.loads(reply.read())
deadline = time.time() + 60
while True:  # TensorBoard reads the logs in the background
    tags = get("/data/plugin/scalars/tags")
    if tags.get("train") or time.time() > deadline:
        break
    time.sleep(0.5)
print(json.dumps({"port": info.port, "runs": get("/data/runs"), "tags": tags}))
os.kill(info.pid, signal.SIGTERM)
'''


def test_magic_serves_minitf_logs_through_the_proxy_url(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path / "train")).as_default():
        for step in range(3):
            tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
    cells = ["import os\nos.environ['TENSORBOARD_PROXY_URL'] = '/user/learner/proxy/%PORT%/'",
             "%load_ext tensorboard",
             f"%tensorboard --logdir {tmp_path} --port 0",
             f"LOGDIR = {str(tmp_path)!r}\n" + ASK_TENSORBOARD]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in cells])
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    frame = "".join(out.get("data", {}).get("text/html", "") for out in notebook.cells[2].outputs)
    found = json.loads(notebook.cells[3].outputs[0]["text"].strip().splitlines()[-1])
    assert f'"/user/learner/proxy/{found["port"]}/"' in frame  # the iframe's address
    assert found["runs"] == ["train"]
    assert "loss" in found["tags"]["train"]
