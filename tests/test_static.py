"""Static checks of the checkout (issue 15, part 7): ``ruff check``, ``ruff format --check``, ``mypy`` over the
core, the adapters without a GUI and every game package (settings in pyproject.toml), and the game contract:
every registered game, the test-only fifth game included, is checked by mypy as a :class:`companion.game.Game`.

These read the source files (there is nothing else to lint); everything else in the suite runs the installed wheel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.games import game_info, game_names

REPO = Path(__file__).resolve().parent.parent
FIFTH_GAME = REPO / "tests" / "data" / "fifth_game"


def _run(*args: str, cwd: Path = REPO, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=str(cwd),
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
    )


def test_ruff_finds_nothing():
    completed = _run("ruff", "check", "--no-cache", ".")
    assert completed.returncode == 0, completed.stdout[-4000:] + completed.stderr[-1000:]


def test_the_code_is_formatted():
    completed = _run("ruff", "format", "--check", "--no-cache", ".")
    assert completed.returncode == 0, completed.stdout[-4000:] + completed.stderr[-1000:]


def test_mypy_finds_nothing(tmp_path):
    completed = _run("mypy", "--cache-dir", str(tmp_path / "cache"))
    assert completed.returncode == 0, completed.stdout[-6000:] + completed.stderr[-1000:]


def _contract_check(tmp_path: Path, games: dict[str, str], extra: str = "") -> subprocess.CompletedProcess:
    """mypy over a module assigning each ``"module:attribute"`` in ``games`` to a variable typed ``Game``."""
    lines = ["from companion.game import Game"]
    for index, target in enumerate(games.values()):
        module, _, attribute = target.partition(":")
        lines += [f"from {module} import {attribute} as game_{index}", f"check_{index}: Game = game_{index}"]
    (tmp_path / "contract_check.py").write_text("\n".join(lines) + "\n" + textwrap.dedent(extra))
    return _run(
        "mypy",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--follow-imports=silent",
        str(tmp_path / "contract_check.py"),
        env={"MYPYPATH": os.pathsep.join([str(REPO), str(FIFTH_GAME)])},
    )


def test_every_game_meets_the_contract_for_the_type_checker(tmp_path):
    games = {name: game_info(name).rules for name in game_names()}
    games["pass-the-remote"] = "pass_the_remote.rules:PASS_THE_REMOTE"
    assert len(games) >= 5
    completed = _contract_check(tmp_path, games)
    assert completed.returncode == 0, completed.stdout[-6000:]


@pytest.mark.parametrize("missing", ["outcome", "legal_commands"])
def test_the_contract_check_catches_a_game_that_does_not_conform(tmp_path, missing):
    """A game without one of the contract's methods fails the same check (so the check above can fail)."""
    broken = f'''
        from pass_the_remote.rules import PassTheRemote


        class Broken(PassTheRemote):
            {missing} = None  # type: ignore[assignment]


        broken: Game = Broken()
    '''
    completed = _contract_check(tmp_path, {}, broken)
    assert completed.returncode != 0 and "Incompatible types in assignment" in completed.stdout, completed.stdout
