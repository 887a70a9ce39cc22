"""What people read in a Telly Time game: squares named by their place on the 3×3 tile (never 0-8), every
history line and status line a sentence, the home screen's title and player word.

The journal keeps square indexes (0-8, row by row) in its payloads, so old games replay unchanged; only
the words built from them changed (rules/the-networks-telly-time.txt, "Your Genre Grid").
"""

from __future__ import annotations

import re

from telly_time_helpers import PLAYERS, TILES, accepted, refused, start, started

from companion.commands import EndGame
from companion.errors import IllegalCommand, MalformedCommand
from companion.games.telly_time import (
    TELLY_TIME,
    ChooseMogulLine,
    ChoosePilotShow,
    KeepPilotCards,
    Pass,
    PilotCard,
    PlaceGridMarker,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    SetGridSquare,
    ShowScore,
    StartSeason,
    TakeAction,
)
from companion.games.telly_time.grid import CENTRE, SQUARE_NAMES, square_list, square_name

RULE_GRID = "Telly Time: Your Genre Grid"


def describe(event_type, payload):
    """The history line of a journal row (decoded as the session decodes it)."""
    return TELLY_TIME.describe(TELLY_TIME.events.decode(event_type, payload))


def _pass_round(table):
    for player in table.state.order:
        accepted(table, Pass(player=player, reward="viewers", amount=1))
    for player in PLAYERS:
        accepted(
            table,
            ScoreLineup(
                player=player, shows=tuple(ShowScore(s, 0) for s in ("8pm", "primetime", "late_night", "weekend"))
            ),
        )


# -- squares by position ---------------------------------------------------------------------------------------


def test_squares_are_named_by_position_row_by_row():
    assert SQUARE_NAMES[0] == "top-left" and SQUARE_NAMES[CENTRE] == "centre" and SQUARE_NAMES[8] == "bottom-right"
    assert square_name(5) == "the middle-right square"
    assert square_list([0, 2]) == "the top-left and top-right squares"
    assert square_list([7]) == "the bottom-middle square"


