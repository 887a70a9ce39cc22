"""The Kivy drivers wait for conditions on the app's state, never for time or frames going by (brief:
"Tests wait for conditions, never for frame counts or fixed sleeps"; issue "Nothing lost, ever", 4).

A static check over ``tests/kivy/*.py``: no ``sleep`` of any kind, and every ``Clock.schedule_once`` with a
delay (a step run after a fixed time, whether or not what it needs has happened) is in the harness's runner
(its retry and step gap) or in ``clock_passed`` (which waits for Kivy's own clock, not for wall time).
``schedule_interval`` is polling, allowed: a poll checks a condition. The check is shown to find planted
violations.
"""

from __future__ import annotations

import ast
from pathlib import Path

DRIVERS = sorted((Path(__file__).parent / "kivy").glob("*.py"))
#: (file name, enclosing function) allowed to schedule with a delay, and why.
ALLOWED_DELAYS = {
    ("harness.py", "run"): "the runner's retry period and step gap",
    ("drive_app.py", "clock_passed"): "waits for Kivy's clock itself to pass a time",
}


def violations(source: str, name: str) -> list[str]:
    """What in driver ``name``'s ``source`` waits for time instead of a condition."""
    found = []
    tree = ast.parse(source)
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node

    def enclosing(node: ast.AST) -> str:
        names = []
        while node in parents:
            node = parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.append(node.name)
        return names[-1] if names else ""

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if called == "sleep":
            found.append(f"{name}:{node.lineno}: sleep()")
        if called == "schedule_once" and len(node.args) >= 2:
            delay = node.args[1]
            zero = isinstance(delay, ast.Constant) and delay.value in (0, -1)
            if not zero and (name, enclosing(node)) not in ALLOWED_DELAYS:
                found.append(f"{name}:{node.lineno}: {called} with a delay in {enclosing(node) or 'module'}()")
    return found


def test_the_check_finds_planted_violations():
    planted = (
        "import time\nfrom kivy.clock import Clock\n"
        "def step():\n    time.sleep(0.5)\n    Clock.schedule_once(go, 2)\n    Clock.schedule_once(go, 0)\n"
    )
    assert violations(planted, "drive_x.py") == [
        "drive_x.py:4: sleep()",
        "drive_x.py:5: schedule_once with a delay in step()",
    ]


def test_no_driver_waits_for_time_or_frames():
    assert DRIVERS, "no Kivy drivers found"
    found = [v for path in DRIVERS for v in violations(path.read_text(), path.name)]
    assert found == []
