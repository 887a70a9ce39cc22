"""Channel WON rules engine (sections of /work/shared/rules/channel-won.txt) played through the real Table.

Every refusal must leave the state unchanged and write nothing to the journal.
"""

from __future__ import annotations

import pytest
from table_helpers import accepted, event_count

from companion.commands import EndGame, NewGame, PlayerSeat, RollDice, Undo
from companion.errors import BadOption, GameFinished, IllegalCommand, MalformedCommand
from companion.game import Game
from companion.games import find_game, game_info, game_names
from companion.games.channel_won import (
    CHANNEL_WON,
    CloseLead,
    CollectCard,
    DeclareDone,
    Pass,
    PassOrDone,
    PlayLocation,
    PlayScoop,
    PlaySource,
    UseAbility,
    format_breakdown,
    result_lines,
)
from companion.games.channel_won.cards import CatalogueError, LeadCard, leads_option, load_catalogue, parse_catalogue
from companion.games.channel_won.state import Play
from companion.table import replay

NAMES = CHANNEL_WON.info.default_names
COLOURS = ("#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa", "#fb8c00")
FOUR = ["Sports", "Business", "Fluff", "Crime"]  # lineup order: Crime, Business, Sports, Fluff


def seats(n: int) -> tuple[PlayerSeat, ...]:
    return tuple(PlayerSeat(name, colour) for name, colour in zip(NAMES[:n], COLOURS[:n]))


def start(table, n: int = 2, **options) -> int:
    options.setdefault("categories", FOUR if n == 2 else None)
    if options["categories"] is None:
        del options["categories"]
    outcome = table.execute(NewGame(game="channel-won", players=seats(n), options=options, source="test"))
    assert outcome.accepted, outcome.message
    return outcome.records[0].game_id


def collect_all(table) -> None:
    """Phase 1: everyone collects in turn until every hand holds seven."""
    while table.state.phase == 1:
        accepted(table, CollectCard(player=table.state.turn))


def refused(table, command, error: type[Exception] = IllegalCommand, rule: str | None = None):
    """Assert ``command`` is refused with ``error`` (citing ``rule`` if given), changing nothing."""
    before_state, before_count, before_history = table.state, event_count(table), table.history()
    outcome = table.execute(command)
    assert not outcome.accepted, f"{command!r} was accepted: {outcome.message}"
    assert isinstance(outcome.refusal, error), repr(outcome.refusal)
    if rule is not None:
        assert outcome.refusal.rule is not None and rule in outcome.refusal.rule, outcome.refusal
    assert table.state == before_state
    assert table.history() == before_history
    assert event_count(table) == before_count
    return outcome.refusal


def lead(table, category):
    return table.state.lead(category)


def everyone_done(table):
    outcomes = []
    while table.state.turn is not None and table.state.phase == 2 and not table.state.finished:
        outcomes.append(accepted(table, DeclareDone(player=table.state.turn)))
    return outcomes


def play_to_phase2(table, n=2, **options):
    game_id = start(table, n, **options)
    collect_all(table)
    return game_id


# -- Setup ---------------------------------------------------------------------------------------------


def test_registered_by_name():
    assert "channel-won" in game_names()
    assert find_game("channel-won") is CHANNEL_WON
    assert CHANNEL_WON.info is game_info("channel-won") and CHANNEL_WON.info.title == "Channel WON"
    assert CHANNEL_WON.info.min_players == 2 and CHANNEL_WON.info.max_players == 6
    assert CHANNEL_WON.info.default_names == ("Ava", "Ben", "Cleo", "Dev", "Eli", "Fay")
    assert isinstance(CHANNEL_WON, Game)


@pytest.mark.parametrize("n, count", [(2, 4), (3, 5), (4, 5), (5, 6), (6, 6)])
def test_setup_categories_by_player_count_and_three_leads_each(table, n, count):
    start(table, n, categories=None)
    state = table.state
    assert len(state.categories) == count
    assert state.categories == ("Politics", "Crime", "Business", "Entertainment", "Sports", "Fluff")[:count]
    assert len(state.lineup) == count and all(len(stack) == 3 for stack in state.stacks)
    assert [lead.category for lead in state.lineup] == list(state.categories)
    assert state.stars == 5 and state.round == 1 and state.phase == 1
    for reporter in state.reporters:
        assert reporter.score == 0 and reporter.hand == 0 and not reporter.passed and not reporter.ability_used
        assert state.tiles_left(reporter.name) == 3
    assert state.turn == NAMES[0] and state.order == NAMES[:n]


@pytest.mark.parametrize("n, categories", [(2, ["Sports", "Crime", "Fluff"]), (3, FOUR), (5, FOUR + ["Politics"])])
def test_setup_wrong_number_of_categories_refused(table, n, categories):
    outcome = table.execute(NewGame(game="channel-won", players=seats(n), options={"categories": categories}))
    assert isinstance(outcome.refusal, IllegalCommand) and outcome.refusal.rule == "Channel WON Setup"
    assert table.session is None and table.journal.games() == []


@pytest.mark.parametrize("n", [0, 1, 7])
def test_setup_two_to_six_players(table, n):
    players = tuple(PlayerSeat(f"P{i}") for i in range(n))
    outcome = table.execute(NewGame(game="channel-won", players=players))
    assert isinstance(outcome.refusal, IllegalCommand) and "2 to 6" in str(outcome.refusal)


