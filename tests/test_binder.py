"""The Binder launch, checked without building an image.

`repo2docker --no-build --debug` renders the Dockerfile mybinder.org would
build from this repository; the test reads it for the Python version,
graphviz and the editable install of the checkout. A pip dry run resolves the
requirements from the package index as a fresh image would.
"""
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"


def repo2docker_executable():
    found = shutil.which("repo2docker", path=str(Path(sys.executable).parent)) \
        or shutil.which("repo2docker")
    assert found, "repo2docker is part of the test extras: pip install -e '.[test]'"
    return found


@pytest.fixture(scope="module")
def rendered():
    result = subprocess.run([repo2docker_executable(), "--no-build", "--debug", str(ROOT)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout, result.stderr


def test_python_version_is_pinned(rendered):
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    _, log = rendered
    assert "python=3.11" in log
    dockerfile, _ = rendered
    # repo2docker escapes build-file names ("-2e" is "."); decode them to read the lock file.
    decoded = re.sub(r"-([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), dockerfile)
    assert "environment.py-3.11-linux-64.lock" in decoded


def test_graphviz_is_installed_with_apt(rendered):
    dockerfile, _ = rendered
    assert re.search(r"apt-get install .*\bgraphviz\b", dockerfile)


def test_the_checkout_is_installed_with_the_lab_extra(rendered):
    dockerfile, _ = rendered
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in dockerfile
    lines = [ln.strip() for ln in (BINDER / "requirements.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert lines == ["-e .[lab]"]
    # The install runs after the repository is copied in, so "." is the checkout.
    assert dockerfile.index("COPY --chown") < dockerfile.index('-r "binder/requirements.txt"')


def test_requirements_resolve_for_a_fresh_image(tmp_path):
    report = tmp_path / "report.json"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
         "--report", str(report), "-r", "binder/requirements.txt"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    names = {item["metadata"]["name"].lower().replace("_", "-")  # (as PEP 503 normalizes)
             for item in json.loads(report.read_text())["install"]}
    assert {"minitf", "numpy", "jupyterlab", "ipywidgets", "matplotlib", "graphviz",
            "tensorboard", "jupyter-server-proxy"} <= names


def test_start_script_points_tensorboard_at_the_proxy(rendered):
    dockerfile, _ = rendered
    assert 'R2D_ENTRYPOINT="${REPO_DIR}/binder/start"' in dockerfile
    env = {"JUPYTERHUB_SERVICE_PREFIX": "/user/learner/", "PATH": "/usr/bin:/bin"}
    result = subprocess.run([str(BINDER / "start"), "sh", "-c", "echo $TENSORBOARD_PROXY_URL"],
                            env=env, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "/user/learner/proxy/%PORT%/", result.stderr


def test_readme_badge_opens_lesson_01_in_jupyterlab():
    readme = (ROOT / "README.md").read_text()
    badge = re.search(r"\[!\[Binder\]\(https://mybinder\.org/badge_logo\.svg\)\]\((\S+)\)", readme)
    assert badge, "README needs a Binder badge"
    url = badge.group(1)
    match = re.fullmatch(r"https://mybinder\.org/v2/gh/[\w.-]+/[\w.-]+/HEAD\?urlpath=lab/tree/"
                         r"(lessons/01_\w+\.ipynb)", url)
    assert match, url
    assert (ROOT / match.group(1)).is_file(), f"the badge opens {match.group(1)}, which is missing"


def readme_command(heading):
    """The first ```bash block under `heading` in README.md, as .ci/newcomer reads it."""
    section = (ROOT / "README.md").read_text().split(heading, 1)[1]
    return re.search(r"```bash\n(.*?)\n```", section, re.S).group(1).strip()


def test_readme_lab_command_opens_lesson_01_where_binder_does(tmp_path):
    # README's lab command, after its install step, run as the current user (root on CI and
    # in containers: without --allow-root it exits at once) with only a port, a token and no
    # browser set from outside. It must serve the checkout and open the badge's page.
    command = readme_command("## Open the lessons")
    install, _, lab = command.partition(" && ")
    assert install == 'python -m pip install -e ".[lab]"' and lab.startswith("python -m jupyter lab")
    binder_path = re.search(r"urlpath=([^)&]+)", (ROOT / "README.md").read_text()).group(1)
    config, runtime = tmp_path / "config", tmp_path / "runtime"
    config.mkdir()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (config / "jupyter_server_config.py").write_text(
        f"c.ServerApp.port = {port}\nc.ServerApp.port_retries = 0\n"
        "c.IdentityProvider.token = 'binder-test'\nc.ServerApp.open_browser = False\n")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(runtime))
    argv = [sys.executable] + shlex.split(lab)[1:]
    server = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        opened = _wait_for_opened_page(server, runtime)
        assert opened == binder_path
        url = f"http://127.0.0.1:{port}/{binder_path}?token=binder-test"
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200
        contents = f"http://127.0.0.1:{port}/api/contents/{binder_path[len('lab/tree/'):]}" \
                   "?token=binder-test&content=0"
        with urllib.request.urlopen(contents, timeout=30) as answer:
            assert json.loads(answer.read())["type"] == "notebook"
    finally:
        server.terminate()
        server.wait(timeout=30)


def _wait_for_opened_page(server, runtime, timeout=120):
    """The page a browser would open: jupyter writes it for the file it was given."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail("README's lab command exited: " + server.stderr.read()[-2000:])
        pages = list(runtime.glob("jpserver-file-to-run-*-open.html"))
        if pages and list(runtime.glob("jpserver-[0-9]*.json")):
            found = re.search(r"url=https?://[^/]+/([^?\"]+)", pages[0].read_text())
            return found and found.group(1)
        time.sleep(0.5)
    pytest.fail("README's lab command did not start within 120 s")
