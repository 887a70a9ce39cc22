"""The Networks with Telly Time (rules/the-networks-telly-time.txt), through the real Table and journal.

Each test names the rulebook section it checks. Refused commands must change nothing and journal nothing.
"""

from __future__ import annotations

import pytest
from telly_time_helpers import PLAYERS, TILES, accepted, refused, seats, start, started

from companion.commands import AnswerDice, EndGame, NewGame, RollDice, TransferMoney, Undo
from companion.errors import BadOption, GameFinished, IllegalCommand, InsufficientFunds, MalformedCommand
from companion.game import Game
from companion.games import find_game
from companion.games.telly_time import (
    TELLY_TIME,
    AdjustCash,
    AdjustViewers,
    ChangeShowGenre,
    ChooseMogulLine,
    ChoosePilotShow,
    KeepPilotCards,
    MoveShow,
    Pass,
    PilotCard,
    PlaceGridMarker,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    SetGridSquare,
    SetLineBonus,
    ShowScore,
    StartSeason,
    TakeAction,
)
from companion.games.telly_time.grid import CENTRE
from companion.games.telly_time.info import INFO


def net(table, name):
    return table.state.network(name)


def messages(outcome):
    return outcome.message


def score_all_starters(table, player, **kw):
    """Score ``player``'s lineup with every show at 0 viewers (isolates grid and pass track viewers)."""
    shows = tuple(ShowScore(slot, 0) for slot in ("8pm", "primetime", "late_night", "weekend"))
    return accepted(table, ScoreLineup(player=player, shows=shows, **kw))


# -- registry, options, set-up -------------------------------------------------------------------------------


def test_registered_by_name_with_title_and_protocol_members():
    rules = find_game("telly-time")
    assert rules is TELLY_TIME
    assert isinstance(rules, Game) and rules.info == INFO
    assert rules.info.title == "Telly Time"
    assert rules.info.player_word == "players" and rules.info.min_players == 1  # solo: the module's "Solo Mode"
    assert tuple(b.action for b in rules.info.buttons) == ("on_the_air", "sponsor", "roll")
    assert all(b.label for b in rules.info.buttons)
    assert len(rules.info.default_names) == rules.info.max_players == 5


@pytest.mark.parametrize(
    "options, option",
    [
        ({"moguls": "yes"}, "moguls"),
        ({"starting_cash_m": -1}, "starting_cash_m"),
        ({"genres": ["A"] * 9}, "genres"),
        ({"genres": ["A", "B", "C", "D", "E", "F", "G", "H", "I"]}, "genres"),
        ({"turn_order": "random"}, "turn_order"),
        ({"colour": 1}, "colour"),
        ({"tiles": {"Comedy": {"squares": ["Comedy"] * 9}}}, "tiles"),
        ({"tiles": {"Comedy": {**TILES["Comedy"], "bonuses": {"row9": {"label": "x"}}}}}, "tiles"),
        ({"tiles": {"Drama": TILES["Comedy"]}}, "tiles"),  # Comedy is in the centre, not Drama
    ],
)
def test_bad_options_refused_naming_the_option(table, options, option):
    outcome = table.execute(NewGame(game="telly-time", players=seats(), options=options))
    assert isinstance(outcome.refusal, BadOption) and outcome.refusal.option == option
    assert table.session is None


def test_setup_starting_cash_and_one_to_five_players(table):
    start(table, starting_cash_m=7)
    assert [n.cash_m for n in table.state.networks] == [7, 7]
    assert table.state.phase == "pilot" and table.state.season == 0
    for count in (0, 6):
        outcome = table.execute(NewGame(game="telly-time", players=seats(("A", "B", "C", "D", "E", "F")[:count])))
        assert isinstance(outcome.refusal, IllegalCommand) and "1 to 5" in str(outcome.refusal)


def test_first_player_must_be_playing(table):
    outcome = table.execute(NewGame(game="telly-time", players=seats(), options={"first_player": "Zed"}))
    assert isinstance(outcome.refusal, BadOption)


# -- Telly Time Pilot Season ---------------------------------------------------------------------------------


def test_pilot_show_takes_tile_with_its_genre_in_centre_and_marks_centre(table):
    start(table)
    accepted(table, ChoosePilotShow(player="Arkady", genre="comedy", timeslot="8pm", name="Laugh Track"))
    arkady = net(table, "Arkady")
    assert arkady.grid.squares == tuple(TILES["Comedy"]["squares"])
    assert arkady.grid.filled == tuple(i == CENTRE for i in range(9))
    assert arkady.grid.empty_count == 8
    assert arkady.grid.bonus("col2").label == "Draw 2 stars, sign 1 free"
    # the pilot sits in its preferred slot, starter shows in the other three (4th slot = weekend)
    assert [s.name for s in arkady.lineup] == ["Laugh Track", "Starter show", "Starter show", "Starter show"]
    assert arkady.pilot.genre == "Comedy"


