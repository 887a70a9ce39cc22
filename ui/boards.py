"""Which board each game has and which ``.kv`` layouts the app loads: plain data, importable without Kivy
(the package test compares it with the installed files; :mod:`ui.app` loads the files)."""

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

#: The app's own screens' layouts, loaded first and in this order.
SCREEN_LAYOUTS = ("common", "home", "dashboard", "history", "dialogs", "simulator")


def kv_files() -> list[Path]:
    """The ``.kv`` layouts the app loads at start-up, in order: the app's own screens, then one per board in
    :data:`BOARDS` (``ui/kv/games/<module>.kv``). Paths inside the installed package; the app refuses to start
    with a clear message when one is missing (a broken install) rather than draw boards without their ids."""
    own = [KV_DIR / f"{name}.kv" for name in SCREEN_LAYOUTS]
    boards = sorted({KV_DIR / "games" / f"{target.partition(':')[0].rsplit('.', 1)[-1]}.kv"
                     for target in BOARDS.values() if target})
    return own + boards
