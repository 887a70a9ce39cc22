"""Tests written after reviewing the mutants of Telly Time's sampled mutation run that no test caught
(``docs/mutation.md``, "The Networks: Telly Time: the N not caught, reviewed"). Each says which careless
change it guards against; sections are those of ``rules/the-networks-telly-time.txt``, rulings those of
``docs/rulings-telly-time.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest
from telly_time_helpers import ARKADY_TILE, TILES, accepted, by_kind, refused, seats, start, started

from companion.errors import BadOption, IllegalCommand, InsufficientFunds, MalformedCommand
from companion.events import Event
from companion.games.telly_time import (
    TELLY_TIME,
    ChooseMogulLine,
    ChoosePilotShow,
    EnterTile,
    KeepPilotCards,
    Pass,
    PilotCard,
    PlaceGridMarker,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    ShowScore,
)
from companion.games.telly_time.grid import LineBonus, TileLayout, read_tile_catalogue

RULES = TELLY_TIME


# -- Your Genre Grid: a full grid ----------------------------------------------------------------------------------
def test_a_full_grid_offers_no_card_marker(table):
    """ "Your Genre Grid": "Once you've filled a genre square on your grid ... you do not fill any new genre
    squares"; a card's marker (Catalog Buyout, Market Research) needs an empty square. Once all nine squares
    have a marker, "Card: marker" is offered disabled with the reason a press is refused with (ruling 24), not
    enabled. Guards against the season's offer of PlaceGridMarker losing its guard."""
    started(table)
    for genre in ARKADY_TILE["squares"]:
        if genre != "Comedy":
            accepted(table, PlaceGridMarker(player="Arkady", genre=genre, reason="Catalog Buyout"))
    assert table.state.network("Arkady").grid.filled_count == 9
    marker = by_kind(table, "Arkady")["PlaceGridMarker"]
    assert not marker.enabled
    assert marker.reason == "Arkady's grid has no empty square with a genre entered"
    assert marker.rule == "Telly Time: Your Genre Grid"
    error = refused(table, PlaceGridMarker(player="Arkady", genre="Kids", reason="Catalog Buyout"), IllegalCommand)
    assert (error.reason, error.rule) == (marker.reason, marker.rule)
    assert by_kind(table, "Virginia")["PlaceGridMarker"].enabled  # her grid still has empty squares


# -- Telly Time Pilot Season: the kept cards -------------------------------------------------------------------------
def test_kept_cards_may_leave_exactly_no_cash(table):
    """ "Telly Time Pilot Season": "Each player chooses 2 to keep, earning cash bonuses and paying costs
    normally"; cash may not go below $0 (ruling 9) but may reach it. Guards against "< 0" becoming "<= 0"."""
    start(table, starting_cash_m=1)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    cards = (PilotCard("star", "Big Name", 0, 3), PilotCard("ad", "Cola", 2, 0))
    accepted(table, KeepPilotCards(player="Arkady", cards=cards))
    assert table.state.network("Arkady").cash_m == 0


def test_kept_cards_that_cost_too_much_are_refused_naming_the_cash(table):
    """ "Telly Time Pilot Season"; ruling 9 (no loans): the refusal says what the player has and what the
    cards would leave."""
    start(table, starting_cash_m=1)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    cards = (PilotCard("star", "Big Name", 0, 3), PilotCard("ad", "Cola", 1, 0))
    error = refused(table, KeepPilotCards(player="Arkady", cards=cards), InsufficientFunds)
    assert str(error) == ("Arkady has $1M; these cards would leave −$1M (Telly Time: Telly Time Pilot Season)")


def test_kept_cards_cash_is_journaled_per_card_by_name_and_rule(table):
    """ "Telly Time Pilot Season": each kept card's cash bonus is earned and its cost paid, each a line of the
    history naming the card and the rule. Guards against the card's name or the rule dropped from those lines."""
    start(table, starting_cash_m=2)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    cards = (PilotCard("ad", "Soap Suds", 4, 0), PilotCard("star", "Big Name", 0, 1))
    outcome = accepted(table, KeepPilotCards(player="Arkady", cards=cards))
    lines = outcome.message.split("; ")
    assert "Arkady gains $4M: cash bonus of Pilot Season ad Soap Suds (Telly Time: Telly Time Pilot Season)" in lines
    assert "Arkady pays $1M: cost of Pilot Season star Big Name (Telly Time: Telly Time Pilot Season)" in lines
    assert table.state.network("Arkady").cash_m == 5


