"""Journals written by earlier versions open and replay to the same state (brief: "Journals written by
any earlier version must still open and replay to the same state"; DESIGN.md, "The journal").

``tests/data/journals/<version>/`` holds one long game of each of the four games, recorded by
``tests/data/journals/record.py`` with the code of ``<version>`` (undos, redos, jumps, refusals, a
Ratings War, a Death Show TV game to its end), and the JSON of what it replayed to then: the state (every
field, see ``journal_canon``), the line of moves in force, the redo stack and the history entries. Each
test opens a copy (opening may upgrade a file; the committed one stays as it was written), replays it
with today's code through a real :class:`Table` and a real SQLite file, and compares; then opens the
upgraded copy once more and compares again.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from journal_canon import expected_of

from companion.commands import OpenGame, Undo
from companion.journal import Journal
from companion.table import Table

DATA = Path(__file__).parent / "data" / "journals"
RECORDED = sorted(DATA.glob("*/*.sqlite3"))
GAMES = ("tv-wars", "death-show-tv", "channel-won", "telly-time")


def test_every_version_folder_holds_all_four_games():
    folders = {path.parent for path in RECORDED}
    assert folders, f"no recorded journals under {DATA}"
    for folder in folders:
        assert sorted(p.stem for p in folder.glob("*.sqlite3")) == sorted(GAMES), folder
        assert sorted(p.stem for p in folder.glob("*.json")) == sorted(GAMES), folder


def _as_recorded(got, expected):
    """``got`` (today's canonical state) without the dataclass fields added since ``expected`` was recorded:
    a new field has a default (or an upcast) and the fields the recording has must replay to the same values
    (brief: "a new field needs a default or an upcast")."""
    if isinstance(got, dict) and isinstance(expected, dict):
        if "__type__" in got and got.get("__type__") == expected.get("__type__"):
            return {key: _as_recorded(value, expected[key]) for key, value in got.items() if key in expected}
        return {key: _as_recorded(value, expected.get(key)) for key, value in got.items()}
    if isinstance(got, list) and isinstance(expected, list) and len(got) == len(expected):
        return [_as_recorded(g, e) for g, e in zip(got, expected)]
    return got


def _open(path: Path):
    journal = Journal(path)
    table = Table(journal)
    table.claim()
    (game,) = journal.games()
    outcome = table.execute(OpenGame(game_id=game.id))
    assert outcome.accepted, outcome.message
    return journal, table


@pytest.mark.parametrize("recorded", RECORDED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_recorded_journal_replays_to_what_it_was(recorded: Path, tmp_path: Path):
    expected = json.loads(recorded.with_suffix(".json").read_text())
    committed = hashlib.sha256(recorded.read_bytes()).hexdigest()
    copy = tmp_path / recorded.name
    shutil.copyfile(recorded, copy)
    for attempt in ("first open", "reopened"):
        journal, table = _open(copy)
        try:
            got = expected_of(table.session)
            assert got["game"] == expected["game"] == recorded.stem
            for key in ("line", "redo_stack", "finished", "entries", "event_types"):
                assert got[key] == expected[key], f"{attempt}: {key} differs"
            state = _as_recorded(got["state"], expected["state"])
            assert state == expected["state"], f"{attempt}: the replayed state differs"
        finally:
            journal.close()
    assert hashlib.sha256(recorded.read_bytes()).hexdigest() == committed, "the committed file was changed"


@pytest.mark.parametrize("recorded", RECORDED[:4], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_recorded_game_goes_on(recorded: Path, tmp_path: Path):
    """An old game is not only readable: today's code appends to it (an undo, when there is a move to
    undo) and the result reopens the same."""
    copy = tmp_path / recorded.name
    shutil.copyfile(recorded, copy)
    journal, table = _open(copy)
    try:
        if table.session.line:
            assert table.execute(Undo()).accepted
        after = expected_of(table.session)
    finally:
        journal.close()
    journal, table = _open(copy)
    try:
        assert expected_of(table.session) == after
    finally:
        journal.close()