def test_pilot_refusals(table):
    start(table)
    refused(table, ChoosePilotShow(player="Arkady", genre="Western", timeslot="8pm"), MalformedCommand)
    refused(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="midnight"), MalformedCommand)
    refused(table, ChoosePilotShow(player="Nobody", genre="Comedy", timeslot="8pm"), MalformedCommand)
    error = refused(table, ChoosePilotShow(player="Arkady", genre="Kids", timeslot="primetime"), IllegalCommand)
    assert "Kids" in error.rule
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    refused(table, ChoosePilotShow(player="Arkady", genre="Drama", timeslot="8pm"), IllegalCommand)  # mashed
    error = refused(table, ChoosePilotShow(player="Virginia", genre="Comedy", timeslot="8pm"), IllegalCommand)
    assert "one tile per genre" in str(error)


def test_pilot_cards_keep_exactly_two_earning_bonuses_and_paying_costs(table):
    start(table, starting_cash_m=2)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    refused(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad", "Cola", 3),)), IllegalCommand)
    refused(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad", cash_m=3),) * 3), IllegalCommand)
    refused(table, KeepPilotCards(player="Arkady", cards=(PilotCard("movie"), PilotCard("ad"))), MalformedCommand)
    refused(
        table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad", cash_m=-3), PilotCard("ad"))), MalformedCommand
    )
    # $2M + $0M − $5M would go below zero
    refused(
        table, KeepPilotCards(player="Arkady", cards=(PilotCard("star", cost_m=5), PilotCard("ad"))), InsufficientFunds
    )
    outcome = accepted(
        table,
        KeepPilotCards(player="Arkady", cards=(PilotCard("ad", "Cola", 4, 0), PilotCard("star", "Big Name", 0, 3))),
    )
    assert net(table, "Arkady").cash_m == 2 + 4 - 3
    assert "Arkady gains $4M: cash bonus of Pilot Season ad Cola" in outcome.message
    assert "Arkady pays $3M: cost of Pilot Season star Big Name" in outcome.message
    refused(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad"), PilotCard("ad"))), IllegalCommand)


def test_season_one_waits_for_every_pilot_season(table):
    start(table)
    error = refused(table, StartSeason(), IllegalCommand)
    assert "Arkady" in str(error)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    accepted(table, ChoosePilotShow(player="Virginia", genre="Reality", timeslot="late_night"))
    accepted(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad"), PilotCard("ad"))))
    refused(table, StartSeason(), IllegalCommand)
    accepted(table, KeepPilotCards(player="Virginia", cards=(PilotCard("ad"), PilotCard("ad"))))
    accepted(table, StartSeason())
    assert table.state.season == 1 and table.state.current == "Arkady"
    refused(table, StartSeason(), IllegalCommand)


def test_tile_not_in_options_is_entered_square_by_square(table):
    start(table, tiles={})
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    grid = net(table, "Arkady").grid
    assert grid.squares.count(None) == 8 and not grid.entered
    refused(table, SetGridSquare(player="Arkady", square=CENTRE, genre="Drama"), IllegalCommand)
    refused(table, SetGridSquare(player="Arkady", square=9, genre="Drama"), MalformedCommand)
    for square, genre in enumerate(TILES["Comedy"]["squares"]):
        if square != CENTRE:
            accepted(table, SetGridSquare(player="Arkady", square=square, genre=genre))
    assert net(table, "Arkady").grid.squares == tuple(TILES["Comedy"]["squares"])
    # a genre already on an empty square swaps places with the square's genre (a correction)
    accepted(table, SetGridSquare(player="Arkady", square=0, genre="Drama"))
    assert net(table, "Arkady").grid.squares[:2] == ("Drama", "Kids")
    accepted(table, SetLineBonus(player="Arkady", line="row1", label="Network bonus", cash_m=2))
    assert net(table, "Arkady").grid.bonus("row1").describe() == "Network bonus (+$2M)"
    refused(table, SetLineBonus(player="Arkady", line="row4", label="x"), MalformedCommand)
    refused(table, SetLineBonus(player="Arkady", line="row1", label=""), MalformedCommand)
    refused(table, SetLineBonus(player="Arkady", line="row1", label="x", viewers=-1), MalformedCommand)


def test_start_season_refused_while_a_tile_is_not_fully_entered(table):
    start(table, tiles={"Reality": TILES["Reality"]})
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    accepted(table, ChoosePilotShow(player="Virginia", genre="Reality", timeslot="late_night"))
    accepted(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad"), PilotCard("ad"))))
    accepted(table, KeepPilotCards(player="Virginia", cards=(PilotCard("ad"), PilotCard("ad"))))
    error = refused(table, StartSeason(), IllegalCommand)
    assert "Arkady's tile" in str(error) and error.rule == "Telly Time: Your Genre Grid"


# -- Your Genre Grid: the module's examples ------------------------------------------------------------------


def test_example_arkady_produces_a_drama_show_and_completes_a_column(table):
    """ "Arkady produces a drama show and completes a column. He draws 2 stars and signs 1 for free.\""""
    started(table)
    accepted(table, PlaceGridMarker(player="Arkady", genre="Chat", reason="Catalog Buyout"))
    assert net(table, "Arkady").grid.completed == ()
    outcome = accepted(
        table, ProduceShow(player="Arkady", name="Docs", genre="Drama", timeslot="primetime", preferred=("primetime",))
    )
    arkady = net(table, "Arkady")
    assert arkady.grid.completed == ("col2",)
    assert (
        "Arkady completes the middle column, the first line of the tile, and gains its bonus: Draw 2 stars, sign 1 free"
    ) in outcome.message
    assert arkady.show_in("primetime").name == "Docs"


def test_example_virginia_completes_a_column_and_a_diagonal_at_once(table):
    """ "Virginia completes both a column and diagonal at the same time. She gains both a network bonus
    AND wild bonus." (no Moguls)"""
    started(table)
    for genre in ("Drama", "Kids", "Comedy"):
        accepted(table, PlaceGridMarker(player="Virginia", genre=genre, reason="Catalog Buyout"))
    assert net(table, "Virginia").grid.completed == ()
    before = net(table, "Virginia").viewers
    outcome = accepted(table, PlaceGridMarker(player="Virginia", genre="Chat", reason="Market Research"))
    grid = net(table, "Virginia").grid
    assert set(grid.completed) == {"col1", "diag2"}
    assert "Network bonus" in outcome.message and "Wild bonus (+1 viewer)" in outcome.message
    assert net(table, "Virginia").viewers == before + 1  # the wild bonus's entered viewer


def test_several_lines_each_gain_cash_and_viewers_entered(table):
    """ "If you complete multiple lines at the same time, you gain the bonus for each completed line.\""""
    started(table)
    cash, viewers = net(table, "Arkady").cash_m, net(table, "Arkady").viewers
    for genre in ("Kids", "Quiz", "Sports", "Chat"):
        accepted(table, PlaceGridMarker(player="Arkady", genre=genre))
    assert net(table, "Arkady").grid.completed == ("diag2",)  # Quiz, Comedy, Sports
    # Sci-Fi completes the bottom row (+2 viewers) and the other diagonal (+$2M, +1 viewer) at once
    outcome = accepted(table, PlaceGridMarker(player="Arkady", genre="Sci-Fi"))
    assert net(table, "Arkady").grid.completed == ("diag2", "row3", "diag1")
    assert (net(table, "Arkady").cash_m, net(table, "Arkady").viewers) == (cash + 2, viewers + 3)
    assert outcome.message.count("completes the") == 2
    # Drama completes the top row (+$3M) and the middle column
    accepted(table, PlaceGridMarker(player="Arkady", genre="Drama"))
    assert set(net(table, "Arkady").grid.completed) == {"diag2", "row3", "diag1", "row1", "col2"}
    assert net(table, "Arkady").cash_m == cash + 2 + 3


def test_filled_genre_never_fills_again_but_shows_of_it_can_still_be_produced(table):
    started(table)
    accepted(table, ProduceShow(player="Arkady", name="Docs", genre="Drama", timeslot="primetime"))
    accepted(table, TakeAction(player="Virginia", action="Sign a star"))
    outcome = accepted(table, ProduceShow(player="Arkady", name="More Docs", genre="Drama", timeslot="weekend"))
    assert "fills" not in outcome.message
    assert net(table, "Arkady").grid.filled_count == 2
    error = refused(table, PlaceGridMarker(player="Arkady", genre="Drama", reason="Market Research"), IllegalCommand)
    assert "never fills again" in str(error)


def test_catalog_buyout_may_fill_kids_quiz_or_chat(table):
    started(table)
    for genre in ("Kids", "Quiz", "Chat"):
        accepted(table, PlaceGridMarker(player="Virginia", genre=genre, reason="Catalog Buyout"))
    assert net(table, "Virginia").grid.filled_count == 4
    refused(table, PlaceGridMarker(player="Virginia", genre="Western"), MalformedCommand)


def test_line_bonus_cannot_be_changed_once_gained(table):
    started(table)
    accepted(table, PlaceGridMarker(player="Arkady", genre="Chat"))
    accepted(table, PlaceGridMarker(player="Arkady", genre="Drama"))
    refused(table, SetLineBonus(player="Arkady", line="col2", label="Other"), IllegalCommand)
    accepted(table, SetLineBonus(player="Arkady", line="col1", label="Other"))
    refused(table, SetGridSquare(player="Arkady", square=1, genre="Kids"), IllegalCommand)  # has a marker


# -- Mogul Bonus ---------------------------------------------------------------------------------------------


def test_without_moguls_the_second_line_gains_its_printed_bonus(table):
    started(table)
    accepted(table, PlaceGridMarker(player="Arkady", genre="Chat"))
    accepted(table, PlaceGridMarker(player="Arkady", genre="Drama"))  # line 1: middle column
    for genre in ("Kids",):
        accepted(table, PlaceGridMarker(player="Arkady", genre=genre))
    cash = net(table, "Arkady").cash_m
    outcome = accepted(table, PlaceGridMarker(player="Arkady", genre="Quiz"))  # line 2: top row (+$3M)
    assert "Mogul" not in outcome.message
    assert net(table, "Arkady").cash_m == cash + 3


def test_with_moguls_the_second_line_gives_a_mogul_bonus_instead(table):
    started(table, moguls=True)
    accepted(table, PlaceGridMarker(player="Arkady", genre="Chat"))
    accepted(table, PlaceGridMarker(player="Arkady", genre="Drama"))  # line 1: printed bonus
    accepted(table, PlaceGridMarker(player="Arkady", genre="Kids"))
    cash = net(table, "Arkady").cash_m
    outcome = accepted(table, PlaceGridMarker(player="Arkady", genre="Quiz"))  # line 2: mogul, not +$3M
    assert "takes the mogul bonus instead of its printed bonus: draw 2 moguls, keep 1" in outcome.message
    assert net(table, "Arkady").cash_m == cash
    accepted(table, PlaceGridMarker(player="Arkady", genre="Sports"))
    cash = net(table, "Arkady").cash_m
    outcome = accepted(table, PlaceGridMarker(player="Arkady", genre="Sci-Fi"))  # line 3: bottom row, printed
    assert "Ratings (+2 viewers)" in outcome.message and "Mogul" not in outcome.message


def test_with_moguls_first_two_lines_at_once_the_player_chooses(table):
    """ "If you complete your first 2 lines at the same time, choose which of them you complete 'first'
    and gain its printed bonus, then gain a mogul bonus instead of the printed bonus for the other line.\""""
    started(table, moguls=True)
    for genre in ("Drama", "Kids", "Comedy"):
        accepted(table, PlaceGridMarker(player="Virginia", genre=genre))
    viewers = net(table, "Virginia").viewers
    outcome = accepted(table, PlaceGridMarker(player="Virginia", genre="Chat"))
    assert table.state.pending is not None and set(table.state.pending.lines) == {"col1", "diag2"}
    assert "chooses which one gives the mogul bonus" in outcome.message
    # everything else waits for the choice, and only Virginia may choose, only one of the two lines
    refused(table, TakeAction(player="Arkady", action="Sign a star"), IllegalCommand)
    refused(table, ChooseMogulLine(player="Arkady", line="col1"), IllegalCommand)
    refused(table, ChooseMogulLine(player="Virginia", line="row1"), IllegalCommand)
    refused(table, ChooseMogulLine(player="Virginia", line="nope"), MalformedCommand)
    outcome = accepted(table, ChooseMogulLine(player="Virginia", line="col1"))
    grid = net(table, "Virginia").grid
    assert grid.completed == ("diag2", "col1")  # the wild diagonal counted first
    assert net(table, "Virginia").viewers == viewers + 1  # its printed +1 viewer, no network bonus
    assert "mogul bonus" in outcome.message
    assert table.state.pending is None
    # a command of the game, only not now: refused as such (it said "Telly Time has no command ChooseMogulLine")
    error = refused(table, ChooseMogulLine(player="Virginia", line="col1"), IllegalCommand)
    assert "nobody is choosing which line gives the mogul bonus now" in str(error) and "Mogul" in str(error)


# -- turns and passing: Empty & Filled Squares -----------------------------------------------------------------


def test_turn_order_is_enforced(table):
    started(table)
    error = refused(table, ProduceShow(player="Virginia", name="X", genre="Drama", timeslot="8pm"), IllegalCommand)
    assert "Arkady's turn" in str(error)
    accepted(table, TakeAction(player="Arkady", action="Land an ad", cash_m=2))
    assert table.state.current == "Virginia"
    assert net(table, "Arkady").cash_m == 3 + 2


def test_example_passing_with_five_empty_squares(table):
    """ "Arkady passes and selects the 6 on the pass track. He has 5 empty squares, so he gets $5M
    immediately. When the round ends, he scores +6 from the pass track, and +4 from filled squares.\""""
    started(table)
    for genre in ("Drama", "Kids", "Quiz"):
        accepted(table, PlaceGridMarker(player="Arkady", genre=genre))
    assert net(table, "Arkady").grid.empty_count == 5
    cash = net(table, "Arkady").cash_m
    outcome = accepted(table, Pass(player="Arkady", reward="viewers", amount=6))
    assert net(table, "Arkady").cash_m == cash + 5
    assert "Arkady gains $5M: passing with 5 empty grid squares at $1M each" in outcome.message
    accepted(table, Pass(player="Virginia", reward="cash", amount=4))
    assert table.state.phase == "scoring"
    viewers = net(table, "Arkady").viewers
    outcome = score_all_starters(table, "Arkady")
    assert net(table, "Arkady").viewers == viewers + 6 + 4
    assert "genre grid (4 filled squares)" in outcome.message and "6 pass track" in outcome.message


def test_grid_pays_on_passing_whatever_the_pass_track_choice(table):
    started(table)
    accepted(table, Pass(player="Arkady", reward="cash", amount=3))
    assert net(table, "Arkady").cash_m == 3 + 8 + 3  # 8 empty squares and the $3M on the track
    refused(table, Pass(player="Arkady", reward="cash", amount=3), IllegalCommand)  # mashed: already passed
    refused(table, Pass(player="Virginia", reward="fame", amount=3), MalformedCommand)
    refused(table, Pass(player="Virginia", reward="cash", amount=-3), MalformedCommand)


def test_preempted_timeslot_doubles_only_the_pass_track_cash(table):
    started(table)
    outcome = accepted(table, Pass(player="Arkady", reward="cash", amount=3, preempted=True))
    assert net(table, "Arkady").cash_m == 3 + 8 + 6  # grid $8M not doubled
    assert (
        "Arkady passes first and takes $6M from the pass track ($3M doubled by Preempted Timeslot)" in outcome.message
    )
    assert "pass track $3M, doubled by Preempted Timeslot" in outcome.message


def test_preempted_timeslot_doubles_only_the_pass_track_viewers(table):
    started(table)
    accepted(table, Pass(player="Arkady", reward="viewers", amount=5, preempted=True))
    accepted(table, Pass(player="Virginia", reward="viewers", amount=4))
    score_all_starters(table, "Arkady")
    assert net(table, "Arkady").viewers == 10 + 1  # 5 × 2, and 1 filled square not doubled
    score_all_starters(table, "Virginia")
    assert net(table, "Virginia").viewers == 4 + 1


def test_next_season_order_follows_passing_and_season_resets(table):
    started(table)
    accepted(table, TakeAction(player="Arkady", action="Sign a star"))
    accepted(table, Pass(player="Virginia", reward="cash", amount=5))
    assert table.state.current == "Arkady"  # Virginia is skipped once passed
    accepted(table, Pass(player="Arkady", reward="cash", amount=2))
    score_all_starters(table, "Arkady")
    refused(table, ScoreLineup(player="Arkady", shows=()), IllegalCommand)  # mashed
    score_all_starters(table, "Virginia")
    state = table.state
    assert state.season == 2 and state.order == ("Virginia", "Arkady") and state.current == "Virginia"
    assert all(n.passed is None and not n.scored for n in state.networks)


def test_seat_turn_order_option(table):
    started(table, turn_order="seat")
    accepted(table, Pass(player="Arkady", reward="cash", amount=1))
    accepted(table, Pass(player="Virginia", reward="cash", amount=1))
    score_all_starters(table, "Arkady")
    score_all_starters(table, "Virginia")
    assert table.state.order == ("Arkady", "Virginia")


def test_costs_cannot_exceed_cash_unless_the_option_allows(table):
    started(table)
    error = refused(
        table, ProduceShow(player="Arkady", name="X", genre="Drama", timeslot="8pm", cost_m=9), InsufficientFunds
    )
    assert "$3M" in str(error)
    refused(table, TakeAction(player="Arkady", action="Sign a star", cash_m=-4), InsufficientFunds)
    refused(table, AdjustCash(player="Arkady", amount_m=-4, reason="fine"), InsufficientFunds)


def test_negative_cash_allowed_by_option(table):
    started(table, allow_negative_cash=True)
    accepted(table, AdjustCash(player="Arkady", amount_m=-4, reason="upkeep"))
    assert net(table, "Arkady").cash_m == -1
    assert table.view().players[0].tracks[0].value == -1
    assert table.view().players[0].headline == "-$1M"


# -- timeslots and genres ------------------------------------------------------------------------------------


@pytest.mark.parametrize("slot", ["primetime", "late_night"])
def test_kids_cannot_go_in_primetime_or_late_night(table, slot):
    started(table)
    error = refused(table, ProduceShow(player="Arkady", name="Cartoons", genre="Kids", timeslot=slot), IllegalCommand)
    assert "can't go in" in str(error) and error.rule == "Telly Time: New Genres & Show Effects, Kids"


@pytest.mark.parametrize("slot", ["8pm", "weekend"])
def test_kids_may_go_in_8pm_or_weekend(table, slot):
    started(table)
    accepted(table, ProduceShow(player="Arkady", name="Cartoons", genre="Kids", timeslot=slot))
    assert net(table, "Arkady").show_in(slot).genre == "Kids"


def test_flexible_schedule_cannot_move_kids_into_primetime(table):
    started(table)
    accepted(table, ProduceShow(player="Arkady", name="Cartoons", genre="Kids", timeslot="weekend"))
    refused(table, MoveShow(player="Arkady", from_slot="weekend", to_slot="primetime"), IllegalCommand)
    # nor by swapping another show into the Kids show's slot from primetime
    refused(table, MoveShow(player="Arkady", from_slot="primetime", to_slot="weekend"), IllegalCommand)
    accepted(table, MoveShow(player="Arkady", from_slot="weekend", to_slot="8pm"))
    assert net(table, "Arkady").show_in("8pm").name == "Cartoons"
    assert net(table, "Arkady").show_in("weekend").name == "Laugh Track"


def test_versatile_actor_changes_genre_without_the_show_effect(table):
    started(table)
    accepted(table, ChangeShowGenre(player="Arkady", timeslot="primetime", genre="Kids"))
    show = net(table, "Arkady").show_in("primetime")
    assert show.genre == "Kids" and show.printed_genre == ""  # stays in primetime: no Kids effect
    accepted(table, ChangeShowGenre(player="Arkady", timeslot="8pm", genre="Quiz"))
    accepted(table, Pass(player="Arkady", reward="cash", amount=0))
    accepted(table, Pass(player="Virginia", reward="cash", amount=0))
    shows = (
        ShowScore("8pm", 2, quiz_bought=1),
        ShowScore("primetime", 0),
        ShowScore("late_night", 0),
        ShowScore("weekend", 0),
    )
    error = refused(table, ScoreLineup(player="Arkady", shows=shows), IllegalCommand)
    assert "only a Quiz show" in str(error)


def test_quiz_buys_up_to_five_viewers_at_one_million_each(table):
    started(table)
    accepted(
        table, ProduceShow(player="Arkady", name="Brain Box", genre="Quiz", timeslot="weekend", preferred=("weekend",))
    )
    accepted(table, Pass(player="Virginia", reward="cash", amount=0))
    accepted(table, Pass(player="Arkady", reward="cash", amount=0))
    cash = net(table, "Arkady").cash_m
    base = (ShowScore("8pm", 0), ShowScore("primetime", 0), ShowScore("late_night", 0))
    refused(table, ScoreLineup(player="Arkady", shows=base + (ShowScore("weekend", 2, quiz_bought=6),)), IllegalCommand)
    refused(
        table,
        ScoreLineup(player="Arkady", shows=base + (ShowScore("weekend", 2, quiz_bought=3),), costs_m=cash),
        InsufficientFunds,
    )
    outcome = accepted(table, ScoreLineup(player="Arkady", shows=base + (ShowScore("weekend", 2, quiz_bought=3),)))
    assert net(table, "Arkady").cash_m == cash - 3
    assert "Brain Box scores 5 = 2 show + 3 Quiz: bought at $1M each" in outcome.message
    assert "Arkady pays $3M: 3 Quiz bonus viewers at $1M each" in outcome.message
    accepted(table, Undo())
    outcome = accepted(table, ScoreLineup(player="Arkady", shows=base + (ShowScore("weekend", 2, quiz_bought=1),)))
    assert "Arkady pays $1M: 1 Quiz bonus viewer at $1M each" in outcome.message


def test_example_chat_show_scores_stars_on_other_shows(table):
    """ "'Lay All Your Chat On Me' scores a total of 9 viewers (3 for the show itself + 6 from 2 stars on
    other shows).\""""
    started(table)
    accepted(
        table,
        ProduceShow(
            player="Arkady",
            name="Lay All Your Chat On Me",
            genre="Chat",
            timeslot="primetime",
            preferred=("primetime",),
        ),
    )
    accepted(table, Pass(player="Virginia", reward="cash", amount=0))
    accepted(table, Pass(player="Arkady", reward="cash", amount=0))
    shows = (
        ShowScore("8pm", 2, stars=(4,)),
        ShowScore("primetime", 3),
        ShowScore("late_night", 1, stars=(2,)),
        ShowScore("weekend", 0),
    )
    outcome = accepted(table, ScoreLineup(player="Arkady", shows=shows))
    scored = outcome.records[-1].payload
    chat = next(s for s in scored["shows"] if s["name"] == "Lay All Your Chat On Me")
    assert chat["total"] == 9
    assert chat["parts"] == [["show", 3], ["Chat: stars on other shows (4+2)", 6]]
    assert "Lay All Your Chat On Me scores 9 = 3 show + 6 Chat: stars on other shows (4+2)" in outcome.message
    # the lineup: 6 + 9 + 3 + 0 shows, + 2 filled squares (Comedy centre, Chat)
    assert scored["total"] == 6 + 9 + 3 + 0 + 2


def test_chat_does_not_count_its_own_stars(table):
    started(table)
    accepted(table, ProduceShow(player="Arkady", name="Talk", genre="Chat", timeslot="primetime"))
    accepted(table, Pass(player="Virginia", reward="cash", amount=0))
    accepted(table, Pass(player="Arkady", reward="cash", amount=0))
    shows = (
        ShowScore("8pm", 0),
        ShowScore("primetime", 3, stars=(5,)),
        ShowScore("late_night", 0),
        ShowScore("weekend", 0),
    )
    outcome = accepted(table, ScoreLineup(player="Arkady", shows=shows))
    talk = outcome.records[-1].payload["shows"][1]
    assert talk["total"] == 8 and talk["parts"] == [["show", 3], ["star on it", 5]]


def _to_scoring(table):
    while table.state.phase == "season":
        accepted(table, Pass(player=table.state.current, reward="cash", amount=0))


def test_timeslot_penalty_refused_for_any_and_two_slot_shows_in_their_slots(table):
    started(table)
    accepted(table, ProduceShow(player="Arkady", name="Anytime", genre="Drama", timeslot="weekend", preferred=("any",)))
    accepted(
        table,
        ProduceShow(
            player="Virginia", name="Either", genre="Crime", timeslot="primetime", preferred=("primetime", "late_night")
        ),
    )
    _to_scoring(table)
    arkady = (ShowScore("8pm", 0), ShowScore("primetime", 0), ShowScore("late_night", 0))
    error = refused(
        table, ScoreLineup(player="Arkady", shows=arkady + (ShowScore("weekend", 3, penalty=1),)), IllegalCommand
    )
    assert "ANY" in str(error) and error.rule == "Telly Time: Wild Timeslots"
    virginia = (ShowScore("8pm", 0), ShowScore("weekend", 0))
    error = refused(
        table,
        ScoreLineup(
            player="Virginia", shows=virginia + (ShowScore("primetime", 3, penalty=1), ShowScore("late_night", 0))
        ),
        IllegalCommand,
    )
    assert "preferred" in str(error)
    # a starter show (no preference recorded) may take a penalty as counted at the table
    outcome = accepted(
        table,
        ScoreLineup(
            player="Virginia",
            shows=(
                ShowScore("8pm", 2, penalty=1),
                ShowScore("weekend", 0),
                ShowScore("primetime", 3),
                ShowScore("late_night", 0),
            ),
        ),
    )
    assert "Starter show scores 1 = 2 show − 1 timeslot penalty" in outcome.message


def test_two_slot_show_out_of_its_slots_may_take_a_penalty(table):
    started(table)
    accepted(
        table,
        ProduceShow(
            player="Arkady", name="Either", genre="Crime", timeslot="weekend", preferred=("primetime", "late_night")
        ),
    )
    _to_scoring(table)
    shows = (
        ShowScore("8pm", 0),
        ShowScore("primetime", 0),
        ShowScore("late_night", 0),
        ShowScore("weekend", 4, penalty=2),
    )
    outcome = accepted(table, ScoreLineup(player="Arkady", shows=shows))
    assert outcome.records[-1].payload["shows"][3]["total"] == 2


def test_lineup_score_must_cover_each_show_once(table):
    started(table)
    _to_scoring(table)
    refused(table, ScoreLineup(player="Arkady", shows=(ShowScore("8pm", 1),)), MalformedCommand)
    refused(table, ScoreLineup(player="Arkady", shows=(ShowScore("8pm", 1),) * 4), MalformedCommand)
    refused(
        table,
        ScoreLineup(
            player="Arkady",
            shows=(
                ShowScore("8pm", -1),
                ShowScore("primetime", 0),
                ShowScore("late_night", 0),
                ShowScore("weekend", 0),
            ),
        ),
        MalformedCommand,
    )


def test_income_costs_and_other_viewers_are_free_entries_with_breakdown(table):
    started(table)
    _to_scoring(table)
    cash = net(table, "Arkady").cash_m
    outcome = score_all_starters(table, "Arkady", income_m=5, costs_m=2, other_viewers=(("Network card", 3),))
    assert net(table, "Arkady").cash_m == cash + 3
    assert "3 Network card" in outcome.message


def test_variety_channel_counts_genres_on_two_shows_including_reruns(table):
    started(table)
    accepted(table, ProduceShow(player="Arkady", name="Q1", genre="Quiz", timeslot="weekend"))
    accepted(table, TakeAction(player="Virginia", action="Land an ad"))
    accepted(table, ProduceShow(player="Arkady", name="D1", genre="Drama", timeslot="primetime"))
    _to_scoring(table)
    outcome = score_all_starters(table, "Arkady", variety_channel=True, rerun_genres=("Quiz", "Drama", "Kids"))
    payload = outcome.records[-1].payload
    assert ["Variety Channel (Drama, Quiz)", 4] in payload["parts"]


# -- end game ------------------------------------------------------------------------------------------------


def _play_seasons(table, seasons=5):
    for _ in range(seasons):
        for player in table.state.order:
            accepted(table, Pass(player=player, reward="viewers", amount=1))
        for player in PLAYERS:
            score_all_starters(table, player)


def test_five_seasons_then_end_game_bonuses_without_the_genres_row(table):
    started(table)
    _play_seasons(table)
    assert table.state.phase == "end_scoring"
    error = refused(table, ScoreEndGame(player="Arkady", bonuses=(("Genres", 5),)), IllegalCommand)
    assert error.rule == "Telly Time: End-Game Scoring"
    accepted(table, ScoreEndGame(player="Arkady", bonuses=(("Ads", 3), ("Stars", 2))))
    refused(table, ScoreEndGame(player="Arkady", bonuses=()), IllegalCommand)  # mashed
    outcome = accepted(table, ScoreEndGame(player="Virginia", bonuses=(("Ads", 1),)))
    assert table.state.finished and table.state.winners == ("Arkady",)
    assert "Game over: Arkady wins" in outcome.message
    refused(table, AdjustViewers(player="Arkady", viewers=1, reason="late"), GameFinished)
    assert table.journal.game(table.session.game_id).status == "finished"
    accepted(table, Undo())
    assert not table.state.finished


def test_tied_viewers_share_the_win(table):
    started(table)
    _play_seasons(table)
    accepted(table, ScoreEndGame(player="Arkady", bonuses=()))
    accepted(table, ScoreEndGame(player="Virginia", bonuses=()))
    assert table.state.winners == ("Arkady", "Virginia")


def test_end_game_refused_before_season_five(table):
    started(table)
    refused(table, ScoreEndGame(player="Arkady"), IllegalCommand)


# -- free entries, other commands, buttons, views ------------------------------------------------------------


def test_free_entries_refuse_nonsense(table):
    started(table)
    refused(table, AdjustCash(player="Arkady", amount_m=0, reason="x"), MalformedCommand)
    refused(table, AdjustCash(player="Arkady", amount_m=1.5, reason="x"), MalformedCommand)
    refused(table, AdjustCash(player="Arkady", amount_m=1, reason=" "), MalformedCommand)
    refused(table, AdjustViewers(player="Arkady", viewers=True, reason="x"), MalformedCommand)
    refused(table, AdjustViewers(player="Nobody", viewers=1, reason="x"), MalformedCommand)
    refused(table, TransferMoney(payer="Arkady", payee="Virginia", amount=1, reason="x"), MalformedCommand)
    refused(table, AnswerDice(roller="Arkady", values=(3,)), IllegalCommand)
    refused(table, RollDice(roller="Arkady"), IllegalCommand)
    accepted(table, AdjustViewers(player="Arkady", viewers=-2, reason="network card"))
    assert net(table, "Arkady").viewers == -2


def test_buttons(table):
    started(table)
    rules = TELLY_TIME
    with pytest.raises(MalformedCommand):
        rules.button_command("peek", "Arkady")
    assert isinstance(rules.button_command("roll", "Arkady"), RollDice)
    accepted(table, rules.button_command("sponsor", "Virginia"))
    assert net(table, "Virginia").cash_m == 6
    accepted(table, rules.button_command("on_the_air", "Arkady"))
    assert table.state.current == "Virginia"
    refused(table, rules.button_command("on_the_air", "Arkady"), IllegalCommand)  # not Arkady's turn now
    refused(table, rules.button_command("roll", "Arkady"), IllegalCommand)


def test_view_and_panels_show_cash_viewers_empty_squares_and_pass_pay(table):
    started(table)
    view = table.view()
    arkady = view.players[0]
    assert arkady.balance is None and arkady.turn and not view.players[1].turn
    assert {t.name: t.value for t in arkady.tracks} == {"cash_m": 3, "viewers": 0, "empty_squares": 8}
    assert arkady.headline == "$3M"
    assert arkady.panel_lines == ("0 viewers - 8 empty", "Pass now: +$8M")
    assert all(ord(c) < 128 for c in arkady.headline + "".join(arkady.panel_lines))  # the panel font
    assert view.status == "Season 1 of 5: it is Arkady's turn"
    assert view.pending_dice is None


def test_solo_note_names_genres_that_complete_a_line(table):
    start(table, names=("Arkady",))
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    accepted(table, PlaceGridMarker(player="Arkady", genre="Chat"))
    assert table.view().notes == ("Arkady would complete a line with a Drama show (Solo Mode)",)


def test_end_game_command_and_undo(table):
    started(table)
    accepted(table, EndGame(reason="called off"))
    refused(table, AdjustCash(player="Arkady", amount_m=1, reason="x"), GameFinished)
    accepted(table, Undo())
    accepted(table, AdjustCash(player="Arkady", amount_m=1, reason="x"))


def test_every_event_is_described_and_replays_to_the_same_state(table):
    """The journal replays to the same state (undo/redo refold), and no event falls back to a raw dump."""
    from companion.table import replay

    game_id = started(table, moguls=True)
    for genre in ("Drama", "Kids", "Comedy", "Chat"):
        accepted(table, PlaceGridMarker(player="Virginia", genre=genre))
    accepted(table, ChooseMogulLine(player="Virginia", line="diag2"))
    accepted(table, MoveShow(player="Arkady", from_slot="8pm", to_slot="weekend"))
    accepted(table, ChangeShowGenre(player="Arkady", timeslot="primetime", genre="Sports"))
    _play_seasons(table)
    accepted(table, ScoreEndGame(player="Arkady", bonuses=(("Ads", 1),)))
    accepted(table, ScoreEndGame(player="Virginia", bonuses=()))
    records = table.journal.events(game_id)
    session = replay(records)
    assert session.state == table.state
    for record in records[1:]:
        text = TELLY_TIME.describe(TELLY_TIME.events.decode(record.type, record.payload))
        assert not text.startswith(record.type), text
