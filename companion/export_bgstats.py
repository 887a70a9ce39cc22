"""Export a finished game as a play for the BG Stats app (Board Game Stats, by Eerko Vissering).

Format: the JSON "play" document of BG Stats' own documentation, *Push plays to BG Stats from other apps or
websites* (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/): the app's
import dialog reads it (url-encoded as the ``data`` of its add-play link, which this module does not build) and
matches games by ``game.bggId`` or ``game.name`` and players by name. The documented fields are
:data:`PLAY_FIELDS`, :data:`GAME_FIELDS` and :data:`PLAYER_FIELDS`; this module writes nothing else::

    {"sourceName": "Tabletop Companion", "sourcePlayId": "tv-wars-3-1796500000",
     "playDate": "2026-12-01 19:16:58", "durationMin": 95, "board": "",
     "comments": "ABS $41,500 wins: the most money (TV Wars 8) | ABS cash 41500, half_hours 18, ...",
     "game": {"name": "TV Wars", "bggId": 1031, "highestWins": true, "noPoints": false,
              "sourceGameId": "tv-wars"},
     "players": [{"name": "ABS", "sourcePlayerId": "ABS", "score": 41500, "winner": true, "rank": 1}, ...]}

Shapes and units:

* ``playDate`` is the game's start (its ``game_started`` event) in the Pi's local time, ``YYYY-MM-DD HH:MM:SS``
  as in the documentation's example (which names no time zone);
* ``durationMin`` is whole minutes (rounded) from the start to the last move in force (the move that finished it);
* ``score`` is the outcome's own final score where the rules count one (TV Wars 8: the asset totals, dollars),
  else the figure the game's :attr:`companion.game.GameInfo.score` names (TV Wars' cash when the table ended it,
  Channel WON's points, Telly Time's viewers); a game without points (Death Show TV: the last Contestant standing) has
  ``noPoints`` true and no scores. Every seat's final figures are in ``comments`` after the outcome's reason;
* ``rank`` follows the outcome's ranking (tied winners all rank 1) and is left out where the rules give no order;
* ``bggId`` is left out for a game with no BoardGameGeek id (:attr:`GameInfo.bgg_id` is ``None``);
* ``startPlayer`` and ``role`` are documented but left out: the contract does not say who started.

Only the journal's game record (names, start), the game's static facts and its :class:`companion.game.Outcome`
(public figures) are read: options, colours, event payloads, private views and any secret a front-end keeps
(pairing tokens) never reach the file. An unfinished game is refused with :class:`GameNotFinished`.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from companion.errors import CommandError
from companion.journal import Journal
from companion.session import GameSession

SOURCE_NAME = "Tabletop Companion"

#: The documented fields of a play, of its ``game`` and of each of its ``players``: every key of the format
#: example on BG Stats' page *Push plays to BG Stats from other apps or websites* (its two stored versions; the
#: later one adds ``comments`` and ``location``).
PLAY_FIELDS = frozenset(
    {"sourceName", "sourcePlayId", "playDate", "durationMin", "board", "comments", "location", "game", "players"}
)
GAME_FIELDS = frozenset({"name", "bggId", "highestWins", "noPoints", "sourceGameId"})
PLAYER_FIELDS = frozenset({"name", "sourcePlayerId", "score", "winner", "rank", "role", "startPlayer"})


class GameNotFinished(CommandError):
    """The game has no outcome yet: BG Stats logs finished plays only."""


def bgstats_play(journal: Journal, game_id: int) -> dict[str, Any]:
    """The BG Stats play document of finished game ``game_id`` (see the module docstring). Raises
    :class:`companion.errors.UnknownGame` for a game the journal does not have and :class:`GameNotFinished`
    for one still being played (nothing is written anywhere either way)."""
    record = journal.game(game_id)
    session = GameSession(game_id, journal.events(game_id))
    rules = session.rules
    info = rules.info
    outcome = rules.outcome(session.state)
    if outcome is None:
        raise GameNotFinished(
            f"game #{game_id} ({info.title}) is not finished: BG Stats logs finished plays only "
            "(finish it, or End game on the History screen, first)"
        )
    started = session.started.time
    ended = session.moves[session.line[-1]][0].time if session.line else started
    seats = [p.name for p in session.players]
    scores = dict(outcome.scores) if outcome.scores else _scores(outcome.figures, seats, info.score)
    game: dict[str, Any] = {
        "name": info.title,
        "highestWins": True,  # every registered game: the most money, points or viewers wins, or the last standing
        "noPoints": not scores,
        "sourceGameId": info.name,
    }
    if info.bgg_id is not None:
        game["bggId"] = info.bgg_id
    ranks = _ranks(outcome.ranking, outcome.winners)
    players = []
    for seat in seats:
        player: dict[str, Any] = {"name": seat, "sourcePlayerId": seat, "winner": seat in outcome.winners}
        if scores:
            player["score"] = scores[seat]
        if seat in ranks:
            player["rank"] = ranks[seat]
        players.append(player)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{info.name}-{record.id}-{int(record.created)}",
        "playDate": datetime.fromtimestamp(started).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(0, round((ended - started) / 60)),
        "board": "",
        "comments": f"{outcome.reason} | {_figures_text(outcome.figures, seats)}",
        "game": game,
        "players": players,
    }


def export_bgstats(journal: Journal, game_id: int) -> str:
    """:func:`bgstats_play` as JSON text (UTF-8, indented); errors as for it."""
    return json.dumps(bgstats_play(journal, game_id), indent=2, ensure_ascii=False)


def _scores(figures, seats: list[str], column: str) -> dict[str, int]:
    """Each seat's ``column`` figure, or ``{}`` when the game names none or a seat's is not a number."""
    if not column:
        return {}
    values = {seat: figures.get(seat, {}).get(column) for seat in seats}
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values.values()):
        return {}
    return values


def _ranks(ranking: tuple[str, ...], winners: tuple[str, ...]) -> dict[str, int]:
    """1-based places from the outcome's ranking; tied winners all rank 1; ``{}`` without a ranking."""
    return {seat: 1 if seat in winners else place for place, seat in enumerate(ranking, 1)}


def _figures_text(figures, seats: list[str]) -> str:
    """``"ABS cash 41500, half_hours 18; CBA ..."``: every seat's final figures in one line."""
    return "; ".join(
        f"{seat} " + ", ".join(f"{column} {value}" for column, value in figures.get(seat, {}).items()) for seat in seats
    )
