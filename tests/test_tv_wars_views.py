"""TV Wars: everything it shows, move by move over its recorded game, and what it decides for commands made from
its own values, is what was reviewed (issue 19; how and why:
``tests/views_golden.py``): descriptions, public and private views, legal commands with their reasons and
rules, dice requests, figures, the outcome and every seat button's meaning.

The recorded journal (``tests/data/journals/``) holds Ratings Wars but no auction, nomination, movie, Bulletin
or bankruptcy: its recorder tries mostly refused commands. So the same two records are also kept over a whole
game played by legal commands only (``test_tv_wars_legal_play.play`` with a fixed seed: auctions, debts,
sales, Steal a Program, the end by the rules), played afresh by the code under test into a real journal."""

import pytest
from test_tv_wars_legal_play import play
from views_golden import check_golden, check_played

#: Seeds of the games played by legal commands, chosen among the first 40 for what they reach: 26 debts, a sale
#: and a written-off debt (7); 13 a network out of the game, a Preemption placed (9.91) and bonus tiles moved;
#: 8 the end by the last network standing (1, 3). All have auctions, Bulletins and Ratings Wars; 26 and 13 end by
#: 5.32.
PLAYED = (26, 13, 8)


def test_everything_tv_wars_shows_over_its_recorded_game_is_as_reviewed(tmp_path):
    check_golden("tv-wars", tmp_path)


def test_what_tv_wars_decides_for_commands_made_from_its_own_values_is_as_reviewed(tmp_path):
    """Every command kind, built from the values the game offered and journaled and from odd ones, tried on
    states along the recorded game: the events or the refusal with its words and rule (``decisions_of``)."""
    check_golden("tv-wars", tmp_path, "decisions")


@pytest.mark.parametrize("seed", PLAYED)
def test_everything_tv_wars_shows_over_a_game_played_by_legal_commands_is_as_reviewed(tmp_path, seed):
    check_played("tv-wars", tmp_path, "views", play, seed)


@pytest.mark.parametrize("seed", PLAYED)
def test_what_tv_wars_decides_along_a_game_played_by_legal_commands_is_as_reviewed(tmp_path, seed):
    check_played("tv-wars", tmp_path, "decisions", play, seed)
