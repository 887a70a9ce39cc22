"""Death Show TV: everything it shows, move by move over its recorded game, and what it decides for commands made from
its own values, is what was reviewed (issue 19; how and why:
``tests/views_golden.py``): descriptions, public and private views, legal commands with their reasons and
rules, dice requests, figures, the outcome and every seat button's meaning.

The recorded journal (``tests/data/journals/``) comes from a recorder that tries mostly refused commands, so the
same two records are also kept over whole games played by legal commands only
(``test_death_show_tv_legal_play.play`` with a fixed seed: Combats, Events, ON AIR cards, deaths and the Island
shrinking, the last Contestant standing), played afresh by the code under test into a real journal."""

import pytest
from test_death_show_tv_legal_play import play
from views_golden import check_golden, check_played

#: Seeds of the games played by legal commands, chosen among the first 40 for what they reach: 0 and 9 reach every
#: event type the 40 reach (a Combat declared and resolved, Events, ON AIR cards played and ended, a bonus drafted,
#: a Location removed, the Weapon level raised, a roll-off tie), with Event Combats only; 0 (3 Contestants, R5
#: "and lowest", Fumbles not in Events) ends by a correction (a Wound), 9 (3 Contestants, R5 "instead of
#: lowest", Event Fumbles, no two-player rule) by an Event's Combat lost to a Fumble; 36 (Vitality 1, the
#: two-player rule from the start) has a Hunt and a death in Combat (the killer's cards). Every game ends with
#: the last Contestant standing (Winning the Game); none of the 40 has a Combat of three or more.
PLAYED = (0, 9, 36)


def test_everything_death_show_tv_shows_over_its_recorded_game_is_as_reviewed(tmp_path):
    check_golden("death-show-tv", tmp_path)


def test_what_death_show_tv_decides_for_commands_made_from_its_own_values_is_as_reviewed(tmp_path):
    """Every command kind, built from the values the game offered and journaled and from odd ones, tried on
    states along the recorded game: the events or the refusal with its words and rule (``decisions_of``)."""
    check_golden("death-show-tv", tmp_path, "decisions")


@pytest.mark.parametrize("seed", PLAYED)
def test_everything_death_show_tv_shows_over_a_game_played_by_legal_commands_is_as_reviewed(tmp_path, seed):
    check_played("death-show-tv", tmp_path, "views", play, seed)


@pytest.mark.parametrize("seed", PLAYED)
def test_what_death_show_tv_decides_along_a_game_played_by_legal_commands_is_as_reviewed(tmp_path, seed):
    check_played("death-show-tv", tmp_path, "decisions", play, seed)
