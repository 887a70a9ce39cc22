"""Adding a game is one folder (issue 15): ``tests/data/fifth_game`` is a test-only distribution holding a small
game, Pass the Remote (its rules in ``pass_the_remote/RULES.md``). Installed beside the companion, it is found
through the same entry-point group as the four real games and gets the same contract checks, a journal, undo,
history, an export and panels, with no change anywhere outside its folder.

The distribution is built and installed by pip (``--target`` a temporary folder, put on ``sys.path`` and on the
``PYTHONPATH`` of the processes the tests start), as a user would install a game package.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.commands import EndGame, NewGame, PlayerSeat, RollDice, Undo
from companion.dice import SeededDice
from companion.game import Game, Termination
from companion.games import find_game, game_info, game_names, refresh_registry
from companion.journal import Journal
from companion.session import GameSession
from companion.table import Table

FOLDER = Path(__file__).parent / "data" / "fifth_game"
NAME = "pass-the-remote"


@pytest.fixture(scope="module")
def fifth_game(tmp_path_factory):
    """The folder the test game is installed into (on ``sys.path`` while the module's tests run)."""
    target = tmp_path_factory.mktemp("fifth-game")
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(FOLDER),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PIP_NO_INPUT": "1"},
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    sys.path.insert(0, str(target))
    refresh_registry()
    yield target
    sys.path.remove(str(target))
    for module in [m for m in sys.modules if m == "pass_the_remote" or m.startswith("pass_the_remote.")]:
        del sys.modules[module]
    refresh_registry()


def _table(path: Path, seed: int = 3) -> Table:
    table = Table(Journal(path), dice=SeededDice(seed), backup_every=None)
    table.claim()
    return table


def _ok(table: Table, command) -> str:
    outcome = table.execute(command)
    assert outcome.accepted, outcome.message
    return outcome.message


def test_the_registry_finds_the_fifth_game_and_it_meets_the_contract(fifth_game):
    assert NAME in game_names()
    info = game_info(NAME)
    assert (info.title, info.player_word, [b.label for b in info.buttons]) == (
        "Pass the Remote",
        "viewers",
        ["Watch", "Pass", "Roll"],
    )
    rules = find_game(NAME)
    assert isinstance(rules, Game) and rules.info is info
    assert rules.events.types == {"watch_started", "die_watched", "remote_passed", "game_won", "game_ended"}


def test_without_its_distribution_the_game_is_unknown(fifth_game):
    """Nothing outside its folder names it: a process without the distribution on its path knows four games,
    and one with it five."""
    program = "from companion.games import game_names; print(','.join(game_names()))"
    for path, expected in (("", 4), (str(fifth_game), 5)):
        env = {**os.environ, "PYTHONPATH": path}
        found = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env, timeout=60)
        assert found.returncode == 0, found.stderr
        names = found.stdout.strip().split(",")
        assert len(names) == expected and (NAME in names) == (expected == 5), names


def test_a_game_is_played_journaled_undone_and_replayed(fifth_game, tmp_path):
    table = _table(tmp_path / "journal.sqlite3")
    _ok(table, NewGame(game=NAME, players=(PlayerSeat("Ann"), PlayerSeat("Bob")), options={"target": 5}))
    rules = table.session.rules
    legal = {c.kind: c for c in rules.legal_commands(table.state, "Bob")}
    assert not legal["Watch"].enabled and legal["Watch"].reason == "Ann holds the remote" and legal["Watch"].rule
    refused = table.execute(rules.button_command("watch", "Bob"))
    assert not refused.accepted and "Ann holds the remote" in refused.message
    moves = 0
    while rules.outcome(table.state) is None and moves < 200:  # buttons only, as at the table
        holder = table.state.holder
        if table.state.turn_points >= 3:
            _ok(table, rules.button_command("pass", holder))
        elif rules.pending_dice(table.state):
            _ok(table, RollDice(roller=holder, source="button"))
        else:
            _ok(table, rules.button_command("watch", holder))
        moves += 1
    outcome = rules.outcome(table.state)
    assert outcome is not None and outcome.termination is Termination.WON
    (winner,) = outcome.winners
    assert outcome.figures[winner]["points"] >= 5 and "rule 5" in outcome.reason
    history = [entry.text for entry in table.history()]
    assert history[0].startswith("Game started: Pass the Remote") and any("wins with" in t for t in history)
    final = table.state
    journal_path = table.journal.path
    _check_export(fifth_game, journal_path.parent, table.session.game_id, table.session.line, outcome)
    _ok(table, Undo())
    assert rules.outcome(table.state) is None
    game_id = table.session.game_id
    table.journal.close()
    with Journal(tmp_path / "journal.sqlite3") as journal:
        replayed = GameSession.open(journal, game_id)
        assert replayed.state != final and replayed.state == table.state  # the undo is journaled too


