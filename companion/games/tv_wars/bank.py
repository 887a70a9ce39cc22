"""The TV Wars bank ledger (TV Wars 2.4, 7, 9.4, 9.5): whole dollars as ``int``, every movement a journaled
``money_moved`` event (TV Wars is the only game with a bank; the shared opt-in command that moves money is
:class:`companion.commands.TransferMoney`, which in full play is a hand correction only, marked as one: TV Wars 4
"nor may loans be made").

Balances are a plain ``Mapping[str, int]`` of player name to dollars. The bank (:data:`BANK`) has
unlimited money. A payment larger than a player's balance is refused with :class:`InsufficientFunds`;
each game's own debt rules (TV Wars 7, bankruptcy) sit on top of this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.checks import is_whole
from companion.commands import BANK
from companion.errors import InsufficientFunds, MalformedCommand
from companion.games.tv_wars.events import MoneyMoved
from companion.words import format_dollars  # noqa: F401  (re-exported: the ledger's money text)

MONEY_MOVED = "money_moved"


@dataclass(frozen=True)
class Movement:
    """One movement of money: ``amount`` dollars (> 0) from ``payer`` to ``payee`` for ``reason``;
    ``rule`` names the rule that caused it, if any."""

    payer: str
    payee: str
    amount: int
    reason: str
    rule: str = ""

    def to_event(self) -> MoneyMoved:
        """The ``money_moved`` event recording this movement."""
        return MoneyMoved(self.payer, self.payee, self.amount, self.reason, self.rule)

    @classmethod
    def from_event(cls, event: MoneyMoved) -> Movement:
        """The movement a ``money_moved`` event records."""
        return cls(event.payer, event.payee, int(event.amount), event.reason, event.rule)


def check_movement(balances: Mapping[str, int], movement: Movement) -> Movement:
    """Return ``movement`` if it can be made from ``balances``.

    Raises :class:`MalformedCommand` for an amount that is not a positive whole number of dollars, an
    unknown name, paying oneself or an empty reason; :class:`InsufficientFunds` when a player pays more
    than their balance.
    """
    amount = movement.amount
    if not is_whole(amount):
        raise MalformedCommand(f"an amount is a whole number of dollars, not {amount!r}")
    if amount <= 0:
        raise MalformedCommand(f"an amount must be more than $0, not {format_dollars(amount)}")
    for name in (movement.payer, movement.payee):
        if name != BANK and name not in balances:
            raise MalformedCommand(f"unknown player {name!r}; players are {', '.join(balances)}")
    if movement.payer == movement.payee:
        raise MalformedCommand(f"{movement.payer} cannot pay itself")
    if not isinstance(movement.reason, str) or not movement.reason.strip():
        raise MalformedCommand("a transfer needs a reason")
    if movement.payer != BANK and balances[movement.payer] < amount:
        raise InsufficientFunds(
            f"{movement.payer} has {format_dollars(balances[movement.payer])}, cannot pay {format_dollars(amount)}",
            rule="no loans; debts are settled by the game's own rules",
        )
    return movement


def apply_movement(balances: Mapping[str, int], movement: Movement) -> dict[str, int]:
    """Return new balances after ``movement`` (already checked). The bank's side is not tracked."""
    new = dict(balances)
    if movement.payer != BANK:
        new[movement.payer] -= movement.amount
    if movement.payee != BANK:
        new[movement.payee] += movement.amount
    return new
