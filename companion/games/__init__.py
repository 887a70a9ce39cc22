"""The registry of games, found by name (in the style of python-chess's variants).

Each game is an object with the :class:`GameRules` shape: static facts (``name``, ``title``, player
counts), ``new_game(players, options)`` returning its plain state, and pure functions ``decide`` (check a
command against the rules, return the events it causes or raise a rule-cited error) and ``evolve`` (fold
one event into the state). No I/O, no clocks, no global random.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

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


def _registry() -> dict[str, GameRules]:
    from companion.games.tv_wars import TV_WARS

    return {rules.name: rules for rules in (TV_WARS,)}


def game_names() -> list[str]:
    """The names of the registered games, e.g. ``["tv-wars"]``."""
    return sorted(_registry())


def find_game(name: str) -> GameRules:
    """Return the rules registered as ``name``; raise :class:`UnknownGame` listing the known names."""
    registry = _registry()
    try:
        return registry[name]
    except KeyError:
        raise UnknownGame(f"no game called {name!r}; known games: {', '.join(sorted(registry))}") from None