@pytest.mark.parametrize(
    "options, option",
    [
        ({"house": 1}, "house"),
        ({"categories": ["Sports", "Weather", "Crime", "Fluff"]}, "categories"),
        ({"categories": ["Sports", "sports", "Crime", "Fluff"]}, "categories"),
        ({"next_round_order": "random"}, "next_round_order"),
        ({"score_open_leads": "yes"}, "score_open_leads"),
        ({"leads": {"Sports": [{"category": "Sports"}] * 2}}, "leads"),
        ({"leads": {"Sports": [{"category": "Crime"}] * 3}}, "leads"),
        ({"leads": {"Sports": [{"category": "Sports", "sources": {"Coach": 0}}] * 3}}, "leads"),
        ({"characters": {"Ava": "Trey DeMark", "Ben": "Trey DeMark"}}, "characters"),
        ({"characters": {"Zed": "Trey DeMark"}}, "characters"),
        ({"first_player": "Zed"}, "first_player"),
        ({"leads": {"Politics": [{"category": "Politics"}] * 3}}, "leads"),  # not a chosen category
    ],
)
def test_setup_bad_options_refused(table, options, option):
    outcome = table.execute(NewGame(game="channel-won", players=seats(2), options={"categories": FOUR, **options}))
    assert isinstance(outcome.refusal, BadOption), outcome.refusal
    assert outcome.refusal.option == option
    assert table.journal.games() == []


def test_setup_first_player_is_who_watched_the_news_last(table):
    start(table, 3, first_player="Cleo")
    assert table.state.order == ("Cleo", "Ava", "Ben") and table.state.turn == "Cleo"


# -- Phase 1 ----------------------------------------------------------------------------------------------


def test_phase1_collect_in_turn_up_to_seven_then_phase2(table):
    start(table, 2)
    accepted(table, CollectCard(player="Ava", kind="location", from_row=True))
    refused(table, CollectCard(player="Ava"), IllegalCommand, "Phase 1")  # Ben's turn
    for _ in range(12):
        accepted(table, CollectCard(player=table.state.turn, kind="source"))
    assert [r.hand for r in table.state.reporters] == [7, 6]
    error = refused(table, CollectCard(player="Ava"), IllegalCommand, "Phase 1")
    assert "hand limit" in str(error)
    outcome = accepted(table, CollectCard(player="Ben", kind="scoop"))
    assert [r.type for r in outcome.records] == ["card_collected", "reporting_started"]
    assert table.state.phase == 2 and table.state.turn == "Ava"
    assert "Phase 2" in outcome.message
    refused(table, CollectCard(player="Ava"), IllegalCommand, "Phase 1")


def test_phase1_hand_limit_skips_a_full_hand(table):
    start(table, 3)
    # Everyone in turn; the next collector is always the one with fewest cards, never a full hand.
    while table.state.phase == 1:
        hands = {r.name: r.hand for r in table.state.reporters}
        assert hands[table.state.turn] < 7
        accepted(table, CollectCard(player=table.state.turn))
    assert [r.hand for r in table.state.reporters] == [7, 7, 7]


def test_phase1_no_reporting_yet(table):
    start(table, 2)
    refused(table, PlayLocation(player="Ava", lead="Sports"), IllegalCommand, "Phase 1")
    refused(table, Pass(player="Ava"), IllegalCommand, "Phase 1")
    refused(table, CollectCard(player="Ava", kind="joker"), MalformedCommand)
    refused(table, CollectCard(player="Zed"), MalformedCommand)


# -- Phase 2: Locations and Sources --------------------------------------------------------------------------


def test_locations_place_a_tile_one_per_lead(table):
    play_to_phase2(table)
    outcome = accepted(table, PlayLocation(player="Ava", lead="sports"))
    assert lead(table, "Sports").location == "" and lead(table, "Sports").contributors == ("Ava",)
    assert table.state.tiles_left("Ava") == 2 and table.state.reporter("Ava").hand == 6
    assert table.state.turn == "Ben" and "places a Reporter Tile" in outcome.message
    error = refused(table, PlayLocation(player="Ben", lead="Sports"), IllegalCommand, "Locations")
    assert "one per Lead" in str(error)


def test_source_before_location_refused(table):
    play_to_phase2(table)
    error = refused(
        table,
        PlaySource(player="Ava", lead="Sports", value=2, source_type="Coach"),
        IllegalCommand,
        "Channel WON Locations",
    )
    assert "no Location yet" in str(error)


def test_sources_add_points_and_one_tile_per_lead(table):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=3, source_type="Athlete"))
    accepted(table, PlaySource(player="Ava", lead="Sports", value=2, source_type="Coach"))
    outcome = accepted(table, PlaySource(player="Ben", lead="Sports", value=3, source_type="Athlete"))
    sports = lead(table, "Sports")
    assert sports.contributors == ("Ava", "Ben")
    assert sports.value == 8 and sports.breakdown() == [["Athlete", 3], ["Coach", 2], ["Athlete", 3]]
    assert table.state.tiles_left("Ben") == 2
    assert "Reporter Tile" not in outcome.message


def test_fourth_lead_for_one_reporter_refused(table):
    play_to_phase2(table)
    accepted(table, DeclareDone(player="Ava"))  # Ben plays alone from now on
    for category in ("Crime", "Business", "Sports"):
        accepted(table, PlayLocation(player="Ben", lead=category))
        assert table.state.turn == "Ben"
    assert table.state.tiles_left("Ben") == 0
    error = refused(table, PlayLocation(player="Ben", lead="Fluff"), IllegalCommand, "Locations")
    assert "three Leads" in str(error)
    # another Source on a Lead he is already on needs no tile
    accepted(table, PlaySource(player="Ben", lead="Crime", value=1))


def test_closing_stops_contributors_and_same_category_sources(table):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, CloseLead(player="Ben", lead="Sports"))
    assert lead(table, "Sports").closed and table.state.reporter("Ben").hand == 7  # closing uses no card
    error = refused(table, PlaySource(player="Ava", lead="Sports", value=2), IllegalCommand, "Closing a Lead")
    assert "no more contributors" in str(error)
    accepted(table, CloseLead(player="Ava", lead="Crime"))
    refused(table, PlayLocation(player="Ben", lead="Crime"), IllegalCommand, "Closing a Lead")
    refused(table, CloseLead(player="Ben", lead="Crime"), IllegalCommand, "Closing a Lead")


