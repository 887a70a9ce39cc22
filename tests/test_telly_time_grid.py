"""The Telly Time genre grid on its own ("Your Genre Grid", "Mogul Bonus", "Empty & Filled Squares") and
property tests of its invariants through the rules engine (decide + evolve, as the session folds them)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from telly_time_helpers import ARKADY_TILE, TILES

from companion.commands import PlayerSeat
from companion.errors import CommandError, IllegalCommand, MalformedCommand
from companion.games.telly_time import (
    TELLY_TIME,
    ChooseMogulLine,
    ChoosePilotShow,
    KeepPilotCards,
    LineCompleted,
    Pass,
    PilotCard,
    PlaceGridMarker,
    ProduceShow,
    StartSeason,
    TakeAction,
)
from companion.games.telly_time.grid import (
    CENTRE,
    LINE_IDS,
    LINES,
    GenreGrid,
    LineBonus,
    grid_from_tile,
    needs_mogul_choice,
    order_lines,
)


def arkady_grid() -> GenreGrid:
    return grid_from_tile("Comedy", ARKADY_TILE)


def test_lines_are_three_rows_three_columns_two_diagonals_through_nine_squares():
    assert len(LINES) == 8
    assert all(len(squares) == 3 for squares in LINES.values())
    assert sum(CENTRE in squares for squares in LINES.values()) == 4  # row, column and both diagonals


def test_fresh_tile_has_only_the_centre_marked():
    grid = arkady_grid()
    assert grid.filled_count == 1 and grid.empty_count == 8
    assert grid.square_of("drama") == 1 and grid.square_of("Western") is None
    assert grid.is_filled("Comedy") and not grid.is_filled("Drama")


def test_lines_completed_by_a_square_and_genres_that_complete_a_line():
    grid = arkady_grid().with_marker(7)  # Chat under the centre
    assert grid.lines_completed_by(1) == ("col2",)
    assert grid.lines_completed_by(7) == ()  # already filled
    assert grid.completing_genres() == ("Drama",)
    grid = grid.with_marker(0).with_marker(2)  # Kids, Quiz: top row needs Drama too
    assert grid.lines_completed_by(1) == ("row1", "col2")


def test_line_bonus_checks_and_describes():
    assert LineBonus.checked(" Network bonus ").label == "Network bonus"
    assert LineBonus.checked("Ratings", 1, 2).describe() == "Ratings (+2 viewers, +$1M)"
    with pytest.raises(MalformedCommand):
        LineBonus.checked("x" * 41)
    with pytest.raises(MalformedCommand):
        LineBonus.checked("Cash", cash_m=-1)


def test_order_without_moguls_every_line_printed():
    grid = arkady_grid()
    assert order_lines(grid, ("row1", "col2"), moguls=False) == [("row1", False), ("col2", False)]
    assert not needs_mogul_choice(grid, ("row1", "col2"), moguls=False)


def test_order_with_moguls_second_line_alone_is_the_mogul_line():
    grid = arkady_grid().with_completed("row3")
    assert order_lines(grid, ("col2",), moguls=True) == [("col2", True)]
    grid = grid.with_completed("col2")
    assert order_lines(grid, ("row1", "diag1"), moguls=True) == [("row1", False), ("diag1", False)]


def test_order_with_moguls_first_two_at_once_needs_a_choice():
    grid = arkady_grid()
    assert needs_mogul_choice(grid, ("row1", "col2"), moguls=True)
    with pytest.raises(IllegalCommand):
        order_lines(grid, ("row1", "col2"), moguls=True)
    assert order_lines(grid, ("row1", "col2"), True, "row1") == [("col2", False), ("row1", True)]
    # three at once: the chosen line is the game's second, the other two printed
    assert order_lines(grid, ("row2", "col2", "diag1"), True, "diag1") == [
        ("row2", False),
        ("diag1", True),
        ("col2", False),
    ]
    # one line already completed: the chosen one of the group is the second
    grid = grid.with_completed("row3")
    assert order_lines(grid, ("row1", "col2"), True, "col2") == [("col2", True), ("row1", False)]


# -- property tests through decide/evolve ----------------------------------------------------------------------

RULES = TELLY_TIME
GENRES = ARKADY_TILE["squares"]


def fold(state, events):
    for event in events:
        state = RULES.evolve(state, event)
    return state


def season_one(moguls: bool):
    state = RULES.new_game((PlayerSeat("Arkady"), PlayerSeat("Virginia")), {"tiles": TILES, "moguls": moguls})
    for command in (
        ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"),
        ChoosePilotShow(player="Virginia", genre="Reality", timeslot="late_night"),
        KeepPilotCards(player="Arkady", cards=(PilotCard("ad", cash_m=9), PilotCard("ad"))),
        KeepPilotCards(player="Virginia", cards=(PilotCard("ad", cash_m=9), PilotCard("ad"))),
        StartSeason(),
    ):
        state = fold(state, RULES.decide(state, command))
    return state


def check_invariants(state, moguls: bool):
    for network in state.networks:
        grid = network.grid
        assert grid.filled_count + grid.empty_count == 9
        assert grid.filled[CENTRE]
        assert len(set(grid.completed)) == len(grid.completed), "a line was scored twice"
        for line in grid.completed:
            assert all(grid.filled[s] for s in LINES[line])
        pending = state.pending.lines if state.pending and state.pending.player == network.name else ()
        assert set(grid.full_lines()) == set(grid.completed) | set(pending)
        view = RULES.public_view(state).players[state.names.index(network.name)]
        tracks = {t.name: t.value for t in view.tracks}
        assert tracks["empty_squares"] == grid.empty_count


actions = st.lists(
    st.tuples(
        st.sampled_from(["marker", "produce", "pass", "other", "choose"]),
        st.sampled_from(["Arkady", "Virginia"]),
        st.sampled_from(GENRES),
        st.sampled_from(LINE_IDS),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(moguls=st.booleans(), steps=actions)
def test_property_filled_plus_empty_is_nine_and_no_line_scored_twice(moguls, steps):
    state = season_one(moguls)
    line_events = []
    for kind, player, genre, line in steps:
        current = state.current or player
        command = {
            "marker": PlaceGridMarker(player=player, genre=genre),
            "produce": ProduceShow(player=current, name="S", genre=genre, timeslot="weekend"),
            "pass": Pass(player=current, reward="viewers", amount=2),
            "other": TakeAction(player=current, action="Sign a star"),
            "choose": ChooseMogulLine(player=player, line=line),
        }[kind]
        try:
            events = RULES.decide(state, command)
        except CommandError:
            continue
        state = fold(state, events)
        line_events += [(e.player, e.line, e.mogul, e.number) for e in events if isinstance(e, LineCompleted)]
        check_invariants(state, moguls)
    for name in state.names:
        mine = [e for e in line_events if e[0] == name]
        assert len({line for _, line, _, _ in mine}) == len(mine)
        moguls_gained = [number for _, _, mogul, number in mine if mogul]
        assert moguls_gained == ([2] if moguls and len(mine) >= 2 else [])
        assert [number for *_, number in mine] == list(range(1, len(mine) + 1))
