"""Channel WON: tests written on reviewing the mutation run's survivors (issue 19; docs/mutation.md). Each
pins down a player-visible word or message that a careless change could alter unnoticed."""

from __future__ import annotations

import pytest
from table_helpers import accepted
from test_channel_won_core import play_to_phase2, seats, start

from companion.commands import NewGame
from companion.errors import BadOption
from companion.games.channel_won import CloseLead, CollectCard, DeclareDone, PlayLocation, PlaySource
from companion.games.channel_won.cards import CatalogueError, load_catalogue, parse_catalogue
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
    from test_channel_won_core import everyone_done

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