def test_bonus_sources_only_on_closed_leads_no_credit(table):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    error = refused(
        table, PlaySource(player="Ben", lead="Sports", category="Business", value=-1), IllegalCommand, "Bonus Sources"
    )
    assert "closed" in str(error)
    accepted(table, CloseLead(player="Ben", lead="Sports"))
    accepted(table, PlaySource(player="Ava", lead="Sports", category="Fluff", value=1))
    accepted(table, PlaySource(player="Ben", lead="Sports", category="business", value=-1))
    sports = lead(table, "Sports")
    assert sports.contributors == ("Ava",) and table.state.tiles_left("Ben") == 3
    assert sports.breakdown() == [["Fluff bonus", 1], ["Business bonus", -1]]
    refused(table, PlaySource(player="Ava", lead="Sports", category="Politics", value=1), MalformedCommand)


@pytest.mark.parametrize("value", [0, 11, -1, 2.5, True, "2"])
def test_source_value_must_be_a_printed_value(table, value):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    refused(table, PlaySource(player="Ben", lead="Sports", value=value), MalformedCommand)


def test_value_must_be_entered_without_a_catalogue(table):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    error = refused(table, PlaySource(player="Ben", lead="Sports", source_type="Coach"), MalformedCommand)
    assert "enter the points" in str(error)


CATALOGUE = """
[[lead]]
category = "Sports"
headline = "Upset at the Park"
location = "Park"
sources = { Athlete = 3, Coach = 2 }
bonus = { Business = -1, Fluff = 1 }
[[lead]]
category = "Sports"
headline = "Second story"
[[lead]]
category = "Sports"
headline = "Third story"
"""


def test_catalogue_prefills_location_and_values(table):
    cards = parse_catalogue(CATALOGUE)
    assert cards[0] == LeadCard(
        "Sports", "Upset at the Park", "Park", (("Athlete", 3), ("Coach", 2)), (("Business", -1), ("Fluff", 1))
    )
    play_to_phase2(table, leads=leads_option(cards, ["Sports"]))
    error = refused(table, PlayLocation(player="Ava", lead="Sports", location="Museum"), IllegalCommand, "Locations")
    assert "needs the Park Location" in str(error)
    accepted(table, PlayLocation(player="Ava", lead="Sports", location="park"))
    assert lead(table, "Sports").location == "park"
    accepted(table, PlaySource(player="Ben", lead="Sports", source_type="Coach"))
    assert lead(table, "Sports").value == 2
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    error = refused(
        table, PlaySource(player="Ben", lead="Sports", category="Crime", value=2), IllegalCommand, "Bonus Sources"
    )
    assert "Business, Fluff only" in str(error)
    accepted(table, PlaySource(player="Ben", lead="Sports", category="Business"))
    assert lead(table, "Sports").value == 1
    assert table.state.lead("Sports").card.headline == "Upset at the Park"


@pytest.mark.parametrize(
    "text, key",
    [
        ("[[lead]]\ncategory = 'Weather'\n", "lead[1].category"),
        ("[[lead]]\ncategory = 'Sports'\ncolour = 'red'\n", "lead[1].colour"),
        ("[[lead]]\ncategory = 'Sports'\nsources = { Coach = 12 }\n", "lead[1].sources.Coach"),
        ("[[lead]]\ncategory = 'Sports'\nbonus = { Sports = 1 }\n", "lead[1].bonus.Sports"),
        ("title = 'x'\n", "title"),
        ("[[lead]\n", ""),
        ("[[lead]]\ncategory = 'Sports'\nsources = 3\n", "lead[1].sources"),
        ("[[lead]]\ncategory = 'Sports'\nsources = { ' ' = 1 }\n", "lead[1].sources"),
        ("[[lead]]\ncategory = 'Sports'\nheadline = 3\n", "lead[1].headline"),
        ("", "lead"),
    ],
)
def test_catalogue_errors_name_the_key(text, key):
    """Catalogue format (module docstring of cards.py): each error names the file and the key at fault."""
    with pytest.raises(CatalogueError) as caught:
        parse_catalogue(text, "cards.toml")
    assert caught.value.key == key and str(caught.value).startswith(f"cards.toml: {key}: " if key else "cards.toml")


