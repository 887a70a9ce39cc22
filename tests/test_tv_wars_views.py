"""TV Wars: everything it shows, move by move over its recorded game, is what was reviewed (issue 19; how and why:
``tests/views_golden.py``): descriptions, public and private views, legal commands with their reasons and
rules, dice requests, figures, the outcome and every seat button's meaning."""

from views_golden import check_golden


def test_everything_tv_wars_shows_over_its_recorded_game_is_as_reviewed(tmp_path):
    check_golden("tv-wars", tmp_path)
