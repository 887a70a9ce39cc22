"""A seeded monkey in the real Kivy app (Xvfb), once per game: the game is started from the home screen's picker,
then a few hundred random taps (anywhere a finger reaches, dialogs included), seat keys, undo/redo keys,
message-bar taps and dice rolls are made (tests/kivy/drive_monkey.py, which explains the choices).

The project's rule: no input may crash the kiosk or lose a journal entry. So, after the run: no exception was
raised by an input or reached Kivy's main loop, nothing was logged at ERROR or above, one more tap still
works, the journal passes ``PRAGMA integrity_check``, and replaying the open game's journal gives exactly the
table's state (and every game in the journal replays).

To explore locally with other seeds or more actions (a failure names its seed and the actions before it)::

    MONKEY_SEED=7 MONKEY_ACTIONS=600 xvfb-run -a -s "-screen 0 1280x800x24" python -m pytest tests/test_kivy_monkey.py

Screenshots (start, a third, two thirds, the end, and the first crash if any) go to test-artifacts/.
"""

import os
import sqlite3
from concurrent.futures import ThreadPoolExecutor

import pytest
from kivy_driver import keep_artifacts, run_driver

from companion.journal import Journal
from companion.session import GameSession

pytestmark = pytest.mark.kivy

GAMES = ("tv-wars", "death-show-tv", "channel-won", "telly-time")
SEED = int(os.environ.get("MONKEY_SEED", "20260"))
ACTIONS = int(os.environ.get("MONKEY_ACTIONS", "250"))
#: TV Wars starts with every network's starting programming (2.3), a dialog of many taps each (its own line-up
#: behind a look-away gate): 250 random actions mostly end inside them, so it gets more.
GAME_ACTIONS = {"tv-wars": int(os.environ.get("MONKEY_ACTIONS", "400"))}


def actions(game: str) -> int:
    return GAME_ACTIONS.get(game, ACTIONS)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each game's monkey run: ``{game: (data_dir, result)}``, or the failure that ``run_driver`` raised (a
    crashed process, or an error the harness recorded), kept for that game's tests. Two run at once."""

    def run(game):
        data_dir, out_dir = tmp_path_factory.mktemp(f"data-{game}"), tmp_path_factory.mktemp(f"shots-{game}")
        try:
            result = run_driver("drive_monkey.py", data_dir, out_dir, game, str(SEED), str(actions(game)), timeout=300)
        except BaseException as failure:  # pytest.fail raises a BaseException
            return failure
        finally:
            keep_artifacts(out_dir, "monkey-*.png")
        return data_dir, result

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(GAMES, pool.map(run, GAMES)))


@pytest.fixture(params=GAMES)
def played(request, runs):
    outcome = runs[request.param]
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome


def _show(problems, result) -> str:
    """Problems with the seed and the actions leading to each, for the failure message."""
    lines = [f"{result['game']} seed {result['seed']}: {len(problems)} problem(s)"]
    for problem in problems[:3]:
        if isinstance(problem, dict):
            lines += ["after: " + " | ".join(problem["last_actions"]), problem["traceback"]]
        else:
            lines.append(problem)
    return "\n".join(lines)


def test_no_input_raised_an_exception(played):
    _, result = played
    assert result["crashes"] == [], _show(result["crashes"], result)
    assert result["exceptions"] == [], _show(result["exceptions"], result)


def test_nothing_was_logged_as_an_error(played):
    _, result = played
    assert result["logged"] == [], _show(result["logged"], result)


def test_the_monkey_played_the_game(played):
    _, result = played
    assert len(result["actions"]) == actions(result["game"])
    assert result["first_game"] == 1 and result["players"] in (2, 3)
    assert result["outcomes"]["accepted"] >= 5, result["outcomes"]  # it did more than knock on the door


def test_one_more_tap_still_works(played):
    _, result = played
    checks = result["checks"]
    assert checks["responsive"] and checks["responsive_back"], checks


def test_the_journal_passes_its_integrity_check(played):
    data_dir, result = played
    assert result["checks"]["integrity"] is None
    connection = sqlite3.connect(str(data_dir / "journal.sqlite3"))
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        connection.close()


def test_replaying_the_journal_gives_the_tables_state(played):
    data_dir, result = played
    checks = result["checks"]
    assert checks["replay_equal"], (checks.get("live_state"), checks.get("replayed_state"))
    assert checks["replay_problems"] == []
    with Journal(data_dir / "journal.sqlite3") as journal:  # after the app closed it: nothing lost
        events = journal.events(checks["game_id"])
        assert len(events) == checks["events"]
        GameSession(checks["game_id"], events)
        for game in journal.games():
            GameSession(game.id, journal.events(game.id))
