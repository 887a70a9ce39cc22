"""The registry of games, found by name (in the style of python-chess's variants): :data:`REGISTERED` lists
them as data; :func:`find_game` imports the one asked for, and only it.

Each game is an object with the :class:`GameRules` shape: static facts (``name``, ``title``, player
counts), ``new_game(players, options)`` returning its plain state, and pure functions ``decide`` (check a
command against the rules, return the events it causes or raise a rule-cited error) and ``evolve`` (fold
one event into the state). No I/O, no clocks, no global random.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.commands import Command, PlayerSeat
from companion.dice import DiceRequest
from companion.errors import UnknownGame
from companion.events import NewEvent
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


class GameRules(Protocol):
    """The shape every registered game has."""

    name: str
    title: str
    min_players: int
    max_players: int
    #: What the game calls its players on the home screen ("networks", "Contestants", "reporters").
    player_word: str
    #: Seat names used when the config's seats are the built-in ones.
    default_names: tuple[str, ...]
    #: Optional: options the config may give as a file path, with the function that reads such a file into
    #: the option's value (``{"catalogue": read}``); :func:`companion.config.load_config` calls it.
    option_files: Mapping[str, Any]

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> Any:
        """Return the initial state; raise :class:`companion.errors.CommandError` for a bad set-up."""

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options with defaults filled in; raise :class:`companion.errors.BadOption` if one is wrong."""

    def decide(self, state: Any, command: Command) -> list[NewEvent]:
        """Return the events ``command`` causes, or raise a ``CommandError`` that cites the rule."""

    def evolve(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> Any:
        """Return the state after one event (pure)."""

    def describe(self, event_type: str, payload: Mapping[str, Any]) -> str:
        """One readable line for the history screen and ``companion replay``."""

    def view(self, state: Any) -> TableView:
        """The public picture of ``state`` (TV Wars 9.1: no secret values)."""

    button_actions: tuple[str, ...]

    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        """The command that player button ``action`` stands for (see the config's player actions)."""

    def pending_dice(self, state: Any) -> DiceRequest | None:
        """The dice request the game is waiting for, if any."""

    def is_finished(self, state: Any) -> bool:
        """Whether the game has ended."""


@dataclass(frozen=True)
class RegisteredGame:
    """A registered game as plain data, known without importing it: its ``name``, ``title`` (both as the
    rules object says; a test checks they agree) and where its rules object is (``module``, ``attribute``)."""

    name: str
    title: str
    module: str
    attribute: str


#: Every game, in the order the home screen offers them. A game is imported only when it is asked for
#: (:func:`find_game`): a kiosk that opens one game loads that game's package alone.
REGISTERED: tuple[RegisteredGame, ...] = (
    RegisteredGame("tv-wars", "TV Wars", "companion.games.tv_wars", "TV_WARS"),
    RegisteredGame("death-show-tv", "Death Show TV", "companion.games.death_show_tv", "DEATH_SHOW_TV"),
    RegisteredGame("channel-won", "Channel WON", "companion.games.channel_won", "CHANNEL_WON"),
    RegisteredGame("telly-time", "Telly Time", "companion.games.telly_time", "TELLY_TIME"),
)
_BY_NAME = {game.name: game for game in REGISTERED}


def game_names() -> list[str]:
    """The names of the registered games, e.g. ``["channel-won", "death-show-tv", ...]`` (sorted; nothing is
    imported)."""
    return sorted(_BY_NAME)


def _registered(name: str) -> RegisteredGame:
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise UnknownGame(f"no game called {name!r}; known games: {', '.join(sorted(_BY_NAME))}") from None


def game_title(name: str) -> str:
    """The title of the registered game ``name`` without importing it (the home screen lists every game);
    raises :class:`UnknownGame` listing the known names."""
    return _registered(name).title


def find_game(name: str) -> GameRules:
    """Return the rules registered as ``name``, importing that game's package (only it) the first time; raise
    :class:`UnknownGame` listing the known names."""
    game = _registered(name)
    return getattr(importlib.import_module(game.module), game.attribute)
