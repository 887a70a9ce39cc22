"""Words a player types (why a game ends, a correction's reason, a tile's name) must be text; anything else is
refused and changes nothing, in every game alike (found by tests/views_golden.py's decisions record: a reason
given as a list was accepted and journaled by TV Wars and Channel WON, and would read back as something else)."""

from __future__ import annotations

import pytest

from companion.commands import AdjustTrack, EndGame, NewGame, PlayerSeat
from companion.errors import MalformedCommand
from companion.games import find_game, game_names
from companion.games.tv_wars.holdings import BonusTile, ProgramTile


@pytest.mark.parametrize("game", sorted(game_names()))
@pytest.mark.parametrize("reason", [("?",), None, 7, "   ", "x" * 81])
def test_end_game_needs_a_reason_in_words(table_factory, game, reason):
    table = table_factory()
    info = find_game(game).info
    seats = tuple(PlayerSeat(name) for name in info.default_names[: info.min_players])
    assert table.execute(NewGame(game=game, players=seats)).accepted
    before = len(table.history())
    outcome = table.execute(EndGame(reason=reason))
    assert not outcome.accepted and isinstance(outcome.refusal, MalformedCommand), outcome.message
    assert "say why the game ends" in outcome.message and len(table.history()) == before
    assert table.execute(EndGame(reason="  time is up  ")).accepted
    assert table.history()[-1].text.count("time is up") >= 1


def test_a_tv_wars_correction_reason_is_words(table_factory, start_game):
    table = table_factory()
    start_game(table, 2, roll_off=False)
    outcome = table.execute(AdjustTrack(player="ABS", track="half_hours", delta=1, reason=("?",)))
    assert not outcome.accepted and isinstance(outcome.refusal, MalformedCommand)
    assert "a correction's reason is text" in outcome.message


@pytest.mark.parametrize(
    "make", [lambda: BonusTile("S1", "star", 30, name=("?",)), lambda: ProgramTile("P1", 1, "green", 30, name=5)]
)
def test_a_tv_wars_tile_name_is_words(make):
    with pytest.raises(MalformedCommand, match="a tile's name is text"):
        make()
