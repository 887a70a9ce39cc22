"""Channel WON: tests written on reviewing the mutation run's survivors (issue 19; docs/mutation.md). Each
pins down a player-visible word or message that a careless change could alter unnoticed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest
from table_helpers import accepted
from test_channel_won_core import (
    CATALOGUE,
    collect_all,
    everyone_done,
    play_round,
    play_to_phase2,
    refused,
    seats,
    start,
)

from companion.commands import NewGame
from companion.errors import BadOption
from companion.events import Event
from companion.games.channel_won import (
    CHANNEL_WON,
    CloseLead,
    CollectCard,
    DeclareDone,
    Pass,
    PlayLocation,
    PlayScoop,
    PlaySource,
)
from companion.games.channel_won.cards import (
    CatalogueError,
    LeadCard,
    leads_option,
    load_catalogue,
    parse_catalogue,
)
from companion.games.channel_won.view import stars_text


def short(table, command) -> str:
    outcome = table.execute(command)
    assert not outcome.accepted, outcome.message
    return outcome.refusal.short


def test_refusals_short_words_phase2_closed_and_no_cards(table):
    """Phase 1 ends when hands are full; Closing a Lead ("no more contributors"); Phase 2 ("no cards left"):
    the few words on a disabled button must stay the rulebook's, not be dropped or altered."""
    play_to_phase2(table)
    assert short(table, CollectCard(player="Ava")) == "Phase 2 has begun"
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, CloseLead(player="Ben", lead="Sports"))
    assert short(table, PlaySource(player="Ava", lead="Sports", value=2)) == "Lead is closed"
    accepted(table, CloseLead(player="Ava", lead="Crime"))
    assert short(table, PlayLocation(player="Ben", lead="Crime")) == "Lead is closed"
    accepted(table, DeclareDone(player="Ben"))
    for category in ("Business", "Fluff"):
        accepted(table, PlayLocation(player="Ava", lead=category))
    while table.state.reporter("Ava").hand:
        accepted(table, PlaySource(player="Ava", lead="Business", value=1))
    assert short(table, PlaySource(player="Ava", lead="Business", value=1)) == "no cards left"


def test_catalogue_error_default_source_and_unknown_bonus_category():
    """A Bonus Source of no category in play: the problem says why, from the category check."""
    with pytest.raises(CatalogueError) as caught:
        parse_catalogue("[[lead]]\ncategory = 'Sports'\nbonus = { Weather = 1 }\n")
    assert str(caught.value).startswith("<catalogue>: lead[1].bonus.Weather: ")
    assert isinstance(caught.value.problem, str) and "Weather" in caught.value.problem


def test_catalogue_missing_file_message(tmp_path):
    """A file that cannot be read: "<path>: cannot read it: <reason>", no empty key between."""
    path = tmp_path / "missing.toml"
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(path)
    assert str(caught.value) == f"{path}: cannot read it: No such file or directory (table rule)"


def test_stars_text_shows_five_stars():
    """Network Ratings: the five-star track, filled and empty stars, never beyond five."""
    assert stars_text(3) == "★★★☆☆"
    assert stars_text(9) == "★★★★★" and stars_text(-1) == "☆☆☆☆☆"


def bad_option(table, n=2, **options) -> BadOption:
    outcome = table.execute(NewGame(game="channel-won", players=seats(n), options=options, source="test"))
    assert not outcome.accepted and isinstance(outcome.refusal, BadOption), outcome.message
    return outcome.refusal


def test_bad_options_say_what_is_wrong(table):
    """Setup: three Lead cards per category, different Characters, the first player among the players."""
    four = ["Sports", "Business", "Fluff", "Crime"]
    error = bad_option(table, categories=four, leads={"Weather": []})
    assert error.option == "leads" and "Weather" in error.problem
    error = bad_option(table, categories=four, leads={"Sports": "abc"})
    assert error.problem == "Sports needs a list of 3 Lead cards (Setup)"
    error = bad_option(table, categories=four, leads={"Sports": [{"category": "Sports", "headline": 3}] * 3})
    assert error.option == "leads" and "headline" in error.problem
    error = bad_option(table, categories=four, characters={"Ava": 3})
    assert error.option == "characters"
    error = bad_option(table, categories=four, first_player="Zed")
    assert error.problem == "'Zed' is not a player; players are Ava, Ben"


def test_channel_none_game_over_names_its_round(table):
    """Network Ratings: below one star the game ends at once; the journal's game_over says in which round."""
    play_to_phase2(table, n=5)
    last = everyone_done(table)[-1]
    assert last.records[-1].type == "game_over" and last.records[-1].payload["round"] == 1


def test_location_deck_and_row_run_out_refusals(table):
    """Phase 1 and ruling "Decks": a deck with no discards cannot be drawn from ("deck empty", the row's count
    said while it has cards); an empty row cannot be collected from ("row empty")."""
    start(table, 2)
    for _ in range(7):
        accepted(table, CollectCard(player=table.state.turn, kind="location"))
    outcome = table.execute(CollectCard(player=table.state.turn, kind="location"))
    assert outcome.refusal.short == "deck empty"
    assert str(outcome.refusal).startswith("the Location deck is empty and has no discards; 5 face up in the row")
    for _ in range(5):
        accepted(table, CollectCard(player=table.state.turn, kind="location", from_row=True))
    outcome = table.execute(CollectCard(player=table.state.turn, kind="location"))
    assert str(outcome.refusal).startswith("the Location deck is empty and has no discards (")
    assert short(table, CollectCard(player=table.state.turn, kind="location", from_row=True)) == "row empty"