def test_catalogue_file_is_read_once_into_the_options(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text(CATALOGUE, encoding="utf-8")
    option = leads_option(load_catalogue(path), ["Sports"])
    assert option["Sports"][0] == {
        "category": "Sports",
        "headline": "Upset at the Park",
        "location": "Park",
        "sources": {"Athlete": 3, "Coach": 2},
        "bonus": {"Business": -1, "Fluff": 1},
    }
    assert [card["headline"] for card in option["Sports"]] == ["Upset at the Park", "Second story", "Third story"]
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(tmp_path / "missing.toml")
    assert "missing.toml" in str(caught.value) and "cannot read" in str(caught.value)


def test_catalogue_needs_three_leads_per_category():
    with pytest.raises(BadOption):
        leads_option(parse_catalogue(CATALOGUE), ["Sports", "Crime"])


# -- Inside Scoops ---------------------------------------------------------------------------------------


def test_discredit_on_open_lead_refused_and_both_on_closed(table):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    error = refused(
        table, PlayScoop(player="Ben", scoop="discredit", lead="Sports"), IllegalCommand, "Channel WON Discredit"
    )
    assert "closed Leads" in str(error)
    refused(table, PlayScoop(player="Ben", scoop="final_touch", lead="Sports"), IllegalCommand, "Final Touch")
    accepted(table, PlaySource(player="Ben", lead="Sports", value=3))
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    accepted(table, PlayScoop(player="Ben", scoop="discredit", lead="Sports"))
    assert lead(table, "Sports").value == 1
    accepted(table, PlayScoop(player="Ava", scoop="final_touch", lead="Sports"))
    assert lead(table, "Sports").breakdown() == [["Sports Source", 3], ["Discredit", -2], ["Final Touch", 2]]
    assert lead(table, "Sports").contributors == ("Ava", "Ben")


def test_star_witness_is_a_two_point_source_on_open_leads(table):
    play_to_phase2(table)
    refused(table, PlayScoop(player="Ava", scoop="star_witness", lead="Crime"), IllegalCommand, "Locations")
    accepted(table, PlayLocation(player="Ava", lead="Crime"))
    accepted(table, PlayScoop(player="Ben", scoop="star_witness", lead="Crime"))
    crime = lead(table, "Crime")
    assert crime.value == 2 and crime.sourced and crime.contributors == ("Ava", "Ben")
    accepted(table, CloseLead(player="Ava", lead="Crime"))
    refused(table, PlayScoop(player="Ben", scoop="star_witness", lead="Crime"), IllegalCommand, "Star Witness")


def test_security_footage_in_place_of_a_location(table):
    play_to_phase2(table, leads=leads_option(parse_catalogue(CATALOGUE), ["Sports"]))
    outcome = accepted(table, PlayScoop(player="Ava", scoop="security_footage", lead="Sports"))
    assert lead(table, "Sports").location == "Security Footage" and lead(table, "Sports").contributors == ("Ava",)
    assert "in place of a Location" in outcome.message
    accepted(table, PlaySource(player="Ben", lead="Sports", source_type="Athlete"))
    assert lead(table, "Sports").value == 3
    refused(table, PlayScoop(player="Ava", scoop="security_footage", lead="Sports"), IllegalCommand, "Locations")


def test_library_archives_plays_a_face_up_source_at_once(table):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    outcome = accepted(table, PlaySource(player="Ben", lead="Sports", value=2, from_archives=True))
    assert "Library Archives" in outcome.message and lead(table, "Sports").contributors == ("Ava", "Ben")
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    error = refused(
        table, PlaySource(player="Ben", lead="Sports", value=2, from_archives=True), IllegalCommand, "Library Archives"
    )
    assert "closed" in str(error)
    accepted(table, PlaySource(player="Ben", lead="Sports", category="Fluff", value=1, from_archives=True))
    assert lead(table, "Sports").value == 3


def test_early_bird_gives_another_action_right_after_your_own(table):
    play_to_phase2(table)
    error = refused(table, PlayScoop(player="Ava", scoop="early_bird"), IllegalCommand, "Early Bird")
    assert "right after your own action" in str(error)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    assert table.state.turn == "Ben"
    refused(table, PlayScoop(player="Ben", scoop="early_bird"), IllegalCommand, "Early Bird")
    accepted(table, PlayScoop(player="Ava", scoop="early_bird"))
    assert table.state.turn == "Ava" and table.state.reporter("Ava").hand == 5
    refused(table, PlayScoop(player="Ava", scoop="early_bird"), IllegalCommand, "Early Bird")  # no action since
    accepted(table, PlaySource(player="Ava", lead="Sports", value=2))
    assert table.state.turn == "Ben"


def test_unknown_scoop_and_lead_are_malformed(table):
    play_to_phase2(table)
    refused(table, PlayScoop(player="Ava", scoop="rumour", lead="Sports"), MalformedCommand)
    refused(table, PlayLocation(player="Ava", lead="Weather"), MalformedCommand)
    refused(table, PlayLocation(player="Ava", lead="Politics"), MalformedCommand)  # not chosen in this game


# -- turns, passing, done --------------------------------------------------------------------------------


def test_out_of_turn_refused(table):
    play_to_phase2(table)
    error = refused(table, PlayLocation(player="Ben", lead="Sports"), IllegalCommand, "Phase 2")
    assert "Ava's turn" in str(error)


def test_second_pass_refused(table):
    play_to_phase2(table)
    accepted(table, Pass(player="Ava"))
    assert table.state.reporter("Ava").passed and table.state.turn == "Ben"
    accepted(table, Pass(player="Ben"))
    error = refused(table, Pass(player="Ava"), IllegalCommand, "Passing")
    assert "once per round" in str(error) or "one pass per round" in str(error)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))  # a passed player may still play


def test_pass_or_done_button(table):
    play_to_phase2(table)
    first = accepted(table, PassOrDone(player="Ava", source="button"))
    assert first.records[0].type == "passed"
    accepted(table, Pass(player="Ben"))
    second = accepted(table, PassOrDone(player="Ava", source="button"))
    assert second.records[0].type == "player_done" and table.state.reporter("Ava").done
    refused(table, PlayLocation(player="Ava", lead="Sports"), IllegalCommand, "End of Round")
    assert table.state.turn == "Ben"


def test_no_card_left_cannot_play_but_can_close(table):
    play_to_phase2(table)
    accepted(table, DeclareDone(player="Ava"))
    for category in ("Crime", "Business", "Sports"):
        accepted(table, PlayLocation(player="Ben", lead=category))
    for _ in range(4):
        accepted(table, PlaySource(player="Ben", lead="Crime", value=1))
    assert table.state.reporter("Ben").hand == 0
    error = refused(table, PlaySource(player="Ben", lead="Crime", value=1), IllegalCommand)
    assert "no cards left" in str(error)
    accepted(table, CloseLead(player="Ben", lead="Crime"))


# -- End of Round: scoring ----------------------------------------------------------------------------------


def test_rulebook_scoring_example_coach_then_bonus_business(table):
    """End of Round, Scoring Example: "Playing the Coach Source Card brings the Lead to a value of 2 points,
    however, the Bonus Business Source Card reduces the value to 1 point." """
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=2, source_type="Coach"))
    assert lead(table, "Sports").value == 2
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", category="Business", value=-1))
    assert lead(table, "Sports").value == 1
    assert format_breakdown(1, lead(table, "Sports").breakdown()) == "1 = 2 Coach - 1 Business bonus"
    outcomes = everyone_done(table)
    records = outcomes[-1].records
    scored = next(r for r in records if r.type == "lead_scored" and r.payload["lead"] == "Sports")
    assert scored.payload["value"] == 1 and scored.payload["reported"]
    assert scored.payload["parts"] == [["Coach", 2], ["Business bonus", -1]]
    assert scored.payload["moves"] == [
        {"player": "Ava", "before": 0, "after": 1, "floored": False},
        {"player": "Ben", "before": 0, "after": 1, "floored": False},
    ]
    assert "Sports Lead 1 = 2 Coach - 1 Business bonus: reported; Ava 0 → 1, Ben 0 → 1" in outcomes[-1].message
    assert table.state.scores == {"Ava": 1, "Ben": 1}
    # the three other Leads were not closed: three stars lost
    assert table.state.stars == 2 and table.state.round == 2


