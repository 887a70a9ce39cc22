"""The one contract every game meets (DESIGN.md: one package per game, plain data, pure decide/evolve).

A game is found by name through the entry-point group ``tabletop_companion.games`` (:mod:`companion.games`).
Each entry point names the game's :class:`GameInfo`, a plain-data description that is cheap to import (the
home screen lists every game without importing any rules). ``GameInfo.rules`` says where the game's
:class:`Game` object lives; :func:`companion.games.find_game` imports it on first use.

Shapes and units:

* a **seat** is a player's name as set up (``"ABS"``, ``"Kelpie"``); seats are in seat order;
* a **command** is a :class:`companion.commands.Command`; ``decide`` returns the **events** it causes
  (:class:`companion.events.Event` subclasses, each with its journal ``TYPE``), or raises a
  :class:`companion.errors.CommandError` whose ``rule`` names the rule (or ``"table rule"`` for the
  companion's own);
* ``evolve`` folds one event into the state (pure, no I/O, no clock, no global random);
* figures (:meth:`Game.figures`) are plain ints or short strings per seat: dollars, Rating Points,
  half-hours, points, Vitality, each game its own columns.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from companion.commands import Command, PlayerSeat
from companion.dice import DiceRequest
from companion.events import Event, EventCodec

if TYPE_CHECKING:  # the views are plain data defined with the registry
    from companion.games import TableView

#: The seat button slots, in the order they sit on the board (config: ``buttons.a``, ``buttons.b``, ``buttons.c``).
SLOTS: tuple[str, ...] = ("a", "b", "c")


@dataclass(frozen=True)
class ButtonSlot:
    """What one of a seat's buttons means in this game: ``slot`` (``"a"``, ``"b"`` or ``"c"``), the
    ``action`` it stands for (passed to :meth:`Game.button_command`) and its ``label`` on the key help and the
    on-screen twin ("On the Air · Bid")."""

    slot: str
    action: str
    label: str


@dataclass(frozen=True)
class OptionSpec:
    """One house-rule option: ``name`` (the TOML key under ``[house_rules]``), its Python ``kind`` (``bool``,
    ``int``, ``str``, ``list``, ``dict``), its ``default``, a one-line ``help`` that cites the rule it changes,
    and, for a ``str`` option, the allowed ``choices``. ``read_file``: for an option the config may give as a file
    path, the ``"module:function"`` that reads the file into the option's value (Channel WON's card catalogue),
    imported only when a config names a file. ``most``: for an ``int`` option, the largest value a config may
    set (a new game's choice; a game already journaled with more still opens, as the rules check nothing above)."""

    name: str
    kind: type
    default: Any
    help: str = ""
    choices: tuple[str, ...] = ()
    read_file: str = ""
    most: int | None = None


@dataclass(frozen=True)
class GameInfo:
    """A game's static facts, as data: ``name`` (registry id, ``"tv-wars"``), ``title``, player counts,
    ``player_word`` (what the home screen calls players: ``"networks"``), ``default_names`` (seat names when
    the config keeps the built-in ones), ``buttons`` (one :class:`ButtonSlot` per seat button slot),
    ``options`` (its house rules), and where its parts are, as ``"module:attribute"`` strings imported only
    when used: ``rules`` (the :class:`Game` object), ``board`` (its touchscreen board, a Kivy widget class;
    ``""`` for the generic board), ``cli`` (a function ``(subparsers) -> None`` adding the game's own
    ``companion`` subcommands; ``""`` for none)."""

    name: str
    title: str
    min_players: int
    max_players: int
    player_word: str
    default_names: tuple[str, ...]
    buttons: tuple[ButtonSlot, ...]
    rules: str
    options: tuple[OptionSpec, ...] = ()
    board: str = ""
    cli: str = ""
    #: BoardGameGeek id where the game has one (exports: :mod:`companion.export_bgstats`).
    bgg_id: int | None = None
    #: The :meth:`Game.figures` column that is a player's score in a BG Stats export (``"cash"``, ``"points"``);
    #: ``""`` for a game that scores no points (the last one standing wins).
    score: str = ""

    def button(self, slot: str) -> ButtonSlot:
        """The :class:`ButtonSlot` for ``slot``; ``KeyError`` for a slot this game does not use."""
        for button in self.buttons:
            if button.slot == slot:
                return button
        raise KeyError(slot)

    def option(self, name: str) -> OptionSpec:
        """The :class:`OptionSpec` called ``name``; ``KeyError`` if there is none."""
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)


