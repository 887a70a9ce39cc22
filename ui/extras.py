"""A game's additions to the table controller besides its board: its own dialogs, what a tile reader's tag means in
it, the actions its board's layout calls. The controller (:class:`ui.controller.TableController`) knows no game;
it asks the open game's :class:`TableExtras` (the configured game's while none is open).

A game's extras are the class ``EXTRAS`` in the module ``table`` beside its board's module (for a board
``ui.games.<game>.board:Board``, ``ui.games.<game>.table:EXTRAS``), with its layout ``table.kv`` beside it
(:func:`ui.boards.table_target`, :func:`ui.boards.table_kv_file`), imported when its game is first used. A game
without that module gets :class:`TableExtras`, which adds nothing. Like every adapter, extras never change game
state: they post commands through the controller.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from kivy.lang import Builder

from ui.boards import table_kv_file, table_target

log = logging.getLogger("companion.ui")


class TableExtras:
    """What one game adds to the controller; this base adds nothing. ``controller`` is the
    :class:`ui.controller.TableController` (``post``, ``say``, ``open_popup``, ``table``, ``tiles``, …)."""

    def __init__(self, controller: Any) -> None:
        self.controller = controller

    def tile_event(self, event: Any) -> None:
        """A tag was placed on or removed from a tile reader (``event.placed``, ``event.uid``, ``event.device``,
        ``event.slot``); a game without tiles ignores it."""


def extras_class(game: str) -> type[TableExtras]:
    """The extras class of the registered game ``game`` (:class:`TableExtras` for a game without its own). The first
    call for a game imports its module and loads its layout; a module that fails to import is logged and replaced
    by the base, so the kiosk still runs."""
    target = table_target(game)
    if not target:
        return TableExtras
    try:
        extras = importlib.import_module(target).EXTRAS
        layout = table_kv_file(game)
        if layout is not None and str(layout) not in Builder.files:
            Builder.load_file(str(layout))
        if not (isinstance(extras, type) and issubclass(extras, TableExtras)):
            raise TypeError(f"{target}.EXTRAS is not a TableExtras class")
        return extras
    except (ImportError, AttributeError, OSError, TypeError) as error:
        log.error("no table extras for %s (%s): the game's own dialogs are off", game, error)
        return TableExtras