@pytest.mark.parametrize(
    "card, message",
    [
        (PilotCard("show", "Docs"), "a Pilot Season card is a 'star' or an 'ad', not 'show'"),
        (PilotCard("ad", "x" * 61), f"a card's name must be text of at most 60 characters, not {'x' * 61!r}"),
    ],
)
def test_a_kept_card_that_is_not_a_star_or_an_ad_is_refused_in_words(table, card, message):
    """ "Telly Time Pilot Season": the cards dealt are "the remaining 14 stars and ads"; a card's name is short
    text. Guards against the refusal's words lost or changed."""
    start(table)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    error = refused(table, KeepPilotCards(player="Arkady", cards=(card, PilotCard("ad"))), MalformedCommand)
    assert str(error) == f"{message} (table rule)"


# -- the tile catalogue file (ruling 1; "Tile catalogue and the set-up screens") --------------------------------
SQUARES = ARKADY_TILE["squares"]


@pytest.mark.parametrize(
    "squares",
    [
        "squares = " + repr(SQUARES[:8] + [7]).replace("'", '"'),  # nine, but one is not a name
        'squares = "KidsDrama"',  # not a list
        "squares = 9",
    ],
)
def test_a_catalogue_tile_needs_nine_genre_names(tmp_path, squares):
    """Ruling 1, "Tile catalogue": a tile lists its 9 genres row by row. A list of nine with a number among
    them, or text, or a number, is refused naming the tile. Guards against the check's "or"s turned to "and"."""
    path = tmp_path / "tiles.toml"
    path.write_text(f"[[tile]]\n{squares}\n", encoding="utf-8")
    with pytest.raises(BadOption) as caught:
        read_tile_catalogue(path)
    assert caught.value.option == "tiles"
    assert caught.value.problem == f"tile catalogue {path}: tile 1 needs 'squares': 9 genre names row by row"


@pytest.mark.parametrize(
    "text, problem",
    [
        ("title = 'x'\n[[tile]]\nsquares = SQ\n", "unknown key 'title' (only [[tile]] tables)"),
        (
            "[[tile]]\nsquares = SQ\ncentre = 'Comedy'\n",
            "tile 1: unknown key 'centre' (a tile has 'squares' and 'bonuses')",
        ),
        ("tile = [1, 2]\n", "lists no [[tile]] tables"),
        ("tile = []\n", "lists no [[tile]] tables"),
    ],
)
def test_a_catalogue_with_other_keys_is_refused_naming_the_key(tmp_path, text, problem):
    """Ruling 1, "Tile catalogue": the file holds [[tile]] tables only, each with 'squares' and 'bonuses'."""
    path = tmp_path / "tiles.toml"
    path.write_text(text.replace("SQ", repr(SQUARES).replace("'", '"')), encoding="utf-8")
    with pytest.raises(BadOption) as caught:
        read_tile_catalogue(path)
    assert caught.value.problem == f"tile catalogue {path}: {problem}"


def test_a_catalogue_tile_without_bonuses_has_the_printed_bonuses(tmp_path):
    """Ruling 1: "An unentered bonus is 'the printed bonus'"; a tile without 'bonuses' is a tile whose every
    line gives its printed bonus. Guards against a missing 'bonuses' read as None and refused."""
    path = tmp_path / "tiles.toml"
    path.write_text("[[tile]]\nsquares = " + repr(SQUARES).replace("'", '"') + "\n", encoding="utf-8")
    tiles = read_tile_catalogue(path)
    assert tiles == {"Comedy": {"squares": SQUARES, "bonuses": {}}}
    checked = RULES.check_options({"tiles": {"Comedy": {"squares": SQUARES}}})["tiles"]
    assert checked == {"Comedy": {"squares": SQUARES, "bonuses": {}}}


