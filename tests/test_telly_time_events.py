"""Telly Time's typed events (companion/games/telly_time/events.py): every event class survives the journal's
round trip (to its JSON payload and back through the game's codec, equal and with the same history line),
its payload keys are the ones journals have always had, and every row of the recorded journal decodes and
re-encodes to exactly the payload that was written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.games.telly_time import TELLY_TIME
from companion.games.telly_time.events import (
    EVENTS,
    CashChanged,
    EndGameScored,
    EndScoringStarted,
    GameEnded,
    GameOver,
    GridMarkerPlaced,
    GridSquareSet,
    LineBonusSet,
    LineCompleted,
    LineupScored,
    MogulChoicePending,
    Passed,
    PilotCardsKept,
    PilotShowChosen,
    ScoringStarted,
    SeasonStarted,
    ShowGenreChanged,
    ShowMoved,
    ShowProduced,
    ShowTotal,
    TurnEnded,
    ViewersChanged,
    WriteoffCounted,
)
from companion.games.telly_time.grid import LineBonus, TileLayout
from companion.games.telly_time.state import PilotCard, Show

RECORDED = Path(__file__).parent / "data" / "journals" / "0ace09c" / "telly-time.sqlite3"
TILE = TileLayout(
    ("Kids", "Drama", "Quiz", "Crime", "Comedy", "Reality", "Sports", "Chat", "Sci-Fi"),
    (LineBonus("Cash bonus", 3),) + (LineBonus(),) * 7,
)

#: One of each event class with the payload keys journals have held since the game was added.
SAMPLES = [
    (CashChanged("Arkady", -3, "producing Docs", "R"), {"player", "amount_m", "reason", "rule"}),
    (ViewersChanged("Kim", 2, "network card", "entered at the table"), {"player", "viewers", "reason", "rule"}),
    (
        PilotShowChosen("Arkady", "Comedy", "Laugh Track", "8pm", TILE, True),
        {"player", "genre", "name", "timeslot", "tile", "tile_entered"},
    ),
    (
        PilotShowChosen("Arkady", "Comedy", "Either", "8pm", TILE, True, ("8pm", "weekend")),
        {"player", "genre", "name", "timeslot", "tile", "tile_entered", "preferred"},
    ),
    (
        PilotShowChosen("Kim", "Chat", "Anytime", "weekend", TILE, False, ("any",)),
        {"player", "genre", "name", "timeslot", "tile", "tile_entered", "preferred"},
    ),
    (GridSquareSet("Kim", 8, "Chat"), {"player", "square", "genre"}),
    (GridSquareSet("Kim", 0, "Chat", 8, "Kids"), {"player", "square", "genre", "swapped_with", "other_genre"}),
    (GridSquareSet("Kim", 1, "Chat", 0, None), {"player", "square", "genre", "swapped_with", "other_genre"}),
    (LineBonusSet("Kim", "col2", LineBonus("Star bonus", 0, 2)), {"player", "line", "bonus"}),
    (
        PilotCardsKept("Arkady", (PilotCard("ad", "Soap Suds", 4, 0), PilotCard("star", "", 0, 1))),
        {"player", "cards"},
    ),
    (SeasonStarted(2, ("Virginia", "Arkady")), {"season", "order"}),
    (
        ShowProduced("Arkady", "weekend", Show("Docs", "Drama", "Drama", ("any",)), "Starter show"),
        {"player", "timeslot", "show", "replaced"},
    ),
    (ShowMoved("Arkady", "8pm", "weekend", "Flexible Schedule"), {"player", "from", "to", "reason"}),
    (ShowGenreChanged("Arkady", "primetime", "Kids", "Versatile Actor"), {"player", "timeslot", "genre", "reason"}),
    (GridMarkerPlaced("Kim", 1, "Drama", "Catalog Buyout", "R"), {"player", "square", "genre", "reason", "rule"}),
    (MogulChoicePending("Kim", ("col1", "diag2")), {"player", "lines"}),
    (
        LineCompleted(
            "Kim", "col1", 2, True, LineBonus("Mogul bonus: draw 2 moguls, keep 1"), "Telly Time: Mogul Bonus"
        ),
        {"player", "line", "number", "mogul", "bonus", "rule"},
    ),
    (TurnEnded("Arkady", "passed", "Virginia"), {"player", "action", "next"}),
    (Passed("Kim", "viewers", 3, True, 2), {"player", "reward", "amount", "preempted", "order"}),
    (ScoringStarted(1, "Kim", "passed"), {"season", "player", "action"}),
    (
        LineupScored(
            "Arkady",
            1,
            12,
            (("Talk", 9), ("genre grid (3 filled squares)", 3)),
            (ShowTotal("primetime", "Talk", "Chat", 9, (("show", 3), ("Chat: stars on other shows (4+2)", 6))),),
            "Telly Time: Empty & Filled Squares",
        ),
        {"player", "season", "total", "parts", "shows", "rule"},
    ),
    (EndScoringStarted(5), {"season"}),
    (EndGameScored("Kim", 1, (("Ads", 1),), "Telly Time: End-Game Scoring"), {"player", "total", "parts", "rule"}),
    (GameOver({"Arkady": 30, "Virginia": 30}, ("Arkady", "Virginia")), {"viewers", "winners"}),
    (GameEnded("called off"), {"reason"}),
    (
        WriteoffCounted(
            "Arkady",
            "primetime",
            "Talk",
            "Chat",
            9,
            (("show", 3), ("Chat: stars on other shows (4+2)", 6)),
            "Telly Time: Telly Time Clarifications, Writeoff",
        ),
        {"player", "timeslot", "name", "genre", "total", "parts", "rule"},
    ),
]


def test_every_event_class_has_a_sample():
    assert {type(event) for event, _ in SAMPLES} == set(EVENTS)
    assert set(TELLY_TIME.events.classes.values()) == set(EVENTS)


@pytest.mark.parametrize("event, keys", SAMPLES, ids=lambda v: type(v).__name__ if not isinstance(v, set) else "")
def test_an_event_round_trips_through_the_journal(event, keys):
    payload = json.loads(json.dumps(event.payload))  # what SQLite gives back
    assert set(payload) == keys
    assert event.type == type(event).TYPE
    back = TELLY_TIME.events.decode(event.type, {**payload, "by": "touch"})  # the table's key is dropped
    assert back == event and type(back) is type(event)
    assert back.payload == payload
    assert TELLY_TIME.describe(back) == TELLY_TIME.describe(event) == event.describe()
    assert not TELLY_TIME.describe(event).startswith(event.type)


def test_a_payload_missing_a_key_is_a_journal_error():
    with pytest.raises(JournalError, match="turn_ended"):
        TELLY_TIME.events.decode("turn_ended", {"player": "Kim", "action": "passed"})
    with pytest.raises(JournalError, match="no event type"):
        TELLY_TIME.events.decode("money_moved", {})


def test_every_recorded_row_decodes_and_re_encodes_to_what_was_written():
    connection = sqlite3.connect(f"file:{RECORDED}?mode=ro", uri=True)
    try:
        rows = connection.execute("SELECT type, payload FROM events ORDER BY seq").fetchall()
    finally:
        connection.close()
    seen = set()
    for event_type, text in rows:
        if event_type not in TELLY_TIME.events.types:
            continue  # the table's own rows (game_started, history_restored)
        payload = {k: v for k, v in json.loads(text).items() if k != "by"}
        event = TELLY_TIME.events.decode(event_type, payload)
        assert event.payload == payload, event_type
        seen.add(event_type)
    assert len(seen) >= 9, seen