# -- the second review (docs/mutation.md: the 19 "not yet reviewed") ------------------------------------------


def test_early_bird_with_no_cards_left(table):
    """Early Bird is an Inside Scoop played from the hand ("Discard this card after playing"): with the hand
    empty it is refused in the same few words as any other play ("no cards left")."""
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Business"))
    accepted(table, DeclareDone(player="Ben"))
    while table.state.reporter("Ava").hand:
        accepted(table, PlaySource(player="Ava", lead="Business", value=1))
    assert short(table, PlayScoop(player="Ava", scoop="early_bird")) == "no cards left"


def test_inside_scoop_deck_runs_out_refusal_says_why(table):
    """Inside Scoop Cards: "After Inside Scoops are played or discarded ... they are not shuffled back into the
    game". Four players collect all 24: the 25th is refused with the reason in words."""
    start(table, 4)
    for _ in range(24):
        accepted(table, CollectCard(player=table.state.turn, kind="scoop"))
    error = refused(table, CollectCard(player=table.state.turn, kind="scoop"), rule="Inside Scoop Cards")
    assert error.short == "deck empty"
    assert str(error).startswith(
        "the Inside Scoop deck is empty; played and discarded Inside Scoops are not shuffled back"
    )


def test_source_deck_empty_notice_while_the_location_deck_has_cards(table):
    """Phase 1: the Source deck drawn out (four players, 25 of 30) while the Location deck still has cards:
    the table is told to take from the face-up Source row, whatever the Location deck holds."""
    start(table, 4)
    for _ in range(25):
        accepted(table, CollectCard(player=table.state.turn, kind="source"))
    piles = table.state.piles
    assert (piles.source_deck, piles.source_row, piles.location_deck) == (0, 5, 7)
    notes = table.view().notes
    assert "Source deck empty, no discards: take from the face-up row (5 left)" in notes
    assert not any(note.startswith("Location deck") for note in notes)


def test_library_archives_with_the_source_row_empty(table):
    """Library Archives takes "a Source Card from the faceup source row": six players collect all 36 Sources in
    Phase 1 (each one card of kind not said besides), so the row is empty and the play is refused, citing the
    card."""
    start(table, 6)
    for _ in range(6):
        accepted(table, CollectCard(player=table.state.turn))
    while table.state.phase == 1:
        from_row = table.state.piles.source_deck == 0
        accepted(table, CollectCard(player=table.state.turn, kind="source", from_row=from_row))
    assert (table.state.piles.source_deck, table.state.piles.source_row) == (0, 0)
    accepted(table, Pass(player="Ava"))
    accepted(table, PlayLocation(player="Ben", lead="Sports"))
    for name in ("Cleo", "Dev", "Eli", "Fay"):
        accepted(table, Pass(player=name))
    command = PlaySource(player="Ava", lead="Sports", value=1, from_archives=True)
    error = refused(table, command, rule="Channel WON Library Archives")
    assert (error.short, error.reason, error.rule) == (
        "Source row empty",
        "the face-up Source row is empty",
        "Channel WON Library Archives",
    )


def test_bonus_source_of_a_category_the_lead_does_not_take_short_words(table):
    """Bonus Sources: a Lead card that prints its Bonus Sources takes only those; the disabled button says
    "no such Bonus here"."""
    play_to_phase2(table, leads=leads_option(parse_catalogue(CATALOGUE), ["Sports"]))
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    assert short(table, PlaySource(player="Ben", lead="Sports", category="Crime", value=2)) == "no such Bonus here"


def test_a_short_catalogue_is_topped_up_with_blank_leads(table):
    """Setup: three Lead cards per category; a catalogue with one Sports card deals it first and two blank
    Sports Leads after it (their values entered as played)."""
    card = {"category": "Sports", "headline": "Upset at the Park"}
    start(table, 2, catalogue=[card])
    sports = table.state.stacks[table.state.categories.index("Sports")]
    assert sports == (LeadCard("Sports", "Upset at the Park"), LeadCard("Sports"), LeadCard("Sports"))


def test_final_game_over_journals_the_scores(table):
    """Ending the Game: after three rounds the final scores are journaled with the winner."""
    start(table, 2)
    play_round(table, {"Ava": [("Crime", 5)], "Ben": [("Sports", 1), ("Business", 1)]})
    play_round(table, {"Ava": [("Crime", 1)], "Ben": [("Sports", 1), ("Business", 1)]})
    over = play_round(table, {"Ava": [("Fluff", 1)], "Ben": [("Sports", 1), ("Business", 1)]})[-1].records[-1]
    assert over.type == "game_over" and over.payload["scores"] == {"Ava": 7, "Ben": 6}


def test_an_event_of_another_kind_is_described_by_its_type_and_payload():
    """The game contract's ``describe``: an event that is not one of Channel WON's reads as its type and
    payload rather than failing."""

    @dataclass(frozen=True)
    class Other(Event):
        TYPE: ClassVar[str] = "other_thing"
        value: int

    assert CHANNEL_WON.describe(Other(3)) == "other_thing {'value': 3}"


def test_being_done_is_an_action_the_last_results_are_no_longer_offered(table):
    """End of Round: the round's results are offered until someone collects or plays in the next round
    (``acted``); a player declaring they are done in round 2 does not bring them back."""
    start(table, 2)
    play_round(table, {"Ava": [("Crime", 5)], "Ben": [("Sports", 1)]})
    collect_all(table)
    accepted(table, DeclareDone(player=table.state.turn))
    assert table.state.scoring.round == 1 and table.state.acted
