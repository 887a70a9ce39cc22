"""Shared fixtures for the core (``companion/``) test suite.

Everything here uses real components: real SQLite journal files under pytest's temporary
directories, the real :class:`companion.table.Table`, seeded built-in dice.

* ``journal`` — a :class:`Journal` on ``tmp_path/journal.sqlite3`` (closed after the test).
* ``table`` — ``Table(journal, dice=SeededDice(1))`` claimed by the test's thread.
* ``start_game`` — ``start_game(table, n=2, **options)`` starts an ``n``-network TV Wars game
  (networks ABS, CBA, PBC, NBS in seat order) and returns its journal game id.
* ``table_factory`` — session-scoped; ``table_factory(seed=1)`` makes a fresh claimed table on a
  fresh journal file each call (for hypothesis tests, where function-scoped fixtures are not reset
  between examples).
* ``journal_rows`` — ``journal_rows(path)`` reads the ``events`` table with plain ``sqlite3``.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import sqlite3
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: The installed package's console script (the entry point pip made for the wheel); tests run it, not the checkout.
COMPANION = Path(sys.executable).parent / "companion"


def _installed_packages_or_stop() -> None:
    """The suite tests the installed wheel: stop at once if a package would come from the checkout (pytest
    started with the checkout on sys.path, e.g. ``python -m pytest`` in it) or is not installed at all."""
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    # tools/mutation.py alone sets this: mutmut's mutated copy of the package is what its tests must import
    mutants = os.environ.get("COMPANION_TESTS_FROM")
    allowed = [site] + ([Path(mutants).resolve()] if mutants else [])
    for name in ("companion", "hardware", "ui", "firmware_bridge", "web"):
        spec = importlib.util.find_spec(name)
        origin = Path(spec.origin).resolve() if spec and spec.origin else None
        if origin is None or not any(place in origin.parents for place in allowed):
            pytest.exit(
                f"{name} would be imported from {origin}, not from the installed wheel in {site}: "
                "run the suite with ./run-tests (it builds and installs the wheel, then runs pytest)",
                returncode=4,
            )


_installed_packages_or_stop()

from companion.commands import NewGame, PlayerSeat  # noqa: E402  (after the check above)
from companion.dice import SeededDice  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.table import Table  # noqa: E402

NETWORKS = ("ABS", "CBA", "PBC", "NBS")
COLOURS = ("#e53935", "#1e88e5", "#43a047", "#fdd835")


def seats(n: int) -> tuple[PlayerSeat, ...]:
    """The first ``n`` of the rulebook's networks as player seats."""
    return tuple(PlayerSeat(name, colour) for name, colour in zip(NETWORKS[:n], COLOURS[:n]))


def start_tv_wars(table: Table, n: int = 2, **options) -> int:
    """Start an ``n``-network TV Wars game on ``table``; return its game id (asserts it was accepted)."""
    outcome = table.execute(NewGame(game="tv-wars", players=seats(n), options=options, source="test"))
    assert outcome.accepted, outcome.message
    return outcome.records[0].game_id


def read_events(path: Path, game_id: int | None = None) -> list[dict]:
    """The journal's ``events`` rows as dicts (payload decoded), read with plain sqlite3."""
    connection = sqlite3.connect(str(path))
    try:
        query = "SELECT seq, game_id, move, time, type, payload, schema_version FROM events"
        rows = connection.execute(
            query + (" WHERE game_id = ?" if game_id is not None else "") + " ORDER BY seq",
            (() if game_id is None else (game_id,)),
        ).fetchall()
    finally:
        connection.close()
    return [
        {
            "seq": r[0],
            "game_id": r[1],
            "move": r[2],
            "time": r[3],
            "type": r[4],
            "payload": json.loads(r[5]),
            "schema_version": r[6],
        }
        for r in rows
    ]


def run_companion(*args: str, timeout: float = 60, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the installed ``companion ARGS`` in a real subprocess; return the completed process (text)."""
    full_env = dict(os.environ)
    full_env.pop("COMPANION_DATA_DIR", None)
    full_env.update(env or {})
    return subprocess.run(
        [str(COMPANION), *args], capture_output=True, text=True, timeout=timeout, cwd=str(REPO), env=full_env
    )


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite3"


@pytest.fixture
def journal(journal_path: Path):
    journal = Journal(journal_path)
    yield journal
    journal.close()


@pytest.fixture
def table(journal: Journal) -> Table:
    table = Table(journal, dice=SeededDice(1))
    table.claim()
    return table


@pytest.fixture
def start_game():
    """``start_game(table, n=2, **options)`` → game id (see :func:`start_tv_wars`)."""
    return start_tv_wars


@pytest.fixture
def journal_rows():
    """``journal_rows(path, game_id=None)`` → the events rows read with plain sqlite3."""
    return read_events


@pytest.fixture(scope="session")
def table_factory(tmp_path_factory):
    """``table_factory(seed=1, path=None)`` → a fresh claimed table on a fresh (or given) journal file."""
    journals: list[Journal] = []
    counter = itertools.count()
    base = tmp_path_factory.mktemp("tables")

    def make(seed: int = 1, path: Path | None = None) -> Table:
        path = path or base / f"journal-{next(counter)}.sqlite3"
        journal = Journal(path)
        journals.append(journal)
        table = Table(journal, dice=SeededDice(seed))
        table.claim()
        return table

    yield make
    for journal in journals:
        journal.close()
