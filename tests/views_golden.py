"""Everything a game shows, move by move over a recorded game, against a reviewed record (issue 19: tests strong
enough that a careless change cannot pass).

The rules tests check what the rules decide; mutation testing (``tools/mutation.py``, ``docs/mutation.md``)
showed that a careless change to a text or figure a player reads (a view's label, a refusal's reason, a track's
rule, a button's meaning) passed them: they check a few words in a few places. This replays each game's recorded
journal (``tests/data/journals/<version>/<game>.sqlite3``: undos, redos, jumps, every phase) through a real
:class:`companion.session.GameSession` and after every move records, through the game contract only
(``companion/game.py``): the move's descriptions, ``public_view``, each seat's ``private_view`` and
``legal_commands`` (labels, reasons, rules, the complete commands), ``pending_dice``, ``figures``, ``outcome``
and what each seat button would post (``button_command``, or its refusal). The record is compared with
``tests/data/golden/<game>-views.json.xz`` and the first move that differs is shown as a diff.

A deliberate change to what players see regenerates the record:
``COMPANION_UPDATE_GOLDEN=1 ./run-tests tests/test_<game>_views.py``, and the diff of the record is reviewed
like code (``xzcat`` it). A record written from the code under review would pass anything, so the update is
never automatic: without the variable a missing record fails.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import json
import lzma
import os
import shutil
from fractions import Fraction
from itertools import groupby
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.events import HISTORY_RESTORED
from companion.games import find_game
from companion.journal import Journal
from companion.session import GameSession

DATA = Path(__file__).parent / "data"
GOLDEN = DATA / "golden"
UPDATE = os.environ.get("COMPANION_UPDATE_GOLDEN") == "1"


def canonical(value: Any) -> Any:
    """``value`` as JSON: a dataclass as its class name and fields, tuples as lists, mappings with string keys,
    fractions and anything else by ``repr``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"_": type(value).__name__, **fields}
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(canonical(item) for item in value)
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(key): canonical(item) for key, item in value.items()}
    if isinstance(value, Fraction):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _outcome(call) -> Any:
    try:
        return canonical(call())
    except CompanionError as error:
        return f"refused: {error}"


def offers(legal) -> list[str]:
    """Each legal command in one line (a game may offer hundreds of complete commands: a Channel WON hand's every
    play): kind, label, whether enabled, the reason and rule when not, the complete command's ``repr``."""
    return [
        " | ".join((o.kind, o.label, "on" if o.enabled else "off", o.reason, o.rule, repr(o.command))) for o in legal
    ]


def describe(session: GameSession, record) -> str:
    """A move's event as the history shows it, an undo/redo/jump as its entry."""
    if record.type == HISTORY_RESTORED:
        return session.describe_entry(record)
    return session.describe_record(record)


def record_of(game: str, folder: Path) -> list[dict]:
    """The step-by-step record of ``game``'s recorded journal (opened from a copy in ``folder``)."""
    source = max(DATA.glob(f"journals/*/{game}.sqlite3"))
    copy = folder / source.name
    shutil.copyfile(source, copy)
    journal = Journal(copy)
    try:
        game_id = journal._db.execute("SELECT id FROM games WHERE game = ? ORDER BY id LIMIT 1", (game,)).fetchone()[0]
        records = journal.events(game_id)
    finally:
        journal.close()
    rules = find_game(game)
    session = GameSession(game_id, records[:1])
    actions = [slot.action for slot in rules.info.buttons]
    steps = []
    for move, group in groupby(records[1:], key=lambda record: record.move):
        taken = list(group)
        session.take(taken)
        state = session.state
        public = rules.public_view(state)
        seats = [player.name for player in public.players]
        steps.append(
            {
                "move": move,
                "events": [f"{record.type}: {describe(session, record)}" for record in taken],
                "public": canonical(public),
                "private": {seat: _outcome(lambda seat=seat: rules.private_view(state, seat)) for seat in seats},
                "legal": {
                    seat: _outcome(lambda seat=seat: offers(rules.legal_commands(state, seat))) for seat in seats
                },
                "dice": _outcome(lambda: rules.pending_dice(state)),
                "figures": _outcome(lambda: rules.figures(state)),
                "outcome": _outcome(lambda: rules.outcome(state)),
                "buttons": {
                    seat: {
                        action: _outcome(lambda seat=seat, action=action: rules.button_command(action, seat))
                        for action in actions
                    }
                    for seat in seats
                },
            }
        )
    return steps


def check_golden(game: str, folder: Path) -> None:
    """Assert that ``game``'s record equals the reviewed one (or write it, with ``COMPANION_UPDATE_GOLDEN=1``)."""
    got = record_of(game, folder)
    path = GOLDEN / f"{game}-views.json.xz"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        text = json.dumps(got, indent=1, sort_keys=True, ensure_ascii=False)
        path.write_bytes(lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME))  # ~15 KB, not ~2-7 MB
        return
    assert path.is_file(), f"no reviewed record {path}: write it with COMPANION_UPDATE_GOLDEN=1 and review it"
    expected = json.loads(lzma.decompress(path.read_bytes()))
    assert len(got) == len(expected), f"{len(got)} moves replayed, the record has {len(expected)}"
    for number, (now, then) in enumerate(zip(got, expected)):
        if now != then:
            diff = difflib.unified_diff(
                json.dumps(then, indent=1, sort_keys=True, ensure_ascii=False).splitlines(),
                json.dumps(now, indent=1, sort_keys=True, ensure_ascii=False).splitlines(),
                "reviewed",
                "now",
                lineterm="",
                n=2,
            )
            shown = "\n".join(list(diff)[:80])
            raise AssertionError(f"{game}: after move #{then['move']} (step {number}) what it shows changed:\n{shown}")
