"""Channel WON's decks, face-up rows, discards and the card kinds in each hand (Components, Setup, Phase 1,
Inside Scoop Cards, Prepping the Next Round; ruling "Decks" in docs/rulings-channel-won.md), and the one
definition of a reported Lead (Network Ratings) shared by the warning and the scoring, through the real Table.
"""

from __future__ import annotations

import pytest
from table_helpers import accepted, event_count

from companion.commands import NewGame, PlayerSeat
from companion.games.channel_won import (
    CHANNEL_WON,
    CloseLead,
    CollectCard,
    DeclareDone,
    PlayLocation,
    PlayScoop,
    PlaySource,
    UseAbility,
)
from companion.games.channel_won.state import Piles

NAMES = CHANNEL_WON.info.default_names


def start(table, n: int = 2, **options) -> None:
    players = tuple(PlayerSeat(name) for name in NAMES[:n])
    outcome = table.execute(NewGame(game="channel-won", players=players, options=options, source="test"))
    assert outcome.accepted, outcome.message


def collect(table, kind: str, times: int = 1, from_row: bool = False) -> None:
    """The player whose turn it is collects a ``kind`` card, ``times`` turns running."""
    for _ in range(times):
        accepted(table, CollectCard(player=table.state.turn, kind=kind, from_row=from_row))


def refused(table, command, rule: str):
    before, rows = table.state, event_count(table)
    outcome = table.execute(command)
    assert not outcome.accepted, f"{command!r} was accepted"
    assert outcome.refusal.rule and rule in outcome.refusal.rule, outcome.refusal
    assert table.state == before and event_count(table) == rows
    return outcome.refusal


def notes(table) -> list[str]:
    return list(table.view().notes)


@pytest.mark.parametrize(("n", "sources"), [(2, 24), (3, 30), (4, 30), (5, 36), (6, 36)])
def test_setup_deals_the_decks_and_rows_of_five(table, n, sources):
    """Components: 6 Source Cards of each category in play, 12 Location Cards, 24 Inside Scoops; Setup: five
    of the Sources and five Locations face up in a row."""
    start(table, n)
    assert table.state.piles == Piles(
        source_deck=sources - 5, source_row=5, location_deck=7, location_row=5, scoop_deck=24
    )
    assert f"Decks: Sources {sources - 5} + 5 face up, Locations 7 + 5 face up, Inside Scoops 24" in notes(table)[1]


def test_phase1_a_face_up_card_is_replenished_from_its_deck_and_hands_hold_kinds(table):
    """Phase 1: "collect either a face up card from the Location or Source row, then replenish the row with a
    new card from the respective deck, or ... draw the top card from any of the three decks"."""
    start(table, 2)
    collect(table, "location", from_row=True)  # Ava
    collect(table, "source")  # Ben
    collect(table, "scoop")  # Ava
    accepted(table, CollectCard(player="Ben"))  # the seat button: kind not said
    piles = table.state.piles
    assert (piles.location_deck, piles.location_row) == (6, 5)
    assert (piles.source_deck, piles.source_row, piles.scoop_deck) == (18, 5, 23)
    ava, ben = table.state.reporters
    assert (ava.hand, ava.locations, ava.sources, ava.scoops, ava.unknown) == (2, 1, 0, 1, 0)
    assert (ben.hand, ben.sources, ben.unknown) == (2, 1, 1)
    assert dict(CHANNEL_WON.private_view(table.state, "Ben").items)["Cards by kind"] == "1 Source, 1 of kind not said"
    refused(table, CollectCard(player="Ava", kind="scoop", from_row=True), "Phase 1")  # no Inside Scoop row


def test_an_empty_deck_without_discards_leaves_the_row_then_nothing(table):
    """Phase 1 with the Location deck empty: the row is taken but no longer replenished; an empty deck and
    row refuse a Location."""
    start(table, 2)
    collect(table, "location", times=7)  # the deck's seven
    assert table.state.piles.location_deck == 0
    refused(table, CollectCard(player=table.state.turn, kind="location"), "Phase 1")
    assert "Location deck empty, no discards: take from the face-up row (5 left)" in notes(table)
    collect(table, "location", times=5, from_row=True)
    assert table.state.piles.location_row == 0
    refused(table, CollectCard(player=table.state.turn, kind="location", from_row=True), "Phase 1")
    assert any(note.startswith("No Location cards left to collect this round") for note in notes(table))


def test_trey_demark_replaces_the_location_row_then_the_discards_are_reshuffled(table):
    """Trey DeMark (Phase 1): "Discard and replace all of the face up cards in the Location row". When the
    Location deck is then empty, the companion says to reshuffle the discards (ruling Decks) and records the
    reshuffle when the next Location is taken from the deck."""
    start(table, 2, characters={"Ava": "Trey DeMark"})
    over = accepted(table, UseAbility(player="Ava"))
    assert [r.type for r in over.records] == ["ability_used", "row_replaced"]
    assert table.state.piles.location_deck == 2 and table.state.piles.location_discard == 5
    assert table.state.piles.location_row == 5
    collect(table, "location", times=2)
    assert table.state.piles.location_deck == 0
    notice = "Location deck empty: reshuffle the 5 discards (rule: Channel WON Prepping the Next Round; ruling Decks)"
    assert any(note.startswith(notice) for note in notes(table))
    drawn = accepted(table, CollectCard(player=table.state.turn, kind="location"))
    assert [r.type for r in drawn.records] == ["deck_reshuffled", "card_collected"]
    assert table.state.piles.location_deck == 4 and table.state.piles.location_discard == 0
    assert not any("deck empty" in note for note in notes(table))
    assert any("shuffled into a new deck" in entry.text for entry in table.history()), table.history()[-3:]


