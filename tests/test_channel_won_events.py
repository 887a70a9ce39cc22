"""Channel WON's typed events (issue 15): each class goes to its journal payload and back unchanged, reads the
payloads older code wrote, and is what ``decide`` returns and ``evolve`` folds."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from table_helpers import accepted
from test_channel_won_core import play_to_phase2

from companion.errors import JournalError
from companion.events import Event, EventCodec
from companion.games.channel_won import CHANNEL_WON, PlayLocation
from companion.games.channel_won.events import (
    CODEC,
    EVENT_CLASSES,
    AbilityUsed,
    CardCollected,
    ChannelWonEvent,
    DeckReshuffled,
    GameEnded,
    GameOver,
    LeadClosed,
    LeadScored,
    LocationPlayed,
    Passed,
    PlayerDone,
    RatingDropped,
    ReportingStarted,
    RoundStarted,
    RowReplaced,
    ScoopPlayed,
    ScoreMove,
    SourcePlayed,
)

SAMPLES = [
    CardCollected(player="Ava", kind="source", from_row=True, hand=3, next="Ben"),
    CardCollected(player="Ben", kind="", from_row=False, hand=7, next=None),
    ReportingStarted(round=2, first="Ben"),
    AbilityUsed(player="Ava", character="Trey DeMark", power="Discard the Location row", phase=1, round=1),
    LocationPlayed(player="Ava", lead="Sports", location="Park", scoop=False, next="Ben"),
    LocationPlayed(player="Ben", lead="Crime", location="Security Footage", scoop=True, next=None),
    SourcePlayed(
        player="Ben",
        lead="Sports",
        category="Sports",
        source_type="Coach",
        points=2,
        bonus=False,
        from_archives=True,
        new_contributor=True,
        next="Ava",
    ),
    SourcePlayed(
        player="Ava",
        lead="Sports",
        category="Business",
        source_type="",
        points=-1,
        bonus=True,
        from_archives=False,
        new_contributor=False,
        next="Ben",
    ),
    ScoopPlayed(player="Ava", scoop="early_bird", lead="", points=0, next="Ava"),
    ScoopPlayed(player="Ben", scoop="star_witness", lead="Crime", points=2, next="Ava", new_contributor=True),
    LeadClosed(player="Ava", lead="Sports", next="Ben"),
    Passed(player="Ben", next=None),
    PlayerDone(player="Ava", passed=True, next="Ben"),
    LeadScored(
        round=1,
        lead="Sports",
        value=-1,
        parts=(("Coach", 2), ("Discredit", -2), ("Business bonus", -1)),
        reported=False,
        why="worth -1",
        moves=(ScoreMove("Ava", 0, 0, True), ScoreMove("Ben", 3, 2, False)),
        headline="Upset at the Park",
        scored=True,
        unscored="",
        contributors=("Ava", "Ben"),
        rule="Channel WON End of Round",
    ),
    RatingDropped(lead="Sports", why="worth -1", stars=4, rule="Channel WON Network Ratings"),
    RoundStarted(round=2, order=("Ben", "Ava"), reported=(("Ava", 0), ("Ben", 1)), rule="Channel WON End of Round"),
    GameOver(
        result="won",
        winners=("Ava",),
        scores={"Ava": 7, "Ben": 7},
        round=3,
        reported=(("Ava", 2), ("Ben", 1)),
        reason="Ava wins with 7 points",
        tiebreak="tied on 7 points; most Leads reported in the final round: Ava 2, Ben 1",
        rule="Channel WON Ending the Game",
    ),
    GameEnded(reason="dinner"),
    DeckReshuffled(deck="location", cards=5, rule="Channel WON Prepping the Next Round (ruling: decks)"),
    RowReplaced(row="location", discarded=5, dealt=5, rule="Channel WON Character Abilities"),
]


@dataclass(frozen=True)
class _NotChannelWon(Event):
    """An event of no Channel WON type (another game's, say)."""

    TYPE = "card_collected_elsewhere"


def test_every_event_class_has_a_sample_and_a_journal_type():
    assert {type(event) for event in SAMPLES} == set(EVENT_CLASSES)
    assert CHANNEL_WON.events is CODEC and CODEC.types == {cls.TYPE for cls in EVENT_CLASSES}
    assert all(issubclass(cls, ChannelWonEvent) for cls in EVENT_CLASSES)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: f"{e.TYPE}")
