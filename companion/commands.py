"""Commands: what a player (through a button, a tap, a reader or the CLI) asks the table to do.

Commands are small immutable values whose ``repr`` is valid Python, in the style of python-chess moves.
Adapters only build commands and post them to :meth:`companion.table.Table.post`; the table's owner
thread decides whether they are legal. Game-specific commands live in ``companion.games.<game>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

#: The name used for the bank in payer/payee fields.
BANK = "bank"


@dataclass(frozen=True, kw_only=True)
class Command:
    """Base of every command. ``source`` says where it came from: ``touch``, ``button``, ``keyboard``,
    ``reader``, ``cli`` or ``test``; it is journaled with the events for the record."""

    source: str = "touch"

    #: A command carrying one player's secret figures (TV Wars 9.1: a tile's rating, a line-up). Its secret
    #: fields are left out of its ``repr`` (so out of logs), and a screen shows its refusal on the player's
    #: own panel, not on the shared screen.
    private: ClassVar[bool] = False


@dataclass(frozen=True)
class PlayerSeat:
    """A player at the table: ``name`` (a network's call letters in TV Wars) and ``colour`` (a CSS-style
    name or ``#rrggbb``) used on the screen and panels."""

    name: str
    colour: str = "white"


@dataclass(frozen=True, kw_only=True)
class NewGame(Command):
    """Start a new game of the registered game ``game`` (for example ``"tv-wars"``) for ``players``,
    with game ``options`` (house rules). Any open game stays saved and can be resumed."""

    game: str
    players: tuple[PlayerSeat, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class OpenGame(Command):
    """Open (resume) the saved game with journal id ``game_id`` by replaying its events."""

    game_id: int


@dataclass(frozen=True, kw_only=True)
class Undo(Command):
    """Undo the last ``steps`` moves (1 or more). Undo is itself an event, never a delete."""

    steps: int = 1


@dataclass(frozen=True, kw_only=True)
class Redo(Command):
    """Redo the most recently undone move."""


@dataclass(frozen=True, kw_only=True)
class JumpTo(Command):
    """Return the game to exactly how it was right after history entry ``seq`` (a move or an undo/redo).

    Jumping to the entry just before an undo undoes that undo.
    """

    seq: int


#: :class:`EndGame`'s reason when none is given.
DEFAULT_END_REASON = "ended at the table"


@dataclass(frozen=True, kw_only=True)
class EndGame(Command):
    """Declare the open game finished, with a ``reason`` in words. Can be undone like any move."""

    reason: str = DEFAULT_END_REASON


#: The longest reason an :class:`EndGame` may give (it is shown in the history and the exports).
END_REASON_LIMIT = 80


def end_reason(command: EndGame) -> str:
    """``command``'s reason, stripped: text of 1 to :data:`END_REASON_LIMIT` characters. Every game decides
    ``EndGame`` with it, so a reason that is not words is refused alike everywhere (a table rule)."""
    from companion.errors import MalformedCommand

    reason = command.reason
    if not isinstance(reason, str) or not reason.strip() or len(reason.strip()) > END_REASON_LIMIT:
        raise MalformedCommand(f"say why the game ends, in 1 to {END_REASON_LIMIT} characters, not {reason!r}")
    return reason.strip()


def end_words(reason: str | None) -> str:
    """What follows "ended at the table" in a game's result: ``": <reason>"``, or nothing for the default
    reason (:data:`DEFAULT_END_REASON`; "ended at the table: ended at the table" said it twice) or none."""
    return "" if not reason or reason.strip().lower() == DEFAULT_END_REASON else f": {reason}"


@dataclass(frozen=True, kw_only=True)
class TransferMoney(Command):
    """A shared opt-in command: move ``amount`` whole dollars from ``payer`` to ``payee`` (a player name or
    :data:`BANK`), for ``reason`` (free text, required). Only a game with a bank accepts it (TV Wars, whose
    ledger is ``companion.games.tv_wars.bank``); the others refuse it as a command they do not have. Refused
    if the amount is not a positive whole number of dollars, if a name is unknown, or if the payer is a
    player whose balance is smaller than the amount. ``correction`` says the players are correcting the
    record by hand (a miscount), not making a move of the game: a game whose rules forbid such a move may
    accept it as a correction only, and marks it as one in its history and exports (the game's own rules
    say which transfers need it)."""

    payer: str
    payee: str
    amount: int
    reason: str
    correction: bool = False


@dataclass(frozen=True, kw_only=True)
class AdjustTrack(Command):
    """A shared opt-in command: change ``player``'s hand-kept track ``track`` (for example TV Wars'
    ``"half_hours"`` before its 2.3 selection) by ``delta`` (an int, may be negative). Only a game that keeps
    such a track by hand accepts it (TV Wars); the others refuse it. Refused with the track's bounds if the
    result would leave them."""

    player: str
    track: str
    delta: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class RollDice(Command):
    """Answer the pending dice request with the table's built-in generator (``roller`` must be the player
    the request names)."""

    roller: str


@dataclass(frozen=True, kw_only=True)
class AnswerDice(Command):
    """Answer the pending dice request with ``values`` read from physical dice: entered by hand
    (``source="manual"``) or reported by a dice reader (``source="reader"``)."""

    roller: str
    values: tuple[int, ...]
    source: str = "manual"
