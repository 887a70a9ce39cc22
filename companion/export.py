"""Export a game as JSON (its full history) or CSV (its figures move by move), and import a JSON export.

JSON layout (``format`` = ``"tabletop-companion-game"``, ``version`` = 1)::

    {"format": ..., "version": 1,
     "game": {"id": 3, "game": "tv-wars", "created": 1796..., "status": "open",
              "players": [{"name": "ABS", "colour": "#e53935"}, ...], "options": {...}},
     "events": [{"seq": 10, "move": 10, "time": 1796..., "type": "money_moved",
                 "payload": {...}, "schema_version": 1}, ...]}

The CSV (:func:`export_figures_csv`, every game the same way) has one row for the start and one per move in
force, in order: ``move, time (ISO 8601 UTC), what`` (the move in words, as the history screen says it) and
then each seat's figures (:meth:`companion.game.Game.figures`: TV Wars' cash and half-hours, Death Show TV's
Vitality, Channel WON's points, ...) as columns ``"<seat> <figure>"``, seats in seat order. A game may add its
own tables besides: TV Wars' bank ledger is :func:`companion.games.tv_wars.ledger.export_ledger_csv`.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

from companion.errors import JournalError
from companion.events import GAME_STARTED, SCHEMA_VERSION, EventRecord, NewEvent
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


def export_figures_csv(journal: Journal, game_id: int) -> str:
    """The CSV of game ``game_id``'s figures after each move in force (see the module docstring); raises
    :class:`companion.errors.UnknownGame` for a game the journal does not have."""
    journal.game(game_id)
    session = GameSession(game_id, journal.events(game_id))
    rules = session.rules
    state = rules.new_game(session.players, session.options)
    figures = rules.figures(state)
    seats = list(figures)
    columns = [(seat, column) for seat in seats for column in figures[seat]]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["move", "time", "what", *(f"{seat} {column}" for seat, column in columns)])
    started = journal.events(game_id)[0]

    def row(move: int | str, when: float, what: str) -> None:
        now = rules.figures(state)
        stamp = datetime.fromtimestamp(when, UTC).isoformat(timespec="seconds")
        writer.writerow([move, stamp, what, *(now.get(seat, {}).get(column, "") for seat, column in columns)])

    row(started.seq, started.time, "game started")
    for move in session.line:
        records = session.moves[move]
        for record in records:
            state = rules.evolve(state, rules.events.decode(record.type, record.payload))
        row(move, records[0].time, session.describe_move(move))
    return out.getvalue()


def import_json(journal: Journal, text: str) -> int:
    """Import a JSON export as a new game in ``journal``; return its new id.

    The events are re-journaled in order with fresh sequence numbers (undo/redo references are
    renumbered), then the game is replayed to prove it is consistent. Raises :class:`JournalError` for a
    file that is not an export or does not replay.
    """
    try:
        document: dict[str, Any] = _json(text)
    except RecursionError:
        raise JournalError("cannot import: not an export (its JSON nests thousands of levels deep)") from None
    except ValueError as error:  # json.JSONDecodeError, NaN/Infinity, or text no JSON parser can read
        raise JournalError(f"cannot import: not a JSON file ({getattr(error, 'msg', error)})") from None
    try:
        if not isinstance(document, dict):
            raise JournalError("cannot import: not an export (a JSON object is expected)")
        if document.get("format") != EXPORT_FORMAT or document.get("version") != EXPORT_VERSION:
            raise JournalError(f"not a {EXPORT_FORMAT} version {EXPORT_VERSION} file")
        game = document["game"]
        events = document["events"]
        if not events or events[0]["type"] != GAME_STARTED:
            raise JournalError("the export has no game_started event")
        begun = events[0]["payload"]
        differ = [key for key in ("game", "players", "options") if game.get(key) != begun.get(key)]
        if differ:
            raise JournalError(
                f"cannot import: the export's game summary and its game_started event disagree on "
                f"{', '.join(differ)} (an edited file?)"
            )
        for event in events:
            version = event["schema_version"]
            if not isinstance(version, int) or not 1 <= version <= SCHEMA_VERSION:
                raise JournalError(
                    f"cannot import: event #{event.get('seq')} has schema version {version!r}; this companion "
                    f"reads versions 1 to {SCHEMA_VERSION} (a newer companion wrote it?)"
                )
            moment = event["time"]
            if type(moment) not in (int, float) or not 0 <= moment <= LATEST_TIME:
                raise JournalError(
                    f"cannot import: event #{event.get('seq')} has the time {str(moment)[:40]!r}, not a time "
                    f"(Unix seconds)"
                )
        replayed = GameSession(game.get("id", 0), _records(document))  # replays cleanly before writing
        # finished or not is what the game's own rules say of the replayed state (its outcome, as the table decides
        # a game's status), never the file's word for it
        finished = replayed.rules.outcome(replayed.state) is not None
        with journal._transaction():  # all or nothing: a failure leaves no half-imported game
            started = journal.create_game(begun["game"], begun["players"], begun["options"], events[0]["time"])
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
            if finished:
                journal._db.execute("UPDATE games SET status = 'finished' WHERE id = ?", (started.game_id,))
            return started.game_id
    except KeyError as error:  # a field of the file, or a name an event refers to that the game does not have
        raise JournalError(f"cannot import: malformed export: {error.args[0]!r} is missing or unknown") from error
    except (TypeError, AttributeError) as error:  # AttributeError: a list where an object belongs
        raise JournalError(
            "cannot import: malformed export: a field holds the wrong kind of value (a list, a text or a number "
            "where another belongs)"
        ) from error
    except OverflowError:  # a number SQLite cannot store (beyond 64 bits)
        raise JournalError("cannot import: malformed export: a number too large for a saved game") from None
    except ValueError as error:
        raise JournalError(f"cannot import: malformed export: {error}") from error


#: The latest event time an import takes (Unix seconds, the year 9999): a later one is not a real time.
LATEST_TIME = 253_402_300_799


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number an export holds")


def _json(text: str) -> Any:
    """``text`` parsed as JSON, refusing ``NaN`` and ``Infinity`` (Python's json reads them; no export has them,
    and a saved game cannot store them). ValueError for anything else that is not JSON."""
    return json.loads(text, parse_constant=_no_constant)


def records_from_export(text: str) -> list[EventRecord]:
    """The event records of a JSON export, as they were (for replaying without a journal)."""
    return _records(_json(text))


def _records(document: dict[str, Any]) -> list[EventRecord]:
    game_id = document["game"]["id"]
    return [
        EventRecord(e["seq"], game_id, e["move"], e["time"], e["type"], e["payload"], e["schema_version"])
        for e in document["events"]
    ]
