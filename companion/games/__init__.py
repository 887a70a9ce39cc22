"""The registry of games: every game is an entry point in the group ``tabletop_companion.games`` (the same
mechanism as the front-ends), named by the game's registry name and pointing at its
:class:`companion.game.GameInfo` (``companion.games.tv_wars.info:INFO``). A fifth game is one package that
declares such an entry point; nothing here names a game.

:func:`game_names`, :func:`game_info` and :func:`game_title` import only the light ``info`` modules;
:func:`find_game` imports the one game asked for, and only it. Every game meets :class:`companion.game.Game`.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, field
from typing import Any

from companion.dice import DiceRequest
from companion.entry_points import EntryPoint, entry_points
from companion.errors import UnknownGame
from companion.game import Game, GameInfo
from companion.tracks import Track


@dataclass(frozen=True)
class PlayerView:
    """What the shared screen and a player's panel show about one player: ``name``, ``colour``,
    ``balance`` in dollars (``None`` for games without money), public ``tracks``, ``badges`` (short
    words such as ``"Best Network News"``) and whether it is this player's ``turn``.

    For games without a dollar balance, ``headline`` is the panel's big figure (for example ``"Vitality 3"``
    or ``"12 pts"``) and ``panel_lines`` are up to two short lines under it (for example ``"Beach - 5
    cards"``); when ``panel_lines`` is empty the panel shows the first track instead. Panel text is plain
    ASCII: the panels' font has no symbols such as hearts, stars or arrows."""

    name: str
    colour: str
    balance: int | None
    tracks: tuple[Track, ...] = ()
    badges: tuple[str, ...] = ()
    turn: bool = False
    headline: str = ""
    panel_lines: tuple[str, ...] = ()
    #: A short word the panel's header shows in inverse video beside the name (``"BNN"``), or ``""``.
    panel_badge: str = ""


@dataclass(frozen=True)
class TableView:
    """The public picture of a game: ``title``, one :class:`PlayerView` per player in seat order, the
    ``pending_dice`` request if any, a ``status`` line, and whether the game is ``finished``."""

    title: str
    players: tuple[PlayerView, ...]
    pending_dice: DiceRequest | None = None
    status: str = ""
    finished: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)


#: The entry-point group games register in (pyproject.toml: ``[project.entry-points."tabletop_companion.games"]``).
ENTRY_POINT_GROUP = "tabletop_companion.games"


@functools.cache
def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for point in entry_points(ENTRY_POINT_GROUP):  # companion.entry_points: importlib.metadata's answer, leaner
        found.setdefault(point.name, point)  # the first distribution on sys.path wins, as for imports
    return found


def refresh_registry() -> None:
    """Forget the games found so far (a distribution was installed or put on ``sys.path`` since)."""
    _entry_points.cache_clear()
    game_info.cache_clear()
    _find.cache_clear()


def game_names() -> list[str]:
    """The names of the registered games, e.g. ``["channel-won", "death-show-tv", ...]`` (sorted; only their
    ``info`` modules are imported, when asked for)."""
    return sorted(_entry_points())


def _unknown(name: object) -> UnknownGame:
    return UnknownGame(f"no game called {name!r}; known games: {', '.join(game_names())}")


@functools.cache
def game_info(name: str) -> GameInfo:
    """The :class:`GameInfo` of the registered game ``name`` (imports its ``info`` module only); raises
    :class:`UnknownGame` listing the known names, or when the entry point does not lead to a ``GameInfo``
    of that name."""
    point = _entry_points().get(name) if isinstance(name, str) else None
    if point is None:
        raise _unknown(name)
    try:
        info = point.load()
    except Exception as error:  # a broken third-party game must not stop the others
        raise UnknownGame(f"the game {name!r} cannot be loaded ({point.value}): {error}") from error
    if not isinstance(info, GameInfo) or info.name != name:
        raise UnknownGame(f"the entry point {name!r} ({point.value}) is not the GameInfo of a game called {name!r}")
    return info


def game_title(name: str) -> str:
    """The title of the registered game ``name`` without importing its rules (the home screen lists every
    game); raises :class:`UnknownGame` listing the known names."""
    return game_info(name).title


def load_attribute(target: str) -> Any:
    """The object a ``"module:attribute"`` string names (a game's rules, board, CLI or file reader)."""
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


@functools.cache
def _find(name: str) -> Game:
    info = game_info(name)
    rules = load_attribute(info.rules)
    if not isinstance(rules, Game) or rules.info != info:
        raise UnknownGame(f"{info.rules} is not a game meeting the contract (companion.game.Game) for {name!r}")
    return rules


def find_game(name: str) -> Game:
    """The rules of the registered game ``name``, importing that game's package (only it) the first time;
    raises :class:`UnknownGame` listing the known names."""
    if not isinstance(name, str):
        raise _unknown(name)
    return _find(name)