class Termination(enum.Enum):
    """How a game ended (:class:`Outcome`)."""

    WON = "won"  # the rules name a winner (or tied winners) by score or figures
    DRAW = "draw"  # the rules end the game with no winner
    LAST_STANDING = "last standing"  # everyone else is out (TV Wars 10, Death Show TV's last Contestant)
    ALL_LOST = "all lost"  # every player is out at once (TV Wars 10: all lose their last programs together)
    ENDED_BY_HAND = "ended by hand"  # the table ended it (companion's End game)


@dataclass(frozen=True)
class Outcome:
    """How a finished game came out: its ``termination``, the ``winners`` (seats, possibly several or none),
    each seat's final ``figures`` (:meth:`Game.figures` at the end), the ``reason`` in words with its rule
    ("ABS wins: $41,500, the most money (rule 11)") and the ``ranking`` (seats best first, ties as the rules
    break them; empty where the rules give no order) and, where the rules count a final score that is not one
    of the figures, each seat's ``scores`` (TV Wars 8: cash plus programs at the asset count, in dollars; empty:
    the figure :attr:`GameInfo.score` names is the score)."""

    termination: Termination
    winners: tuple[str, ...]
    figures: Mapping[str, Mapping[str, int | str]]
    reason: str
    ranking: tuple[str, ...] = ()
    scores: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class LegalCommand:
    """One thing a seat can be offered now (:meth:`Game.legal_commands`).

    ``kind`` is the command's class name (``"LockLineUp"``); ``label`` is what a button for it says;
    ``command`` is the complete command when nothing is left to choose (a board or a phone may post it as is),
    ``None`` when the player still picks arguments (a bid, a tile); ``enabled`` says whether it may be made now,
    and when not, ``reason`` says why and ``rule`` which rule (shown, never matched by code)."""

    kind: str
    label: str
    command: Command | None = None
    enabled: bool = True
    reason: str = ""
    rule: str = ""


@dataclass(frozen=True)
class PrivateView:
    """What only one seat may see (TV Wars 9.1: ratings and bonus values are secret): the ``seat``, ``lines``
    of short text for its panel's peek and its phone (each ≤ 21 characters fits a panel line), and ``items``:
    (label, detail) pairs of its secret holdings for a larger screen."""

    seat: str
    lines: tuple[str, ...] = ()
    items: tuple[tuple[str, str], ...] = field(default_factory=tuple)


@runtime_checkable
class Game(Protocol):
    """The shape every registered game has (a type checker checks each game against it; see ``.ci/run``)."""

    @property
    def info(self) -> GameInfo:
        """The game's static facts (:class:`GameInfo`)."""
        ...

    @property
    def events(self) -> EventCodec:
        """The game's event types, which decode journal rows (type, payload, schema version) into events."""
        ...

    @property
    def safe_point_events(self) -> frozenset[str]:
        """Event types after which a backup is taken (a round or war is over)."""
        ...

    @property
    def state_version(self) -> int:
        """Raised when the state's meaning changes without its fields changing (stored states are rebuilt)."""
        ...

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> Any:
        """The initial state; raises :class:`companion.errors.CommandError` for a bad set-up."""
        ...

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options with defaults filled in; raises :class:`companion.errors.BadOption` if one is wrong."""
        ...

    def decide(self, state: Any, command: Command) -> Sequence[Event]:
        """The events ``command`` causes, or raises a ``CommandError`` citing the rule."""
        ...

    def evolve(self, state: Any, event: Event) -> Any:
        """The state after one event (pure)."""
        ...

    def describe(self, event: Event) -> str:
        """One readable line for the history screen and ``companion replay``."""
        ...

    def public_view(self, state: Any) -> TableView:
        """The public picture of ``state``: what everyone at the table may see (no secret values)."""
        ...

    def private_view(self, state: Any, seat: str) -> PrivateView:
        """What only ``seat`` may see."""
        ...

    def legal_commands(self, state: Any, seat: str) -> tuple[LegalCommand, ...]:
        """What ``seat`` may do now, and what it is shown but may not do, with why not."""
        ...

    def pending_dice(self, state: Any) -> DiceRequest | None:
        """The dice request the game is waiting for, if any."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """How the game came out, or ``None`` while it is still being played."""
        ...

    def figures(self, state: Any) -> Mapping[str, Mapping[str, int | str]]:
        """Each seat's figures now, ``{seat: {column: value}}`` in seat order; the export writes one row per
        move with these columns."""
        ...

    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        """The command a seat button's ``action`` stands for; raises ``MalformedCommand`` for an unknown one."""
        ...
