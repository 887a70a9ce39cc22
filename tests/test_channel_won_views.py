"""Channel WON: everything it shows, move by move over its recorded game, and what it decides for commands made from
its own values, is what was reviewed (issue 19; how and why:
``tests/views_golden.py``): descriptions, public and private views, legal commands with their reasons and
rules, dice requests, figures, the outcome and every seat button's meaning.

The recorded journal (``tests/data/journals/``) comes from a recorder that tries mostly refused commands, so the
same two records are also kept over whole games played by legal commands only
(``test_channel_won_legal_play.play`` with a fixed seed: Leads reported and not, stars lost, reshuffles, the
face-up row replaced, both endings), played afresh by the code under test into a real journal."""

import pytest
from test_channel_won_legal_play import play
from views_golden import check_golden, check_played

#: Seeds of the games played by legal commands, chosen among the first 40 for what they reach at the least cost
#: (each record is made again per mutant): both reach every event type the 40 reach (a deck reshuffled, the
#: face-up row replaced, Inside Scoops, Trey DeMark's ability); 22 (3 reporters, fewest points first) ends in
#: round 2 as Channel None (Network Ratings), 32 (2 reporters, clockwise) in round 3 with a winner (Ending the
#: Game). Both score open Leads.
PLAYED = (22, 32)


def test_everything_channel_won_shows_over_its_recorded_game_is_as_reviewed(tmp_path):
    check_golden("channel-won", tmp_path)


def test_what_channel_won_decides_for_commands_made_from_its_own_values_is_as_reviewed(tmp_path):
    """Every command kind, built from the values the game offered and journaled and from odd ones, tried on
    states along the recorded game: the events or the refusal with its words and rule (``decisions_of``)."""
    check_golden("channel-won", tmp_path, "decisions")


@pytest.mark.parametrize("seed", PLAYED)
def test_everything_channel_won_shows_over_a_game_played_by_legal_commands_is_as_reviewed(tmp_path, seed):
    check_played("channel-won", tmp_path, "views", play, seed)


@pytest.mark.parametrize("seed", PLAYED)
def test_what_channel_won_decides_along_a_game_played_by_legal_commands_is_as_reviewed(tmp_path, seed):
    check_played("channel-won", tmp_path, "decisions", play, seed)