# -- Mogul Bonus: three lines at once ---------------------------------------------------------------------------------
def test_three_lines_at_once_after_the_first_give_one_mogul_bonus(table):
    """ "Mogul Bonus" and ruling 5: the game's second line gives the mogul bonus instead of its printed bonus;
    when it is among several lines completed at once, the player chooses which, and "all others give their
    printed bonus". Arkady completes the top-right diagonal first, then the top row, left column and
    top-left diagonal with one marker on Kids. Guards against the other lines given a mogul bonus too."""
    started(table, moguls=True)
    for genre in ("Quiz", "Sports"):  # the diagonal top-right to bottom-left: the first line
        accepted(table, PlaceGridMarker(player="Arkady", genre=genre, reason="Catalog Buyout"))
    assert table.state.network("Arkady").grid.completed == ("diag2",)
    for genre in ("Drama", "Crime", "Sci-Fi", "Kids"):
        accepted(table, PlaceGridMarker(player="Arkady", genre=genre, reason="Catalog Buyout"))
    assert table.state.pending.lines == ("row1", "col1", "diag1")
    outcome = accepted(table, ChooseMogulLine(player="Arkady", line="col1"))
    grid = table.state.network("Arkady").grid
    assert grid.completed == ("diag2", "col1", "row1", "diag1")
    lines = outcome.message.split("; ")
    assert lines[0].startswith("Arkady completes the left column, the second line of the tile, and takes the mogul")
    assert lines[1] == (
        "Arkady completes the top row, the third line of the tile, and gains its bonus: Cash bonus (+$3M) "
        "(Telly Time: Your Genre Grid)"
    )
    assert lines[2].startswith(
        "Arkady completes the diagonal top-left to bottom-right, the fourth line of the tile, and gains its bonus: "
        "Ad bonus"
    )


def test_a_line_not_just_completed_is_not_the_mogul_line(table):
    """ "Mogul Bonus", ruling 5: the player chooses which of the lines *just completed* gives the mogul bonus;
    another line of the tile is refused naming the lines to choose from, an unknown line id names the line
    ids. Guards against the choice's check given the wrong line or losing the lines' names."""
    started(table, moguls=True)
    for genre in ("Drama", "Kids", "Comedy", "Chat"):
        accepted(table, PlaceGridMarker(player="Virginia", genre=genre, reason="Catalog Buyout"))
    assert table.state.pending.lines == ("col1", "diag2")
    error = refused(table, ChooseMogulLine(player="Virginia", line="row1"), IllegalCommand)
    assert (error.reason, error.rule) == (
        "choose one of the lines just completed: left column, diagonal top-right to bottom-left",
        "Telly Time: Mogul Bonus",
    )
    error = refused(table, ChooseMogulLine(player="Virginia", line="row9"), MalformedCommand)
    assert str(error) == (
        "no grid line 'row9'; lines are row1, row2, row3, col1, col2, col3, diag1, diag2 (table rule)"
    )


# -- scoring: the words of its refusals -----------------------------------------------------------------------------
SLOTS = ("8pm", "primetime", "late_night", "weekend")


def _to_scoring(table):
    while table.state.phase == "season":
        accepted(table, Pass(player=table.state.current, reward="cash", amount=0))


def test_a_lineup_scored_with_a_show_at_no_viewers_reads_0_not_minus_0(table):
    """Base game, tracked (ruling 6): the history line of a lineup's score lists its parts; a show that scores
    0 viewers reads "0 Laugh Track", with no minus sign. Guards against the first part's sign test
    moved from ≥ 0 to ≥ 1."""
    started(table)
    _to_scoring(table)
    outcome = accepted(table, ScoreLineup(player="Arkady", shows=tuple(ShowScore(s, 0) for s in SLOTS)))
    assert (
        "Arkady scores 1 viewer in season 1: 0 Laugh Track + 0 Starter show + 0 Starter show + 0 Starter show + "
        "1 genre grid (1 filled square)" in outcome.message
    )


@pytest.mark.parametrize(
    "other, message",
    [
        (("x" * 41, 1), f"a viewer entry's label must be text of 1 to 40 characters, not {'x' * 41!r}"),
        (("Network card", 1.5), "viewers must be a whole number, not 1.5"),
        (("Network card",), "other viewers are (label, viewers) pairs, not ('Network card',)"),
    ],
)
def test_other_viewers_of_a_lineup_are_short_labels_and_whole_viewers(table, other, message):
    """Base game, tracked: a lineup's other viewers (network cards, ...) are entered as (label, viewers) with a
    label of at most 40 characters and whole viewers; a mistake is refused in these words. Guards against the
    label's limit moved or the words of the refusal changed."""
    started(table)
    _to_scoring(table)
    shows = tuple(ShowScore(s, 0) for s in SLOTS)
    error = refused(table, ScoreLineup(player="Arkady", shows=shows, other_viewers=(other,)), MalformedCommand)
    assert str(error) == f"{message} (table rule)"
    accepted(table, ScoreLineup(player="Arkady", shows=shows, other_viewers=(("x" * 40, 1),)))


