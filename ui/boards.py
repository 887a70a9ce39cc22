"""Which board each game has and which ``.kv`` layouts the app loads: plain data, importable without Kivy
(the package test compares it with the installed files). :mod:`ui.app` loads its screens' layouts at start-up;
a board's layout is loaded with the board, when its game is first shown (:func:`ui.games.board_class`), so a
kiosk that opens one game loads one game's layout and imports one game's board.

A game names its board in its :class:`companion.game.GameInfo` (``board = "ui.games.tv_wars.board:TvWarsBoard"``);
the board's layout is the ``.kv`` file beside the board's module with the module's name (``board.kv``). A game's
table extras (its own dialogs, :mod:`ui.extras`) are the module ``table`` beside its board's module, if there is one,
with their layout ``table.kv`` beside them.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from companion.games import game_info, game_names

#: The folder of the app's own ``.kv`` layouts inside the installed package (``ui/kv``).
KV_DIR = Path(__file__).parent / "kv"

#: The app's own screens' layouts, loaded at start-up and in this order.
SCREEN_LAYOUTS = ("common", "home", "dashboard", "history", "dialogs", "simulator")


#: The screens whose layouts are loaded when the screen is first shown, not at start-up (issue 17: lean start).
LATER_SCREEN_LAYOUTS = ("dashboard", "history")


def screen_kv_files() -> list[Path]:
    """The ``.kv`` layouts of the app's own screens, in order (those in :data:`LATER_SCREEN_LAYOUTS` are loaded
    when their screen is first made, :func:`screen_kv_file`; the rest at start-up)."""
    return [KV_DIR / f"{name}.kv" for name in SCREEN_LAYOUTS]


def screen_kv_file(name: str) -> Path:
    """The ``.kv`` layout of the app's screen or part ``name`` (``"dashboard"``)."""
    return KV_DIR / f"{name}.kv"


def board_target(game: str) -> str:
    """``"module:Class"`` of ``game``'s board, ``""`` for the generic player cards (from its ``GameInfo``)."""
    return game_info(game).board


def board_kv_file(game: str) -> Path | None:
    """The layout of ``game``'s board (the ``.kv`` beside its module, found without importing it), loaded when
    that board is first shown (:func:`ui.games.board_class`); ``None`` for a game without a board or whose
    board's module cannot be found."""
    target = board_target(game)
    if not target:
        return None
    spec = importlib.util.find_spec(target.partition(":")[0])
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).with_suffix(".kv")


def table_target(game: str) -> str:
    """The module of ``game``'s table extras (:mod:`ui.extras`): ``table`` beside its board's module
    (``"ui.games.tv_wars.table"``), or ``""`` when the game has no board or no such module."""
    target = board_target(game)
    if not target:
        return ""
    module = target.partition(":")[0].rpartition(".")[0] + ".table"
    return module if importlib.util.find_spec(module) is not None else ""


def table_kv_file(game: str) -> Path | None:
    """The layout of ``game``'s table extras (``table.kv`` beside their module), ``None`` when there is none."""
    module = table_target(game)
    spec = importlib.util.find_spec(module) if module else None
    if spec is None or not spec.origin:
        return None
    path = Path(spec.origin).with_suffix(".kv")
    return path if path.is_file() else None


def kv_files() -> list[Path]:
    """Every ``.kv`` layout the app may load: its own screens' (at start-up), then one per game's board (each
    when its board is first shown), then one per game's table extras (each when its game is first used). Paths
    inside the installed package; the app refuses to start with a clear message when one is missing (a broken
    install) rather than draw boards without their ids."""
    boards = sorted({path for path in map(board_kv_file, game_names()) if path is not None})
    tables = sorted({path for path in map(table_kv_file, game_names()) if path is not None})
    return screen_kv_files() + boards + tables
