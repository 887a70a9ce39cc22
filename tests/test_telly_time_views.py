"""Telly Time: everything it shows, move by move over its recorded game, and what it decides for commands made from
its own values, is what was reviewed (issue 19; how and why:
``tests/views_golden.py``): descriptions, public and private views, legal commands with their reasons and
rules, dice requests, figures, the outcome and every seat button's meaning.

The recorded journal (``tests/data/journals/``) comes from a recorder that tries mostly refused commands, so the
same two records are also kept over whole games played by legal commands only
(``test_telly_time_legal_play.play`` with a fixed seed: five seasons, shows produced, lines completed, a
mogul's choice, a Writeoff, the end-game scoring), played afresh by the code under test into a real journal."""

import pytest
from test_telly_time_legal_play import play
from views_golden import check_golden, check_played

#: Seeds of the games played by legal commands, chosen among the first 40 for what they reach: together every
#: event type the 40 reach; 18 (moguls, negative cash allowed, pass order) the only mogul line choice pending,
#: 3 (moguls, no negative cash, seat order) a Writeoff counted. Both play the five seasons and end by the
#: end-game scoring.
PLAYED = (18, 3)


def vocabulary():
    """Values for the decisions record beyond those the game offers and journals: every timeslot and genre, shows'
    scores, a Writeoff's other stars, the reasons of the moves that need one."""
    from companion.games.telly_time import ShowScore
    from companion.games.telly_time.state import DEFAULT_GENRES, TIMESLOTS

    shows = [ShowScore(slot, 3) for slot in TIMESLOTS] + [ShowScore("primetime", 5, stars=(2,), penalty=1)]
    return {
        "from_slot": TIMESLOTS,
        "to_slot": TIMESLOTS,
        "timeslot": TIMESLOTS,
        "genre": DEFAULT_GENRES,
        "show": shows,
        "other_stars": [(), (1, 2), (3,)],
        "reason": ["Flexible Schedule", "Versatile Actor"],
    }


def test_everything_telly_time_shows_over_its_recorded_game_is_as_reviewed(tmp_path):
    check_golden("telly-time", tmp_path)


def test_what_telly_time_decides_for_commands_made_from_its_own_values_is_as_reviewed(tmp_path):
    """Every command kind, built from the values the game offered and journaled and from odd ones, tried on
    states along the recorded game: the events or the refusal with its words and rule (``decisions_of``)."""
    check_golden("telly-time", tmp_path, "decisions", vocabulary())


@pytest.mark.parametrize("seed", PLAYED)
def test_everything_telly_time_shows_over_a_game_played_by_legal_commands_is_as_reviewed(tmp_path, seed):
    check_played("telly-time", tmp_path, "views", play, seed)


@pytest.mark.parametrize("seed", PLAYED)
def test_what_telly_time_decides_along_a_game_played_by_legal_commands_is_as_reviewed(tmp_path, seed):
    check_played("telly-time", tmp_path, "decisions", play, seed, vocabulary())