def test_rulebook_bonus_sources_example_back_to_one_point(table):
    """Bonus Sources example: Park + Athlete; closed; a Business Source discredits it to 0; a Fluff Source
    brings it back up to 1, which prevents the Network Rating from losing a star."""
    play_to_phase2(table, n=3, categories=["Sports", "Business", "Fluff", "Crime", "Politics"])
    accepted(table, PlayLocation(player="Ava", lead="Sports", location="Park"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=2, source_type="Athlete"))
    accepted(table, CloseLead(player="Cleo", lead="Sports"))
    accepted(table, Pass(player="Ava"))
    accepted(table, Pass(player="Ben"))
    accepted(table, PlaySource(player="Cleo", lead="Sports", category="Business", value=-2))
    assert lead(table, "Sports").value == 0 and lead(table, "Sports") in table.state.at_risk
    assert lead(table, "Sports").contributors == ("Ava", "Ben")
    accepted(table, PlaySource(player="Ava", lead="Sports", category="Fluff", value=1))
    assert lead(table, "Sports").value == 1 and lead(table, "Sports").reported
    everyone_done(table)
    assert table.state.scores == {"Ava": 1, "Ben": 1, "Cleo": 0}
    assert table.state.stars == 1  # the four other Leads were unreported; Sports was not


def test_scores_never_fall_below_zero(table):
    """Scoring Stories: "A player may never fall below zero points". A Lead worth -5 (a Discredit on it,
    recorded as Ava's play) moves Ava and Ben from 0 to 0, and the round's results say why."""
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=1))
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", category="Crime", value=-4))
    accepted(table, PlayScoop(player="Ava", scoop="discredit", lead="Sports"))
    assert table.state.lead("Sports").plays[-1] == Play("Discredit", "discredit", -2, "Ava")
    outcomes = everyone_done(table)
    assert table.state.scores == {"Ava": 0, "Ben": 0}
    scored = next(r for r in outcomes[-1].records if r.type == "lead_scored" and r.payload["lead"] == "Sports")
    assert scored.payload["value"] == -5 and not scored.payload["reported"] and scored.payload["why"] == "worth -5"
    assert all(m["floored"] for m in scored.payload["moves"])
    assert "(never below 0)" in outcomes[-1].message
    sports = next(line for line in result_lines(table.state.scoring) if line[0] == "Sports")
    assert sports == (
        "Sports",
        "-5",
        "1 Sports Source - 4 Crime bonus - 2 Discredit. Unreported (worth -5): -1 star; "
        "Ava 0 → 0 (never below 0), Ben 0 → 0 (never below 0)",
    )


def test_negative_lead_moves_contributors_backward(table):
    play_to_phase2(table)
    # round 1: Ava and Ben each get 5 on Sports
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=5))
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    everyone_done(table)
    assert table.state.scores == {"Ava": 5, "Ben": 5}
    collect_all(table)
    accepted(table, PlayLocation(player="Ava", lead="Crime"))
    accepted(table, PlaySource(player="Ben", lead="Crime", value=1))
    accepted(table, CloseLead(player="Ava", lead="Crime"))
    accepted(table, PlaySource(player="Ben", lead="Crime", category="Fluff", value=-3))
    everyone_done(table)
    assert table.state.scores == {"Ava": 3, "Ben": 3}


def test_unreported_leads_each_cost_a_star(table):
    """Network Ratings: not closed, closed without a Source, or worth 0 or less: one star each."""
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=2))  # open at round end
    accepted(table, CloseLead(player="Ava", lead="Crime"))  # closed, no Source
    accepted(table, PlayLocation(player="Ben", lead="Fluff"))
    accepted(table, PlaySource(player="Ava", lead="Fluff", value=1))
    accepted(table, CloseLead(player="Ben", lead="Fluff"))
    accepted(table, PlaySource(player="Ava", lead="Fluff", category="Sports", value=-1))  # worth 0
    accepted(table, PlayLocation(player="Ben", lead="Business"))
    accepted(table, PlaySource(player="Ava", lead="Business", value=3))
    accepted(table, CloseLead(player="Ben", lead="Business"))  # reported
    outcomes = everyone_done(table)
    drops = [r.payload for r in outcomes[-1].records if r.type == "rating_dropped"]
    assert [(d["lead"], d["why"], d["stars"]) for d in drops] == [
        ("Crime", "closed without a Source", 4),
        ("Sports", "not closed", 3),
        ("Fluff", "worth 0", 2),
    ]
    assert table.state.stars == 2
    # Sports was open: its contributors score nothing by default; Business scored 3 each
    assert table.state.scores == {"Ava": 3, "Ben": 3}


def test_house_rule_score_open_leads(table):
    play_to_phase2(table, score_open_leads=True)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=2))
    everyone_done(table)
    assert table.state.scores == {"Ava": 2, "Ben": 2}
    assert table.state.stars == 1  # still unreported: not closed


def test_channel_none_ends_the_game_at_once_everyone_loses(table):
    game_id = play_to_phase2(table, n=5)  # six Leads, five stars
    outcomes = everyone_done(table)
    last = outcomes[-1]
    assert [r.type for r in last.records].count("rating_dropped") == 6
    assert last.records[-1].type == "game_over" and last.records[-1].payload["result"] == "channel_none"
    assert table.state.finished and table.state.stars == 0 and table.state.winners == ()
    assert "Channel None" in table.view().status and table.view().finished
    assert table.journal.game(game_id).status == "finished"
    refused(table, CollectCard(player="Ava"), GameFinished)
    accepted(table, Undo())
    assert not table.state.finished and table.state.stars == 5
    assert table.journal.game(game_id).status == "open"