def _to_the_end(table):
    for _ in range(5):
        _to_scoring(table)
        for player in ("Arkady", "Virginia"):
            accepted(table, ScoreLineup(player=player, shows=tuple(ShowScore(s, 0) for s in SLOTS)))
    assert table.state.phase == "end_scoring"


def test_end_game_bonuses_are_row_viewer_pairs_without_the_genres_row_in_words(table):
    """ "End-Game Scoring": "ignore the 'Genres' row" (ruling 17): the refusal says so in the rule's words;
    bonuses are entered as (row, viewers) pairs. Guards against the words of these refusals changed."""
    started(table)
    _to_the_end(table)
    error = refused(table, ScoreEndGame(player="Arkady", bonuses=(("genres", 5),)), IllegalCommand)
    assert (error.reason, error.rule) == (
        "ignore the Genres row of the end-game viewer bonuses with Telly Time",
        "Telly Time: End-Game Scoring",
    )
    error = refused(table, ScoreEndGame(player="Arkady", bonuses="Ads 3"), MalformedCommand)
    assert str(error) == "end-game bonuses are (row, viewers) pairs (table rule)"
    error = refused(table, ScoreEndGame(player="Arkady", bonuses=(("Ads", 3, 1),)), MalformedCommand)
    assert str(error) == "end-game bonuses are (row, viewers) pairs, not ('Ads', 3, 1) (table rule)"


# -- the player buttons ---------------------------------------------------------------------------------------------
def test_an_unknown_button_action_names_the_actions():
    """Ruling "Buttons": each seat has three buttons, on_the_air, sponsor and roll; another action is refused
    naming them. Guards against the list of actions written wrongly."""
    with pytest.raises(MalformedCommand) as caught:
        RULES.button_command("peek", "Arkady")
    assert str(caught.value) == (
        "Telly Time has no button action 'peek'; actions: on_the_air, sponsor, roll (table rule)"
    )


# -- set-up: the options' refusals ------------------------------------------------------------------------------------
def test_options_that_are_not_a_table_are_refused():
    """Ruling 1-10 (the options): a game's options are a table of option names and values; anything else is
    refused as the "options" in these words. Guards against the refusal's option name or words lost."""
    with pytest.raises(BadOption) as caught:
        RULES.check_options([("moguls", True)])
    assert (caught.value.option, caught.value.problem) == ("options", "must be a table of option names and values")


def test_genres_without_kids_quiz_and_chat_are_refused_naming_the_rule():
    """Ruling 2, "New Genres & Show Effects": Telly Time's genres include Kids, Quiz and Chat; nine distinct
    names without them are refused citing the section. Guards against the refusal losing its option name."""
    genres = ["Drama", "Comedy", "Crime", "Reality", "Sports", "Sci-Fi", "Soap", "Quiz", "Chat"]
    with pytest.raises(BadOption) as caught:
        RULES.check_options({"genres": genres})
    assert (caught.value.option, caught.value.problem) == (
        "genres",
        "must include Kids, Quiz and Chat (Telly Time: New Genres & Show Effects)",
    )


def test_a_first_player_who_is_not_playing_is_refused_naming_the_players():
    """Ruling 8: season 1 starts with ``first_player``, who must be one of the players; otherwise the option
    is refused naming who plays. Guards against the option read under a wrong key or the names dropped."""
    with pytest.raises(BadOption) as caught:
        RULES.new_game(seats(), {"first_player": "Kim"})
    assert (caught.value.option, caught.value.problem) == (
        "first_player",
        "'Kim' is not playing; players are Arkady, Virginia",
    )
    state = RULES.new_game(seats(), {"first_player": "Virginia", "tiles": TILES})
    assert state.options["first_player"] == "Virginia"


