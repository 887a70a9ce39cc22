"""Export a game as JSON (its full history) or CSV (its bank ledger), and import a JSON export.

JSON layout (``format`` = ``"tabletop-companion-game"``, ``version`` = 1)::

    {"format": ..., "version": 1,
     "game": {"id": 3, "game": "tv-wars", "created": 1796..., "status": "open",
              "players": [{"name": "ABS", "colour": "#e53935"}, ...], "options": {...}},
     "events": [{"seq": 10, "move": 10, "time": 1796..., "type": "money_moved",
                 "payload": {...}, "schema_version": 1}, ...]}

The CSV ledger has one row per ``money_moved`` event: ``seq, time (ISO 8601 UTC), payer, payee,
amount_dollars, reason, rule, in_force, move`` (``in_force`` is ``no`` for a movement that has been
undone; ``move`` is the history entry number shown on the screen, shared by a command's events).
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

from companion.bank import MONEY_MOVED
from companion.errors import JournalError
from companion.events import GAME_STARTED, EventRecord, NewEvent
from companion.journal import Journal
from companion.session import GameSession

EXPORT_FORMAT = "tabletop-companion-game"
EXPORT_VERSION = 1


def export_json(journal: Journal, game_id: int) -> str:
    """The JSON export of game ``game_id`` (raises :class:`companion.errors.UnknownGame`)."""
    game = journal.game(game_id)
    events = journal.events(game_id)
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": {
            "id": game.id,
            "game": game.game,
            "created": game.created,
            "status": game.status,
            "players": game.players,
            "options": game.options,
        },
        "events": [
            {
                "seq": e.seq,
                "move": e.move,
                "time": e.time,
                "type": e.type,
                "payload": dict(e.payload),
                "schema_version": e.schema_version,
            }
            for e in events
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def export_ledger_csv(journal: Journal, game_id: int) -> str:
    """The CSV bank ledger of game ``game_id`` (see the module docstring)."""
    events = journal.events(game_id)
    session = GameSession(game_id, events)
    in_force = set(session.line)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["seq", "time", "payer", "payee", "amount_dollars", "reason", "rule", "in_force", "move"])
    for event in events:
        if event.type == MONEY_MOVED:
            p = event.payload
            when = datetime.fromtimestamp(event.time, UTC).isoformat(timespec="seconds")
            writer.writerow(
                [
                    event.seq,
                    when,
                    p["payer"],
                    p["payee"],
                    p["amount"],
                    p["reason"],
                    p.get("rule", ""),
                    "yes" if event.move in in_force else "no",
                    event.move,
                ]
            )
    return out.getvalue()


def import_json(journal: Journal, text: str) -> int:
    """Import a JSON export as a new game in ``journal``; return its new id.

    The events are re-journaled in order with fresh sequence numbers (undo/redo references are
    renumbered), then the game is replayed to prove it is consistent. Raises :class:`JournalError` for a
    file that is not an export or does not replay.
    """
    try:
        document: dict[str, Any] = json.loads(text)
        if document.get("format") != EXPORT_FORMAT or document.get("version") != EXPORT_VERSION:
            raise JournalError(f"not a {EXPORT_FORMAT} version {EXPORT_VERSION} file")
        game = document["game"]
        events = document["events"]
        if not events or events[0]["type"] != GAME_STARTED:
            raise JournalError("the export has no game_started event")
        GameSession(game.get("id", 0), records_from_export(text))  # replays cleanly before writing
        with journal._transaction():  # all or nothing: a failure leaves no half-imported game
            started = journal.create_game(game["game"], game["players"], game["options"], events[0]["time"])
            renumber = {events[0]["seq"]: started.seq}
            moves: dict[int, list[dict]] = {}
            for event in events[1:]:
                moves.setdefault(event["move"], []).append(event)
            for old_move, group in moves.items():
                new_events = []
                for event in group:
                    payload = dict(event["payload"])
                    if event["type"] == "history_restored":
                        for key in ("append", "undone", "redone"):
                            payload[key] = [renumber[m] for m in payload[key]]
                        if "to" in payload:
                            payload["to"] = renumber[payload["to"]]
                    new_events.append(NewEvent(event["type"], payload))
                records = journal.append(started.game_id, new_events, group[0]["time"])
                for event, record in zip(group, records):
                    renumber[event["seq"]] = record.seq
                renumber[old_move] = records[0].move
            GameSession(started.game_id, journal.events(started.game_id))
            if game.get("status") == "finished":
                journal._db.execute("UPDATE games SET status = 'finished' WHERE id = ?", (started.game_id,))
            return started.game_id
    except (KeyError, TypeError, ValueError, AttributeError) as error:  # AttributeError: a list for an object
        raise JournalError(f"cannot import: malformed export ({error!r})") from error


def records_from_export(text: str) -> list[EventRecord]:
    """The event records of a JSON export, as they were (for replaying without a journal)."""
    document = json.loads(text)
    game_id = document["game"]["id"]
    return [
        EventRecord(e["seq"], game_id, e["move"], e["time"], e["type"], e["payload"], e["schema_version"])
        for e in document["events"]
    ]