def test_channel_none_warning_while_reporting(table):
    play_to_phase2(table, n=5)
    view = table.view()
    assert "CHANNEL NONE RISK" in view.status and view.notes[0].startswith("CHANNEL NONE RISK")
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=2))
    accepted(table, CloseLead(player="Cleo", lead="Sports"))
    assert "CHANNEL NONE RISK: 5 Leads at risk" in table.view().status
    accepted(table, PlayLocation(player="Dev", lead="Crime"))
    accepted(table, PlaySource(player="Eli", lead="Crime", value=1))
    accepted(table, CloseLead(player="Ava", lead="Crime"))
    view = table.view()
    assert "CHANNEL NONE" not in view.status
    assert "Warning: 4 Leads at risk" in view.status


def test_next_round_fewest_points_first_ties_by_previous_order(table):
    play_to_phase2(table, n=3, first_player="Ben")  # order Ben, Cleo, Ava
    assert table.state.order == ("Ben", "Cleo", "Ava")
    accepted(table, PlayLocation(player="Ben", lead="Sports"))
    accepted(table, PlaySource(player="Cleo", lead="Sports", value=2))
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    everyone_done(table)
    # Ava has 0, Ben 2, Cleo 2: Ava first, then clockwise
    assert table.state.order == ("Ava", "Ben", "Cleo") and table.state.turn == "Ava"


def test_next_round_tie_for_fewest_goes_to_earlier_in_previous_order(table):
    """Prepping the Next Round: "In the case of a tie for lowest points, the player who falls first in the
    previous turn order breaks the tie": the round just played, not seat order nor round 1's order."""
    start(table, 3, first_player="Cleo")  # seats Ava, Ben, Cleo; round 1 order Cleo, Ava, Ben
    plan1 = {"Cleo": [("Politics", 3), ("Entertainment", 1)], "Ava": [("Crime", 2), ("Sports", 1)]}
    play_round(table, {**plan1, "Ben": [("Business", 1)]})
    assert table.state.scores == {"Ava": 3, "Ben": 1, "Cleo": 4} and table.state.stars == 5
    assert table.state.round == 2 and table.state.order == ("Ben", "Cleo", "Ava")  # Ben fewest, then clockwise
    play_round(table, {"Ben": [("Politics", 1), ("Sports", 1)], "Cleo": [("Crime", 1), ("Business", 1)]})
    assert table.state.scores == {"Ava": 3, "Ben": 3, "Cleo": 6} and table.state.round == 3
    # Ava and Ben tie for fewest: Ben is before Ava in round 2's order (Ben, Cleo, Ava), Ava before Ben in
    # seat order and in round 1's order
    assert table.state.order == ("Ben", "Cleo", "Ava") and table.state.turn == "Ben"


def test_next_round_tie_by_previous_order_under_the_fewest_points_house_rule(table):
    """Prepping the Next Round under ``next_round_order = "fewest_points"``: a tie keeps the previous order."""
    start(table, 3, first_player="Cleo", next_round_order="fewest_points")  # round 1 order Cleo, Ava, Ben
    play_round(table, {"Ben": [("Politics", 2)], "Cleo": [("Crime", 1), ("Business", 1)], "Ava": [("Sports", 1)]})
    assert table.state.scores == {"Ava": 1, "Ben": 2, "Cleo": 2}
    assert table.state.order == ("Ava", "Cleo", "Ben")  # Cleo and Ben tie: Cleo was first in round 1


def test_next_round_order_house_rule_everyone_by_points(table):
    play_to_phase2(table, n=3, next_round_order="fewest_points")
    accepted(table, Pass(player="Ava"))
    accepted(table, PlayLocation(player="Ben", lead="Sports"))
    accepted(table, PlaySource(player="Cleo", lead="Sports", value=2))
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    accepted(table, PlayLocation(player="Ben", lead="Crime"))
    accepted(table, DeclareDone(player="Cleo"))
    accepted(table, DeclareDone(player="Ava"))
    accepted(table, PlaySource(player="Ben", lead="Crime", value=3))
    accepted(table, CloseLead(player="Ben", lead="Crime"))
    accepted(table, DeclareDone(player="Ben"))
    assert table.state.scores == {"Ava": 0, "Ben": 5, "Cleo": 2}
    assert table.state.order == ("Ava", "Cleo", "Ben")  # clockwise would be Ava, Ben, Cleo


def test_prepping_the_next_round_resets_tokens_hands_tiles_and_reveals_next_leads(table):
    cards = parse_catalogue(CATALOGUE)
    play_to_phase2(table, leads=leads_option(cards, ["Sports"]))
    accepted(table, Pass(player="Ava"))
    accepted(table, PlayLocation(player="Ben", lead="Sports", location="Park"))
    everyone_done(table)
    state = table.state
    assert state.round == 2 and state.phase == 1
    assert all(not r.passed and not r.done and r.hand == 0 for r in state.reporters)
    assert state.tiles_left("Ben") == 3
    assert state.lead("Sports").card.headline == "Second story" and state.lead("Sports").location is None


def play_round(table, plan):
    """Play one whole round: ``plan`` maps a player to ``[(category, points), ...]``, Leads they report alone
    (Location, a Source worth ``points``, close). On a turn with nothing planned a player passes, then is done.
    Returns the outcomes of Phase 2."""
    collect_all(table)
    number = table.state.round
    queues = {name: [] for name in table.state.names}
    for player, leads in plan.items():
        for category, points in leads:
            queues[player] += [
                PlayLocation(player=player, lead=category),
                PlaySource(player=player, lead=category, value=points),
                CloseLead(player=player, lead=category),
            ]
    outcomes = []
    while table.state.round == number and not table.state.finished:
        player = table.state.turn
        if queues[player]:
            command = queues[player].pop(0)
        elif not table.state.reporter(player).passed:
            command = Pass(player=player)
        else:
            command = DeclareDone(player=player)
        outcomes.append(accepted(table, command))
    return outcomes