def test_start_season_names_the_missing_squares_by_position(table):
    start(table, tiles={"Reality": TILES["Reality"]})
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    accepted(table, ChoosePilotShow(player="Virginia", genre="Reality", timeslot="late_night"))
    accepted(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad"), PilotCard("ad"))))
    accepted(table, KeepPilotCards(player="Virginia", cards=(PilotCard("ad"), PilotCard("ad"))))
    error = refused(table, StartSeason(), IllegalCommand)
    assert str(error) == (
        "Arkady's tile: enter the genres of all 8 squares around the centre (Telly Time: Your Genre Grid)"
    )
    for square, genre in enumerate(TILES["Comedy"]["squares"]):
        if square not in (CENTRE, 0, 8):
            accepted(table, SetGridSquare(player="Arkady", square=square, genre=genre))
    error = refused(table, StartSeason(), IllegalCommand)
    assert "enter the genres of the top-left and bottom-right squares" in str(error)
    assert not re.search(r"squares? \d", str(error))


def test_square_refusals_name_the_square_and_cite_the_rule(table):
    start(table, tiles={})
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    accepted(table, SetGridSquare(player="Arkady", square=0, genre="Kids"))
    error = refused(table, SetGridSquare(player="Arkady", square=0, genre="Kids"), IllegalCommand)
    assert str(error) == "the top-left square already shows Kids (Telly Time: Your Genre Grid)"
    assert error.rule == RULE_GRID
    error = refused(table, SetGridSquare(player="Arkady", square=9, genre="Kids"), MalformedCommand)
    assert "0 (top-left) to 8 (bottom-right)" in str(error)


def test_a_marked_square_is_refused_by_position(table):
    started(table)
    accepted(table, PlaceGridMarker(player="Arkady", genre="Drama"))
    error = refused(table, SetGridSquare(player="Arkady", square=1, genre="Crime"), IllegalCommand)
    assert str(error).startswith("the top-middle square (Drama) already has a marker cube")


def test_history_names_squares_by_position_and_keeps_indexes_in_the_journal(table):
    start(table, tiles={})
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    outcome = accepted(table, SetGridSquare(player="Arkady", square=8, genre="Chat"))
    assert outcome.message == "Arkady's tile: the bottom-right square is Chat"
    assert outcome.records[0].payload["square"] == 8  # the journal is unchanged
    accepted(table, SetGridSquare(player="Arkady", square=0, genre="Kids"))
    outcome = accepted(table, SetGridSquare(player="Arkady", square=0, genre="Chat"))  # a swap, a correction
    assert outcome.message == (
        "Arkady's tile: the top-left square is Chat and the bottom-right square is now Kids (the two swapped)"
    )
    outcome = accepted(table, SetGridSquare(player="Arkady", square=1, genre="Chat"))  # moved to an empty one
    assert outcome.message == (
        "Arkady's tile: the top-middle square is Chat, moved from the top-left square, which has no genre now"
    )
    assert table.state.network("Arkady").grid.squares[0] is None


def test_an_old_journal_payload_is_described_with_positions():
    """Payloads written before the wording change (square indexes) read with the new words."""
    old = {"player": "Kim", "square": 4 + 4, "genre": "Chat"}
    assert describe("grid_square_set", old) == "Kim's tile: the bottom-right square is Chat"
    marker = {"player": "Kim", "square": 1, "genre": "Drama", "reason": "Catalog Buyout", "rule": "R"}
    assert describe("grid_marker_placed", marker) == "Kim fills the Drama square (top-middle): Catalog Buyout (R)"


# -- sentences ---------------------------------------------------------------------------------------------


def test_passing_reads_as_a_sentence_not_a_fragment():
    text = describe("passed", {"player": "Kim", "reward": "cash", "amount": 5, "preempted": False, "order": 1})
    assert text == "Kim passes first and takes $5M from the pass track"
    text = describe("passed", {"player": "Kim", "reward": "viewers", "amount": 3, "preempted": True, "order": 2})
    assert text == (
        "Kim passes second and takes 6 viewers from the pass track (3 viewers doubled by Preempted "
        "Timeslot), scored with the lineup"
    )
    text = describe("passed", {"player": "Kim", "reward": "cash", "amount": 0, "preempted": False, "order": 3})
    assert text == "Kim passes third and takes nothing from the pass track"


def test_every_line_of_a_whole_game_reads_as_a_sentence(table):
    """No "(1.)", no "[...]", no "line 1", no square numbers, no "passed: ..." fragments after a colon, in
    any history line of a game played to the end; every line starts with a capital letter or a name."""
    game_id = started(table, moguls=True)
    for genre in ("Drama", "Kids", "Comedy", "Chat"):
        accepted(table, PlaceGridMarker(player="Virginia", genre=genre))
    accepted(table, ChooseMogulLine(player="Virginia", line="diag2"))
    accepted(table, ProduceShow(player="Arkady", name="Docs", genre="Drama", timeslot="primetime", cost_m=1))
    accepted(table, TakeAction(player="Virginia", action="Land an ad", cash_m=2))
    for _ in range(5):
        _pass_round(table)
    accepted(table, ScoreEndGame(player="Arkady", bonuses=(("Ads", 1),)))
    accepted(table, ScoreEndGame(player="Virginia", bonuses=()))
    texts = [describe(r.type, r.payload) for r in table.journal.events(game_id)[1:]]
    for text in texts:
        assert not re.search(r"\(\d+\.\)|\[|\bline \d|\bsquares? \d|: \w+: \w+|×", text), text
        assert text[0].isupper(), text
    assert any(t.startswith("Arkady passes first and takes 1 viewer from the pass track") for t in texts)
    assert texts[-1].startswith("Game over: ") and " with " in texts[-1]
    assert "Everyone has passed: score the lineups of season 5" in texts
    assert "Virginia scores no end-game bonuses (Telly Time: End-Game Scoring)" in texts
    assert (
        "Virginia completes the left column and the diagonal top-right to bottom-left at once and chooses "
        "which one gives the mogul bonus (Telly Time: Mogul Bonus)"
    ) in texts


def test_status_lines_are_sentences(table):
    start(table)
    assert TELLY_TIME.status(table.state) == (
        "Pilot Season: Arkady chooses the Pilot show (its genre brings the tile); then Virginia"
    )
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    assert TELLY_TIME.status(table.state) == "Pilot Season: Arkady keeps 2 cards (Keep 2 cards); then Virginia"
    accepted(table, ChoosePilotShow(player="Virginia", genre="Reality", timeslot="late_night"))
    accepted(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad"), PilotCard("ad"))))
    assert TELLY_TIME.status(table.state) == "Pilot Season: Virginia keeps 2 cards (Keep 2 cards)"
    accepted(table, KeepPilotCards(player="Virginia", cards=(PilotCard("ad"), PilotCard("ad"))))
    assert TELLY_TIME.status(table.state) == "The Pilot Season is set up: start season 1"
    accepted(table, StartSeason())
    assert TELLY_TIME.status(table.state) == "Season 1 of 5: it is Arkady's turn"
    accepted(table, Pass(player="Arkady", reward="cash", amount=1))
    accepted(table, Pass(player="Virginia", reward="cash", amount=1))
    assert TELLY_TIME.status(table.state) == "Season 1 is over: score the lineups of Arkady and Virginia"


def test_mogul_choice_and_game_over_status_are_sentences(table):
    started(table, moguls=True)
    for genre in ("Drama", "Kids", "Comedy", "Chat"):
        accepted(table, PlaceGridMarker(player="Virginia", genre=genre))
    assert table.view().status == (
        "Virginia chooses which line gives the mogul bonus: the left column or "
        "the diagonal top-right to bottom-left (Telly Time: Mogul Bonus)"
    )
    accepted(table, ChooseMogulLine(player="Virginia", line="diag2"))
    for _ in range(5):
        _pass_round(table)
    assert table.view().status == (
        "Season 5 was the last: score the end-game bonuses of Arkady and Virginia without the Genres row"
    )
    accepted(table, ScoreEndGame(player="Arkady", bonuses=(("Ads", 30),)))
    accepted(table, ScoreEndGame(player="Virginia", bonuses=()))
    assert table.view().status == "Game over: Arkady has the most viewers"


def test_a_game_ended_at_the_table_reads_as_a_sentence(table):
    started(table)
    outcome = accepted(table, EndGame(reason="called off"))
    assert outcome.message == "The game was ended at the table: called off"


# -- the home screen -------------------------------------------------------------------------------------------


def test_home_screen_title_and_player_word():
    """Solo is in the module ("Solo Mode"), so 1 to 5 players; the title fits the dashboard's title box."""
    info = TELLY_TIME.info
    assert info.title == "Telly Time"
    assert info.player_word == "players"
    assert (info.min_players, info.max_players) == (1, 5)