def _check_export(installed: Path, data_dir: Path, game_id: int, line: list[int], outcome) -> None:
    """``companion export GAME --format csv`` (the installed console script, the fifth game on its path): one row
    for the start and one per move in force, the game's own figures as ``"<seat> <figure>"`` columns, ending
    with the winner's points."""
    from conftest import COMPANION

    completed = subprocess.run(
        [str(COMPANION), "export", str(game_id), "--format", "csv", "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(installed)},
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    rows = list(csv.DictReader(io.StringIO(completed.stdout)))
    assert list(rows[0])[:3] == ["move", "time", "what"]
    assert {"Ann points", "Ann this turn", "Bob points", "Bob this turn"} <= set(rows[0])
    assert [int(r["move"]) for r in rows[1:]] == list(line) and rows[0]["what"] == "game started"
    (winner,) = outcome.winners
    assert int(rows[-1][f"{winner} points"]) == outcome.figures[winner]["points"]
    assert "wins with" in rows[-1]["what"] or "banks" in rows[-1]["what"]


def test_refusals_change_nothing_and_end_game_ends_it(fifth_game, tmp_path):
    table = _table(tmp_path / "journal.sqlite3")
    _ok(table, NewGame(game=NAME, players=(PlayerSeat("Ann"), PlayerSeat("Bob"), PlayerSeat("Cat"))))
    before, entries = table.state, len(table.history())
    for command in (RollDice(roller="Ann"), find_game(NAME).button_command("pass", "Cat")):
        assert not table.execute(command).accepted
    assert table.state == before and len(table.history()) == entries
    _ok(table, EndGame(reason="time for dinner"))
    outcome = table.session.rules.outcome(table.state)
    assert outcome.termination is Termination.ENDED_BY_HAND and outcome.winners == ()
    assert table.view().finished


def test_a_bad_house_rule_is_refused_with_its_name(fifth_game, tmp_path):
    table = _table(tmp_path / "journal.sqlite3")
    refused = table.execute(NewGame(game=NAME, players=(PlayerSeat("Ann"), PlayerSeat("Bob")), options={"target": 2}))
    assert not refused.accepted and "target" in refused.message


def test_an_event_layout_change_is_upcast_so_old_journals_still_read():
    """The event base's versioning (companion/events.py): a payload written by layout 1 is read by a class at
    layout 2 through its ``upcast``, a layout-2 payload carries ``"v": 2``, and a missing field is an error that
    names the event and the field."""
    from dataclasses import dataclass

    from companion.errors import JournalError
    from companion.events import Event, EventCodec

    @dataclass(frozen=True)
    class Scored(Event):
        TYPE = "scored"
        VERSION = 2
        viewer: str
        points: tuple[int, ...]  # layout 1 had one int, "point"

        @classmethod
        def upcast(cls, payload, version):
            assert version == 1
            return {"viewer": payload["viewer"], "points": [payload["point"]]}

    codec = EventCodec([Scored])
    assert codec.decode("scored", {"viewer": "Ann", "point": 4, "by": "button"}) == Scored("Ann", (4,))
    assert Scored("Ann", (4, 5)).to_payload() == {"viewer": "Ann", "points": [4, 5], "v": 2}
    assert codec.decode("scored", Scored("Ann", (4, 5)).to_payload()) == Scored("Ann", (4, 5))
    with pytest.raises(JournalError, match="scored event without its 'points'"):
        codec.decode("scored", {"viewer": "Ann", "v": 2})
    with pytest.raises(JournalError, match="no event type 'kicked'"):
        codec.decode("kicked", {})


@pytest.mark.kivy
def test_the_kiosk_plays_the_fifth_game_with_its_board_buttons_panels_and_history(fifth_game, tmp_path):
    """The real kiosk (Xvfb) with the test-only distribution on its path: the board from the game's folder, the
    seat buttons meaning what its GameInfo says (slot a Watch, c Roll), the panels' headline from its view,
    the board's Watch button made from legal_commands, and the History screen's lines from its describe."""
    from kivy_driver import DRIVERS, keep_artifacts, run_driver, steps_by_label

    data_dir, out_dir = tmp_path / "data", tmp_path / "out"
    data_dir.mkdir()
    result = run_driver(
        "drive_fifth_game.py",
        data_dir,
        out_dir,
        env={"PYTHONPATH": os.pathsep.join([str(DRIVERS), str(fifth_game)])},
        timeout=240,
    )
    steps = steps_by_label(result)
    started, rolled, touched = steps["started"], steps["rolled"], steps["watched-by-touch"]
    assert started["game"] == NAME and started["board"] == "RemoteBoard"
    assert "Watch" in started["key_help"] and "Pass" in started["key_help"]
    assert any("watches (rule 3)" in line for line in rolled["history"])
    assert any(" rolls " in line for line in rolled["history"])
    assert touched["history"][-1].endswith("watches (rule 3)")
    assert all(h.endswith(" pts") for h in rolled["headlines"])
    panels = sorted(out_dir.glob("fifth-after-roll-panel-*.png"))
    assert len(panels) == 2
    from PIL import Image

    assert all(Image.open(p).convert("1").getbbox() is not None for p in panels)  # something is drawn
    keep_artifacts(out_dir, prefix="")
