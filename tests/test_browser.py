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

It also checks what unit tests cannot see, before and after the control is
operated, on every tab of a tabbed widget:
* every picture (SVG or image) fits inside its widget: no box around it
  clips it or needs scrolling to show it, and no SVG text lies outside its SVG;
* no label, button or tab title is cut short (`scrollWidth > clientWidth`,
  where the browser would draw "…");
* the tape stepper's pictured gradients (`grad ...` under each input) equal
  the `tape.gradient(...) = [...]` result line in the same widget, and the
  graph explorer's tracing count equals the last count in its own table of
  calls, and the trace it names is the one its equations show.

Run it alone with `python -m pytest -m browser`. It needs Debian's `chromium` on PATH
(`apt-get install chromium`; Playwright never downloads a browser here): without it the
test skips with that command as the reason (fails under MINITF_REQUIRE_TOOLS=1, see
system_tools.py).
"""
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from system_tools import require_tool

ROOT = Path(__file__).resolve().parents[1]
LESSONS = Path(os.environ.get("MINITF_LESSONS_DIR", ROOT / "lessons"))
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


@pytest.fixture(scope="module", autouse=True)
def chromium():
    """Debian's Chromium: checked before JupyterLab starts, so a missing one skips at once."""
    return require_tool("chromium")


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
def browser(chromium):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


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


# Geometry, read in the page: pictures that do not fit, and text the browser cuts short.
LAYOUT_PROBLEMS = r"""(panelId) => {
  const panel = document.getElementById(panelId);
  const problems = [];
  const shown = el => el.getClientRects().length > 0 && el.getBoundingClientRect().width > 0;
  const name = el => (el.tagName + '.' + String(el.className && el.className.baseVal !== undefined
      ? el.className.baseVal : el.className)).slice(0, 80);
  const widgets = [...panel.querySelectorAll('.jp-OutputArea-output')]
      .filter(o => o.querySelector('.jupyter-widgets'));
  for (const area of widgets) {
    const pictures = [...area.querySelectorAll('.jupyter-widgets svg, .jupyter-widgets img')]
        .filter(el => shown(el) && !(el.parentElement && el.parentElement.closest('svg')));
    for (const pic of pictures) {
      const r = pic.getBoundingClientRect();
      for (let a = pic.parentElement; a && a !== area.parentElement; a = a.parentElement) {
        const style = getComputedStyle(a), box = a.getBoundingClientRect();
        const clipsX = style.overflowX !== 'visible' || a === area;
        const clipsY = style.overflowY !== 'visible';
        if (clipsX && (r.left < box.left - 1 || r.right > box.right + 1))
          problems.push(`${name(pic)} ${Math.round(r.width)}px wide does not fit in ${name(a)} (${Math.round(box.width)}px)`);
        if (clipsY && (r.top < box.top - 1 || r.bottom > box.bottom + 1))
          problems.push(`${name(pic)} ${Math.round(r.height)}px high does not fit in ${name(a)} (${Math.round(box.height)}px)`);
        if (clipsX && style.overflowX !== 'visible' && a.scrollWidth > a.clientWidth + 1)
          problems.push(`${name(a)} around ${name(pic)} scrolls sideways`);
      }
      if (pic.tagName.toLowerCase() === 'svg') {
        for (const t of pic.querySelectorAll('text')) {
          const tr = t.getBoundingClientRect();
          if (tr.width && (tr.left < r.left - 1 || tr.right > r.right + 1 ||
                           tr.top < r.top - 1 || tr.bottom > r.bottom + 1))
            problems.push(`SVG text "${t.textContent}" lies outside its SVG`);
        }
      }
    }
    const labels = [...area.querySelectorAll(
        '.jupyter-widgets .widget-label, .jupyter-widgets .widget-label-basic, ' +
        '.jupyter-widgets .widget-readout, .jupyter-widgets button, .jupyter-widgets label, ' +
        '.jupyter-widgets .lm-TabBar-tabLabel, .jupyter-widgets select')].filter(shown);
    for (const el of labels) {
      if (el.scrollWidth > el.clientWidth + 1 && el.textContent.trim())
        problems.push(`label "${el.textContent.trim().slice(0, 40)}" is cut short ` +
                      `(${el.scrollWidth}px of text in ${el.clientWidth}px)`);
    }
  }
  return problems;
}"""

# The tape stepper, read in the page: each input's `grad ...` line and the result line.
TAPE_READING = r"""(panelId) => {
  const panel = document.getElementById(panelId);
  const readings = [];
  for (const pre of panel.querySelectorAll('.jupyter-widgets pre')) {
    const m = pre.textContent.match(/tape\.gradient\([^,]+, \[([^\]]*)\]\) = \[([^\]]*)\]/);
    if (!m) continue;
    const widget = pre.closest('.jp-OutputArea-output');
    const pictured = {};
    for (const node of widget.querySelectorAll('svg g.node')) {
      const key = node.querySelector('title').textContent;
      if (!/^in\d+$/.test(key)) continue;
      const texts = [...node.querySelectorAll('text')].map(t => t.textContent);
      const grad = texts.find(t => t.startsWith('grad '));
      pictured[key] = grad === undefined ? null : grad.slice(5);
    }
    readings.push({names: m[1].split(', '), result: m[2].split(', '), pictured});
  }
  return readings;
}"""

