"""DESIGN.md, "Layers": ``companion/`` is the pure-Python core. It imports nothing from the adapters
(``hardware``, ``ui``, ``firmware_bridge``, ``web``) and none of kivy, gpiozero, luma, pyserial (``serial``) or the
web front-end's starlette and uvicorn."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest
from conftest import REPO

CORE = REPO / "companion"
FORBIDDEN = ("hardware", "ui", "firmware_bridge", "web", "kivy", "gpiozero", "luma", "serial", "starlette", "uvicorn")


def forbidden_imports(source: str, module: str) -> list[str]:
    """The imports in ``source`` (the code of dotted ``module``) whose top-level package is forbidden,
    including ``importlib.import_module("...")`` and ``__import__("...")`` with a literal name."""
    found = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            # a relative import stays inside companion, so only absolute ones can reach an adapter
            names = [] if node.level else [node.module or ""]
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__"))
            )
        ):
            names = [node.args[0].value]
        for name in names:
            if name.split(".")[0] in FORBIDDEN:
                found.append(f"{module}:{node.lineno}: {name}")
    return found


def _core_modules():
    for path in sorted(CORE.rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1] + ("__init__",)
        yield path, ".".join(parts)


def test_the_checker_finds_planted_violations():
    planted = (
        "import kivy\nfrom gpiozero import Button\nimport luma.oled.device\nimport serial.tools\n"
        "from hardware.panels import X\nfrom ui import app\nimport firmware_bridge\n"
        "importlib.import_module('ui.kiosk')\n__import__('kivy.app')\n"
    )
    found = forbidden_imports(planted, "companion.games.__init__")
    assert len(found) == 9, found
    assert (
        forbidden_imports(
            "import json\nfrom companion.table import Table\nfrom . import dice\n"
            "import serialize_helpers\nimport uikit\n",
            "companion.x",
        )
        == []
    )


def test_core_sources_import_no_adapter_or_hardware_library():
    modules = list(_core_modules())
    assert len(modules) >= 15, "the core package was not found"
    problems = []
    for path, module in modules:
        problems += forbidden_imports(path.read_text(encoding="utf-8"), module)
    assert problems == []


def test_importing_every_core_module_loads_no_adapter_or_hardware_library():
    code = r"""
import importlib, pkgutil, sys
import companion
names = ["companion"] + [m.name for m in pkgutil.walk_packages(companion.__path__, "companion.")
                         if m.name != "companion.__main__"]
for name in names:
    importlib.import_module(name)
forbidden = {"hardware", "ui", "firmware_bridge", "web", "kivy", "gpiozero", "luma", "serial", "starlette", "uvicorn"}
loaded = sorted(m for m in sys.modules if m.split(".")[0] in forbidden)
print(len(names), ",".join(loaded))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert result.returncode == 0, result.stderr
    count, loaded = result.stdout.strip().split(" ", 1) if " " in result.stdout.strip() else (result.stdout.strip(), "")
    assert int(count) >= 15
    assert loaded == "", f"importing companion loaded {loaded}"


def test_import_companion_is_cheap():
    """``import companion`` loads no submodule (they load when used), so adapters start fast."""
    code = "import sys, companion; print(sorted(m for m in sys.modules if m.startswith('companion')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['companion']"


@pytest.mark.parametrize("args", [["--help"], ["games", "list", "--help"]])
def test_the_cli_runs_without_loading_adapters(args):
    code = (
        "import sys\nfrom companion.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('hardware', 'ui', 'firmware_bridge', 'kivy', 'gpiozero', 'luma', 'serial')]\n"
        "print('LOADED', bad, file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60, cwd=str(REPO)
    )
    assert "LOADED []" in result.stderr, result.stderr