@pytest.mark.parametrize(
    "tile, problem",
    [
        ({"squares": SQUARES[:8]}, f"the tile for Comedy lists 9 squares, not {SQUARES[:8]!r}"),
        ({"bonuses": {}}, "the tile for Comedy needs 'squares' (9 genres row by row)"),
        ({"squares": SQUARES, "bonuses": []}, "the tile for Comedy: 'bonuses' maps line ids to bonuses"),
        (
            {"squares": SQUARES, "bonuses": {"row1": "Cash"}},
            "the tile for Comedy: bonus of row1 must be a table with a label",
        ),
    ],
)
def test_a_tile_option_as_printed_or_refused_as_the_tiles_option(tile, problem):
    """Ruling 1, "Your Genre Grid": each entered tile is nine genres row by row and a bonus per line; a wrong
    one is refused as the ``tiles`` option, saying what is wrong. Guards against the option's name or the
    problem's words lost on the way out."""
    with pytest.raises(BadOption) as caught:
        RULES.check_options({"tiles": {"Comedy": tile}})
    assert (caught.value.option, caught.value.problem) == ("tiles", f"{problem} (table rule)")


# -- the journal: payloads written before every key was ------------------------------------------------------------
def test_a_line_bonus_payload_with_only_some_keys_reads_with_nothing_added():
    """Ruling 1: "An unentered bonus is 'the printed bonus'", and a bonus adds only the cash and viewers
    entered. A journaled bonus without ``cash_m`` or ``viewers`` reads as adding none of them; one with them
    reads them. Guards against a missing key read as None (the journal then unreadable) or a key misnamed."""
    payload = {"player": "Kim", "line": "col2", "bonus": {"label": "Star bonus"}}
    event = RULES.events.decode("line_bonus_set", payload)
    assert event.bonus == LineBonus("Star bonus", 0, 0)
    payload = {"player": "Kim", "line": "row1", "bonus": {"label": "Cash bonus", "cash_m": 3}}
    assert RULES.events.decode("line_bonus_set", payload).bonus == LineBonus("Cash bonus", 3, 0)
    payload = {"player": "Kim", "line": "row3", "bonus": {"label": "Ratings", "viewers": 2}}
    assert RULES.events.decode("line_bonus_set", payload).bonus == LineBonus("Ratings", 0, 2)


def test_a_pilot_show_payload_with_an_empty_tile_and_a_version_reads_as_a_tile_to_enter():
    """ "Telly Time Pilot Season": without a catalogue, only the centre of the tile is known when the Pilot
    Season show is placed; a journaled ``tile`` of ``{}`` is a tile with nothing entered, and an explicit
    layout version 1 (``"v": 1``) reads the same as none."""
    payload = {"player": "Kim", "genre": "Chat", "name": "Talk", "timeslot": "weekend", "tile": {}, "v": 1}
    event = RULES.events.decode("pilot_show_chosen", payload)
    assert event.tile == TileLayout() and not event.tile_entered and event.preferred == ()
    written = {k: v for k, v in payload.items() if k != "v"}
    assert event.payload == {**written, "tile": TileLayout().to_payload(), "tile_entered": False}


def test_an_old_cash_payload_without_its_rule_reads_without_one():
    """Base game, tracked: journals written before events named their rule have no ``rule`` key; such a row
    reads back and its history line ends with the reason, with no rule in brackets. Guards against the
    missing rule written as something else."""
    event = RULES.events.decode("cash_changed", {"player": "Kim", "amount_m": 3, "reason": "ad income"})
    assert RULES.describe(event) == "Kim gains $3M: ad income"
    event = RULES.events.decode("grid_marker_placed", {"player": "Kim", "square": 1, "genre": "Drama", "reason": "x"})
    assert RULES.describe(event) == "Kim fills the Drama square (top-middle): x"


def test_an_event_of_another_kind_is_described_by_its_type_and_payload():
    """The game contract's ``describe``: an event that is not one of Telly Time's reads as its type and
    payload rather than failing. Guards against the payload dropped from that line."""

    @dataclass(frozen=True)
    class Other(Event):
        TYPE: ClassVar[str] = "other_thing"
        value: int

    assert RULES.describe(Other(3)) == "other_thing {'value': 3}"