# The graph explorer, read in the page: the trace it names, its equations, count and table.
GRAPH_READING = r"""(panelId) => {
  const panel = document.getElementById(panelId);
  const readings = [];
  for (const area of panel.querySelectorAll('.jp-OutputArea-output')) {
    const label = [...area.querySelectorAll('.jupyter-widgets p')]
        .find(p => p.textContent.startsWith('the trace for '));
    if (!label) continue;
    const pres = [...area.querySelectorAll('.jupyter-widgets pre')].map(p => p.textContent);
    const count = [...area.querySelectorAll('.jupyter-widgets p')]
        .find(p => p.textContent.includes('experimental_get_tracing_count()'));
    const rows = [...area.querySelectorAll('.jupyter-widgets table tr')]
        .map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))
        .filter(cells => cells.length === 5);
    const cell = area.closest('.jp-Cell');
    const input = cell && cell.querySelector('.jp-InputArea .cm-content');
    readings.push({trace: label.textContent.slice('the trace for '.length),
                   code: input ? [...input.querySelectorAll('.cm-line')].map(l => l.textContent).join('\n') : '',
                   equations: pres.find(t => t.startsWith('graph ')) || null,
                   count: count ? count.textContent : null,
                   table_counts: rows.map(cells => Number(cells[2]))});
  }
  return readings;
}"""


def check_layout(page, panel, lesson, when):
    """Every visible widget picture fits and no label is cut short, on every tab."""
    problems = page.evaluate(LAYOUT_PROBLEMS, panel)
    tabs = page.locator(f"[id='{panel}'] .jupyter-widgets .lm-TabBar-tab")
    current = [k for k in range(tabs.count())
               if "lm-mod-current" in (tabs.nth(k).get_attribute("class") or "")]
    for k in list(range(tabs.count())) + current:  # ends on the tab the lesson opened
        tabs.nth(k).click()
        page.wait_for_timeout(300)
        title = tabs.nth(k).inner_text()
        problems += [f"[tab {title}] {p}" for p in page.evaluate(LAYOUT_PROBLEMS, panel)]
    assert not problems, f"{lesson} ({when}): " + "; ".join(sorted(set(problems))[:8])


def check_against_the_engine(page, panel, lesson, when):
    """What the tape stepper and the graph explorer say agrees with their own results."""
    source = (LESSONS / lesson).read_text()
    tapes, graphs = page.evaluate(TAPE_READING, panel), page.evaluate(GRAPH_READING, panel)
    assert len(tapes) >= ("TapeStepper(" in source), f"{lesson}: no tape stepper was read"
    assert len(graphs) >= ("GraphExplorer(" in source), f"{lesson}: no graph explorer was read"
    for reading in tapes:
        pictured = [reading["pictured"].get(f"in{k}") for k in range(len(reading["names"]))]
        assert pictured == reading["result"], (
            f"{lesson} ({when}): the tape stepper pictures gradients {pictured} for "
            f"{reading['names']} but its result line says {reading['result']}")
    for reading in graphs:
        assert reading["equations"], f"{lesson}: the graph explorer shows no equations"
        header = reading["equations"].splitlines()[0]  # graph f(x: float32[3]) {
        tensors = re.findall(r"(\w+): (\w+\[[^\]]*\])", header)
        named = dict(re.findall(r"(\w+)=(\w+\[[^\]]*\]|[^,()]+)", reading["trace"]))
        for name, spec in tensors:
            assert named.get(name) == spec, (
                f"{lesson} ({when}): the explorer names the trace {reading['trace']} but its "
                f"equations are for {header}")
        made = explorer_arguments(reading["code"])
        for k, (name, value) in enumerate(re.findall(r"(\w+)=(\w+\[[^\]]*\]|[^,()]+)",
                                                     reading["trace"])):
            if "[" not in value and k < len(made) and re.fullmatch(r"[-\w.'\"]+", made[k]):
                assert made[k] == value, (  # a Python value written in the cell
                    f"{lesson} ({when}): the cell makes the explorer with {name}={made[k]} "
                    f"but it shows the trace for {reading['trace']}")
        if reading["count"] and reading["table_counts"]:
            shown = int(re.search(r"= (\d+)", reading["count"]).group(1))
            assert shown >= max(reading["table_counts"]), (
                f"{lesson} ({when}): tracing count {shown} is behind its own table "
                f"{reading['table_counts']}")


def explorer_arguments(code):
    """The arguments after the function in `GraphExplorer(f, a, b)` as written in a cell."""
    start = code.find("GraphExplorer(")
    if start < 0:
        return []
    parts, depth, current = [], 0, ""
    for char in code[start + len("GraphExplorer("):]:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    parts.append(current.strip())
    return parts[1:]


def drawn_state(control):
    """What a control's widget area shows: the HTML of the output it sits in."""
    return control.evaluate("el => el.closest('.jp-OutputArea').innerHTML")


def control_name(control):
    return (control.inner_text() or control.get_attribute("class") or "a control").strip()[:40]


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
    elif "widget-toggle-buttons" in classes:  # the selected button would change nothing
        control.locator("button:not(.mod-active)").first.click()
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
        check_against_the_engine(page, panel, lesson, "after running all cells")
        check_layout(page, panel, lesson, "after running all cells")
        control = controls.first
        control.scroll_into_view_if_needed()
        before = drawn_state(control)
        operate(page, control)
        page.wait_for_function(
            "([el, before]) => el.closest('.jp-OutputArea').innerHTML !== before",
            arg=[control.element_handle(), before], timeout=10_000)
        check_against_the_engine(page, panel, lesson, f"after operating {control_name(control)}")
        check_layout(page, panel, lesson, f"after operating {control_name(control)}")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shot = SCREENSHOTS / f"{Path(lesson).stem}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot: {shot}")
    finally:
        page.close()
