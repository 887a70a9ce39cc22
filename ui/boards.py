"""Which board each game has and which ``.kv`` layouts the app loads: plain data, importable without Kivy
(the package test compares it with the installed files). :mod:`ui.app` loads its screens' layouts at start-up;
a board's layout is loaded with the board, when its game is first shown (:func:`ui.games.board_class`), so a
kiosk that opens one game loads one game's layout and imports one game's board."""

from __future__ import annotations

from pathlib import Path

#: The folder of the app's ``.kv`` layouts inside the installed package (``ui/kv``; boards in ``kv/games``).
KV_DIR = Path(__file__).parent / "kv"

#: Game name -> ``"module:Class"`` of its board (``None``: the generic player cards).
BOARDS: dict[str, str | None] = {
    "tv-wars": "ui.games.tv_wars:TvWarsBoard",
    "death-show-tv": "ui.games.death_show_tv:DeathShowBoard",
    "channel-won": "ui.games.channel_won:ChannelWonBoard",
    "telly-time": "ui.games.telly_time:TellyTimeBoard",
}

#: The app's own screens' layouts, loaded at start-up and in this order.
SCREEN_LAYOUTS = ("common", "home", "dashboard", "history", "dialogs", "simulator")


def screen_kv_files() -> list[Path]:
    """The ``.kv`` layouts the app loads at start-up, in order: its own screens'."""
    return [KV_DIR / f"{name}.kv" for name in SCREEN_LAYOUTS]


def board_kv_file(game: str) -> Path | None:
    """The layout of ``game``'s board (``ui/kv/games/<module>.kv``), loaded when that board is first shown
    (:func:`ui.games.board_class`); ``None`` for a game without a board."""
    target = BOARDS.get(game)
    return KV_DIR / "games" / f"{target.partition(':')[0].rsplit('.', 1)[-1]}.kv" if target else None


def kv_files() -> list[Path]:
    """Every ``.kv`` layout the app may load: its own screens' (at start-up), then one per board in
    :data:`BOARDS` (each when its board is first shown). Paths inside the installed package; the app refuses to
    start with a clear message when one is missing (a broken install) rather than draw boards without their ids."""
    boards = sorted({path for path in map(board_kv_file, BOARDS) if path is not None})
    return screen_kv_files() + boards
