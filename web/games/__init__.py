"""A game's own part of the phone pages: its forms (the TV Wars line-up), found by the game's registry name.

A forms module has ``seat_forms(rules, state, seat) -> dict`` (owner thread: JSON-able data for the seat's page,
its secret values included, sent to that seat's phone only) and ``form_command(seat, form, data) -> Command``
(the kiosk's channel thread: the command a submitted form stands for, built from the submitted data alone; raises
:class:`companion.errors.MalformedCommand` for a bad shape; the table checks it against the rules as it checks a
button's). A game without one offers its complete legal commands only.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: Registry name -> module of the game's phone forms.
FORMS = {"tv-wars": "web.games.tv_wars", "death-show-tv": "web.games.death_show_tv"}


def forms_for(game: str) -> ModuleType | None:
    """The phone forms module of ``game``, or ``None``."""
    name = FORMS.get(game)
    return importlib.import_module(name) if name else None