def test_game_end_after_three_rounds_most_points_wins(table):
    game_id = start(table, 2)
    play_round(table, {"Ava": [("Crime", 5)], "Ben": [("Sports", 1), ("Business", 1)]})
    assert table.state.scores == {"Ava": 5, "Ben": 2} and table.state.stars == 4
    play_round(table, {"Ava": [("Crime", 1)], "Ben": [("Sports", 1), ("Business", 1)]})
    assert not table.state.finished and table.state.round == 3 and table.state.stars == 3
    last = play_round(table, {"Ava": [("Fluff", 1)], "Ben": [("Sports", 1), ("Business", 1)]})[-1]
    over = last.records[-1]
    assert over.type == "game_over" and over.payload["result"] == "won" and over.payload["tiebreak"] == ""
    assert table.state.scores == {"Ava": 7, "Ben": 6} and table.state.stars == 2
    assert table.state.winners == ("Ava",) and table.state.finished and table.state.turn is None
    assert "Ava wins with 7 points" in table.view().status
    assert table.journal.game(game_id).status == "finished"
    refused(table, Pass(player="Ava"), GameFinished)


def tied_after_two_rounds(table):
    start(table, 2)
    play_round(table, {"Ava": [("Crime", 2), ("Business", 2)], "Ben": [("Sports", 2)]})
    play_round(table, {"Ava": [("Crime", 1)], "Ben": [("Business", 1), ("Sports", 2)]})
    assert table.state.scores == {"Ava": 5, "Ben": 5} and table.state.stars == 3


def test_game_end_tie_goes_to_most_leads_reported_in_final_round(table):
    tied_after_two_rounds(table)
    over = play_round(table, {"Ava": [("Crime", 1), ("Business", 1)], "Ben": [("Sports", 2)]})[-1].records[-1]
    assert table.state.scores == {"Ava": 7, "Ben": 7}
    assert over.payload["result"] == "won" and over.payload["winners"] == ["Ava"]
    assert over.payload["reported"] == [["Ava", 2], ["Ben", 1]]
    assert over.payload["tiebreak"] == "tied on 7 points; most Leads reported in the final round: Ava 2, Ben 1"


def test_game_end_still_tied_co_anchors(table):
    tied_after_two_rounds(table)
    over = play_round(table, {"Ava": [("Crime", 2)], "Ben": [("Sports", 2)]})[-1].records[-1]
    assert table.state.scores == {"Ava": 7, "Ben": 7} and table.state.stars == 1
    assert over.payload["result"] == "co_anchors" and over.payload["winners"] == ["Ava", "Ben"]
    assert "Ava and Ben share the anchor desk as co-anchors" in table.view().status
    assert {p.name: p.badges[-1] for p in table.view().players} == {"Ava": "Co-anchor", "Ben": "Co-anchor"}


def test_final_tie_break_counts_reported_leads_not_reporter_tiles(table):
    """Ending the Game: "the player who reported on the most Leads in the final round wins". In round 3 Ben
    and Ava both have two Reporter Tiles out, but Ben's Fluff Lead is never closed: Ava reported two Leads,
    Ben one."""
    tied_after_two_rounds(table)
    collect_all(table)
    assert table.state.round == 3 and table.state.order == ("Ben", "Ava")
    for command in (
        PlayLocation(player="Ben", lead="Sports"),
        PlayLocation(player="Ava", lead="Crime"),
        PlaySource(player="Ben", lead="Sports", value=2),
        PlaySource(player="Ava", lead="Crime", value=1),
        CloseLead(player="Ben", lead="Sports"),
        CloseLead(player="Ava", lead="Crime"),
        PlayLocation(player="Ben", lead="Fluff"),  # never closed: unreported
        PlayLocation(player="Ava", lead="Business"),
        DeclareDone(player="Ben"),
        PlaySource(player="Ava", lead="Business", value=1),
        CloseLead(player="Ava", lead="Business"),
    ):
        accepted(table, command)
    assert table.state.tiles_left("Ben") == table.state.tiles_left("Ava") == 1
    over = everyone_done(table)[-1].records[-1]
    assert table.state.scores == {"Ava": 7, "Ben": 7}
    assert over.payload["reported"] == [["Ava", 2], ["Ben", 1]]  # Crime and Business; Sports only
    assert over.payload["result"] == "won" and over.payload["winners"] == ["Ava"]
    assert CHANNEL_WON.outcome(table.state).ranking == ("Ava", "Ben")


def test_tie_break_by_leads_reported_in_final_round_directly():
    """Ending the Game: highest points; tie → most Leads reported in the final round; then co-anchors."""
    from companion.games.channel_won import ChannelWonState, Reporter

    rules = CHANNEL_WON
    state = rules.new_game(seats(3), {})
    reported = {"Ava": 2, "Ben": 1, "Cleo": 2}
    over = rules._final(state, {"Ava": 9, "Ben": 9, "Cleo": 4}, reported, [])
    assert over.payload["winners"] == ["Ava"] and over.payload["result"] == "won"
    assert "Ava 2, Ben 1" in over.payload["tiebreak"]
    over = rules._final(state, {"Ava": 9, "Ben": 4, "Cleo": 9}, reported, [])
    assert over.payload["winners"] == ["Ava", "Cleo"] and over.payload["result"] == "co_anchors"
    assert "co-anchors" in rules.describe(over)
    assert isinstance(state, ChannelWonState) and isinstance(state.reporters[0], Reporter)


# -- Characters -----------------------------------------------------------------------------------------------