def test_an_event_goes_through_the_journal_and_back_unchanged(event):
    stored = json.loads(json.dumps(event.to_payload()))
    assert event.type == event.TYPE and event.payload == stored
    back = CODEC.decode(event.TYPE, {**stored, "by": "button"})  # the table's own key is not the event's
    assert back == event and type(back) is type(event)
    assert back.to_payload() == stored
    assert CHANNEL_WON.describe(back) == event.describe() and "{" not in event.describe()


@pytest.mark.parametrize(
    "event_type, payload, expected",
    [
        (  # an Early Bird written before scoop_played carried new_contributor
            "scoop_played",
            {"player": "Ava", "scoop": "early_bird", "lead": "", "points": 0, "next": "Ava"},
            ScoopPlayed(player="Ava", scoop="early_bird", lead="", points=0, next="Ava", new_contributor=False),
        ),
        (  # a lead_scored without headline, scored, unscored, contributors: scored means someone moved
            "lead_scored",
            {
                "round": 1,
                "lead": "Crime",
                "value": 2,
                "parts": [["Crime Source", 2]],
                "reported": False,
                "why": "not closed",
                "moves": [],
            },
            LeadScored(
                round=1, lead="Crime", value=2, parts=(("Crime Source", 2),), reported=False, why="not closed", moves=()
            ),
        ),
        (  # a game_over of Channel None carries no tiebreak
            "game_over",
            {"result": "channel_none", "winners": [], "scores": {"Ava": 0}, "round": 1, "reported": [], "reason": "x"},
            GameOver(result="channel_none", winners=(), scores={"Ava": 0}, round=1, reported=(), reason="x"),
        ),
    ],
)
def test_payloads_older_code_wrote_decode(event_type, payload, expected):
    event = CODEC.decode(event_type, payload)
    assert event == expected
    assert event.describe()


def test_an_old_lead_scored_without_scored_says_whether_anyone_moved():
    moved = CODEC.decode(
        "lead_scored",
        {
            "round": 1,
            "lead": "Crime",
            "value": 1,
            "parts": [["x", 1]],
            "reported": True,
            "why": "",
            "moves": [{"player": "Ava", "before": 0, "after": 1, "floored": False}],
        },
    )
    assert moved.scored is None and moved.contributors_scored and "scored" not in moved.to_payload()


@pytest.mark.parametrize(
    "event_type, payload",
    [
        ("card_collected", {"player": "Ava", "kind": "", "from_row": False, "hand": 1}),  # no "next"
        ("lead_scored", {"round": 1, "lead": "X", "value": 0, "parts": [], "reported": True, "why": "", "moves": [1]}),
        ("scoop_drawn", {"player": "Ava"}),
    ],
)
def test_a_payload_that_cannot_be_read_is_a_journal_error(event_type, payload):
    with pytest.raises(JournalError):
        CODEC.decode(event_type, payload)


def test_every_event_in_the_recorded_journal_decodes_to_its_class():
    path = Path(__file__).parent / "data" / "journals" / "0ace09c" / "channel-won.sqlite3"
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT type, payload FROM events").fetchall()
    own = [(t, json.loads(p)) for t, p in rows if t in CODEC.types]
    assert len({t for t, _ in own}) >= 10
    for event_type, payload in own:
        event = CODEC.decode(event_type, payload)
        assert isinstance(event, CODEC.classes[event_type])
        written = event.to_payload()  # every key the old code wrote comes back as it was
        assert {k: written[k] for k in payload if k != "by"} == {k: v for k, v in payload.items() if k != "by"}


def test_decide_returns_typed_events_and_evolve_folds_them_by_class(table):
    play_to_phase2(table)
    state = table.state
    (event,) = CHANNEL_WON.decide(state, PlayLocation(player="Ava", lead="Sports"))
    assert isinstance(event, LocationPlayed) and event.location == "" and event.next == "Ben"
    after = CHANNEL_WON.evolve(state, event)
    assert after.lead("Sports").contributors == ("Ava",) and after.turn == "Ben"
    assert after == CHANNEL_WON.evolve(state, CODEC.decode(event.TYPE, event.to_payload()))
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    assert table.state == after
    with pytest.raises(ValueError, match="cannot apply"):
        CHANNEL_WON.evolve(state, _NotChannelWon())
    assert isinstance(EventCodec(EVENT_CLASSES).decode("game_ended", {"reason": "r"}), GameEnded)
