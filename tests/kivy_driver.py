"""Running a Kivy driver (``tests/kivy/drive_*.py``, built on ``tests/kivy/harness.py``) from a pytest module.

The driver plays the real app in a subprocess with a display (Xvfb: ``./run-tests`` or ``xvfb-run``) and
writes ``result.json`` and screenshots into an output directory; :func:`run_driver` runs it, fails the test
on a crash or on any error the driver recorded, and returns the result. :func:`keep_artifacts` copies the
screenshots to ``test-artifacts/`` for people to look at.

Every screenshot a driver takes (``harness.Driver.shot``) is also a layout audit (``tests/kivy/layout_audit.py``,
the checks of tests/test_layout_audit.py) of the screen it shows: :func:`run_driver` sets
``COMPANION_AUDIT_SHOTS=1`` for the driver and fails the test on any violation, listing the distinct ones with
the shot each was first seen in (``audit=False`` for a driver whose screens are not the point).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

DRIVERS = Path(__file__).parent / "kivy"
ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"


def driver_env(extra: dict | None = None) -> dict:
    """The environment a driver runs in: the suite's own (PYTHONSAFEPATH keeps the checkout off sys.path), with
    only the drivers' folder added, so ``import harness`` works and the app comes from the installed wheel."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(DRIVERS), env.get("PYTHONPATH", "")]))
    env.update(extra or {})
    return env


def run_driver(
    script: str,
    data_dir: Path,
    out_dir: Path,
    *flags: str,
    timeout: float = 240,
    env: dict | None = None,
    audit: bool = True,
) -> dict:
    """Run ``tests/kivy/<script> DATA_DIR OUT_DIR FLAGS…`` (``env``: variables added to the driver's
    environment); assert it exited 0, recorded no errors and (with ``audit``) that every screenshot it took
    passed the layout audit; return its ``result.json`` (``{"steps": [...], "errors": [], …}``)."""
    return run_driver_output(script, data_dir, out_dir, *flags, timeout=timeout, env=env, audit=audit)[0]


def run_driver_output(
    script: str,
    data_dir: Path,
    out_dir: Path,
    *flags: str,
    timeout: float = 240,
    env: dict | None = None,
    audit: bool = True,
) -> tuple[dict, str]:
    """:func:`run_driver`, returning what the driver printed too: ``(result, stdout)``."""
    if not os.environ.get("DISPLAY"):
        pytest.fail("no DISPLAY: run the suite under Xvfb (./run-tests or xvfb-run)")
    completed = subprocess.run(
        [sys.executable, str(DRIVERS / script), str(data_dir), str(out_dir), *flags],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=driver_env({"COMPANION_AUDIT_SHOTS": "1" if audit else "0", **(env or {})}),
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    result = json.loads((out_dir / "result.json").read_text())
    assert result["errors"] == [], "\n".join(result["errors"])
    assert_installed(result)
    if audit:
        assert_shots_pass_the_layout_audit(script, result)
    return result, completed.stdout


def shot_audit_report(script: str, violations: list[dict]) -> str:
    """The distinct violations (the same widget breaking the same way in another shot counts once, as in
    tests/test_layout_audit.py), ``kind where widget: detail (at SHOT, SIZE)``, at most 40."""
    first: dict = {}
    for violation in violations:
        first.setdefault((violation["kind"], violation["where"], _signature(violation["widget"])), violation)
    lines = [f"{script}: {len(first)} distinct layout violation(s) in its screenshots"]
    lines += [
        f"{v['kind']} {v['where']} {v['widget']}: {v['detail']} (at {v['at']}, {v['size']})"
        for v in list(first.values())[:40]
    ]
    return "\n".join(lines)


def assert_shots_pass_the_layout_audit(script: str, result: dict) -> None:
    """Every screenshot the driver took was audited (or left out with a reason, ``shots_unaudited``) and
    showed no layout violation, a word broken across two lines (``split``) included."""
    audited, unaudited = result.get("shots_audited", 0), result.get("shots_unaudited", {})
    assert audited + len(unaudited) == result.get("shots", 0), (script, result.get("shots"), audited, unaudited)
    violations = result.get("shot_violations", [])
    assert not violations, shot_audit_report(script, violations)


def _signature(widget: str) -> str:
    """A widget's name without its figures: the same widget in another state reads the same."""
    return "".join("#" if c.isdigit() else c for c in widget)


def assert_installed(result: dict) -> None:
    """The driver ran the installed app: the kiosk front-end its entry point named came from site-packages."""
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    location = Path(result["app_module"]).resolve()
    assert site in location.parents, f"the driver ran {location}, not the installed package in {site}"


def keep_artifacts(out_dir: Path, pattern: str = "*.png", prefix: str = "") -> None:
    """Copy the files in ``out_dir`` matching ``pattern`` to ``test-artifacts/``, names prefixed ``prefix``."""
    ARTIFACTS.mkdir(exist_ok=True)
    for path in out_dir.glob(pattern):
        shutil.copy(path, ARTIFACTS / f"{prefix}{path.name}")


def steps_by_label(result: dict) -> dict:
    """The driver's recorded steps keyed by their labels."""
    return {step["label"]: step for step in result["steps"]}