def test_character_ability_once_per_game_in_its_phase(table):
    start(table, 2, characters={"Ava": "Trey DeMark", "Ben": "Anchor X"})
    outcome = accepted(table, UseAbility(player="Ava"))
    assert "Location row" in outcome.message and table.state.reporter("Ava").ability_used
    assert table.state.turn == "Ava"  # not an action
    error = refused(table, UseAbility(player="Ava"), IllegalCommand, "Character Abilities")
    assert "once per game" in str(error)
    accepted(table, CollectCard(player="Ava"))
    collect_all(table)
    accepted(table, Pass(player="Ava"))
    accepted(table, UseAbility(player="Ben"))  # phase not known for this Character: allowed


def test_trey_demark_power_only_in_phase_1(table):
    play_to_phase2(table, characters={"Ava": "Trey DeMark"})
    error = refused(table, UseAbility(player="Ava"), IllegalCommand, "Character Abilities")
    assert "Phase 1" in str(error)


# -- buttons, view, journal ------------------------------------------------------------------------------------


def test_buttons(table):
    assert [b.action for b in CHANNEL_WON.info.buttons] == ["on_the_air", "sponsor", "roll"]
    assert [b.slot for b in CHANNEL_WON.info.buttons] == ["a", "b", "c"]
    assert all(b.label for b in CHANNEL_WON.info.buttons)
    assert CHANNEL_WON.button_command("on_the_air", "Ava") == CollectCard(player="Ava", source="button")
    assert CHANNEL_WON.button_command("sponsor", "Ava", "touch") == PassOrDone(player="Ava", source="touch")
    assert CHANNEL_WON.button_command("roll", "Ava") == RollDice(roller="Ava", source="button")
    with pytest.raises(MalformedCommand):
        CHANNEL_WON.button_command("peek", "Ava")
    start(table, 2)
    assert CHANNEL_WON.pending_dice(table.state) is None
    refused(table, RollDice(roller="Ava", source="button"), IllegalCommand)


def test_button_mashing_collects_only_in_turn(table):
    start(table, 2)
    for _ in range(5):
        table.post(CollectCard(player="Ava", source="button"))
    outcomes = table.process_pending()
    assert [o.accepted for o in outcomes] == [True, False, False, False, False]
    assert table.state.reporter("Ava").hand == 1


def test_view_shows_scores_tiles_tokens_and_risk(table):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, Pass(player="Ben"))
    view = table.view()
    ava, ben = view.players
    assert ava.balance is None and ava.turn and not ben.turn
    tracks = {t.name: t.value for t in ava.tracks}
    assert tracks == {"score": 0, "tiles": 2, "hand": 6}
    assert "Passed" in ben.badges and "Ability ready" in ava.badges
    assert view.pending_dice is None and not view.finished
    assert any(note.startswith("Sports: open, 0 = nothing played; Ava") for note in view.notes)
    assert ava.headline == "0 pts"
    assert ava.panel_lines == ("Tiles 2 | Pass play", "Risk: Sports")
    assert ben.panel_lines == ("Tiles 3 | Pass paused", "Hand 7/7")
    assert all(line.isascii() for p in view.players for line in p.panel_lines + (p.headline,))


def test_undo_and_replay_give_the_same_state(table):
    game_id = play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=2, source_type="Coach"))
    before = table.state
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    accepted(table, Undo())
    assert table.state == before
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    everyone_done(table)
    assert replay(table.journal.events(game_id)).state == table.state


def test_end_game_and_every_event_described(table):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    outcome = accepted(table, EndGame(reason="dinner"))
    assert table.state.finished and "dinner" in outcome.message
    for entry in table.history():
        assert entry.text and "{" not in entry.text


def test_config_names_a_catalogue_file_and_the_game_deals_from_it(tmp_path):
    """`[house_rules] catalogue = "cards.toml"` (relative to the config file) is read once at start-up; a new
    game deals the catalogue's Sports Leads, and the cards travel in the journaled options (no file on replay)."""
    from companion.commands import NewGame, PlayerSeat
    from companion.config import load_config
    from companion.journal import Journal
    from companion.session import GameSession
    from companion.table import Table

    (tmp_path / "cards.toml").write_text(CATALOGUE, encoding="utf-8")
    config_file = tmp_path / "companion.toml"
    config_file.write_text(
        '[table]\ngame = "channel-won"\n[house_rules]\ncatalogue = "cards.toml"\n'
        'categories = ["Politics", "Crime", "Business", "Entertainment", "Sports"]\n'
    )
    config = load_config(config_file)
    assert config.house_rules["catalogue"][0]["headline"] == "Upset at the Park"
    (tmp_path / "cards.toml").unlink()  # never read again
    with Journal(tmp_path / "journal.sqlite3") as journal:
        table = Table(journal)
        table.claim()
        outcome = table.execute(
            NewGame(
                game="channel-won",
                players=(PlayerSeat("Ava"), PlayerSeat("Ben"), PlayerSeat("Cleo")),
                options=config.house_rules,
            )
        )
        assert outcome.accepted, outcome.message
        assert table.state.lead("Sports").card.location == "Park"
        replayed = GameSession(table.session.game_id, journal.events(table.session.game_id))
        assert replayed.state.lead("Sports").card.headline == "Upset at the Park"
        assert table.state.lead("Crime").card == LeadCard("Crime")  # not in the catalogue: values entered as played


def test_a_broken_catalogue_file_is_a_config_error_naming_the_key(tmp_path):
    from companion.config import load_config
    from companion.errors import ConfigError

    (tmp_path / "cards.toml").write_text("[[lead]]\ncategory = 'Weather'\n", encoding="utf-8")
    config_file = tmp_path / "companion.toml"
    config_file.write_text('[table]\ngame = "channel-won"\n[house_rules]\ncatalogue = "cards.toml"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(config_file)
    assert caught.value.key == "house_rules.catalogue" and "lead[1].category" in str(caught.value)
    config_file.write_text('[table]\ngame = "channel-won"\n[house_rules]\ncatalogue = "nowhere.toml"\n')
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(config_file)
