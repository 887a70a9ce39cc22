"""Telly Time: everything it shows, move by move over its recorded game, and what it decides for commands made from
its own values, is what was reviewed (issue 19; how and why:
``tests/views_golden.py``): descriptions, public and private views, legal commands with their reasons and
rules, dice requests, figures, the outcome and every seat button's meaning."""

from views_golden import check_golden


def test_everything_telly_time_shows_over_its_recorded_game_is_as_reviewed(tmp_path):
    check_golden("telly-time", tmp_path)


def test_what_telly_time_decides_for_commands_made_from_its_own_values_is_as_reviewed(tmp_path):
    """Every command kind, built from the values the game offered and journaled and from odd ones, tried on
    states along the recorded game: the events or the refusal with its words and rule (``decisions_of``)."""
    from companion.games.telly_time import ShowScore
    from companion.games.telly_time.state import DEFAULT_GENRES, TIMESLOTS

    shows = [ShowScore(slot, 3) for slot in TIMESLOTS] + [ShowScore("primetime", 5, stars=(2,), penalty=1)]
    vocabulary = {
        "from_slot": TIMESLOTS,
        "to_slot": TIMESLOTS,
        "timeslot": TIMESLOTS,
        "genre": DEFAULT_GENRES,
        "show": shows,
        "other_stars": [(), (1, 2), (3,)],
        "reason": ["Flexible Schedule", "Versatile Actor"],
    }
    check_golden("telly-time", tmp_path, "decisions", vocabulary)
