"""The lessons in a real browser: JupyterLab + Debian's Chromium, driven by Playwright.

For every lesson whose stored outputs show a live widget, the test opens the
notebook in JupyterLab (a private server on a free loopback port, with a
token, serving a temporary copy of lessons/), runs all cells once the kernel
is ready, and checks what a learner would see: every cell ran, only cells
tagged `raises-exception` show an error, no "Error displaying widget", the
widget's controls exist, and operating one control (keyboard on a slider, a
click on a button) changes what is drawn. A screenshot per lesson is saved
under the directory printed at the end (`MINITF_SCREENSHOTS`, default
`artifacts/screenshots`).

Run it alone with `python -m pytest -m browser`. It needs Chromium at
/usr/bin/chromium (`apt-get install chromium`; Playwright never downloads a browser here).
"""
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = Path(os.environ.get("MINITF_LESSONS_DIR", ROOT / "lessons"))
CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(os.environ.get("MINITF_SCREENSHOTS", ROOT / "artifacts" / "screenshots"))
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
CONTROLS = ".widget-slider, .widget-button, .widget-toggle-button, .widget-dropdown, " \
           ".widget-toggle-buttons, .widget-checkbox"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.browser


def lessons_with_widgets():
    """Lessons whose stored outputs contain a live widget view."""
    found = []
    for path in sorted(LESSONS.glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        if any(WIDGET_MIME in out.get("data", {}) for c in cells for out in c.get("outputs", [])):
            found.append(path.name)
    return found


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on a copy of lessons/: yields (base_url, token)."""
    root = tmp_path_factory.mktemp("lab")
    shutil.copytree(LESSONS, root / "lessons")
    settings = root / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    # Render every cell (no virtual scrolling) so the test sees all outputs.
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    # No "get notified about Jupyter news?" toast over the screenshots (and no network use).
    apputils = root / "settings" / "@jupyterlab" / "apputils-extension"
    apputils.mkdir(parents=True)
    (apputils / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(root / "settings"),
               JUPYTER_RUNTIME_DIR=str(root / "runtime"), MPLBACKEND="module://matplotlib_inline.backend_inline")
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={root / 'lessons'}", "--LabApp.expose_app_in_browser=True"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # CI machines run as root
        command.append("--allow-root")
    log = root / "jupyterlab.log"
    with open(log, "w") as log_file:
        server = subprocess.Popen(command, env=env, stdout=log_file, stderr=subprocess.STDOUT, cwd=root)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_server(base, token, server, log)
        yield base, token
    finally:
        server.terminate()
        server.wait(timeout=30)


def wait_for_server(base, token, server, log, timeout=90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"JupyterLab exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError("JupyterLab did not answer within 90 s")


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).exists(), "install Debian's Chromium: apt-get install -y chromium"
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


# JavaScript run in the page through the app JupyterLab exposes (`window.jupyterapp`).
KERNEL_READY = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!(k && k.status === 'idle' && w.content.widgets.length > 0);
}"""
RUN_ALL = "() => window.jupyterapp.commands.execute('notebook:run-all-cells')"
CELL_STATES = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  const kernel = k ? k.status : 'unknown';
  if (!w || !w.content) return {kernel, cells: []};
  const cells = w.content.widgets.filter(c => c.model.type === 'code').map((c, i) => ({
    index: i,
    count: c.model.executionCount,
    tags: c.model.getMetadata('tags') || [],
    errors: c.model.outputs.toJSON().filter(o => o.output_type === 'error')
                               .map(o => o.ename + ': ' + o.evalue)}));
  return {kernel, cells};
}"""


def run_all_cells(page, timeout=120):
    page.wait_for_function(KERNEL_READY, timeout=60_000)
    page.evaluate(RUN_ALL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = page.evaluate(CELL_STATES)
        cells = state["cells"]
        if state["kernel"] == "idle" and cells and all(c["count"] for c in cells):
            return state["cells"]
        time.sleep(0.5)
    stuck = [c for c in page.evaluate(CELL_STATES)["cells"] if not c["count"]]
    raise AssertionError(f"cells did not run within {timeout} s: {stuck[:3]}")


def drawn_state(control):
    """What a control's widget area shows: the HTML of the output it sits in."""
    return control.evaluate("el => el.closest('.jp-OutputArea').innerHTML")


def operate(page, control):
    """Move a slider with the keyboard, or click anything else."""
    classes = control.get_attribute("class") or ""
    if "widget-slider" in classes:
        handle = control.locator(".noUi-handle").first
        handle.focus()
        page.keyboard.press("ArrowRight")
    elif "widget-dropdown" in classes:
        select = control.locator("select").first
        options = select.locator("option").all_inner_texts()
        select.select_option(index=1 if len(options) > 1 else 0)
    else:
        clickable = control.locator("input, button").first if control.locator(
            "input, button").count() else control
        clickable.click()


@pytest.mark.parametrize("lesson", lessons_with_widgets())
def test_lesson_runs_and_its_widget_responds(lab, browser, lesson):
    base, token = lab
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        # `reset`: a fresh workspace, so notebooks opened by earlier pages are not restored as tabs.
        page.goto(f"{base}/lab/tree/{lesson}?reset&token={token}", timeout=60_000)
        cells = run_all_cells(page)
        unexpected = [c for c in cells if c["errors"] and "raises-exception" not in c["tags"]]
        assert not unexpected, f"{lesson}: cells raised errors: {unexpected}"
        assert "Error displaying widget" not in page.inner_text("body")
        # Only this lesson's panel: a hidden tab's widgets are in the DOM too.
        panel = page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
        controls = page.locator(f"[id='{panel}']").locator(CONTROLS)
        assert controls.count() > 0, f"{lesson}: no widget controls were drawn"
        control = controls.first
        control.scroll_into_view_if_needed()
        before = drawn_state(control)
        operate(page, control)
        page.wait_for_function(
            "([el, before]) => el.closest('.jp-OutputArea').innerHTML !== before",
            arg=[control.element_handle(), before], timeout=10_000)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shot = SCREENSHOTS / f"{Path(lesson).stem}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot: {shot}")
    finally:
        page.close()