# -- Your Genre Grid: the tile's refusals cite their rule -------------------------------------------------------------
def test_entering_a_tile_refusals_name_their_rule(table):
    """ "Telly Time Pilot Season": the centre square is the Pilot Season genre's; "Your Genre Grid": a tile
    entered again unchanged changes nothing. Each refusal gives its reason and cites its section (ruling 24:
    a dimmed button shows the rule). Guards against the rule dropped from these refusals."""
    start(table, tiles={})
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    error = refused(table, EnterTile(player="Arkady", squares=(None,) * 4 + ("Drama",) + (None,) * 4), IllegalCommand)
    assert (error.reason, error.rule) == (
        "the centre square is the Pilot Season genre (Comedy)",
        "Telly Time: Telly Time Pilot Season",
    )
    accepted(table, EnterTile(player="Arkady", squares=("Kids",) + (None,) * 8))
    error = refused(table, EnterTile(player="Arkady", squares=("Kids",) + (None,) * 8), IllegalCommand)
    assert (error.reason, error.rule) == ("Arkady's tile already shows these genres", "Telly Time: Your Genre Grid")


@pytest.mark.parametrize("slot, name", [("primetime", "primetime"), ("late_night", "late night")])
def test_a_kids_show_in_primetime_or_late_night_is_refused_in_the_rules_words(table, slot, name):
    """ "New Genres & Show Effects", Kids: "You can't place Kids shows in your primetime or late night
    timeslots (even using network cards)". Guards against the refusal losing what it refuses."""
    started(table)
    error = refused(table, ProduceShow(player="Arkady", name="Cartoons", genre="Kids", timeslot=slot), IllegalCommand)
    assert error.reason == (
        f"a Kids show can't go in {name} (Kids shows only in 8 PM or weekend), even using network cards"
    )


def test_a_lineup_score_journals_each_shows_genre(table):
    """Base game, tracked; "New Genres & Show Effects": a lineup's score is journaled show by show with each
    show's name, genre and viewers (what the history and an export read back). Guards against a show's
    genre left out of its total."""
    started(table)
    _to_scoring(table)
    outcome = accepted(table, ScoreLineup(player="Arkady", shows=tuple(ShowScore(s, 2) for s in SLOTS)))
    scored = [r.payload for r in outcome.records if r.type == "lineup_scored"][0]
    assert [(s["name"], s["genre"], s["total"]) for s in scored["shows"]] == [
        ("Laugh Track", "Comedy", 2),
        ("Starter show", "", 2),
        ("Starter show", "", 2),
        ("Starter show", "", 2),
    ]


# -- Your Genre Grid: one square missing; Quiz: the bought viewers' limit --------------------------------------------
def test_start_season_names_one_missing_square_in_the_singular(table):
    """ "Your Genre Grid": the season starts only once every tile's genres are entered (ruling on the tile
    entry). With one square missing the refusal says "the genre of the top-left square", one genre, not
    "genres". Guards against the count of missing squares dropped from the words."""
    from companion.games.telly_time import SetGridSquare, StartSeason
    from companion.games.telly_time.grid import CENTRE

    start(table, tiles={"Reality": TILES["Reality"]})
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    accepted(table, ChoosePilotShow(player="Virginia", genre="Reality", timeslot="late_night"))
    accepted(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad"), PilotCard("ad"))))
    accepted(table, KeepPilotCards(player="Virginia", cards=(PilotCard("ad"), PilotCard("ad"))))
    for square, genre in enumerate(TILES["Comedy"]["squares"]):
        if square not in (CENTRE, 0):
            accepted(table, SetGridSquare(player="Arkady", square=square, genre=genre))
    error = refused(table, StartSeason(), IllegalCommand)
    assert str(error) == "Arkady's tile: enter the genre of the top-left square (Telly Time: Your Genre Grid)"


def test_a_quiz_buying_more_than_five_viewers_is_refused_in_words(table):
    """Quiz: "buy up to 5 extra viewers at $1M each". Six are refused with the show, the limit and the number
    asked for. Guards against the words of check_whole's upper bound being lost."""
    started(table)
    accepted(
        table, ProduceShow(player="Arkady", name="Brain Box", genre="Quiz", timeslot="weekend", preferred=("weekend",))
    )
    accepted(table, Pass(player="Virginia", reward="cash", amount=0))
    accepted(table, Pass(player="Arkady", reward="cash", amount=0))
    base = (ShowScore("8pm", 0), ShowScore("primetime", 0), ShowScore("late_night", 0))
    shows = base + (ShowScore("weekend", 2, quiz_bought=6),)
    error = refused(table, ScoreLineup(player="Arkady", shows=shows), IllegalCommand)
    assert (
        str(error)
        == "Brain Box's bought viewers must be at most 5, not 6 (Telly Time: New Genres & Show Effects, Quiz)"
    )
