"""pytest hooks for the whole checkout: lesson cells whose stored picture Graphviz drew.

nbval re-runs every lesson and compares each output with the stored one. A picture that
Graphviz's `dot` drew cannot match where `dot` is missing (widgets/_render.py then draws
with a simple layout of its own), so such a cell still runs - later cells may need what
it defines - and is then reported as skipped, with the command that installs Graphviz
as the reason. Under MINITF_REQUIRE_TOOLS=1 (set by .ci/run) it fails instead, so CI
never hides a missing `dot` (tests/system_tools.py).
"""
import pytest

from tests import system_tools


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.when != "call" or not system_tools.drawn_by_dot(item) or system_tools.find("dot"):
        return
    reason = system_tools.INSTALL["dot"]
    if system_tools.required():
        report.outcome = "failed"
        report.longrepr = f"MINITF_REQUIRE_TOOLS=1 but {reason}"
    else:
        report.outcome = "skipped"
        report.longrepr = (str(item.path), 0, f"Skipped: {reason}")