def test_a_play_needs_a_card_of_its_kind_and_inside_scoops_are_discarded(table):
    """Phase 2 plays a card "from their hand": a Location needs a Location card (when the hand's kinds are
    known); a played Inside Scoop goes to the discard pile; Library Archives takes its Source from the row,
    which is replenished from the Source deck."""
    start(table, 2, categories=["Politics", "Crime", "Business", "Sports"])
    collect(table, "scoop", times=12)
    collect(table, "source", times=2)  # Ava 6 scoops + 1 Source, Ben the same
    assert table.state.phase == 2 and table.state.turn == "Ava"
    refused(table, PlayLocation(player="Ava", lead="Sports"), "Phase 2")
    accepted(table, PlayScoop(player="Ava", scoop="security_footage", lead="Sports"))
    accepted(table, PlayScoop(player="Ben", scoop="star_witness", lead="Sports"))
    before = table.state.piles
    accepted(table, PlaySource(player="Ava", lead="Sports", value=2, from_archives=True))
    piles = table.state.piles
    assert (piles.source_row, piles.source_deck) == (5, before.source_deck - 1)
    assert piles.scoop_discard == 3 and table.state.reporter("Ava").scoops == 4
    assert table.state.reporter("Ava").sources == 1


def test_prepping_the_next_round_shuffles_sources_and_locations_back_but_not_inside_scoops(table):
    """Prepping the Next Round: "Shuffle both the Source and Location Cards, then flip up five new cards from
    each deck"; Inside Scoops "played or discarded between rounds ... are not shuffled back into the game"."""
    start(table, 2)
    collect(table, "scoop", times=10)
    collect(table, "location", times=2, from_row=True)
    collect(table, "source", times=2)
    accepted(table, PlayScoop(player="Ava", scoop="security_footage", lead="Politics"))
    while table.state.round == 1:
        accepted(table, DeclareDone(player=table.state.turn))
    assert table.state.piles == Piles(
        source_deck=19, source_row=5, location_deck=7, location_row=5, scoop_deck=14, scoop_discard=10
    )
    collect(table, "scoop", times=14)
    assert table.state.piles.scoop_deck == 0 and table.state.phase == 2
    assert not any(note.startswith("Inside Scoop deck empty") for note in notes(table))  # said in Phase 1 only


def test_an_empty_inside_scoop_deck_is_not_refilled(table):
    """Inside Scoop Cards: discards "are not shuffled back into the game": with the deck empty an Inside
    Scoop is refused in Phase 1 and the companion says why."""
    start(table, 2)
    collect(table, "scoop", times=14)
    while table.state.round == 1:
        accepted(table, DeclareDone(player=table.state.turn))
    collect(table, "scoop", times=10)
    assert table.state.piles.scoop_deck == 0 and table.state.piles.scoop_discard == 14
    refused(table, CollectCard(player=table.state.turn, kind="scoop"), "Channel WON Inside Scoop Cards")
    assert any(note.startswith("Inside Scoop deck empty: its discards are not shuffled back") for note in notes(table))


@pytest.mark.parametrize("score_open_leads", [False, True])
def test_reported_is_one_definition_for_the_warning_and_the_scoring(table, score_open_leads):
    """Network Ratings: "a Lead that is not closed or has a score of zero or less" is unreported, and one
    Source is required (Sources). The Leads the warning counts at risk just before the round ends are exactly
    the ones the scoring calls unreported, for the same reasons, each costing one star (also under the
    house rule scoring open Leads)."""
    start(table, 2, score_open_leads=score_open_leads)  # Politics, Crime, Business, Entertainment
    while table.state.phase == 1:
        accepted(table, CollectCard(player=table.state.turn))
    for command in (
        PlayLocation(player="Ava", lead="Politics"),  # Politics: reported
        PlaySource(player="Ben", lead="Politics", value=2),
        CloseLead(player="Ava", lead="Politics"),
        PlayLocation(player="Ben", lead="Crime"),  # Crime: closed, worth 0
        PlaySource(player="Ava", lead="Crime", value=2),
        CloseLead(player="Ben", lead="Crime"),
        PlayScoop(player="Ava", scoop="discredit", lead="Crime"),
        PlayLocation(player="Ben", lead="Business"),  # Business: a Source, never closed
        PlaySource(player="Ava", lead="Business", value=1),
        CloseLead(player="Ben", lead="Entertainment"),  # Entertainment: closed without a Source
        DeclareDone(player="Ava"),
    ):
        accepted(table, command)
    at_risk = {lead.category: lead.why_unreported() for lead in table.state.at_risk}
    assert at_risk == {"Crime": "worth 0", "Business": "not closed", "Entertainment": "closed without a Source"}
    assert all(lead.reported == (lead.category not in at_risk) for lead in table.state.lineup)
    ended = accepted(table, DeclareDone(player="Ben")).records
    scored = {r.payload["lead"]: r.payload for r in ended if r.type == "lead_scored"}
    assert {lead: p["why"] for lead, p in scored.items() if not p["reported"]} == at_risk
    assert [r.payload["lead"] for r in ended if r.type == "rating_dropped"] == list(at_risk)
    assert table.state.stars == 5 - len(at_risk)
