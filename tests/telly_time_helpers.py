"""Shared set-ups for the Telly Time tests (rules/the-networks-telly-time.txt).

Two tiles are entered through the ``tiles`` option, shaped so that the rulebook's examples happen:

Arkady's tile (centre Comedy)::           Virginia's tile (centre Reality)::

    Kids   Drama   Quiz                       Drama  Sports  Comedy
    Crime  Comedy  Reality                    Kids   Reality Quiz
    Sports Chat    Sci-Fi                     Chat   Crime   Sci-Fi

Arkady's middle column (Drama, Comedy, Chat) pays "Draw 2 stars, sign 1 free" (the drama example);
Virginia's left column pays "Network bonus" and her top-right diagonal "Wild bonus" (the column and
diagonal example).
"""

from __future__ import annotations

from table_helpers import accepted, event_count

from companion.commands import NewGame, PlayerSeat
from companion.games.telly_time import TELLY_TIME, ChoosePilotShow, KeepPilotCards, PilotCard, StartSeason

PLAYERS = ("Arkady", "Virginia")
COLOURS = ("#e53935", "#1e88e5")

ARKADY_TILE = {
    "squares": ["Kids", "Drama", "Quiz", "Crime", "Comedy", "Reality", "Sports", "Chat", "Sci-Fi"],
    "bonuses": {
        "col2": {"label": "Draw 2 stars, sign 1 free"},
        "row1": {"label": "Cash bonus", "cash_m": 3},
        "row3": {"label": "Ratings", "viewers": 2},
        "diag1": {"label": "Ad bonus", "cash_m": 2, "viewers": 1},
    },
}
VIRGINIA_TILE = {
    "squares": ["Drama", "Sports", "Comedy", "Kids", "Reality", "Quiz", "Chat", "Crime", "Sci-Fi"],
    "bonuses": {
        "col1": {"label": "Network bonus"},
        "diag2": {"label": "Wild bonus", "viewers": 1},
        "row1": {"label": "Star bonus"},
    },
}
TILES = {"Comedy": ARKADY_TILE, "Reality": VIRGINIA_TILE}


def by_kind(table, seat):
    """The seat's legal commands (the game contract's ``legal_commands``) by their ``kind``."""
    return {c.kind: c for c in TELLY_TIME.legal_commands(table.state, seat)}


def seats(names=PLAYERS):
    """Player seats for ``names``."""
    return tuple(PlayerSeat(name, colour) for name, colour in zip(names, COLOURS * 3))


def refused(table, command, error: type[Exception]):
    """Execute ``command``; assert it is refused with ``error``, changes no state, journals nothing."""
    before_state, before_count = table.state, event_count(table)
    outcome = table.execute(command)
    assert not outcome.accepted, f"{command!r} was accepted: {outcome.message}"
    assert isinstance(outcome.refusal, error), repr(outcome.refusal)
    assert outcome.records == ()
    assert table.state == before_state
    assert event_count(table) == before_count, "a refused command wrote to the journal"
    return outcome.refusal


def start(table, names=PLAYERS, **options) -> int:
    """Start a Telly Time game (tiles entered by default); return its game id."""
    options.setdefault("tiles", TILES)
    outcome = accepted(table, NewGame(game="telly-time", players=seats(names), options=options, source="test"))
    return outcome.records[0].game_id


def pilot(
    table,
    cards=(
        (PilotCard("ad", "Soap Suds", 4, 0), PilotCard("star", "Big Name", 0, 1)),
        (PilotCard("ad", "Cola", 3, 0), PilotCard("ad", "Cars", 2, 0)),
    ),
):
    """The Pilot Season for Arkady (Comedy, 8 PM) and Virginia (Reality, late night), then season 1."""
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm", name="Laugh Track"))
    accepted(table, ChoosePilotShow(player="Virginia", genre="Reality", timeslot="late_night", name="Island"))
    accepted(table, KeepPilotCards(player="Arkady", cards=cards[0]))
    accepted(table, KeepPilotCards(player="Virginia", cards=cards[1]))
    accepted(table, StartSeason())


def started(table, names=PLAYERS, **options) -> int:
    """A game in season 1 with Arkady to play (Arkady $3M, Virginia $5M)."""
    game_id = start(table, names, **options)
    pilot(table)
    return game_id
