"""TRANSITIONAL: the old home of Telly Time's plain data and commands, now :mod:`.state` and :mod:`.commands`.
Two files outside the game's folder still import from here (``tests/random_games.py`` and
``tests/data/journals/record.py``: ``TIMESLOTS``, ``DEFAULT_GENRES``); delete this module once they import
from :mod:`companion.games.telly_time`."""

from companion.games.telly_time.commands import *  # noqa: F403
from companion.games.telly_time.state import *  # noqa: F403
