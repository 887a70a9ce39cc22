"""Per-game boards: the part of the dashboard that belongs to one game (an island map, a genre grid, a Lineup).

The app's own bars (Home/Undo/Redo/History, the status and dice bar, the message bar) stay the same for every
game; below them the dashboard shows the open game's board, found here by game name. A game without a board
gets the generic player cards.

A board is a :class:`GameBoard`. Like every adapter it never changes game state: it reads the state and the
public :class:`~companion.games.TableView` in :meth:`GameBoard.update`, and turns taps into commands with
``self.controller.post(command)``. Each game's board is ``ui/games/<game>/board.py`` with its layout beside it
in ``board.kv``, named by the game's ``GameInfo.board`` and loaded with the board's module when its game is first
shown (:func:`board_class`): a kiosk loads only the boards it shows.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from ui.boards import board_kv_file, board_target

log = logging.getLogger("companion.ui")


class GameBoard(BoxLayout):
    """Base of every game's board. ``controller`` is the :class:`ui.controller.TableController`: ``post(command)``
    queues a command, ``table.state`` is the game state, ``open_popup(popup)`` opens a dialog, ``say(text,
    refused=False)`` writes to the message bar."""

    controller = ObjectProperty(None, allownone=True)

    def update(self, state: Any, view: Any) -> None:
        """Redraw from ``state`` (the game's state) and ``view`` (its public TableView). Called on the main
        thread after every accepted or refused command."""
        raise NotImplementedError


def board_class(game: str) -> type[GameBoard] | None:
    """The board class for the registered game ``game``, or ``None`` for the generic player cards. The first
    call for a game imports its board's module and loads its layout (``ui.boards.board_kv_file``).

    A board that cannot be imported is logged and replaced by the player cards, so the kiosk still runs."""
    target = board_target(game)
    if not target:
        return None
    module_name, _, class_name = target.partition(":")
    try:
        board = getattr(importlib.import_module(module_name), class_name)
        layout = board_kv_file(game)
        if str(layout) not in Builder.files:  # the board's layout, once, when it is first shown
            Builder.load_file(str(layout))
        return board
    except (ImportError, AttributeError, OSError, TypeError) as error:
        log.error("no board for %s (%s): showing the player cards", game, error)
        return None
